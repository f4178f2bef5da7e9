//! Zendo practice on Discord, as the bot's dispatch sees it: its posts are the Zendo
//! family's (`posts.rs`).

use super::posts::{self, Place, Voice};
use crate::bot::kit::{GameBot, Said};
use crate::bot::post::Post;
use crate::bot::say::Clocks;
use crate::rules::zendo::PracticeView;
use crate::runtime::{AnyEvent, AnyView};
use crate::store::MatchId;

pub struct Front;

impl GameBot for Front {
    type View = PracticeView;
    type Voice = Voice;

    fn voice(view: &AnyView, _: &PracticeView) -> Voice {
        Voice::new(view)
    }

    fn batch(
        voice: &mut Voice,
        events: &[AnyEvent],
        view: &AnyView,
        _: &PracticeView,
        said: Said<'_>,
    ) -> Post {
        let place = Place {
            game: said.game,
            no_dm: said.no_dm,
        };
        posts::batch(voice, events, view, said.clocks, place)
    }

    fn opening(game: MatchId, view: &AnyView, _: &PracticeView, clocks: Clocks) -> Post {
        posts::opening(game, view, clocks)
    }

    fn status(game: MatchId, view: &AnyView, _: &PracticeView, clocks: Clocks) -> Post {
        posts::status(game, view, clocks)
    }

    fn board(game: MatchId, view: &AnyView, _: &PracticeView) -> Post {
        posts::board(game, view)
    }
}
