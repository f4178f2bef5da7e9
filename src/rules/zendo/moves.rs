//! The moves every Zendo mode that has them means the same way ([`ZendoMove`]):
//! choosing who starts, confirming or taking back a guess, ending a turn, a host's
//! disallowing. Each mode's move enum holds them as one untagged variant beside its
//! own moves, so a stored move reads and writes exactly as it did when each mode
//! spelled them out; who may make them, and what kind of turn move they are, is said
//! here once.

use super::turn::{GuessMove, TurnMove};
use crate::rules::{self, PlayerId, Role};
use serde::{Deserialize, Serialize};

/// A move every Zendo mode that has it means the same way. A mode without turns
/// (practice) or without a player who chooses who starts (Classic) refuses what it
/// lacks, saying so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ZendoMove {
    /// The player with the advantage names who starts (Duel, Triple).
    ChooseStarter { starter: PlayerId },
    /// Make the pending guess official.
    Confirm,
    /// Withdraw the pending guess; its ticket or stone comes back.
    TakeBack,
    /// No more guesses now: the turn passes.
    EndTurn,
    /// Host: refuse the pending (or official, unjudged) guess as contrived; its ticket
    /// or stone comes back.
    Disallow,
}

impl rules::Move for ZendoMove {
    fn role(&self) -> Role {
        match self {
            ZendoMove::Disallow => Role::Host,
            _ => Role::Player,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            ZendoMove::Disallow => "disallow a guess",
            _ => "play",
        }
    }
}

impl ZendoMove {
    /// The kind of turn move it is, for a turn's step to check (Duel, Classic); None
    /// for choosing who starts, which comes before any turn.
    pub(crate) fn turn_move(self) -> Option<TurnMove> {
        match self {
            ZendoMove::ChooseStarter { .. } => None,
            ZendoMove::Confirm | ZendoMove::TakeBack => Some(TurnMove::Confirm),
            ZendoMove::EndTurn => Some(TurnMove::Guess),
            ZendoMove::Disallow => Some(TurnMove::Disallow),
        }
    }

    /// What it does to the guess in play, as the shared guess events take it; None for
    /// choosing who starts and ending a turn.
    pub(crate) fn guess_move(self) -> Option<GuessMove<'static>> {
        match self {
            ZendoMove::Confirm => Some(GuessMove::Confirm),
            ZendoMove::TakeBack => Some(GuessMove::TakeBack),
            ZendoMove::Disallow => Some(GuessMove::Disallow),
            ZendoMove::ChooseStarter { .. } | ZendoMove::EndTurn => None,
        }
    }
}

/// A mode's move enum holds the shared moves as `$mode::Zendo`: the shared move is a
/// move, and an action, of that mode.
macro_rules! shared_moves_in {
    ($($mode:ident => $action:ty),+ $(,)?) => {$(
        impl From<ZendoMove> for $mode {
            fn from(m: ZendoMove) -> $mode {
                $mode::Zendo(m)
            }
        }

        impl From<ZendoMove> for $action {
            fn from(m: ZendoMove) -> $action {
                rules::Action::Move($mode::Zendo(m))
            }
        }
    )+};
}

use super::classic::ClassicMove;
use super::duel::DuelMove;
use super::practice::PracticeMove;
use super::triple::TripleMove;

shared_moves_in! {
    DuelMove => super::duel::Action,
    TripleMove => super::triple::Action,
    ClassicMove => super::classic::Action,
    PracticeMove => super::practice::Action,
}

#[cfg(test)]
mod tests {
    use super::super::{classic, duel, practice, triple};
    use super::*;
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    /// Each stored move reads back and is written again byte for byte.
    fn same<A: Serialize + DeserializeOwned + std::fmt::Debug>(stored: &[&str]) {
        for json in stored {
            let read: A = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(serde_json::to_string(&read).unwrap(), *json, "{read:?}");
        }
    }

