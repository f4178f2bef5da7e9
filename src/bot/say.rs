//! How the bot says a match on Discord: each batch of events (one action and what it
//! caused) as one post with the pictures of the structures it put on the table and
//! the buttons the next move needs, and a viewer's status. The words of each event
//! are the shared narration's ([`Narrator`], Discord flavour); this adds pictures,
//! buttons and Discord timestamps for the clocks.
//!
//! Only spectator-visible events reach here for a channel, and the narration never
//! says what a challenge answer was before the reveal.

use super::ids::{ButtonId, Press};
use super::post::{Button, Post, mark};
use crate::play::{Front, Narrator};
use crate::rules::zendo::{
    Answer, DuelView, Event, EventKind, Origin, Outcome, PhaseView, PracticeStep, PracticeView,
    Seat, StepView,
};
use crate::rules::{Clock, Millis, PlayerId};
use crate::runtime::ZendoView;
use crate::store::MatchId;
use std::collections::HashMap;

/// Reads game-clock times as wall-clock times, for Discord's `<t:UNIX:R>` countdowns.
/// The game clock stops while no process runs the matches, so a deadline is placed
/// relative to now on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// The game clock now.
    pub game: Millis,
    /// The wall clock now, milliseconds since the Unix epoch.
    pub wall_ms: u64,
}

impl Clocks {
    /// `<t:UNIX:R>` for a game-clock moment (Discord shows "in 2 minutes").
    pub fn countdown(&self, at: Millis) -> String {
        let wall = self.wall_ms + at.saturating_sub(self.game);
        format!("<t:{}:R>", wall.div_ceil(1000))
    }

    /// "2:31 left, ends in 2 minutes" or "2:31 left (stopped)".
    pub fn clock(&self, clock: &Clock) -> String {
        let left = clock_text(clock.remaining(self.game));
        match clock.expires_at() {
            Some(at) => format!("{left} left, ends {}", self.countdown(at)),
            None => format!("{left} left (stopped)"),
        }
    }
}

/// m:ss.
pub fn clock_text(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

pub fn mention(id: PlayerId) -> String {
    format!("<@{}>", id.0)
}

/// The narration of a match for its channel: players are mentions.
pub fn narrator(view: &ZendoView) -> Narrator {
    let mut n = match view {
        ZendoView::Duel(v) => {
            Narrator::duel(v.players.map(mention), HashMap::new()).for_front(Front::Discord)
        }
        ZendoView::Practice(_) => Narrator::practice().for_front(Front::Discord),
    };
    if let ZendoView::Duel(v) = view
        && let PhaseView::Turn {
            step: StepView::Challenge { koan, .. },
            ..
        } = &v.phase
    {
        n.set_challenged(Some(koan.clone()));
    }
    n
}

/// Where a batch is said, which decides the buttons it carries.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    pub game: MatchId,
    /// Players the bot cannot DM (they answer challenges in the channel).
    pub no_dm: &'a [PlayerId],
}

