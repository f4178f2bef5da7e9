//! What both fronts use, below both (the Discord front and the terminal's subcommands
//! never depend on each other): the configuration ([`config`], [`files`], [`shards`]),
//! the replay and profile pages ([`page`], [`profile`]), the AI seats ([`ai`]), a
//! table's pictures ([`pictures`]), and the terminal's session machine.
//!
//! The terminal front: every game over the same runtime and store as the bot, one
//! command per line, named like the slash commands. At a shared table each line may
//! start with who says it (`alice: koan 1^ 2> challenge`, `host: pause`). What happens
//! is printed as text, or with `--json` as one JSON object per line for programs.
//!
//! One session loop for every game ([`Session`]): `quit`, `help`, `board`, `status`,
//! `sketch` (a private sketch board, `sketch.rs`) and `NAME:` are handled here;
//! everything else is the game's grammar, help and words, in each game's own folder
//! under [`games`] (the path the registry gives it), behind [`Terminal`] and
//! [`GameFront`].
//!
//! [`Session::line`] takes one line and returns what to print, and [`Session::news`]
//! waits for what happens by itself (time-outs), so the front is tested without a
//! terminal; `mondo play` (mondo-terminal's `play.rs`) feeds them standard input and
//! the match's clock.
//!
//! A shared table's output is what a spectator may see: a challenge answer is said to
//! be in, never what it is, until the reveal.

pub mod ai;
pub mod args;
pub mod authors;
pub mod bench;
pub mod commands;
pub mod config;
pub mod files;
mod front;
pub mod games;
pub mod logged;
pub mod machine;
pub mod page;
pub mod pictures;
pub mod profile;
pub mod rehearsal;
pub mod replay;
pub mod scoreboard;
pub mod shards;
mod sketch;

pub use args::HOST;
pub use front::{
    CLEAR_SCREEN, Cast, DEFAULT_DB, Entered, Flow, GameFront, HELP_TOPICS, HelpTopic, Input,
    MAX_LINE, NO_HOST, Request, Terminal, VERBS, Verb, YOU, help_from_docs, notation_help,
    place_words_help, read_input, verb_of,
};
pub use pictures::{INLINE_PICTURE, Picture, Protocol, pictures_folder};

// The layers below, under the names this crate's code gives them.
pub(crate) use mondo_narrate as narrate;
pub(crate) use mondo_render as render;
pub(crate) use mondo_rules::{
    PieceSet, finder, grid, koan, lang, pool, ratings, registry, rules, student,
};
pub(crate) use mondo_runtime as runtime;
pub(crate) use mondo_store as store;

use crate::narrate::Line;
use crate::rules::{Actor, GameKind, PlayerId, RuleError, Viewer};
use crate::runtime::{
    ActError, AnyAction, AnyEvent, AnyMatch, AnySetup, AnyView, Place, Runtime, RuntimeError,
    Subscription, Update,
};
use crate::store::{Backend, Location, MatchFilter, MatchId, Status, StoreError};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The front for a match of `kind` played by `cast`.
pub fn front_for(kind: GameKind, cast: &Cast, view: &AnyView) -> Box<dyn GameFront> {
    debug_assert_eq!(kind, view.kind());
    games::front_for(cast, view)
}

/// A game in progress at the terminal.
pub struct Session {
    runtime: Runtime<AnyMatch>,
    id: MatchId,
    /// As the solo player, or at a shared table as a spectator (the output is shared).
    feed: Subscription<AnyMatch>,
    json: bool,
    cast: Cast,
    front: Box<dyn GameFront>,
    /// `--png DIR`: where pictures go.
    pictures: Option<PathBuf>,
    /// Whether pictures are also shown inline ([`pictures::inline_protocol`]).
    inline: bool,
    /// The pictures to show inline, in the order of their [`INLINE_PICTURE`] items.
    to_show: Vec<Vec<u8>>,
    /// Each player's own feed, for a game whose players keep secrets from each other
    /// ([`GameFront::private`]).
    private: Vec<(PlayerId, Subscription<AnyMatch>)>,
    /// The last event recorded as said here.
    recorded: u64,
    /// The seats the AI plays ([`Session::seat_machines`]): a line typed at the
    /// keyboard never acts for them.
    machines: Vec<PlayerId>,
    /// Whether the line being handled was typed at the keyboard.
    typed: bool,
    /// Whether what the match did to the ratings was said (once, when it is over).
    rated_said: bool,
}

