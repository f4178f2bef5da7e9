//! The terminal front: Zendo over the same runtime and store as the bot, solo practice
//! or a duel between two players at one terminal. One command per line, named like
//! the slash commands; in a duel each line may start with who says it (`alice: koan
//! 1^ 2> challenge`, `host: pause`). What happens is printed as text, or with `--json`
//! as one JSON object per line for programs.
//!
//! [`Session::line`] takes one line and returns what to print, and [`Session::news`]
//! waits for what happens by itself (time-outs), so the front is tested without a
//! terminal; `cli/play.rs` feeds them standard input and the match's clock.
//!
//! A duel's output is shared by both players, so it is what a spectator may see: a
//! challenge answer is said to be in, never what it is, until the reveal.

mod narrate;

pub use narrate::{Front, Narrator};

use crate::finder::Limits;
use crate::koan::{Koan, PieceSet};
use crate::lang;
use crate::render::{self, BoardEntry, Mark, Picture};
use crate::rules::zendo::{
    Action, Answer, DuelSetup, DuelView, Event, Mode, Opening, Outcome, PhaseView, PracticeSetup,
    PracticeStep, Settings, StepView, TableEntry, Timing, opening,
};
use crate::rules::{Actor, PlayerId, RuleError, Viewer};
use crate::runtime::zendo::{DUEL, PRACTICE};
use crate::runtime::{
    ActError, Place, Runtime, RuntimeError, Subscription, Update, ZendoMatch, ZendoSetup, ZendoView,
};
use crate::store::{MatchFilter, MatchId, Status, Store};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The one local player of solo practice.
pub const YOU: PlayerId = PlayerId(1);

/// The host's name at the terminal unless `--host` says otherwise.
pub const HOST: &str = "host";

pub const HELP: &str = "commands: koan STRUCTURE [observe] | guess PATTERN | confirm | \
take back | board | status | give up | quit";

pub const DUEL_HELP: &str = "\
a line is [NAME:] COMMAND, e.g. `alice: koan 1^ 2> challenge` or `bob: answer not`.
players: start NAME (the player with the advantage picks who starts)
         koan STRUCTURE [observe|challenge] (rows separated by /) | skip
         answer obeys|not|pass (both players, privately, while a challenge runs)
         guess PATTERN | confirm | take back | end turn | pass | resign
host:    pause | resume | disallow (the pending guess, ticket returned) | end
anyone:  board | status | help | quit (the match stays, to resume)
without a name, a command is the current player's (`start`: the advantage player's;
pause/resume/disallow: the host's); `answer` and `resign` need a name. `pass` skips
step 1, ends step 2, or answers `pass` to a challenge.";

/// Where the hidden pattern comes from (the library's, also the bot's).
pub use crate::rules::zendo::opening::Source;

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The player left; the match stays unfinished, to resume.
    Quit,
    Over,
}

/// Who plays at the terminal, by seat, and who hosts.
#[derive(Clone, Debug)]
pub struct Cast {
    /// Seat order; one entry in practice.
    players: Vec<(PlayerId, String)>,
    host: Option<(PlayerId, String)>,
}

impl Cast {
    pub fn practice() -> Cast {
        Cast {
            players: vec![(YOU, "you".into())],
            host: None,
        }
    }

    /// Two players and a host, by name; each name gets its local id from the store.
    pub async fn duel(store: &Store, players: [&str; 2], host: &str) -> Result<Cast, String> {
        for name in players.iter().chain([&host]) {
            check_name(name)?;
        }
        if players[0].eq_ignore_ascii_case(players[1]) {
            return Err("a duel needs two different players' names".into());
        }
        if players.iter().any(|p| p.eq_ignore_ascii_case(host)) {
            return Err(format!(
                "`{host}` cannot both play and host: name another host with --host NAME"
            ));
        }
        let id = |name: &str| {
            let store = store.clone();
            let name = name.to_string();
            async move {
                store
                    .local_player(&name)
                    .await
                    .map(|id| (PlayerId(id), name))
                    .map_err(|e| e.to_string())
            }
        };
        Ok(Cast {
            players: vec![id(players[0]).await?, id(players[1]).await?],
            host: Some(id(host).await?),
        })
    }

