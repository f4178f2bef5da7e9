//! The terminal front: solo practice over the same runtime and store as the bot. One
//! command per line, named like the slash commands; what happens is printed as text,
//! or with `--json` as one JSON object per line for programs.
//!
//! [`Session::line`] takes one line and returns what to print, so the front is tested
//! without a terminal; `cli/play.rs` feeds it standard input.

use crate::koan::{Koan, PieceSet};
use crate::lang;
use crate::pool::Pool;
use crate::rules::zendo::{
    Action, Event, EventKind, Initial, Mode, Outcome, PracticeSetup, PracticeStep, Settings,
};
use crate::rules::{Actor, PlayerId, Viewer};
use crate::runtime::zendo::PRACTICE;
use crate::runtime::{
    ActError, Place, Runtime, RuntimeError, Subscription, ZendoMatch, ZendoSetup, ZendoView,
};
use crate::store::{MatchFilter, MatchId, Status};
use serde_json::json;

/// The one local player.
pub const YOU: PlayerId = PlayerId(1);

pub const HELP: &str = "commands: koan STRUCTURE [observe] | guess PATTERN | confirm | \
take back | board | status | give up | quit";

/// Where the hidden pattern comes from.
pub enum Source<'a> {
    /// A pool entry chosen by the seed.
    Pool(&'a Pool),
    /// A pattern given on the command line; the initial structures are found for it.
    Pattern(&'a str),
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The player left; the match stays unfinished, to resume.
    Quit,
    Over,
}

/// A game in progress at the terminal.
pub struct Session {
    runtime: Runtime<ZendoMatch>,
    id: MatchId,
    feed: Subscription<ZendoMatch>,
    json: bool,
}

/// A practice setup: the hidden pattern and the two structures that open the game.
pub fn practice_setup(source: Source<'_>, seed: u64) -> Result<PracticeSetup, String> {
    let (hidden, initial) = match source {
        Source::Pool(pool) => {
            let entries: Vec<_> = pool.for_set(PieceSet::Pyramids).collect();
            if entries.is_empty() {
                return Err("the pool has no pyramid patterns to play".into());
            }
            let e = entries[(seed % entries.len() as u64) as usize];
            let initial = Initial {
                obeys: e.obeys.clone(),
                does_not: e.does_not_obey.clone(),
            };
            (e.pattern.clone(), initial)
        }
        Source::Pattern(text) => {
            let pattern =
                lang::parse(text).map_err(|e| format!("the pattern does not read: {e}"))?;
            let initial = initial_for(&pattern.formula).ok_or(
                "no structure of up to 2 pieces obeys this pattern while another does not; \
                 give a pattern that some small structure obeys and some does not",
            )?;
            (pattern, initial)
        }
    };
    Ok(PracticeSetup {
        player: YOU,
        hidden,
        initial,
        settings: Settings::default(),
        seed,
    })
}

/// The simplest structure that obeys and the simplest that does not.
fn initial_for(formula: &lang::Formula) -> Option<Initial> {
    let compiled = lang::CompiledPattern::new(formula);
    let (mut obeys, mut does_not) = (None, None);
    for k in 1..=2 {
        for koan in crate::koan::enumerate::koans(PieceSet::Pyramids, k) {
            let slot = if compiled.evaluate(&koan) {
                &mut obeys
            } else {
                &mut does_not
            };
            slot.get_or_insert(koan);
        }
    }
    Some(Initial {
        obeys: obeys?,
        does_not: does_not?,
    })
}

impl Session {
    /// Starts a new practice match.
    pub async fn start(
        runtime: Runtime<ZendoMatch>,
        setup: PracticeSetup,
        json: bool,
    ) -> Result<(Session, Vec<String>), RuntimeError> {
        let id = runtime
            .create(Place::default(), ZendoSetup::Practice(setup))
            .await?;
        Session::open(runtime, id, json, "started").await
    }

    /// Resumes the latest unfinished practice match in the store.
    pub async fn resume(
        runtime: Runtime<ZendoMatch>,
        json: bool,
    ) -> Result<Option<(Session, Vec<String>)>, RuntimeError> {
        let latest = runtime
            .store()
            .matches(&MatchFilter {
                kind: Some(PRACTICE),
                status: Some(Status::Live),
                player: Some(YOU.0),
                limit: Some(1),
                ..MatchFilter::default()
            })
            .await?;
        match latest.first() {
            Some(r) => Ok(Some(Session::open(runtime, r.id, json, "resumed").await?)),
            None => Ok(None),
        }
    }

    async fn open(
        runtime: Runtime<ZendoMatch>,
        id: MatchId,
        json: bool,
        how: &str,
    ) -> Result<(Session, Vec<String>), RuntimeError> {
        let feed = runtime.subscribe(id, Viewer::Player(YOU)).await?;
        let mut session = Session {
            runtime,
            id,
            feed,
            json,
        };
        let mut out = vec![if json {
            json!({"event": how, "match": id.0}).to_string()
        } else {
            format!("match {id} {how}: solo practice. {HELP}")
        }];
        out.extend(session.board());
        // A guess may have been waiting for the umpire when the game was left.
        out.extend(session.await_verdict().await);
        Ok((session, out))
    }

    pub fn id(&self) -> MatchId {
        self.id
    }

    pub fn runtime(&self) -> &Runtime<ZendoMatch> {
        &self.runtime
    }

    fn view(&self) -> Option<crate::rules::zendo::PracticeView> {
        match self.feed.view() {
            ZendoView::Practice(v) => Some(v),
            ZendoView::Duel(_) => None,
        }
    }

    /// One line of input: what to print, and whether to go on.
    pub async fn line(&mut self, line: &str) -> (Vec<String>, Flow) {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let action =
            match (word.as_str(), rest) {
                ("", _) => return (Vec::new(), Flow::Continue),
                ("quit" | "exit", _) => return (self.left(), Flow::Quit),
                ("help" | "?", _) => return (vec![self.say(HELP)], Flow::Continue),
                ("board", _) => return (self.board(), Flow::Continue),
                ("status", _) => return (vec![self.status()], Flow::Continue),
                ("koan", text) => match koan_command(text) {
                    Ok(action) => action,
                    Err(e) => return (vec![self.error(&e)], Flow::Continue),
                },
                ("guess", "") => {
                    return (
                        vec![self.error(
                            "write the pattern after `guess`, e.g. guess some piece points up",
                        )],
                        Flow::Continue,
                    );
                }
                ("guess", text) => match lang::parse(text) {
                    Ok(pattern) => Action::Guess { pattern },
                    Err(e) => {
                        return (
                            vec![self.error(&format!("the guess does not read: {e}"))],
                            Flow::Continue,
                        );
                    }
                },
                ("confirm", _) => Action::Confirm,
                ("take", "back") | ("takeback", _) => Action::TakeBack,
                ("give", "up") | ("resign", _) => Action::Resign,
                ("pass", _) => Action::EndTurn,
                _ => {
                    return (
                        vec![self.error(&format!("`{word}` is not a command; {HELP}"))],
                        Flow::Continue,
                    );
                }
            };
        self.act(action).await
    }

    async fn act(&mut self, action: Action) -> (Vec<String>, Flow) {
        let mut out = Vec::new();
        match self
            .runtime
            .act(self.id, Actor::Player(YOU), action, None)
            .await
        {
            Ok(ack) => match self.feed.until(ack.seq).await {
                Ok(updates) => {
                    for u in updates {
                        for (_, e) in &u.events {
                            out.extend(self.event(e));
                        }
                    }
                }
                Err(e) => out.push(self.error(&e.to_string())),
            },
            Err(ActError::Refused(e)) => out.push(self.error(&e.to_string())),
            Err(ActError::Runtime(e)) => out.push(self.error(&e.to_string())),
        }
        out.extend(self.await_verdict().await);
        let flow = match self.view() {
            Some(v) if v.outcome.is_some() => Flow::Over,
            _ => Flow::Continue,
        };
        (out, flow)
    }

    /// While an official guess waits for the umpire, its answer is the next thing to
    /// say: wait for it.
    async fn await_verdict(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(crate::rules::zendo::PracticeView {
            step: PracticeStep::Verdict { .. },
            ..
        }) = self.view()
        {
            match self.feed.next().await {
                Some(Ok(u)) => {
                    for (_, e) in &u.events {
                        out.extend(self.event(e));
                    }
                }
                Some(Err(e)) => {
                    out.push(self.error(&e.to_string()));
                    break;
                }
                None => break,
            }
        }
        out
    }

    fn say(&self, text: &str) -> String {
        if self.json {
            json!({"event": "info", "message": text}).to_string()
        } else {
            text.to_string()
        }
    }

    fn error(&self, message: &str) -> String {
        if self.json {
            json!({"event": "error", "message": message}).to_string()
        } else {
            format!("error: {message}")
        }
    }

    fn left(&self) -> Vec<String> {
        vec![if self.json {
            json!({"event": "left", "match": self.id.0}).to_string()
        } else {
            format!(
                "left match {}; `mondo play --resume` goes on where you stopped",
                self.id
            )
        }]
    }

    fn status(&self) -> String {
        let Some(v) = self.view() else {
            return self.error("this is not a practice match");
        };
        let step = match v.step {
            PracticeStep::Play => "build a koan or guess".to_string(),
            PracticeStep::Pending { guess } => format!("confirm or take back guess #{guess}"),
            PracticeStep::Verdict { guess } => format!("the umpire is judging guess #{guess}"),
            PracticeStep::Over => "the game is over".to_string(),
        };
        if self.json {
            json!({"event": "status", "match": self.id.0, "step": v.step, "koans": v.score.koans,
                   "guesses": v.score.guesses, "revealed": v.revealed})
            .to_string()
        } else {
            format!(
                "match {}: {step}; {} koans built, {} guesses judged",
                self.id, v.score.koans, v.score.guesses
            )
        }
    }

    fn board(&self) -> Vec<String> {
        let Some(v) = self.view() else {
            return vec![self.error("this is not a practice match")];
        };
        if self.json {
            let table: Vec<_> = v
                .table
                .iter()
                .map(|e| json!({"number": e.number, "koan": e.koan.to_line(), "obeys": e.obeys}))
                .collect();
            return vec![json!({"event": "board", "table": table}).to_string()];
        }
        v.table
            .iter()
            .map(|e| {
                format!(
                    "#{:<3} {:<13} {}",
                    e.number,
                    if e.obeys { "obeys" } else { "does not obey" },
                    e.koan.to_line()
                )
            })
            .collect()
    }

    /// How an event is said.
    fn event(&self, e: &Event) -> Vec<String> {
        let score = self.view().map(|v| v.score.total());
        let (value, text) = describe(e, score).unwrap_or_else(|| {
            let value = serde_json::to_value(&e.kind).unwrap_or_default();
            let name = value["event"].as_str().unwrap_or("event").replace('_', " ");
            (value, name)
        });
        vec![if self.json { value.to_string() } else { text }]
    }
}

/// How a Zendo event is said to the players, as JSON and as text (`None` for events
/// with nothing particular to say). `score` is the practice score at the end, if known.
pub fn describe(e: &Event, score: Option<u32>) -> Option<(serde_json::Value, String)> {
    Some(match &e.kind {
        EventKind::Observed { koan, obeys, .. } => (
            json!({"event": "verdict", "koan": koan.to_line(), "obeys": obeys}),
            format!(
                "{} {}",
                koan.to_line(),
                if *obeys { "obeys" } else { "does not obey" }
            ),
        ),
        EventKind::GuessRead {
            number,
            reading,
            contradictions,
            ..
        } => {
            let warn = if contradictions.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = contradictions.iter().map(|n| format!("#{n}")).collect();
                format!(" (already contradicted by {})", list.join(", "))
            };
            (
                json!({"event": "reading", "guess": number, "pattern": reading,
                       "contradictions": contradictions}),
                format!("guess #{number} reads: {reading}{warn}; confirm or take back"),
            )
        }
        EventKind::GuessConfirmed { number } => (
            json!({"event": "official", "guess": number}),
            format!("guess #{number} is official; the umpire is judging it"),
        ),
        EventKind::GuessWithdrawn { number, .. } => (
            json!({"event": "withdrawn", "guess": number}),
            format!("guess #{number} taken back"),
        ),
        EventKind::Refuted {
            number,
            counterexample: ce,
            ..
        } => (
            json!({"event": "counterexample", "guess_number": number,
                   "koan": ce.koan.to_line(), "hidden": ce.hidden, "guess": ce.guess}),
            format!(
                "guess #{number} is wrong: {} {} the hidden pattern but {} your guess",
                ce.koan.to_line(),
                if ce.hidden { "obeys" } else { "does not obey" },
                if ce.guess { "obeys" } else { "does not obey" }
            ),
        ),
        EventKind::GuessUndecided { number, reason } => (
            json!({"event": "undecided", "guess": number, "reason": reason}),
            format!("guess #{number} is void: {reason}"),
        ),
        EventKind::MatchEnded { outcome, pattern } => match outcome {
            Outcome::Solved { .. } => (
                json!({"event": "won", "pattern": pattern, "score": score}),
                match score {
                    Some(s) => {
                        format!("right! the pattern was: {pattern} (score {s}, lower is better)")
                    }
                    None => format!("solved: the pattern was: {pattern}"),
                },
            ),
            _ => (
                json!({"event": "over", "pattern": pattern}),
                format!("the pattern was: {pattern}"),
            ),
        },
        _ => return None,
    })
}

/// `koan STRUCTURE [observe|challenge]`: the structure on one line (rows separated by
/// `/`), the mode last.
fn koan_command(text: &str) -> Result<Action, String> {
    if text.is_empty() {
        return Err(
            "write the structure after `koan`, e.g. koan 1^ 2> (rows separated by /)".into(),
        );
    }
    let (structure, mode) = match text
        .rsplit_once(char::is_whitespace)
        .map(|(s, m)| (s, m.parse::<Mode>()))
    {
        Some((s, Ok(mode))) => (s, mode),
        _ => (text, Mode::Observe),
    };
    let koan = Koan::parse_as(&structure.replace('/', "\n"), PieceSet::Pyramids)
        .map_err(|e| format!("the structure does not read: {e}"))?;
    Ok(Action::Build { koan, mode })
}
