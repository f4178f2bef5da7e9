//! What the `mondo tournament` commands share with `run`: the options that shape a
//! tournament, reading one from the store and doing an act on it, seeding ratings,
//! the standings in words. A leaf: it imports no other tournament command.

use clap::{Args, ValueEnum};
use mondo_rules::rules::PlayerId;
use mondo_rules::tournament::{Act, Event, Format, Settings, Tournament, standings};
use mondo_store::{Store, server_of};

/// A format as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatName {
    Roundrobin,
    Groups,
    Swiss,
    Single,
}

/// What shapes a tournament (create and run share it).
#[derive(Debug, Args)]
pub struct Shape {
    /// roundrobin, groups (then playoffs), swiss or single (elimination).
    #[arg(long, value_enum)]
    pub format: FormatName,
    /// Swiss: the number of rounds.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub rounds: Option<u32>,
    /// Groups: how many of each group go to the playoffs.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(1..=5))]
    pub playoffs: Option<u8>,
    /// Groups: the most players a group has (3-6); unset, 4, or one more than
    /// --playoffs when that is 4 or more.
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=6))]
    pub group_size: Option<u8>,
    /// Sign-up closes this many hours after the creation (unset: when the host starts).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=8760))]
    pub signup_hours: Option<u64>,
    /// A bracket match: best of 1 or 3.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub best_of: u8,
    /// The game and its options, as one argument: `pattern-assembly` or
    /// `pattern-assembly --plus`.
    #[arg(long, default_value = "pattern-assembly", allow_hyphen_values = true)]
    pub game: String,
    /// The playoffs' game (groups), e.g. `pattern-assembly --plus`; unset: --game.
    #[arg(long, allow_hyphen_values = true)]
    pub playoff_game: Option<String>,
    /// Hours a round lasts before its unplayed matches are forfeited.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=720))]
    pub round_hours: u64,
}

impl Shape {
    /// The settings of a tournament created at `now`, or what is wrong with these
    /// options.
    pub fn settings(&self, now: u64) -> Result<Settings, String> {
        let format = match self.format {
            FormatName::Roundrobin => Format::RoundRobin,
            FormatName::Single => Format::Single,
            FormatName::Swiss => Format::Swiss {
                rounds: self.rounds.ok_or("a Swiss needs --rounds N (1 to 64)")?,
            },
            FormatName::Groups => Format::Groups {
                size: self
                    .group_size
                    .unwrap_or_else(|| self.playoffs.map_or(4, |k| (k + 1).clamp(4, 6))),
                advance: self
                    .playoffs
                    .ok_or("groups need --playoffs K: how many of each group go on")?,
            },
        };
        if self.rounds.is_some() && self.format != FormatName::Swiss {
            return Err("--rounds is for --format swiss".into());
        }
        if self.playoffs.is_some() && self.format != FormatName::Groups {
            return Err("--playoffs is for --format groups".into());
        }
        if self.best_of == 2 {
            return Err("a bracket match is best of 1 or 3, not 2".into());
        }
        for game in std::iter::once(&self.game).chain(&self.playoff_game) {
            game_kind(game)?;
        }
        Ok(Settings {
            format,
            game: self.game.trim().to_string(),
            playoff_game: self.playoff_game.as_ref().map(|g| g.trim().to_string()),
            best_of: self.best_of,
            round_ms: self.round_hours * 3_600_000,
            signup_until: self.signup_hours.map(|h| now + h * 3_600_000),
            remind_ms: None,
            ai_fill: None,
            channel: None,
        })
    }
}

