//! Logical Bluffs as a [`Game`]: the rule book of `mod.rs` ([`Bluffs`]) behind the
//! shared authority, so the runtime stores, replays and times it like every other
//! game, and hosts pause, resume and end it.
//!
//! - The log is the rule book's own events (`Created` first); the state is their fold,
//!   with the [`Ledger`] counting them. `[a_stored_log_reads_back_the_same_match]`
//! - A pause stops every deadline (phase, reserve, the time to guess); on resume they
//!   move by the time paused, and downtime after a restart is not counted either.
//!   `[a_pause_stops_every_clock_and_resume_moves_the_deadlines]`,
//!   `[downtime_is_not_counted]`
//! - A host ends the match with no winner, the layout shown; a host who plays cannot.
//!   `[a_host_ends_the_match_with_no_winner]`
//! - Deadlines come to the runtime as data and back as time-outs.
//!   `[time_outs_settle_the_phases]`
//! - Views and events keep each player's secrets: a spectator (the shared terminal, a
//!   channel) sees neither player's tiles, RP, truths or reveals; a player never the
//!   other's. `[views_and_events_keep_each_players_secrets]`

use super::view::shown;
use super::{
    Bluff, Bluffs, Ending, Error, EventKind, Move, PhaseName, PlayerView, RevealProblem, Settings,
    Setup, SetupProblem, ShownBluff, Who as CoreWho,
};
use crate::lang::tiles::Layout;
use crate::rules::{
    self, Emitter, ErrorCode, FoldError, Game, Millis, NoWork, PlayerId, Role, RuleError, Seat,
    Seating, Secret, SetupError, Viewer, Who,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A Logical Bluffs match as the runtime keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BluffsMatch {
    seating: Seating,
    core: Bluffs,
    /// Since when a host has paused it: the deadlines move by the pause on resume.
    paused_since: Option<Millis>,
}

/// The next thing that happens by itself: the phase, its round and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadline {
    pub at: Millis,
    pub round: u32,
    pub phase: PhaseName,
}

rules::deadline!(Deadline);

impl rules::Move for Move {
    fn role(&self) -> Role {
        match self {
            Move::Tick => Role::Umpire,
            _ => Role::Player,
        }
    }
    fn describe(&self) -> &'static str {
        match self {
            Move::Tick => "call time",
            _ => "make a player's move",
        }
    }
}

/// What everyone may see: no tile, no RP, no truth.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicBluffs {
    /// The phase's end for everyone (before reserve time, or the time to guess).
    pub deadline: Option<Millis>,
    /// In Bluffing and Claiming: who has submitted.
    pub submitted: [bool; 2],
    /// Both bluffs as shown from Claiming on (a smokescreened statement `None`).
    pub bluffs: [Option<ShownBluff>; 2],
    /// How many tiles each bought in the last Reveal.
    pub bought: Option<[u32; 2]>,
    /// Who won (`None`: no winner) and how.
    pub outcome: Option<(Option<Seat>, Ending)>,
    /// Only once the match is over.
    pub layout: Option<Layout>,
}

/// What one viewer sees.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BluffsView {
    pub version: u64,
    /// The version at which the current phase began: a control drawn before it is
    /// stale.
    pub phase_since: u64,
    pub paused: bool,
    pub players: [PlayerId; 2],
    pub round: u32,
    pub phase: PhaseName,
    pub settings: Settings,
    /// The viewer's seat, if they play.
    pub you: Option<Seat>,
    pub public: PublicBluffs,
    /// The viewer's own: known tiles, RP, reserve, bluff, marks, items.
    pub mine: Option<PlayerView>,
}

impl BluffsMatch {
    /// The rule book's state (the layout in it is secret: for tests and the umpire).
    pub fn core(&self) -> &Bluffs {
        &self.core
    }

    /// `now` as the rules see it: frozen while paused.
    fn frozen(&self, now: Millis) -> Millis {
        self.paused_since.map_or(now, |p| p.min(now))
    }

