//! The Zendo Duel on Discord, as the bot's dispatch sees it: its posts are the Zendo
//! family's (`posts.rs`), and when a challenge opens each player's answer buttons go
//! to them by DM.

use super::posts::{self, Place, Voice};
use crate::bot::kit::{Dms, GameBot, Said};
use crate::bot::post::Post;
use crate::bot::say::Clocks;
use crate::rules::EventKind;
use crate::rules::zendo::{DuelEvent, DuelView};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::store::MatchId;

pub struct Front;

impl GameBot for Front {
    type View = DuelView;
    type Voice = Voice;

    fn voice(view: &AnyView, _: &DuelView) -> Voice {
        Voice::new(view)
    }

    fn batch(
        voice: &mut Voice,
        events: &[AnyEvent],
        view: &AnyView,
        _: &DuelView,
        said: Said<'_>,
    ) -> Post {
        let place = Place {
            game: said.game,
            no_dm: said.no_dm,
        };
        posts::batch(voice, events, view, said.clocks, place)
    }

    fn opening(game: MatchId, view: &AnyView, _: &DuelView, clocks: Clocks) -> Post {
        posts::opening(game, view, clocks)
    }

    fn status(game: MatchId, view: &AnyView, _: &DuelView, clocks: Clocks) -> Post {
        posts::status(game, view, clocks)
    }

    fn board(game: MatchId, view: &AnyView, _: &DuelView) -> Post {
        posts::board(game, view)
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
            version: v.version,
        })
    }
}