    /// The cast of a stored duel: its players' names from the store.
    async fn of_duel(store: &Store, players: &[u64], host: &str) -> Result<Cast, String> {
        check_name(host)?;
        let names = store
            .local_names(players)
            .await
            .map_err(|e| e.to_string())?;
        let players = players
            .iter()
            .map(|id| {
                let name = names
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| format!("player{id}"));
                (PlayerId(*id), name)
            })
            .collect();
        let host_id = store.local_player(host).await.map_err(|e| e.to_string())?;
        Ok(Cast {
            players,
            host: Some((PlayerId(host_id), host.to_string())),
        })
    }

    pub fn is_duel(&self) -> bool {
        self.players.len() == 2
    }

    fn name_of(&self, id: PlayerId) -> String {
        self.players
            .iter()
            .chain(&self.host)
            .find(|(p, _)| *p == id)
            .map_or_else(|| format!("player {}", id.0), |(_, n)| n.clone())
    }

    /// Whoever `name` names, as the actor they act as.
    fn actor(&self, name: &str) -> Option<Actor> {
        let is = |(_, n): &&(PlayerId, String)| n.eq_ignore_ascii_case(name);
        if let Some((id, _)) = self.players.iter().find(is) {
            return Some(Actor::Player(*id));
        }
        self.host.iter().find(is).map(|(id, _)| Actor::Host(*id))
    }

    fn actor_name(&self, actor: &Actor) -> String {
        match actor {
            Actor::Player(id) | Actor::Host(id) => self.name_of(*id),
            Actor::Umpire => "the umpire".into(),
        }
    }

    fn names(&self) -> String {
        let mut names: Vec<&str> = self.players.iter().map(|(_, n)| n.as_str()).collect();
        names.extend(self.host.iter().map(|(_, n)| n.as_str()));
        names.join(", ")
    }

    fn narrator(&self) -> Narrator {
        match self.players.as_slice() {
            [(_, a), (_, b)] => Narrator::duel(
                [a.clone(), b.clone()],
                self.host
                    .iter()
                    .map(|(id, n)| (id.0, n.clone()))
                    .collect::<HashMap<_, _>>(),
            ),
            _ => Narrator::practice(),
        }
    }
}

/// Names are one word, so that `NAME:` starts a line unambiguously.
fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a usable name: use one word of letters, digits, `_` or `-` \
             (at most 32)"
        ))
    }
}

/// A game in progress at the terminal.
pub struct Session {
    runtime: Runtime<ZendoMatch>,
    id: MatchId,
    /// As the practice player, or in a duel as a spectator (the output is shared).
    feed: Subscription<ZendoMatch>,
    json: bool,
    cast: Cast,
    narrator: Narrator,
    /// `--png DIR`: where each structure's picture goes as it joins the table.
    pictures: Option<PathBuf>,
    /// Table entries already drawn there.
    drawn: usize,
}

/// A practice setup for `settings` (either piece set): the hidden pattern and the two
/// structures that open the game ([`crate::rules::zendo::opening`]).
pub fn practice_setup(
    source: Source<'_>,
    seed: u64,
    settings: Settings,
) -> Result<PracticeSetup, String> {
    let o = open_with(source, settings.set, seed)?;
    Ok(PracticeSetup {
        player: YOU,
        hidden: o.hidden,
        initial: o.initial,
        settings,
        seed,
    })
}

/// The opening of a new match, said as the terminal says errors.
fn open_with(source: Source<'_>, set: PieceSet, seed: u64) -> Result<Opening, String> {
    opening(source, set, seed, &Limits::default()).map_err(|e| e.to_string())
}

