//! What a terminal front is and what every front shares: the cast at the table, the
//! words every table understands, help read from the docs, and the traits each game
//! implements ([`GameFront`], [`Terminal`]) in its own folder under `games`. Below
//! the session and the games alike, so neither imports the other back.

use super::Picture;
use super::args;
use super::commands;
use crate::narrate::{Front, Line, Names};
use crate::rules::{Actor, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnySetup, AnyView, Common};
use crate::store::{MatchId, Store};
use std::collections::HashMap;

/// The player of a solo game no one was named for (tests, benches): a named player's
/// solo game is theirs ([`Cast::solo_as`]).
pub const YOU: PlayerId = PlayerId(1);

/// The database `mondo play` uses unless `--db` says otherwise.
pub const DEFAULT_DB: &str = "mondo.db";

/// An output item that is not a line: the screen, and its scrollback, must be cleared
/// here (a hidden grid must not stay readable above). Said only in text output, as an
/// item of its own; a terminal front writes it as is when its output is a terminal and
/// leaves it out otherwise (see `cli::play`). The bytes are ECMA-48's: erase the
/// display (ED 2), erase the scrollback (ED 3, xterm's, which every current terminal
/// emulator honours), cursor home (CUP).
pub const CLEAR_SCREEN: &str = "\x1b[2J\x1b[3J\x1b[H";

/// The longest input line a session reads, in bytes: a longer one is refused unread,
/// so a runaway paste (or a 100 MB line) costs no memory and is not printed back.
pub const MAX_LINE: usize = 64 * 1024;

/// One line of input as read (see [`read_input`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// Line `line` (from 1) is not UTF-8 text: its first bad byte is at `at` (from 1).
    NotText {
        line: u64,
        at: usize,
        byte: u8,
    },
    /// Line `line` is `bytes` bytes long (or more: counting stops at a gigabyte).
    TooLong {
        line: u64,
        bytes: usize,
    },
}

/// Reads the next line of `input` (without its `\n` or `\r\n`): `None` at the end.
/// Holds at most [`MAX_LINE`] bytes of it whatever its length. `line` counts the lines
/// read so far.
pub fn read_input(
    input: &mut impl std::io::BufRead,
    line: &mut u64,
) -> std::io::Result<Option<Input>> {
    let mut kept = Vec::new();
    let mut bytes = 0usize;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        bytes = bytes.saturating_add(part.len());
        if kept.len() < MAX_LINE + 1 {
            let room = MAX_LINE + 1 - kept.len();
            kept.extend_from_slice(&part[..part.len().min(room)]);
        }
        let used = end.unwrap_or(chunk.len());
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    *line += 1;
    if kept.last() == Some(&b'\r') {
        kept.pop();
        bytes -= 1;
    }
    if bytes > MAX_LINE {
        return Ok(Some(Input::TooLong { line: *line, bytes }));
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => Input::Line(text),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Input::NotText {
                line: *line,
                at: at + 1,
                byte: e.as_bytes()[at],
            }
        }
    }))
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The player left; the match stays unfinished, to resume.
    Quit,
    Over,
}

/// Why a host's command is refused at a table with no host: only `--host NAME` names
/// one (docs/ratings.md, "Fair play": seats are identities).
pub const NO_HOST: &str = "this table has no host, so no line is a host's and nothing \
     was recorded: pause, resume, disallow and end are a host's, and a host is named as \
     the match starts or resumes, with --host NAME";

/// Who plays at the terminal, by seat, and who hosts.
#[derive(Clone, Debug)]
pub struct Cast {
    /// Seat order; one entry in solo play.
    pub(super) players: Vec<(PlayerId, String)>,
    pub(super) host: Option<(PlayerId, String)>,
}

impl Cast {
    /// One player alone ("you").
    pub fn solo() -> Cast {
        Cast {
            players: vec![(YOU, "you".into())],
            host: None,
        }
    }

    /// One named player alone, credited with the game in their records: `name` is
    /// `--player NAME`, or else the login name (the command line reads it); none is
    /// refused, so a solo game is never credited to someone else.
    pub async fn solo_as(store: &Store, name: Option<&str>) -> Result<Cast, String> {
        let Some(name) = name else {
            return Err(
                "say who plays, for their record: --player NAME (the environment \
                        names no login: USER and LOGNAME are unset)"
                    .into(),
            );
        };
        check_name(name).map_err(|e| format!("{e}; say who plays with --player NAME"))?;
        Ok(Cast {
            players: vec![(local_id(store, name).await?, name.to_string())],
            host: None,
        })
    }

