//! What every match keeps about itself whatever the game: how many events it has had
//! (its version), when its current phase began (what makes a button stale), the time
//! of its latest event (so `now` never goes back), and whether a host paused it.

use super::{FoldError, Millis, RuleError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// Events folded so far (the created event is 1). Buttons carry it.
    pub version: u64,
    /// The version at which the current phase began: a button drawn before it is stale.
    pub phase_since: u64,
    /// Time of the latest event; `now` never goes back before it.
    pub last_at: Millis,
    /// Stopped by a host: the clocks do not run and players wait.
    #[serde(default)]
    pub paused: bool,
}

impl Ledger {
    /// The ledger of a match created at `at` (the created event is version 1).
    pub fn new(at: Millis) -> Ledger {
        Ledger {
            version: 1,
            phase_since: 1,
            last_at: at,
            paused: false,
        }
    }

    /// `now`, never before the latest event.
    pub fn now(&self, now: Millis) -> Millis {
        now.max(self.last_at)
    }

    /// Counts one more event, at `at`.
    pub fn begin(&mut self, at: Millis) {
        self.version += 1;
        self.last_at = self.last_at.max(at);
    }

    /// The current phase begins with the event just counted.
    pub fn enter(&mut self) {
        self.phase_since = self.version;
    }

    /// Authority check 5: a button drawn before the current phase began is stale (and
    /// so is one from the future). Typed commands carry no version.
    pub fn check_shown(&self, shown: Option<u64>) -> Result<(), RuleError> {
        match shown {
            Some(v) if v < self.phase_since || v > self.version => Err(RuleError::StaleVersion {
                shown: v,
                current: self.version,
            }),
            _ => Ok(()),
        }
    }

    /// An event that does not fit the match at this version.
    pub fn misfit(&self, reason: impl Into<String>) -> FoldError {
        FoldError {
            version: self.version,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_from_before_the_phase_or_from_the_future_are_stale() {
        let mut l = Ledger::new(5);
        l.begin(7);
        l.begin(6);
        assert_eq!((l.version, l.last_at), (3, 7));
        assert_eq!(l.now(1), 7);
        l.enter();
        l.begin(9);
        assert!(l.check_shown(None).is_ok());
        assert!(l.check_shown(Some(3)).is_ok());
        assert!(l.check_shown(Some(4)).is_ok());
        assert_eq!(
            l.check_shown(Some(2)),
            Err(RuleError::StaleVersion {
                shown: 2,
                current: 4
            })
        );
        assert!(l.check_shown(Some(5)).is_err());
    }
}
