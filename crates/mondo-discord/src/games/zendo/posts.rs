//! How the bot says a Zendo match: each batch of events (one action and what it
//! caused) as one post with the pictures of the structures it put on the table and
//! the buttons the next move needs; the opening; a viewer's status; the board. The
//! words are `narrate::zendo`'s (Discord flavour: mentions, slash commands); this adds
//! pictures, buttons and Discord timestamps for the clocks.
//!
//! Only what a spectator may hear reaches a channel: the narration never says what a
//! challenge answer was before the reveal.

use super::ids::{ButtonId, Press, match_button, press_button};
use crate::narrate::zendo::{
    Narrator, answered_text, duel_clock, guess_line, listed_guesses, outcome_text, practice_status,
    step_hint,
};
use crate::narrate::{Front, Names, clock_text};
use crate::post::{Button, Post, mark};
use crate::render::{self, BoardEntry, Mark};
use crate::rules::zendo::{
    Answer, DuelEvent, DuelView, GuessView, Origin, PhaseView, PracticeEvent, PracticeStep,
    PracticeView, StepView, TableEntry, ZendoEvent,
};
use crate::rules::{EventKind, PlayerId};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::say::{Clocks, mention};
use crate::store::MatchId;

/// Zendo's pictures of its table on a post: an entry with its verdict, or every entry
/// in one picture.
pub trait TablePictures {
    /// A picture of a table entry with its verdict.
    fn entry(&mut self, entry: &TableEntry) -> &mut Self;
    /// One picture of every structure on the table, numbered and marked.
    fn board(&mut self, table: &[TableEntry]) -> &mut Self;
}

impl TablePictures for Post {
    fn entry(&mut self, entry: &TableEntry) -> &mut Post {
        self.koan(&entry.koan, Some(entry.number), Some(mark(entry.obeys)))
    }

    fn board(&mut self, table: &[TableEntry]) -> &mut Post {
        let entries: Vec<BoardEntry> = table
            .iter()
            .map(|e| BoardEntry {
                koan: &e.koan,
                mark: Some(mark(e.obeys)),
                label: format!("#{}", e.number),
            })
            .collect();
        match render::board_png(&entries) {
            Ok(png) => self.files.push(("board.png".into(), png)),
            Err(e) => self.lines.push(format!("(no picture: {e})")),
        }
        self
    }
}

/// What the channel's narration remembers of a Zendo match.
pub struct Voice {
    narrator: Narrator,
}

impl Voice {
    /// The narration for a match's channel: players are mentions.
    pub fn new(view: &AnyView) -> Voice {
        let narrator = match view {
            AnyView::ZendoDuel(v) => Narrator::duel(Names::mentions(v.players.values()), v),
            AnyView::ZendoPractice(_) => Narrator::new(Names::solo(Front::Discord)),
            _ => Narrator::new(Names::solo(Front::Discord)),
        };
        Voice { narrator }
    }
}

/// The [`crate::kit::GameBot`] items the Duel and practice share: their posts
/// are this file's, over the whole view.
macro_rules! family_posts {
    ($view:ty) => {
        type View = $view;
        type Voice = $crate::games::zendo::posts::Voice;

        fn voice(view: &AnyView, _: &$view) -> Self::Voice {
            posts::Voice::new(view)
        }

        fn batch(
            voice: &mut Self::Voice,
            events: &[AnyEvent],
            view: &AnyView,
            _: &$view,
            said: Said<'_>,
        ) -> Post {
            let place = posts::Place {
                game: said.game,
                no_dm: said.no_dm,
            };
            posts::batch(voice, events, view, said.clocks, place)
        }

        fn opening(game: MatchId, view: &AnyView, _: &$view, clocks: Clocks) -> Post {
            posts::opening(game, view, clocks)
        }

        fn status(game: MatchId, view: &AnyView, _: &$view, clocks: Clocks) -> Post {
            posts::status(game, view, clocks)
        }

        fn board(game: MatchId, view: &AnyView, _: &$view) -> Post {
            posts::board(game, view)
        }
    };
}

pub(super) use family_posts;

/// Where a batch is said, which decides the buttons it carries.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    pub game: MatchId,
    /// Players the bot cannot DM (they answer challenges in the channel).
    pub no_dm: &'a [PlayerId],
}

