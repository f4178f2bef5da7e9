//! Logical Bluffs on Discord. The channel hears only what a spectator may (the desk
//! follows the match as one): phases, who submitted, the bluffs from Claiming on with a
//! picture of each subset, the reveals counted, the end. Each player's own (known
//! tiles, RP, truths, marks, reveals) goes to them alone ([`private`]): by DM, or, when
//! their DMs are closed, in `/bluffs status`, which only they see.
//!
//! - `commands.rs`: `/bluffs duel|bluff|status|resign`; hosts pause, resume and end it
//!   with `/host`, as every game.
//! - `controls.rs`: the private controls (the bluff modal and its read-back, the mark
//!   buttons, the reveal select and the layout modal), handled from their custom ids
//!   (`bluffs:GAME:...`) and, for a bluff read back, the store, so they work after a
//!   restart.
//! - `private.rs`: each player's private feed, said by DM.

pub mod commands;
pub mod controls;
mod private;
mod view;

pub use commands::bluffs;
pub use controls::{PREFIX, on_component, on_modal};
pub use private::follow;
pub use view::{own, view_of};

use crate::kit::{Bot, Data, Error, GameBot, GameControls, Handling, Pressed, Said, Submitted};
use crate::narrate::{Names, bluffs};
use crate::post::Post;
use crate::render::tiles::board_png;
use crate::rules::bluffs::{BluffsView, EventKind as BluffsEvent};
use crate::rules::{Event, EventKind};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::say::Clocks;
use crate::store::{MatchId, MatchRecord};
use std::sync::Arc;

/// Logical Bluffs' Discord side, as the bot's dispatch sees it.
/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../../docs/games/bluffs.md");

pub struct Front;

impl GameControls for Front {
    /// The private controls (each names its match; the view says the rest).
    fn on_button<'a>(at: Pressed<'a>, _record: Option<MatchRecord>) -> Handling<'a> {
        Box::pin(on_component(at.ctx, at.bot, at.press, at.header))
    }

    /// The bluff's and the layout's forms.
    fn on_modal(at: Submitted<'_>) -> Option<Handling<'_>> {
        if !at.submit.data.custom_id.starts_with(PREFIX) {
            return None;
        }
        Some(Box::pin(on_modal(at.ctx, at.bot, at.submit)))
    }

    fn tournament_ways() -> &'static [(&'static str, &'static str)] {
        &[(commands::TITLE, "")]
    }

    /// The configured settings, a seed drawn at random.
    fn tournament_setup<'a>(
        bot: &'a Data,
        _guild: Option<u64>,
        players: Vec<crate::rules::PlayerId>,
        options: &'a str,
    ) -> Option<crate::kit::SetupFuture<'a>> {
        Some(Box::pin(async move {
            let players = crate::kit::tournament_pair(&players, options, commands::TITLE)?;
            Ok(crate::rules::bluffs::Setup {
                players,
                seed: rand::RngExt::random(&mut rand::rng()),
                settings: bot.config.games.Bluffs.settings(),
            }
            .into())
        }))
    }
}

impl GameBot for Front {
    type View = BluffsView;
    type Voice = ();

    fn commands() -> Vec<poise::Command<Data, Error>> {
        vec![bluffs()]
    }

    fn voice(_: &AnyView, _: &BluffsView) {}

    fn batch(_: &mut (), events: &[AnyEvent], _: &AnyView, v: &BluffsView, _: Said<'_>) -> Post {
        batch(events, v)
    }

    fn opening(game: MatchId, _: &AnyView, v: &BluffsView, clocks: Clocks) -> Post {
        opening(game, v, clocks)
    }

    fn status(game: MatchId, _: &AnyView, v: &BluffsView, clocks: Clocks) -> Post {
        status(game, v, clocks)
    }

    fn board(game: MatchId, _: &AnyView, v: &BluffsView) -> Post {
        board(game, v)
    }

    fn private_feed(game: MatchId, heard: &[AnyEvent], v: &BluffsView) -> Vec<String> {
        private::said(game, heard, v).lines
    }

    fn private_status(game: MatchId, v: &BluffsView) -> Vec<String> {
        private::first(game, v).lines
    }

    /// Each player's own goes to them alone (their DMs); the AI's seat (`/bluffs duel
    /// opponent:@Mondo`) plays, from the start or after a restart.
    fn on_open(bot: &Arc<Bot>, game: MatchId) {
        follow(bot.clone(), game);
        let runtime = bot.runtime.clone();
        tokio::spawn(async move { crate::play::ai::seat_ai_ids(&runtime, game).await });
    }
}

fn names(view: &BluffsView) -> Names {
    Names::mentions(&view.players)
}

/// A batch as the channel hears it: the public events, a picture of each bluff's
/// subset when the bluffs are shown.
pub fn batch(events: &[AnyEvent], view: &BluffsView) -> Post {
    let names = names(view);
    let mut post = Post::default();
    let all: Vec<Event<BluffsEvent>> = events_of(events);
    for e in &all {
        match &e.kind {
            EventKind::Paused { .. } => {
                post.line("A host paused the match: every clock stops.");
            }
            EventKind::Resumed { .. } => {
                post.line("The match goes on.");
            }
            EventKind::ClockRebased { .. } => {
                post.line("Mondo was away: that time is not counted.");
            }
            EventKind::SetupChosen { by } => {
                post.line(crate::narrate::setup_chosen(&names, *by).text);
            }
            EventKind::Game(_) => {}
        }
    }
    let own = own(events);
    for line in bluffs::public(&names, &view.settings, &own) {
        post.line(line.text);
    }
    for e in &own {
        if let BluffsEvent::Shown { seat, subset, .. } = e {
            post.files.push((
                format!("subset-{}.png", seat.index() + 1),
                board_png(&[], Some(subset)),
            ));
        }
    }
    post
}

/// The opening post of a match.
pub fn opening(game: MatchId, view: &BluffsView, clocks: Clocks) -> Post {
    let names = names(view);
    let mut post = Post::text(format!(
        "**Logical Bluffs #{game}**: {} vs {}. Each of you knows {} of a hidden 4 x 4 \
         layout (sent to you alone, with your RP). Bluff with `/bluffs bluff`; your marks \
         and reveals come as private buttons; `/bluffs status` shows your own state to you \
         alone.",
        names.name(crate::rules::Seat(0)),
        names.name(crate::rules::Seat(1)),
        crate::narrate::count(view.settings.known_tiles as u64, "tile", "tiles"),
    ));
    post.line(status(game, view, clocks).lines.concat());
    post
}

/// The public status of a match.
pub fn status(game: MatchId, view: &BluffsView, clocks: Clocks) -> Post {
    // The clock as the other games' are on Discord: what is left, and when it ends
    // as a Discord timestamp (stopped while a host has paused the match).
    let line = bluffs::status_with(&names(view), view, clocks.game, |at| {
        let left = crate::narrate::clock_text(at.saturating_sub(clocks.game));
        match view.paused {
            true => format!("{left} left"),
            false => format!("{left} left, ends {}", clocks.countdown(at)),
        }
    });
    Post::text(format!("**Logical Bluffs #{game}**: {}", line.text))
}

/// The bluffs on the table (public).
pub fn board(game: MatchId, view: &BluffsView) -> Post {
    let mut post = Post::text(format!("**Logical Bluffs #{game}**"));
    for line in bluffs::board(&names(view), view) {
        post.line(line.text);
    }
    post
}
