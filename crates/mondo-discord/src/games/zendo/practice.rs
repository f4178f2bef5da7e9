//! Zendo practice on Discord, as the bot's dispatch sees it: its posts are the Zendo
//! family's (`posts.rs`).

use super::posts;
use crate::kit::{GameBot, Said};
use crate::post::Post;
use crate::rules::zendo::PracticeView;
use crate::runtime::{AnyEvent, AnyView};
use crate::say::Clocks;
use crate::store::MatchId;

/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../../docs/games/practice.md");

pub struct Front;

impl GameBot for Front {
    posts::family_posts!(PracticeView);
}