/// The Zendo part of an event, whichever game it is from.
fn zendo_part(e: &AnyEvent) -> Option<&ZendoEvent> {
    match e {
        AnyEvent::ZendoDuel(e) => match &e.kind {
            EventKind::Game(DuelEvent::Zendo(z)) => Some(z),
            _ => None,
        },
        AnyEvent::ZendoPractice(e) => match &e.kind {
            EventKind::Game(PracticeEvent::Zendo(z)) => Some(z),
            _ => None,
        },
        _ => None,
    }
}

/// One batch of events as one post: their words, the pictures of what they put on the
/// table, the clock that now runs, and the buttons for the next move.
pub fn batch(
    voice: &mut Voice,
    events: &[AnyEvent],
    view: &AnyView,
    clocks: Clocks,
    place: Place<'_>,
) -> Post {
    let mut post = Post::default();
    let (table, version) = match view {
        AnyView::ZendoDuel(v) => (&v.table, v.version),
        AnyView::ZendoPractice(v) => (&v.table, v.version),
        _ => return post,
    };
    let said = match view {
        AnyView::ZendoDuel(v) => {
            let events: Vec<crate::rules::zendo::duel::Event> = events_of(events);
            voice.narrator.duel_batch(&events, v)
        }
        AnyView::ZendoPractice(v) => {
            let events: Vec<crate::rules::zendo::practice::Event> = events_of(events);
            voice.narrator.practice_batch(&events, v)
        }
        _ => return post,
    };
    let mut read_guess = false;
    let mut challenged = false;
    for (e, line) in events.iter().zip(&said.lines) {
        post.line(line.text.clone());
        if let AnyEvent::ZendoDuel(e) = e {
            match &e.kind {
                EventKind::Game(DuelEvent::ChallengeOpened { koan, .. }) => {
                    challenged = true;
                    post.koan(koan, None, None);
                }
                EventKind::Game(DuelEvent::ChallengeRevealed { .. }) => {
                    if let Some(entry) = table
                        .iter()
                        .rev()
                        .find(|t| matches!(t.origin, Origin::Challenged { .. }))
                    {
                        post.entry(entry);
                    }
                }
                _ => {}
            }
        }
        match zendo_part(e) {
            Some(ZendoEvent::Observed { koan, .. }) => {
                if let Some(entry) = table.iter().find(|t| t.koan == *koan) {
                    post.entry(entry);
                }
            }
            Some(ZendoEvent::Refuted {
                counterexample,
                on_table,
                ..
            }) => {
                let number = on_table.or_else(|| {
                    table
                        .iter()
                        .find(|t| t.koan == counterexample.koan)
                        .map(|t| t.number)
                });
                post.koan(
                    &counterexample.koan,
                    number,
                    Some(Mark::of(counterexample.hidden)),
                );
            }
            Some(ZendoEvent::GuessRead { .. }) => read_guess = true,
            Some(ZendoEvent::MatchEnded { .. }) => {
                post.board(table);
            }
            _ => {}
        }
    }
    for line in &said.after {
        post.line(line.text.clone());
    }
    let button = |press, label: &str| match_button(place.game, version, press, label);
    let pending = match view {
        AnyView::ZendoDuel(v) => matches!(
            v.phase,
            PhaseView::Turn {
                step: StepView::Pending { .. },
                ..
            }
        ),
        AnyView::ZendoPractice(v) => matches!(v.step, PracticeStep::Pending { .. }),
        _ => false,
    };
    if read_guess && pending {
        post.buttons(vec![
            button(Press::Confirm, "Make it official"),
            button(Press::TakeBack, "Take it back"),
        ]);
    }
    if let AnyView::ZendoDuel(v) = view {
        if challenged {
            answer_here(
                &mut post,
                place.no_dm,
                "answer",
                button(Press::AskHere, "Answer privately"),
            );
        }
        if v.outcome.is_none() && !events.is_empty() {
            post.line(clock_line(v, clocks));
        }
    }
    post
}

/// Under a question asked by DM: who could not be DMed, and the *Answer privately*
/// button, always there for everyone (a DM that never arrived, Discord down or the
/// bot restarted in between, must not cost anyone their `answers`).
pub(super) fn answer_here(post: &mut Post, no_dm: &[PlayerId], answers: &str, button: Button) {
    if !no_dm.is_empty() {
        let who: Vec<String> = no_dm.iter().map(|p| mention(*p)).collect();
        post.line(format!(
            "{}: I could not DM you, so answer with the button below (only you see your \
             {answers})",
            who.join(", ")
        ));
    }
    post.buttons(vec![button]);
}

