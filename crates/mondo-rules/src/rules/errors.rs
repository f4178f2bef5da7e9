//! Why the engine refuses a request, a match setup, or an event.
//!
//! Syntax errors (a structure or a pattern that does not read) belong to the parsers;
//! these are rule errors: the request was understood and is not allowed now. Every one
//! has a stable [`ErrorCode`] for programs and a lower-case message a player can act on.

use super::{Millis, PlayerId};
use serde::{Deserialize, Serialize};

/// Stable names for the ways a request can be refused. Fronts and tests match on
/// these, never on the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    MatchOver,
    NotAPlayer,
    HostOnly,
    HostPlays,
    UmpireOnly,
    Paused,
    NotYourTurn,
    WrongPhase,
    StaleVersion,
    AlreadyGiven,
    WrongSet,
    NoTicket,
    Expired,
    BadVerdict,
    StaleDeadline,
    TooEarly,
    Unsupported,
    TooHard,
    Solved,
    /// The move breaks one of the game's own rules (the message says which).
    InvalidMove,
}

/// A request the rules do not allow (now).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the match is over")]
    MatchOver,
    #[error("you are not playing in this match")]
    NotAPlayer,
    #[error("{0} is not playing in this match; name one of its players")]
    NotInMatch(PlayerId),
    #[error("only a host can {0}")]
    HostOnly(&'static str),
    /// A host who plays in the match would judge their own game.
    #[error("you play in this match, so you cannot {0} in it: a host who does not play can")]
    HostPlays(&'static str),
    #[error("only the umpire can {0}")]
    UmpireOnly(&'static str),
    #[error("the match is paused by a host; wait until it resumes")]
    Paused,
    #[error("it is not your turn: waiting for {waiting_for}")]
    NotYourTurn { waiting_for: PlayerId },
    /// A lobby starts by the one who opened it, or a host.
    #[error("only {opener} (who opened the lobby) or a host starts it")]
    NotOpener { opener: PlayerId },
    /// The action exists but not at this point of the game; the text says what is
    /// possible instead.
    #[error("{0}")]
    WrongPhase(&'static str),
    #[error(
        "that was shown at version {shown} and the match has moved on (now {current}); \
         look at the latest state and try again"
    )]
    StaleVersion { shown: u64, current: u64 },
    #[error(
        "this structure was already given as #{number} (a moved structure is the same \
         structure); build one that is not on the table"
    )]
    AlreadyGiven { number: u32 },
    #[error("this match plays with the {set} set; use only its pieces")]
    WrongSet { set: crate::koan::PieceSet },
    /// A guess that speaks of what the match's pieces lack (the lang set check's words).
    #[error("{0}")]
    PatternSet(String),
    /// A guess the umpire could not judge within its limit (the finder's estimate,
    /// made before anything is built): refused at read-back, before it is official.
    /// The text says why and how to say it more simply.
    #[error("{0}")]
    TooHard(String),
    #[error("you have no guessing ticket; answer a challenge correctly to earn one")]
    NoTicket,
    /// Zendo Triple and Classic call their guessing tokens stones; the text says how
    /// one is earned there. (The same code as [`RuleError::NoTicket`].)
    #[error("you have no guessing stone; {0}")]
    NoStone(&'static str),
    #[error("time is up: {0}")]
    Expired(&'static str),
    #[error("the umpire's verdict was refused: {0}")]
    BadVerdict(String),
    #[error("that deadline is no longer the current one")]
    StaleDeadline,
    #[error("that deadline has not passed yet (it passes at {at})")]
    TooEarly { at: Millis },
    #[error("{0}")]
    Unsupported(&'static str),
    /// Zendo Triple: a solved pattern has left the game.
    #[error("pattern {0} is solved and has left the game: name an unsolved one")]
    Solved(char),
    /// A game's own refusal, said in full, with the code it maps to (Logical Bluffs:
    /// its rule book's errors).
    #[error("{message}")]
    Game { code: ErrorCode, message: String },
    /// A front sent one game's move to another game's match.
    #[error("this match plays {}; that is a move of {}", .this.title(), .asked.title())]
    OtherGame {
        this: super::GameKind,
        asked: super::GameKind,
    },
}

impl RuleError {
    pub fn code(&self) -> ErrorCode {
        match self {
            RuleError::MatchOver => ErrorCode::MatchOver,
            RuleError::NotAPlayer | RuleError::NotInMatch(_) => ErrorCode::NotAPlayer,
            RuleError::HostOnly(_) => ErrorCode::HostOnly,
            RuleError::HostPlays(_) => ErrorCode::HostPlays,
            RuleError::UmpireOnly(_) => ErrorCode::UmpireOnly,
            RuleError::Paused => ErrorCode::Paused,
            RuleError::NotYourTurn { .. } | RuleError::NotOpener { .. } => ErrorCode::NotYourTurn,
            RuleError::WrongPhase(_) => ErrorCode::WrongPhase,
            RuleError::StaleVersion { .. } => ErrorCode::StaleVersion,
            RuleError::AlreadyGiven { .. } => ErrorCode::AlreadyGiven,
            RuleError::WrongSet { .. } | RuleError::PatternSet(_) => ErrorCode::WrongSet,
            RuleError::TooHard(_) => ErrorCode::TooHard,
            RuleError::NoTicket | RuleError::NoStone(_) => ErrorCode::NoTicket,
            RuleError::Expired(_) => ErrorCode::Expired,
            RuleError::BadVerdict(_) => ErrorCode::BadVerdict,
            RuleError::StaleDeadline => ErrorCode::StaleDeadline,
            RuleError::TooEarly { .. } => ErrorCode::TooEarly,
            RuleError::Unsupported(_) | RuleError::OtherGame { .. } => ErrorCode::Unsupported,
            RuleError::Solved(_) => ErrorCode::Solved,
            RuleError::Game { code, .. } => *code,
        }
    }
}

/// Why a match cannot be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a duel needs two different players")]
    SamePlayer,
    /// A game that plays with one piece set only, asked for another.
    #[error("the {game} plays with {needs}, not the {set} set ({hint})")]
    NeedsPieceSet {
        game: &'static str,
        needs: &'static str,
        set: crate::koan::PieceSet,
        hint: &'static str,
    },
    #[error("the player with the advantage must be one of the two players")]
    AdvantageNotPlaying,
    #[error("initial structure {which} is not of the {set} set this match plays with")]
    InitialWrongSet {
        which: &'static str,
        set: crate::koan::PieceSet,
    },
    #[error("the hidden pattern does not fit the piece set: {0}")]
    HiddenWrongSet(String),
    #[error("the initial structure meant to obey the hidden pattern does not obey it")]
    ObeyingDoesNot,
    #[error("the initial structure meant not to obey the hidden pattern obeys it")]
    NotObeyingObeys,
    #[error("{0}")]
    BadSettings(&'static str),
    /// A setup that does not hold together, said in full (which structure, which
    /// pattern).
    #[error("{0}")]
    Invalid(String),
}

/// An event that does not fit the state it is folded into: a corrupt or foreign log.
/// Events made by `apply` on a state always fit that state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {version} does not fit the match: {reason}")]
pub struct FoldError {
    /// The version the event would have produced.
    pub version: u64,
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_to_stable_snake_case_names() {
        let json = serde_json::to_string(
            &RuleError::StaleVersion {
                shown: 1,
                current: 2,
            }
            .code(),
        );
        assert_eq!(json.ok().as_deref(), Some("\"stale_version\""));
        let json = serde_json::to_string(&RuleError::NoTicket.code());
        assert_eq!(json.ok().as_deref(), Some("\"no_ticket\""));
    }

    #[test]
    fn messages_are_lower_case_and_say_what_to_do() {
        let errors = [
            RuleError::MatchOver,
            RuleError::NoTicket,
            RuleError::AlreadyGiven { number: 3 },
            RuleError::NotYourTurn {
                waiting_for: PlayerId(7),
            },
            RuleError::StaleVersion {
                shown: 4,
                current: 9,
            },
        ];
        for e in errors {
            let m = e.to_string();
            assert!(m.starts_with(|c: char| c.is_lowercase()), "{m}");
        }
        assert!(
            RuleError::AlreadyGiven { number: 3 }
                .to_string()
                .contains("#3")
        );
    }
}