    /// Asks the rule book at `out.at()` and emits what it says.
    fn ask(&self, out: &mut Emitter<BluffsMatch>, who: CoreWho, m: &Move) -> Result<(), RuleError> {
        let now = self.frozen(out.at());
        let events = self.core.decide(who, m, now).map_err(refusal)?;
        for e in events {
            let kind = match e.kind {
                EventKind::Ended {
                    winner,
                    ending,
                    layout,
                    ..
                } => EventKind::Ended {
                    winner,
                    ending,
                    layout,
                    judged: out.next().end_sides(winner, ending).and_then(|sides| {
                        Some(rules::fair::judge(&sides))
                            .filter(|v| *v != rules::fair::Verdict::Stands)
                    }),
                },
                kind => kind,
            };
            out.emit(kind);
        }
        Ok(())
    }

    /// Each side at the end, as the fair-play rule sees it (docs/ratings.md): `None`
    /// where the ending stands as it is (a guess decided it, or a host ended it).
    fn end_sides(&self, winner: Option<Seat>, ending: Ending) -> Option<Vec<rules::fair::Side>> {
        let sides = |idle: &dyn Fn(Seat) -> bool| rules::fair::sides(&self.seating, idle);
        match ending {
            Ending::HostEnded | Ending::Guessed => None,
            // The side out of time was idle.
            Ending::OpponentOutOfTime => {
                let out = winner.map(|w| Seat(1 - w.0.min(1)));
                Some(sides(&|s| Some(s) == out))
            }
            // Both out at once is the rules' draw when both had played the round,
            // abandoned when neither had.
            Ending::BothOutOfTime => Some(sides(&|s| !self.core.acted_this_round(s))),
            // Leaving before ever acting aborts.
            Ending::Resigned => {
                let by = winner.map_or(Seat(0), |w| Seat(1 - w.0.min(1)));
                Some(sides(&|s| s == by && !self.seating.has_acted(by)))
            }
        }
    }

    fn public(&self) -> PublicBluffs {
        let c = &self.core;
        let shown_phase = matches!(c.phase, PhaseName::Claiming | PhaseName::Reveal);
        let show = |b: &Option<Bluff>| b.as_ref().filter(|_| shown_phase).map(shown);
        PublicBluffs {
            deadline: (!c.is_over()).then_some(c.deadline),
            submitted: [0, 1].map(|i| {
                matches!(c.phase, PhaseName::Bluffing | PhaseName::Claiming)
                    && !c.owes(Seat(i as u8))
            }),
            bluffs: [show(&c.bluffs[0]), show(&c.bluffs[1])],
            bought: c.counted,
            outcome: c.outcome,
            layout: c.is_over().then_some(c.layout),
        }
    }
}

/// The rule book's refusal as the engine's, with a stable code: the code every game
/// gives where the refusal is of a shared kind (the umpire making a player's move is
/// not a player, as the authority check says; a move the round's earlier moves rule
/// out is for another moment); `invalid_move` for the game's own rules.
fn refusal(e: Error) -> RuleError {
    let code = match &e {
        Error::Over => return RuleError::MatchOver,
        Error::UmpireOnly => return RuleError::UmpireOnly("call time"),
        Error::NotForUmpire => ErrorCode::NotAPlayer,
        Error::WrongPhase { .. }
        | Error::AlreadyDone(_)
        | Error::Reveal(RevealProblem::Bought | RevealProblem::Declared) => ErrorCode::WrongPhase,
        _ => ErrorCode::InvalidMove,
    };
    RuleError::Game {
        code,
        message: e.to_string(),
    }
}

impl Game for BluffsMatch {
    type Move = Move;
    type View = BluffsView;

