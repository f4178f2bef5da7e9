//! What a button carries back: the match, the version it was drawn at, and what it
//! does. Everything a press needs is in its custom id, so a stale or replayed press is
//! refused by the engine's version check, and buttons keep working after a restart
//! (nothing about them is kept in memory).
//!
//! Every game's buttons share one header, `m:MATCH:VERSION:VERB[:ARG...]` ([`Header`]):
//! the interaction handler reads it once, finds the match, and hands the header to the
//! match's game (`GameBot::on_button`), which reads its own verbs and passes the
//! version to the engine with the move it makes (the engine refuses a button drawn
//! before the current phase, or a replayed one, as `StaleVersion`).

use crate::store::MatchId;
use std::fmt;

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

/// A custom id that is not one of Mondo's (or from a version that drew others).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this button is not one Mondo knows (`{0}`); use the latest message or a command")]
pub struct UnknownButton(pub String);

/// The `MATCH:VERSION` part both kinds of id carry: a positive match id, a version.
pub fn match_and_version<'a>(parts: &mut impl Iterator<Item = &'a str>) -> Option<(MatchId, u64)> {
    let game = parts.next()?.parse::<i64>().ok().filter(|n| *n > 0)?;
    let version = parts.next()?.parse::<u64>().ok()?;
    Some((MatchId(game), version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_round_trips_and_old_bluffs_ids_still_read() {
        let h = Header::new(MatchId(12), 7, "mark").arg("TF??").arg("3T");
        assert_eq!(h.to_string(), "m:12:7:mark:TF??:3T");
        assert_eq!(Header::parse(&h.to_string()), Ok(h));
        let zendo = Header::parse("m:3:9:answer:obeys").unwrap();
        assert_eq!((zendo.game, zendo.version), (MatchId(3), Some(9)));
        assert_eq!(
            (zendo.verb.as_str(), zendo.args.clone()),
            ("answer", vec!["obeys".to_string()])
        );
        // A Logical Bluffs button posted before the header: read, without a version.
        let old = Header::parse("bluffs:44:claim:TF?T").unwrap();
        assert_eq!(
            (old.game, old.version, old.verb.as_str(), old.args.clone()),
            (MatchId(44), None, "claim", vec!["TF?T".to_string()])
        );
        assert_eq!(old.to_string(), "bluffs:44:claim:TF?T");
        for bad in [
            "",
            "m",
            "m:1",
            "bluffs:",
            "bluffs:x:claim",
            "bluffs:0:claim",
            "bluffs:4",
            "m:1:2",
            "m:1:2:",
            "m:0:2:confirm",
            "m:-3:2:confirm",
            "m:1:x:confirm",
            "x:1:2:confirm",
            "koan:observe",
        ] {
            assert!(Header::parse(bad).is_err(), "{bad}");
        }
    }
}
