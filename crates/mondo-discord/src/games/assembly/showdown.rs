//! The showdown's box: `/assembly showdown` without a grid opens a modal with one line
//! per row of the showdown's region (prefilled with blanks, so its size is plain);
//! the submission comes back as a modal interaction (the dispatch hands it here by its
//! id, through `Front::on_modal`).

use super::view::view_of;
use crate::grid::{Dims, Reconstruction, Region};
use crate::kit::reply;
use crate::post::Post;
use crate::rules::assembly::{AssemblyMove, AssemblyView, NO_SHOWDOWN, PhaseView};
use crate::rules::{Actor, PlayerId, Viewer};
use crate::runtime::AnyAction;
use crate::store::{MatchId, MatchRecord};
use crate::{Asked, Bot, Context, Error, Handed, claimed};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// The box's id: `assembly-showdown:MATCH`. No version: a showdown may be sent again
/// until all are in, and one sent too late is refused by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowdownModal {
    pub game: MatchId,
}

const PREFIX: &str = "assembly-showdown:";

/// The box's text input.
pub const FIELD: &str = "grid";

impl std::fmt::Display for ShowdownModal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{PREFIX}{}", self.game.0)
    }
}

impl std::str::FromStr for ShowdownModal {
    type Err = ();
    fn from_str(s: &str) -> Result<ShowdownModal, ()> {
        let game = s.strip_prefix(PREFIX).ok_or(())?.parse().map_err(|_| ())?;
        Ok(ShowdownModal {
            game: MatchId(game),
        })
    }
}

/// The showdown's region while it is open (the rows a reconstruction must have).
fn region_of(view: &AssemblyView) -> Option<Region> {
    match view.phase {
        PhaseView::Showdown { region } => Some(region),
        _ => None,
    }
}

/// What to reconstruct, as the box's label says it (at most Discord's 45 characters).
fn label(region: Region) -> String {
    let s = region.to_string();
    let (rows, cols) = s.split_once(' ').unwrap_or((&s, ""));
    format!("Rows {rows}, columns {cols}: a row a line")
}

/// The box's starting text: every cell blank.
fn blanks(dims: Dims) -> String {
    vec![".".repeat(dims.cols as usize); dims.rows as usize].join("\n")
}

/// A reconstruction as typed in the box (or pasted in a code block).
pub fn read(text: &str, dims: Dims) -> Result<Reconstruction, String> {
    let text: String = text.chars().filter(|&c| c != '`').collect();
    Reconstruction::parse(&text, dims, true).map_err(|e| e.to_string())
}

/// Answers `/assembly showdown` without a grid with the box, or a private refusal
/// while the showdown is not open.
pub async fn open(
    ctx: Context<'_>,
    record: &MatchRecord,
    view: &AssemblyView,
) -> Result<(), Error> {
    let Some(region) = region_of(view) else {
        return reply(ctx, Post::private(NO_SHOWDOWN)).await;
    };
    let poise::Context::Application(app) = ctx else {
        return reply(
            ctx,
            Post::private("give the grid as text: rows split by ` / `"),
        )
        .await;
    };
    let dims = region.dims();
    let input =
        serenity::CreateInputText::new(serenity::InputTextStyle::Paragraph, label(region), FIELD)
            .value(blanks(dims))
            .required(true)
            .max_length(4000);
    let modal = serenity::CreateModal::new(
        ShowdownModal { game: record.id }.to_string(),
        "Showdown: O, X, + (a dot is a blank)",
    )
    .components(vec![serenity::CreateActionRow::InputText(input)]);
    crate::kit::open_modal(app, modal).await
}

/// The showdown box's handling, if `submit` is one.
pub fn showdown_box<'a>(
    ctx: &'a serenity::Context,
    bot: &'a Arc<Bot>,
    submit: &'a serenity::ModalInteraction,
) -> Option<crate::kit::Handling<'a>> {
    let modal: ShowdownModal = submit.data.custom_id.parse().ok()?;
    Some(Box::pin(async move {
        let text = crate::kit::modal_text(&submit.data, FIELD).unwrap_or_default();
        let asked = Asked {
            channel: submit.channel_id.get(),
            interaction: submit.id.get(),
        };
        let handed = submitted(bot, modal, submit.user.id.get(), &text, asked).await?;
        crate::kit::answer_modal(ctx, bot, submit, handed).await
    }))
}

/// A submitted box, played as `user`'s showdown.
pub async fn submitted(
    bot: &Arc<Bot>,
    modal: ShowdownModal,
    user: u64,
    text: &str,
    asked: Asked,
) -> Result<Handed, Error> {
    let view = bot.runtime.view(modal.game, &Viewer::Spectator).await?;
    let Some(v) = view_of(&view) else {
        return Ok(Handed::own(Post::private(
            "that match is not Pattern Assembly",
        )));
    };
    let Some(region) = region_of(v) else {
        return Ok(Handed::own(Post::private(NO_SHOWDOWN)));
    };
    let grid = match read(text, region.dims()) {
        Ok(g) => g,
        Err(e) => {
            // Nothing is lost: the refusal gives the text back to paste again.
            return Ok(Handed::own(Post::private(format!(
                "{e}\nwhat you sent:\n```\n{}\n```",
                text.replace('`', "")
            ))));
        }
    };
    let result = bot
        .act(
            modal.game,
            Actor::Player(PlayerId(user)),
            AnyAction::from(AssemblyMove::Showdown { grid }),
            None,
            asked,
        )
        .await;
    Ok(claimed(result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Symbol;

    #[test]
    fn the_box_id_round_trips_and_refuses_others() {
        let m = ShowdownModal { game: MatchId(42) };
        assert_eq!(m.to_string(), "assembly-showdown:42");
        assert_eq!(m.to_string().parse::<ShowdownModal>(), Ok(m));
        for bad in [
            "koan:observe:42:1",
            "assembly-showdown:",
            "assembly-showdown:x",
        ] {
            assert!(bad.parse::<ShowdownModal>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_box_starts_blank_in_the_regions_shape_and_reads_back() {
        let dims = Dims { rows: 3, cols: 4 };
        let start = blanks(dims);
        assert_eq!(start, "....\n....\n....");
        let blank = read(&start, dims).expect("the prefilled box is a valid answer");
        assert_eq!(blank.filled(), 0);
        // Typed over, with spaces and a code block around it.
        let typed = read("```\nO X + .\n. . . .\no x 0 -\n```", dims).expect("lenient");
        assert_eq!(typed.filled(), 6);
        assert_eq!(typed.cells[0], Some(Symbol::Circle));
        assert_eq!(typed.rows()[2], "OXO.");
    }

    #[test]
    fn a_bad_box_says_which_row_or_cell_is_wrong() {
        let dims = Dims { rows: 2, cols: 3 };
        let short = read("OXO\nOX", dims).unwrap_err();
        assert!(short.contains('B'), "{short}");
        let rows = read("OXO", dims).unwrap_err();
        assert!(rows.contains("has 2 rows"), "{rows}");
        let sym = read("OXO\nOQO", dims).unwrap_err();
        assert!(sym.contains("B2"), "{sym}");
    }

    #[test]
    fn the_label_names_the_region_within_discords_limit() {
        let plus = Region::all(Dims { rows: 26, cols: 20 });
        let l = label(plus);
        assert_eq!(l, "Rows A-Z, columns 1-20: a row a line");
        assert!(l.chars().count() <= 45);
    }
}
