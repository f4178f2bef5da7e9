//! The AI student at the terminal: seats at a duel (`mondo play duel --players
//! me,ai`), a Triple (`mondo play triple --players me,ai`) and a Classic game (`mondo
//! play classic --players me,ai,ai2`) that type their commands as a person would (`ai:
//! koan 1^ 2v challenge`), each from the same view its player has; and the practice
//! `hint`. The Discord seats (`bot::games::zendo::ai`) think with the same [`Mind`].
//!
//! The student never receives the match, only [`AnyView`] for its own player (which
//! holds no hidden pattern before the end): it cannot see the secret by construction.

use crate::koan::PieceSet;
use crate::narrate::Line;
use crate::rules::PlayerId;
use crate::rules::zendo::classic::{Call, ClassicMove};
use crate::rules::zendo::triple::{Letter, TripleMove};
use crate::rules::zendo::{Answer, DuelMove, Mode, ZendoMove};
use crate::runtime::{AnyAction, AnyView};
use crate::student::zendo::classic::classic_move;
use crate::student::zendo::duel::duel_move;
use crate::student::zendo::triple::{TripleStudent, triple_move};
use crate::student::zendo::why::{self, Trail, of_table, of_triple};
use crate::student::zendo::{Breadth, Budget, Level, Space, Student};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The name an AI seat has unless `--ai NAME` says otherwise.
pub const DEFAULT_NAME: &str = "ai";

/// Thinking time per move at the terminal.
const MOVE_MS: u64 = 1_500;

type Spaces = HashMap<(PieceSet, Breadth), Arc<Space>>;

/// The hypothesis space of a set, built once per process (it is the same every
/// time).
pub fn space(set: PieceSet, breadth: Breadth) -> Arc<Space> {
    static SPACES: OnceLock<Mutex<Spaces>> = OnceLock::new();
    let spaces = SPACES.get_or_init(Default::default);
    let mut map = spaces.lock().unwrap_or_else(|e| e.into_inner());
    map.entry((set, breadth))
        .or_insert_with(|| Arc::new(Space::build(set, breadth)))
        .clone()
}

/// A milliseconds clock from now, for the student's budget.
fn clock() -> impl FnMut() -> u64 {
    let start = Instant::now();
    move || start.elapsed().as_millis() as u64
}

/// The piece set of a game the AI student plays (the Duel, the Triple, Classic).
pub fn set_of(view: &AnyView) -> Option<PieceSet> {
    match view {
        AnyView::ZendoDuel(v) => Some(v.settings.set),
        AnyView::ZendoTriple(v) => Some(v.settings.set),
        AnyView::ZendoClassic(v) => Some(v.settings.set),
        _ => None,
    }
}

/// What an AI seat believes: one hidden pattern's rules (the Duel, Classic), or one
/// belief per pattern (the Triple).
#[derive(Clone, Debug)]
pub enum Mind {
    One(Box<Student>),
    Three(Box<TripleStudent>),
}

/// A move of a game the AI student plays.
#[derive(Clone, Debug)]
pub enum AiMove {
    Duel(DuelMove),
    Triple(TripleMove),
    Classic(ClassicMove),
}

impl From<AiMove> for AnyAction {
    fn from(m: AiMove) -> AnyAction {
        match m {
            AiMove::Duel(m) => m.into(),
            AiMove::Triple(m) => m.into(),
            AiMove::Classic(m) => m.into(),
        }
    }
}

impl Mind {
    /// The mind for the game `view` shows.
    pub fn for_view(view: &AnyView, space: Arc<Space>, level: Level, seed: u64) -> Mind {
        match view {
            AnyView::ZendoTriple(_) => {
                Mind::Three(Box::new(TripleStudent::new(space, level, seed)))
            }
            _ => Mind::One(Box::new(Student::new(space, level, seed))),
        }
    }

    /// Its move now on its player's view, if it has one.
    pub fn act(
        &mut self,
        view: &AnyView,
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
    ) -> Option<AiMove> {
        match (self, view) {
            (Mind::One(s), AnyView::ZendoDuel(v)) => duel_move(s, v, budget, now).map(AiMove::Duel),
            (Mind::One(s), AnyView::ZendoClassic(v)) => {
                classic_move(s, v, budget, now).map(AiMove::Classic)
            }
            (Mind::Three(s), AnyView::ZendoTriple(v)) => {
                triple_move(s, v, budget, now).map(AiMove::Triple)
            }
            _ => None,
        }
    }
}

fn answer_word(answer: Answer) -> &'static str {
    match answer {
        Answer::Obeys => "obeys",
        Answer::Not => "not",
        Answer::Pass => "pass",
    }
}

