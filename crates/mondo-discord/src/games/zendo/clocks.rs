//! A server's own clocks for Zendo Triple and Zendo Classic, as the duel's are
//! (`/settings`): each game's stored JSON in the store's per-game settings (clock key
//! to milliseconds; a missing key is the config's value), changed by hosts with
//! `/zendo triple-settings` and `/zendo classic-settings`. New games use them; running
//! ones keep theirs (they are in the game's first event).

use crate::kit::host::host_only;
use crate::kit::reply;
use crate::post::Post;
use crate::rules::GameKind;
use crate::{Bot, Context, Error};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// One clock a host may set: its stored key, its words, the config's value (seconds)
/// and the seconds allowed (the config's own range, so both refuse alike).
pub struct Clock {
    pub key: &'static str,
    pub what: &'static str,
    pub default_secs: u64,
    pub range: RangeInclusive<u64>,
}

impl Clock {
    pub fn new(
        key: &'static str,
        what: &'static str,
        default_secs: u64,
        range: RangeInclusive<u64>,
    ) -> Clock {
        Clock {
            key,
            what,
            default_secs,
            range,
        }
    }

    /// Its value in a server: the server's own, else the config's (milliseconds). A
    /// stored value outside the allowed range (a row edited by hand, or a range
    /// narrowed since) is not used.
    pub fn ms(&self, stored: &Stored) -> u64 {
        stored
            .get(self.key)
            .copied()
            .filter(|ms| ms % 1000 == 0 && self.range.contains(&(ms / 1000)))
            .unwrap_or(self.default_secs.saturating_mul(1000))
    }
}

/// A server's own clocks for one game: key to milliseconds.
pub type Stored = BTreeMap<String, u64>;

/// A server's own clocks for `game` (none outside a server, or if they do not read).
pub async fn stored(bot: &Bot, guild: Option<u64>, game: GameKind) -> Result<Stored, Error> {
    let Some(g) = guild else {
        return Ok(Stored::new());
    };
    let json = bot.store.game_settings(g, game.name()).await?;
    Ok(serde_json::from_str(&json).unwrap_or_else(|e| {
        tracing::warn!(guild = g, game = game.name(), error = %e, "stored clocks do not read");
        Stored::new()
    }))
}

/// A host's changes: `given[i]` (seconds) for `clocks[i]`, after a `reset` to the
/// config's values. Nothing changes if one is out of range; the refusal names it and
/// what is allowed.
pub fn apply(
    stored: &mut Stored,
    clocks: &[Clock],
    given: &[Option<u32>],
    reset: bool,
) -> Result<(), String> {
    let mut changed = if reset { Stored::new() } else { stored.clone() };
    for (clock, value) in clocks.iter().zip(given) {
        let Some(secs) = value.map(u64::from) else {
            continue;
        };
        if !clock.range.contains(&secs) {
            return Err(format!(
                "the {} must be {} to {} seconds ({secs} given); nothing was changed",
                clock.what,
                clock.range.start(),
                clock.range.end()
            ));
        }
        changed.insert(clock.key.into(), crate::config::ms(secs));
    }
    *stored = changed;
    Ok(())
}

/// The clocks in effect, each marked when it is the config's.
pub fn describe(stored: &Stored, clocks: &[Clock]) -> String {
    clocks
        .iter()
        .map(|c| {
            let mark = if stored.contains_key(c.key) {
                ""
            } else {
                " (default)"
            };
            format!("{} {} s{mark}", c.what, c.ms(stored) / 1000)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `/zendo triple-settings`, `/zendo classic-settings`: shows a server's clocks for
/// `game`, or changes them (hosts only).
pub async fn command(
    ctx: Context<'_>,
    game: GameKind,
    clocks: &[Clock],
    given: &[Option<u32>],
    reset: Option<bool>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let mut now = stored(bot, guild, game).await?;
    let reset = reset == Some(true);
    let changing = reset || given.iter().any(Option::is_some);
    if let Err(e) = apply(&mut now, clocks, given, reset) {
        return reply(ctx, Post::private(e)).await;
    }
    if changing && let Some(g) = guild {
        let json = serde_json::to_string(&now)?;
        bot.store.set_game_settings(g, game.name(), &json).await?;
    }
    let mut post = Post::private(format!(
        "{} clocks for this server (new games use them):",
        game.title()
    ));
    post.line(describe(&now, clocks));
    reply(ctx, post).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks() -> [Clock; 2] {
        [
            Clock::new("turn_ms", "turn", 180, 10..=3600),
            Clock::new("quiz_ms", "quiz round", 300, 30..=3600),
        ]
    }

    #[test]
    fn a_hosts_clock_replaces_the_configs_until_reset() {
        let [turn, quiz] = clocks();
        let mut s = Stored::new();
        assert_eq!((turn.ms(&s), quiz.ms(&s)), (180_000, 300_000));
        apply(&mut s, &clocks(), &[Some(60), None], false).unwrap();
        assert_eq!((turn.ms(&s), quiz.ms(&s)), (60_000, 300_000));
        assert_eq!(
            describe(&s, &clocks()),
            "turn 60 s, quiz round 300 s (default)"
        );
        apply(&mut s, &clocks(), &[None, Some(45)], false).unwrap();
        assert_eq!((turn.ms(&s), quiz.ms(&s)), (60_000, 45_000), "kept");
        apply(&mut s, &clocks(), &[None, None], true).unwrap();
        assert!(s.is_empty(), "reset: the config's again");
    }

    #[test]
    fn a_clock_out_of_range_changes_nothing_and_says_what_is_allowed() {
        let mut s = Stored::new();
        apply(&mut s, &clocks(), &[Some(60), None], false).unwrap();
        let e = apply(&mut s, &clocks(), &[Some(90), Some(10)], false).unwrap_err();
        assert!(e.contains("quiz round must be 30 to 3600 seconds"), "{e}");
        assert_eq!(s.get("turn_ms"), Some(&60_000), "nothing changed");
        // As stored JSON, it reads back.
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Stored>(&json).unwrap(), s);
    }

    #[test]
    fn a_stored_clock_outside_its_range_is_not_used() {
        let [turn, quiz] = clocks();
        // A row edited by hand: 5 s is below the turn's 10 s, 12.5 s is no whole second.
        let s: Stored = serde_json::from_str(r#"{"turn_ms": 5000, "quiz_ms": 12500}"#).unwrap();
        assert_eq!((turn.ms(&s), quiz.ms(&s)), (180_000, 300_000));
        let s: Stored = serde_json::from_str(r#"{"turn_ms": 10000}"#).unwrap();
        assert_eq!(turn.ms(&s), 10_000, "the range's ends are allowed");
    }
}
