//! The Zendo Duel on Discord, as the bot's dispatch sees it: its posts are the Zendo
//! family's (`posts.rs`), and when a challenge opens each player's answer buttons go
//! to them by DM.

use super::posts;
use crate::kit::{Data, Dms, Error, GameBot, Said};
use crate::post::Post;
use crate::rules::EventKind;
use crate::rules::zendo::{DuelEvent, DuelView};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::say::Clocks;
use crate::store::MatchId;

/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../../docs/games/duel.md");

pub struct Front;

impl GameBot for Front {
    posts::family_posts!(DuelView);

    /// The Zendo family's commands (every mode's), with its first game.
    fn commands() -> Vec<poise::Command<Data, Error>> {
        vec![
            super::zendo(),
            super::koan(),
            super::guess(),
            super::pass(),
            super::endturn(),
            super::settings(),
            super::why::why(),
        ]
    }

    /// Its AI opponent, if it has one, plays from here (and again after a restart).
    fn on_open(bot: &std::sync::Arc<crate::kit::Bot>, game: MatchId) {
        super::ai::on_open(bot, game);
    }

    fn dms(game: MatchId, events: &[AnyEvent], v: &DuelView, clocks: Clocks) -> Option<Dms> {
        let events: Vec<crate::rules::Event<DuelEvent>> = events_of(events);
        let opened = events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Game(DuelEvent::ChallengeOpened { .. })));
        if !opened {
            return None;
        }
        Some(Dms {
            post: posts::answer_post(game, v, clocks)?,
            to: v.players.values().to_vec(),
            fallback: super::posts::ask_here(game, v.version),
        })
    }
}
