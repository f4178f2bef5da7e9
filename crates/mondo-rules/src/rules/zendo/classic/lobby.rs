//! A Classic match's first phase, the lobby: its moves and what its events do (the
//! rules are in the rule book, `mod.rs`).

use super::{Classic, ClassicEvent, ClassicMove, MAX_STUDENTS, MIN_STUDENTS, Phase};
use crate::rules::zendo::Step;
use crate::rules::{self, BySeat, Clock, Emitter, FoldError, Game, PlayerId, RuleError, Seat, Who};

impl Classic {
    /// Every per-seat record laid out afresh for `n` students (in the lobby, and as
    /// the game starts).
    pub(super) fn seat_records(&mut self) {
        let n = self.seating.players.len();
        self.stones = BySeat::new(n, 0);
        self.timeouts = BySeat::new(n, 0);
        self.away = BySeat::new(n, false);
        self.left = BySeat::new(n, false);
    }

    /// A lobby's refusal, said in full.
    fn refuse(message: String) -> RuleError {
        RuleError::Game {
            code: rules::ErrorCode::WrongPhase,
            message,
        }
    }

    /// The lobby's moves.
    pub(super) fn lobby_rule(
        &self,
        out: &mut Emitter<Classic>,
        who: Who,
        m: &ClassicMove,
    ) -> Result<(), RuleError> {
        let opener = self.lobby.map(|l| l.opener);
        let seat_for = |player: PlayerId, you: bool| {
            if self.master == Some(player) {
                return Err(Classic::refuse(if you {
                    "you are this game's Master: the Master does not play".into()
                } else {
                    format!("{player} is this game's Master: the Master does not play")
                }));
            }
            if self.seat_of(player).is_some() {
                return Err(Classic::refuse(if you {
                    "you are in already".into()
                } else {
                    format!("{player} is in already")
                }));
            }
            if self.seating.players.len() >= MAX_STUDENTS {
                return Err(Classic::refuse(format!(
                    "the lobby is full ({MAX_STUDENTS} students)"
                )));
            }
            Ok(ClassicEvent::Joined { player })
        };
        // The opener and the hosts lead the lobby: they start it and seat students.
        let may_lead = match who {
            Who::Host(_) | Who::Umpire => true,
            Who::Player(seat) => Some(self.seating.players[seat]) == opener,
            Who::Newcomer(p) => Some(p) == opener,
        };
        match (m, who) {
            (ClassicMove::Join, Who::Player(_)) => {
                return Err(Classic::refuse("you are in already".into()));
            }
            (ClassicMove::Join, Who::Newcomer(p) | Who::Host(p)) => out.emit(seat_for(p, true)?),
            (ClassicMove::AddStudent { player }, _) => match (may_lead, opener) {
                (false, Some(opener)) => return Err(RuleError::NotOpener { opener }),
                (false, None) => return Err(RuleError::HostOnly("seat a student")),
                _ => out.emit(seat_for(*player, false)?),
            },
            (ClassicMove::Leave, Who::Player(seat)) => out.emit(ClassicEvent::Unjoined {
                player: self.seating.players[seat],
            }),
            (ClassicMove::Start, _) => {
                let may = may_lead;
                if let (false, Some(opener)) = (may, opener) {
                    return Err(RuleError::NotOpener { opener });
                }
                let n = self.seating.players.len();
                if n < MIN_STUDENTS {
                    return Err(Classic::refuse(format!(
                        "Zendo Classic needs {MIN_STUDENTS} to {MAX_STUDENTS} students; {n} joined"
                    )));
                }
                out.emit(ClassicEvent::Started);
            }
            _ => return Err(RuleError::NotAPlayer),
        }
        Ok(())
    }

    /// What a lobby's event does.
    pub(super) fn fold_lobby(&mut self, event: &ClassicEvent) -> Result<(), FoldError> {
        match event {
            ClassicEvent::Joined { player } => {
                if !self.in_lobby() || self.seating.players.values().contains(player) {
                    return Err(self.seating.ledger.misfit("nobody may join now"));
                }
                let mut players = self.seating.players.values().to_vec();
                players.push(*player);
                self.seating.players = BySeat::from_vec(players);
                self.seat_records();
            }
            ClassicEvent::Unjoined { player } => {
                if !self.in_lobby() || !self.seating.players.values().contains(player) {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("that student is not in the lobby"));
                }
                let players = self.seating.players.values().iter().copied();
                self.seating.players = BySeat::from_vec(players.filter(|p| p != player).collect());
                self.seat_records();
            }
            ClassicEvent::Started => {
                if !self.in_lobby() || self.seating.players.len() < MIN_STUDENTS {
                    return Err(self.seating.ledger.misfit("no lobby is ready to start"));
                }
                self.seat_records();
                self.turn = 1;
                self.clock = Clock::stopped(self.timing.turn_ms);
                self.set_step(Seat::FIRST, Step::Build);
            }
            ClassicEvent::LobbyClosed { .. } => {
                if !self.in_lobby() {
                    return Err(self.seating.ledger.misfit("no lobby is open"));
                }
                self.phase = Phase::Over;
                self.closed = true;
            }
            _ => return Err(self.seating.ledger.misfit("not a lobby's event")),
        }
        Ok(())
    }
}