/// A duel setup for `cast`: `advantage` (a player's name; by default the second, the
/// one challenged) chooses who starts.
pub fn duel_setup(
    cast: &Cast,
    source: Source<'_>,
    seed: u64,
    advantage: Option<&str>,
    settings: Settings,
    timing: Timing,
) -> Result<DuelSetup, String> {
    let [(a, _), (b, bname)] = cast.players.as_slice() else {
        return Err("a duel needs two players: --players alice,bob".into());
    };
    let advantage = match advantage {
        None => *b,
        Some(name) => match cast.actor(name) {
            Some(Actor::Player(id)) => id,
            _ => {
                return Err(format!(
                    "the advantage goes to one of the players, not `{name}` (e.g. --advantage \
                     {bname})"
                ));
            }
        },
    };
    if settings.set != PieceSet::Pyramids {
        return Err(format!(
            "the Zendo Duel plays with the 12 pyramids, not {}; arrows are for practice \
             (mondo play --set arrows)",
            settings.set
        ));
    }
    let o = open_with(source, settings.set, seed)?;
    Ok(DuelSetup {
        players: [*a, *b],
        advantage,
        hidden: o.hidden,
        initial: o.initial,
        settings,
        timing,
        seed,
    })
}

/// A command as typed, before it is given to someone.
enum Command {
    Act(Action),
    /// `pass`: whatever "nothing from me" means now.
    Pass,
    /// `start NAME`.
    Start(String),
    /// `end` alone: the host ends the match, a player the turn.
    End,
}

impl Session {
    /// Starts a new match.
    pub async fn start(
        runtime: Runtime<ZendoMatch>,
        setup: ZendoSetup,
        cast: Cast,
        json: bool,
    ) -> Result<(Session, Vec<String>), RuntimeError> {
        let id = runtime.create(Place::default(), setup).await?;
        Session::open(runtime, id, cast, json, "started").await
    }

    /// Resumes the latest unfinished match in the store, duel or practice; a duel's
    /// host is `host`.
    pub async fn resume(
        runtime: Runtime<ZendoMatch>,
        host: &str,
        json: bool,
    ) -> Result<Option<(Session, Vec<String>)>, String> {
        let mut latest = None;
        for kind in [DUEL, PRACTICE] {
            let found = runtime
                .store()
                .matches(&MatchFilter {
                    kind: Some(kind),
                    status: Some(Status::Live),
                    limit: Some(1),
                    ..MatchFilter::default()
                })
                .await
                .map_err(|e| e.to_string())?;
            latest = latest.into_iter().chain(found).max_by_key(|r| r.id);
        }
        let Some(record) = latest else {
            return Ok(None);
        };
        let cast = if record.kind == DUEL {
            Cast::of_duel(runtime.store(), &record.players, host).await?
        } else {
            Cast::practice()
        };
        Session::open(runtime, record.id, cast, json, "resumed")
            .await
            .map(Some)
            .map_err(|e| e.to_string())
    }

