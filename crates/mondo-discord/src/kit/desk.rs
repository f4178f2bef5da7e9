//! Each live match's desk: the one task that says the match in its channel, in order.
//!
//! The desk follows the match as a spectator (so it can only say what anyone may
//! know) and posts every batch of events, with its pictures and buttons. A batch
//! caused by an interaction in the channel (a `/koan`, a button) is *claimed* by that
//! interaction and handed back to it, so it becomes the interaction's reply instead of
//! a second message; if the interaction is gone, the desk posts it itself. Nothing is
//! said twice and nothing is lost: the last event said is stored, and a restarted bot
//! says what was committed but not yet said.
//!
//! When a challenge opens, the desk also sends each player the answer buttons by DM;
//! a player the bot cannot DM answers through a button in the channel.

use super::post::Post;
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long after an interaction was made its reply may still wait for the desk to
/// hand back its batch (Discord allows 3 s for the first response; the rest is the
/// response's own way there).
pub const REPLY_BUDGET: Duration = Duration::from_millis(2_300);

/// The longest a DM may take (serenity's client sets no timeout of its own): a DM that
/// hangs counts as failed, and the player answers in the channel.
pub const DM_WAIT: Duration = Duration::from_secs(5);

/// A batch handed to the interaction that claimed it, and how the interaction says
/// its reply is done (sent, or posted in the channel instead; dropped either way): the
/// desk records the batch as said only then, so a process that dies in between leaves
/// it for the next one to say.
pub struct Handover {
    pub post: Post,
    pub delivered: oneshot::Sender<()>,
}

/// The longest the desk waits for a handed batch's reply to be done before it goes on
/// (an answer from Discord that never comes).
pub const DELIVERY_WAIT: Duration = Duration::from_secs(10);

/// One live match's desk.
pub struct Desk {
    pub game: MatchId,
    pub channel: serenity::ChannelId,
    /// Held while an interaction acts and claims its batch, and while the desk looks
    /// for a claim: the desk never looks before the claim is made.
    pub(super) gate: tokio::sync::Mutex<()>,
    /// Batches (by their last event) that interactions wait for.
    pub(super) claims: Mutex<HashMap<u64, oneshot::Sender<Handover>>>,
    /// Opened for a match resumed at start-up: what it says first was missed while the
    /// bot was away (a new match's first events, such as an Assembly's first reveal,
    /// committed before its desk listened, were not).
    pub(super) resumed: bool,
}

/// The desks of the live matches, by match.
#[derive(Default)]
pub struct Desks {
    pub(super) map: Mutex<HashMap<MatchId, Arc<Desk>>>,
}

impl Desks {
    pub fn get(&self, game: MatchId) -> Option<Arc<Desk>> {
        self.lock().get(&game).cloned()
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, Arc<Desk>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Desk {
    fn claims(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Handover>>> {
        self.claims.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `act` (an action on the match) and claims the batch it commits, whose last
    /// event is the `u64` it returns.
    pub async fn claim<T, E>(
        &self,
        act: impl std::future::Future<Output = Result<(T, u64), E>>,
    ) -> Result<(T, oneshot::Receiver<Handover>), E> {
        let _gate = self.gate.lock().await;
        let (value, seq) = act.await?;
        let (tx, rx) = oneshot::channel();
        self.claims().insert(seq, tx);
        Ok((value, rx))
    }

    /// The claim for the batch ending at `seq`, if an interaction waits for it; older
    /// claims (their batches were merged into another) are dropped.
    pub(super) async fn take(&self, seq: u64) -> Option<oneshot::Sender<Handover>> {
        let _gate = self.gate.lock().await;
        let mut claims = self.claims();
        let claim = claims.remove(&seq);
        claims.retain(|s, _| *s > seq);
        claim
    }
}
