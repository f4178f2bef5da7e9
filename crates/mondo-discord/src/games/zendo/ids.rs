//! Zendo's button verbs ([`Press`]) under the header every button carries
//! (`kit::ids::Header`), and the box `/koan` opens ([`KoanModal`]).

use crate::kit::ids::{Header, UnknownButton, match_and_version};
use crate::post::Button;
use crate::rules::PlayerId;
use crate::rules::zendo::{Answer, Mode};
use crate::store::MatchId;
use poise::serenity_prelude::ButtonStyle;
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
    /// Seat an AI student (the opener or a host).
    AddAi,
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
            Press::Lobby(LobbyPress::AddAi) => f.write_str("lobby:ai"),
            Press::Submit(mode) => write!(f, "submit:{mode}"),
            Press::Edit(mode) => write!(f, "edit:{mode}"),
        }
    }
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
            ("lobby", ["ai"]) => Press::Lobby(LobbyPress::AddAi),
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

/// The modal `/koan` opens when no structure is given: `koan:MODE:MATCH:VERSION`.
/// What is typed in it is taken as a typed `/koan` is, without the version check (a
/// structure typed in advance is not stale): if the match moved on while the box was
/// open, the rules refuse what no longer fits (not your turn, a challenge already
/// open). The version only says when the box was opened.
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

/// A Zendo button drawn: confirming and "obeys" green, taking back and "does not"
/// red, the rest blue.
pub fn press_button(id: ButtonId, label: impl Into<String>) -> Button {
    let style = match id.press {
        Press::Confirm | Press::Submit(_) | Press::Answer(Answer::Obeys) => ButtonStyle::Success,
        Press::TakeBack | Press::Answer(Answer::Not) => ButtonStyle::Danger,
        _ => ButtonStyle::Primary,
    };
    Button::new(id, label, style)
}

/// The button that presses `press` on version `version` of the match `game`.
pub fn match_button(game: MatchId, version: u64, press: Press, label: impl Into<String>) -> Button {
    press_button(
        ButtonId {
            game,
            version,
            press,
        },
        label,
    )
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
            Press::Lobby(LobbyPress::AddAi),
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
    fn zendo_verbs_are_read_from_any_header_of_theirs() {
        let h = Header::parse("m:3:9:answer:obeys").unwrap();
        assert_eq!(
            ButtonId::from_header(&h).map(|b| b.press),
            Some(Press::Answer(Answer::Obeys))
        );
        let old = Header::parse("bluffs:44:claim:TF?T").unwrap();
        assert!(ButtonId::from_header(&old).is_none(), "not a Zendo press");
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