impl Session {
    /// Starts a new match.
    pub async fn start(
        runtime: Runtime<AnyMatch>,
        setup: AnySetup,
        cast: Cast,
        chosen_by: Option<PlayerId>,
        json: bool,
    ) -> Result<(Session, Vec<String>), RuntimeError> {
        let id = runtime
            .create_by(Place::default(), setup, chosen_by.map(|p| p.0))
            .await?;
        let rated = cast.rated_line(chosen_by, json);
        let (session, mut lines) = Session::open(runtime, id, cast, json, "started").await?;
        if let Some(line) = rated {
            lines.insert(lines.len().min(1), line);
        }
        Ok((session, lines))
    }

    /// Resumes an unfinished match in the store, whatever its game: `which`, or else
    /// the only one there is; the host of a shared table is `host` (none: no host). With several and
    /// no `which`, nothing is opened: the error lists them, each with the command that
    /// goes back to it.
    pub async fn resume(
        runtime: Runtime<AnyMatch>,
        which: Option<MatchId>,
        host: Option<&str>,
        json: bool,
    ) -> Result<Option<(Session, Vec<String>)>, String> {
        let unfinished = unfinished(&runtime).await?;
        let record = match which {
            Some(id) => match unfinished.iter().find(|u| u.record.id == id) {
                Some(u) => u.record.clone(),
                // On a shared database: a match nobody runs, asked for by its id (a
                // bot's), runs here; one another process runs is said with who and
                // what to do.
                None => match runtime.run_match(id).await {
                    Ok(()) => runtime
                        .store()
                        .record(id)
                        .await
                        .ok()
                        .flatten()
                        .ok_or_else(|| {
                            format!("there is no match {id} in {}", runtime.store().location())
                        })?,
                    Err(e @ RuntimeError::Store(StoreError::Leased { .. })) => {
                        return Err(held_elsewhere(&runtime, id, &e));
                    }
                    Err(_) => return Err(not_resumable(&runtime, id, &unfinished).await),
                },
            },
            None => match unfinished.as_slice() {
                [] => return Ok(None),
                [only] => only.record.clone(),
                several => {
                    let db = runtime.store().location();
                    return Err(format!(
                        "{} unfinished matches in {}; say which to go on with:\n{}",
                        several.len(),
                        db,
                        several
                            .iter()
                            .map(|u| format!("  {}", u.text(db)))
                            .collect::<Vec<_>>()
                            .join("\n")
                    ));
                }
            },
        };
        // Taken here (on a shared database, where it is not yet this process's).
        match runtime.run_match(record.id).await {
            Ok(()) => {}
            Err(e @ RuntimeError::Store(StoreError::Leased { .. })) => {
                return Err(held_elsewhere(&runtime, record.id, &e));
            }
            Err(e) => return Err(e.to_string()),
        }
        let host = host.filter(|_| record.players.len() > 1);
        let cast = Cast::of_match(runtime.store(), &record.players, host).await?;
        Session::open(runtime, record.id, cast, json, "resumed")
            .await
            .map(Some)
            .map_err(|e| e.to_string())
    }

    /// The other unfinished matches of the store, each said with how to go back to it
    /// (said when a new match starts: their clocks run on in the store).
    pub async fn others_unfinished(&self) -> Vec<String> {
        let db = self.runtime.store().location();
        match unfinished(&self.runtime).await {
            Ok(all) => all
                .iter()
                .filter(|u| u.record.id != self.id)
                .map(|u| {
                    if self.json {
                        let mut line = u.json(db);
                        line["event"] = "unfinished".into();
                        line.to_string()
                    } else {
                        format!("also unfinished: {}", u.text(db))
                    }
                })
                .collect(),
            Err(e) => vec![self.error(&e)],
        }
    }

    async fn open(
        runtime: Runtime<AnyMatch>,
        id: MatchId,
        cast: Cast,
        json: bool,
        how: &str,
    ) -> Result<(Session, Vec<String>), RuntimeError> {
        let viewer = if cast.is_table() {
            Viewer::Spectator
        } else {
            Viewer::Player(cast.me())
        };
        let feed = runtime.subscribe(id, viewer).await?;
        let view = feed.view();
        let mut front = front_for(view.kind(), &cast, &view);
        let players: Vec<&str> = cast.players.iter().map(|(_, n)| &**n).collect();
        let mut out = vec![if json {
            json!({"event": how, "match": id.0, "game": front.game_name(), "players": players,
                   "host": cast.host.as_ref().map(|(_, n)| n)})
            .to_string()
        } else if cast.is_table() {
            format!(
                "match {id} {how}: {}, {} (host: {}).\n{}",
                view.kind().title().to_ascii_lowercase(),
                players.join(" vs "),
                cast.host.as_ref().map_or("none", |(_, n)| n),
                front.help()
            )
        } else {
            format!(
                "match {id} {how}: {}. {}",
                view.kind().title().to_ascii_lowercase(),
                front.help()
            )
        }];
        if how == "resumed" {
            out.extend(unsaid(&runtime, id, &viewer, feed.seq(), &mut *front, &view, json).await);
        }
        out.extend(render(&front.opening(id, &view, runtime.now()), json));
        let mut private = Vec::new();
        if front.private() && cast.is_table() {
            for (player, _) in &cast.players {
                let feed = runtime.subscribe(id, Viewer::Player(*player)).await?;
                out.extend(render(&front.mine(*player, &feed.view()), json));
                private.push((*player, feed));
            }
        }
        let mut session = Session {
            runtime,
            id,
            feed,
            json,
            cast,
            front,
            pictures: None,
            inline: false,
            to_show: Vec::new(),
            private,
            recorded: 0,
            machines: Vec::new(),
            typed: false,
            rated_said: false,
        };
        // Something may have been waiting for the umpire when the game was left.
        out.extend(session.await_umpire().await);
        session.said().await;
        Ok((session, out))
    }