    fn from_setup(setup: &Setup, now: Millis) -> Result<BluffsMatch, SetupError> {
        // The rule book's start makes the created event and round 1's Bluffing; the
        // log keeps only the first (the second follows from it).
        let (core, _) = Bluffs::start(setup.clone(), now).map_err(|e| match e {
            Error::Setup(SetupProblem::SamePlayer) => SetupError::SamePlayer,
            other => SetupError::Invalid(other.to_string()),
        })?;
        Ok(BluffsMatch {
            seating: Seating::new(now, setup.players, setup.seed),
            core,
            paused_since: None,
        })
    }

    rules::seating!();

    fn is_over(&self) -> bool {
        self.core.is_over()
    }

    fn finish(&self) -> Option<rules::Finish> {
        let (winner, ending) = self.core.outcome()?;
        let own = rules::Finish::two(&self.core.setup.players, winner.map(|s| s.index()));
        Some(match (ending, self.end_sides(winner, ending)) {
            (Ending::HostEnded, _) => rules::Finish::Unrated(rules::Why::HostEnded),
            (_, Some(sides)) => rules::fair::two(&self.core.setup.players, &sides, own),
            (_, None) => own,
        })
    }

    fn acted_by(&self, event: &EventKind) -> Option<Seat> {
        match event {
            EventKind::Submitted { seat, .. }
            | EventKind::Bluffed { seat, .. }
            | EventKind::Detected { seat, .. }
            | EventKind::Marked { seat, .. }
            | EventKind::Revealed { seat, .. }
            | EventKind::GuessDeclared { seat, .. }
            | EventKind::Guessed { seat, .. } => Some(*seat),
            _ => None,
        }
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::to_value(self.core.settings()).unwrap_or_default()
    }

    fn check_turn(&self, _seat: Seat, _m: &Move) -> Result<(), RuleError> {
        // No turns: both players act in every phase.
        Ok(())
    }

