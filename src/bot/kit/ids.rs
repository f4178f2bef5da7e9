//! What a button or a modal carries back: the match, the version it was drawn at, and
//! what it does. Everything a press needs is in its custom id, so a stale or replayed
//! press is refused by the engine's version check, and buttons keep working after a
//! restart (nothing about them is kept in memory).
//!
//! Every game's buttons share one header, `m:MATCH:VERSION:VERB[:ARG...]` ([`Header`]):
//! the interaction handler reads it once, finds the match, and hands the verb to the
//! match's game, which passes the version to the engine with the move it makes (the
//! engine refuses a button drawn before the current phase, or a replayed one, as
//! `StaleVersion`). The verbs are each game's own: Zendo's are [`Press`].

use crate::rules::PlayerId;
use crate::rules::zendo::{Answer, Mode};
use crate::store::MatchId;
use std::fmt;
use std::str::FromStr;

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// The player with the advantage names who starts.
    Start(PlayerId),
    /// A private challenge answer.
    Answer(Answer),
    /// Opens the answer buttons ephemerally in the channel (for a player the bot
    /// cannot DM).
    AskHere,
    /// Makes the pending guess official.
    Confirm,
    /// Takes the pending guess back.
    TakeBack,
    /// Zendo Triple: a challenge answer sheet as it stands after this press (one
    /// answer per pattern A, B, C; `None` not answered yet). The sheet travels in the
    /// id, so building it needs no memory and survives a restart.
    Sheet([Option<Answer>; 3]),
    /// A Zendo Classic lobby's button (its `MATCH` the match in its lobby phase, or the
    /// number of a lobby an older version stored, with version 0).
    Lobby(LobbyPress),
    /// Builds the structure a koan box's private preview shows (the structure is read
    /// from that message, too long for an id), in this mode.
    Submit(Mode),
    /// Opens the koan box again with the preview's structure in it.
    Edit(Mode),
}

/// What a lobby's button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyPress {
    Join,
    Leave,
    Start,
}

/// A sheet's answers as three letters, `o`beys, `n`ot, `p`ass or `-`.
fn sheet_text(sheet: &[Option<Answer>; 3]) -> String {
    sheet
        .iter()
        .map(|a| match a {
            Some(Answer::Obeys) => 'o',
            Some(Answer::Not) => 'n',
            Some(Answer::Pass) => 'p',
            None => '-',
        })
        .collect()
}

fn read_sheet(text: &str) -> Option<[Option<Answer>; 3]> {
    let answers: Vec<Option<Answer>> = text
        .chars()
        .map(|c| match c {
            'o' => Some(Some(Answer::Obeys)),
            'n' => Some(Some(Answer::Not)),
            'p' => Some(Some(Answer::Pass)),
            '-' => Some(None),
            _ => None,
        })
        .collect::<Option<_>>()?;
    answers.try_into().ok()
}

/// The header every button's custom id starts with: `m:MATCH:VERSION:VERB`, then the
/// verb's arguments, `:`-separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub game: MatchId,
    /// The match's version when the button was drawn; `None` for the Logical Bluffs
    /// buttons drawn before the header (`bluffs:MATCH:VERB...`), which still work: the
    /// engine's own rules refuse what no longer fits.
    pub version: Option<u64>,
    pub verb: String,
    pub args: Vec<String>,
}

/// The custom ids Logical Bluffs drew before the header (still on posted messages).
const OLD_BLUFFS: &str = "bluffs:";

impl Header {
    pub fn new(game: MatchId, version: u64, verb: &str) -> Header {
        Header {
            game,
            version: Some(version),
            verb: verb.to_string(),
            args: Vec::new(),
        }
    }

    /// The same header with one more argument.
    pub fn arg(mut self, arg: impl fmt::Display) -> Header {
        self.args.push(arg.to_string());
        self
    }

    /// Reads a custom id: the header, or an older Logical Bluffs id.
    pub fn parse(s: &str) -> Result<Header, UnknownButton> {
        let bad = || UnknownButton(s.chars().take(100).collect());
        if let Some(rest) = s.strip_prefix(OLD_BLUFFS) {
            let mut parts = rest.split(':');
            let game = parts
                .next()
                .and_then(|g| g.parse::<i64>().ok())
                .filter(|n| *n > 0);
            let verb = parts.next().filter(|v| !v.is_empty());
            let (Some(game), Some(verb)) = (game, verb) else {
                return Err(bad());
            };
            return Ok(Header {
                game: MatchId(game),
                version: None,
                verb: verb.to_string(),
                args: parts.map(str::to_string).collect(),
            });
        }
        let mut parts = s.split(':');
        if parts.next() != Some("m") {
            return Err(bad());
        }
        let (game, version) = match_and_version(&mut parts).ok_or_else(bad)?;
        let verb = parts.next().filter(|v| !v.is_empty()).ok_or_else(bad)?;
        Ok(Header {
            game,
            version: Some(version),
            verb: verb.to_string(),
            args: parts.map(str::to_string).collect(),
        })
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            Some(v) => write!(f, "m:{}:{v}:{}", self.game.0, self.verb)?,
            None => write!(f, "{OLD_BLUFFS}{}:{}", self.game.0, self.verb)?,
        }
        for a in &self.args {
            write!(f, ":{a}")?;
        }
        Ok(())
    }
}