    async fn open(
        runtime: Runtime<ZendoMatch>,
        id: MatchId,
        cast: Cast,
        json: bool,
        how: &str,
    ) -> Result<(Session, Vec<String>), RuntimeError> {
        let viewer = if cast.is_duel() {
            Viewer::Spectator
        } else {
            Viewer::Player(YOU)
        };
        let feed = runtime.subscribe(id, viewer).await?;
        let mut narrator = cast.narrator();
        if let ZendoView::Duel(v) = feed.view() {
            narrator.set_challenged(challenge(&v).map(|(koan, ..)| koan.clone()));
        }
        let mut session = Session {
            runtime,
            id,
            feed,
            json,
            narrator,
            cast,
            pictures: None,
            drawn: 0,
        };
        let game = if session.cast.is_duel() {
            "duel"
        } else {
            "practice"
        };
        let mut out = vec![if json {
            let players: Vec<&str> = session.cast.players.iter().map(|(_, n)| &**n).collect();
            json!({"event": how, "match": id.0, "game": game, "players": players,
                   "host": session.cast.host.as_ref().map(|(_, n)| n)})
            .to_string()
        } else if session.cast.is_duel() {
            format!(
                "match {id} {how}: zendo duel, {} (host: {}).\n{DUEL_HELP}",
                session
                    .cast
                    .players
                    .iter()
                    .map(|(_, n)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(" vs "),
                session.cast.host.as_ref().map_or("none", |(_, n)| n)
            )
        } else {
            format!("match {id} {how}: solo practice. {HELP}")
        }];
        out.extend(session.board());
        if session.cast.is_duel() {
            out.push(session.status());
        }
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

    fn help(&self) -> &'static str {
        if self.cast.is_duel() { DUEL_HELP } else { HELP }
    }

    /// Draws every structure as a PNG in `dir` (`--png DIR`) from now on: the ones on
    /// the table now (returned: where each went), then each as it joins the table,
    /// and the whole table on `board`. The folder must exist.
    pub fn draw_pictures(&mut self, dir: PathBuf) -> Result<Vec<String>, String> {
        if !dir.is_dir() {
            return Err(format!(
                "--png {}: not a folder; create it first (mkdir -p {})",
                dir.display(),
                dir.display()
            ));
        }
        self.pictures = Some(dir);
        self.drawn = 0;
        Ok(self.draw_new())
    }

    /// One line of input: what to print, and whether to go on.
    pub async fn line(&mut self, line: &str) -> (Vec<String>, Flow) {
        let (mut out, flow) = self.line_said(line).await;
        out.extend(self.draw_new());
        (out, flow)
    }

    async fn line_said(&mut self, line: &str) -> (Vec<String>, Flow) {
        let line = line.trim();
        let (named, line) = split_speaker(line);
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        match word.as_str() {
            "" if named.is_none() => return (Vec::new(), Flow::Continue),
            "quit" | "exit" => return (self.left(), Flow::Quit),
            "help" | "?" => return (vec![self.say(self.help())], Flow::Continue),
            "board" => {
                let mut out = self.board();
                out.extend(self.draw_board());
                return (out, Flow::Continue);
            }
            "status" => return (vec![self.status()], Flow::Continue),
            _ => {}
        }
        let actor = match named {
            Some(name) => match self.cast.actor(name) {
                Some(actor) => Some(actor),
                None => {
                    let e = format!(
                        "`{name}` is not at this table; the names are: {}",
                        self.cast.names()
                    );
                    return (vec![self.error(&e)], Flow::Continue);
                }
            },
            None => None,
        };
        let command = match parse_command(&word, rest, self.set()) {
            Ok(c) => c,
            Err(e) => return (vec![self.error(&e)], Flow::Continue),
        };
        let action = match command {
            Command::Act(a) => a,
            Command::End => match actor {
                Some(Actor::Host(_)) => Action::End,
                Some(_) => Action::EndTurn,
                None => {
                    let e = "`end` alone could mean two things: `end turn` passes the turn; \
                             `host: end` ends the match with no winner";
                    return (vec![self.error(e)], Flow::Continue);
                }
            },
            Command::Pass => self.pass(),
            Command::Start(name) => match self.cast.actor(&name) {
                Some(Actor::Player(starter)) => Action::ChooseStarter { starter },
                _ => {
                    let e = format!("`{name}` does not play here; start one of the players");
                    return (vec![self.error(&e)], Flow::Continue);
                }
            },
        };
        let actor = match actor.map_or_else(|| self.default_actor(&action), Ok) {
            Ok(a) => a,
            Err(e) => return (vec![self.error(&e)], Flow::Continue),
        };
        self.act(actor, action).await
    }

    /// What happens by itself (a clock running out): waits for it. `Over` once the
    /// match has ended.
    pub async fn news(&mut self) -> (Vec<String>, Flow) {
        match self.feed.next().await {
            Some(Ok(update)) => {
                let mut out = self.tell(&[update]);
                out.extend(self.draw_new());
                (out, self.flow())
            }
            Some(Err(e)) => (vec![self.error(&e.to_string())], Flow::Continue),
            None => (Vec::new(), Flow::Over),
        }
    }

    /// `pass` means "nothing from me now": skip step 1, end step 2, or no answer.
    fn pass(&self) -> Action {
        match self.duel_view().map(|v| v.phase) {
            Some(PhaseView::Turn { step, .. }) => match step {
                StepView::Build => Action::Skip,
                StepView::Challenge { .. } => Action::Answer {
                    answer: Answer::Pass,
                },
                _ => Action::EndTurn,
            },
            _ => Action::EndTurn,
        }
    }

    /// Who a command without a name is from.
    fn default_actor(&self, action: &Action) -> Result<Actor, String> {
        let Some(view) = self.duel_view() else {
            return Ok(Actor::Player(YOU));
        };
        let player = |seat: crate::rules::zendo::Seat| Actor::Player(view.players[seat.index()]);
        let [a, b] = [0, 1].map(|i| self.cast.players[i].1.clone());
        match action {
            Action::Pause | Action::Resume | Action::Disallow | Action::End => {
                match &self.cast.host {
                    Some((id, _)) => Ok(Actor::Host(*id)),
                    None => Err("this match has no host".into()),
                }
            }
            Action::ChooseStarter { .. } => Ok(player(view.advantage)),
            Action::Answer { .. } => Err(format!(
                "say who answers: `{a}: answer obeys` or `{b}: answer not` (both players \
                 answer a challenge)"
            )),
            Action::Resign => Err(format!("say who resigns: `{a}: resign` or `{b}: resign`")),
            _ => match view.phase {
                PhaseView::Turn { seat, .. } => Ok(player(seat)),
                PhaseView::ChoosingStarter => {
                    let adv = self.narrator.name(view.advantage);
                    Err(format!(
                        "first {adv}, who has the advantage, chooses who starts: `{adv}: start \
                         {a}` or `{adv}: start {b}`"
                    ))
                }
                PhaseView::Over => Err("the match is over".into()),
            },
        }
    }

    async fn act(&mut self, actor: Actor, action: Action) -> (Vec<String>, Flow) {
        let mut out = Vec::new();
        let answered = matches!(action, Action::Answer { .. });
        match self.runtime.act(self.id, actor, action, None).await {
            Ok(ack) => {
                if answered && self.cast.is_duel() {
                    // The spectator feed does not carry the answer: say only that it
                    // is in, before the reveal it may have caused.
                    let name = self.cast.actor_name(&actor);
                    out.push(if self.json {
                        json!({"event": "answered", "player": name}).to_string()
                    } else {
                        format!("{name}'s answer is in")
                    });
                }
                match self.feed.until(ack.seq).await {
                    Ok(updates) => out.extend(self.tell(&updates)),
                    Err(e) => out.push(self.error(&e.to_string())),
                }
            }
            Err(ActError::Refused(e)) => out.push(self.refusal(&actor, &e)),
            Err(ActError::Runtime(e)) => out.push(self.error(&e.to_string())),
        }
        out.extend(self.await_verdict().await);
        (out, self.flow())
    }

    fn flow(&self) -> Flow {
        if outcome(&self.feed.view()).is_some() {
            Flow::Over
        } else {
            Flow::Continue
        }
    }

    /// A refusal, said with the names of the people at the table.
    fn refusal(&self, actor: &Actor, e: &RuleError) -> String {
        let text = match e {
            RuleError::NotYourTurn { waiting_for } => {
                format!(
                    "it is not your turn: waiting for {}",
                    self.cast.name_of(*waiting_for)
                )
            }
            RuleError::NotInMatch(id) => format!("{} is not playing", self.cast.name_of(*id)),
            other => other.to_string(),
        };
        if self.cast.is_duel() {
            self.error(&format!("{}: {text}", self.cast.actor_name(actor)))
        } else {
            self.error(&text)
        }
    }

    /// Says the events of some updates, and draws the structures they put on the table.
    fn tell(&mut self, updates: &[Update<ZendoMatch>]) -> Vec<String> {
        let mut out = Vec::new();
        for u in updates {
            let score = match &u.view {
                ZendoView::Practice(v) => Some(v.score.total()),
                ZendoView::Duel(_) => None,
            };
            for (_, e) in &u.events {
                out.push(self.event(e, score));
            }
        }
        out
    }

    /// While an official guess waits for the umpire, its answer is the next thing to
    /// say: wait for it.
    async fn await_verdict(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while judging(&self.feed.view()) {
            match self.feed.next().await {
                Some(Ok(u)) => out.extend(self.tell(&[u])),
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

    /// The piece set the match plays with.
    fn set(&self) -> PieceSet {
        match self.feed.view() {
            ZendoView::Duel(v) => v.settings.set,
            ZendoView::Practice(v) => v.settings.set,
        }
    }

    /// Pictures of the structures that joined the table since the last call, when
    /// drawing (`--png`): one line each saying where it went.
    fn draw_new(&mut self) -> Vec<String> {
        let Some(dir) = self.pictures.clone() else {
            return Vec::new();
        };
        let table = table(&self.feed.view());
        let mut out = Vec::new();
        for e in table.iter().skip(self.drawn) {
            let picture = Picture {
                mark: Some(mark(e.obeys)),
                caption: Some(format!("#{}", e.number)),
            };
            let path = dir.join(format!("match-{}-koan-{}.png", self.id.0, e.number));
            out.push(self.wrote(
                &path,
                &render::koan_png(&e.koan, &picture),
                json!({"event": "picture", "number": e.number, "koan": e.koan.to_line()}),
                &format!("#{} {}", e.number, e.koan.to_line()),
            ));
        }
        self.drawn = table.len();
        out
    }

    /// The table as one board picture (its latest structures when it is larger than a
    /// board holds), when drawing.
    fn draw_board(&self) -> Vec<String> {
        let Some(dir) = &self.pictures else {
            return Vec::new();
        };
        let table = table(&self.feed.view());
        let shown = &table[table.len().saturating_sub(render::MAX_BOARD)..];
        let entries: Vec<BoardEntry> = shown
            .iter()
            .map(|e| BoardEntry {
                koan: &e.koan,
                mark: Some(mark(e.obeys)),
                label: format!("#{}", e.number),
            })
            .collect();
        let path = dir.join(format!("match-{}-board.png", self.id.0));
        match render::board_png(&entries) {
            Ok(png) => vec![self.wrote(
                &path,
                &png,
                json!({"event": "picture", "board": entries.len()}),
                &format!("the board ({} structures)", entries.len()),
            )],
            Err(e) => vec![self.error(&e.to_string())],
        }
    }

    /// Writes a picture and says where (`value` is its JSON line, `what` its words).
    fn wrote(&self, path: &Path, png: &[u8], mut value: serde_json::Value, what: &str) -> String {
        match std::fs::write(path, png) {
            Ok(()) if self.json => {
                value["path"] = path.display().to_string().into();
                value.to_string()
            }
            Ok(()) => format!("picture of {what}: {}", path.display()),
            Err(e) => self.error(&format!("cannot write {}: {e}", path.display())),
        }
    }

    fn duel_view(&self) -> Option<DuelView> {
        match self.feed.view() {
            ZendoView::Duel(v) => Some(v),
            ZendoView::Practice(_) => None,
        }
    }

    fn status(&self) -> String {
        match self.feed.view() {
            ZendoView::Duel(v) => self.duel_status(&v),
            ZendoView::Practice(v) => {
                let step = match v.step {
                    PracticeStep::Play => "build a koan or guess".to_string(),
                    PracticeStep::Pending { guess } => {
                        format!("confirm or take back guess #{guess}")
                    }
                    PracticeStep::Verdict { guess } => {
                        format!("the umpire is judging guess #{guess}")
                    }
                    PracticeStep::Over => "the game is over".to_string(),
                };
                if self.json {
                    json!({"event": "status", "match": self.id.0, "step": v.step,
                           "koans": v.score.koans, "guesses": v.score.guesses,
                           "revealed": v.revealed})
                    .to_string()
                } else {
                    format!(
                        "match {}: {step}; {} koans built, {} guesses judged",
                        self.id, v.score.koans, v.score.guesses
                    )
                }
            }
        }
    }

    /// Whose move, the tickets, and the time left on the clocks (game clock, now).
    fn duel_status(&self, v: &DuelView) -> String {
        let now = self.runtime.now();
        let name = |s: crate::rules::zendo::Seat| self.narrator.name(s);
        let turn_left = v.clock.remaining(now);
        let (player, step) = match &v.phase {
            PhaseView::ChoosingStarter => (
                Some(name(v.advantage)),
                "to choose who starts (start NAME)".to_string(),
            ),
            PhaseView::Over => (None, "the match is over".to_string()),
            PhaseView::Turn { seat, step } => (
                Some(name(*seat)),
                match step {
                    StepView::Build => "step 1: koan STRUCTURE [observe|challenge], or skip".into(),
                    StepView::Challenge { .. } => "challenged: both players answer".into(),
                    StepView::Guess => "step 2: guess PATTERN, or end turn".into(),
                    StepView::Pending { guess } => format!("confirm or take back guess #{guess}"),
                    StepView::Verdict { guess } => format!("the umpire judges guess #{guess}"),
                },
            ),
        };
        let challenge = challenge(v);
        if self.json {
            let tickets: serde_json::Map<_, _> = crate::rules::zendo::Seat::BOTH
                .iter()
                .map(|s| (name(*s), v.tickets[s.index()].into()))
                .collect();
            let step_code = match &v.phase {
                PhaseView::Turn { step, .. } => serde_json::to_value(step)
                    .ok()
                    .and_then(|s| s["step"].as_str().map(String::from)),
                _ => None,
            };
            let mut value = json!({
                "event": "status", "match": self.id.0, "game": "duel", "version": v.version,
                "phase": serde_json::to_value(&v.phase).ok().and_then(|p| p["phase"].as_str().map(String::from)),
                "turn": v.turn, "player": player, "step": step_code, "tickets": tickets,
                "turn_left_ms": turn_left, "turn_clock_running": v.clock.is_running(),
                "paused": v.paused, "advantage": name(v.advantage), "table": v.table.len(),
                "guesses": v.guesses.len(), "revealed": v.revealed,
            });
            if let Some((koan, answered, clock)) = challenge {
                let answered: serde_json::Map<_, _> = crate::rules::zendo::Seat::BOTH
                    .iter()
                    .map(|s| (name(*s), answered[s.index()].into()))
                    .collect();
                value["challenge"] = json!({"koan": koan.to_line(), "answered": answered,
                                            "left_ms": clock.remaining(now)});
            }
            return value.to_string();
        }
        let mut text = format!("match {}", self.id);
        if v.turn > 0 {
            text.push_str(&format!(", turn {}", v.turn));
        }
        if let Some(p) = player {
            text.push_str(&format!(": {p}, {step}"));
        } else {
            text.push_str(&format!(": {step}"));
        }
        if v.phase != PhaseView::Over && v.phase != PhaseView::ChoosingStarter {
            text.push_str(&format!(
                "; turn clock {}{}",
                clock_text(turn_left),
                if v.clock.is_running() {
                    ""
                } else {
                    " (stopped)"
                }
            ));
        }
        if let Some((koan, answered, clock)) = challenge {
            let who: Vec<String> = crate::rules::zendo::Seat::BOTH
                .iter()
                .map(|s| {
                    format!(
                        "{} {}",
                        name(*s),
                        if answered[s.index()] {
                            "answered"
                        } else {
                            "not yet"
                        }
                    )
                })
                .collect();
            text.push_str(&format!(
                "; challenge on {}: {} ({} left)",
                koan.to_line(),
                who.join(", "),
                clock_text(clock.remaining(now))
            ));
        }
        text.push_str(&format!(
            "; tickets: {} {}, {} {}",
            name(crate::rules::zendo::Seat::First),
            v.tickets[0],
            name(crate::rules::zendo::Seat::Second),
            v.tickets[1]
        ));
        if v.paused {
            text.push_str("; PAUSED by the host");
        }
        text
    }

    fn board(&self) -> Vec<String> {
        let table = table(&self.feed.view());
        if self.json {
            let table: Vec<_> = table
                .iter()
                .map(|e| {
                    json!({"number": e.number, "koan": e.koan.to_line(), "obeys": e.obeys,
                           "origin": e.origin})
                })
                .collect();
            return vec![json!({"event": "board", "table": table}).to_string()];
        }
        table
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

    fn event(&mut self, e: &Event, score: Option<u32>) -> String {
        let (value, text) = self.narrator.say(e, score);
        if self.json { value.to_string() } else { text }
    }
}

/// `NAME: rest` → the name and the rest; a line without a leading one-word name and a
/// colon has no speaker.
fn split_speaker(line: &str) -> (Option<&str>, &str) {
    match line.split_once(':') {
        Some((name, rest))
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            (Some(name), rest.trim())
        }
        _ => (None, line),
    }
}

fn parse_command(word: &str, rest: &str, set: PieceSet) -> Result<Command, String> {
    Ok(Command::Act(match (word, rest) {
        ("", _) => return Err("say what, after the name: e.g. `alice: koan 1^ 2>`".into()),
        ("koan", text) => koan_command(text, set)?,
        ("guess", "") => {
            return Err("write the pattern after `guess`, e.g. guess some piece points up".into());
        }
        ("guess", text) => Action::Guess {
            pattern: lang::parse(text).map_err(|e| format!("the guess does not read: {e}"))?,
        },
        ("confirm", _) => Action::Confirm,
        ("take", "back") | ("takeback", _) => Action::TakeBack,
        ("give", "up") | ("resign", _) => Action::Resign,
        ("pass", _) => return Ok(Command::Pass),
        ("skip", _) => Action::Skip,
        ("end", "turn") | ("endturn", _) => Action::EndTurn,
        ("end", "match" | "game") => Action::End,
        ("end", "") => return Ok(Command::End),
        ("start", "") => return Err("say who starts: e.g. `start alice`".into()),
        ("start", name) => return Ok(Command::Start(name.to_string())),
        ("answer", "") => {
            return Err("answer `obeys`, `not` or `pass`, e.g. `bob: answer obeys`".into());
        }
        ("answer", text) => Action::Answer {
            answer: text.parse()?,
        },
        ("pause", _) => Action::Pause,
        ("resume", _) => Action::Resume,
        ("disallow", _) => Action::Disallow,
        _ => return Err(format!("`{word}` is not a command; `help` lists them")),
    }))
}

/// `koan STRUCTURE [observe|challenge]`: the structure on one line (rows separated by
/// `/`), in the match's piece set's notation, the mode last.
fn koan_command(text: &str, set: PieceSet) -> Result<Action, String> {
    if text.is_empty() {
        let example = match set {
            PieceSet::Pyramids => "koan 1^ 2>",
            PieceSet::Arrows => "koan U R / . D",
        };
        return Err(format!(
            "write the structure after `koan`, e.g. {example} (rows separated by /)"
        ));
    }
    let (structure, mode) = match text
        .rsplit_once(char::is_whitespace)
        .map(|(s, m)| (s, m.parse::<Mode>()))
    {
        Some((s, Ok(mode))) => (s, mode),
        _ => (text, Mode::Observe),
    };
    let koan = Koan::parse_as(&structure.replace('/', "\n"), set)
        .map_err(|e| format!("the structure does not read: {e}"))?;
    Ok(Action::Build { koan, mode })
}

/// The running challenge: its structure, who answered, its clock.
fn challenge(v: &DuelView) -> Option<(&Koan, [bool; 2], crate::rules::Clock)> {
    match &v.phase {
        PhaseView::Turn {
            step:
                StepView::Challenge {
                    koan,
                    answered,
                    clock,
                    ..
                },
            ..
        } => Some((koan, *answered, *clock)),
        _ => None,
    }
}

fn table(view: &ZendoView) -> Vec<TableEntry> {
    match view {
        ZendoView::Duel(v) => v.table.clone(),
        ZendoView::Practice(v) => v.table.clone(),
    }
}

fn outcome(view: &ZendoView) -> Option<Outcome> {
    match view {
        ZendoView::Duel(v) => v.outcome,
        ZendoView::Practice(v) => v.outcome,
    }
}

/// Whether an official guess waits for the umpire.
fn judging(view: &ZendoView) -> bool {
    match view {
        ZendoView::Duel(v) => matches!(
            v.phase,
            PhaseView::Turn {
                step: StepView::Verdict { .. },
                ..
            }
        ),
        ZendoView::Practice(v) => matches!(v.step, PracticeStep::Verdict { .. }),
    }
}

fn mark(obeys: bool) -> Mark {
    if obeys { Mark::Obeys } else { Mark::DoesNot }
}

/// m:ss
fn clock_text(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}