    /// The player of a solo game (the first seat).
    pub fn me(&self) -> PlayerId {
        self.players.first().map_or(YOU, |(id, _)| *id)
    }

    /// Players and the host `--host` named (none: the table has no host), by name;
    /// each name gets its local id from the store. A seat named by an AI seat's
    /// reserved name (`ai-expert`) is the AI's; nobody else may take one.
    pub async fn table(
        store: &Store,
        players: &[&str],
        host: Option<&str>,
    ) -> Result<Cast, String> {
        for name in players.iter().chain(host.as_ref()) {
            check_name(name)?;
        }
        // Checked before any name is written: a refused table records nothing.
        if let Some(host) = host {
            crate::rules::fair::refuse_reserved(host)?;
        }
        for (i, a) in players.iter().enumerate() {
            if players[..i].iter().any(|b| b.eq_ignore_ascii_case(a)) {
                return Err(format!(
                    "`{a}` is named twice: every player needs their own name"
                ));
            }
        }
        if let Some(host) = host
            && players.iter().any(|p| p.eq_ignore_ascii_case(host))
        {
            return Err(format!(
                "`{host}` cannot both play and host: name another host with --host NAME"
            ));
        }
        let mut cast = Cast {
            players: Vec::new(),
            host: None,
        };
        for name in players {
            cast.players
                .push((seat_id(store, name).await?, name.to_string()));
        }
        if let Some(host) = host {
            cast.host = Some((local_id(store, host).await?, host.to_string()));
        }
        Ok(cast)
    }

    /// Who chose the setup, when it was chosen: the host when `by_host`, else the
    /// first player (the one at the keyboard).
    /// Solo play is never rated: nobody is recorded.
    pub fn chooser(&self, chosen: Option<bool>) -> Option<PlayerId> {
        if self.players.len() < 2 {
            return None;
        }
        match chosen? {
            true => self.host.as_ref().map(|(id, _)| *id),
            false => self.players.first().map(|(id, _)| *id),
        }
    }

    /// What a new match's start says of its rating (docs/ratings.md, "Fair play"):
    /// "rated", or "unrated: the setup was chosen by alice"; nothing in solo play.
    pub fn rated_line(&self, chosen_by: Option<PlayerId>, json: bool) -> Option<String> {
        if self.players.len() < 2 {
            return None;
        }
        let why = chosen_by
            .filter(|by| self.players.iter().any(|(p, _)| p == by))
            .map(|by| crate::rules::Why::SetupChosen { by });
        let name = |id: PlayerId| {
            self.players
                .iter()
                .find(|(p, _)| *p == id)
                .map_or_else(|| id.0.to_string(), |(_, n)| n.clone())
        };
        Some(match (why, json) {
            (None, false) => "rated".into(),
            (None, true) => serde_json::json!({"event": "rated", "rated": true}).to_string(),
            (Some(w), false) => format!("unrated: {}", w.text(name)),
            (Some(w), true) => serde_json::json!({"event": "rated", "rated": false,
                "why": w.name(), "why_text": w.text(name)})
            .to_string(),
        })
    }

    /// Players already named (a stored match's, for `mondo replay`); others (hosts)
    /// by id.
    pub fn named(players: Vec<(PlayerId, String)>, others: &HashMap<u64, String>) -> Cast {
        let host = others
            .iter()
            .find(|(id, _)| players.iter().all(|(p, _)| p.0 != **id))
            .map(|(id, n)| (PlayerId(*id), n.clone()));
        Cast { players, host }
    }

    /// The cast of a stored match: its players' names from the store, and the host
    /// `--host` names as it is resumed (none: no host).
    pub(super) async fn of_match(
        store: &Store,
        players: &[u64],
        host: Option<&str>,
    ) -> Result<Cast, String> {
        if let Some(host) = host {
            check_name(host)?;
        }
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
        let host = match host {
            Some(host) => Some((local_id(store, host).await?, host.to_string())),
            None => None,
        };
        Ok(Cast { players, host })
    }

    /// Whether several people share the terminal (names are said).
    pub fn is_table(&self) -> bool {
        self.players.len() > 1
    }

    pub fn players(&self) -> &[(PlayerId, String)] {
        &self.players
    }

    pub fn host(&self) -> Option<&(PlayerId, String)> {
        self.host.as_ref()
    }

