//! The bottom of the bot, which names no game: the one [`Bot`] every command shares,
//! each match's desk and the task that says it, replies and refusals, match lookup,
//! host checks, DMs, starting a match, and the ids buttons and boxes carry. The games
//! (`bot::games`) build on it; what the kit needs of them it asks through [`Fronts`].

mod base;
pub mod card;
pub mod challenge;
pub mod data;
pub mod desk;
pub mod front;
pub mod host;
pub mod ids;
pub mod post;
pub mod reply;
pub mod say;
mod speak;
pub mod start;

pub(crate) use base::wall_ms;
pub use base::{Asked, Error, Handed, Handling, Holds, ServeError, SettingUp, SetupFuture};
pub use data::{
    BUILT_IN_POOLS, Bot, Context, Data, Dms, Effective, Fronts, Pressed, Said, Submitted, Voice,
    is_host,
};
pub use front::{GameBot, GameControls, Upkeep, tournament_pair, unknown_button};
pub use reply::{
    answer_modal, answer_press, asked, claimed, modal_text, my_match, open_modal, play, play_in,
    refusal, reply, unknown_match,
};
pub use start::SetChoice;