/// The clock that matters now, as a countdown.
fn clock_line(v: &DuelView, clocks: Clocks) -> String {
    let names = Names::mentions(v.players.values());
    if v.paused {
        return duel_clock(v, &names, |c| clock_text(c.remaining(clocks.game)));
    }
    duel_clock(v, &names, |c| match c.expires_at() {
        Some(_) => clocks.clock(c),
        None => "when the match resumes".into(),
    })
}

/// The opening post of a match: the initial structures and what comes first.
pub fn opening(game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
    match view {
        AnyView::ZendoDuel(v) => duel_opening(game, v, clocks),
        AnyView::ZendoPractice(v) => practice_opening(game, v),
        _ => Post::default(),
    }
}

/// The opening post of a duel: the two initial structures, and the advantage player's
/// choice of who starts.
fn duel_opening(game: MatchId, v: &DuelView, clocks: Clocks) -> Post {
    let mut post = Post::default();
    let names = Names::mentions(v.players.values());
    post.line(format!(
        "**Zendo duel #{game}**: {} vs {}. The umpire has hidden a pattern; #1 obeys it, \
         #2 does not.",
        names.name(crate::rules::Seat::FIRST),
        names.name(crate::rules::Seat::SECOND)
    ));
    for e in &v.table {
        post.entry(e);
    }
    post.line(format!(
        "{} Turns are {} each, challenges are answered within {} s, and each official \
         guess adds {} s. Tickets: {}.",
        choose_who_starts(&names.name(v.advantage), &v.clock, clocks),
        clock_text(v.timing.turn_ms),
        v.timing.challenge_ms / 1000,
        v.timing.guess_bonus_ms / 1000,
        names.each(v.tickets.values())
    ));
    post.buttons(starter_buttons(
        game,
        v.version,
        v.players.values(),
        v.players[v.advantage],
    ));
    post
}

/// The advantage player's invitation (a duel's, a Triple's), with the countdown of
/// `clock`, the turn clock that runs while they choose.
pub fn choose_who_starts(adv: &str, clock: &crate::rules::Clock, clocks: Clocks) -> String {
    let by = clock
        .expires_at()
        .map_or(String::new(), |at| format!(" {}", clocks.countdown(at)));
    format!(
        "{adv}, you have the advantage: choose who starts{by} (or decline with `/zendo \
         resign`; no choice in time declines too)."
    )
}

/// The advantage player's two buttons (a duel's, a Triple's): "I start" and "My
/// opponent starts".
pub fn starter_buttons(
    game: MatchId,
    version: u64,
    players: &[PlayerId],
    advantage: PlayerId,
) -> Vec<Button> {
    players
        .iter()
        .map(|p| {
            press_button(
                ButtonId {
                    game,
                    version,
                    press: Press::Start(*p),
                },
                if *p == advantage {
                    "I start".to_string()
                } else {
                    "My opponent starts".to_string()
                },
            )
        })
        .collect()
}

/// The opening post of solo practice.
fn practice_opening(game: MatchId, v: &PracticeView) -> Post {
    let mut post = Post::default();
    post.line(format!(
        "**Zendo practice #{game}** for {}: the umpire has hidden a pattern ({} set); #1 \
         obeys it, #2 does not. Build structures with `/koan`, guess with `/guess`; your \
         score is the structures built plus the guesses made official (lower is better).",
        mention(v.player),
        v.settings.set
    ));
    for e in &v.table {
        post.entry(e);
    }
    post
}

/// The answer buttons of a challenge (in a DM, or ephemeral in the channel).
pub fn answer_post(game: MatchId, view: &DuelView, clocks: Clocks) -> Option<Post> {
    let PhaseView::Turn {
        seat,
        step: StepView::Challenge { koan, clock, .. },
    } = &view.phase
    else {
        return None;
    };
    let mut post = Post::default();
    post.line(format!(
        "Zendo duel #{game}: {} challenges this structure. Does it obey the hidden pattern? \
         Your answer stays private until both are in or time is up{}.",
        mention(view.players[*seat]),
        clock
            .expires_at()
            .map_or(String::new(), |at| format!(" ({})", clocks.countdown(at)))
    ));
    post.koan(koan, None, None);
    post.buttons(answer_buttons(game, view.version));
    Some(post)
}