/// A Zendo button's custom id: the [`Header`] with one of Zendo's verbs ([`Press`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButtonId {
    pub game: MatchId,
    /// The match's version when the button was drawn.
    pub version: u64,
    pub press: Press,
}

impl fmt::Display for ButtonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m:{}:{}:", self.game.0, self.version)?;
        match self.press {
            Press::Start(p) => write!(f, "start:{}", p.0),
            Press::Answer(a) => write!(
                f,
                "answer:{}",
                match a {
                    Answer::Obeys => "obeys",
                    Answer::Not => "not",
                    Answer::Pass => "pass",
                }
            ),
            Press::AskHere => f.write_str("ask"),
            Press::Confirm => f.write_str("confirm"),
            Press::TakeBack => f.write_str("takeback"),
            Press::Sheet(sheet) => write!(f, "sheet:{}", sheet_text(&sheet)),
            Press::Lobby(LobbyPress::Join) => f.write_str("lobby:join"),
            Press::Lobby(LobbyPress::Leave) => f.write_str("lobby:leave"),
            Press::Lobby(LobbyPress::Start) => f.write_str("lobby:start"),
            Press::Submit(mode) => write!(f, "submit:{mode}"),
            Press::Edit(mode) => write!(f, "edit:{mode}"),
        }
    }
}

/// A custom id that is not one of Mondo's (or from a version that drew others).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this button is not one Mondo knows (`{0}`); use the latest message or a command")]
pub struct UnknownButton(pub String);

/// The `MATCH:VERSION` part both kinds of id carry: a positive match id, a version.
fn match_and_version<'a>(parts: &mut impl Iterator<Item = &'a str>) -> Option<(MatchId, u64)> {
    let game = parts.next()?.parse::<i64>().ok().filter(|n| *n > 0)?;
    let version = parts.next()?.parse::<u64>().ok()?;
    Some((MatchId(game), version))
}

impl FromStr for ButtonId {
    type Err = UnknownButton;

    fn from_str(s: &str) -> Result<ButtonId, UnknownButton> {
        ButtonId::from_header(&Header::parse(s)?)
            .ok_or_else(|| UnknownButton(s.chars().take(100).collect()))
    }
}

impl ButtonId {
    /// Zendo's verb under a header (`None`: not one of Zendo's, or damaged).
    pub fn from_header(h: &Header) -> Option<ButtonId> {
        let version = h.version?;
        let args: Vec<&str> = h.args.iter().map(String::as_str).collect();
        let press = match (h.verb.as_str(), args.as_slice()) {
            ("start", [p]) => Press::Start(PlayerId(p.parse().ok()?)),
            ("answer", ["obeys"]) => Press::Answer(Answer::Obeys),
            ("answer", ["not"]) => Press::Answer(Answer::Not),
            ("answer", ["pass"]) => Press::Answer(Answer::Pass),
            ("ask", []) => Press::AskHere,
            ("confirm", []) => Press::Confirm,
            ("takeback", []) => Press::TakeBack,
            ("sheet", [t]) => Press::Sheet(read_sheet(t)?),
            ("lobby", ["join"]) => Press::Lobby(LobbyPress::Join),
            ("lobby", ["leave"]) => Press::Lobby(LobbyPress::Leave),
            ("lobby", ["start"]) => Press::Lobby(LobbyPress::Start),
            ("submit", [m]) => Press::Submit(m.parse().ok()?),
            ("edit", [m]) => Press::Edit(m.parse().ok()?),
            _ => return None,
        };
        Some(ButtonId {
            game: h.game,
            version,
            press,
        })
    }
}

/// The modal `/koan` opens when no structure is given: `koan:MODE:MATCH:VERSION`. A box
/// submitted after the match moved on (the turn passed while it was open) is refused
/// by the version check, like a stale button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoanModal {
    pub mode: Mode,
    pub game: MatchId,
    /// The match's version when the box was opened.
    pub version: u64,
}

/// The text box of the koan modal.
pub const KOAN_FIELD: &str = "structure";

impl fmt::Display for KoanModal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "koan:{}:{}:{}", self.mode, self.game.0, self.version)
    }
}

