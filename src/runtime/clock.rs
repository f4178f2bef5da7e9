//! Time for the runtime: where it comes from ([`TimeSource`]: the machine's monotonic
//! clock, or [`ManualTime`] driven by hand in tests) and the [`GameClock`] every match
//! runs on.
//!
//! The game clock advances only while a process runs the matches: a new process
//! resumes it from the store (the last reading saved, or the latest event), so the
//! time the process was down is never counted against a player. Events carry game-clock
//! times; deadlines are game-clock times.

use crate::store::Millis;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where the runtime's time comes from.
pub trait TimeSource: Send + Sync + 'static {
    /// Milliseconds since an arbitrary start; never goes back.
    fn now(&self) -> Millis;
    /// Resolves once `now() >= at`.
    fn sleep_until(&self, at: Millis) -> Sleep;
}

/// The machine's monotonic clock (tokio's, so paused-time tests work too).
pub struct SystemTime {
    start: tokio::time::Instant,
}

impl SystemTime {
    pub fn new() -> Arc<SystemTime> {
        Arc::new(SystemTime {
            start: tokio::time::Instant::now(),
        })
    }
}

impl TimeSource for SystemTime {
    fn now(&self) -> Millis {
        self.start.elapsed().as_millis() as Millis
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        Box::pin(tokio::time::sleep_until(
            self.start + Duration::from_millis(at),
        ))
    }
}

/// A clock that moves only when told: timers are tested without waiting, and without
/// tokio's auto-advancing paused time (which jumps ahead whenever the runtime waits
/// for the database thread).
pub struct ManualTime {
    now: watch::Sender<Millis>,
}

impl ManualTime {
    pub fn new(start: Millis) -> Arc<ManualTime> {
        Arc::new(ManualTime {
            now: watch::Sender::new(start),
        })
    }

    /// Moves time forward by `ms`, waking every sleeper whose moment has come.
    pub fn advance(&self, ms: Millis) {
        self.now.send_modify(|now| *now = now.saturating_add(ms));
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Millis {
        *self.now.borrow()
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            while *rx.borrow_and_update() < at {
                if rx.changed().await.is_err() {
                    // The clock is gone: time stands still forever.
                    std::future::pending::<()>().await;
                }
            }
        })
    }
}

/// The game clock: a time source shifted to resume where the store left off.
#[derive(Clone)]
pub struct GameClock {
    source: Arc<dyn TimeSource>,
    /// Game time minus source time.
    offset: i128,
}

impl GameClock {
    /// A game clock that reads `resume_at` now.
    pub fn new(source: Arc<dyn TimeSource>, resume_at: Millis) -> GameClock {
        let offset = resume_at as i128 - source.now() as i128;
        GameClock { source, offset }
    }

    pub fn now(&self) -> Millis {
        self.to_game(self.source.now())
    }

    /// Resolves once the game clock reads `at` or later.
    pub fn sleep_until(&self, at: Millis) -> Sleep {
        let source_at = (at as i128 - self.offset).max(0);
        self.source
            .sleep_until(source_at.min(Millis::MAX as i128) as Millis)
    }

    /// Resolves `ms` of source time from now (for limits on umpire work, which are
    /// real time even while the game clocks stand still).
    pub fn sleep_for(&self, ms: Millis) -> Sleep {
        self.source
            .sleep_until(self.source.now().saturating_add(ms))
    }

    fn to_game(&self, source: Millis) -> Millis {
        (source as i128 + self.offset).clamp(0, Millis::MAX as i128) as Millis
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_time_wakes_sleepers_only_when_their_moment_comes() {
        let time = ManualTime::new(1_000);
        let clock = GameClock::new(time.clone(), 50_000);
        assert_eq!(clock.now(), 50_000);
        let mut sleep = clock.sleep_until(80_000);
        // Not yet: polling once must not complete it.
        assert!(futures_poll_once(&mut sleep).await.is_none());
        time.advance(29_999);
        assert!(futures_poll_once(&mut sleep).await.is_none());
        time.advance(1);
        assert_eq!(clock.now(), 80_000);
        sleep.await;
    }

    #[test]
    fn the_game_clock_resumes_where_it_was_left() {
        // A process ran the game clock to 90 s; a new one, whose own source reads
        // 5 000 s, resumes it at 90 s: the downtime is not counted.
        let time = ManualTime::new(5_000_000);
        let clock = GameClock::new(time.clone(), 90_000);
        assert_eq!(clock.now(), 90_000);
        time.advance(2_500);
        assert_eq!(clock.now(), 92_500);
    }

    async fn futures_poll_once(sleep: &mut Sleep) -> Option<()> {
        tokio::select! {
            biased;
            () = sleep => Some(()),
            () = tokio::task::yield_now() => None,
        }
    }
}
