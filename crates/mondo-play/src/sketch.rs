//! `sketch STRUCTURE [pyramids|arrows]`: a private sketch board, as Zendo gives each
//! player a spare table to try structures on. The structure is read (its piece set
//! from its notation, or the word after it) and printed as the canonical grid, with
//! its picture when pictures are drawn (`--png`), for the one who typed it; nothing
//! is sent to the match and nothing is recorded. Any game's session takes it.

use super::Session;
use crate::koan::{Koan, PieceSet};
use crate::narrate;
use crate::rules::Actor;
use serde_json::json;

impl Session {
    /// What `sketch TEXT` prints, for `named` (or the one player).
    pub(super) fn sketch(&mut self, named: Option<&Actor>, text: &str) -> Vec<String> {
        let (text, set) = match text.rsplit_once(char::is_whitespace) {
            Some((rest, last)) => match last.parse::<PieceSet>() {
                Ok(set) => (rest, Some(set)),
                Err(_) => (text, None),
            },
            None => (text, None),
        };
        if text.trim().is_empty() {
            let e = "give a structure to sketch, e.g. `sketch 3> .. 2^ / .. 1< 1<` or \
                     `sketch U R / . D` (rows separated by /); it counts for nothing";
            return vec![self.error_to(named, e)];
        }
        let read = match set {
            Some(set) => Koan::parse_as(text, set),
            None => text.parse::<Koan>(),
        };
        let koan = match read {
            Ok(k) => k,
            Err(e) => {
                let e = format!("that structure does not read: {e} (nothing was recorded)");
                return vec![self.error_to(named, &e)];
            }
        };
        let to = match named {
            Some(a) if self.cast.is_table() => Some(self.cast.actor_name(a)),
            _ => None,
        };
        let pieces = narrate::count(koan.len() as u64, "piece", "pieces");
        let mut out = vec![if self.json {
            let mut v = json!({"event": "sketch", "koan": koan.to_line(), "pieces": koan.len()});
            if let Some(to) = &to {
                v["to"] = to.clone().into();
            }
            v.to_string()
        } else {
            let who = to.map_or(String::new(), |t| format!("(to {t} only) "));
            format!("{who}sketch ({pieces}, counts for nothing):\n{koan}")
        }];
        if self.pictures.is_some() || self.inline {
            let picture = super::Picture {
                file: "sketch.png".into(),
                png: crate::render::koan_png(
                    &koan,
                    &crate::render::Picture {
                        mark: None,
                        caption: Some("sketch".into()),
                    },
                ),
                json: json!({"event": "picture", "sketch": koan.to_line()}),
                what: "your sketch".into(),
            };
            out.extend(self.drawn(picture));
        }
        out
    }
}
