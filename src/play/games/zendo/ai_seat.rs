//! The AI student at the terminal: a seat at a duel (`mondo play duel --players
//! me,ai`) that types its commands as a person would (`ai: koan 1^ 2v challenge`),
//! from the same view its player has; and the practice `hint`.
//!
//! The student never receives the match, only [`AnyView`] for its own player (which
//! holds no hidden pattern before the end): it cannot see the secret by construction.

use crate::koan::PieceSet;
use crate::rules::PlayerId;
use crate::rules::zendo::{Answer, DuelMove, Mode, ZendoMove};
use crate::runtime::AnyView;
use crate::student::zendo::duel::duel_move;
use crate::student::zendo::{Breadth, Budget, Level, Space, Student};
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

/// An AI student in a duel seat.
pub struct AiSeat {
    pub name: String,
    pub player: PlayerId,
    student: Student,
}

impl AiSeat {
    pub fn new(name: &str, player: PlayerId, set: PieceSet, level: Level, seed: u64) -> AiSeat {
        AiSeat {
            name: name.to_string(),
            player,
            student: Student::new(space(set, level.breadth()), level, seed),
        }
    }

    /// The command the AI types now, seeing what its player sees (`None`: nothing to
    /// do, or not a game it plays).
    pub fn line(&mut self, view: &AnyView) -> Option<String> {
        let AnyView::ZendoDuel(v) = view else {
            return None;
        };
        let mut now = clock();
        let budget = Budget::ms(0, MOVE_MS);
        let m = duel_move(&mut self.student, v, budget, &mut now)?;
        let command = match m {
            DuelMove::Zendo(ZendoMove::ChooseStarter { .. }) => format!("start {}", self.name),
            DuelMove::Build { koan, mode } => format!(
                "koan {} {}",
                koan.to_line(),
                match mode {
                    Mode::Observe => "observe",
                    Mode::Challenge => "challenge",
                }
            ),
            DuelMove::Skip => "skip".into(),
            DuelMove::Answer { answer } => format!(
                "answer {}",
                match answer {
                    Answer::Obeys => "obeys",
                    Answer::Not => "not",
                    Answer::Pass => "pass",
                }
            ),
            DuelMove::Guess { pattern } => format!("guess {}", pattern.source),
            DuelMove::Zendo(ZendoMove::Confirm) => "confirm".into(),
            DuelMove::Zendo(ZendoMove::TakeBack) => "take back".into(),
            DuelMove::Zendo(ZendoMove::EndTurn) => "end turn".into(),
            DuelMove::Zendo(ZendoMove::Disallow) | DuelMove::Verdict { .. } => return None,
        };
        Some(format!("{}: {command}", self.name))
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
