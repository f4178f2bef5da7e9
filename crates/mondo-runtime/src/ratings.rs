//! `mondo ratings rebuild`: the ratings are derived data, made again from the event
//! logs. Each finished match is folded as at a restart and asked what it counts for
//! (the same `finish` the live match gave the store with its last events), then the
//! store applies them all in the order the matches ended, in one transaction.

use super::{Config, Engine, Recovery, Runtime, RuntimeError, TimeSource, decode_all};
use mondo_rules::rules::Finish;
use mondo_store::{MatchId, Rebuilt, Store};
use std::sync::Arc;

/// A finished match whose log could not be folded (left out of the ratings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub id: MatchId,
    pub reason: String,
}

/// Rebuilds every rating and solo record of `store` from its logs; the matches whose
/// logs do not fold are left out and listed.
pub async fn rebuild_ratings<G: Engine>(
    store: &Store,
) -> Result<(Rebuilt, Vec<Unreadable>), RuntimeError> {
    let mut finishes = Vec::new();
    let mut unreadable = Vec::new();
    for record in store.finished_matches().await? {
        let folded = async {
            let stored = store.events(record.id).await?;
            let events = decode_all::<G>(record.id, &record.kind, &stored)?;
            G::replay(&record.kind, &events).map_err(|reason| RuntimeError::Corrupt {
                id: record.id,
                reason,
            })
        };
        match folded.await {
            Ok(state) => finishes.push((
                record.id,
                state
                    .finish()
                    .unwrap_or(Finish::Unrated(mondo_rules::rules::Why::NoResult)),
            )),
            Err(e) => unreadable.push(Unreadable {
                id: record.id,
                reason: e.to_string(),
            }),
        }
    }
    Ok((store.rebuild_ratings(&finishes).await?, unreadable))
}

/// Rates a store written before ratings from its logs, once, as it is opened to run
/// (before any match can end): a store whose finished matches have no rating, result
/// or record at all. Anything else is left as it is. What it did, if it did.
pub async fn rate_old_store<G: Engine>(
    store: &Store,
) -> Result<Option<(Rebuilt, Vec<Unreadable>)>, RuntimeError> {
    if !store.ratings_missing().await? {
        return Ok(None);
    }
    let (done, unreadable) = rebuild_ratings::<G>(store).await?;
    tracing::info!(
        matches = done.matches,
        rated = done.rated,
        solo = done.solo,
        unreadable = unreadable.len(),
        "ratings made from the logs of a store written before them"
    );
    for u in &unreadable {
        tracing::warn!(id = %u.id, reason = %u.reason, "a finished match's log does not read: not rated");
    }
    Ok(Some((done, unreadable)))
}

impl<G: Engine> Runtime<G> {
    /// How `mondo serve` and `mondo play` open a store to run: a store written before
    /// ratings is rated from its logs first ([`rate_old_store`]), before any match can
    /// end (a match ending first would make the ratings look present), then
    /// [`Runtime::start`].
    pub async fn start_rated(
        store: Store,
        source: Arc<dyn TimeSource>,
        config: Config,
    ) -> Result<(Runtime<G>, Recovery), RuntimeError> {
        rate_old_store::<G>(&store).await?;
        Runtime::start(store, source, config).await
    }
}
