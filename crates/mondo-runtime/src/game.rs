//! Every game of `rules` is an [`Engine`]: the runtime needs nothing of a game that its
//! `rules::Game` does not already say.

use super::{Engine, Listing};
use mondo_rules::rules::{self, Actor, Game, RuleError, Viewer};
use mondo_store::Millis;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

impl<G: Game> Engine for G {
    type Setup = G::Setup;
    type SetupError = rules::SetupError;
    type Actor = Actor;
    type Action = rules::Action<G::Move, G::Deadline>;
    type Event = rules::Event<G::Event>;
    type Viewer = Viewer;
    type View = G::View;
    type Error = RuleError;
    type Work = G::Work;

    fn kinds() -> Vec<&'static str> {
        vec![G::KIND.name()]
    }

    fn start(setup: G::Setup, now: Millis) -> Result<(G, Self::Event), rules::SetupError> {
        Game::start(setup, now)
    }

    fn start_by(
        setup: G::Setup,
        now: Millis,
        by: Option<u64>,
    ) -> Result<(G, Vec<Self::Event>), rules::SetupError> {
        Game::start_by(setup, now, by.map(rules::PlayerId))
    }

    fn decode(_kind: &str, body: &str) -> Result<Self::Event, String> {
        mondo_store::from_json(body)
    }

    fn replay(kind: &str, events: &[Self::Event]) -> Result<G, String> {
        if kind != G::KIND.name() {
            return Err(format!("a {kind} match is not a {}", G::KIND.name()));
        }
        Game::replay(events).map_err(|e| e.to_string())
    }

    fn fold(&mut self, event: &Self::Event) -> Result<(), String> {
        Game::fold(self, event).map_err(|e| e.to_string())
    }

    fn listing(&self) -> Listing {
        Listing {
            kind: G::KIND.name(),
            seed: self.seed(),
            players: self.players().iter().map(|p| p.0).collect(),
            settings: self.listed_settings().to_string(),
        }
    }

    fn decide(
        &self,
        actor: &Actor,
        action: &Self::Action,
        shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Self::Event>, G), RuleError> {
        Game::decide(self, actor, action, shown, now)
    }

    fn event_at(event: &Self::Event) -> Millis {
        event.at
    }

    fn version(&self) -> u64 {
        Game::version(self)
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn finish(&self) -> Option<rules::Finish> {
        Game::result(self)
    }

    fn timeout(&self) -> Option<(Millis, Self::Action)> {
        let deadline = self.next_deadline()?;
        Some((
            rules::Deadline::at(&deadline),
            rules::Action::Timeout { deadline },
        ))
    }

    fn umpire() -> Actor {
        Actor::Umpire
    }

    fn work(&self) -> Option<(u64, G::Work)> {
        Game::work(self)
    }

    fn perform(work: G::Work, stop: Arc<AtomicBool>) -> Self::Action {
        rules::Action::Move(G::perform(work, stop))
    }

    fn abandon(&self, key: u64, reason: &str) -> Option<Self::Action> {
        G::abandon(key, reason).map(rules::Action::Move)
    }

    fn downtime(since: Millis) -> Option<Self::Action> {
        Some(rules::Action::Downtime { since })
    }

    fn host_end(host: u64) -> Option<(Actor, Self::Action)> {
        Some((Actor::Host(rules::PlayerId(host)), rules::Action::End))
    }

    fn showed(&self) -> Vec<u64> {
        let seating = self.seating();
        seating
            .players
            .values()
            .iter()
            .enumerate()
            .filter(|(k, _)| seating.acted.get(*k).copied().unwrap_or(false))
            .map(|(_, p)| p.0)
            .collect()
    }

    fn score(&self) -> Option<[i64; 2]> {
        Game::score(self)
    }

    fn view(&self, viewer: &Viewer) -> G::View {
        Game::view(self, viewer)
    }

    fn redact(&self, event: &Self::Event, viewer: &Viewer) -> Option<Self::Event> {
        self.visible(event, viewer)
    }
}