/// The channel's button for a player the bot could not DM: it shows their answer
/// buttons privately.
pub fn ask_here(game: MatchId, version: u64) -> Button {
    let id = ButtonId {
        game,
        version,
        press: Press::AskHere,
    };
    press_button(id, "Answer privately")
}

/// The three private answer buttons (a duel's challenge, a Classic mondo).
pub fn answer_buttons(game: MatchId, version: u64) -> Vec<Button> {
    let button = |answer, label: &str| match_button(game, version, Press::Answer(answer), label);
    vec![
        button(Answer::Obeys, "Obeys"),
        button(Answer::Not, "Does not"),
        button(Answer::Pass, "No answer"),
    ]
}

/// What a viewer may know of a match, now.
pub fn status(game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
    match view {
        AnyView::ZendoDuel(v) => duel_status(game, v, clocks),
        AnyView::ZendoPractice(v) => {
            let line = practice_status(game.0, v, Front::Discord);
            Post::text(format!(
                "**Zendo practice #{game}** for {}: {}",
                mention(v.player),
                line.text
                    .split_once(": ")
                    .map_or(line.text.as_str(), |(_, rest)| rest)
            ))
        }
        _ => Post::default(),
    }
}

fn duel_status(game: MatchId, v: &DuelView, clocks: Clocks) -> Post {
    let names = Names::mentions(v.players.values());
    let mut post = Post::default();
    post.line(format!(
        "**Zendo duel #{game}**: {} vs {}, turn {}",
        names.name(crate::rules::Seat::FIRST),
        names.name(crate::rules::Seat::SECOND),
        v.turn
    ));
    let shown = |g| GuessView::shown(&v.guesses, g);
    let step = match &v.phase {
        PhaseView::ChoosingStarter => format!("{} chooses who starts", names.name(v.advantage)),
        PhaseView::Over => "the match is over".into(),
        PhaseView::Turn { seat, step } => {
            let words = match step {
                StepView::Challenge {
                    answered, yours, ..
                } => {
                    let mine = yours.map_or(String::new(), |a| format!("; your answer: {a}"));
                    format!(
                        "a challenge is being answered ({}){mine}",
                        answered_text(&names, answered.values())
                    )
                }
                StepView::Pending { guess } => step_hint(
                    Front::Discord,
                    &StepView::Pending {
                        guess: shown(*guess),
                    },
                ),
                StepView::Verdict { guess } => step_hint(
                    Front::Discord,
                    &StepView::Verdict {
                        guess: shown(*guess),
                    },
                ),
                other => step_hint(Front::Discord, other),
            };
            format!("{} to play: {words}", names.name(*seat))
        }
    };
    post.line(step);
    post.line(format!("tickets: {}", names.each(v.tickets.values())));
    if v.outcome.is_none() {
        post.line(clock_line(v, clocks));
    }
    post.line(format!(
        "{} on the table, {} (`/zendo board` shows them)",
        crate::narrate::count(v.table.len() as u64, "structure", "structures"),
        crate::narrate::count(
            listed_guesses(&v.guesses).count() as u64,
            "guess",
            "guesses"
        )
    ));
    if let (Some(o), Some(pattern)) = (&v.outcome, &v.revealed) {
        post.line(format!(
            "{}; the pattern was: {pattern}",
            outcome_text(o, &names, &v.guesses)
        ));
    }
    post
}

/// Every structure on the table in one picture, with the guesses so far.
pub fn board(game: MatchId, view: &AnyView) -> Post {
    let (table, guesses): (&[TableEntry], &[GuessView]) = match view {
        AnyView::ZendoDuel(v) => (&v.table, &v.guesses),
        AnyView::ZendoPractice(v) => (&v.table, &v.guesses),
        AnyView::ZendoClassic(v) => (&v.table, &v.guesses),
        _ => (&[], &[]),
    };
    let mut post = Post::text(format!(
        "**Match #{game}**: {} (white stone: obeys, black: does not)",
        crate::narrate::count(table.len() as u64, "structure", "structures")
    ));
    post.board(table);
    for g in listed_guesses(guesses) {
        post.line(guess_line(g));
    }
    post
}
