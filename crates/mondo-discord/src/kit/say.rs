//! Discord's side of the words: clocks as Discord timestamps (`<t:UNIX:R>`, shown
//! as "in 2 minutes" in each reader's own time), mentions. The words themselves are
//! `narrate`'s; each game's posts are in `games/`.

pub use crate::narrate::{clock_text, mention};
use crate::rules::{Clock, Millis};

/// Reads game-clock times as wall-clock times, for Discord's `<t:UNIX:R>` countdowns.
/// The game clock stops while no process runs the matches, so a deadline is placed
/// relative to now on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// The game clock now.
    pub game: Millis,
    /// The wall clock now, milliseconds since the Unix epoch.
    pub wall_ms: u64,
}

impl Clocks {
    /// `<t:UNIX:R>` for a game-clock moment (Discord shows "in 2 minutes").
    pub fn countdown(&self, at: Millis) -> String {
        let wall = self.wall_ms + at.saturating_sub(self.game);
        format!("<t:{}:R>", wall.div_ceil(1000))
    }

    /// "2:31 left, ends in 2 minutes" or "2:31 left (stopped)".
    pub fn clock(&self, clock: &Clock) -> String {
        let left = clock_text(clock.remaining(self.game));
        match clock.expires_at() {
            Some(at) => format!("{left} left, ends {}", self.countdown(at)),
            None => format!("{left} left (stopped)"),
        }
    }
}

/// A duration said whole: "10 minutes", "90 seconds".
pub fn lifetime(ms: u64) -> String {
    let secs = ms / 1000;
    if secs.is_multiple_of(60) {
        crate::narrate::count(secs / 60, "minute", "minutes")
    } else {
        crate::narrate::count(secs, "second", "seconds")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countdowns_place_game_deadlines_on_the_wall_clock() {
        let c = Clocks {
            game: 10_000,
            wall_ms: 1_700_000_000_000,
        };
        assert_eq!(c.countdown(40_000), "<t:1700000030:R>");
        // A deadline already passed shows as now, never in the past of the game clock.
        assert_eq!(c.countdown(5_000), "<t:1700000000:R>");
        assert_eq!(clock_text(180_000), "3:00");
        assert_eq!(clock_text(1), "0:01");
    }

    #[test]
    fn a_running_clock_says_when_it_ends_and_a_stopped_one_says_so() {
        let c = Clocks {
            game: 0,
            wall_ms: 0,
        };
        let mut clock = Clock::stopped(90_000);
        assert_eq!(c.clock(&clock), "1:30 left (stopped)");
        clock.set_running(true, 0);
        assert_eq!(c.clock(&clock), "1:30 left, ends <t:90:R>");
    }
}