    /// The host as the actor of a host's command, or why there is none.
    pub fn host_actor(&self) -> Result<Actor, String> {
        match &self.host {
            Some((id, _)) => Ok(Actor::Host(*id)),
            None => Err(NO_HOST.to_string()),
        }
    }

    /// A player's (or the host's) name.
    pub fn name_of(&self, id: PlayerId) -> String {
        self.players
            .iter()
            .chain(&self.host)
            .find(|(p, _)| *p == id)
            .map_or_else(|| format!("player {}", id.0), |(_, n)| n.clone())
    }

    /// Whoever `name` names, as the actor they act as.
    pub fn actor(&self, name: &str) -> Option<Actor> {
        let is = |(_, n): &&(PlayerId, String)| n.eq_ignore_ascii_case(name);
        if let Some((id, _)) = self.players.iter().find(is) {
            return Some(Actor::Player(*id));
        }
        self.host.iter().find(is).map(|(id, _)| Actor::Host(*id))
    }

    pub fn actor_name(&self, actor: &Actor) -> String {
        match actor {
            Actor::Player(id) | Actor::Host(id) => self.name_of(*id),
            Actor::Umpire => "the umpire".into(),
        }
    }

    /// Everyone's names, players first.
    pub fn names_list(&self) -> String {
        let mut names: Vec<&str> = self.players.iter().map(|(_, n)| n.as_str()).collect();
        names.extend(self.host.iter().map(|(_, n)| n.as_str()));
        names.join(", ")
    }

    /// How the narration names people.
    pub fn names(&self) -> Names {
        if !self.is_table() {
            return Names::solo(Front::Terminal);
        }
        let others: HashMap<u64, String> =
            self.host.iter().map(|(id, n)| (id.0, n.clone())).collect();
        Names::new(Front::Terminal, self.players.clone(), others)
    }
}

/// The local id of a seat: the AI's for a reserved name (`ai-expert`), else a person's.
async fn seat_id(store: &Store, name: &str) -> Result<PlayerId, String> {
    let id = if crate::rules::fair::reserved_ai_name(name).is_some() {
        store.local_ai_player(name).await
    } else {
        store.local_player(name).await
    };
    id.map(PlayerId).map_err(|e| e.to_string())
}

async fn local_id(store: &Store, name: &str) -> Result<PlayerId, String> {
    store
        .local_player(name)
        .await
        .map(PlayerId)
        .map_err(|e| e.to_string())
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

/// A game's help at the terminal, read from its players' page in `docs/games/`: the
/// `text` block after the line `<!-- terminal help -->`, so `help` and the page cannot
/// drift (`every_game_page_holds_its_terminal_help` checks each page has one).
pub fn help_from_docs(page: &'static str) -> &'static str {
    const MARK: &str = "<!-- terminal help -->\n```text\n";
    page.split_once(MARK)
        .and_then(|(_, block)| block.split_once("\n```"))
        .map_or("", |(help, _)| help)
}

/// What a word every table understands does ([`VERBS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Leave; the match stays, to resume.
    Quit,
    /// The game's help, or a topic's (`help words`, `help notation`).
    Help,
    Board,
    Status,
    /// An action every game takes ([`Common`]): pause, resume and end are the host's,
    /// resigning a player's.
    Act(Common),
}

/// The words every game's table understands, read here once for all: the word, the
/// word that must follow it (if any), and what it does. A game may claim a word as its
/// own ([`GameFront::claims`]): `end` passes the turn in the games of turns. A new
/// common word joins with one line.
pub const VERBS: &[(&str, Option<&str>, Verb)] = &[
    ("quit", None, Verb::Quit),
    ("exit", None, Verb::Quit),
    ("help", None, Verb::Help),
    ("?", None, Verb::Help),
    ("board", None, Verb::Board),
    ("status", None, Verb::Status),
    ("pause", None, Verb::Act(Common::Pause)),
    ("resume", None, Verb::Act(Common::Resume)),
    ("end", None, Verb::Act(Common::End)),
    ("resign", None, Verb::Act(Common::Resign)),
    ("give", Some("up"), Verb::Act(Common::Resign)),
];

/// The common verb a line's `word` and `rest` say, unless the game claims the word.
pub fn verb_of(word: &str, rest: &str, claimed: &[&str]) -> Option<Verb> {
    VERBS
        .iter()
        .find(|(w, then, _)| {
            *w == word && then.is_none_or(|t| rest.eq_ignore_ascii_case(t)) && !claimed.contains(w)
        })
        .map(|(_, _, verb)| *verb)
}

/// A topic of `help TOPIC`: its names and its text.
pub struct HelpTopic {
    pub names: &'static [&'static str],
    pub text: fn(&dyn GameFront) -> String,
}