impl FromStr for KoanModal {
    type Err = UnknownButton;
    fn from_str(s: &str) -> Result<KoanModal, UnknownButton> {
        let bad = || UnknownButton(s.chars().take(100).collect());
        let mut parts = s.split(':');
        if parts.next() != Some("koan") {
            return Err(bad());
        }
        let mode = parts
            .next()
            .and_then(|m| m.parse::<Mode>().ok())
            .ok_or_else(bad)?;
        let (game, version) = match_and_version(&mut parts).ok_or_else(bad)?;
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(KoanModal {
            mode,
            game,
            version,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_ids_round_trip_and_fit_discords_limit() {
        let presses = [
            Press::Start(PlayerId(u64::MAX)),
            Press::Answer(Answer::Obeys),
            Press::Answer(Answer::Not),
            Press::Answer(Answer::Pass),
            Press::AskHere,
            Press::Confirm,
            Press::TakeBack,
            Press::Sheet([Some(Answer::Obeys), None, Some(Answer::Pass)]),
            Press::Sheet([None, Some(Answer::Not), None]),
            Press::Lobby(LobbyPress::Join),
            Press::Lobby(LobbyPress::Leave),
            Press::Lobby(LobbyPress::Start),
            Press::Submit(Mode::Observe),
            Press::Submit(Mode::Challenge),
            Press::Edit(Mode::Challenge),
        ];
        for press in presses {
            let id = ButtonId {
                game: MatchId(i64::MAX),
                version: u64::MAX,
                press,
            };
            let text = id.to_string();
            assert!(text.len() <= 100, "{text}");
            assert_eq!(text.parse::<ButtonId>(), Ok(id), "{text}");
        }
    }

    #[test]
    fn foreign_or_damaged_ids_are_refused() {
        for text in [
            "",
            "m",
            "m:1",
            "m:1:2",
            "m:0:2:confirm",
            "m:-3:2:confirm",
            "m:1:x:confirm",
            "m:1:2:answer",
            "m:1:2:answer:maybe",
            "m:1:2:confirm:extra",
            "m:1:2:start:bob",
            "m:1:2:sheet:on",
            "m:1:2:sheet:onpx",
            "m:1:2:sheet:oxp",
            "m:1:0:lobby",
            "m:1:0:lobby:dance",
            "m:1:2:submit",
            "m:1:2:submit:sideways",
            "m:1:2:edit:observe:x",
            "x:1:2:confirm",
            "koan:observe",
        ] {
            assert!(text.parse::<ButtonId>().is_err(), "{text}");
        }
    }

    #[test]
    fn every_header_round_trips_and_old_bluffs_ids_still_read() {
        let h = Header::new(MatchId(12), 7, "mark").arg("TF??").arg("3T");
        assert_eq!(h.to_string(), "m:12:7:mark:TF??:3T");
        assert_eq!(Header::parse(&h.to_string()), Ok(h));
        // Zendo's ids are headers too.
        let zendo = Header::parse("m:3:9:answer:obeys").unwrap();
        assert_eq!((zendo.game, zendo.version), (MatchId(3), Some(9)));
        assert_eq!(
            ButtonId::from_header(&zendo).map(|b| b.press),
            Some(Press::Answer(Answer::Obeys))
        );
        // A Logical Bluffs button posted before the header: read, without a version.
        let old = Header::parse("bluffs:44:claim:TF?T").unwrap();
        assert_eq!(
            (old.game, old.version, old.verb.as_str(), old.args.clone()),
            (MatchId(44), None, "claim", vec!["TF?T".to_string()])
        );
        assert_eq!(old.to_string(), "bluffs:44:claim:TF?T");
        assert!(ButtonId::from_header(&old).is_none(), "not a Zendo press");
        for bad in [
            "bluffs:",
            "bluffs:x:claim",
            "bluffs:0:claim",
            "bluffs:4",
            "m:1:2",
            "m:1:2:",
        ] {
            assert!(Header::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn koan_modal_ids_carry_the_mode_match_and_version() {
        for mode in [Mode::Observe, Mode::Challenge] {
            let id = KoanModal {
                mode,
                game: MatchId(i64::MAX),
                version: u64::MAX,
            };
            let text = id.to_string();
            assert!(text.len() <= 100, "{text}");
            assert_eq!(text.parse::<KoanModal>(), Ok(id));
        }
        for text in [
            "koan:observe",
            "koan:observe:1",
            "koan:sideways:1:2",
            "koan:observe:0:2",
            "koan:observe:1:x",
            "koan:observe:1:2:3",
            "m:1:2:confirm",
        ] {
            assert!(text.parse::<KoanModal>().is_err(), "{text}");
        }
    }
}
