//! One module per game family: its slash commands, its button verbs and its posts.
//! Each game's Discord side is a `Front` in its own folder (`<path>::Front`, the path
//! the registry gives it), implementing [`GameBot`]; the registry's list makes
//! [`Games`], the dispatch over every game that the kit asks for ([`Fronts`]): the
//! commands, a button routed to the game that owns its match, a box to the game whose
//! box it is, a host's disallow, the work at start-up, and each match's posts.

pub mod help;
// Each game's module here (`pub mod <folder>;`), from the registry's lines marked `mod`.
crate::registry::game_modules!();

use super::kit::ids::Header;
use super::kit::{
    self, Bot, Data, Dms, Error, Fronts, GameBot, GameControls, Handling, Pressed, Said, Submitted,
    Upkeep,
};
use super::post::Post;
use super::say::Clocks;
use crate::rules::{GameKind, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnyView};
use crate::store::{MatchId, MatchRecord};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Every game's Discord side, as the kit asks for it (see [`Fronts`]).
pub struct Games;

macro_rules! fronts {
    ($($kind:ident => $($path:ident)::+ ($name:literal, $title:literal)),+ $(,)?) => {
        impl Fronts for Games {
            fn commands(&self) -> Vec<poise::Command<Data, Error>> {
                let mut all = Vec::new();
                $(all.extend(<$($path)::+::Front as GameBot>::commands());)+
                all
            }

            fn claims(&self, header: &Header) -> bool {
                $(<$($path)::+::Front as GameControls>::claims(header))||+
            }

            fn on_button<'a>(
                &'a self,
                pressed: Pressed<'a>,
                record: Option<MatchRecord>,
            ) -> Handling<'a> {
                match record.as_ref().map(|r| r.game().ok()) {
                    None => {
                        $(if <$($path)::+::Front as GameControls>::claims(pressed.header) {
                            return <$($path)::+::Front as GameControls>::on_button(pressed, None);
                        })+
                    }
                    $(Some(Some(GameKind::$kind)) => {
                        return <$($path)::+::Front as GameControls>::on_button(pressed, record);
                    })+
                    Some(None) => {}
                }
                kit::unknown_button(pressed)
            }

            fn on_modal<'a>(&'a self, submitted: Submitted<'a>) -> Option<Handling<'a>> {
                $(if let Some(h) = <$($path)::+::Front as GameControls>::on_modal(submitted) {
                    return Some(h);
                })+
                None
            }

            fn disallow(&self, record: &MatchRecord) -> Result<AnyAction, String> {
                match record.game() {
                    $(Ok(GameKind::$kind) => <$($path)::+::Front as GameControls>::disallow(record),)+
                    Err(e) => Err(e.to_string()),
                }
            }

            fn tournament_games(&self) -> Vec<(&'static str, String)> {
                let mut all = Vec::new();
                $(for (label, options) in <$($path)::+::Front as GameControls>::tournament_ways() {
                    all.push((*label, format!("{} {options}", $name).trim().to_string()));
                })+
                all
            }

            fn tournament_setup<'a>(
                &self,
                kind: GameKind,
                bot: &'a Data,
                guild: Option<u64>,
                players: Vec<PlayerId>,
                options: &'a str,
            ) -> Option<kit::SetupFuture<'a>> {
                match kind {
                    $(GameKind::$kind => <$($path)::+::Front as GameControls>::tournament_setup(
                        bot, guild, players, options,
                    ),)+
                }
            }

            fn on_serve<'a>(&'a self, bot: &'a Data) -> Handling<'a> {
                Box::pin(async move {
                    $(<$($path)::+::Front as GameBot>::on_serve(bot).await;)+
                    Ok(())
                })
            }

            fn voice(&self, view: &AnyView) -> kit::Voice {
                match view {
                    $(AnyView::$kind(v) => Box::new(<$($path)::+::Front as GameBot>::voice(view, v)),)+
                }
            }

            fn batch(
                &self,
                voice: &mut kit::Voice,
                events: &[AnyEvent],
                view: &AnyView,
                said: Said,
            ) -> Post {
                match view {
                    $(AnyView::$kind(v) => {
                        type F = $($path)::+::Front;
                        if !voice.is::<<F as GameBot>::Voice>() {
                            *voice = Box::new(F::voice(view, v));
                        }
                        match voice.downcast_mut::<<F as GameBot>::Voice>() {
                            Some(voice) => F::batch(voice, events, view, v, said),
                            None => Post::default(),
                        }
                    })+
                }
            }

            fn opening(&self, game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::opening(game, view, v, clocks),)+
                }
            }

            fn status(&self, game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::status(game, view, v, clocks),)+
                }
            }

            fn board(&self, game: MatchId, view: &AnyView) -> Post {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::board(game, view, v),)+
                }
            }

            fn dms(
                &self,
                game: MatchId,
                events: &[AnyEvent],
                view: &AnyView,
                clocks: Clocks,
            ) -> Option<Dms> {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::dms(game, events, v, clocks),)+
                }
            }

            fn private_feed(&self, game: MatchId, heard: &[AnyEvent], view: &AnyView) -> Vec<String> {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::private_feed(game, heard, v),)+
                }
            }

            fn private_status(&self, game: MatchId, view: &AnyView) -> Vec<String> {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::private_status(game, v),)+
                }
            }

            fn on_open(&self, bot: &Arc<Bot>, game: MatchId, view: &AnyView) {
                match view {
                    $(AnyView::$kind(_) => <$($path)::+::Front as GameBot>::on_open(bot, game),)+
                }
            }

            fn after<'a>(
                &'a self,
                bot: &'a Bot,
                channel: serenity::ChannelId,
                game: MatchId,
                view: &'a AnyView,
                events: Option<&'a [AnyEvent]>,
            ) -> Upkeep<'a> {
                match view {
                    $(AnyView::$kind(v) => <$($path)::+::Front as GameBot>::after(bot, channel, game, v, events),)+
                }
            }
        }
    };
}