/// The topics `help` takes after it, for every game.
pub const HELP_TOPICS: &[HelpTopic] = &[
    HelpTopic {
        names: &["words", "patterns"],
        text: |front| front.words(),
    },
    HelpTopic {
        names: &["notation", "structures", "koans"],
        text: |front| front.notation(),
    },
];

/// What the words of place mean (`above`, `directly above`, `points at`, `touches`):
/// the block of docs/patterns.md, said after the words.
pub fn place_words_help() -> &'static str {
    help_from_docs(include_str!("../../../docs/patterns.md"))
}

/// How to type a structure at the terminal: the block of docs/notation.md.
pub fn notation_help() -> &'static str {
    help_from_docs(include_str!("../../../docs/notation.md"))
}

/// A command typed at the terminal, for [`GameFront::command`], in this order: its
/// first word, the rest of the line, who the line names (`alice: koan 1^`) if anyone,
/// and the match's view and cast as they are when it is read.
pub struct Entered<'a>(
    pub &'a str,
    pub &'a str,
    pub Option<Actor>,
    pub &'a AnyView,
    pub &'a Cast,
);

/// What a typed command asks for: the request to send and who sends it, or what is
/// wrong with the command.
pub type Request = Result<(Actor, AnyAction), String>;

/// A game's part of the terminal: its grammar, its help and its words. One file per
/// game family implements it; [`front_for`] picks it by the match's kind.
pub trait GameFront: Send {
    /// What `hint` says: the move an AI student would make and why (a game without
    /// one says so).
    fn hint(&self, _view: &AnyView) -> String {
        "`hint` is for solo practice: in a game against others, think for yourself".into()
    }
    /// What `why` says once the match is over: what the AI students who played
    /// believed after each structure (docs/ai.md, "Why"); or why it says nothing (a
    /// game no AI student plays, a match that goes on).
    fn why(&self, _view: &AnyView, _cast: &Cast) -> Result<Vec<Line>, String> {
        Err(
            "`why` tells what an AI student believed, after a game it played in which \
             it reasons over rules (Zendo's Duel, Triple and Classic)"
                .into(),
        )
    }
    /// What the game is called in the `started` line and its JSON (`"duel"`).
    fn game_name(&self) -> &'static str;
    /// The help shown at the start and on `help`.
    fn help(&self) -> &'static str;
    /// What `help words` lists: the words a guess may use (the pattern language's
    /// unless the game has a language of its own).
    fn words(&self) -> String {
        format!("{}{}", crate::lang::vocabulary_text(), place_words_help())
    }
    /// What `help notation` says: how to type what the game's commands take (a
    /// structure, unless the game has a notation of its own).
    fn notation(&self) -> String {
        notation_help().to_string()
    }
    /// The common words ([`VERBS`]) this game reads itself, in [`GameFront::command`]
    /// (`end`, which passes the turn in a game of turns).
    fn claims(&self) -> &'static [&'static str] {
        &[]
    }
    /// Why the game refuses a common action outright (practice has no clock), if it
    /// does.
    fn refuses(&self, _action: Common) -> Option<&'static str> {
        None
    }
    /// Who takes a common action when the line names no one: the host for pause,
    /// resume and end; the only player for resigning, or none at a shared table (the
    /// line must name who resigns).
    fn common_actor(&self, action: Common, cast: &Cast) -> Result<Actor, String> {
        match action {
            Common::Resign if !cast.is_table() => Ok(Actor::Player(cast.me())),
            Common::Resign => Err(format!(
                "say who resigns: start the line with a name, e.g. `{}: resign`",
                cast.players().first().map_or("alice", |(_, n)| n.as_str())
            )),
            _ => cast.host_actor(),
        }
    }
    /// What is said when the match is opened or resumed (the table, the status, a
    /// guess waiting for confirmation).
    fn opening(&mut self, id: MatchId, view: &AnyView, now: u64) -> Vec<Line>;
    /// A typed command (`word rest`), by `named` if the line named someone, as the
    /// request to send and who sends it; or what is wrong with it.
    fn command(&self, entered: Entered) -> Request;
    /// A batch of events, with the view after it.
    fn tell(&mut self, events: &[AnyEvent], view: &AnyView) -> Vec<Line>;
    fn status(&self, id: MatchId, view: &AnyView, now: u64) -> Line;
    fn board(&self, view: &AnyView) -> Vec<Line>;
    /// Whether the umpire is working on something the players wait for.
    fn waiting(&self, view: &AnyView) -> bool;
    fn is_over(&self, view: &AnyView) -> bool;
    /// Pictures of what joined the table since the last call.
    fn new_pictures(&mut self, id: MatchId, view: &AnyView) -> Vec<Picture>;
    /// The whole table as one picture.
    fn board_picture(&self, id: MatchId, view: &AnyView) -> Result<Picture, String>;
    /// Whether the game draws pictures (`--png`).
    fn draws(&self) -> bool {
        true
    }
    /// Whether each player knows things the other may not (Logical Bluffs): the
    /// session then also follows the match as each player and prints what only one may
    /// hear as lines addressed to them.
    fn private(&self) -> bool {
        false
    }
    /// What only player `id` may hear of a batch (their view after it).
    fn tell_private(&mut self, _id: PlayerId, _events: &[AnyEvent], _view: &AnyView) -> Vec<Line> {
        Vec::new()
    }
    /// Player `id`'s own state, for them alone (on opening, `NAME: status`, `NAME: board`).
    fn mine(&self, _id: PlayerId, _view: &AnyView) -> Vec<Line> {
        Vec::new()
    }
}