    /// Moves as the store and the runtime wrote them before the modes shared
    /// [`ZendoMove`] (each line was written by the code of then).
    #[test]
    fn stored_moves_read_back_and_write_the_same_bytes() {
        let shared = [
            r#"{"action":"confirm"}"#,
            r#"{"action":"take_back"}"#,
            r#"{"action":"disallow"}"#,
        ];
        let starter = r#"{"action":"choose_starter","starter":7}"#;
        let end = r#"{"action":"end_turn"}"#;
        let guess = r#"{"action":"guess","pattern":{"source":"some piece points up","formula":{"span":{"start":0,"end":20},"kind":{"Exists":[0,{"span":{"start":18,"end":20},"kind":{"Unary":["Up",0]}}]}}}}"#;
        let verdict = r#"{"action":"verdict","guess":2,"verdict":{"outcome":"undecided","reason":"too hard"}}"#;
        let koan =
            r#"{"set":"pyramids","pieces":[[{"row":0,"col":0},{"size":"Small","dir":"Up"}]]}"#;
        let build = format!(r#"{{"action":"build","koan":{koan},"mode":"challenge"}}"#);
        let answer = r#"{"action":"answer","answer":"obeys"}"#;
        same::<duel::Action>(&shared);
        same::<duel::Action>(&[starter, end, r#"{"action":"skip"}"#]);
        same::<duel::Action>(&[guess, verdict, &build, answer]);
        same::<triple::Action>(&shared);
        same::<triple::Action>(&[starter, end]);
        same::<triple::Action>(&[
            r#"{"action":"guess","pattern":"B","guess":{"source":"some piece points up","formula":{"span":{"start":0,"end":20},"kind":{"Exists":[0,{"span":{"start":18,"end":20},"kind":{"Unary":["Up",0]}}]}}}}"#,
            r#"{"action":"verdict","pattern":"B","guess":2,"verdict":{"outcome":"undecided","reason":"too hard"}}"#,
            r#"{"action":"answer","answers":["obeys","pass"]}"#,
        ]);
        same::<classic::Action>(&shared);
        same::<classic::Action>(&[end, r#"{"action":"back"}"#, r#"{"action":"join"}"#]);
        same::<classic::Action>(&[
            guess,
            verdict,
            answer,
            r#"{"action":"add_student","player":9}"#,
        ]);
        same::<practice::Action>(&shared);
        same::<practice::Action>(&[
            guess,
            verdict,
            &format!(r#"{{"action":"build","koan":{koan}}}"#),
        ]);
        // The actions every game shares are untouched.
        same::<duel::Action>(&[r#"{"action":"resign"}"#, r#"{"action":"pause"}"#]);
    }

    /// The shared moves read as the shared variant of each mode's moves, not as one
    /// of the mode's own.
    #[test]
    fn a_stored_shared_move_reads_as_the_shared_move() {
        let read = |json: &str| serde_json::from_str::<duel::Action>(json).unwrap();
        assert!(matches!(
            read(r#"{"action":"choose_starter","starter":7}"#),
            duel::Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter {
                starter: PlayerId(7)
            }))
        ));
        let read = |json: &str| serde_json::from_str::<classic::Action>(json).unwrap();
        assert!(matches!(
            read(r#"{"action":"end_turn"}"#),
            classic::Action::Move(ClassicMove::Zendo(ZendoMove::EndTurn))
        ));
        // Not a move of any Zendo mode: refused, not read as something else.
        assert!(serde_json::from_str::<triple::Action>(r#"{"action":"skip"}"#).is_err());
    }

    /// A host disallows; the umpire's verdicts and everything else are the players'.
    #[test]
    fn only_a_host_disallows() {
        use crate::rules::Move;
        for m in [
            ZendoMove::ChooseStarter {
                starter: PlayerId(1),
            },
            ZendoMove::Confirm,
            ZendoMove::TakeBack,
            ZendoMove::EndTurn,
        ] {
            assert_eq!(m.role(), Role::Player, "{m:?}");
            assert_eq!(DuelMove::from(m).role(), Role::Player, "{m:?}");
        }
        assert_eq!(ZendoMove::Disallow.role(), Role::Host);
        assert_eq!(ZendoMove::Disallow.describe(), "disallow a guess");
        assert_eq!(TripleMove::from(ZendoMove::Disallow).role(), Role::Host);
        assert_eq!(ClassicMove::from(ZendoMove::Disallow).role(), Role::Host);
        assert_eq!(PracticeMove::from(ZendoMove::Disallow).role(), Role::Host);
    }

    /// What each shared move is to a turn's step, and to the guess in play.
    #[test]
    fn each_shared_move_is_one_kind_of_turn_move() {
        let starter = ZendoMove::ChooseStarter {
            starter: PlayerId(1),
        };
        assert_eq!(starter.turn_move(), None);
        assert_eq!(ZendoMove::Confirm.turn_move(), Some(TurnMove::Confirm));
        assert_eq!(ZendoMove::TakeBack.turn_move(), Some(TurnMove::Confirm));
        assert_eq!(ZendoMove::EndTurn.turn_move(), Some(TurnMove::Guess));
        assert_eq!(ZendoMove::Disallow.turn_move(), Some(TurnMove::Disallow));
        assert!(starter.guess_move().is_none() && ZendoMove::EndTurn.guess_move().is_none());
        assert!(matches!(
            ZendoMove::Confirm.guess_move(),
            Some(GuessMove::Confirm)
        ));
        assert!(matches!(
            ZendoMove::TakeBack.guess_move(),
            Some(GuessMove::TakeBack)
        ));
        assert!(matches!(
            ZendoMove::Disallow.guess_move(),
            Some(GuessMove::Disallow)
        ));
    }
}
