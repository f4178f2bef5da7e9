//! A countdown that can be stopped and restarted, driven by the times the caller gives.

use serde::{Deserialize, Serialize};

/// Milliseconds since an arbitrary fixed epoch (the runtime's choice). Only
/// differences matter.
pub type Millis = u64;

/// A countdown. It never reads a clock: it remembers how much time was left when it
/// last started or stopped, and since when it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Time left at the moment it last started or stopped.
    left: Millis,
    /// When it last started, while it runs.
    since: Option<Millis>,
}

impl Clock {
    /// A stopped clock with `left` on it.
    pub const fn stopped(left: Millis) -> Clock {
        Clock { left, since: None }
    }

    pub fn is_running(&self) -> bool {
        self.since.is_some()
    }

    /// Time left at `now` (never below zero).
    pub fn remaining(&self, now: Millis) -> Millis {
        match self.since {
            Some(since) => self.left.saturating_sub(now.saturating_sub(since)),
            None => self.left,
        }
    }

    /// When it reaches zero, if it runs.
    pub fn expires_at(&self) -> Option<Millis> {
        self.since.map(|since| since.saturating_add(self.left))
    }

    /// Whether no time is left at `now`.
    pub fn has_expired(&self, now: Millis) -> bool {
        self.remaining(now) == 0
    }

    /// Starts or stops it at `at` (no change if it already is in that state).
    pub fn set_running(&mut self, running: bool, at: Millis) {
        match (running, self.since) {
            (true, None) => self.since = Some(at),
            (false, Some(_)) => {
                self.left = self.remaining(at);
                self.since = None;
            }
            _ => {}
        }
    }

    /// Gives more time (whether it runs or not).
    pub fn add(&mut self, ms: Millis) {
        self.left = self.left.saturating_add(ms);
    }

    /// Takes time back (whether it runs or not), down to zero at most.
    pub fn take(&mut self, ms: Millis) {
        self.left = self.left.saturating_sub(ms);
    }

    /// Does not count the time from `from` to `to` (the process was down): a running
    /// clock keeps what it had left at `from` and runs again from `to`.
    pub fn skip(&mut self, from: Millis, to: Millis) {
        if let Some(since) = self.since
            && from < to
        {
            self.left = self.remaining(from.max(since));
            self.since = Some(to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_down_only_while_running() {
        let mut c = Clock::stopped(180_000);
        assert_eq!(c.remaining(5_000), 180_000);
        assert_eq!(c.expires_at(), None);
        c.set_running(true, 10_000);
        assert_eq!(c.remaining(70_000), 120_000);
        assert_eq!(c.expires_at(), Some(190_000));
        c.set_running(false, 70_000);
        // Stopped: an hour later nothing has changed.
        assert_eq!(c.remaining(3_670_000), 120_000);
        c.set_running(true, 3_670_000);
        assert_eq!(c.expires_at(), Some(3_790_000));
        assert!(!c.has_expired(3_789_999));
        assert!(c.has_expired(3_790_000));
        assert_eq!(c.remaining(9_999_999), 0);
    }

    #[test]
    fn starting_twice_does_not_restart_the_count() {
        let mut c = Clock::stopped(1_000);
        c.set_running(true, 0);
        c.set_running(true, 500);
        assert_eq!(c.remaining(600), 400);
    }

    #[test]
    fn added_time_moves_the_deadline_even_while_running() {
        let mut c = Clock::stopped(10_000);
        c.set_running(true, 0);
        c.add(30_000);
        assert_eq!(c.remaining(4_000), 36_000);
        assert_eq!(c.expires_at(), Some(40_000));
        c.take(50_000);
        assert!(c.has_expired(4_000));
    }

    #[test]
    fn skipped_downtime_is_not_counted() {
        let mut c = Clock::stopped(180_000);
        c.set_running(true, 0);
        // Down from 60 s to 500 s: the clock still has 120 s, counted from 500 s.
        c.skip(60_000, 500_000);
        assert_eq!(c.remaining(500_000), 120_000);
        assert_eq!(c.expires_at(), Some(620_000));
        // A stopped clock is unaffected.
        let mut s = Clock::stopped(5_000);
        s.skip(0, 100_000);
        assert_eq!(s, Clock::stopped(5_000));
    }
}