    fn check_phase(&self, m: &Move, now: Millis) -> Result<(), RuleError> {
        self.core.check_phase(m, self.frozen(now)).map_err(refusal)
    }

    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &Move) -> Result<(), RuleError> {
        let who = match who {
            Who::Player(seat) => CoreWho::Player(seat),
            Who::Umpire => CoreWho::Umpire,
            Who::Host(_) | Who::Newcomer(_) => return Err(RuleError::NotAPlayer),
        };
        self.ask(out, who, m)
    }

    fn resign(&self, out: &mut Emitter<BluffsMatch>, seat: Seat) -> Result<(), RuleError> {
        self.ask(out, CoreWho::Player(seat), &Move::Resign)
    }

    fn end(&self, out: &mut Emitter<BluffsMatch>, _by: PlayerId) {
        out.emit(EventKind::Ended {
            winner: None,
            ending: Ending::HostEnded,
            layout: self.core.layout,
            judged: None,
        });
    }

    fn time_out(&self, out: &mut Emitter<BluffsMatch>, _deadline: Deadline) {
        // A tick before the end is always accepted; the engine passes only current,
        // due deadlines.
        let _ = self.ask(out, CoreWho::Umpire, &Move::Tick);
    }

    fn next_deadline(&self) -> Option<Deadline> {
        if self.seating.ledger.paused {
            return None;
        }
        Some(Deadline {
            at: self.core.next_deadline()?,
            round: self.core.round,
            phase: self.core.phase,
        })
    }

    fn fold_game(&mut self, event: &EventKind, at: Millis) -> Result<(), FoldError> {
        let e = super::Event {
            at,
            kind: event.clone(),
        };
        self.core
            .fold(&e)
            .map_err(|r| self.seating.ledger.misfit(r.to_string()))?;
        if matches!(event, EventKind::PhaseBegan { .. }) {
            self.seating.ledger.enter();
        }
        Ok(())
    }

    fn skip_downtime(&mut self, from: Millis, to: Millis) {
        if self.paused_since.is_none() && !self.core.is_over() {
            self.core.shift(to.saturating_sub(from));
        }
    }

    fn sync_clocks(&mut self, at: Millis) {
        match (self.seating.ledger.paused, self.paused_since) {
            (true, None) => self.paused_since = Some(at),
            (false, Some(since)) => {
                self.core.shift(at.saturating_sub(since));
                self.paused_since = None;
            }
            _ => {}
        }
    }

    fn view(&self, viewer: &Viewer) -> BluffsView {
        let you = self.viewer_seat(viewer);
        BluffsView {
            version: self.seating.ledger.version,
            phase_since: self.seating.ledger.phase_since,
            paused: self.seating.ledger.paused,
            players: self.core.setup.players,
            round: self.core.round,
            phase: self.core.phase,
            settings: self.core.setup.settings.clone(),
            you,
            public: self.public(),
            mine: you.map(|s| self.core.view(s)),
        }
    }

    fn secrets(&self, viewer: &Viewer) -> Vec<Secret> {
        let c = &self.core;
        let you = self.viewer_seat(viewer);
        let mut out = Vec::new();
        // Never told to anyone else, even at the end: RP, marks, truths, guesses.
        out.extend(Secret::others(2, you));
        // (The same number as the viewer's own would be no telling sign.)
        let mine = you.map(|s| c.rp[s.index()]);
        for seat in [Seat::FIRST, Seat::SECOND] {
            let points = c.rp[seat.index()];
            if Some(seat) != you && mine != Some(points) {
                out.push(Secret::Points { seat, points });
            }
        }
        // What the viewer said themselves they know, whoever else said it too.
        let own: Vec<String> = you
            .and_then(|s| c.bluffs[s.index()].as_ref())
            .map(|b| {
                let mut words = b.statements.clone();
                words.push(b.subset.to_string());
                words
            })
            .unwrap_or_default();
        let shown = !matches!(c.phase, PhaseName::Bluffing) || c.is_over();
        // ... or sees in the open: the same words in a bluff shown.
        let open: Vec<String> = c
            .bluffs
            .iter()
            .flatten()
            .filter(|_| shown)
            .flat_map(|b| {
                b.statements
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| b.smokescreen != Some(k + 1))
                    .map(|(_, s)| s.clone())
                    .collect::<Vec<_>>()
            })
            .collect();
        for (i, b) in c.bluffs.iter().enumerate() {
            let Some(b) = b.as_ref().filter(|_| Some(Seat(i as u8)) != you) else {
                continue;
            };
            let mut words = Vec::new();
            for (k, statement) in b.statements.iter().enumerate() {
                // A smokescreened statement is never shown to the others.
                if !shown || b.smokescreen == Some(k + 1) {
                    words.push(statement.clone());
                }
            }
            if !shown {
                words.push(b.subset.to_string());
            }
            out.extend(
                words
                    .into_iter()
                    .filter(|w| !own.contains(w) && !open.contains(w))
                    .map(Secret::Words),
            );
        }
        if c.is_over() {
            return out;
        }
        out.push(Secret::Seed(c.setup.seed));
        out.push(Secret::Layout(c.layout));
        let known: &[crate::lang::tiles::Cell] = you.map_or(&[], |s| c.known(s));
        for cell in crate::lang::tiles::Cell::all().filter(|x| !known.contains(x)) {
            out.push(Secret::Tile(cell, c.layout.colour(cell)));
        }
        out
    }

    fn redact(&self, event: &EventKind, viewer: &Viewer) -> Option<EventKind> {
        let e = super::Event {
            at: 0,
            kind: event.clone(),
        };
        let heard = Bluffs::visible(&e, self.viewer_seat(viewer))?.kind;
        Some(match heard {
            // The truths are told when Bluffing ends (`TruthTold`), not on submitting.
            EventKind::Bluffed {
                seat,
                subset,
                statements,
                no_limit,
                smokescreen,
                ..
            } => EventKind::Bluffed {
                seat,
                subset,
                statements,
                truths: Vec::new(),
                no_limit,
                smokescreen,
            },
            other => other,
        })
    }

    /// Nothing to perform: the umpire checks statements at once.
    fn perform(work: NoWork, _stop: Arc<AtomicBool>) -> Move {
        work.never()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::tiles::Colour;
    use crate::rules::{Action, Actor, Event};

    const START: Millis = 5_000_000;
    const A: PlayerId = PlayerId(11);
    const B: PlayerId = PlayerId(22);
    const HOST: PlayerId = PlayerId(99);

    type Act = Action<Move, Deadline>;

    struct T {
        g: BluffsMatch,
        log: Vec<Event<EventKind>>,
        now: Millis,
    }

    impl T {
        fn new() -> T {
            let setup = Setup {
                players: [A, B],
                seed: 7,
                settings: Settings::default(),
            };
            let (g, created) = BluffsMatch::start(setup, START).expect("a good setup");
            T {
                g,
                log: vec![created],
                now: START,
            }
        }

        fn try_act(&mut self, actor: Actor, a: Act) -> Result<(), RuleError> {
            let events = self.g.play(&actor, &a, self.now)?;
            self.log.extend(events);
            Ok(())
        }

        #[track_caller]
        fn act(&mut self, actor: Actor, a: Act) {
            if let Err(e) = self.try_act(actor, a.clone()) {
                panic!("{a:?} by {actor:?} refused: {e}");
            }
        }

        /// The end event says what the fair-play rule judged: a verdict exactly when
        /// the finish is not the ending's own result, and then the same one.
        fn judged_as_said(&self) {
            let Some(EventKind::Ended { winner, judged, .. }) =
                self.log.iter().rev().find_map(|e| e.game())
            else {
                panic!("no end event: {:?}", self.log.last());
            };
            let finish = Game::finish(&self.g).expect("over");
            let own = rules::Finish::two(&[A, B], winner.map(|s| s.index()));
            let from_verdict = judged.as_ref().map(|v| match v {
                rules::fair::Verdict::Abandoned => rules::Finish::Unrated(rules::Why::Abandoned),
                rules::fair::Verdict::Aborted(s) => rules::Finish::Unrated(rules::Why::Aborted {
                    by: [A, B][s.index()],
                }),
                rules::fair::Verdict::Lose(l) => {
                    rules::Finish::two(&[A, B], Some(1 - l[0].index()))
                }
                rules::fair::Verdict::Stands => own.clone(),
            });
            assert_eq!(from_verdict.unwrap_or(own), finish, "{judged:?}");
        }

        /// The runtime's part: every deadline due by now, as time-outs.
        fn run_clock(&mut self) {
            while let Some(d) = self.g.next_deadline().filter(|d| d.at <= self.now) {
                self.act(Actor::Umpire, Action::Timeout { deadline: d });
            }
        }

        fn bluff(&mut self, p: PlayerId, subset: &str) {
            let statements = Colour::ALL
                .iter()
                .map(|c| format!("There is a {} tile.", c.name()))
                .collect();
            self.act(
                Actor::Player(p),
                Action::Move(Move::Bluff {
                    subset: subset.into(),
                    statements,
                    no_limit: false,
                    smokescreen: None,
                }),
            );
        }
    }

    #[test]
    fn time_outs_settle_the_phases() {
        let mut t = T::new();
        let d = t.g.next_deadline().expect("Bluffing has a deadline");
        assert_eq!(d.phase, PhaseName::Bluffing);
        // Too early: refused.
        assert!(matches!(
            t.g.apply(&Actor::Umpire, &Action::Timeout { deadline: d }, t.now),
            Err(RuleError::TooEarly { .. })
        ));
        t.bluff(A, "A1-A2-B1-B2");
        // B runs out of Bluffing time and reserve: A wins.
        t.now = START + 180_000 + 300_000;
        t.run_clock();
        assert!(t.g.is_over());
        assert_eq!(
            t.g.core().outcome(),
            Some((Some(Seat(0)), Ending::OpponentOutOfTime))
        );
    }

    /// Check 4, in the engine's order: a move made for another phase is refused as
    /// such before a button's version is looked at, and the phase is the one the
    /// match is in at `now`, the deadlines that passed settled (the same refusal the
    /// rule book gives).
    #[test]
    fn a_move_for_another_phase_is_refused_at_check_4() {
        let mut t = T::new();
        let pass = Action::Move(Move::Pass);
        let stale = t.g.version() + 5;
        let refused = t.g.decide(&Actor::Player(A), &pass, Some(stale), t.now);
        let Err(RuleError::Game { code, message }) = refused.map(|_| ()) else {
            panic!("not refused for its phase")
        };
        assert_eq!(code, rules::ErrorCode::WrongPhase);
        assert_eq!(message, "that is for the Reveal phase; it is now Bluffing");
        assert!(Game::check_phase(&t.g, &Move::Resign, t.now).is_ok());
        // Both bluff and mark: Claiming, then Reveal, whose 30 s then run out unsettled.
        t.bluff(A, "A1-A2-B1-B2");
        t.bluff(B, "C1-C2-D1-D2");
        for p in [A, B] {
            let marks = vec![Some(true); crate::rules::bluffs::STATEMENTS];
            t.act(Actor::Player(p), Action::Move(Move::Claim { marks }));
        }
        assert_eq!(t.g.core().phase(), PhaseName::Reveal);
        assert!(Game::check_phase(&t.g, &Move::Pass, t.now).is_ok());
        t.now += t.g.core().settings().reveal_ms;
        // Reveal is over at `now`, though no time-out has said so yet: round 2's
        // Bluffing takes a bluff, not a pass.
        assert_eq!(t.g.core().phase(), PhaseName::Reveal);
        let bluff = Move::Bluff {
            subset: "A3-A4-B3-B4".into(),
            statements: vec![],
            no_limit: false,
            smokescreen: None,
        };
        assert!(Game::check_phase(&t.g, &bluff, t.now).is_ok());
        let late = Game::check_phase(&t.g, &Move::Pass, t.now).unwrap_err();
        assert_eq!(late.code(), rules::ErrorCode::WrongPhase, "{late}");
    }

    /// The fair-play rule (docs/ratings.md): a side out of reserve without having
    /// bluffed or marked in that round was idle at the end.
    #[test]
    fn every_finish_follows_the_fair_play_rule() {
        use rules::{Finish, Why};
        let mark = |t: &mut T, p: PlayerId| {
            let marks = Move::Claim {
                marks: vec![Some(true); 4],
            };
            t.act(Actor::Player(p), Action::Move(marks));
        };
        // (A bluffs, B bluffs, A marks, B marks), then every clock runs out.
        let play = |steps: [bool; 4]| {
            let mut t = T::new();
            if steps[0] {
                t.bluff(A, "A1-A2-B1-B2");
            }
            if steps[1] {
                t.bluff(B, "C1-C2-D1-D2");
            }
            if steps[2] {
                mark(&mut t, A);
            }
            if steps[3] {
                mark(&mut t, B);
            }
            t.now = START + 36_000_000;
            t.run_clock();
            assert!(t.g.is_over());
            t.judged_as_said();
            Game::finish(&t.g)
        };
        let two = |winner| Some(Finish::two(&[A, B], winner));
        // Nobody played: both reserves out at once is abandoned, never a rated draw.
        assert_eq!(play([false; 4]), Some(Finish::Unrated(Why::Abandoned)));
        // B never played: aborted, no result against anyone.
        assert_eq!(
            play([true, false, false, false]),
            Some(Finish::Unrated(Why::Aborted { by: B }))
        );
        // Both bluffed, then only A marked: B stopped after playing and loses on time.
        assert_eq!(play([true, true, true, false]), two(Some(0)));
        // Both bluffed and neither marked: both reserves out at once in a round both
        // played, the rules' draw, rated.
        assert_eq!(play([true, true, false, false]), two(None));
        // Resigning before acting aborts; after acting it is a loss.
        let mut t = T::new();
        t.bluff(A, "A1-A2-B1-B2");
        t.act(Actor::Player(B), Action::Resign);
        t.judged_as_said();
        assert_eq!(
            Game::finish(&t.g),
            Some(Finish::Unrated(Why::Aborted { by: B }))
        );
        let mut t = T::new();
        t.bluff(B, "A1-A2-B1-B2");
        t.act(Actor::Player(B), Action::Resign);
        assert_eq!(Game::finish(&t.g), two(Some(0)));
    }

    #[test]
    fn a_pause_stops_every_clock_and_resume_moves_the_deadlines() {
        let mut t = T::new();
        let before = t.g.next_deadline().expect("a deadline").at;
        t.now += 10_000;
        t.act(Actor::Host(HOST), Action::Pause);
        assert_eq!(t.g.next_deadline(), None);
        // Players wait; resigning is still allowed (tested below).
        let e =
            t.g.apply(&Actor::Player(A), &Action::Move(Move::Pass), t.now)
                .unwrap_err();
        assert_eq!(e, RuleError::Paused);
        // An hour paused, long past every deadline.
        t.now += 3_600_000;
        t.act(Actor::Host(HOST), Action::Resume);
        let after = t.g.next_deadline().expect("a deadline").at;
        assert_eq!(after, before + 3_600_000);
        t.run_clock();
        assert!(!t.g.is_over());
        // Resigning while paused does not first settle deadlines that only passed
        // during the pause.
        t.now += 1_000;
        t.act(Actor::Host(HOST), Action::Pause);
        t.now += 10_000_000;
        t.act(Actor::Player(B), Action::Resign);
        assert_eq!(
            t.g.core().outcome(),
            Some((Some(Seat(0)), Ending::Resigned))
        );
    }

    #[test]
    fn downtime_is_not_counted() {
        let mut t = T::new();
        let before = t.g.next_deadline().expect("a deadline").at;
        t.now += 60_000;
        let since = t.now;
        t.now += 900_000;
        t.act(Actor::Umpire, Action::Downtime { since });
        assert_eq!(t.g.next_deadline().map(|d| d.at), Some(before + 900_000));
    }

    /// Refusals of a kind every game has carry that kind's code; the game's own rules
    /// are `invalid_move`.
    #[test]
    fn refusals_of_a_shared_kind_carry_its_code() {
        use super::super::{Item, MarksProblem};
        let phase = Error::WrongPhase {
            expected: PhaseName::Reveal,
            now: PhaseName::Bluffing,
        };
        let codes = [
            (Error::Over, ErrorCode::MatchOver),
            (Error::UmpireOnly, ErrorCode::UmpireOnly),
            (Error::NotForUmpire, ErrorCode::NotAPlayer),
            (phase, ErrorCode::WrongPhase),
            (Error::AlreadyDone("marked"), ErrorCode::WrongPhase),
            (RevealProblem::Bought.into(), ErrorCode::WrongPhase),
            (RevealProblem::Declared.into(), ErrorCode::WrongPhase),
            (RevealProblem::Barred.into(), ErrorCode::InvalidMove),
            (RevealProblem::NoTile.into(), ErrorCode::InvalidMove),
            (Error::ItemUsed(Item::Detective), ErrorCode::InvalidMove),
            (Error::NoSuchStatement(9), ErrorCode::InvalidMove),
            (MarksProblem::Count(2).into(), ErrorCode::InvalidMove),
        ];
        for (e, code) in codes {
            let said = e.to_string();
            let refused = refusal(e);
            assert_eq!(refused.code(), code, "{said}");
            if let RuleError::Game { message, .. } = &refused {
                assert_eq!(*message, said, "the rule book's words are kept");
            }
        }
    }

    #[test]
    fn a_host_ends_the_match_with_no_winner() {
        let mut t = T::new();
        let e = t.try_act(Actor::Host(A), Action::End).unwrap_err();
        assert_eq!(e.code(), ErrorCode::HostPlays);
        t.act(Actor::Host(HOST), Action::End);
        let v = t.g.view(&Viewer::Spectator);
        assert_eq!(v.public.outcome, Some((None, Ending::HostEnded)));
        assert_eq!(v.public.layout, Some(*t.g.core().layout()));
        assert_eq!(
            t.g.apply(&Actor::Player(A), &Action::Move(Move::Pass), t.now),
            Err(RuleError::MatchOver)
        );
    }

    #[test]
    fn a_stored_log_reads_back_the_same_match() {
        let mut t = T::new();
        t.bluff(A, "A1-A2-B1-B2");
        t.bluff(B, "C1-C2-D1-D2");
        t.now += 5_000;
        // A refused move is a rule error with a stable code, and changes nothing.
        let e = t
            .try_act(Actor::Player(A), Action::Move(Move::Pass))
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::WrongPhase);
        assert!(e.to_string().contains("Reveal"), "{e}");
        let json: Vec<String> = t
            .log
            .iter()
            .map(|e| serde_json::to_string(e).expect("events serialise"))
            .collect();
        let back: Vec<Event<EventKind>> = json
            .iter()
            .map(|j| serde_json::from_str(j).expect("events read back"))
            .collect();
        let g = BluffsMatch::replay(&back).expect("the log replays");
        for viewer in [Viewer::Player(A), Viewer::Player(B), Viewer::Spectator] {
            assert_eq!(g.view(&viewer), t.g.view(&viewer));
        }
        assert_eq!(g.next_deadline(), t.g.next_deadline());
    }

    #[test]
    fn views_and_events_keep_each_players_secrets() {
        let mut t = T::new();
        t.bluff(A, "A1-A2-B1-B2");
        t.bluff(B, "C1-C2-D1-D2");
        let spectator = serde_json::to_string(&t.g.view(&Viewer::Spectator)).unwrap_or_default();
        assert!(!spectator.contains("\"known\""), "{spectator}");
        assert!(!spectator.contains("\"rp\""), "{spectator}");
        assert!(!spectator.contains("truths"), "{spectator}");
        assert!(!spectator.contains(&t.g.core().layout().to_string()));
        let a = t.g.view(&Viewer::Player(A));
        let mine = a.mine.as_ref().expect("a player's own view");
        assert_eq!(mine.known.len(), 4);
        assert!(
            mine.known
                .iter()
                .all(|(c, _)| !t.g.core().known(Seat(1)).contains(c))
        );
        // Truths, RP and tiles reach only their player; the spectator hears none.
        for e in &t.log {
            let Some(EventKind::TruthTold { seat, .. }) = e.game() else {
                continue;
            };
            let owner = t.g.player(*seat);
            let other = t.g.player(seat.other());
            assert!(t.g.visible(e, &Viewer::Player(owner)).is_some());
            assert!(t.g.visible(e, &Viewer::Player(other)).is_none());
            assert!(t.g.visible(e, &Viewer::Spectator).is_none());
        }
        // The created event holds the seed, so the layout: nobody hears it.
        assert!(matches!(t.log[0].game(), Some(EventKind::Created { .. })));
        assert!(t.g.visible(&t.log[0], &Viewer::Player(A)).is_none());
        // A player's own bluff comes back without its truths: they are told when
        // Bluffing ends.
        let bluffed = t
            .log
            .iter()
            .find(|e| matches!(e.game(), Some(EventKind::Bluffed { .. })))
            .and_then(|e| t.g.visible(e, &Viewer::Player(A)));
        assert!(matches!(
            bluffed.as_ref().and_then(|e| e.game()),
            Some(EventKind::Bluffed { truths, .. }) if truths.is_empty()
        ));
    }
}