/// The stored game name a game's words start with, if it is a two-player game.
pub fn game_kind(game: &str) -> Result<mondo_rules::rules::GameKind, String> {
    let name = game.split_whitespace().next().unwrap_or("");
    let two = || {
        mondo_rules::rules::GameKind::ALL
            .iter()
            .filter(|k| k.name() != "zendo-practice")
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    mondo_rules::rules::GameKind::ALL
        .iter()
        .copied()
        .find(|k| k.name() == name && name != "zendo-practice")
        .ok_or_else(|| {
            format!(
                "`{name}` is not a game for a tournament; the games: {}",
                two()
            )
        })
}

/// A tournament as stored: its fold and the number of its events.
pub struct Loaded {
    pub id: i64,
    pub t: Tournament,
}

/// Reads tournament `id`.
pub async fn load(store: &Store, id: i64) -> Result<Loaded, String> {
    let rows = store
        .tournament_events(id)
        .await
        .map_err(|e| e.to_string())?;
    let events = rows
        .iter()
        .enumerate()
        .map(|(k, s)| {
            serde_json::from_str::<Event>(s)
                .map_err(|e| format!("tournament {id}: event {} does not read: {e}", k + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let t = Tournament::from_events(&events).map_err(|e| e.to_string())?;
    Ok(Loaded { id, t })
}

/// Does `act` at `now` and stores what it made; the events.
pub async fn act(store: &Store, l: &mut Loaded, act: &Act, now: u64) -> Result<Vec<Event>, String> {
    let events = l.t.act(act, now).map_err(|e| e.to_string())?;
    let rows = events
        .iter()
        .map(|e| serde_json::to_string(e).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    store
        .append_tournament(l.id, l.t.log.len() as u64, &rows)
        .await
        .map_err(|e| e.to_string())?;
    for e in &events {
        l.t.apply(e);
    }
    Ok(events)
}

/// The ratings in the tournament's game of its players and of `more` (who join as it
/// starts), for seeding.
pub async fn ratings(
    store: &Store,
    guild: Option<u64>,
    t: &Tournament,
    more: &[(PlayerId, String)],
) -> Result<Vec<(PlayerId, f64)>, String> {
    let kind = game_kind(&t.settings.game)?.name();
    let mut out = Vec::new();
    let players = t.signups.iter().map(|s| s.player);
    for p in players.chain(more.iter().map(|m| m.0)) {
        let rows = store
            .ratings_of(server_of(guild), p.0, Some(kind))
            .await
            .map_err(|e| e.to_string())?;
        if let Some(r) = rows.first() {
            out.push((p, r.rating));
        }
    }
    Ok(out)
}

/// The `k`th terminal AI player (from 0): `ai-beginner`, `ai-player`, `ai-expert`,
/// `ai-beginner-2`, ..., the levels in turn.
pub fn nth_ai_name(k: usize) -> String {
    let levels = mondo_rules::student::Level::ALL.len();
    mondo_rules::rules::fair::ai_name(k % levels, k / levels + 1)
}

/// The AI players who take the seats of `t` left empty at its start, up to its
/// `ai_fill` (none unless its host allowed them): terminal AI players in turn
/// ([`nth_ai_name`]), passing over any already signed up.
pub async fn ai_fill(store: &Store, t: &Tournament) -> Result<Vec<(PlayerId, String)>, String> {
    let most = t.settings.ai_fill.unwrap_or(0) as usize;
    let mut fill = Vec::new();
    for k in 0.. {
        if t.signups.len() + fill.len() >= most {
            break;
        }
        let name = nth_ai_name(k);
        let p = store
            .local_ai_player(&name)
            .await
            .map_err(|e| e.to_string())?;
        if t.signups.iter().all(|s| s.player.0 != p) {
            fill.push((PlayerId(p), name));
        }
    }
    Ok(fill)
}

/// The standings as lines of text.
pub fn standings_text(t: &Tournament) -> Vec<String> {
    let mut out = vec![match t.champion() {
        Some(c) => format!("{}: finished; champion {}", t.name, c.name),
        None if t.finished.is_some() => format!("{}: finished without a champion", t.name),
        None => format!(
            "{}: round {} of {}",
            t.name,
            t.rounds.len(),
            t.settings.format
        ),
    }];
    for r in standings(t) {
        let tb = &r.tiebreaks;
        let second = match (tb.buchholz, tb.game_score) {
            (Some(b), _) => format!("Buchholz {b}"),
            (_, Some(g)) => format!("game score {g}"),
            _ => String::new(),
        };
        let gone = if t.seats[r.seat].withdrawn {
            " (withdrew)"
        } else {
            ""
        };
        out.push(format!(
            "{:>3}. {}{gone}: {} point{} in {} played (head-to-head {}, {second})",
            r.rank,
            t.seats[r.seat].name,
            r.points,
            if r.points == 1.0 { "" } else { "s" },
            r.played,
            tb.head_to_head
        ));
    }
    out
}
