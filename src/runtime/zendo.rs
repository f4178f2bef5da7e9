//! Zendo on the runtime: the Duel and solo practice engines (`rules::zendo`) as one
//! [`Engine`], the umpire's verdict on an official guess computed off the match's task.

use super::{Engine, Listing};
use crate::finder::{Limits, Style, Verdict};
use crate::koan::{Koan, PieceSet};
use crate::lang::Formula;
use crate::rules::zendo::{
    Action, Duel, DuelSetup, DuelView, Event, EventKind, Practice, PracticeSetup, PracticeView,
    Zendo,
};
use crate::rules::{Actor, Game, Millis, RuleError, SetupError, Viewer};
use crate::store::Millis as StoreMillis;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub const DUEL: &str = "zendo-duel";
pub const PRACTICE: &str = "zendo-practice";

/// A Zendo match of either game.
// Each lives once per match, behind an Arc: boxing the larger variant buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum ZendoMatch {
    Duel(Duel),
    Practice(Practice),
}

#[derive(Clone, Debug)]
pub enum ZendoSetup {
    Duel(DuelSetup),
    Practice(PracticeSetup),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum ZendoView {
    Duel(DuelView),
    Practice(PracticeView),
}

impl ZendoView {
    /// The match's version this view was taken at (what a button or a box opened now
    /// carries, so that acting on it later is refused as stale).
    pub fn version(&self) -> u64 {
        match self {
            ZendoView::Duel(v) => v.version,
            ZendoView::Practice(v) => v.version,
        }
    }
}

/// What the umpire needs to judge an official guess, owned (it moves to a blocking
/// thread).
#[derive(Clone, Debug)]
pub struct VerdictJob {
    pub guess: u32,
    pub hidden: Formula,
    pub guessed: Formula,
    pub set: PieceSet,
    pub style: Style,
    pub seed: u64,
    pub table: Vec<Koan>,
}

/// Calls `$body` with `$g` bound to the inner engine, whichever game it is.
macro_rules! both {
    ($m:expr, $g:ident => $body:expr) => {
        match $m {
            ZendoMatch::Duel($g) => $body,
            ZendoMatch::Practice($g) => $body,
        }
    };
}

impl ZendoMatch {
    pub fn as_duel(&self) -> Option<&Duel> {
        match self {
            ZendoMatch::Duel(d) => Some(d),
            ZendoMatch::Practice(_) => None,
        }
    }
}

impl Engine for ZendoMatch {
    const KINDS: &'static [&'static str] = &[DUEL, PRACTICE];
    type Setup = ZendoSetup;
    type SetupError = SetupError;
    type Actor = Actor;
    type Action = Action;
    type Event = Event;
    type Viewer = Viewer;
    type View = ZendoView;
    type Error = RuleError;
    type Work = VerdictJob;

    fn start(setup: ZendoSetup, now: StoreMillis) -> Result<(Self, Event), SetupError> {
        Ok(match setup {
            ZendoSetup::Duel(s) => {
                let (d, e) = Duel::start(s, now)?;
                (ZendoMatch::Duel(d), e)
            }
            ZendoSetup::Practice(s) => {
                let (p, e) = Practice::start(s, now)?;
                (ZendoMatch::Practice(p), e)
            }
        })
    }

    fn replay(events: &[Event]) -> Result<Self, String> {
        match events.first().map(|e| &e.kind) {
            Some(EventKind::DuelCreated { .. }) => Duel::replay(events)
                .map(ZendoMatch::Duel)
                .map_err(|e| e.to_string()),
            Some(EventKind::PracticeCreated { .. }) => Practice::replay(events)
                .map(ZendoMatch::Practice)
                .map_err(|e| e.to_string()),
            _ => Err("the log does not start with a Zendo match's creation".into()),
        }
    }

    fn listing(&self) -> Listing {
        let (kind, players) = match self {
            ZendoMatch::Duel(d) => (DUEL, d.players().iter().map(|p| p.0).collect()),
            ZendoMatch::Practice(p) => (PRACTICE, vec![p.player().0]),
        };
        let settings = both!(self, g => g.settings());
        Listing {
            kind,
            seed: both!(self, g => g.seed()),
            players,
            settings: serde_json::to_string(&settings).unwrap_or_else(|_| "{}".into()),
        }
    }

    fn decide(
        &self,
        actor: &Actor,
        action: &Action,
        shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Event>, Self), RuleError> {
        Ok(match self {
            ZendoMatch::Duel(d) => {
                let (events, next) = d.decide(actor, action, shown, now)?;
                (events, ZendoMatch::Duel(next))
            }
            ZendoMatch::Practice(p) => {
                let (events, next) = p.decide(actor, action, shown, now)?;
                (events, ZendoMatch::Practice(next))
            }
        })
    }

    fn event_at(event: &Event) -> Millis {
        event.at
    }

    fn version(&self) -> u64 {
        both!(self, g => g.version())
    }

    fn is_over(&self) -> bool {
        both!(self, g => g.is_over())
    }

    fn timeout(&self) -> Option<(Millis, Action)> {
        let deadline = both!(self, g => g.next_deadline())?;
        Some((deadline.at, Action::Timeout { deadline }))
    }

    fn umpire() -> Actor {
        Actor::Umpire
    }

    fn work(&self) -> Option<(u64, VerdictJob)> {
        let r = both!(self, g => g.verdict_request())?;
        Some((
            r.guess as u64,
            VerdictJob {
                guess: r.guess,
                hidden: r.hidden.clone(),
                guessed: r.guessed.clone(),
                set: r.set,
                style: r.style,
                seed: r.seed,
                table: r.table.entries().iter().map(|e| e.koan.clone()).collect(),
            },
        ))
    }

    fn perform(job: VerdictJob, stop: Arc<AtomicBool>) -> Action {
        Action::Verdict {
            guess: job.guess,
            verdict: judge(&job, stop),
        }
    }

    fn abandon(key: u64, reason: &str) -> Option<Action> {
        Some(Action::Verdict {
            guess: key as u32,
            verdict: Verdict::Undecided {
                reason: reason.to_string(),
            },
        })
    }

    fn view(&self, viewer: &Viewer) -> ZendoView {
        match self {
            ZendoMatch::Duel(d) => ZendoView::Duel(d.view(viewer)),
            ZendoMatch::Practice(p) => ZendoView::Practice(p.view(viewer)),
        }
    }

    fn is_visible(&self, event: &Event, viewer: &Viewer) -> bool {
        both!(self, g => g.is_visible(event, viewer))
    }
}

/// The umpire's verdict on an official guess: the exact finder, which either proves
/// the guess equivalent to the hidden pattern over every valid structure, or builds the
/// counterexample the match's style asks for (not on the table unless only tabled ones
/// exist). `stop` is raised by the runtime when the match must give up (shutdown, host
/// override); the finder then answers `Undecided`, which voids the guess and returns its
/// ticket, as does running out of its conflict budget.
fn judge(job: &VerdictJob, stop: Arc<AtomicBool>) -> Verdict {
    let limits = Limits {
        interrupt: Some(stop),
        ..Limits::default()
    };
    crate::finder::compare(
        &job.hidden,
        &job.guessed,
        job.set,
        &job.table,
        job.style,
        job.seed,
        &limits,
    )
}