fn letters_text(letters: &[Letter]) -> String {
    letters
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The patterns of the Triple challenge `view` shows (none when it shows none).
fn challenged(view: &AnyView) -> &[Letter] {
    use crate::rules::zendo::triple::{PhaseView, StepView};
    match view {
        AnyView::ZendoTriple(v) => match &v.phase {
            PhaseView::Turn {
                step: StepView::Challenge { patterns, .. },
                ..
            } => patterns,
            _ => &[],
        },
        _ => &[],
    }
}

impl AiMove {
    /// The command a person would type for it at the terminal, made on `view`
    /// (`None`: no player's).
    pub fn command(&self, name: &str, view: &AnyView) -> Option<String> {
        let command = match self {
            AiMove::Duel(m) => match m {
                DuelMove::Zendo(z) => shared_command(z, name)?,
                DuelMove::Build { koan, mode } => format!(
                    "koan {} {}",
                    koan.to_line(),
                    match mode {
                        Mode::Observe => "observe",
                        Mode::Challenge => "challenge",
                    }
                ),
                DuelMove::Skip => "skip".into(),
                DuelMove::Answer { answer } => format!("answer {}", answer_word(*answer)),
                DuelMove::Guess { pattern } => format!("guess {}", pattern.source),
                DuelMove::Verdict { .. } => return None,
            },
            AiMove::Triple(m) => match m {
                TripleMove::Zendo(z) => shared_command(z, name)?,
                TripleMove::Build {
                    koan,
                    mode,
                    patterns,
                } => {
                    let how = match mode {
                        Mode::Observe => "grade",
                        Mode::Challenge => "challenge",
                    };
                    format!("koan {} {how} {}", koan.to_line(), letters_text(patterns))
                        .trim_end()
                        .to_string()
                }
                // A challenge's answers name their patterns: `answer A obeys C not`.
                TripleMove::Answer { answers } => format!(
                    "answer {}",
                    challenged(view)
                        .iter()
                        .zip(answers)
                        .map(|(l, a)| format!("{l} {}", answer_word(*a)))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                TripleMove::QuizAnswer { answers } => format!(
                    "answer {}",
                    answers
                        .iter()
                        .map(|a| answer_word(*a))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                TripleMove::Guess { pattern, guess } => {
                    format!("guess {pattern} {}", guess.source)
                }
                TripleMove::Verdict { .. } => return None,
            },
            AiMove::Classic(m) => match m {
                ClassicMove::Build { koan, call } => format!(
                    "koan {} {}",
                    koan.to_line(),
                    match call {
                        Call::Master => "master",
                        Call::Mondo => "mondo",
                    }
                ),
                ClassicMove::Answer { answer } => format!("answer {}", answer_word(*answer)),
                ClassicMove::Guess { pattern } => format!("guess {}", pattern.source),
                ClassicMove::Zendo(z) => shared_command(z, name)?,
                ClassicMove::Back => "back".into(),
                _ => return None,
            },
        };
        Some(format!("{name}: {command}"))
    }
}

/// The command for a move every Zendo mode shares (`None`: one no student makes, a
/// host's disallowing).
fn shared_command(m: &ZendoMove, name: &str) -> Option<String> {
    Some(match m {
        ZendoMove::ChooseStarter { .. } => format!("start {name}"),
        ZendoMove::Confirm => "confirm".into(),
        ZendoMove::TakeBack => "take back".into(),
        ZendoMove::EndTurn => "end turn".into(),
        ZendoMove::Disallow => return None,
    })
}

/// An AI student in a seat at the terminal.
pub struct AiSeat {
    pub name: String,
    pub player: PlayerId,
    mind: Option<Mind>,
    set: PieceSet,
    level: Level,
    seed: u64,
}

impl AiSeat {
    pub fn new(name: &str, player: PlayerId, set: PieceSet, level: Level, seed: u64) -> AiSeat {
        AiSeat {
            name: name.to_string(),
            player,
            mind: None,
            set,
            level,
            seed,
        }
    }

    /// What builds the rules it reasons over (once per process, seconds; shared with
    /// every seat of the same set and breadth), to run before its first move needs
    /// them, on any thread.
    pub fn preparer(&self) -> impl FnOnce() + Send + 'static {
        let (set, breadth) = (self.set, self.level.breadth());
        move || {
            space(set, breadth);
        }
    }

    /// The command the AI types now, seeing what its player sees (`None`: nothing to
    /// do, or not a game it plays).
    pub fn line(&mut self, view: &AnyView) -> Option<String> {
        let (set, level, seed) = (self.set, self.level, self.seed);
        let mind = self
            .mind
            .get_or_insert_with(|| Mind::for_view(view, space(set, level.breadth()), level, seed));
        let mut now = clock();
        let budget = Budget::ms(0, MOVE_MS);
        let m = mind.act(view, budget, &mut now)?;
        m.command(&self.name, view)
    }
}

/// The practice `hint`: the structure the AI would build next, and how many of the
/// rules still standing it splits.
pub fn hint(view: &AnyView) -> String {
    let AnyView::ZendoPractice(v) = view else {
        return "`hint` is for solo practice: in a game against others, think for yourself".into();
    };
    if v.outcome.is_some() {
        return "the game is over: no hint needed".into();
    }
    let set = v.settings.set;
    let mut student = Student::new(space(set, Breadth::Full), Level::Expert, v.version);
    student.observe_table(&v.table);
    let summary = student.summary();
    let mut now = clock();
    let e = student.best_experiment(Budget::ms(0, MOVE_MS), &mut now);
    let standing = if summary.misses > 0 {
        format!(
            "no rule the AI knows fits every structure on the table; of those that miss \
             fewest ({} wrong), {} groups stand",
            summary.misses, summary.groups
        )
    } else {
        format!(
            "{} rules in {} groups of equal meaning fit every structure on the table",
            summary.rules, summary.groups
        )
    };
    format!(
        "hint: build `{}`. {standing}; of the {} groups weighed, {} say it obeys and {} say \
         it does not ({:.0} % of the belief says it obeys, {:.2} bits to learn).",
        e.koan.to_line(),
        e.obey_groups + e.fail_groups,
        e.obey_groups,
        e.fail_groups,
        100.0 * e.obey_share,
        e.bits
    )
}

/// What `why` says of one level's seats: the seats' names, their level, and what it
/// believed after each structure (one trail, or a Triple's three).
#[derive(Clone, Debug)]
pub struct Why {
    pub names: Vec<String>,
    pub level: Level,
    pub trails: Vec<Trail>,
}

/// The refusal of `why` in a game no AI student plays.
pub const WHY_GAMES: &str = "`why` tells what the AI student believed in a Zendo Duel, \
     Triple or Classic game it played";

/// The refusal of `why` in a match no AI student played.
pub const NO_AI: &str = "no AI student played in this match: `why` tells what the AI \
     believed in a game it played";

/// The refusal of `why` while the match goes on.
pub const NOT_OVER: &str = "the match is not over: the AI student says what it believed \
     once the match has ended (now it would tell its opponents what it thinks)";

/// Whether the match `view` shows is over (a Classic lobby that closed unstarted too).
pub fn is_over(view: &AnyView) -> bool {
    match view {
        AnyView::ZendoDuel(v) => v.outcome.is_some(),
        AnyView::ZendoTriple(v) => v.outcome.is_some(),
        AnyView::ZendoClassic(v) => v.outcome.is_some() || v.closed,
        _ => true,
    }
}

/// `why`: what the AI seats (`seats`: each one's name and level) believed after each
/// structure of the match `view` shows, told again from its table (docs/ai.md, "Why").
/// Refused while the match goes on: its beliefs would tell its opponents what it
/// thinks (as `hint` would). Seats of one level believed the same (the table is one):
/// they are told once. `space` gives the rules of a set at a breadth.
pub fn why(
    view: &AnyView,
    seats: &[(String, Level)],
    space: fn(PieceSet, Breadth) -> Arc<Space>,
) -> Result<Vec<Why>, String> {
    let Some(set) = set_of(view) else {
        return Err(WHY_GAMES.into());
    };
    if seats.is_empty() {
        return Err(NO_AI.into());
    }
    if !is_over(view) {
        return Err(NOT_OVER.into());
    }
    let mut out: Vec<Why> = Vec::new();
    for (name, level) in seats {
        if let Some(w) = out.iter_mut().find(|w| w.level == *level) {
            w.names.push(name.clone());
            continue;
        }
        let space = space(set, level.breadth());
        let trails = match view {
            AnyView::ZendoTriple(v) => of_triple(space, *level, &v.table),
            AnyView::ZendoDuel(v) => of_table(space, *level, &v.table),
            AnyView::ZendoClassic(v) => of_table(space, *level, &v.table),
            _ => Vec::new(),
        };
        out.push(Why {
            names: vec![name.clone()],
            level: *level,
            trails,
        });
    }
    Ok(out)
}

impl Why {
    /// Its lines: the words ([`crate::student::zendo::why::text`]), and a `why` JSON
    /// event per structure (docs/ai.md).
    pub fn lines(&self) -> Vec<Line> {
        let names = self.names.join(", ");
        let words = |text: String| Line::new(serde_json::Value::Null, text);
        let mut out = vec![words(why::heading(&names, self.level))];
        for trail in &self.trails {
            out.extend(trail.heading().map(words));
            if trail.steps.is_empty() {
                out.push(words(why::NONE_MARKED.into()));
            }
            for step in &trail.steps {
                let mut event = json!({
                    "event": "why",
                    "players": self.names,
                    "level": self.level,
                    "pattern": trail.pattern.map(|l| l.to_string()),
                });
                if let (Some(map), Ok(serde_json::Value::Object(fields))) =
                    (event.as_object_mut(), serde_json::to_value(step))
                {
                    map.extend(fields);
                }
                out.push(Line::new(event, step.line()));
            }
        }
        out
    }
}

/// `why` at the terminal: the AI seats are the players with the AI's reserved names
/// (`ai-expert`, `ai-player-2`), each at its name's level.
pub fn terminal_why(view: &AnyView, cast: &crate::Cast) -> Result<Vec<Line>, String> {
    let seats: Vec<(String, Level)> = cast
        .players()
        .iter()
        .filter_map(|(_, name)| {
            let (level, _) = crate::rules::fair::reserved_ai_name(name)?;
            Some((name.clone(), *Level::ALL.get(level)?))
        })
        .collect();
    Ok(why(view, &seats, space)?
        .iter()
        .flat_map(Why::lines)
        .collect())
}
