//! Pattern Assembly on Discord: its commands and posts. The words are
//! `narrate::assembly`'s; this adds the grid's picture.

pub mod commands;
mod host;
mod reveal;
pub mod showdown;
mod view;
pub use commands::assembly;
pub use host::live_in;
pub use view::view_of;

use crate::kit::{Bot, GameBot, Said, Upkeep};
use crate::narrate::{self, Names, assembly};
use crate::post::Post;
use crate::rules::Event;
use crate::rules::assembly::{Ask, AssemblyEvent, AssemblyView};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::say::Clocks;
use crate::store::MatchId;
use poise::serenity_prelude as serenity;

/// What the channel's narration remembers of an Assembly match.
pub struct Voice {
    names: Names,
}

impl Voice {
    pub fn new(view: &AssemblyView) -> Voice {
        let names = if view.players.len() > 1 {
            Names::mentions(&view.players)
        } else {
            Names::solo(narrate::Front::Discord)
        };
        Voice { names }
    }
}

/// A batch of events as one post.
pub fn batch(voice: &mut Voice, events: &[AnyEvent], view: &AssemblyView) -> Post {
    let mut post = Post::default();
    let all: Vec<Event<AssemblyEvent>> = events_of(events);
    for e in all
        .iter()
        .filter_map(|e| assembly::shared(&voice.names, &e.kind))
    {
        post.line(e.text);
    }
    for e in view::own(events) {
        // The grid itself goes out as a picture that is deleted when it is hidden
        // (`reveal.rs`); a text copy here would stay in the channel.
        if let AssemblyEvent::Revealed { ms, .. } = e {
            post.line(format!(
                "The grid is shown for {} s: memorise it.",
                ms.div_ceil(1000)
            ));
            continue;
        }
        if let AssemblyEvent::RoundStarted { number, asks } = &e {
            round(&mut post, *number, asks, view.plus);
            continue;
        }
        for line in assembly::event(&voice.names, &e, view.plus) {
            post.line(line.text);
        }
    }
    post
}

/// The attachment name of round `number`'s shapes.
pub fn round_file(number: u8) -> String {
    format!("assembly-round-{number}.png")
}

/// A round's ask: its shapes as one picture (numbered in Plus), its contents as
/// symbols and in words.
fn round(post: &mut Post, number: u8, asks: &[Ask], plus: bool) {
    for (i, a) in asks.iter().enumerate() {
        let which = if plus {
            format!(", target {}", i + 1)
        } else {
            String::new()
        };
        post.line(format!(
            "**Round {number}**{which} ({} {}): find `{}` ({}) in {} (any rotation or \
             reflection).",
            a.points,
            if a.points == 1 { "point" } else { "points" },
            a.contents,
            a.contents.words(),
            if asks.len() > 1 {
                format!("shape {} pictured", i + 1)
            } else {
                "the shape pictured".to_string()
            }
        ));
    }
    let shapes: Vec<Vec<String>> = asks.iter().map(|a| a.shape.rows()).collect();
    post.files
        .push((round_file(number), crate::render::shapes_png(&shapes)));
}

/// The opening post of a match.
pub fn opening(game: MatchId, view: &AssemblyView, clocks: Clocks) -> Post {
    let mut post = Post::text(format!(
        "**Pattern Assembly{} #{game}**: {} x {} grid, {} rounds.",
        if view.plus { " Plus" } else { "" },
        view.dims.rows,
        view.dims.cols,
        view.rounds
    ));
    post.line(status(game, view, clocks).lines.concat());
    post
}

/// A viewer's status of a match.
/// Its clock as the other games' are on Discord: what is left, and when it ends as a
/// Discord timestamp (each reader's own "in 2 minutes", which does not go stale).
pub fn status(game: MatchId, view: &AssemblyView, clocks: Clocks) -> Post {
    let voice = Voice::new(view);
    let line = assembly::status_with(&voice.names, view, clocks.game, |at| {
        let left = narrate::clock_text(at.saturating_sub(clocks.game));
        match view.paused {
            true => format!("{left} left"),
            false => format!("{left} left, ends {}", clocks.countdown(at)),
        }
    });
    Post::text(format!("**Pattern Assembly #{game}**: {}", line.text))
}

/// The grid, only while it is shown.
pub fn board(game: MatchId, view: &AssemblyView) -> Post {
    match &view.grid {
        // Only the asker sees it: a public copy would outlive the reveal.
        Some(rows) => Post::private(format!(
            "**Pattern Assembly #{game}**: {}",
            rows.join(" / ")
        )),
        None => Post::private(
            "the grid is hidden: it is shown before round 1 and after rounds 5, 10 and 15",
        ),
    }
}

/// Pattern Assembly's Discord side, as the bot's dispatch sees it.
/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../../docs/games/assembly.md");

pub struct Front;

/// No buttons of its own; the showdown's box.
impl crate::kit::GameControls for Front {
    fn on_modal(at: crate::kit::Submitted<'_>) -> Option<crate::kit::Handling<'_>> {
        showdown::showdown_box(at.ctx, at.bot, at.submit)
    }

    fn tournament_ways() -> &'static [(&'static str, &'static str)] {
        &[
            ("Pattern Assembly", ""),
            ("Pattern Assembly Plus", "--plus"),
        ]
    }

