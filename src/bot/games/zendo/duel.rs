//! The Zendo Duel on Discord, as the bot's dispatch sees it: its posts are the Zendo
//! family's (`posts.rs`), and when a challenge opens each player's answer buttons go
//! to them by DM.

use super::posts;
use crate::bot::kit::{Dms, GameBot, Said};
use crate::bot::post::Post;
use crate::bot::say::Clocks;
use crate::rules::EventKind;
use crate::rules::zendo::{DuelEvent, DuelView};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::store::MatchId;

/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../docs/games/duel.md");

pub struct Front;

impl GameBot for Front {
    posts::family_posts!(DuelView);

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
            version: v.version,
        })
    }
}