/// One batch of events as one post: their words, the pictures of what they put on the
/// table, the clock that now runs, and the buttons for the next move.
pub fn batch(
    narrator: &mut Narrator,
    events: &[Event],
    view: &ZendoView,
    clocks: Clocks,
    place: Place<'_>,
) -> Post {
    let mut post = Post::default();
    let (table, version) = match view {
        ZendoView::Duel(v) => (&v.table, v.version),
        ZendoView::Practice(v) => (&v.table, v.version),
    };
    let score = match view {
        ZendoView::Practice(v) => Some(v.score.total()),
        ZendoView::Duel(_) => None,
    };
    let mut read_guess = false;
    let mut challenged = false;
    for e in events {
        let (_, text) = narrator.say(e, score);
        post.line(text);
        match &e.kind {
            EventKind::Observed { koan, .. } => {
                if let Some(entry) = table.iter().find(|t| t.koan == *koan) {
                    post.entry(entry);
                }
            }
            EventKind::ChallengeOpened { koan, .. } => {
                challenged = true;
                post.koan(koan, None, None);
            }
            EventKind::ChallengeRevealed { .. } => {
                if let Some(entry) = table
                    .iter()
                    .rev()
                    .find(|t| matches!(t.origin, Origin::Challenged { .. }))
                {
                    post.entry(entry);
                }
            }
            EventKind::Refuted {
                counterexample,
                on_table,
                ..
            } => {
                let number = on_table.or_else(|| {
                    table
                        .iter()
                        .find(|t| t.koan == counterexample.koan)
                        .map(|t| t.number)
                });
                post.koan(
                    &counterexample.koan,
                    number,
                    Some(mark(counterexample.hidden)),
                );
            }
            EventKind::GuessRead { .. } => read_guess = true,
            EventKind::MatchEnded { .. } => {
                post.board(table);
            }
            _ => {}
        }
    }
    let button = |press, label: &str| {
        Button::new(
            ButtonId {
                game: place.game,
                version,
                press,
            },
            label,
        )
    };
    match view {
        ZendoView::Duel(v) => {
            if read_guess
                && matches!(
                    v.phase,
                    PhaseView::Turn {
                        step: StepView::Pending { .. },
                        ..
                    }
                )
            {
                post.buttons(vec![
                    button(Press::Confirm, "Make it official"),
                    button(Press::TakeBack, "Take it back"),
                ]);
            }
            if challenged {
                if !place.no_dm.is_empty() {
                    let who: Vec<String> = place.no_dm.iter().map(|p| mention(*p)).collect();
                    post.line(format!(
                        "{}: I could not DM you, so answer with the button below (only you \
                         see your answer)",
                        who.join(", ")
                    ));
                }
                // Always there, for both players: a DM that never arrived (Discord down,
                // the bot restarted in between) must not cost anyone their answer.
                post.buttons(vec![button(Press::AskHere, "Answer privately")]);
            }
            if v.outcome.is_none() && !events.is_empty() {
                post.line(duel_clock_line(v, clocks));
            }
        }
        ZendoView::Practice(v) => {
            if read_guess && matches!(v.step, PracticeStep::Pending { .. }) {
                post.buttons(vec![
                    button(Press::Confirm, "Make it official"),
                    button(Press::TakeBack, "Take it back"),
                ]);
            }
        }
    }
    post
}

/// The clock that matters now, as a countdown.
fn duel_clock_line(v: &DuelView, clocks: Clocks) -> String {
    let name = |s: Seat| mention(v.players[s.index()]);
    if v.paused {
        return format!(
            "⏸ paused by a host; turn clock {}",
            clock_text(v.clock.remaining(clocks.game))
        );
    }
    match &v.phase {
        PhaseView::ChoosingStarter => format!(
            "{} has the advantage and chooses who starts",
            name(v.advantage)
        ),
        PhaseView::Turn {
            step: StepView::Challenge { clock, .. },
            ..
        } => match clock.expires_at() {
            Some(at) => format!("⏱ answers are due {}", clocks.countdown(at)),
            None => "⏱ answers are due when the match resumes".into(),
        },
        PhaseView::Turn { seat, .. } => {
            format!("⏱ {}'s turn: {}", name(*seat), clocks.clock(&v.clock))
        }
        PhaseView::Over => "the match is over".into(),
    }
}

