//! The one acceptance rule of every two-player challenge (Duel, Triple, Pattern
//! Assembly, Logical Bluffs; docs/ratings.md, "Fair play"): a challenge becomes a
//! match only when the one challenged accepts it. Until then it is pending; the one
//! challenged may decline it and the challenger withdraw it; at `expires_at` it
//! expires. A challenge that does not become a match leaves no match and no result.
//! Pure: `now` comes in with every request.

use super::{Millis, PlayerId};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How long a challenge waits for its answer unless configured (10 minutes).
pub const DEFAULT_EXPIRE_MS: Millis = 600_000;

/// A challenge waiting for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub challenger: PlayerId,
    pub challenged: PlayerId,
    pub created_at: Millis,
    pub expires_at: Millis,
}

/// An answer to a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
}

/// What became of a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "settled", rename_all = "snake_case")]
pub enum Settled {
    /// The match starts.
    Accepted,
    /// The one challenged said no.
    Declined { by: PlayerId },
    /// The challenger took it back.
    Withdrawn { by: PlayerId },
    /// Nobody answered in time.
    Expired,
}

/// Why an answer is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeError {
    /// A challenge needs two different players.
    SamePlayer,
    /// Only the one challenged may accept.
    OnlyTheChallenged { challenged: PlayerId },
    /// Someone not in the challenge.
    NotInvolved,
    /// It expired at `at`.
    Expired { at: Millis },
}

impl fmt::Display for ChallengeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChallengeError::SamePlayer => write!(f, "a challenge needs two different players"),
            ChallengeError::OnlyTheChallenged { .. } => {
                write!(f, "only the player challenged may accept this challenge")
            }
            ChallengeError::NotInvolved => write!(f, "this challenge is not yours to answer"),
            ChallengeError::Expired { .. } => {
                write!(f, "this challenge has expired: nobody answered it in time")
            }
        }
    }
}

impl std::error::Error for ChallengeError {}

impl Challenge {
    /// A challenge made at `now`, pending for `expire_ms`.
    pub fn new(
        challenger: PlayerId,
        challenged: PlayerId,
        now: Millis,
        expire_ms: Millis,
    ) -> Result<Challenge, ChallengeError> {
        if challenger == challenged {
            return Err(ChallengeError::SamePlayer);
        }
        Ok(Challenge {
            challenger,
            challenged,
            created_at: now,
            expires_at: now.saturating_add(expire_ms),
        })
    }

    /// Whether it has expired at `now`.
    pub fn has_expired(&self, now: Millis) -> bool {
        now >= self.expires_at
    }

    /// `who` answers at `now`.
    pub fn answer(
        &self,
        who: PlayerId,
        answer: Answer,
        now: Millis,
    ) -> Result<Settled, ChallengeError> {
        if who != self.challenged && who != self.challenger {
            return Err(ChallengeError::NotInvolved);
        }
        if self.has_expired(now) {
            return Err(ChallengeError::Expired {
                at: self.expires_at,
            });
        }
        match answer {
            Answer::Accept if who == self.challenged => Ok(Settled::Accepted),
            Answer::Accept => Err(ChallengeError::OnlyTheChallenged {
                challenged: self.challenged,
            }),
            Answer::Decline if who == self.challenged => Ok(Settled::Declined { by: who }),
            Answer::Decline => Ok(Settled::Withdrawn { by: who }),
        }
    }

    /// What the expiry sweep says at `now`: `Expired` once due, else nothing.
    pub fn sweep(&self, now: Millis) -> Option<Settled> {
        self.has_expired(now).then_some(Settled::Expired)
    }
}

/// The abort limit (docs/ratings.md, "Fair play"): a player whose last `limit` matches
/// in a row were aborted by them may not make or accept a rated challenge until
/// `ban_ms` after the last of them. `aborts_in_a_row` counts their most recent
/// finished matches, newest first, while each was aborted by them; `last_abort` is
/// when the newest ended. `Some(until)` while refused.
pub fn playban(
    aborts_in_a_row: u32,
    last_abort: Option<Millis>,
    limit: u32,
    ban_ms: Millis,
    now: Millis,
) -> Option<Millis> {
    let until = last_abort?.saturating_add(ban_ms);
    (limit > 0 && aborts_in_a_row >= limit && now < until).then_some(until)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: PlayerId = PlayerId(1);
    const B: PlayerId = PlayerId(2);

    fn pending() -> Challenge {
        Challenge::new(A, B, 1_000, DEFAULT_EXPIRE_MS).expect("two players")
    }

    #[test]
    fn only_the_challenged_accepts() {
        let c = pending();
        assert_eq!(c.answer(B, Answer::Accept, 2_000), Ok(Settled::Accepted));
        assert_eq!(
            c.answer(A, Answer::Accept, 2_000),
            Err(ChallengeError::OnlyTheChallenged { challenged: B })
        );
        assert_eq!(
            c.answer(PlayerId(3), Answer::Accept, 2_000),
            Err(ChallengeError::NotInvolved)
        );
    }

    #[test]
    fn declining_and_withdrawing() {
        let c = pending();
        assert_eq!(
            c.answer(B, Answer::Decline, 2_000),
            Ok(Settled::Declined { by: B })
        );
        assert_eq!(
            c.answer(A, Answer::Decline, 2_000),
            Ok(Settled::Withdrawn { by: A })
        );
    }

    #[test]
    fn a_challenge_expires_after_ten_minutes_by_default() {
        let c = pending();
        assert_eq!(c.expires_at, 601_000);
        assert_eq!(c.sweep(600_999), None);
        assert_eq!(c.sweep(601_000), Some(Settled::Expired));
        assert_eq!(
            c.answer(B, Answer::Accept, 601_000),
            Err(ChallengeError::Expired { at: 601_000 })
        );
        assert!(c.answer(B, Answer::Accept, 600_999).is_ok());
    }

    #[test]
    fn nobody_challenges_themself() {
        assert_eq!(Challenge::new(A, A, 0, 10), Err(ChallengeError::SamePlayer));
    }

    #[test]
    fn the_abort_limit_refuses_for_a_while() {
        let hour = 3_600_000;
        // Two aborts in a row: under the limit of three.
        assert_eq!(playban(2, Some(0), 3, hour, 10), None);
        assert_eq!(playban(3, Some(0), 3, hour, 10), Some(hour));
        assert_eq!(playban(3, Some(0), 3, hour, hour), None, "served");
        assert_eq!(playban(5, None, 3, hour, 10), None, "nothing aborted");
        assert_eq!(playban(5, Some(0), 0, hour, 10), None, "no limit");
    }
}