/// A game as the terminal knows it: each game's folder under [`games`] has a `Front`
/// implementing it, and the registry's list makes the dispatch over every game (its
/// front, its `mondo play` name and options, its setup).
pub trait Terminal {
    /// `mondo play NAME`.
    const NAME: &'static str;
    /// Other names `mondo play` takes for it, each with what `--help` says of it.
    const ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// What `mondo play --help` says of it.
    const ABOUT: &'static str;
    /// The game `mondo play` starts when no game is named (one game says so).
    const DEFAULT: bool = false;
    /// Its own `mondo play` options (one parser takes every game's: an option belongs
    /// to one game; what several share is [`args::TableArgs`]).
    type Args: clap::Args + clap::FromArgMatches + std::fmt::Debug;
    /// Its own `mondo` subcommands beside `mondo play` (`mondo bluffs check`);
    /// [`commands::NoCommands`] for none.
    type Commands: commands::Commands;
    /// How its stored events read on the replay page (authors, setup, pictures,
    /// secrets): one for a family of games (Zendo's modes share theirs).
    type Logged: super::logged::Logged;
    /// Its own `mondo bench` areas (`mondo bench bluffs`), beside the shared ones;
    /// [`commands::NoCommands`] for none.
    type Bench: commands::Commands;

    /// Its front for a match, played by `cast`.
    fn front(cast: &Cast, view: &AnyView) -> Box<dyn GameFront>;
    /// Its help: the block of its players' page ([`help_from_docs`]).
    fn help() -> &'static str;
    /// The option that asks for this game when the default game is named (`--duel`).
    fn asked(_own: &Self::Args) -> Option<&'static str> {
        None
    }
    /// Checks the command line before anything is opened.
    fn check(table: &args::TableArgs, own: &Self::Args) -> Result<(), String>;
    /// A new match's setup and who plays it.
    fn setup(
        table: &args::TableArgs,
        own: &Self::Args,
        store: &Store,
        seed: u64,
    ) -> impl std::future::Future<Output = Result<(AnySetup, Cast), String>>;
    /// Its AI for a seat at `level`, its draws seeded by `seed`, on both fronts
    /// (`super::ai`; `None`: no AI of this kind: Zendo's student is seated its own way).
    fn ai(_level: crate::student::Level, _seed: u64) -> Option<Box<dyn super::machine::SeatAi>> {
        None
    }
    /// Its clocks after a step of a finished match, for the replay page, each named
    /// by whose it is, with the time left ([`super::scoreboard`]); none by default.
    fn clocks(_after: &super::scoreboard::After, _names: &[String]) -> Vec<String> {
        Vec::new()
    }
    /// Its running scores after a step, for the replay page, named by what it counts;
    /// none by default.
    fn scores(_after: &super::scoreboard::After, _names: &[String]) -> Vec<String> {
        Vec::new()
    }
    /// Its AI's matches in `mondo bench ai --game NAME` (`plus`: `--plus`, Plus
    /// matches): how to run them, given the matches per pairing, the first seed and
    /// whether to print JSON ([`super::bench::ai::run`]); `None`: it has none of that
    /// kind.
    fn arena(_plus: bool) -> Option<fn(usize, u64, bool) -> std::process::ExitCode> {
        None
    }
}