    /// Pattern Assembly, or Plus with `--plus`.
    fn tournament_setup<'a>(
        bot: &'a crate::kit::Data,
        guild: Option<u64>,
        players: Vec<crate::rules::PlayerId>,
        options: &'a str,
    ) -> Option<crate::kit::SetupFuture<'a>> {
        Some(Box::pin(async move {
            let plus = match options.trim() {
                "" => false,
                "--plus" => true,
                other => {
                    return Err(format!(
                        "unknown Pattern Assembly option `{other}`: a tournament takes none, or \
                         `--plus`"
                    )
                    .into());
                }
            };
            commands::tournament_setup(bot, guild, players, plus).await
        }))
    }
}

impl GameBot for Front {
    type View = AssemblyView;
    type Voice = Voice;

    fn commands() -> Vec<poise::Command<crate::kit::Data, crate::kit::Error>> {
        vec![assembly()]
    }

    fn voice(_: &AnyView, v: &AssemblyView) -> Voice {
        Voice::new(v)
    }

    fn batch(
        voice: &mut Voice,
        events: &[AnyEvent],
        _: &AnyView,
        v: &AssemblyView,
        _: Said<'_>,
    ) -> Post {
        batch(voice, events, v)
    }

    fn opening(game: MatchId, _: &AnyView, v: &AssemblyView, clocks: Clocks) -> Post {
        opening(game, v, clocks)
    }

    fn status(game: MatchId, _: &AnyView, v: &AssemblyView, clocks: Clocks) -> Post {
        status(game, v, clocks)
    }

    fn board(game: MatchId, _: &AnyView, v: &AssemblyView) -> Post {
        board(game, v)
    }

    /// The AI's seat (`/assembly duel opponent:@Mondo`) plays, from the start or after
    /// a restart.
    fn on_open(bot: &std::sync::Arc<Bot>, game: MatchId) {
        let runtime = bot.runtime.clone();
        tokio::spawn(async move { crate::play::ai::seat_ai_ids(&runtime, game).await });
    }

    /// The picture of the grid, kept up to date (a reveal that ended or began while
    /// the bot was away, when the desk opens).
    fn after<'a>(
        bot: &'a Bot,
        channel: serenity::ChannelId,
        game: MatchId,
        v: &'a AssemblyView,
        events: Option<&'a [AnyEvent]>,
    ) -> Upkeep<'a> {
        Box::pin(bot.assembly_grid(channel, game, v, events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Contents, Shape};

    fn ask(shape: &str, contents: &str, points: i32) -> Ask {
        Ask {
            shape: shape.parse::<Shape>().expect("a shape"),
            contents: contents.parse::<Contents>().expect("contents"),
            points,
        }
    }

    /// The status's clock is a Discord countdown, as in the other games' statuses,
    /// and the status reads as a card: its title, then its text.
    #[test]
    fn the_status_clock_is_a_discord_countdown() {
        let view = AssemblyView {
            plus: false,
            dims: crate::grid::Dims::CLASSIC,
            rounds: 20,
            players: vec![crate::rules::PlayerId(1), crate::rules::PlayerId(2)],
            you: None,
            phase: crate::rules::assembly::PhaseView::Round { number: 3 },
            paused: false,
            grid: None,
            targets: Vec::new(),
            scores: [4, 1].into(),
            ends_at: Some(100_000),
            waiting: Vec::new(),
            your_answer: None,
            showdown_in: Vec::new(),
            showdown: None,
            version: 7,
        };
        let clocks = Clocks {
            game: 40_000,
            wall_ms: 1_700_000_000_000,
        };
        let post = status(MatchId(9), &view, clocks).as_card();
        let card = &post.cards[0];
        assert_eq!(card.title, "Pattern Assembly #9");
        assert!(
            card.description
                .contains("round 3 of 20 (1:00 left, ends <t:1700000060:R>)"),
            "{card:?}"
        );
        // The terminal keeps its own words: no Discord markup there.
        let names = Voice::new(&view).names;
        let terminal = assembly::status(&names, &view, 40_000).text;
        assert!(terminal.contains("round 3 of 20 (1:00 left)"), "{terminal}");
    }

    #[test]
    fn a_round_posts_its_shape_as_a_picture_and_its_contents_as_symbols() {
        let mut post = Post::default();
        round(&mut post, 3, &[ask("##. / .##", "x+oo", 4)], false);
        let text = post.lines.join("\n");
        assert!(text.contains("**Round 3** (4 points)"), "{text}");
        assert!(
            text.contains("`O O X +` (2 circles, 1 cross, 1 plus)"),
            "{text}"
        );
        assert!(
            !text.contains('#'),
            "the shape is the picture, not text: {text}"
        );
        assert_eq!(post.files.len(), 1);
        assert_eq!(post.files[0].0, "assembly-round-3.png");
        assert_eq!(&post.files[0].1[1..4], b"PNG");
    }

    #[test]
    fn a_plus_round_numbers_its_targets_in_one_picture() {
        let mut post = Post::default();
        let asks = [ask("###", "OXX", 1), ask("## / #.", "+++", 1)];
        round(&mut post, 1, &asks, true);
        let text = post.lines.join("\n");
        assert!(text.contains("target 1 (1 point)") && text.contains("shape 2 pictured"));
        assert_eq!(post.files.len(), 1, "one picture for the round");
        assert_ne!(
            post.files[0].1,
            crate::render::shapes_png(&[asks[0].shape.rows()]),
            "both shapes are drawn"
        );
    }
}