    pub fn id(&self) -> MatchId {
        self.id
    }

    pub fn runtime(&self) -> &Runtime<AnyMatch> {
        &self.runtime
    }

    /// Who plays, and who hosts.
    pub fn cast(&self) -> &Cast {
        &self.cast
    }

    /// Draws every picture from now on, into `dir` (`--png DIR`) and, with `inline`,
    /// on the terminal too: what is on the table now (returned: where each went), then
    /// each as it joins, and the whole table on `board`. The folder is made if missing
    /// ([`pictures_folder`]). Inline pictures are [`INLINE_PICTURE`] items, whose PNGs
    /// [`Session::take_inline`] gives.
    pub fn draw_pictures(
        &mut self,
        dir: Option<PathBuf>,
        inline: bool,
    ) -> Result<Vec<String>, String> {
        if let Some(dir) = &dir {
            pictures_folder(dir)?;
        }
        self.pictures = dir;
        self.inline = inline && !self.json;
        Ok(self.draw_new())
    }

    /// The PNGs of the [`INLINE_PICTURE`] items returned since the last call, in order.
    pub fn take_inline(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.to_show)
    }

    /// Said at the start in text when no pictures are drawn, for a game that draws
    /// them: how to have them.
    pub fn pictures_hint(&self) -> Option<String> {
        let drawn = self.pictures.is_some() || self.inline;
        (!self.json && !drawn && self.front.draws()).then(|| {
            "pictures: start with `--png DIR` to have each structure drawn as a PNG in DIR \
             (made if missing), and the whole table on `board`; `--pictures \
             kitty|iterm|sixel|blocks` shows them here too"
                .to_string()
        })
    }

    /// One line of input: what to print, and whether to go on.
    pub async fn line(&mut self, line: &str) -> (Vec<String>, Flow) {
        let (mut out, flow) = self.line_said(line).await;
        out.extend(self.draw_new());
        (out, flow)
    }

    /// One line of input as read: a line of text is [`Session::line`]; a line that is
    /// not text or too long is refused (the game goes on).
    pub async fn input(&mut self, input: Input) -> (Vec<String>, Flow) {
        let why = match input {
            Input::Line(line) => {
                self.typed = true;
                let said = self.line(&line).await;
                self.typed = false;
                return said;
            }
            Input::NotText { line, at, byte } => format!(
                "input line {line} is not text (byte {at} is 0x{byte:02x}, which is not \
                 UTF-8); it was ignored: type the command again"
            ),
            Input::TooLong { line, bytes } => format!(
                "input line {line} is {bytes} bytes long; a command is at most {MAX_LINE} \
                 bytes, so it was ignored"
            ),
        };
        (vec![self.error(&why)], Flow::Continue)
    }

    async fn line_said(&mut self, line: &str) -> (Vec<String>, Flow) {
        let line = line.trim();
        let (named, line) = split_speaker(line);
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let view = self.feed.view();
        if word.is_empty() && named.is_none() {
            return (Vec::new(), Flow::Continue);
        }
        if word == "hint" {
            return (vec![self.say(&self.front.hint(&view))], Flow::Continue);
        }
        if word == "why" {
            let said = match self.front.why(&view, &self.cast) {
                Ok(lines) => self.render(&lines),
                Err(e) => vec![self.error(&e)],
            };
            return (said, Flow::Continue);
        }
        let verb = verb_of(&word, rest, self.front.claims());
        match verb {
            Some(Verb::Quit) => return (self.left(), Flow::Quit),
            Some(Verb::Help) => return (vec![self.say(&self.help(rest))], Flow::Continue),
            Some(Verb::Board) => {
                let mut out = self.render(&self.front.board(&view));
                out.extend(self.mine(named));
                out.extend(self.draw_board());
                return (out, Flow::Continue);
            }
            Some(Verb::Status) => {
                let line = self.front.status(self.id, &view, self.runtime.now());
                let mut out = vec![line.render(self.json)];
                out.extend(self.mine(named));
                return (out, Flow::Continue);
            }
            Some(Verb::Act(_)) | None => {}
        }
        let named = match named {
            Some(name) => match self.cast.actor(name) {
                Some(actor) => Some(actor),
                None if self.cast.host().is_none() && name.eq_ignore_ascii_case(HOST) => {
                    return (vec![self.error(NO_HOST)], Flow::Continue);
                }
                None => {
                    let e = format!(
                        "`{name}` is not at this table; the names are: {}",
                        self.cast.names_list()
                    );
                    return (vec![self.error(&e)], Flow::Continue);
                }
            },
            None => None,
        };
        if word == "sketch" {
            return (self.sketch(named.as_ref(), rest), Flow::Continue);
        }
        let command = match verb {
            Some(Verb::Act(action)) => match self.front.refuses(action) {
                Some(why) => Err(why.to_string()),
                None => named
                    .map_or_else(|| self.front.common_actor(action, &self.cast), Ok)
                    .map(|actor| (actor, AnyAction::Common(action))),
            },
            _ => self
                .front
                .command(Entered(&word, rest, named, &view, &self.cast)),
        };
        match command {
            Ok((actor, action)) => self.act(actor, action).await,
            // What is wrong with someone's command is said to them.
            Err(e) => (vec![self.error_to(named.as_ref(), &e)], Flow::Continue),
        }
    }

    /// `help`, or `help TOPIC` ([`HELP_TOPICS`]).
    fn help(&self, topic: &str) -> String {
        let topic = topic.trim().to_ascii_lowercase();
        if let Some(t) = HELP_TOPICS
            .iter()
            .find(|t| t.names.contains(&topic.as_str()))
        {
            return (t.text)(&*self.front);
        }
        let unknown = if topic.is_empty() {
            String::new()
        } else {
            format!("(there is no help on `{topic}`; here is the game's)\n")
        };
        format!(
            "{unknown}{}\n`help words` lists the words you may use, with examples; `help \
             notation` says how to type a structure.",
            self.front.help()
        )
    }

    /// What happens by itself (a clock running out): waits for it. `Over` once the
    /// match has ended. The front waits for it alongside the input and drops it when a
    /// line comes first, so nothing is awaited once an update is taken (its lines would
    /// be lost): what the last one said is recorded here first, before waiting.
    pub async fn news(&mut self) -> (Vec<String>, Flow) {
        self.said().await;
        match self.feed.next().await {
            Some(Ok(update)) => {
                let seq = update.seq;
                let mut out = self.tell(&[update]);
                out.extend(self.tell_private(seq).await);
                out.extend(self.draw_new());
                out.extend(self.rating_changes().await);
                (out, self.flow())
            }
            Some(Err(e)) => (vec![self.error(&e.to_string())], Flow::Continue),
            None => (Vec::new(), Flow::Over),
        }
    }

    /// Said when a match an AI student played is over and its table stays open.
    pub fn after_the_end(&self) -> String {
        self.say(
            "the match is over: `why` says what the AI believed after each structure, \
             `board` shows the table; `quit` leaves",
        )
    }

    /// The seats the AI plays: their moves come only from the AI, never from a line
    /// typed at the keyboard (docs/ratings.md, "Fair play": seats are identities).
    pub fn seat_machines(&mut self, players: impl IntoIterator<Item = PlayerId>) {
        self.machines = players.into_iter().collect();
    }

    async fn act(&mut self, actor: Actor, action: AnyAction) -> (Vec<String>, Flow) {
        if self.typed
            && let Actor::Player(id) = actor
            && self.machines.contains(&id)
        {
            let e = format!(
                "{} is the AI's seat: only the AI plays its moves, so nothing was recorded;                  type your own moves as {}",
                self.cast.name_of(id),
                self.cast
                    .players()
                    .iter()
                    .filter(|(p, _)| !self.machines.contains(p))
                    .map(|(_, n)| format!("`{n}: ...`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
            return (vec![self.error(&e)], Flow::Continue);
        }
        let mut out = Vec::new();
        match self.runtime.act(self.id, actor, action, None).await {
            Ok(ack) => {
                match self.feed.until(ack.seq).await {
                    Ok(updates) => out.extend(self.tell(&updates)),
                    Err(e) => out.push(self.error(&e.to_string())),
                }
                out.extend(self.tell_private(ack.seq).await);
            }
            Err(ActError::Refused(e)) => out.push(self.refusal(&actor, &e)),
            Err(ActError::Runtime(e)) => out.push(self.error(&e.to_string())),
        }
        out.extend(self.await_umpire().await);
        out.extend(self.rating_changes().await);
        self.said().await;
        (out, self.flow())
    }

    /// Records that what the feed covers has been said here, so a session resumed after
    /// the process died says what was committed but never said (see [`unsaid`]); once
    /// per event number.
    async fn said(&mut self) {
        if self.feed.seq() <= self.recorded {
            return;
        }
        self.recorded = self.feed.seq();
        if let Err(e) = self
            .runtime
            .store()
            .set_announced(self.id, self.feed.seq())
            .await
        {
            tracing::warn!(id = %self.id, error = %e, "could not record what was said");
        }
    }

    /// Once the match is over, what it did to each player's rating, once: `ratings:
    /// alice 1500 -> 1662? (+162), bob 1500 -> 1338? (-162)` (JSON: a `ratings`
    /// event). Nothing for a match that counted for nothing. The ratings moved in the
    /// transaction of the last event, so they are there to read.
    async fn rating_changes(&mut self) -> Vec<String> {
        if self.rated_said || !self.front.is_over(&self.feed.view()) {
            return Vec::new();
        }
        self.rated_said = true;
        let changes = match self.runtime.store().rating_changes(self.id).await {
            Ok(changes) if !changes.is_empty() => changes,
            Ok(_) => return Vec::new(),
            Err(e) => return vec![self.error(&format!("the rating changes do not read: {e}"))],
        };
        let name = |c: &crate::store::RatingChange| self.cast.name_of(PlayerId(c.player));
        vec![if self.json {
            let rows: Vec<serde_json::Value> = changes
                .iter()
                .map(|c| {
                    let two = |x: f64| (x * 100.0).round() / 100.0;
                    json!({"player": name(c), "result": c.result.as_str(),
                           "rating_before": two(c.rating_before),
                           "rating_after": two(c.rating_after),
                           "rating_change": two(c.rating_after - c.rating_before),
                           "provisional": crate::ratings::is_provisional(c.deviation_after)})
                })
                .collect();
            json!({"event": "ratings", "match": self.id.0, "changes": rows}).to_string()
        } else {
            let said: Vec<String> = changes
                .iter()
                .map(|c| format!("{} {}", name(c), c.said()))
                .collect();
            format!("ratings: {}", said.join(", "))
        }]
    }

    fn flow(&self) -> Flow {
        if self.front.is_over(&self.feed.view()) {
            Flow::Over
        } else {
            Flow::Continue
        }
    }

    /// A refusal, said to the one who acted ([`refusal_line`]).
    fn refusal(&self, actor: &Actor, e: &RuleError) -> String {
        refusal_line(&self.cast, actor, e, self.json)
    }

    /// An error about `actor`'s command ([`error_line`]).
    fn error_to(&self, actor: Option<&Actor>, message: &str) -> String {
        error_line(&self.cast, actor, message, self.json)
    }

    /// Says the events of some updates.
    fn tell(&mut self, updates: &[Update<AnyMatch>]) -> Vec<String> {
        let mut out = Vec::new();
        for u in updates {
            if let Some(notice) = &u.notice {
                out.push(if self.json {
                    notice.json().to_string()
                } else {
                    notice.text()
                });
                continue;
            }
            let events: Vec<AnyEvent> = u.events.iter().map(|(_, e)| e.clone()).collect();
            let lines = self.front.tell(&events, &u.view);
            out.extend(self.render(&lines));
        }
        out
    }

    /// What each player alone may hear, up to event `seq`, as lines addressed to them.
    async fn tell_private(&mut self, seq: u64) -> Vec<String> {
        let mut out = Vec::new();
        for (id, feed) in &mut self.private {
            match feed.until(seq).await {
                Ok(updates) => {
                    for u in updates {
                        let events: Vec<AnyEvent> =
                            u.events.iter().map(|(_, e)| e.clone()).collect();
                        let lines = self.front.tell_private(*id, &events, &u.view);
                        out.extend(render(&lines, self.json));
                    }
                }
                Err(e) => out.push(if self.json {
                    json!({"event": "error", "message": e.to_string()}).to_string()
                } else {
                    format!("error: {e}")
                }),
            }
        }
        out
    }

    /// `NAME: status` or `NAME: board` in a game with private knowledge: NAME's own
    /// state too, addressed to them.
    fn mine(&self, named: Option<&str>) -> Vec<String> {
        let Some(Actor::Player(id)) = named.and_then(|n| self.cast.actor(n)) else {
            return Vec::new();
        };
        self.private
            .iter()
            .filter(|(p, _)| *p == id)
            .flat_map(|(_, feed)| self.render(&self.front.mine(id, &feed.view())))
            .collect()
    }

    /// While the umpire works on something the players wait for (a guess's verdict),
    /// its answer is the next thing to say: wait for it.
    async fn await_umpire(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while self.front.waiting(&self.feed.view()) {
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

    fn render(&self, lines: &[Line]) -> Vec<String> {
        render(lines, self.json)
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

    /// Leaving: how to come back (with the same database).
    fn left(&self) -> Vec<String> {
        let again = resume_command(self.runtime.store().location(), Some(self.id));
        vec![if self.json {
            json!({"event": "left", "match": self.id.0, "resume": again}).to_string()
        } else {
            format!(
                "left match {}; `{again}` goes on where you stopped",
                self.id
            )
        }]
    }

    /// Pictures of what joined the table since the last call, when drawing: one line
    /// each saying where it went, and each shown inline.
    fn draw_new(&mut self) -> Vec<String> {
        if self.pictures.is_none() && !self.inline {
            return Vec::new();
        }
        let view = self.feed.view();
        let pictures = self.front.new_pictures(self.id, &view);
        pictures.into_iter().flat_map(|p| self.drawn(p)).collect()
    }

    /// The table as one board picture, when drawing.
    fn draw_board(&mut self) -> Vec<String> {
        if self.pictures.is_none() && !self.inline {
            return Vec::new();
        }
        match self.front.board_picture(self.id, &self.feed.view()) {
            Ok(p) => self.drawn(p),
            Err(e) => vec![self.error(&e)],
        }
    }

    /// Writes a picture into the folder and says where, and shows it inline.
    fn drawn(&mut self, p: Picture) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(dir) = &self.pictures {
            let path = dir.join(&p.file);
            out.push(match std::fs::write(&path, &p.png) {
                Ok(()) if self.json => {
                    let mut value = p.json.clone();
                    value["path"] = path.display().to_string().into();
                    value.to_string()
                }
                Ok(()) => format!("picture of {}: {}", p.what, path.display()),
                Err(e) => self.error(&format!("cannot write {}: {e}", path.display())),
            });
        }
        if self.inline {
            if self.pictures.is_none() {
                out.push(format!("picture of {}:", p.what));
            }
            out.push(INLINE_PICTURE.to_string());
            self.to_show.push(p.png);
        }
        out
    }
}

/// What the log of match `id` holds up to event `upto` that was never said at the
/// terminal (the process died between a commit and its lines, or an I/O error hid the
/// commit from the player), as `viewer` may hear it: said on resuming, as the bot says
/// in its channel what it missed. Nothing for a match never said here.
async fn unsaid(
    runtime: &Runtime<AnyMatch>,
    id: MatchId,
    viewer: &Viewer,
    upto: u64,
    front: &mut dyn GameFront,
    view: &AnyView,
    json: bool,
) -> Vec<String> {
    use crate::runtime::Engine;
    let store = runtime.store();
    let said = match store.announced(id).await {
        Ok(said) if said > 0 && said < upto => said,
        _ => return Vec::new(),
    };
    let (Ok(stored), Ok(state)) = (
        store.events_after(id, said).await,
        runtime.state_of(id).await,
    ) else {
        return Vec::new();
    };
    let kind = view.kind().name();
    let events: Vec<AnyEvent> = stored
        .iter()
        .filter(|e| e.seq <= upto)
        .filter_map(|e| AnyMatch::decode(kind, &e.body).ok())
        .filter_map(|e| state.redact(&e, viewer))
        .collect();
    let lines = front.tell(&events, view);
    if lines.is_empty() {
        return Vec::new();
    }
    let mut out = vec![if json {
        json!({"event": "unsaid", "from": said + 1, "to": upto}).to_string()
    } else {
        "(recorded before Mondo stopped, and not yet said:)".to_string()
    }];
    out.extend(render(&lines, json));
    out
}

/// A refusal as the terminal prints it, with the names of the people at the table, to
/// the one who acted: it may name what only they know (their tiles, their points, a
/// guess that failed), so at a shared table it is addressed to them like every
/// private line.
pub fn refusal_line(cast: &Cast, actor: &Actor, e: &RuleError, json: bool) -> String {
    error_line(cast, Some(actor), &narrate::refusal(e, &cast.names()), json)
}

/// An error about `actor`'s command as the terminal prints it: addressed to them at a
/// shared table (JSON `"to": NAME`, text `(to NAME only) error: ...`), said to all
/// otherwise.
pub fn error_line(cast: &Cast, actor: Option<&Actor>, message: &str, json: bool) -> String {
    let to = match actor {
        Some(a @ (Actor::Player(_) | Actor::Host(_))) if cast.is_table() => cast.actor_name(a),
        _ if json => return json!({"event": "error", "message": message}).to_string(),
        _ => return format!("error: {message}"),
    };
    if json {
        json!({"event": "error", "message": message, "to": to}).to_string()
    } else {
        format!("(to {to} only) error: {message}")
    }
}

/// An unfinished match this runtime runs, as `--resume` lists it.
struct Unfinished {
    record: crate::store::MatchRecord,
    game: GameKind,
    players: Vec<String>,
}

impl Unfinished {
    /// The command that goes back to it.
    fn again(&self, db: &Location) -> String {
        resume_command(db, Some(self.record.id))
    }

    fn text(&self, db: &Location) -> String {
        format!(
            "match {} ({}{}), started {}: `{}`",
            self.record.id,
            self.game.title().to_ascii_lowercase(),
            if self.players.is_empty() {
                String::new()
            } else {
                format!(", {}", self.players.join(" vs "))
            },
            self.record.created,
            self.again(db)
        )
    }

    fn json(&self, db: &Location) -> serde_json::Value {
        json!({"match": self.record.id.0, "game": self.game.name(), "players": self.players,
               "created": self.record.created, "resume": self.again(db)})
    }
}

/// The unfinished matches this runtime runs (one whose log cannot be rebuilt is not
/// among them), newest first; on a shared database (PostgreSQL), also the terminal's
/// matches no other process runs now (it runs only what it is asked for).
async fn unfinished(runtime: &Runtime<AnyMatch>) -> Result<Vec<Unfinished>, String> {
    let found = runtime
        .store()
        .matches(&MatchFilter {
            status: Some(Status::Live),
            ..MatchFilter::default()
        })
        .await
        .map_err(|e| e.to_string())?;
    let live = runtime.live();
    let mut ours = Vec::new();
    for record in found {
        if live.contains(&record.id) || free_here(runtime, &record).await? {
            ours.push(record);
        }
    }
    let mut out = Vec::new();
    for record in ours {
        let Ok(game) = record.game() else { continue };
        let players = if record.players.len() > 1 {
            let names = runtime
                .store()
                .local_names(&record.players)
                .await
                .map_err(|e| e.to_string())?;
            record
                .players
                .iter()
                .map(|id| {
                    names
                        .get(id)
                        .cloned()
                        .unwrap_or_else(|| format!("player{id}"))
                })
                .collect()
        } else {
            Vec::new()
        };
        out.push(Unfinished {
            record,
            game,
            players,
        });
    }
    Ok(out)
}

/// Whether a live match not running here is the terminal's to go on with: on a shared
/// database, a terminal's match (no channel) whose lease no other process holds now.
async fn free_here(
    runtime: &Runtime<AnyMatch>,
    record: &crate::store::MatchRecord,
) -> Result<bool, String> {
    let store = runtime.store();
    if store.backend() != Backend::Postgres || record.channel.is_some() {
        return Ok(false);
    }
    let lease = store.lease(record.id).await.map_err(|e| e.to_string())?;
    let Some(lease) = lease else { return Ok(true) };
    let now = store.database_now_ms().await.map_err(|e| e.to_string())?;
    Ok(lease.owner == runtime.owner() || lease.expires_ms <= now)
}

/// Match `id` is run by another process (`held`, which says whose and how long):
/// what to do.
fn held_elsewhere(runtime: &Runtime<AnyMatch>, id: MatchId, held: &RuntimeError) -> String {
    format!(
        "{held}. It goes on there: play it there, or stop that process (it lets its \
         matches go at once), then `{}`; if that process died, its lease runs out by \
         itself",
        resume_command(runtime.store().location(), Some(id))
    )
}

/// Why match `id` cannot be resumed, and what can be.
async fn not_resumable(
    runtime: &Runtime<AnyMatch>,
    id: MatchId,
    unfinished: &[Unfinished],
) -> String {
    let db = runtime.store().location();
    let why = match runtime.store().record(id).await {
        Ok(Some(r)) if r.status == Status::Over => {
            format!(
                "match {id} is over: `mondo replay {id} --db {}` shows it",
                db
            )
        }
        Ok(Some(_)) => format!(
            "match {id} could not be rebuilt from its log: `mondo replay {id} --db {}` shows it",
            db
        ),
        Ok(None) => format!("there is no match {id} in {}", db),
        Err(e) => e.to_string(),
    };
    if unfinished.is_empty() {
        format!("{why}; no match there is unfinished")
    } else {
        format!(
            "{why}; the unfinished ones are:\n{}",
            unfinished
                .iter()
                .map(|u| format!("  {}", u.text(db)))
                .collect::<Vec<_>>()
                .join("\n")
        )
    }
}

/// `mondo play --resume [ID] [--db DB]` (the database named only when not the default).
pub fn resume_command(db: &Location, id: Option<MatchId>) -> String {
    let mut command = "mondo play --resume".to_string();
    if let Some(id) = id {
        command.push_str(&format!(" {id}"));
    }
    if db.sqlite_path() != Some(Path::new(DEFAULT_DB)) {
        command.push_str(&format!(" --db {}", db));
    }
    command
}

/// Lines as printed; a line with no JSON of its own (`null`: part of a larger object
/// said by another line) is not printed in JSON.
fn render(lines: &[Line], json: bool) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !(json && l.json.is_null()))
        .flat_map(|l| {
            let clear = (l.clears_screen && !json).then(|| CLEAR_SCREEN.to_string());
            clear.into_iter().chain([l.render(json)])
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::{Input, MAX_LINE, read_input};

    /// The terminal's help of every game is its players' page's block, whole: a page
    /// without the block (or with it cut short) would leave a game without help.
    #[test]
    fn every_game_page_holds_its_terminal_help() {
        let helps = [
            (
                super::games::zendo::practice::help(),
                "commands: koan STRUCTURE",
                "give up | quit",
            ),
            (
                super::games::zendo::duel::duel_help(),
                "a line is [NAME:] COMMAND",
                "to a challenge.",
            ),
            (
                super::games::zendo::triple::help(),
                "a line is [NAME:] COMMAND",
                "need a name.",
            ),
            (
                super::games::zendo::classic::help(),
                "a line is [NAME:] COMMAND",
                "need a name.",
            ),
            (
                super::games::assembly::help(),
                "a line is [NAME:] COMMAND",
                "(the match stays)",
            ),
            (
                super::games::bluffs::help(),
                "a line is NAME: COMMAND",
                "(the match stays)",
            ),
        ];
        for (help, start, end) in helps {
            assert!(help.starts_with(start) && help.ends_with(end), "{help:?}");
            assert!(!help.contains("```"), "{help:?}");
        }
        assert_eq!(super::help_from_docs("no block here"), "");
    }

    fn all(bytes: &[u8]) -> Vec<Input> {
        // A tiny buffer, so lines straddle many reads.
        let mut r = std::io::BufReader::with_capacity(7, bytes);
        let mut line = 0;
        std::iter::from_fn(|| read_input(&mut r, &mut line).unwrap()).collect()
    }

    /// The common words are read once; a game that claims one reads it itself, and a
    /// two-word verb needs its second word.
    #[test]
    fn common_verbs_are_read_once_and_a_game_may_claim_one() {
        use super::{Verb, verb_of};
        use crate::runtime::Common;
        assert_eq!(verb_of("end", "", &[]), Some(Verb::Act(Common::End)));
        assert_eq!(verb_of("end", "turn", &["end"]), None);
        assert_eq!(
            verb_of("pause", "", &["end"]),
            Some(Verb::Act(Common::Pause))
        );
        assert_eq!(verb_of("give", "UP", &[]), Some(Verb::Act(Common::Resign)));
        assert_eq!(verb_of("give", "in", &[]), None);
        assert_eq!(verb_of("?", "words", &[]), Some(Verb::Help));
        assert_eq!(verb_of("koan", "1^", &[]), None);
    }

    #[test]
    fn input_lines_are_read_whatever_their_bytes() {
        let exact = "a".repeat(MAX_LINE);
        let over = "b".repeat(MAX_LINE + 1);
        let mut bytes = format!("one\r\n\n{exact}\n{over}\nt\u{e9}").into_bytes();
        // "té" (3 bytes) then a lone lead byte: not UTF-8 at its 4th byte.
        bytes.extend_from_slice(b"\xC3\nlast");
        let got = all(&bytes);
        assert_eq!(got[0], Input::Line("one".into()));
        assert_eq!(got[1], Input::Line(String::new()));
        assert_eq!(got[2], Input::Line(exact));
        assert_eq!(
            got[3],
            Input::TooLong {
                line: 4,
                bytes: MAX_LINE + 1
            }
        );
        assert!(
            matches!(
                got[4],
                Input::NotText {
                    line: 5,
                    at: 4,
                    byte: 0xC3
                }
            ),
            "{:?}",
            got[4]
        );
        assert_eq!(got[5], Input::Line("last".into()));
        assert_eq!(got.len(), 6);
    }
}
