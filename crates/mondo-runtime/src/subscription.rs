//! Following a match as one viewer: the events it may see, each batch with its view,
//! and the notices about it.

use super::{Announcement, Engine, Notice, RuntimeError};
use mondo_store::{MatchId, Store};
use std::sync::Arc;
use tokio::sync::broadcast;

/// One or more events a viewer may see, and the view after them.
pub struct Update<G: Engine> {
    /// The log number of the last event covered (seen or hidden).
    pub seq: u64,
    /// The events the viewer may hear (redacted) with their log numbers.
    pub events: Vec<(u64, G::Event)>,
    pub view: G::View,
    pub over: bool,
    /// Something the players hear that is no event (the store's trouble); then
    /// `events` is empty.
    pub notice: Option<Notice>,
}

/// A viewer's feed of one match (see [`Runtime::subscribe`](super::Runtime::subscribe)).
pub struct Subscription<G: Engine> {
    pub(super) id: MatchId,
    /// The stored kind (how its events read, when caught up from the store).
    pub(super) kind: String,
    pub(super) viewer: G::Viewer,
    pub(super) rx: broadcast::Receiver<Arc<Announcement<G>>>,
    pub(super) state: Arc<G>,
    /// The last event delivered (or skipped as hidden).
    pub(super) seq: u64,
    pub(super) store: Store,
}

impl<G: Engine> Subscription<G> {
    pub fn match_id(&self) -> MatchId {
        self.id
    }

    /// The last event covered so far.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The view as of the last update.
    pub fn view(&self) -> G::View {
        self.state.view(&self.viewer)
    }

    /// The next update; `None` once the match is over (or the runtime stopped) and
    /// everything was delivered. A subscriber that fell behind is caught up from the
    /// store, so it never misses an event.
    pub async fn next(&mut self) -> Option<Result<Update<G>, RuntimeError>> {
        loop {
            match self.rx.recv().await {
                Ok(ann) => {
                    if let Some(notice) = &ann.notice {
                        return Some(Ok(Update {
                            seq: self.seq,
                            events: Vec::new(),
                            view: self.state.view(&self.viewer),
                            over: self.state.is_over(),
                            notice: Some(notice.clone()),
                        }));
                    }
                    if ann.events.is_empty() {
                        continue;
                    }
                    let last = ann.first_seq + ann.events.len() as u64 - 1;
                    if last <= self.seq {
                        continue;
                    }
                    if ann.first_seq > self.seq + 1 {
                        return Some(self.catch_up(ann).await);
                    }
                    let skip = (self.seq + 1 - ann.first_seq) as usize;
                    let events = ann
                        .events
                        .iter()
                        .enumerate()
                        .skip(skip)
                        .filter_map(|(i, e)| {
                            let seen = ann.state.redact(e, &self.viewer)?;
                            Some((ann.first_seq + i as u64, seen))
                        })
                        .collect();
                    return Some(Ok(self.update(ann.state.clone(), last, events)));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }

    /// Updates until event `seq` is covered (e.g. the [`Ack`](super::Ack) of one's own
    /// action: its announcement is already queued when the ack arrives).
    pub async fn until(&mut self, seq: u64) -> Result<Vec<Update<G>>, RuntimeError> {
        let mut updates = Vec::new();
        while self.seq < seq {
            match self.next().await {
                Some(update) => updates.push(update?),
                None => break,
            }
        }
        Ok(updates)
    }

    /// Fell behind: the events missed are read from the store.
    async fn catch_up(&mut self, ann: Arc<Announcement<G>>) -> Result<Update<G>, RuntimeError> {
        let last = ann.first_seq + ann.events.len() as u64 - 1;
        let mut events = Vec::new();
        for stored in self.store.events_after(self.id, self.seq).await? {
            if stored.seq > last {
                break;
            }
            let event = G::decode(&self.kind, &stored.body).map_err(|reason| {
                mondo_store::StoreError::Corrupt {
                    id: self.id,
                    seq: stored.seq,
                    reason,
                }
            })?;
            if let Some(seen) = ann.state.redact(&event, &self.viewer) {
                events.push((stored.seq, seen));
            }
        }
        Ok(self.update(ann.state.clone(), last, events))
    }

    fn update(&mut self, state: Arc<G>, seq: u64, events: Vec<(u64, G::Event)>) -> Update<G> {
        self.state = state;
        self.seq = seq;
        Update {
            seq,
            events,
            view: self.state.view(&self.viewer),
            over: self.state.is_over(),
            notice: None,
        }
    }
}
