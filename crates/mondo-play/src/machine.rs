//! A game's AI as the seats' driver (`super::ai`) sees it: over the runtime's views
//! and actions, whatever the game. Each game's terminal front makes its own
//! (`Terminal::ai`) with [`typed`].

use crate::runtime::{AnyAction, AnyView};
use crate::store::Millis;
use crate::student::Ai;

/// An AI of any game, for one seat, over the runtime's views and actions.
pub trait SeatAi: Send {
    /// Its next move on its player's view at `now`, with its think delay; `None`
    /// when the view is not of its game or it has nothing to do.
    fn next(&mut self, view: &AnyView, now: Millis) -> Option<(Millis, AnyAction)>;
    /// The move of its last plan was taken at `now`.
    fn made(&mut self, now: Millis);
    /// A view its player had at `at`, before it was seated (`student::Ai::recall`).
    fn recall(&mut self, view: &AnyView, at: Millis);
}

/// A game's [`Ai`] over the runtime's types.
struct Typed<A: Ai> {
    ai: A,
    view_of: fn(&AnyView) -> Option<&A::View>,
    last: Option<A::Move>,
}

impl<A> SeatAi for Typed<A>
where
    A: Ai,
    A::Move: Clone + Into<AnyAction> + Send,
{
    fn next(&mut self, view: &AnyView, now: Millis) -> Option<(Millis, AnyAction)> {
        let view = (self.view_of)(view)?;
        let plan = self.ai.next(view, now)?;
        self.last = Some(plan.action.clone());
        Some((plan.delay, plan.action.into()))
    }

    fn made(&mut self, now: Millis) {
        if let Some(m) = self.last.take() {
            self.ai.made(&m, now);
        }
    }

    fn recall(&mut self, view: &AnyView, at: Millis) {
        if let Some(view) = (self.view_of)(view) {
            self.ai.recall(view, at);
        }
    }
}

/// `ai` as a seat's AI; `view_of` says its game's view in the runtime's.
pub fn typed<A>(ai: A, view_of: fn(&AnyView) -> Option<&A::View>) -> Box<dyn SeatAi>
where
    A: Ai + 'static,
    A::Move: Clone + Into<AnyAction> + Send,
{
    Box::new(Typed {
        ai,
        view_of,
        last: None,
    })
}