/// The opening post of a duel: the two initial structures, and the advantage player's
/// choice of who starts.
pub fn duel_opening(game: MatchId, v: &DuelView, clocks: Clocks) -> Post {
    let mut post = Post::default();
    let [a, b] = v.players.map(mention);
    post.line(format!(
        "**Zendo duel #{game}**: {a} vs {b}. The umpire has hidden a pattern; #1 obeys it, \
         #2 does not."
    ));
    for e in &v.table {
        post.entry(e);
    }
    let adv = mention(v.players[v.advantage.index()]);
    let by = v
        .clock
        .expires_at()
        .map_or(String::new(), |at| format!(" {}", clocks.countdown(at)));
    post.line(format!(
        "{adv}, you have the advantage: choose who starts{by} (or decline with `/zendo \
         resign`; no choice in time declines too). Turns are {} each, challenges are \
         answered within {} s, and each official guess adds {} s.",
        clock_text(v.timing.turn_ms),
        v.timing.challenge_ms / 1000,
        v.timing.guess_bonus_ms / 1000
    ));
    post.buttons(
        v.players
            .iter()
            .map(|p| {
                Button::new(
                    ButtonId {
                        game,
                        version: v.version,
                        press: Press::Start(*p),
                    },
                    if *p == v.players[v.advantage.index()] {
                        "I start".to_string()
                    } else {
                        "My opponent starts".to_string()
                    },
                )
            })
            .collect(),
    );
    post
}

/// The opening post of solo practice.
pub fn practice_opening(game: MatchId, v: &PracticeView) -> Post {
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
        mention(view.players[seat.index()]),
        clock
            .expires_at()
            .map_or(String::new(), |at| format!(" ({})", clocks.countdown(at)))
    ));
    post.koan(koan, None, None);
    let button = |answer, label: &str| {
        Button::new(
            ButtonId {
                game,
                version: view.version,
                press: Press::Answer(answer),
            },
            label,
        )
    };
    post.buttons(vec![
        button(Answer::Obeys, "Obeys"),
        button(Answer::Not, "Does not"),
        button(Answer::Pass, "No answer"),
    ]);
    Some(post)
}

/// What a viewer may know of a match, now.
pub fn status(game: MatchId, view: &ZendoView, clocks: Clocks) -> Post {
    match view {
        ZendoView::Duel(v) => duel_status(game, v, clocks),
        ZendoView::Practice(v) => practice_status(game, v),
    }
}

fn duel_status(game: MatchId, v: &DuelView, clocks: Clocks) -> Post {
    let name = |s: Seat| mention(v.players[s.index()]);
    let mut post = Post::default();
    post.line(format!(
        "**Zendo duel #{game}**: {} vs {}, turn {}",
        name(Seat::First),
        name(Seat::Second),
        v.turn
    ));
    let step = match &v.phase {
        PhaseView::ChoosingStarter => format!("{} chooses who starts", name(v.advantage)),
        PhaseView::Over => "the match is over".into(),
        PhaseView::Turn { seat, step } => format!(
            "{} to play: {}",
            name(*seat),
            match step {
                StepView::Build => "step 1, build with `/koan` or `/pass`".to_string(),
                StepView::Challenge {
                    answered, yours, ..
                } => {
                    let who: Vec<String> = Seat::BOTH
                        .iter()
                        .map(|s| {
                            format!(
                                "{} {}",
                                name(*s),
                                if answered[s.index()] {
                                    "has answered"
                                } else {
                                    "has not answered"
                                }
                            )
                        })
                        .collect();
                    let mine = yours.map_or(String::new(), |a| format!("; your answer: {a}"));
                    format!("a challenge is being answered ({}){mine}", who.join(", "))
                }
                StepView::Guess => "step 2, `/guess` or `/endturn`".into(),
                StepView::Pending { guess } => {
                    format!("guess #{guess} waits to be made official or taken back")
                }
                StepView::Verdict { guess } => format!("the umpire is judging guess #{guess}"),
            }
        ),
    };
    post.line(step);
    post.line(format!(
        "tickets: {} {}, {} {}",
        name(Seat::First),
        v.tickets[0],
        name(Seat::Second),
        v.tickets[1]
    ));
    if v.outcome.is_none() {
        post.line(duel_clock_line(v, clocks));
    }
    post.line(format!(
        "{} structures on the table, {} guesses (`/zendo board` shows them)",
        v.table.len(),
        v.guesses.len()
    ));
    if let Some(pattern) = &v.revealed {
        post.line(format!("{}; the pattern was: {pattern}", outcome_text(v)));
    }
    post
}

