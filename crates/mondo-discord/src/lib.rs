//! The Discord front: slash commands (poise), buttons, modals and DMs over the same
//! match runtime and store as the terminal.
//!
//! Three layers, each using only those below it: [`kit`] at the bottom (the one
//! [`Bot`] every command shares, replies, match lookup, host checks, DMs, starting a
//! match, button ids, each match's desk), which names no game; [`games`] above it, one
//! module per game family (its commands, button verbs and posts) and the list that
//! routes to them ([`games::Games`]); and on top the wiring: the commands every game
//! shares ([`commands`]), interactions (buttons, modals, errors) routed by the match's
//! game, and `serve.rs`, which starts it all (the shape of poise's own examples and
//! ferrisbot). Doc comments are the help. The bot never reads a match's state: it renders `view(viewer)` and the
//! events a spectator may hear, so the hidden pattern goes nowhere before the end.
//! Buttons carry their match and version ([`ids`]) and are handled statelessly, so
//! they keep working after a restart. Each live match has a desk ([`desk`]) that says
//! it in its channel, in order, exactly once.

pub mod cli;
pub mod commands;
pub mod coverage;
pub mod games;
mod interactions;
pub mod kit;
pub mod metrics;
pub mod outage;
mod route;
mod serve;

pub use interactions::{on_error, on_event};
pub use kit::{
    Asked, Bot, Context, Data, Effective, Error, Handed, Holds, ServeError, SettingUp, claimed,
    data, desk, ids, is_host, post, refusal, say,
};
pub use serve::{client, http, http_client, intents, register, serve};

// The layers below, under the names this front's code gives them.
pub(crate) use mondo_narrate as narrate;
pub(crate) use mondo_play::{self as play, config, files, shards};
pub(crate) use mondo_render as render;
pub(crate) use mondo_rules::{
    finder, grid, koan, lang, pool, ratings, registry, rules, student, tournament,
};
pub(crate) use mondo_runtime as runtime;
pub(crate) use mondo_store as store;
