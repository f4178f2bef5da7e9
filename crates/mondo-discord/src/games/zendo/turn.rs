//! A player's Zendo moves: build a structure, guess, skip, end the turn.

use super::NO_MATCH;
use super::ids::{KOAN_FIELD, KoanModal};
use crate::kit::{my_match, play, play_in, reply};
use crate::lang;
use crate::post::Post;
use crate::rules::zendo::{Mode, ZendoMove};
use crate::rules::{PlayerId, Viewer};
use crate::store::MatchRecord;
use crate::{Context, Error};
use poise::serenity_prelude as serenity;

/// What to do with a structure.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum KoanMode {
    #[name = "observe"]
    Observe,
    #[name = "challenge"]
    Challenge,
    /// Zendo Triple's word for observe: the umpire marks it at once.
    #[name = "grade"]
    Grade,
}

impl From<KoanMode> for Mode {
    fn from(m: KoanMode) -> Mode {
        match m {
            KoanMode::Observe | KoanMode::Grade => Mode::Observe,
            KoanMode::Challenge => Mode::Challenge,
        }
    }
}

/// Build a structure (step 1): the umpire says whether it obeys, or you challenge.
///
/// Write it on one line with ` / ` between rows, e.g. `3> .. 2^ / .. 1< 1<` (size 1-3,
/// then ^ > v <; `..` is an empty cell). Leave it out to type it in a box over several
/// lines. `observe` (the default): the umpire says at once. `challenge`: both players
/// answer privately within the time; each right answer earns a guess (a ticket in a
/// duel, a stone in Triple and Classic).
/// Zendo Triple: `grade` (same as observe) or `challenge` on the `patterns` you name
/// (A, B, C or several, e.g. `A,C`; default every unsolved one).
#[poise::command(slash_command)]
pub async fn koan(
    ctx: Context<'_>,
    #[description = "One line, rows split by ` / `, e.g. 3> .. 2^ / .. 1< 1< (leave out for a box)"]
    structure: Option<String>,
    #[description = "observe / grade (the umpire says at once; default) or challenge (both answer privately)"]
    mode: Option<KoanMode>,
    #[description = "Zendo Triple: the patterns to grade or challenge on, e.g. A or A,C (default: every unsolved one)"]
    patterns: Option<String>,
    #[description = "Zendo Classic: master (marked at once; default) or mondo (every student answers)"]
    call: Option<super::classic::CallChoice>,
) -> Result<(), Error> {
    let mode: Mode = call
        .map(Mode::from)
        .or(mode.map(Mode::from))
        .unwrap_or_default();
    let Some(record) = my_match(ctx, NO_MATCH).await? else {
        return Ok(());
    };
    match structure {
        Some(text) => {
            play_in(ctx, &record, |r| {
                super::build(&text, mode, patterns.as_deref(), r)
            })
            .await
        }
        None if patterns.is_some() => {
            let e = "to name the patterns, give the structure on one line (`structure`); the \
                     box grades or challenges on every unsolved pattern";
            reply(ctx, Post::private(e)).await
        }
        None => open_koan_box(ctx, mode, &record).await,
    }
}

/// Answers a `/koan` without a structure with a box for several lines; the
/// submission comes back as a modal interaction, shown privately first with *Submit*
/// and *Edit* ([`super::sketch`]).
async fn open_koan_box(ctx: Context<'_>, mode: Mode, record: &MatchRecord) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return reply(ctx, Post::private("give the structure as text")).await;
    };
    let version = ctx
        .data()
        .runtime
        .view(record.id, &Viewer::Player(PlayerId(ctx.author().id.get())))
        .await?
        .version();
    let modal = koan_box(mode, record.id, version, None);
    crate::kit::open_modal(app, modal).await
}

/// The koan box: a structure over several lines, for `mode` in match `game` (opened
/// at `version`), with `text` in it already when it is opened again to edit.
pub(super) fn koan_box(
    mode: Mode,
    game: crate::store::MatchId,
    version: u64,
    text: Option<&str>,
) -> serenity::CreateModal {
    let mut input = serenity::CreateInputText::new(
        serenity::InputTextStyle::Paragraph,
        "Structure (one row per line)",
        KOAN_FIELD,
    )
    .placeholder("3> .. .. 2^\n.. 1< 1<")
    .required(true)
    .max_length(400);
    if let Some(text) = text {
        input = input.value(text.chars().take(400).collect::<String>());
    }
    serenity::CreateModal::new(
        KoanModal {
            mode,
            game,
            version,
        }
        .to_string(),
        format!("Build a structure to {mode}"),
    )
    .components(vec![serenity::CreateActionRow::InputText(input)])
}

/// Guess the hidden pattern (step 2; a duel's ticket, a Triple's or Classic's stone).
///
/// Write it in English (`every small piece points up`, `there are exactly three
/// pieces`) or in the symbolic form. The umpire says how it read it, and which
/// structures on the table already contradict it; press *Make it official* (then the
/// umpire proves it right or shows a counterexample) or *Take it back* (what it cost
/// comes back). Zendo Triple: `on` names the pattern (A, B or C).
#[poise::command(slash_command)]
pub async fn guess(
    ctx: Context<'_>,
    #[description = "The pattern, e.g. every small piece points up"] pattern: String,
    #[description = "Zendo Triple: which hidden pattern you guess (A, B or C)"] on: Option<
        super::triple::LetterChoice,
    >,
) -> Result<(), Error> {
    match lang::parse(&pattern) {
        Ok(p) => {
            play(ctx, NO_MATCH, |r| match super::triple::guess(r, on, &p) {
                Some(triple) => triple,
                None => super::one_pattern_guess(r, &p),
            })
            .await
        }
        Err(e) => {
            let picture = e.render(&pattern).replace("```", "'''");
            reply(
                ctx,
                Post::private(format!("that pattern does not read:\n```\n{picture}```")),
            )
            .await
        }
    }
}

/// Skip step 1 (build nothing this turn): your opponent gets a ticket.
#[poise::command(slash_command)]
pub async fn pass(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, NO_MATCH, super::skip).await
}

/// End your turn (no more guesses now).
#[poise::command(slash_command)]
pub async fn endturn(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, NO_MATCH, |r| super::shared(r, ZendoMove::EndTurn)).await
}