fn outcome_text(v: &DuelView) -> String {
    match v.outcome {
        Some(Outcome::Solved { by, guess }) => {
            format!("{} won with guess #{guess}", mention(v.players[by.index()]))
        }
        Some(Outcome::Resigned { by }) => format!(
            "{} resigned, {} won",
            mention(v.players[by.index()]),
            mention(v.players[by.other().index()])
        ),
        Some(Outcome::Ended { by }) => format!("{} ended it with no winner", mention(by)),
        Some(Outcome::Abandoned) => format!(
            "nobody played for {} turns in a row: abandoned, no winner",
            crate::rules::zendo::duel::IDLE_TURNS
        ),
        Some(Outcome::Declined { by, time_up }) => {
            let who = mention(v.players[by.index()]);
            if time_up {
                format!("{who} did not choose who starts in time: declined, no winner")
            } else {
                format!("{who} left before the duel started: no winner")
            }
        }
        None => "it goes on".into(),
    }
}

fn practice_status(game: MatchId, v: &PracticeView) -> Post {
    let step = match v.step {
        PracticeStep::Play => "build with `/koan` or guess with `/guess`".to_string(),
        PracticeStep::Pending { guess } => {
            format!("guess #{guess} waits to be made official or taken back")
        }
        PracticeStep::Verdict { guess } => format!("the umpire is judging guess #{guess}"),
        PracticeStep::Over => "the game is over".into(),
    };
    let mut post = Post::text(format!(
        "**Zendo practice #{game}** for {}: {step}; {} structures built, {} guesses judged \
         (score so far {})",
        mention(v.player),
        v.score.koans,
        v.score.guesses,
        v.score.total()
    ));
    if let Some(pattern) = &v.revealed {
        post.line(format!("the pattern was: {pattern}"));
    }
    post
}

/// Every structure on the table in one picture, with the guesses so far.
pub fn board(game: MatchId, view: &ZendoView) -> Post {
    let (table, guesses) = match view {
        ZendoView::Duel(v) => (&v.table, &v.guesses),
        ZendoView::Practice(v) => (&v.table, &v.guesses),
    };
    let mut post = Post::text(format!(
        "**Match #{game}**: {} structures (white stone: obeys, black: does not)",
        table.len()
    ));
    post.board(table);
    for g in guesses {
        post.line(format!(
            "guess #{}: {} ({})",
            g.number,
            g.reading,
            guess_state(&g.status)
        ));
    }
    post
}

fn guess_state(status: &crate::rules::zendo::GuessStatus) -> String {
    use crate::rules::zendo::GuessStatus as S;
    match status {
        S::Pending => "waiting to be made official".into(),
        S::Official => "being judged".into(),
        S::Refuted { counterexample } => format!("wrong: see #{counterexample}"),
        S::Correct => "right".into(),
        S::Undecided { .. } => "void: the umpire could not decide in time".into(),
        S::TakenBack => "taken back".into(),
        S::TimedOut => "withdrawn: time ran out".into(),
        S::Disallowed => "disallowed by a host".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countdowns_place_game_deadlines_on_the_wall_clock() {
        let c = Clocks {
            game: 10_000,
            wall_ms: 1_700_000_000_000,
        };
        assert_eq!(c.countdown(40_000), "<t:1700000030:R>");
        // A deadline already passed shows as now, never in the past of the game clock.
        assert_eq!(c.countdown(5_000), "<t:1700000000:R>");
        assert_eq!(clock_text(180_000), "3:00");
        assert_eq!(clock_text(1), "0:01");
    }

    #[test]
    fn a_running_clock_says_when_it_ends_and_a_stopped_one_says_so() {
        let c = Clocks {
            game: 0,
            wall_ms: 0,
        };
        let mut clock = Clock::stopped(90_000);
        assert_eq!(c.clock(&clock), "1:30 left (stopped)");
        clock.set_running(true, 0);
        assert_eq!(c.clock(&clock), "1:30 left, ends <t:90:R>");
    }
}