crate::registry::for_each_game!(fronts);

/// What a match's channel narration remembers between batches (for a caller that
/// says a match itself, as the secrecy test does).
pub struct Voice(kit::Voice);

impl Voice {
    pub fn new(view: &AnyView) -> Voice {
        Voice(Games.voice(view))
    }
}

/// A batch of events as one post in the match's channel.
pub fn batch(
    voice: &mut Voice,
    events: &[AnyEvent],
    view: &AnyView,
    clocks: Clocks,
    game: MatchId,
    no_dm: &[PlayerId],
) -> Post {
    Games.batch(
        &mut voice.0,
        events,
        view,
        Said {
            game,
            clocks,
            no_dm,
        },
    )
}

/// The opening post of a match.
pub fn opening(game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
    Games.opening(game, view, clocks)
}

/// A viewer's status of a match.
pub fn status(game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
    Games.status(game, view, clocks)
}

/// The board of a match.
pub fn board(game: MatchId, view: &AnyView) -> Post {
    Games.board(game, view)
}

/// What a batch sends by DM (a challenge's answer buttons), if anything.
pub fn dms(game: MatchId, events: &[AnyEvent], view: &AnyView, clocks: Clocks) -> Option<Dms> {
    Games.dms(game, events, view, clocks)
}

/// What a player alone is told of a batch besides the channel and the DMs (`heard`:
/// the events as they hear them; `view`: theirs): its words.
pub fn private_feed(game: MatchId, heard: &[AnyEvent], view: &AnyView) -> Vec<String> {
    Games.private_feed(game, heard, view)
}

/// What a player alone may see of the match at any time, by their own view.
pub fn private_status(game: MatchId, view: &AnyView) -> Vec<String> {
    Games.private_status(game, view)
}
