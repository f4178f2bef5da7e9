//! The bot end to end: the real `mondo serve` binary, configured only through its
//! environment as an admin would, against a fake Discord on 127.0.0.1 that checks every
//! request body against Discord's own OpenAPI schemas (tests/support/discord).
//!
//! One whole duel: a host uploads a pool and makes it the default; a player challenges
//! another; the one with the advantage picks who starts; a structure is challenged and
//! answered privately, by DM buttons for one player and by the channel's private button
//! for the other (whose DMs are closed); a wrong guess gets its counterexample picture;
//! the bot is killed (SIGKILL) mid-match with a guess waiting for confirmation and
//! started again, and the button drawn before the kill makes the guess official and wins.
//! Along the way: a host command refused to a non-host, a move out of turn refused, a
//! stale button refused, every interaction acknowledged (once), and no
//! request carries the hidden pattern before the end. A host also builds a pool one
//! pattern at a time (`/pool pattern add|remove`, `/pool export`), never in public.

mod support;

/// The fake Discord's own self-test (a tiny poise bot through it), in this binary so
/// the fake is compiled once.
#[path = "support/fake_selftest.rs"]
mod fake_selftest;

/// Duels against @Mondo in the games whose AI is a `student::Ai`, on the test clock.
#[path = "e2e/ai_duels.rs"]
mod ai_duels;
/// Challenges wait for their answer, and matches nobody finishes end by the fair-play
/// rule, on the test clock.
#[path = "e2e/challenges.rs"]
mod challenges;
/// The shard coverage check across processes on one PostgreSQL database.
#[path = "e2e/coverage.rs"]
mod coverage;
/// Identify turns across processes on one PostgreSQL database.
#[path = "e2e/identify.rs"]
mod identify;
/// `/metrics` of a running bot: Discord's refusals counted.
#[path = "e2e/monitoring.rs"]
mod monitoring;
/// Only people and Mondo's own AI play: another bot is declined.
#[path = "e2e/other_bots.rs"]
mod other_bots;
/// Several processes on one PostgreSQL database (its throwaway cluster is the store
/// tests').
#[path = "e2e/owners.rs"]
mod owners;
/// `/history`, each match with its rating change.
#[path = "e2e/records.rs"]
mod records;
#[path = "it/stores.rs"]
#[allow(dead_code)]
mod stores;
/// A tournament: groups then playoffs, a no-show forfeited, a restart, a champion.
#[path = "e2e/tournaments.rs"]
mod tournaments;

use mondo::bot::games::zendo::ids::KOAN_FIELD;
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::discord::{Changes, FakeDiscord, Interaction, ReplyKind, StoredMessage};
use tokio::sync::watch;

const T: Duration = Duration::from_secs(20);
/// The hidden pattern as the host wrote it: it must not leave the bot before the end.
const HIDDEN: &str = "at least one piece points up";
const POOL: &str = r#"
[[entry]]
id = "up"
pattern = "at least one piece points up"
set = "pyramids"
obeys = "1^"
does_not_obey = "1>"
difficulty = "easy"
"#;
/// Patterns a host adds with `/pool pattern add`: they must go out only privately.
const SECRET: [&str; 2] = [
    "at least one small piece points left",
    "exactly two pieces are large",
];
const MANAGE_GUILD: u64 = 1 << 5;

/// `mondo serve` as a child process, pointed at the fake.
struct Served {
    child: Child,
    log: std::path::PathBuf,
    /// Copies the bot's stderr into its log, line by line.
    copier: Option<std::thread::JoinHandle<()>>,
}

/// Bumped at every line a bot writes to its log, and when a bot's log ends (it
/// exited): what a test waiting on a log, or on a bot, wakes on.
static LOG_LINES: std::sync::LazyLock<watch::Sender<u64>> =
    std::sync::LazyLock::new(|| watch::Sender::new(0));

/// The bots' log lines from now on (see [`LOG_LINES`]).
fn log_lines() -> watch::Receiver<u64> {
    let mut rx = LOG_LINES.subscribe();
    rx.borrow_and_update();
    rx
}

/// Copies `from` (a bot's stderr) to `to` a line at a time, saying so on [`LOG_LINES`].
fn copy_log(from: std::process::ChildStderr, mut to: std::fs::File) -> std::thread::JoinHandle<()> {
    use std::io::{BufRead, Write};
    std::thread::spawn(move || {
        let mut from = std::io::BufReader::new(from);
        let mut line = Vec::new();
        loop {
            line.clear();
            match from.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let _ = to.write_all(&line);
                    LOG_LINES.send_modify(|n| *n += 1);
                }
            }
        }
        LOG_LINES.send_modify(|n| *n += 1);
    })
}

/// What a test waits on instead of sleeping: the fake's next change, or a line in (or
/// the end of) a bot's log. Taken before the first check of what it waits for.
struct Wake {
    fake: Changes,
    logs: watch::Receiver<u64>,
}

impl Wake {
    fn new(fake: &FakeDiscord) -> Wake {
        Wake {
            fake: fake.changes(),
            logs: log_lines(),
        }
    }

    /// Until the next change, or `deadline` (which only bounds a failure: the caller
    /// checks its condition, and the deadline, again).
    async fn next(&mut self, deadline: Instant) {
        tokio::select! {
            () = self.fake.next(deadline) => {}
            _ = self.logs.changed() => {}
        }
    }
}

/// A fake Discord and a fresh folder holding a bot's database and log: what most of
/// these tests begin with (the folder lasts as long as the test keeps it).
async fn setup() -> (
    FakeDiscord,
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mondo.db");
    let log = dir.path().join("mondo.log");
    (fake, dir, db, log)
}

/// Until `ok` holds of the fake, checked at each of its changes; past `T` fails saying
/// `what` with the fake's gateway as it is.
async fn until_fake(fake: &FakeDiscord, what: &str, ok: impl Fn(&FakeDiscord) -> bool) {
    let deadline = Instant::now() + T;
    let mut changes = fake.changes();
    while !ok(fake) {
        assert!(
            Instant::now() < deadline,
            "{what}: {:?}",
            fake.gateway_stats()
        );
        changes.next(deadline).await;
    }
}

impl Served {
    fn start(fake: &FakeDiscord, db: &std::path::Path, log_path: &std::path::Path) -> Served {
        Served::start_with(fake, db, log_path, &[])
    }

    /// The same with more `MONDO_*` settings.
    fn start_with(
        fake: &FakeDiscord,
        db: &std::path::Path,
        log_path: &std::path::Path,
        env: &[(&str, &str)],
    ) -> Served {
        Served::spawn(fake, db, log_path, env, &[], true)
    }

    /// `mondo serve ARGS` with its commands registered globally (no
    /// `MONDO_DISCORD_GUILD`): usable in every server and in DMs.
    fn start_global(
        fake: &FakeDiscord,
        db: &std::path::Path,
        log_path: &std::path::Path,
        args: &[&str],
    ) -> Served {
        Served::spawn(fake, db, log_path, &[], args, false)
    }

    /// `mondo serve --shards RANGE --shard-total TOTAL`, commands registered globally,
    /// on the database `env` names (a PostgreSQL URL: the SQLite file it would make in
    /// `dir` stays unused), its log in `log`.
    fn on_shards(
        fake: &FakeDiscord,
        dir: &std::path::Path,
        log: &std::path::Path,
        env: &[(&str, &str)],
        range: &str,
        total: u32,
    ) -> Served {
        let total = total.to_string();
        let args = ["--shards", range, "--shard-total", total.as_str()];
        Served::spawn(fake, &dir.join("unused.db"), log, env, &args, false)
    }

    fn spawn(
        fake: &FakeDiscord,
        db: &std::path::Path,
        log_path: &std::path::Path,
        env: &[(&str, &str)],
        args: &[&str],
        in_guild: bool,
    ) -> Served {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log_path)
            .expect("log file");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mondo"));
        // Only this test's configuration: nothing from the developer's environment.
        for (k, _) in std::env::vars() {
            if k.starts_with("MONDO_") || k == "DISCORD_TOKEN" {
                cmd.env_remove(k);
            }
        }
        if in_guild {
            cmd.env("MONDO_DISCORD_GUILD", fake.guild_id().to_string());
        }
        let child = cmd
            .arg("serve")
            .args(args)
            .env("DISCORD_TOKEN", fake.token())
            .env("MONDO_DISCORD_API_PROXY", fake.proxy_url())
            .env("MONDO_DATABASE_PATH", db)
            .env("RUST_LOG", "warn,mondo=info")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = child.expect("mondo serve starts");
        let copier = copy_log(child.stderr.take().expect("its stderr"), log);
        Served {
            child,
            log: log_path.to_path_buf(),
            copier: Some(copier),
        }
    }

    /// Until the bot is connected and its commands registered; a bot that exits
    /// instead fails the test with its log.
    async fn ready(&mut self, fake: &FakeDiscord) {
        let deadline = Instant::now() + T;
        let mut wake = Wake::new(fake);
        while !fake.gateway_stats().live || fake.commands().is_empty() {
            self.alive();
            assert!(Instant::now() < deadline, "mondo serve never got ready");
            wake.next(deadline).await;
        }
    }

    /// Fails the test with its log if the bot has exited.
    fn alive(&mut self) {
        if let Some(status) = self.child.try_wait().expect("child status") {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            panic!("mondo serve exited ({status}):\n{log}");
        }
    }

    /// SIGKILL: no chance to tidy up. Its log is whole once this returns.
    fn kill(&mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reaped");
        if let Some(copier) = self.copier.take() {
            copier.join().expect("its log copied");
        }
    }

    /// Kills the bot and waits until the fake sees its gateway session gone: a command
    /// sent to a restarted bot before that could go to the dead connection.
    async fn killed(&mut self, fake: &FakeDiscord) {
        self.kill();
        until_fake(fake, "the old session stays", |f| !f.gateway_stats().live).await;
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The message the bot answered an interaction with (its last version, once it is
/// more than "thinking...").
async fn answer(fake: &FakeDiscord, i: &Interaction) -> StoredMessage {
    let replies = fake.replies(i, T).await;
    let id = replies
        .iter()
        .rev()
        .find_map(|r| r.message.as_ref().filter(|m| !m.loading).map(|m| m.id))
        .unwrap_or_else(|| panic!("no answer to {:?}: {replies:#?}", i.payload["data"]));
    fake.message(id).expect("stored")
}

/// The challenge interaction `i` made (its message, with Accept and Decline), accepted
/// by `challenged`: the match's opening, posted in the channel after it.
async fn accepted(fake: &FakeDiscord, i: &Interaction, challenged: u64) -> StoredMessage {
    let offer = answer(fake, i).await;
    assert!(
        !offer.ephemeral && offer.text().contains("Decline"),
        "{}",
        offer.text()
    );
    fake.click(challenged, offer.id, &button(&offer, "Accept"))
        .await;
    opening_after(fake, &offer).await
}

/// The opening of the match `offer` (a challenge's message) became: the first public
/// message after it in its channel that says whether the match is rated.
async fn opening_after(fake: &FakeDiscord, offer: &StoredMessage) -> StoredMessage {
    let (channel, after) = (offer.channel_id, offer.id);
    let rated =
        |m: &StoredMessage| m.text().contains("**Rated**") || m.text().contains("**Unrated**");
    fake.wait_message(
        |m| m.channel_id == channel && m.id > after && !m.ephemeral && rated(m),
        T,
    )
    .await
    .unwrap_or_else(|| {
        let said: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
        panic!("no opening after the challenge; the channel said: {said:#?}")
    })
}

/// `m` is seen only by whoever asked, and says `needle`.
fn private_says(m: &StoredMessage, needle: &str) {
    assert!(m.ephemeral && m.text().contains(needle), "{}", m.text());
}

/// The custom id of the button labelled `label`.
fn button(m: &StoredMessage, label: &str) -> String {
    m.buttons()
        .into_iter()
        .find(|(_, l)| l == label)
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no `{label}` button on {:?}: {:?}", m.text(), m.buttons()))
}

async fn channel_message(fake: &FakeDiscord, what: &str) -> StoredMessage {
    let channel = fake.channel_id();
    let needle = what.to_string();
    fake.wait_message(
        |m| m.channel_id == channel && !m.ephemeral && m.text().contains(&needle),
        T,
    )
    .await
    .unwrap_or_else(|| {
        let said: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
        panic!("the channel never said `{what}`; it said: {said:#?}")
    })
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let img =
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png).expect("a PNG picture");
    (img.width(), img.height())
}

/// `mondo serve` run to its end against the fake, with these variables: its exit status
/// and the last line it wrote (a bot refused at start-up stops with one line).
async fn serve_until_it_stops(
    fake: &FakeDiscord,
    vars: &[(&str, String)],
) -> (Option<i32>, String) {
    let (status, err) = serve_args_until_it_stops(fake, vars, &[]).await;
    let last = err.trim().lines().last().unwrap_or_default().to_string();
    (status, last)
}

/// The same with command-line arguments after `serve`: everything it wrote on stderr.
async fn serve_args_until_it_stops(
    fake: &FakeDiscord,
    vars: &[(&str, String)],
    args: &[&str],
) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mondo"));
    for (k, _) in std::env::vars() {
        if k.starts_with("MONDO_") || k == "DISCORD_TOKEN" {
            cmd.env_remove(k);
        }
    }
    cmd.arg("serve")
        .args(args)
        .env("DISCORD_TOKEN", fake.token())
        .env("MONDO_DISCORD_API_PROXY", fake.proxy_url())
        .env("MONDO_DATABASE_PATH", dir.path().join("m.db"));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = tokio::task::spawn_blocking(move || cmd.output().expect("mondo serve runs"))
        .await
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code(), err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_discord_refuses_stops_the_bot_with_one_line() {
    let fake = FakeDiscord::start().await;
    // Well formed, but not the bot's.
    let mut token = fake.token().to_string();
    let last = token.pop().expect("a token");
    token.push(if last == 'A' { 'B' } else { 'A' });
    let (status, last) = serve_until_it_stops(&fake, &[("DISCORD_TOKEN", token)]).await;
    assert_eq!(status, Some(1), "{last}");
    assert!(
        last.starts_with("error: Discord refused the token"),
        "{last}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_the_bot_is_not_in_stops_it_before_connecting() {
    let fake = FakeDiscord::start().await;
    let elsewhere = fake.guild_id() + 1;
    let (status, last) =
        serve_until_it_stops(&fake, &[("MONDO_DISCORD_GUILD", elsewhere.to_string())]).await;
    assert_eq!(status, Some(1), "{last}");
    assert!(
        last.contains(&format!(
            "could not register the commands in server {elsewhere}"
        )) && last.contains("MONDO_DISCORD_GUILD"),
        "{last}"
    );
    assert_eq!(
        fake.gateway_stats().connections,
        0,
        "it stopped before connecting, not a connected bot that answers nothing"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_duel_over_discord_with_a_restart_in_the_middle() {
    let (fake, _dir, db, log) = setup().await;
    let lobby = fake.add_channel("lobby");
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false); // DMs closed: answers in the channel
    let carol = fake.add_user("carol", true); // a member, not a host
    let dave = fake.add_user("dave", true);
    fake.set_permissions(dave.id, MANAGE_GUILD);
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    // Every command is registered, in the guild, with its help.
    let names: Vec<String> = fake
        .wait_commands(T)
        .await
        .iter()
        .filter_map(|c| c["name"].as_str().map(String::from))
        .collect();
    for name in [
        "zendo", "koan", "guess", "pass", "endturn", "pool", "host", "settings", "help",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "/{name} missing: {names:?}"
        );
    }
    // The help is one private message of cards, every command in it.
    let i = fake.slash(carol.id, "help", &[]).await;
    let whole = answer(&fake, &i).await;
    let pages: Vec<StoredMessage> = fake
        .replies_now(&i)
        .into_iter()
        .filter_map(|r| r.message)
        .collect();
    assert_eq!(pages.len(), 1, "one message");
    let help = whole.text();
    assert!(whole.ephemeral && !whole.embeds.is_empty(), "{help}");
    assert!(help.contains("`/help`:"), "{help}");
    for line in [
        "`/zendo duel`: Challenge someone",
        "`/pool pattern add`: Add",
    ] {
        assert!(help.contains(line), "{help}");
    }
    // `/help patterns`: the words a guess may use, each with an example that reads.
    let i = fake
        .slash(carol.id, "help", &[("topic", json!("patterns"))])
        .await;
    let words = answer(&fake, &i).await;
    assert!(words.ephemeral, "{}", words.text());
    assert!(words.text().contains("e.g."), "{}", words.text());

    // A host uploads a pool and makes it the server's default.
    let file = fake.attachment("e2e.toml", POOL.as_bytes().to_vec());
    let i = fake.slash(dave.id, "pool add", &[("file", file)]).await;
    let m = answer(&fake, &i).await;
    assert!(
        m.ephemeral && m.text().contains("pool `e2e` stored"),
        "{}",
        m.text()
    );
    let i = fake
        .slash(dave.id, "settings", &[("pool", json!("e2e"))])
        .await;
    assert!(answer(&fake, &i).await.text().contains("pool `e2e`"));

    // A host builds a pool in Discord, one pattern at a time, and gets its file back;
    // every reply is private (checked for every request at the end).
    let add = |user: u64, pool: &str, pattern: &str, more: Vec<(&'static str, Value)>| {
        let mut options = vec![("pool", json!(pool)), ("pattern", json!(pattern))];
        options.extend(more);
        let fake = &fake;
        async move {
            let i = fake.slash(user, "pool pattern add", &options).await;
            answer(fake, &i).await
        }
    };
    let hard = choice(&fake, "pool pattern add", "difficulty", "hard");
    let m = add(
        dave.id,
        "league",
        SECRET[0],
        vec![("difficulty", hard), ("note", json!("for the final"))],
    )
    .await;
    let text = m.text();
    assert!(
        m.ephemeral
            && text.contains("pattern `p1` added to the new pool `league`")
            && text.contains(&format!(
                "`{}` reads: there is a small piece pointing left",
                SECRET[0]
            ))
            && text.contains("opens with: `1<` obeys, `1^` does not")
            && text.contains("difficulty hard; note: for the final"),
        "{text}"
    );
    let m = add(dave.id, "league", SECRET[1], vec![]).await;
    assert!(
        m.ephemeral
            && m.text().contains("pattern `p2` added to the pool `league`")
            && m.text().contains("difficulty medium")
            && m.text().contains("2 patterns"),
        "{}",
        m.text()
    );
    for (user, pool, pattern, says) in [
        (dave.id, "league", "points left some", "does not read"),
        (
            dave.id,
            "league",
            "there is a piece or there is no piece",
            "tautology",
        ),
        (
            dave.id,
            "league",
            "there are at least 9 pieces",
            "5 % to 95 %",
        ),
        (
            dave.id,
            "league",
            SECRET[0],
            "already has this pattern as `p1`",
        ),
        (dave.id, "pyramids", SECRET[0], "built-in pool's name"),
        (carol.id, "league", SECRET[0], "only a host"),
    ] {
        let m = add(user, pool, pattern, vec![]).await;
        assert!(
            m.ephemeral && m.text().contains(says) && !m.text().contains("added to"),
            "{pattern}: {}",
            m.text()
        );
    }
    let remove = |pool: &'static str, id: &'static str| {
        let fake = &fake;
        async move {
            let options = [("pool", json!(pool)), ("id", json!(id))];
            let i = fake.slash(dave.id, "pool pattern remove", &options).await;
            answer(fake, &i).await
        }
    };
    let m = remove("league", "p9").await;
    private_says(&m, "no entry `p9`: its ids are p1, p2");
    private_says(&remove("nowhere", "p1").await, "no pool `nowhere`");
    let m = remove("league", "p1").await;
    private_says(&m, "pattern `p1` removed from pool `league`");
    // The file comes back privately, and it is a pool every front reads.
    let i = fake
        .slash(dave.id, "pool export", &[("pool", json!("league"))])
        .await;
    let m = answer(&fake, &i).await;
    assert!(m.ephemeral, "{}", m.text());
    let (file, bytes) = m.files.first().expect("the pool file is attached");
    assert_eq!(file, "league.toml");
    let exported = String::from_utf8(bytes.clone()).expect("UTF-8");
    let pool = mondo::pool::Pool::from_toml(&exported).expect("the export loads");
    let ids: Vec<&str> = pool.entries().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["p2"]);
    assert_eq!(pool.entries()[0].pattern.source, SECRET[1]);
    let i = fake
        .slash(dave.id, "pool check", &[("name", json!("league"))])
        .await;
    private_says(&answer(&fake, &i).await, "is a good pool");

    // A host command refused to a non-host.
    let i = fake.slash(carol.id, "pool list", &[]).await;
    let m = answer(&fake, &i).await;
    assert!(
        m.ephemeral && m.text().contains("only a host"),
        "{}",
        m.text()
    );
    // The host role makes a host; forgotten, it no longer does.
    let umpires = fake.add_role("umpires");
    fake.give_role(carol.id, umpires);
    let i = fake
        .slash(
            dave.id,
            "settings",
            &[("host_role", json!(umpires.to_string()))],
        )
        .await;
    answer(&fake, &i).await;
    let i = fake.slash(carol.id, "pool list", &[]).await;
    let m = answer(&fake, &i).await;
    assert!(m.text().contains("default pool here"), "{}", m.text());
    let i = fake
        .slash(dave.id, "settings", &[("no_host_role", json!(true))])
        .await;
    answer(&fake, &i).await;
    let i = fake.slash(carol.id, "pool list", &[]).await;
    assert!(answer(&fake, &i).await.text().contains("only a host"));

    // alice challenges bob; bob cannot be DMed, which the opening says.
    let i = fake
        .slash(
            alice.id,
            "zendo duel",
            &[("opponent", json!(bob.id.to_string()))],
        )
        .await;
    let opening = accepted(&fake, &i, bob.id).await;
    let text = opening.text();
    assert!(text.contains("Zendo duel #1"), "{text}");
    assert!(
        text.contains(&format!("I cannot DM <@{}>", bob.id)),
        "{text}"
    );
    assert_eq!(opening.files.len(), 2, "the two initial structures");
    for (_, png) in &opening.files {
        let (w, h) = png_size(png);
        assert!(w >= 64 && h >= 64, "{w}x{h}");
    }
    let hello = fake
        .dm_channel_of(alice.id)
        .map(|c| fake.messages(c))
        .unwrap_or_default();
    assert!(
        hello.iter().any(|m| m.text().contains("Zendo duel")),
        "alice was told by DM where her answers will come"
    );

    // Only bob (the advantage) picks who starts; alice's press is refused politely.
    let start_alice = button(&opening, "My opponent starts");
    let i = fake.click(alice.id, opening.id, &start_alice).await;
    let m = answer(&fake, &i).await;
    assert!(
        m.ephemeral && m.text().contains("not your turn"),
        "{}",
        m.text()
    );
    let i = fake.click(bob.id, opening.id, &start_alice).await;
    let m = answer(&fake, &i).await;
    assert!(
        m.text().contains(&format!("<@{}> starts", alice.id)),
        "{}",
        m.text()
    );
    assert!(
        m.text().contains("<t:"),
        "the turn clock is a Discord countdown"
    );

    // A move out of turn is refused.
    let i = fake
        .slash(bob.id, "koan", &[("structure", json!("1v"))])
        .await;
    let m = answer(&fake, &i).await;
    assert!(
        m.ephemeral && m.text().contains("not your turn"),
        "{}",
        m.text()
    );

    // alice challenges a structure; both answer privately.
    let i = slash_challenge(&fake, alice.id, "2^ 3>").await;
    let challenge = answer(&fake, &i).await;
    assert!(
        challenge.text().contains("challenges"),
        "{}",
        challenge.text()
    );
    assert_eq!(
        challenge.files.len(),
        1,
        "the challenged structure's picture"
    );
    let ask = button(&challenge, "Answer privately");
    let dm = fake.dm_channel_of(alice.id).expect("alice's DM");
    let alice_dm = fake
        .wait_message(|m| m.channel_id == dm && !m.buttons().is_empty(), T)
        .await
        .expect("alice gets the answer buttons by DM");
    assert!(alice_dm.text().contains("<t:"), "with the deadline");
    let i = fake
        .click(alice.id, alice_dm.id, &button(&alice_dm, "Obeys"))
        .await;
    assert!(answer(&fake, &i).await.text().contains("is in"));
    channel_message(&fake, &format!("<@{}>'s answer is in", alice.id)).await;
    // carol is no player: no answer buttons for her.
    let i = fake.click(carol.id, challenge.id, &ask).await;
    assert!(
        answer(&fake, &i)
            .await
            .text()
            .contains("only the two players")
    );
    let i = fake.click(bob.id, challenge.id, &ask).await;
    let buttons = answer(&fake, &i).await;
    assert!(buttons.ephemeral, "bob's answer buttons are his alone");
    let i = fake
        .click(bob.id, buttons.id, &button(&buttons, "Does not"))
        .await;
    assert!(answer(&fake, &i).await.ephemeral);
    let reveal = channel_message(&fake, "2^ 3> obeys").await;
    assert!(
        reveal.text().contains("right: +1 ticket"),
        "{}",
        reveal.text()
    );
    assert_eq!(reveal.files.len(), 1);

    // A wrong guess, read back, made official: the counterexample, as a picture.
    let i = fake
        .slash(
            alice.id,
            "guess",
            &[("pattern", json!("exactly one piece points up"))],
        )
        .await;
    let reading = answer(&fake, &i).await;
    assert!(
        reading
            .text()
            .contains("guess #1 reads: there is exactly one piece pointing up")
    );
    let official = button(&reading, "Make it official");
    let i = fake.click(alice.id, reading.id, &official).await;
    assert!(answer(&fake, &i).await.text().contains("official"));
    let refuted = channel_message(&fake, "guess #1 is wrong").await;
    assert!(refuted.text().contains("#4 1^ 1^"), "{}", refuted.text());
    let (_, png) = &refuted.files[0];
    assert!(png_size(png).0 >= 64);
    // The same button again: that guess is decided, refused politely.
    let i = fake.click(alice.id, reading.id, &official).await;
    let m = answer(&fake, &i).await;
    assert!(m.ephemeral, "{}", m.text());
    let (first_reading, first_official) = (reading.id, official.clone());

    // alice has no ticket left: bob's turn. bob skips: alice gets a ticket.
    channel_message(&fake, &format!("turn 2: <@{}> to play", bob.id)).await;
    // A host pauses: the players wait; resumed, the clock goes on.
    let i = fake.slash(carol.id, "host pause", &[]).await;
    assert!(answer(&fake, &i).await.text().contains("only a host"));
    let i = fake.slash(dave.id, "host pause", &[]).await;
    assert!(answer(&fake, &i).await.text().contains("paused the match"));
    let i = fake.slash(bob.id, "pass", &[]).await;
    assert!(answer(&fake, &i).await.text().contains("paused by a host"));
    let i = fake.slash(dave.id, "host resume", &[]).await;
    assert!(answer(&fake, &i).await.text().contains("resumed the match"));
    // A host acting from another channel: the match's channel says it, the host
    // alone hears that it was done.
    let said = |what: &str| {
        fake.messages(fake.channel_id())
            .iter()
            .filter(|m| !m.ephemeral && m.text().contains(what))
            .count()
    };
    let paused_before = said("paused the match");
    let i = fake
        .slash_in(lobby, dave.id, "host pause", &[("match", json!(1))])
        .await;
    let m = answer(&fake, &i).await;
    assert!(
        m.ephemeral && m.text().contains(&format!("<#{}>", fake.channel_id())),
        "{}",
        m.text()
    );
    until_fake(&fake, "the match's channel never said the pause", |_| {
        said("paused the match") != paused_before
    })
    .await;
    let i = fake
        .slash_in(lobby, dave.id, "host resume", &[("match", json!(1))])
        .await;
    assert!(answer(&fake, &i).await.ephemeral);
    channel_message(&fake, "resumed the match").await;
    assert!(
        fake.messages(lobby).iter().all(|m| m.ephemeral),
        "nothing of the match is said publicly in another channel"
    );
    // alice opens the box for her next structure while it is still bob's turn: typed
    // in advance, it is accepted on her turn (a box is not a button answering a
    // question of the moment, so the match moving on does not make it stale).
    let early = fake.slash(alice.id, "koan", &[]).await;
    let opened = fake.replies(&early, T).await;
    assert!(
        opened.iter().any(|r| r.kind == ReplyKind::Callback(9)),
        "a modal: {opened:#?}"
    );
    // alice closes her DMs in the middle of the match: bob's challenge cannot reach
    // her there, and the channel's private button takes her answer instead.
    fake.set_dms_open(alice.id, false);
    let i = slash_challenge(&fake, bob.id, "2v 2v").await;
    let challenge = answer(&fake, &i).await;
    let ask = button(&challenge, "Answer privately");
    channel_message(
        &fake,
        &format!("<@{}>: I could not DM you the answer buttons", alice.id),
    )
    .await;
    for (who, says) in [(alice.id, "Does not"), (bob.id, "Obeys")] {
        let i = fake.click(who, challenge.id, &ask).await;
        let buttons = answer(&fake, &i).await;
        assert!(buttons.ephemeral, "{}", buttons.text());
        let i = fake.click(who, buttons.id, &button(&buttons, says)).await;
        assert!(answer(&fake, &i).await.ephemeral);
    }
    let reveal = channel_message(&fake, "2v 2v does not obey").await;
    assert!(
        reveal.text().contains(&format!(
            "<@{}> said does not obey (right: +1 ticket)",
            alice.id
        )),
        "{}",
        reveal.text()
    );
    // bob has no ticket to guess with: the turn passes.
    channel_message(&fake, &format!("turn 3: <@{}> to play", alice.id)).await;
    // Without a structure, /koan opened a box for several rows (above, before her
    // turn): submitted now, on her turn.
    // It is shown to her alone first, as a picture, and counts once she submits it.
    let field = KOAN_FIELD;
    let i = fake
        .submit_modal(alice.id, &early, &[(field, "```\n3v ..\n.. 1<\n```")])
        .await;
    let preview = answer(&fake, &i).await;
    assert!(
        preview.ephemeral && preview.files.len() == 1,
        "{}",
        preview.text()
    );
    let i = fake
        .click(alice.id, preview.id, &button(&preview, "Submit"))
        .await;
    let built = answer(&fake, &i).await;
    assert!(
        built.text().contains("3v .. / .. 1< does not obey"),
        "{}",
        built.text()
    );
    // The board: every structure so far in one picture, with the guesses.
    let i = fake.slash(carol.id, "zendo board", &[]).await;
    let m = answer(&fake, &i).await;
    assert!(m.ephemeral, "carol plays no match here: {}", m.text());
    let i = fake.slash(bob.id, "zendo board", &[]).await;
    let board = answer(&fake, &i).await;
    assert!(board.text().contains("6 structures"), "{}", board.text());
    assert!(
        board
            .text()
            .contains("guess #1: there is exactly one piece pointing up (wrong: see #4)")
    );
    assert_eq!(board.files.len(), 1);
    let i = fake
        .slash(
            alice.id,
            "guess",
            &[("pattern", json!("some piece points up"))],
        )
        .await;
    let reading = answer(&fake, &i).await;
    let official = button(&reading, "Make it official");
    // guess #1's button now finds a guess waiting, but not the one it was drawn for:
    // stale, refused, and guess #2 still waits.
    let i = fake.click(alice.id, first_reading, &first_official).await;
    let m = answer(&fake, &i).await;
    assert!(
        m.ephemeral && m.text().contains("earlier moment"),
        "{}",
        m.text()
    );

    // The bot dies mid-match and comes back.
    bot.killed(&fake).await;
    let before_restart = fake.requests().len();
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let i = fake.slash(alice.id, "zendo status", &[]).await;
    let status = answer(&fake, &i).await;
    // A card: the match, its clocks as Discord timestamps, the table's picture.
    assert_eq!(status.embeds.len(), 1, "{}", status.text());
    assert!(status.text().contains(":R>"), "{}", status.text());
    assert_eq!(
        status.embeds[0]["image"]["url"],
        format!("attachment://{}", status.files[0].0)
    );
    assert!(
        status.text().contains("guess #2 waits"),
        "{}",
        status.text()
    );
    assert!(status.text().contains("turn 3"), "{}", status.text());

    // The button drawn before the restart still works: the guess is proved right.
    let i = fake.click(alice.id, reading.id, &official).await;
    assert!(answer(&fake, &i).await.text().contains("official"));
    let won = channel_message(&fake, "wins with guess #2").await;
    assert!(
        won.text().contains(HIDDEN),
        "the pattern is revealed at the end"
    );
    assert!(!won.files.is_empty(), "with the final board");

    // Nothing the bot sent before the end carried the hidden pattern.
    let requests = fake.requests();
    let end = requests
        .iter()
        .position(|r| body_text(r.body.as_ref()).contains("wins with guess #2"))
        .expect("the win was posted");
    for r in &requests[..end] {
        assert!(
            !body_text(r.body.as_ref()).contains(HIDDEN),
            "{} {} leaked the hidden pattern",
            r.method,
            r.path
        );
    }
    assert!(end > before_restart, "the win came from the restarted bot");
    // Nor in the umpire's own words, until a player guessed those words themselves.
    let hidden = mondo::lang::parse(HIDDEN).expect("the hidden pattern reads");
    let english = mondo::lang::english_for(&hidden.formula, mondo::koan::PieceSet::Pyramids);
    let symbolic = mondo::lang::symbolic(&hidden.formula);
    let guessed = requests
        .iter()
        .position(|r| body_text(r.body.as_ref()).contains("guess #2 reads"))
        .expect("guess #2 was read back");
    for r in &requests[..guessed] {
        let body = body_text(r.body.as_ref());
        assert!(
            !body.contains(&english) && !body.contains(&symbolic),
            "{} {} leaked the hidden pattern as `{english}` / `{symbolic}`",
            r.method,
            r.path
        );
    }
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    for form in [HIDDEN, english.as_str(), symbolic.as_str()]
        .into_iter()
        .chain(SECRET)
    {
        assert!(
            !log.contains(form),
            "the log names the hidden pattern: {form}"
        );
    }

    // Solo practice, with the arrows and a freshly generated pattern: build, give up.
    let i = fake
        .slash(
            carol.id,
            "zendo practice",
            &[
                ("pool", json!("generated")),
                ("set", choice(&fake, "zendo practice", "set", "arrows")),
            ],
        )
        .await;
    let opened = answer(&fake, &i).await;
    assert!(
        opened.text().contains("Zendo practice #2"),
        "{}",
        opened.text()
    );
    let i = fake
        .slash(carol.id, "koan", &[("structure", json!("2^"))])
        .await;
    let m = answer(&fake, &i).await;
    assert!(m.ephemeral && m.text().contains("arrows"), "{}", m.text());
    let i = fake
        .slash(carol.id, "koan", &[("structure", json!("U R / . D"))])
        .await;
    assert!(answer(&fake, &i).await.text().contains("U R / . D"));
    let i = fake.slash(carol.id, "zendo resign", &[]).await;
    assert!(
        answer(&fake, &i)
            .await
            .text()
            .contains("you gave up. the pattern was")
    );

    // The patterns a host added in Discord went out only in private replies (text or
    // attached file).
    let mut privately = 0;
    for r in &fake.requests() {
        let mut sent = body_text(r.body.as_ref());
        for (_, bytes) in &r.files {
            sent.push_str(&String::from_utf8_lossy(bytes));
        }
        if !SECRET.iter().any(|s| sent.contains(s)) {
            continue;
        }
        let private = |v: Option<&Value>| v.and_then(Value::as_u64).is_some_and(|f| f & 64 != 0);
        let body = r.body.as_ref();
        assert!(
            private(body.map(|b| &b["flags"]))
                || private(body.map(|b| &b["data"]["flags"]))
                || private(r.response.as_ref().map(|m| &m["flags"])),
            "{} {} sent a host's pattern in public: {sent}",
            r.method,
            r.path
        );
        privately += 1;
    }
    // The two replies to the additions and the exported file, at least.
    assert!(
        privately >= 3,
        "only {privately} private replies named the patterns"
    );

    // Every request and answer fit Discord's schemas. How fast interactions are
    // acknowledged (Discord allows 3 s) is a speed target, measured by
    // `cargo bench --bench discord`, not asserted on a loaded test machine.
    let problems = fake.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    bot.kill();
    if let Some(dir) = std::env::var_os("E2E_TRANSCRIPT_DIR") {
        transcript(&fake, std::path::Path::new(&dir), &[alice.id, bob.id]);
    }
}

/// With E2E_TRANSCRIPT_DIR=DIR: the channel and DMs as the bot wrote them, and their
/// pictures, for people to read (docs/games/duel.md, "On Discord", shows them).
fn transcript(fake: &FakeDiscord, dir: &std::path::Path, users: &[u64]) {
    std::fs::create_dir_all(dir).expect("transcript dir");
    let mut out = String::new();
    let mut channels = vec![("channel".to_string(), fake.channel_id())];
    for u in users {
        if let Some(dm) = fake.dm_channel_of(*u) {
            channels.push((format!("DM <@{u}>"), dm));
        }
    }
    for (name, channel) in channels {
        out.push_str(&format!("## {name}\n\n"));
        for m in fake.messages(channel) {
            let who = if m.ephemeral {
                " (only the clicker sees it)"
            } else {
                ""
            };
            out.push_str(&format!("### message {}{who}\n{}\n", m.id, m.text()));
            for (file, png) in &m.files {
                let path = format!("{}-{file}", m.id);
                std::fs::write(dir.join(&path), png).expect("picture");
                out.push_str(&format!("[{file}]({path}) "));
            }
            for (id, label) in m.buttons() {
                out.push_str(&format!("[button: {label} `{id}`] "));
            }
            out.push_str("\n\n");
        }
    }
    std::fs::write(dir.join("transcript.md"), out).expect("transcript");
}

/// The value Discord sends for the choice named `name` of a command's option, as the
/// bot registered it (poise registers choices as integers). `command` is the full
/// path, e.g. `zendo practice`.
/// `/koan structure:STRUCTURE mode:challenge` by `user`.
async fn slash_challenge(fake: &FakeDiscord, user: u64, structure: &str) -> Interaction {
    fake.slash(
        user,
        "koan",
        &[
            ("structure", json!(structure)),
            ("mode", choice(fake, "koan", "mode", "challenge")),
        ],
    )
    .await
}

fn choice(fake: &FakeDiscord, command: &str, option: &str, name: &str) -> Value {
    let commands = fake.commands();
    let mut path = command.split_whitespace();
    let top = path.next().expect("a command");
    let mut def = commands
        .iter()
        .find(|c| c["name"] == top)
        .unwrap_or_else(|| panic!("no /{top}"))
        .clone();
    for sub in path {
        def = def["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == sub))
            .unwrap_or_else(|| panic!("no /{command}"))
            .clone();
    }
    let opt = def["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == option))
        .unwrap_or_else(|| panic!("/{command} has no option {option}"));
    opt["choices"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == name))
        .map(|c| c["value"].clone())
        .unwrap_or_else(|| panic!("/{command} {option} has no choice {name}: {opt}"))
}

fn body_text(body: Option<&Value>) -> String {
    body.map(Value::to_string).unwrap_or_default()
}

/// A Discord that accepts connections and never answers stops
/// `mondo serve` at start-up with one line and status 1 (here after the 1 s each step
/// is given), at its REST calls and, when REST answers, at the gateway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discord_that_never_answers_stops_start_up_with_one_line() {
    let silent = support::discord::SilentDiscord::start().await;
    let fake = FakeDiscord::start().await;
    let quick = ("MONDO_DISCORD_TIMEOUT_SECS", "1".to_string());
    let (status, last) = serve_until_it_stops(
        &fake,
        &[
            quick.clone(),
            ("MONDO_DISCORD_API_PROXY", silent.proxy_url()),
        ],
    )
    .await;
    assert_eq!(status, Some(1), "{last}");
    assert!(
        last.starts_with("error: Discord: no answer within 1 s (GET /users/@me"),
        "{last}"
    );
    fake.silence_gateway();
    let (status, last) = serve_until_it_stops(&fake, &[quick]).await;
    assert_eq!(status, Some(1), "{last}");
    assert!(
        last.starts_with("error: Discord: the gateway did not say READY within 1 s"),
        "{last}"
    );
    assert!(!fake.commands().is_empty(), "REST was answered");
}

/// Pattern Assembly over Discord with short durations: the grid is a picture during
/// the reveal and is deleted when it ends, also when the bot was killed in the middle
/// of the reveal; answers and the showdown go through the slash commands; no message
/// but the end's carries the grid once it is hidden.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assembly_match_over_discord_hides_its_grid_after_a_restart() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let env = [
        ("MONDO_ASSEMBLY_REVEAL_SECS", "4"),
        ("MONDO_ASSEMBLY_WAIT_SECS", "1"),
        ("MONDO_ASSEMBLY_ROUND_SECS", "3"),
        ("MONDO_ASSEMBLY_SHOWDOWN_SECS", "4"),
        ("MONDO_ASSEMBLY_ROUNDS", "1"),
    ];
    let mut bot = Served::start_with(&fake, &db, &log, &env);
    bot.ready(&fake).await;
    let channel = fake.channel_id();
    let is_grid = |m: &StoredMessage| m.files.iter().any(|(f, _)| f.ends_with("-grid.png"));

    let i = fake
        .slash(
            alice.id,
            "assembly duel",
            &[("opponent", json!(bob.id.to_string())), ("seed", json!(7))],
        )
        .await;
    let opening = accepted(&fake, &i, bob.id).await;
    assert!(
        opening.text().contains("Pattern Assembly"),
        "{}",
        opening.text()
    );
    let picture = fake
        .wait_message(|m| m.channel_id == channel && is_grid(m), T)
        .await
        .expect("the grid is posted as a picture");
    let (w, h) = png_size(&picture.files[0].1);
    assert!(w > 100 && h > 100, "a 6 x 6 grid picture, {w} x {h}");
    // A new match missed nothing: no "while Mondo was away" before any restart.
    for m in fake.messages(channel) {
        assert!(!m.text().contains("while Mondo was away"), "{}", m.text());
    }

    // Killed in the middle of the reveal; started again, the picture still goes.
    bot.killed(&fake).await;
    let mut bot = Served::start_with(&fake, &db, &log, &env);
    bot.ready(&fake).await;
    deleted(&fake, picture.id).await;
    channel_message(&fake, "The grid is hidden").await;
    // The round: its shape as a picture, its contents as symbols.
    let round = channel_message(&fake, "**Round 1** (3 points): find `").await;
    assert!(
        round.files.iter().any(|(f, _)| f == "assembly-round-1.png"),
        "the shape is a picture: {:?}",
        round.files.iter().map(|(f, _)| f).collect::<Vec<_>>()
    );

    // An answer through the slash command gets its verdict in the channel or privately.
    let i = fake
        .slash(alice.id, "assembly answer", &[("cells", json!("A1-A2-A3"))])
        .await;
    let a = answer(&fake, &i).await;
    assert!(!a.text().is_empty());
    let i = fake
        .slash(bob.id, "assembly answer", &[("cells", json!("Z9"))])
        .await;
    private_says(&answer(&fake, &i).await, "Z9");
    let i = fake.slash(bob.id, "assembly status", &[]).await;
    let status = answer(&fake, &i).await;
    private_says(&status, "Pattern Assembly");
    // A card, its clock as the other games' are: a Discord countdown.
    assert!(!status.embeds.is_empty(), "{}", status.text());
    assert!(
        status.text().contains(" left, ends <t:"),
        "{}",
        status.text()
    );

    // The showdown: both rebuild nothing (all blanks), so the end says no winner.
    // alice uses the box (a row a line, prefilled with blanks); a box of the wrong
    // size is refused saying why, with her text given back; bob types one line.
    channel_message(&fake, "Showdown").await;
    let field = mondo::bot::games::assembly::showdown::FIELD;
    let i = fake.slash(alice.id, "assembly showdown", &[]).await;
    let opened = fake.replies(&i, T).await;
    let modal = opened
        .iter()
        .find(|r| r.kind == ReplyKind::Callback(9))
        .and_then(|r| r.data.clone())
        .unwrap_or_else(|| panic!("a modal: {opened:#?}"));
    let input = &modal["components"][0]["components"][0];
    assert_eq!(input["style"], 2, "a paragraph: {input}");
    assert_eq!(input["value"], ["......"; 6].join("\n"), "{input}");
    assert!(
        input["label"]
            .as_str()
            .is_some_and(|l| l.contains("Rows A-F")),
        "{input}"
    );
    let i = fake.submit_modal(alice.id, &i, &[(field, "O X +")]).await;
    let refused = answer(&fake, &i).await;
    private_says(&refused, "1 rows given; the grid has 6 rows");
    private_says(&refused, "O X +");
    let i = fake.slash(alice.id, "assembly showdown", &[]).await;
    let i = fake
        .submit_modal(alice.id, &i, &[(field, &["......"; 6].join("\n"))])
        .await;
    assert!(!answer(&fake, &i).await.text().is_empty());
    let blank = ["......"; 6].join(" / ");
    let i = fake
        .slash(bob.id, "assembly showdown", &[("grid", json!(blank))])
        .await;
    assert!(!answer(&fake, &i).await.text().is_empty());
    let end = channel_message(&fake, "The grid was: ").await;
    let grid = end
        .text()
        .split("The grid was: ")
        .nth(1)
        .map(|g| g.lines().next().unwrap_or_default().trim().to_string())
        .expect("the end names the grid");
    let rows: Vec<&str> = grid.split(" / ").collect();
    assert_eq!(rows.len(), 6, "{grid}");
    // Only the end's message carries the grid; no picture is left.
    for m in fake.messages(channel) {
        assert!(!is_grid(&m), "a grid picture is left: {}", m.text());
        if m.id != end.id {
            for row in &rows {
                assert!(!m.text().contains(row), "{row} leaked in {}", m.text());
            }
        }
    }
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// Zendo Triple's three patterns, A, B and C (drawn in this order by seed 2 from a pool
/// of exactly these three): none may leave the bot before it is solved or the end.
const TRIPLE: [&str; 3] = [
    "some piece points up",
    "some piece points right",
    "some piece points left",
];
const TRIO: &str = r#"
[[entry]]
id = "up"
pattern = "some piece points up"
set = "arrows"
obeys = "U"
does_not_obey = "D"
difficulty = "easy"

[[entry]]
id = "right"
pattern = "some piece points right"
set = "arrows"
obeys = "R"
does_not_obey = "L"
difficulty = "easy"

[[entry]]
id = "left"
pattern = "some piece points left"
set = "arrows"
obeys = "L"
does_not_obey = "R"
difficulty = "easy"
"#;

/// A Zendo Triple over Discord, set up by a host between two players; bob,
/// the one challenged, chooses who starts with the opening's buttons. A structure is
/// challenged on A and B and answered privately per pattern: by DM
/// buttons for alice, by the channel's private button for bob (DMs closed). The bot is
/// killed (SIGKILL) while the challenge waits, with alice's sheet half filled, and
/// started again: her buttons from before the kill finish her sheet and the challenge
/// is revealed. bob's wrong guess on B gets its counterexample; alice solves A (which
/// then cannot be guessed again) and B, and wins. No request to Discord carries a
/// pattern (as written, in the umpire's words or symbolically) before it is solved or
/// the game ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_triple_over_discord_is_won_with_a_restart_in_a_challenge() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false); // DMs closed: answers in the channel
    let dave = fake.add_user("dave", true);
    fake.set_permissions(dave.id, MANAGE_GUILD);
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let file = fake.attachment("trio.toml", TRIO.as_bytes().to_vec());
    let i = fake.slash(dave.id, "pool add", &[("file", file)]).await;
    private_says(&answer(&fake, &i).await, "pool `trio` stored");

    // A player may not pick the seed (it would tell the patterns).
    let i = fake
        .slash(
            alice.id,
            "zendo triple",
            &[("opponent", json!(bob.id.to_string())), ("seed", json!(0))],
        )
        .await;
    private_says(&answer(&fake, &i).await, "only a host");
    let i = fake
        .slash(
            dave.id,
            "zendo triple",
            &[
                ("opponent", json!(bob.id.to_string())),
                ("player", json!(alice.id.to_string())),
                ("pool", json!("trio")),
                ("seed", json!(2)),
            ],
        )
        .await;
    let opening = accepted(&fake, &i, bob.id).await;
    let text = opening.text();
    assert!(text.contains("Zendo Triple #1"), "{text}");
    assert!(text.contains("#1 obeys all three, #2 obeys none"), "{text}");
    assert!(
        text.contains(&format!("I cannot DM <@{}>", bob.id)),
        "{text}"
    );
    assert_eq!(opening.files.len(), 2, "the two opening structures");
    assert!(
        text.contains(&format!(
            "<@{}>, you have the advantage: choose who starts",
            bob.id
        )),
        "{text}"
    );
    // Only bob chooses; he starts.
    let i = fake
        .click(alice.id, opening.id, &button(&opening, "I start"))
        .await;
    private_says(&answer(&fake, &i).await, "not your turn");
    let i = fake
        .click(bob.id, opening.id, &button(&opening, "I start"))
        .await;
    let started = answer(&fake, &i).await;
    assert!(
        started.text().contains(&format!("<@{}> starts", bob.id)),
        "{}",
        started.text()
    );

    // bob starts: he challenges `U D` on A and B.
    let i = fake
        .slash(
            bob.id,
            "koan",
            &[
                ("structure", json!("U D")),
                ("mode", choice(&fake, "koan", "mode", "challenge")),
                ("patterns", json!("A,B")),
            ],
        )
        .await;
    let challenge = answer(&fake, &i).await;
    assert!(
        challenge.text().contains("challenges U D on A, B"),
        "{}",
        challenge.text()
    );
    let ask = button(&challenge, "Answer privately");
    let dm = fake.dm_channel_of(alice.id).expect("alice's DM");
    let alice_dm = fake
        .wait_message(|m| m.channel_id == dm && !m.buttons().is_empty(), T)
        .await
        .expect("alice gets the answer buttons by DM");
    assert!(alice_dm.text().contains("on A, B"), "{}", alice_dm.text());
    // Half a sheet: nothing is sent to the umpire yet.
    let i = fake
        .click(alice.id, alice_dm.id, &button(&alice_dm, "A: obeys"))
        .await;
    let half = answer(&fake, &i).await;
    assert!(
        half.ephemeral && half.text().contains("Still to answer: B"),
        "{}",
        half.text()
    );

    // The bot dies while the challenge waits, and comes back. The fake must see the
    // old connection gone first, or a command could go to the dead one.
    bot.killed(&fake).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let i = fake.slash(bob.id, "zendo status", &[]).await;
    let status = answer(&fake, &i).await;
    assert!(status.text().contains("a challenge"), "{}", status.text());
    // alice's buttons from before the kill finish her sheet.
    let i = fake
        .click(alice.id, half.id, &button(&half, "B: does not"))
        .await;
    private_says(&answer(&fake, &i).await, "A obeys, B does not obey");
    // bob answers with the channel's private button, one pattern at a time.
    let i = fake.click(bob.id, challenge.id, &ask).await;
    let sheet = answer(&fake, &i).await;
    assert!(sheet.ephemeral, "{}", sheet.text());
    let i = fake
        .click(bob.id, sheet.id, &button(&sheet, "A: obeys"))
        .await;
    let sheet = answer(&fake, &i).await;
    let i = fake
        .click(bob.id, sheet.id, &button(&sheet, "B: obeys"))
        .await;
    private_says(&answer(&fake, &i).await, "are in");
    let reveal = channel_message(&fake, "revealed: A obeys, B does not, C ?").await;
    assert_eq!(reveal.files.len(), 1, "{}", reveal.text());
    assert!(reveal.text().contains("stones:"), "{}", reveal.text());

    // bob's wrong guess on B: read back, made official, refuted with a picture.
    let reading = official_guess(&fake, bob.id, "exactly one piece points right", "B").await;
    assert!(reading.text().contains("guess B1"), "{}", reading.text());
    let refuted = channel_message(&fake, "guess B1 is wrong").await;
    assert_eq!(refuted.files.len(), 1, "{}", refuted.text());
    channel_message(&fake, &format!("turn 2: <@{}> to play", alice.id)).await;

    // alice solves A, which then leaves the game, and B, which wins.
    official_guess(&fake, alice.id, TRIPLE[0], "A").await;
    let solved = channel_message(&fake, "solved pattern A").await;
    assert!(solved.text().contains(TRIPLE[0]), "{}", solved.text());
    let on = ("on", choice(&fake, "guess", "on", "A"));
    let i = fake
        .slash(alice.id, "guess", &[("pattern", json!(TRIPLE[0])), on])
        .await;
    private_says(&answer(&fake, &i).await, "solved");
    let i = fake.slash(alice.id, "zendo board", &[]).await;
    let board = answer(&fake, &i).await;
    assert!(board.text().contains("B: guess #1"), "{}", board.text());
    assert_eq!(board.files.len(), 1);
    official_guess(&fake, alice.id, TRIPLE[1], "B").await;
    let won = channel_message(&fake, "wins with two solved patterns").await;
    assert!(won.text().contains(TRIPLE[2]), "C is revealed at the end");
    assert!(!won.files.is_empty(), "with the final board");

    // No pattern left the bot before it was solved (A, B: before the guess that solved
    // it was read back in the guesser's own words) or the end (C).
    let requests = fake.requests();
    let first = |needle: &str| {
        requests
            .iter()
            .position(|r| body_text(r.body.as_ref()).contains(needle))
            .unwrap_or_else(|| panic!("never sent: {needle}"))
    };
    let until = [
        first("guess A1 on pattern A reads"),
        first("guess B2 on pattern B reads"),
        first("wins with two solved patterns"),
    ];
    for (pattern, until) in TRIPLE.iter().zip(until) {
        let hidden = mondo::lang::parse(pattern).expect("reads");
        let forms = [
            pattern.to_string(),
            mondo::lang::english_for(&hidden.formula, mondo::koan::PieceSet::Arrows),
            mondo::lang::symbolic(&hidden.formula),
        ];
        for r in &requests[..until] {
            let body = body_text(r.body.as_ref());
            for form in &forms {
                assert!(
                    !body.contains(form.as_str()),
                    "{} {} leaked `{form}`",
                    r.method,
                    r.path
                );
            }
        }
    }
    let problems = fake.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    bot.kill();
    if let Some(dir) = std::env::var_os("E2E_TRANSCRIPT_DIR") {
        let dir = std::path::Path::new(&dir).join("triple");
        transcript(&fake, &dir, &[alice.id, bob.id]);
    }
}

/// `/guess pattern:TEXT on:LETTER` by `user` in a Triple, made official with its
/// button: the read-back.
async fn official_guess(fake: &FakeDiscord, user: u64, text: &str, on: &str) -> StoredMessage {
    let on = ("on", choice(fake, "guess", "on", on));
    let i = fake
        .slash(user, "guess", &[("pattern", json!(text)), on])
        .await;
    let reading = answer(fake, &i).await;
    let i = fake
        .click(user, reading.id, &button(&reading, "Make it official"))
        .await;
    answer(fake, &i).await;
    reading
}

/// Pattern Assembly Plus practised alone over Discord, with a host's commands: a
/// non-host is refused, and so is the player; the host changes the grid in round 1, so after
/// it the new grid is shown as a new picture and deleted again; names the showdown's
/// region, so the showdown box asks for that part only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assembly_plus_practice_takes_its_hosts_grid_change_and_region() {
    let fake = FakeDiscord::start().await;
    let carol = fake.add_user("carol", true);
    let bob = fake.add_user("bob", true);
    let dave = fake.add_user("dave", true);
    fake.set_permissions(carol.id, MANAGE_GUILD);
    fake.set_permissions(dave.id, MANAGE_GUILD);
    let dir = tempfile::tempdir().unwrap();
    let (db, log) = (dir.path().join("mondo.db"), dir.path().join("mondo.log"));
    let env = [
        ("MONDO_ASSEMBLY_REVEAL_SECS", "2"),
        ("MONDO_ASSEMBLY_ROUND_SECS", "4"),
        ("MONDO_ASSEMBLY_SHOWDOWN_SECS", "20"),
        ("MONDO_ASSEMBLY_ROUNDS", "2"),
    ];
    let mut bot = Served::start_with(&fake, &db, &log, &env);
    bot.ready(&fake).await;
    let channel = fake.channel_id();
    let is_grid = |m: &StoredMessage| m.files.iter().any(|(f, _)| f.ends_with("-grid.png"));

    let i = fake
        .slash(carol.id, "assembly practice", &[("plus", json!(true))])
        .await;
    assert!(
        answer(&fake, &i)
            .await
            .text()
            .contains("Pattern Assembly Plus")
    );
    let first = fake
        .wait_message(|m| m.channel_id == channel && is_grid(m), T)
        .await
        .expect("the grid is shown");
    deleted(&fake, first.id).await;
    let round = channel_message(&fake, "**Round 1**, target 3 (1 point)").await;
    assert!(round.files.iter().any(|(f, _)| f == "assembly-round-1.png"));

    let i = fake.slash(dave.id, "assembly change", &[]).await;
    answer(&fake, &i).await;
    channel_message(&fake, "will change the grid after this round").await;
    let i = fake.slash(bob.id, "assembly change", &[]).await;
    private_says(&answer(&fake, &i).await, "only a host can do that");
    // carol may host here, but not a match she plays.
    let i = fake.slash(carol.id, "assembly reveal", &[]).await;
    private_says(&answer(&fake, &i).await, "you play in this match");
    let i = fake
        .slash(dave.id, "assembly region", &[("region", json!("B-Z 2-3"))])
        .await;
    private_says(&answer(&fake, &i).await, "`Z3` is off the grid");
    let i = fake
        .slash(dave.id, "assembly region", &[("region", json!("b-c 2-3"))])
        .await;
    answer(&fake, &i).await;
    channel_message(&fake, "The showdown will cover rows and columns B-C 2-3").await;

    // After round 1: the new grid, as a new picture, deleted when hidden.
    channel_message(&fake, "The grid has changed!").await;
    let second = fake
        .wait_message(
            |m| m.channel_id == channel && is_grid(m) && m.id != first.id,
            T,
        )
        .await
        .expect("the new grid is shown");
    deleted(&fake, second.id).await;
    channel_message(&fake, "**Round 2**").await;

    // The showdown's box covers the region only.
    channel_message(&fake, "Showdown").await;
    let field = mondo::bot::games::assembly::showdown::FIELD;
    let i = fake.slash(carol.id, "assembly showdown", &[]).await;
    let opened = fake.replies(&i, T).await;
    let modal = opened
        .iter()
        .find_map(|r| r.data.clone().filter(|_| r.kind == ReplyKind::Callback(9)))
        .unwrap_or_else(|| panic!("a modal: {opened:#?}"));
    let input = &modal["components"][0]["components"][0];
    assert_eq!(input["value"], "..\n..", "{input}");
    assert!(
        input["label"]
            .as_str()
            .is_some_and(|l| l.starts_with("Rows B-C, columns 2-3"))
    );
    let i = fake.submit_modal(carol.id, &i, &[(field, "..\n..")]).await;
    answer(&fake, &i).await;
    channel_message(&fake, "Practice over (finished)").await;
    assert!(fake.messages(channel).iter().all(|m| !is_grid(m)));
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// A host sets the original Pattern Assembly's wrong-shape rule for their server with
/// `/assembly settings` (a player may not): by default a wrong shape waits like any
/// answer (the rules' change); after `at once` (the first rule) a new match says it at
/// once, without its contents.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_wrong_shape_rule_applies_to_new_assembly_matches() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let dave = fake.add_user("dave", true);
    fake.set_permissions(dave.id, MANAGE_GUILD);
    let dir = tempfile::tempdir().unwrap();
    let (db, log) = (dir.path().join("mondo.db"), dir.path().join("mondo.log"));
    let env = [
        ("MONDO_ASSEMBLY_REVEAL_SECS", "1"),
        ("MONDO_ASSEMBLY_WAIT_SECS", "600"),
        ("MONDO_ASSEMBLY_ROUND_SECS", "600"),
        ("MONDO_ASSEMBLY_ROUNDS", "1"),
    ];
    let mut bot = Served::start_with(&fake, &db, &log, &env);
    bot.ready(&fake).await;
    let at_once = choice(
        &fake,
        "assembly settings",
        "wrong_shape",
        "at once: a wrong shape is said at once (the first rule)",
    );
    let i = fake
        .slash(
            alice.id,
            "assembly settings",
            &[("wrong_shape", at_once.clone())],
        )
        .await;
    private_says(&answer(&fake, &i).await, "only a host");
    let i = fake.slash(dave.id, "assembly settings", &[]).await;
    private_says(
        &answer(&fake, &i).await,
        "every answer waits, a wrong shape too",
    );

    // The default: the wrong shape waits.
    let i = fake.slash(alice.id, "assembly practice", &[]).await;
    answer(&fake, &i).await;
    let first_round = channel_message(&fake, "**Round 1**").await;
    let i = fake
        .slash(alice.id, "assembly answer", &[("cells", json!("A1-A3-A5"))])
        .await;
    answer(&fake, &i).await;
    channel_message(&fake, "answered A1-A3-A5: waiting period").await;
    let i = fake.slash(alice.id, "assembly resign", &[]).await;
    answer(&fake, &i).await;

    // At once, for new matches.
    let i = fake
        .slash(dave.id, "assembly settings", &[("wrong_shape", at_once)])
        .await;
    private_says(&answer(&fake, &i).await, "announced at once");
    let i = fake.slash(alice.id, "assembly practice", &[]).await;
    answer(&fake, &i).await;
    let channel = fake.channel_id();
    fake.wait_message(
        |m| m.channel_id == channel && m.text().contains("**Round 1**") && m.id != first_round.id,
        T,
    )
    .await
    .expect("the second practice's round 1");
    let i = fake
        .slash(alice.id, "assembly answer", &[("cells", json!("A1-A3-A5"))])
        .await;
    let said = answer(&fake, &i).await;
    assert!(
        said.text().contains("A1-A3-A5 is the wrong shape"),
        "{}",
        said.text()
    );
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// Waits until message `id` is deleted (by a DELETE of it, not an edit).
async fn deleted(fake: &FakeDiscord, id: u64) {
    let never = format!("the grid picture {id} was never deleted");
    until_fake(fake, &never, |f| f.message(id).is_none()).await;
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.method == "DELETE" && r.path.ends_with(&format!("/messages/{id}"))),
        "the picture went by a DELETE"
    );
}

/// Logical Bluffs over Discord, played to a win: Alice's private state comes by DM,
/// Bob's (DMs closed) through `/bluffs status`, which only he sees. Each bluff goes
/// through the form and its read-back (a refused statement first: nothing counts), the
/// marks through private buttons (Bob uses his Detective), the layout guess through
/// the Reveal's form; the bot is killed and restarted at Claiming, and the buttons sent
/// before go on working. The layout and each player's tiles appear in no channel message
/// before the end, in no other player's DM or private message, and in no log line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bluffs_match_over_discord_keeps_each_players_secrets() {
    use mondo::lang::tiles::Colour;
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false);
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let seed = 4242u64;
    let (layout, [known_a, known_b]) = mondo::rules::bluffs::deal(seed, 4);
    let said = |cells: &[mondo::lang::tiles::Cell]| -> Vec<String> {
        cells
            .iter()
            .map(|c| format!("{c} {}", layout.colour(*c).name()))
            .collect()
    };
    let (tiles_a, tiles_b) = (said(&known_a), said(&known_b));

    let opening = bluffs_duel(&fake, alice.id, bob.id, seed).await;
    assert!(
        opening.text().contains("Logical Bluffs"),
        "{}",
        opening.text()
    );
    assert!(opening.text().contains("cannot DM"), "{}", opening.text());
    // A host's `/host pause` and `/host resume` without `match:` find the channel's
    // one live match whatever its game (not only a duel's or an Assembly's).
    let dave = fake.add_user("dave", false);
    fake.set_permissions(dave.id, MANAGE_GUILD);
    let i = fake.slash(dave.id, "host pause", &[]).await;
    let m = answer(&fake, &i).await;
    assert!(m.text().contains("paused the match"), "{}", m.text());
    let i = fake.slash(dave.id, "host resume", &[]).await;
    let m = answer(&fake, &i).await;
    assert!(m.text().contains("The match goes on"), "{}", m.text());
    // Alice's tiles by DM, with their picture.
    let dm_a = fake.dm_channel(alice.id);
    let mine_a = fake
        .wait_message(
            |m| m.channel_id == dm_a && m.text().contains("only to you"),
            T,
        )
        .await
        .expect("Alice's tiles by DM");
    for t in &tiles_a {
        assert!(mine_a.text().contains(t), "{t} not in {}", mine_a.text());
    }
    assert!(mine_a.files.iter().any(|(f, _)| f == "your-tiles.png"));
    // Bob's through /bluffs status, only to him.
    let i = fake.slash(bob.id, "bluffs status", &[]).await;
    let mine_b = answer(&fake, &i).await;
    assert!(mine_b.ephemeral);
    // The status as every game's: a card, with its clock as a Discord countdown.
    let title = mine_b.embeds.first().and_then(|e| e["title"].as_str());
    assert!(
        title.is_some_and(|t| t.starts_with("Logical Bluffs #")),
        "{:?}",
        mine_b.embeds
    );
    assert!(
        mine_b.text().contains(" left, ends <t:"),
        "{}",
        mine_b.text()
    );
    for t in &tiles_b {
        assert!(mine_b.text().contains(t), "{t} not in {}", mine_b.text());
    }

    // Bluffing through the form: a statement that does not involve every tile is read
    // back refused, and nothing counts.
    let refused = bluffs_form(&fake, alice.id, "A1-A2-B1-B2", "The leftmost tile is red.").await;
    private_says(&refused, "Nothing counted");
    assert!(refused.buttons().is_empty());
    for (who, subset) in [(alice.id, "A1-A2-B1-B2"), (bob.id, "C1-C2-D1-D2")] {
        let read = bluffs_form(&fake, who, subset, &there_is_a(Colour::ALL[0])).await;
        private_says(&read, "reads as");
        let s = fake
            .click(who, read.id, &button(&read, "Submit this bluff"))
            .await;
        private_says(&answer(&fake, &s).await, "Your bluff is in");
    }
    channel_message(&fake, "Claiming").await;
    // Killed and started again: the match reads back from the store, and the buttons
    // drawn before the kill still work (they carry all they need).
    bot.killed(&fake).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    // Claiming: Alice by her DM's buttons, Bob (Detective first) by his status's.
    let claim_a = fake
        .wait_message(
            |m| m.channel_id == dm_a && m.text().contains("mark each statement"),
            T,
        )
        .await
        .expect("Alice's mark buttons by DM");
    // In her DM the message redrawn is hers alone.
    let marked = bluffs_mark_all(&fake, claim_a.id, alice.id, 1).await;
    assert!(marked.channel_id == dm_a && marked.text().contains("Your marks are in"));
    let i = fake.slash(bob.id, "bluffs status", &[]).await;
    let claim_b = answer(&fake, &i).await;
    let d = fake
        .click(bob.id, claim_b.id, &button(&claim_b, "1: Detective"))
        .await;
    let detected = answer(&fake, &d).await;
    assert!(
        detected.text().contains("Detective: statement 1 is"),
        "{}",
        detected.text()
    );
    private_says(
        &bluffs_mark_all(&fake, claim_b.id, bob.id, 2).await,
        "Your marks are in",
    );
    channel_message(&fake, "Reveal").await;

    // Reveal: Alice guesses the layout by the form; Bob passes.
    let reveal_a = fake
        .wait_message(
            |m| m.channel_id == dm_a && m.text().contains("Reveal (only you"),
            T,
        )
        .await
        .expect("Alice's reveal controls by DM");
    let g = fake
        .click(
            alice.id,
            reveal_a.id,
            &button(&reveal_a, "Guess the layout"),
        )
        .await;
    let s = fake
        .submit_modal(alice.id, &g, &[("layout", &layout.to_string())])
        .await;
    private_says(&answer(&fake, &s).await, "Your guess");
    let i = fake.slash(bob.id, "bluffs status", &[]).await;
    let reveal_b = answer(&fake, &i).await;
    let p = fake
        .click(bob.id, reveal_b.id, &button(&reveal_b, "Pass"))
        .await;
    private_says(&answer(&fake, &p).await, "You pass");
    let end = channel_message(&fake, "wins").await;
    assert!(
        end.text().contains(&format!("<@{}> wins", alice.id)),
        "{}",
        end.text()
    );
    assert!(end.text().contains(&layout.to_string()), "{}", end.text());

    // Secrets: the layout only in the end's message; a player's tiles only to them.
    bluffs_secrets_kept(
        &fake,
        &end,
        &layout,
        [(alice.id, &tiles_a), (bob.id, &tiles_b)],
        &log,
    );
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// A 3-student Zendo Classic over Discord. A host opens the lobby as the
/// Master (picking the rule from a pool, not playing); three students join; a
/// non-host's Start is refused and the host's starts it; a mondo is answered privately
/// by DM buttons (alice, carol) and the channel's private button (bob, DMs closed); a
/// wrong guess gets its counterexample; a right guess wins. The rule (as written, in
/// English and symbolic) is in no request to Discord before a student guessed it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_game_over_discord_from_lobby_to_win() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false);
    let carol = fake.add_user("carol", true);
    let dave = fake.add_user("dave", true);
    fake.set_permissions(dave.id, MANAGE_GUILD);
    let dir = tempfile::tempdir().unwrap();
    let mut bot = Served::start(&fake, &dir.path().join("m.db"), &dir.path().join("m.log"));
    bot.ready(&fake).await;
    let file = fake.attachment("e2e.toml", POOL.as_bytes().to_vec());
    let i = fake.slash(dave.id, "pool add", &[("file", file)]).await;
    private_says(&answer(&fake, &i).await, "pool `e2e` stored");

    // The lobby: dave is the Master (a host who picks the rule and does not play).
    let options = [("pool", json!("e2e")), ("pattern-id", json!("up"))];
    let i = fake.slash(carol.id, "zendo classic", &options).await;
    private_says(&answer(&fake, &i).await, "only a host");
    let i = fake.slash(dave.id, "zendo classic", &options).await;
    let lobby = answer(&fake, &i).await;
    assert!(
        lobby.text().contains("Zendo Classic lobby")
            && lobby.text().contains(&format!("<@{}> (a host", dave.id)),
        "{}",
        lobby.text()
    );
    let join = button(&lobby, "Join");
    let i = fake.click(dave.id, lobby.id, &join).await;
    private_says(&answer(&fake, &i).await, "the Master does not play");
    for u in [alice.id, bob.id, carol.id] {
        let i = fake.click(u, lobby.id, &join).await;
        answer(&fake, &i).await;
    }
    let i = fake.click(alice.id, lobby.id, &join).await;
    private_says(&answer(&fake, &i).await, "in already");
    let lobby = fake.message(lobby.id).expect("the lobby");
    assert!(
        lobby.text().contains(&format!(
            "1. <@{}>, 2. <@{}>, 3. <@{}>",
            alice.id, bob.id, carol.id
        )),
        "{}",
        lobby.text()
    );
    let start = button(&lobby, "Start");
    let i = fake.click(carol.id, lobby.id, &start).await;
    private_says(&answer(&fake, &i).await, "or a host starts it");
    fake.click(dave.id, lobby.id, &start).await;
    let opening = channel_message(&fake, "Zendo Classic #1").await;
    let text = opening.text();
    assert!(
        text.contains(&format!("I cannot DM <@{}>", bob.id)),
        "{text}"
    );
    assert_eq!(opening.files.len(), 2, "the two initial structures");
    let i = fake.click(alice.id, lobby.id, &join).await;
    private_says(&answer(&fake, &i).await, "this lobby is closed");

    // alice calls mondo; every student answers privately.
    let mondo = choice(&fake, "koan", "call", "mondo");
    let i = fake
        .slash(bob.id, "koan", &[("structure", json!("1v"))])
        .await;
    private_says(&answer(&fake, &i).await, "not your turn");
    let i = fake
        .slash(
            alice.id,
            "koan",
            &[("structure", json!("2^ 3>")), ("call", mondo)],
        )
        .await;
    let called = answer(&fake, &i).await;
    assert!(called.text().contains("calls mondo"), "{}", called.text());
    let ask = button(&called, "Answer privately");
    for (user, label) in [(alice.id, "Obeys"), (carol.id, "Does not")] {
        let dm = fake.dm_channel_of(user).expect("a DM");
        let buttons = fake
            .wait_message(|m| m.channel_id == dm && !m.buttons().is_empty(), T)
            .await
            .expect("answer buttons by DM");
        let i = fake.click(user, buttons.id, &button(&buttons, label)).await;
        assert!(answer(&fake, &i).await.text().contains("is in"));
    }
    channel_message(&fake, &format!("<@{}>'s answer is in", carol.id)).await;
    let i = fake.click(dave.id, called.id, &ask).await;
    private_says(&answer(&fake, &i).await, "only this game's students");
    let i = fake.click(bob.id, called.id, &ask).await;
    let buttons = answer(&fake, &i).await;
    assert!(buttons.ephemeral, "bob's answer buttons are his alone");
    let i = fake
        .click(bob.id, buttons.id, &button(&buttons, "Obeys"))
        .await;
    assert!(answer(&fake, &i).await.ephemeral);
    let reveal = channel_message(&fake, "2^ 3> obeys").await;
    assert!(reveal.text().contains("+1 stone"), "{}", reveal.text());

    // A wrong guess: read back, made official, disproved; alice has no stone left.
    let i = fake
        .slash(
            alice.id,
            "guess",
            &[("pattern", json!("exactly one piece points up"))],
        )
        .await;
    let reading = answer(&fake, &i).await;
    let i = fake
        .click(alice.id, reading.id, &button(&reading, "Make it official"))
        .await;
    answer(&fake, &i).await;
    let refuted = channel_message(&fake, "guess #1 is wrong").await;
    assert!(!refuted.files.is_empty(), "the counterexample's picture");
    channel_message(&fake, &format!("turn 2: <@{}> to play", bob.id)).await;
    let i = fake.slash(carol.id, "zendo status", &[]).await;
    private_says(&answer(&fake, &i).await, "Zendo Classic #1");

    // bob builds (master marks it at once), then guesses right and wins.
    let i = fake
        .slash(bob.id, "koan", &[("structure", json!("1v"))])
        .await;
    answer(&fake, &i).await;
    let i = fake
        .slash(bob.id, "guess", &[("pattern", json!(HIDDEN))])
        .await;
    let reading = answer(&fake, &i).await;
    let i = fake
        .click(bob.id, reading.id, &button(&reading, "Make it official"))
        .await;
    answer(&fake, &i).await;
    channel_message(&fake, "wins with guess #2").await;

    // A host may type the rule in a private box instead: checked before the lobby opens.
    let typed = [("master", json!(true))];
    let i = fake.slash(carol.id, "zendo classic", &typed).await;
    private_says(&answer(&fake, &i).await, "only a host");
    for (rule, says) in [
        ("some piece is purple", "does not read"),
        ("at least one piece points down", "the lobby is open"),
    ] {
        let i = fake.slash(dave.id, "zendo classic", &typed).await;
        let s = fake.submit_modal(dave.id, &i, &[("rule", rule)]).await;
        let said = fake
            .wait_reply(
                &s,
                |r| r.message.as_ref().is_some_and(|m| m.text().contains(says)),
                T,
            )
            .await;
        assert!(said.is_some(), "{rule}: {:?}", fake.replies_now(&s));
    }
    let lobby = channel_message(&fake, "Zendo Classic lobby").await;
    assert!(
        lobby.text().contains(&format!("<@{}> (a host", dave.id)),
        "{}",
        lobby.text()
    );

    no_rule_before(&fake, "guess #2 reads");
}

/// No request the bot made before the first that says `marker` (a guess read back)
/// carried the hidden rule, as written or in the umpire's own words.
fn no_rule_before(fake: &FakeDiscord, marker: &str) {
    let requests = fake.requests();
    let guessed = requests
        .iter()
        .position(|r| body_text(r.body.as_ref()).contains(marker))
        .unwrap_or_else(|| panic!("nothing said `{marker}`"));
    let hidden = mondo::lang::parse(HIDDEN).expect("the rule reads");
    let english = mondo::lang::english_for(&hidden.formula, mondo::koan::PieceSet::Pyramids);
    let symbolic = mondo::lang::symbolic(&hidden.formula);
    for r in &requests[..guessed] {
        let body = body_text(r.body.as_ref());
        for form in [HIDDEN, english.as_str(), symbolic.as_str()] {
            assert!(
                !body.contains(form),
                "{} {} leaked the rule as `{form}`",
                r.method,
                r.path
            );
        }
    }
}

/// `who` challenges `opponent` to Logical Bluffs with `seed`; the opening answered.
async fn bluffs_duel(fake: &FakeDiscord, who: u64, opponent: u64, seed: u64) -> StoredMessage {
    let options = [
        ("opponent", json!(opponent.to_string())),
        ("seed", json!(seed)),
    ];
    let i = fake.slash(who, "bluffs duel", &options).await;
    accepted(fake, &i, opponent).await
}

/// `There is a COLOUR tile.`: a statement that involves every tile of any subset.
fn there_is_a(colour: mondo::lang::tiles::Colour) -> String {
    format!("There is a {} tile.", colour.name())
}

/// `who` fills in the Bluffs form (`/bluffs bluff`): `subset`, `first`, then
/// [`there_is_a`] each colour but the first; the read-back answered.
async fn bluffs_form(fake: &FakeDiscord, who: u64, subset: &str, first: &str) -> StoredMessage {
    use mondo::lang::tiles::Colour;
    let mut values = vec![("subset", subset.to_string()), ("s1", first.to_string())];
    for (field, colour) in ["s2", "s3", "s4"].into_iter().zip(&Colour::ALL[1..]) {
        values.push((field, there_is_a(*colour)));
    }
    let i = fake.slash(who, "bluffs bluff", &[]).await;
    let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let s = fake.submit_modal(who, &i, &values).await;
    answer(fake, &s).await
}

/// `who` marks opposing statements `from` to 4 true on the mark buttons of message
/// `id` (each press redraws it), then submits the marks; the answer.
async fn bluffs_mark_all(fake: &FakeDiscord, id: u64, who: u64, from: usize) -> StoredMessage {
    for n in from..=4 {
        let m = fake.message(id).expect("the controls");
        fake.click(who, id, &button(&m, &format!("{n}: true")))
            .await;
        until_fake(fake, "never redrawn", |f| {
            f.message(id).expect("the controls").updated != m.updated
        })
        .await;
    }
    let m = fake.message(id).expect("the controls");
    let s = fake.click(who, id, &button(&m, "Submit marks")).await;
    answer(fake, &s).await
}

/// Logical Bluffs' secrets kept: the layout in no channel message but the end's
/// (`end`) and in no log line; each player's tiles (`CELL colour`) in no channel
/// message but the private answers to them, in no other player's DM, in no log line.
fn bluffs_secrets_kept(
    fake: &FakeDiscord,
    end: &StoredMessage,
    layout: &mondo::lang::tiles::Layout,
    players: [(u64, &Vec<String>); 2],
    log: &std::path::Path,
) {
    let layout = layout.to_string();
    for m in fake.messages(fake.channel_id()) {
        let text = m.text();
        if m.id != end.id {
            assert!(!text.contains(&layout), "layout leaked: {text}");
        }
        let owner = m
            .interaction
            .and_then(|i| fake.interaction_user(i))
            .unwrap_or(0);
        for (who, tiles) in players {
            if m.ephemeral && owner == who {
                continue;
            }
            for t in tiles {
                assert!(!text.contains(t.as_str()), "{t} of {who} leaked: {text}");
            }
        }
    }
    for (reader, _) in players {
        let Some(dm) = fake.dm_channel_of(reader) else {
            continue;
        };
        for m in fake.messages(dm) {
            for (who, tiles) in players.iter().filter(|(who, _)| *who != reader) {
                for t in tiles.iter() {
                    assert!(
                        !m.text().contains(t.as_str()),
                        "{who}'s {t} in {reader}'s DM"
                    );
                }
            }
        }
    }
    let logged = std::fs::read_to_string(log).unwrap_or_default();
    assert!(!logged.contains(&layout), "the layout is in the log");
    for row in layout.split('/') {
        assert!(
            !logged.contains(&format!("{row}/")),
            "a layout row is in the log"
        );
    }
    for t in players.iter().flat_map(|(_, tiles)| tiles.iter()) {
        assert!(!logged.contains(t.as_str()), "{t} is in the log");
    }
}

/// The string select menu of a message: its custom id and its options' values.
fn select_menu(m: &StoredMessage) -> (String, Vec<String>) {
    m.components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|c| c["type"] == 3)
        .map(|c| {
            let values = c["options"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|o| o["value"].as_str().map(String::from))
                .collect();
            (c["custom_id"].as_str().unwrap_or("").to_string(), values)
        })
        .unwrap_or_else(|| panic!("no select on {:?}", m.text()))
}

/// Logical Bluffs with a `[bluffs]` section (`MONDO_BLUFFS_*`): the duel takes its
/// known tiles (3) and reveal cost (1 RP). Alice's bluff is read back twice (two
/// subsets); the bot is killed and started again before she submits, and the *Submit*
/// of the first read-back, drawn before the kill, submits exactly that bluff. In Reveal
/// Alice buys a tile through her DM's select: she alone learns its colour; Bob and the
/// channel learn only how many she bought; the tile is in no other message, no other
/// DM and no log line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bluffs_reveal_bought_by_select_and_a_bluff_read_back_before_a_restart() {
    use mondo::lang::tiles::{Cell, Colour, Subset};
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false);
    let config = [
        ("MONDO_BLUFFS_KNOWN_TILES", "3"),
        ("MONDO_BLUFFS_REVEAL_COST", "1"),
    ];
    let mut bot = Served::start_with(&fake, &db, &log, &config);
    bot.ready(&fake).await;
    let seed = 777u64;
    let (layout, [known_a, known_b]) = mondo::rules::bluffs::deal(seed, 3);
    let said = |c: Cell| format!("{c} {}", layout.colour(c).name());
    let mut tiles_a: Vec<String> = known_a.iter().map(|c| said(*c)).collect();
    let tiles_b: Vec<String> = known_b.iter().map(|c| said(*c)).collect();

    let opening = bluffs_duel(&fake, alice.id, bob.id, seed).await;
    assert!(
        opening.text().contains("knows 3 tiles"),
        "{}",
        opening.text()
    );
    let dm_a = fake.dm_channel(alice.id);

    // Two read-backs, then the bot dies before Alice submits either.
    let (kept, newer) = ("A1-A2-B1-B2", "A3-A4-B3-B4");
    let first = there_is_a(Colour::ALL[0]);
    let read = bluffs_form(&fake, alice.id, kept, &first).await;
    private_says(&read, "It counts once you submit it");
    private_says(
        &bluffs_form(&fake, alice.id, newer, &first).await,
        "It counts once you submit it",
    );
    bot.killed(&fake).await;
    let mut bot = Served::start_with(&fake, &db, &log, &config);
    bot.ready(&fake).await;
    let s = fake
        .click(alice.id, read.id, &button(&read, "Submit this bluff"))
        .await;
    private_says(&answer(&fake, &s).await, "Your bluff is in");
    let read_b = bluffs_form(&fake, bob.id, "C1-C2-D1-D2", &first).await;
    let s = fake
        .click(bob.id, read_b.id, &button(&read_b, "Submit this bluff"))
        .await;
    private_says(&answer(&fake, &s).await, "Your bluff is in");
    let shown = channel_message(&fake, &format!("<@{}>'s bluff on", alice.id)).await;
    let subset = |s: &str| s.parse::<Subset>().expect("a subset").to_string();
    assert!(
        shown
            .text()
            .contains(&format!("<@{}>'s bluff on {}:", alice.id, subset(kept)))
            && !shown.text().contains(&subset(newer)),
        "the bluff submitted is the one that button read back: {}",
        shown.text()
    );

    // Claiming, then Reveal: Alice (at least 1 RP: one of her colours is there) buys a
    // tile Bob does not know through the select in her DM.
    let claim_a = fake
        .wait_message(
            |m| m.channel_id == dm_a && m.text().contains("mark each statement"),
            T,
        )
        .await
        .expect("Alice's mark buttons by DM");
    // The same controls as an older Mondo posted them (`bluffs:GAME:VERB`, no version):
    // pressing one acts no more (nothing says which round it was for) and the current
    // controls are drawn in its place, the Detective still unspent.
    fake.rewrite_custom_ids(claim_a.id, |id| {
        let parts: Vec<&str> = id.splitn(4, ':').collect();
        match parts[..] {
            ["m", game, _version, rest] => format!("bluffs:{game}:{rest}"),
            _ => id.to_string(),
        }
    });
    let old = fake.message(claim_a.id).expect("the controls");
    let detective = button(&old, "1: Detective");
    assert!(detective.starts_with("bluffs:"), "{detective}");
    fake.click(alice.id, claim_a.id, &detective).await;
    until_fake(&fake, "never redrawn", |f| {
        f.message(claim_a.id).expect("the controls").updated != old.updated
    })
    .await;
    let redrawn = fake.message(claim_a.id).expect("the controls");
    assert!(
        redrawn
            .text()
            .contains("from an older Mondo and did nothing"),
        "{}",
        redrawn.text()
    );
    assert!(
        button(&redrawn, "1: Detective").starts_with("m:"),
        "the current controls, with the Detective unspent: {:?}",
        redrawn.buttons()
    );
    let marked = bluffs_mark_all(&fake, claim_a.id, alice.id, 1).await;
    assert!(marked.channel_id == dm_a && marked.text().contains("Your marks are in"));
    let claim_b = answer(&fake, &fake.slash(bob.id, "bluffs status", &[]).await).await;
    private_says(
        &bluffs_mark_all(&fake, claim_b.id, bob.id, 1).await,
        "Your marks are in",
    );
    let reveal_a = fake
        .wait_message(
            |m| m.channel_id == dm_a && m.text().contains("Reveal (only you"),
            T,
        )
        .await
        .expect("Alice's reveal controls by DM");
    assert!(
        reveal_a.text().contains("a tile costs 1"),
        "{}",
        reveal_a.text()
    );
    let (select, options) = select_menu(&reveal_a);
    for c in &known_a {
        assert!(!options.contains(&c.to_string()), "{c} is Alice's already");
    }
    let tile: Cell = options
        .iter()
        .filter_map(|o| o.parse::<Cell>().ok())
        .find(|c| !known_b.contains(c))
        .expect("a tile neither knows");
    let bought = said(tile);
    let s = fake
        .select(alice.id, reveal_a.id, &select, &[&tile.to_string()])
        .await;
    let redrawn = answer(&fake, &s).await;
    assert!(redrawn.channel_id == dm_a && redrawn.text().contains("Bought"));
    let told = fake
        .wait_message(
            |m| m.channel_id == dm_a && m.text().contains("revealed:"),
            T,
        )
        .await
        .expect("Alice learns her tile by DM");
    assert!(
        told.text().contains(&format!("revealed: {bought}")),
        "{}",
        told.text()
    );
    let reveal_b = answer(&fake, &fake.slash(bob.id, "bluffs status", &[]).await).await;
    let p = fake
        .click(bob.id, reveal_b.id, &button(&reveal_b, "Pass"))
        .await;
    private_says(&answer(&fake, &p).await, "You pass");
    // Alice could buy more in this Reveal (a tile costs 1 here): her controls again,
    // without the layout guess (it is instead of reveals); she is done.
    let more_a = answer(&fake, &fake.slash(alice.id, "bluffs status", &[]).await).await;
    assert!(more_a.ephemeral);
    select_menu(&more_a);
    assert!(
        !more_a
            .buttons()
            .iter()
            .any(|(_, label)| label.contains("Guess")),
        "{:?}",
        more_a.buttons()
    );
    let d = fake
        .click(alice.id, more_a.id, &button(&more_a, "Done"))
        .await;
    private_says(&answer(&fake, &d).await, "You pass");
    let counted = channel_message(&fake, "Reveal over").await;
    assert!(
        counted
            .text()
            .contains(&format!("<@{}> bought 1 reveal", alice.id)),
        "{}",
        counted.text()
    );
    // What Bob sees of it, in private too: the count at most, never the tile.
    let later_b = answer(&fake, &fake.slash(bob.id, "bluffs status", &[]).await).await;
    assert!(later_b.ephemeral && !later_b.text().contains(&bought));

    fake.slash(alice.id, "bluffs resign", &[]).await;
    let end = channel_message(&fake, "wins").await;
    assert!(
        end.text().contains(&format!("<@{}> wins", bob.id)),
        "{}",
        end.text()
    );
    tiles_a.push(bought);
    bluffs_secrets_kept(
        &fake,
        &end,
        &layout,
        [(alice.id, &tiles_a), (bob.id, &tiles_b)],
        &log,
    );
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// A Zendo Classic lobby survives a restart: a host sets the server's Classic clocks
/// (`/zendo classic-settings`), alice opens a lobby (and is in), bob joins, the bot is
/// killed (SIGKILL); after the restart the same message's buttons work with the
/// same students: carol joins as third, a non-opener's Start is refused, alice's Start
/// begins the game in join order with the server's answer time, and the lobby is then
/// closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_lobby_survives_a_restart_and_starts_with_a_third_student() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let carol = fake.add_user("carol", true);
    let dir = tempfile::tempdir().unwrap();
    let (db, log) = (dir.path().join("m.db"), dir.path().join("m.log"));
    let host = fake.add_user("host", true);
    fake.set_permissions(host.id, MANAGE_GUILD);
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    // The server's own Classic clocks, apart from the duel's.
    let i = fake
        .slash(
            alice.id,
            "zendo classic-settings",
            &[("turn_secs", json!(60))],
        )
        .await;
    private_says(&answer(&fake, &i).await, "only a host");
    let options = [("lobby_secs", json!(600)), ("answer_secs", json!(45))];
    let i = fake
        .slash(host.id, "zendo classic-settings", &options)
        .await;
    private_says(
        &answer(&fake, &i).await,
        "lobby 600 s, turn 180 s (default), mondo answer time 45 s",
    );
    let i = fake.slash(alice.id, "zendo classic", &[]).await;
    let lobby = answer(&fake, &i).await;
    assert!(
        lobby.text().contains("Zendo Classic lobby")
            && lobby.text().contains("the umpire")
            && lobby.text().contains("10 minutes after it opened"),
        "{}",
        lobby.text()
    );
    let (join, start) = (button(&lobby, "Join"), button(&lobby, "Start"));
    let i = fake.click(bob.id, lobby.id, &join).await;
    let joined = answer(&fake, &i).await;
    let two = format!("1. <@{}>, 2. <@{}>", alice.id, bob.id);
    assert!(joined.text().contains(&two), "{}", joined.text());

    bot.killed(&fake).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    let i = fake.click(alice.id, lobby.id, &join).await;
    private_says(&answer(&fake, &i).await, "in already");
    let i = fake.click(carol.id, lobby.id, &join).await;
    answer(&fake, &i).await;
    let lobby = fake.message(lobby.id).expect("the lobby");
    let three = format!("{two}, 3. <@{}>", carol.id);
    assert!(lobby.text().contains(&three), "{}", lobby.text());
    let i = fake.click(carol.id, lobby.id, &start).await;
    private_says(&answer(&fake, &i).await, "or a host starts it");
    fake.click(alice.id, lobby.id, &start).await;
    let opening = channel_message(&fake, "Zendo Classic #1").await;
    let order = format!(
        "students in turn order: <@{}>, <@{}>, <@{}>",
        alice.id, bob.id, carol.id
    );
    assert!(opening.text().contains(&order), "{}", opening.text());
    assert!(
        opening.text().contains("mondo answers 45 s"),
        "the server's answer time: {}",
        opening.text()
    );
    let i = fake.click(bob.id, lobby.id, &join).await;
    private_says(&answer(&fake, &i).await, "this lobby is closed");
    let i = fake.slash(carol.id, "zendo status", &[]).await;
    private_says(&answer(&fake, &i).await, "Zendo Classic #1");
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// A Zendo Classic lobby stored by the version before a lobby was a match's phase (a
/// `lobbies` row, its message's buttons `m:LOBBY:0:lobby:VERB`) survives the upgrade:
/// at start-up it becomes a match in its lobby phase with its students in join order,
/// its old buttons lead there, a third student joins and the opener starts it. One
/// whose time passed while the bot was down closes, saying so in its channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_lobby_stored_before_the_upgrade_carries_over_with_its_buttons() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let carol = fake.add_user("carol", true);
    let other = fake.add_channel("other");
    let dir = tempfile::tempdir().unwrap();
    let (db, log) = (dir.path().join("m.db"), dir.path().join("m.log"));
    // The database as the version before left it: its migrations only, and its rows.
    let old = dir.path().join("migrations");
    std::fs::create_dir(&old).unwrap();
    for e in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite")).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        if name.as_str() < "20261127010000" {
            std::fs::copy(e.path(), old.join(&name)).unwrap();
        }
    }
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&db)
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    let migrator = sqlx::migrate::Migrator::new(old.as_path()).await.unwrap();
    migrator.run(&pool).await.unwrap();
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let (open_id, gone_id) = (4_242_424_242_424_i64, 777_i64);
    let guild = fake.guild_id() as i64;
    let rows = [
        (
            open_id,
            fake.channel_id(),
            wall - 60_000,
            json!([alice.id, bob.id]),
        ),
        (gone_id, other, wall - 7_200_000, json!([carol.id])),
    ];
    for (id, channel, opened, students) in rows {
        // As the version before wrote it (`Store::put_lobby`, the lobby's JSON).
        let body = json!({
            "channel": channel, "guild": guild, "opener": alice.id, "master": null,
            "pool": "pyramids", "pattern_id": null, "set": "pyramids", "typed": null,
            "students": students, "opened_ms": opened, "ttl_ms": 600_000,
        });
        sqlx::query(
            "INSERT INTO lobbies (id, game, guild_id, channel_id, opened_ms, body) \
             VALUES (?1, 'zendo-classic', ?2, ?3, ?4, ?5)",
        )
        .bind(id)
        .bind(guild)
        .bind(channel as i64)
        .bind(opened)
        .bind(body.to_string())
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let verbs = ["join", "leave", "start"].map(|v| format!("m:{open_id}:0:lobby:{v}"));
    let lobby = fake.posted_before(
        fake.channel_id(),
        "**Zendo Classic lobby** (pyramids set): the Master is the umpire.",
        &[
            (&verbs[0], "Join"),
            (&verbs[1], "Leave"),
            (&verbs[2], "Start"),
        ],
    );

    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let gone = fake
        .wait_message(|m| m.channel_id == other && m.text().contains("expired"), T)
        .await
        .expect("the lobby whose time passed closes");
    assert!(
        gone.text().contains("nobody started it in 10 minutes"),
        "{}",
        gone.text()
    );
    // The old button finds the match the lobby became.
    let i = fake.click(carol.id, lobby.id, &verbs[0]).await;
    let joined = answer(&fake, &i).await;
    let three = format!("1. <@{}>, 2. <@{}>, 3. <@{}>", alice.id, bob.id, carol.id);
    assert!(joined.text().contains(&three), "{}", joined.text());
    assert!(
        joined.text().contains("10 minutes after it opened"),
        "{}",
        joined.text()
    );
    let lobby = fake.message(lobby.id).expect("the lobby");
    let i = fake
        .click(alice.id, lobby.id, &button(&lobby, "Join"))
        .await;
    private_says(&answer(&fake, &i).await, "in already");
    let start = button(&lobby, "Start");
    let i = fake.click(bob.id, lobby.id, &start).await;
    private_says(&answer(&fake, &i).await, "or a host starts it");
    fake.click(alice.id, lobby.id, &start).await;
    let opening = channel_message(&fake, "Zendo Classic #1").await;
    let order = format!(
        "students in turn order: <@{}>, <@{}>, <@{}>",
        alice.id, bob.id, carol.id
    );
    assert!(opening.text().contains(&order), "{}", opening.text());
    let i = fake.click(bob.id, lobby.id, &button(&lobby, "Join")).await;
    private_says(&answer(&fake, &i).await, "this lobby is closed");
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// Waits until message `id` is redrawn after `before`; the redrawn message.
async fn redrawn(fake: &FakeDiscord, id: u64, before: std::time::Instant) -> StoredMessage {
    let deadline = std::time::Instant::now() + T;
    let mut changes = fake.changes();
    loop {
        let m = fake.message(id).expect("the message");
        if m.updated > before {
            return m;
        }
        assert!(std::time::Instant::now() < deadline, "never redrawn");
        changes.next(deadline).await;
    }
}

/// Discord's own presentation and the sketch board: `/help` is one private message
/// whose topic menu swaps its cards in place; `/zendo sketch` draws a structure for
/// the asker alone and posts nothing in the channel; a structure typed in the koan box
/// is previewed privately, *Edit* opens the box again with it (nothing counts), and
/// *Submit* builds it (once: a second press is stale).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_menu_sketches_and_the_koan_box_preview() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let channel = fake.channel_id();

    // /help: one message of cards with a menu; choosing the duel swaps it in place.
    let i = fake.slash(alice.id, "help", &[]).await;
    let help = answer(&fake, &i).await;
    assert!(help.ephemeral && !help.embeds.is_empty(), "{}", help.text());
    assert!(help.text().contains("`/zendo sketch`:"), "{}", help.text());
    let (menu, topics) = select_menu(&help);
    assert_eq!(menu, "help:topic");
    for topic in ["commands", "zendo-duel", "logical-bluffs", "patterns"] {
        assert!(topics.iter().any(|t| t == topic), "{topic}: {topics:?}");
    }
    let before = help.updated;
    fake.select(alice.id, help.id, &menu, &["zendo-duel"]).await;
    let duel = redrawn(&fake, help.id, before).await;
    assert!(duel.text().contains("The rules"), "{}", duel.text());
    assert!(duel.text().contains("ticket"), "{}", duel.text());
    assert!(!duel.text().contains("`/pool export`"), "{}", duel.text());
    assert_eq!(select_menu(&duel).0, "help:topic", "the menu stays");
    // By name, too.
    let i = fake
        .slash(alice.id, "help", &[("topic", json!("logical-bluffs"))])
        .await;
    private_says(&answer(&fake, &i).await, "Logical Bluffs");

    // /zendo sketch: private, a picture, in either set; a bad one refused privately.
    let i = fake
        .slash(
            alice.id,
            "zendo sketch",
            &[("structure", json!("U R / . D"))],
        )
        .await;
    let sketch = answer(&fake, &i).await;
    private_says(&sketch, "counts for nothing");
    assert_eq!(sketch.files.len(), 1);
    let i = fake
        .slash(
            alice.id,
            "zendo sketch",
            &[("structure", json!("3> 9z")), ("pieces", json!(0))],
        )
        .await;
    private_says(&answer(&fake, &i).await, "does not read");
    assert!(
        fake.messages(channel).iter().all(|m| m.ephemeral),
        "nothing was posted in the channel"
    );

    // A practice: the koan box's structure is previewed, edited, then submitted.
    let i = fake.slash(alice.id, "zendo practice", &[]).await;
    answer(&fake, &i).await;
    let open = fake.slash(alice.id, "koan", &[]).await;
    let i = fake
        .submit_modal(alice.id, &open, &[(KOAN_FIELD, "2^ 1<")])
        .await;
    let preview = answer(&fake, &i).await;
    private_says(&preview, "Submit");
    assert_eq!(preview.files.len(), 1, "its picture");
    let public = fake
        .messages(channel)
        .iter()
        .filter(|m| !m.ephemeral)
        .count();
    // Edit: the box again, with the structure in it; nothing counts.
    let edit = fake
        .click(alice.id, preview.id, &button(&preview, "Edit"))
        .await;
    let replies = fake.replies(&edit, T).await;
    let modal = replies
        .iter()
        .find_map(|r| r.data.clone().filter(|_| r.kind == ReplyKind::Callback(9)))
        .unwrap_or_else(|| panic!("a modal: {replies:#?}"));
    assert_eq!(
        modal["components"][0]["components"][0]["value"], "2^ 1<",
        "{modal}"
    );
    let i = fake
        .submit_modal(alice.id, &edit, &[(KOAN_FIELD, "2^ 1<\n3v ..")])
        .await;
    let second = answer(&fake, &i).await;
    private_says(&second, "3v ..");
    assert_eq!(
        fake.messages(channel)
            .iter()
            .filter(|m| !m.ephemeral)
            .count(),
        public,
        "nothing counted yet"
    );
    // Submit: built, said in the channel.
    let submit = button(&second, "Submit");
    let i = fake.click(alice.id, second.id, &submit).await;
    let built = answer(&fake, &i).await;
    assert!(
        !built.ephemeral && built.text().contains("2^ 1< / 3v .."),
        "{}",
        built.text()
    );
    // The same Submit again: refused privately (the match moved on), nothing built
    // twice.
    let public = fake
        .messages(channel)
        .iter()
        .filter(|m| !m.ephemeral)
        .count();
    let i = fake.click(alice.id, second.id, &submit).await;
    let again = answer(&fake, &i).await;
    assert!(again.ephemeral, "{}", again.text());
    assert!(
        ["earlier moment", "already given"]
            .iter()
            .any(|w| again.text().contains(w)),
        "{}",
        again.text()
    );
    assert_eq!(
        fake.messages(channel)
            .iter()
            .filter(|m| !m.ephemeral)
            .count(),
        public
    );
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// The AI student's settings for the bot of these tests: a short delay (the game clock
/// is the machine's in the real binary; the delay itself is tested on a fake clock in
/// `tests/it/ai_seats.rs`) and the narrow rules of a beginner (quick to build).
const AI_ENV: [(&str, &str); 2] = [
    ("MONDO_ZENDO_AI_DELAY_MS", "100"),
    ("MONDO_ZENDO_AI_LEVEL", "beginner"),
];

/// Nothing went to the AI seat's DMs: the bot never opened a DM with itself, and
/// nothing names the AI seat's id as a user.
fn no_dm_to_the_ai(fake: &FakeDiscord) {
    let me = fake.bot_user_id();
    assert_eq!(fake.dm_channel_of(me), None, "the bot has a DM with itself");
    for r in fake.requests() {
        let body = body_text(r.body.as_ref());
        if r.path.ends_with("/users/@me/channels") {
            let to: u64 = r
                .body
                .as_ref()
                .and_then(|b| b["recipient_id"].as_str())
                .and_then(|s| s.parse().ok())
                .expect("a DM's recipient");
            assert!(
                to != me && mondo::rules::PlayerId(to).ai_seat().is_none(),
                "the bot asked for a DM with an AI seat: {body}"
            );
        }
        assert!(
            !body.contains("<@1000"),
            "an AI seat mentioned as a user: {body}"
        );
    }
}

/// The bot with [`AI_ENV`], connected, and the e2e pool stored by host `host`.
async fn ai_bot(fake: &FakeDiscord, host: u64) -> (Served, tempfile::TempDir) {
    fake.set_permissions(host, MANAGE_GUILD);
    let dir = tempfile::tempdir().unwrap();
    let mut bot = Served::start_with(
        fake,
        &dir.path().join("m.db"),
        &dir.path().join("m.log"),
        &AI_ENV,
    );
    bot.ready(fake).await;
    let file = fake.attachment("e2e.toml", POOL.as_bytes().to_vec());
    let i = fake.slash(host, "pool add", &[("file", file)]).await;
    private_says(&answer(fake, &i).await, "pool `e2e` stored");
    (bot, dir)
}

/// `who` challenges @Mondo with `command` (`zendo duel`, `zendo triple`) from `pool`:
/// `level` is refused with any other opponent (`other`); with @Mondo, the AI accepts
/// at once, is never said to be out of DM reach, and starts (it has the advantage).
/// The opening post.
async fn challenge_mondo(
    fake: &FakeDiscord,
    who: u64,
    other: u64,
    command: &str,
    pool: &str,
) -> StoredMessage {
    let expert = choice(fake, command, "level", "expert");
    let options = [("opponent", json!(other.to_string())), ("level", expert)];
    let i = fake.slash(who, command, &options).await;
    private_says(&answer(fake, &i).await, "use it with `opponent:@Mondo`");
    let beginner = choice(fake, command, "level", "beginner");
    let options = [
        ("opponent", json!(fake.bot_user_id().to_string())),
        ("pool", json!(pool)),
        ("level", beginner),
    ];
    let i = fake.slash(who, command, &options).await;
    let opening = answer(fake, &i).await;
    assert!(
        opening.text().contains("**Mondo** (AI)"),
        "{}",
        opening.text()
    );
    assert!(
        !opening.text().contains("I cannot DM"),
        "the AI is never DMed, nor said to be: {}",
        opening.text()
    );
    channel_message(fake, "**Mondo** (AI) starts").await;
    opening
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_against_mondo_is_played_to_its_end() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let dave = fake.add_user("dave", true);
    let (mut bot, dir) = ai_bot(&fake, dave.id).await;
    // alice challenges @Mondo: it accepts at once and starts (it has the advantage).
    let opening = challenge_mondo(&fake, alice.id, dave.id, "zendo duel", "e2e").await;
    assert!(
        opening.text().contains("Zendo duel #1"),
        "{}",
        opening.text()
    );
    // Its turn: a structure, then (no ticket) the turn passes to alice.
    channel_message(&fake, &format!("turn 2: <@{}> to play", alice.id)).await;

    // alice challenges; the AI answers by its own move, alice by her DM button.
    let i = slash_challenge(&fake, alice.id, "2^ 3>").await;
    answer(&fake, &i).await;
    let dm = fake.dm_channel_of(alice.id).expect("alice's DM");
    let buttons = fake
        .wait_message(|m| m.channel_id == dm && !m.buttons().is_empty(), T)
        .await
        .expect("alice gets the answer buttons by DM");
    let i = fake
        .click(alice.id, buttons.id, &button(&buttons, "Obeys"))
        .await;
    assert!(answer(&fake, &i).await.text().contains("is in"));
    channel_message(&fake, "**Mondo** (AI)'s answer is in").await;
    let reveal = channel_message(&fake, "2^ 3> obeys").await;
    assert!(
        reveal.text().contains("right: +1 ticket"),
        "{}",
        reveal.text()
    );

    // What the AI believes would help alice: `/why` waits for the end (said to her only).
    let i = fake.slash(alice.id, "why", &[]).await;
    private_says(&answer(&fake, &i).await, "match #1: the match is not over");

    // alice guesses the pattern and wins.
    let i = fake
        .slash(alice.id, "guess", &[("pattern", json!(HIDDEN))])
        .await;
    let reading = answer(&fake, &i).await;
    let i = fake
        .click(alice.id, reading.id, &button(&reading, "Make it official"))
        .await;
    answer(&fake, &i).await;
    let won = channel_message(&fake, "wins with guess #1").await;
    assert!(
        won.text().contains(&format!("<@{}>", alice.id)),
        "{}",
        won.text()
    );

    // Nothing before the guess carried the pattern; nothing went to the AI by DM.
    no_rule_before(&fake, "guess #1 reads");
    no_dm_to_the_ai(&fake);

    // Now `/why` says, for everyone to see, what the AI believed after each structure:
    // the same after a restart (it is told from the stored match).
    let why = |by: u64, id: Option<i64>| {
        let fake = &fake;
        async move {
            let options: Vec<(&str, serde_json::Value)> =
                id.map(|id| ("match", json!(id))).into_iter().collect();
            let i = fake.slash(by, "why", &options).await;
            let m = answer(fake, &i).await;
            assert!(!m.ephemeral, "{}", m.text());
            m.text()
        }
    };
    let told = why(dave.id, None).await;
    for said in [
        "Match #1",
        "what **Mondo** (AI) (beginner) believed after each structure",
        "#1 1^  obeys: ",
        "#2 1>  does not obey: ",
        "#3 ",
        " rules in ",
    ] {
        assert!(told.contains(said), "`{said}` in {told}");
    }
    bot.killed(&fake).await;
    let mut bot = Served::start_with(
        &fake,
        &dir.path().join("m.db"),
        &dir.path().join("m.log"),
        &AI_ENV,
    );
    bot.ready(&fake).await;
    assert_eq!(why(alice.id, Some(1)).await, told);
    let i = fake.slash(alice.id, "why", &[("match", json!(99))]).await;
    private_says(
        &answer(&fake, &i).await,
        "there is no match #99 on this server",
    );
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_triple_against_mondo_is_played_by_the_ai() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let dave = fake.add_user("dave", true);
    let (_bot, _dir) = ai_bot(&fake, dave.id).await;
    let file = fake.attachment("trio.toml", TRIO.as_bytes().to_vec());
    let i = fake.slash(dave.id, "pool add", &[("file", file)]).await;
    private_says(&answer(&fake, &i).await, "pool `trio` stored");
    // alice challenges @Mondo to a Triple: it accepts at once and starts (it has the
    // advantage), builds a structure graded on the three patterns, and with no stone
    // its turn passes.
    let opening = challenge_mondo(&fake, alice.id, dave.id, "zendo triple", "trio").await;
    assert!(
        opening.text().contains("Zendo Triple #1"),
        "{}",
        opening.text()
    );
    channel_message(&fake, &format!("turn 2: <@{}>", alice.id)).await;
    let channel = fake.channel_id();
    let said: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
    assert!(
        said.iter().any(|t| t.contains("#3 ")),
        "the AI built structure #3: {said:#?}"
    );

    // alice challenges on A; the AI answers by its own move, alice by her DM button.
    let i = fake
        .slash(
            alice.id,
            "koan",
            &[
                ("structure", json!("U R")),
                ("mode", choice(&fake, "koan", "mode", "challenge")),
                ("patterns", json!("A")),
            ],
        )
        .await;
    answer(&fake, &i).await;
    let dm = fake.dm_channel_of(alice.id).expect("alice's DM");
    let buttons = fake
        .wait_message(|m| m.channel_id == dm && !m.buttons().is_empty(), T)
        .await
        .expect("alice gets the answer buttons by DM");
    let i = fake
        .click(alice.id, buttons.id, &button(&buttons, "A: obeys"))
        .await;
    answer(&fake, &i).await;
    channel_message(&fake, "**Mondo** (AI) has answered").await;
    channel_message(&fake, "U R").await;

    // alice resigns: the AI wins, and only now are the patterns said.
    for p in [
        "some piece points up",
        "some piece points right",
        "some piece points left",
    ] {
        assert!(
            fake.requests()
                .iter()
                .all(|r| !body_text(r.body.as_ref()).contains(p)),
            "a pattern was said before the end: {p}"
        );
    }
    let i = fake.slash(alice.id, "zendo resign", &[]).await;
    answer(&fake, &i).await;
    let won = channel_message(&fake, "resigned").await;
    assert!(won.text().contains("**Mondo** (AI) wins"), "{}", won.text());
    no_dm_to_the_ai(&fake);
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_lobby_seats_ai_students_who_take_their_turns() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let dave = fake.add_user("dave", true);
    let (_bot, _dir) = ai_bot(&fake, dave.id).await;

    let i = fake
        .slash(alice.id, "zendo classic", &[("pool", json!("e2e"))])
        .await;
    let lobby = answer(&fake, &i).await;
    let add = button(&lobby, "Add AI student");
    // Only the opener (alice) or a host seats an AI student.
    let i = fake.click(bob.id, lobby.id, &button(&lobby, "Join")).await;
    answer(&fake, &i).await;
    let i = fake.click(bob.id, lobby.id, &add).await;
    let refused = answer(&fake, &i).await;
    private_says(&refused, "or a host");
    let i = fake.click(bob.id, lobby.id, &button(&lobby, "Leave")).await;
    answer(&fake, &i).await;
    let i = fake.click(alice.id, lobby.id, &add).await;
    answer(&fake, &i).await;
    let i = fake.click(dave.id, lobby.id, &add).await;
    answer(&fake, &i).await;
    let lobby = fake.message(lobby.id).expect("the lobby");
    assert!(
        lobby.text().contains(&format!(
            "1. <@{}>, 2. **AI student 1**, 3. **AI student 2**",
            alice.id
        )),
        "{}",
        lobby.text()
    );
    fake.click(alice.id, lobby.id, &button(&lobby, "Start"))
        .await;
    let opening = channel_message(&fake, "Zendo Classic #1").await;
    assert!(
        !opening.text().contains("I cannot DM"),
        "{}",
        opening.text()
    );

    // alice builds (the Master marks it); with no stone her turn passes, and each AI
    // student takes its turn by itself until it is alice's again.
    let i = fake
        .slash(alice.id, "koan", &[("structure", json!("2^ 3>"))])
        .await;
    answer(&fake, &i).await;
    channel_message(&fake, "turn 2: **AI student 1**").await;
    channel_message(&fake, "turn 3: **AI student 2**").await;
    channel_message(&fake, &format!("turn 4: <@{}>", alice.id)).await;
    let channel = fake.channel_id();
    let said: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
    let built = said
        .iter()
        .filter(|t| t.starts_with("**AI student 1**: #4") || t.starts_with("**AI student 2**: #5"))
        .count();
    assert!(built >= 2, "both AI students built: {said:#?}");
    // Nothing so far said the rule.
    assert!(
        fake.requests()
            .iter()
            .all(|r| !body_text(r.body.as_ref()).contains(HIDDEN)),
        "the rule was said before the end"
    );
    // alice leaves; the two AI students play on until one of them guesses the rule.
    let i = fake.slash(alice.id, "zendo leave", &[]).await;
    answer(&fake, &i).await;
    let won = fake
        .wait_message(
            |m| m.channel_id == channel && m.text().contains("wins with guess"),
            Duration::from_secs(120),
        )
        .await
        .unwrap_or_else(|| {
            let said: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
            panic!("the AI students never won: {said:#?}")
        });
    assert!(
        won.text().contains("**AI student") && won.text().contains(HIDDEN),
        "{}",
        won.text()
    );
    no_dm_to_the_ai(&fake);
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
}

/// Until every shard in `shards` has a live session on the fake, failing with a bot's
/// log if one exits first.
async fn shards_live(fake: &FakeDiscord, bots: &mut [&mut Served], shards: &[u32]) {
    // serenity starts a process's shards 5 s apart.
    let deadline = Instant::now() + T + Duration::from_secs(5 * shards.len() as u64);
    let mut wake = Wake::new(fake);
    loop {
        let live = fake.gateway_stats().live_shards;
        if shards.iter().all(|s| live.contains(s)) && !fake.commands().is_empty() {
            return;
        }
        for bot in bots.iter_mut() {
            bot.alive();
        }
        assert!(
            Instant::now() < deadline,
            "shards {shards:?} not all live: {:?}",
            fake.gateway_stats()
        );
        wake.next(deadline).await;
    }
}

/// The (shard, total) of every IDENTIFY the fake saw, sorted.
fn identified_once(fake: &FakeDiscord) -> Vec<(u32, u32)> {
    let mut identified: Vec<(u32, u32)> = fake
        .identifies()
        .iter()
        .map(|i| (i.shard, i.total))
        .collect();
    identified.sort();
    identified
}

/// `/help` in `channel`: answered, on the shard expected. (Answered only once: see
/// [`answered_once`].)
async fn help_answered_on(fake: &FakeDiscord, user: u64, channel: u64, shard: u32) -> Interaction {
    let i = fake.slash_in(channel, user, "help", &[]).await;
    let m = answer(fake, &i).await;
    assert!(m.text().contains("/zendo"), "{}", m.text());
    assert_eq!(
        fake.interaction_shard(i.id),
        Some(shard),
        "dispatched to its shard"
    );
    i
}

/// Each interaction got exactly one callback. Asked once every bot that could answer
/// is killed (nothing more can come), not after a wait that could be too short.
fn answered_once(fake: &FakeDiscord, asked: &[Interaction]) {
    for i in asked {
        let callbacks = fake
            .replies_now(i)
            .iter()
            .filter(|r| matches!(r.kind, ReplyKind::Callback(_)))
            .count();
        assert_eq!(callbacks, 1, "interaction {} answered exactly once", i.id);
    }
}

/// Two `mondo serve` processes split four shards (0-1 and 2-3) on one fake Discord:
/// each server's commands reach only the process running its shard and are answered
/// once; a DM goes to shard 0's process; the shards identify each once, within
/// Discord's pacing; when the second process dies, only its shards go dark.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_shards_and_each_server_is_answered_once() {
    let fake = FakeDiscord::start().await;
    // max_concurrency 4: each of the 4 shards has its own rate-limit key, so the two
    // processes may identify at the same moment.
    fake.set_shards(4, 4);
    let (_, on_1) = fake.add_guild_on_shard("Server on shard 1", 1, 4);
    let (_, on_2) = fake.add_guild_on_shard("Server on shard 2", 2, 4);
    let (_, on_3) = fake.add_guild_on_shard("Server on shard 3", 3, 4);
    let alice = fake.add_user("alice", true);
    let dir = tempfile::tempdir().unwrap();
    let p = |f: &str| dir.path().join(f);
    let range = |r| ["--shards", r, "--shard-total", "4"];
    let mut low = Served::start_global(&fake, &p("low.db"), &p("low.log"), &range("0-1"));
    let mut high = Served::start_global(&fake, &p("high.db"), &p("high.log"), &range("2-3"));
    shards_live(&fake, &mut [&mut low, &mut high], &[0, 1, 2, 3]).await;

    assert_eq!(identified_once(&fake), [(0, 4), (1, 4), (2, 4), (3, 4)]);

    let mut asked = Vec::new();
    for (channel, shard) in [(on_1, 1), (on_2, 2), (on_3, 3)] {
        asked.push(help_answered_on(&fake, alice.id, channel, shard).await);
    }
    let main = FakeDiscord::shard_of(Some(fake.guild_id()), 4);
    asked.push(help_answered_on(&fake, alice.id, fake.channel_id(), main).await);
    let dm = fake.dm_channel(alice.id);
    asked.push(help_answered_on(&fake, alice.id, dm, 0).await);

    // The second process owned shards 2 and 3, and only those.
    high.kill();
    until_fake(&fake, "only shards 0 and 1 live", |f| {
        f.gateway_stats().live_shards == [0, 1]
    })
    .await;
    asked.push(help_answered_on(&fake, alice.id, on_1, 1).await);
    asked.push(help_answered_on(&fake, alice.id, dm, 0).await);
    low.alive();
    low.kill();
    answered_once(&fake, &asked);
    assert_eq!(fake.pacing_violations(), Vec::<String>::new());
    assert_eq!(fake.problems(), Vec::<String>::new());
}

/// `--shard-total auto` runs the count the fake's `GET /gateway/bot` gives, and with
/// `max_concurrency` 1 its shards identify at least 5 s apart (serenity's pacing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shard_total_auto_asks_discord_and_identifies_within_its_limit() {
    let fake = FakeDiscord::start().await;
    fake.set_shards(2, 1);
    let (_, on_1) = fake.add_guild_on_shard("Server on shard 1", 1, 2);
    let alice = fake.add_user("alice", true);
    let dir = tempfile::tempdir().unwrap();
    let mut bot = Served::start_global(
        &fake,
        &dir.path().join("m.db"),
        &dir.path().join("m.log"),
        &["--shard-total", "auto"],
    );
    shards_live(&fake, &mut [&mut bot], &[0, 1]).await;
    let identified: Vec<(u32, u32)> = fake
        .identifies()
        .iter()
        .map(|i| (i.shard, i.total))
        .collect();
    assert_eq!(identified, [(0, 2), (1, 2)], "Discord's count, in order");
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.operation_id.as_deref() == Some("get_bot_gateway")),
        "it asked Discord"
    );
    assert_eq!(fake.pacing_violations(), Vec::<String>::new());
    let asked = help_answered_on(&fake, alice.id, on_1, 1).await;
    bot.kill();
    answered_once(&fake, &[asked]);
    assert_eq!(fake.problems(), Vec::<String>::new());
}

/// Shard options that do not make sense stop `mondo serve` with one line saying what
/// is allowed, before it connects; `auto` beyond Discord's count too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_shard_options_stop_the_bot_with_one_line() {
    let fake = FakeDiscord::start().await;
    fake.set_shards(2, 1);
    for (args, says) in [
        (
            &["--shards", "5-3", "--shard-total", "8"][..],
            "runs backwards",
        ),
        (
            &["--shards", "0-8", "--shard-total", "8"][..],
            "shard ids run 0 to 7",
        ),
        (&["--shards", "0-1", "--shard-total", "0"][..], "1 or more"),
        (&["--shards", "a-b", "--shard-total", "8"][..], "e.g. 0-3"),
        (&["--shards", "1"][..], "--shard-total"),
    ] {
        let (status, last) = serve_args_until_it_stops(&fake, &[], args).await;
        assert_eq!(status, Some(2), "{args:?}: {last}");
        assert!(last.contains(says), "{args:?}: {last}");
    }
    let env = [("MONDO_DISCORD_SHARD_TOTAL", "many".to_string())];
    let (status, last) = serve_args_until_it_stops(&fake, &env, &[]).await;
    assert_eq!(status, Some(2), "{last}");
    assert!(
        last.contains("discord.shard_total") && last.contains("auto"),
        "{last}"
    );
    let args = ["--shards", "2-3", "--shard-total", "auto"];
    let (status, last) = serve_args_until_it_stops(&fake, &[], &args).await;
    assert_eq!(status, Some(1), "{last}");
    assert!(last.contains("0 to 1") && last.contains("auto"), "{last}");
    assert_eq!(fake.gateway_stats().connections, 0, "none connected");
}

/// `n` finished Zendo Duels between `a` and `b` on `guild`, stored before the bot
/// starts (as the bench stores them): `a` wins two in three. Enough for both to be
/// listed on the server's leaderboard.
async fn stored_duels(db: &std::path::Path, guild: u64, a: u64, b: u64, n: u64) {
    use mondo::rules::zendo::testing::{duel_setup, parsed};
    use mondo::rules::zendo::{Duel, DuelMove, ZendoMove};
    use mondo::rules::{Action, Actor, Game, PlayerId};
    use mondo::store::{NewEvent, NewMatch, Store};
    let store = Store::open(db).await.unwrap();
    for i in 0..n {
        let t = i * 100;
        let (pa, pb) = (PlayerId(a), PlayerId(b));
        let mut setup = duel_setup(parsed("some piece points up"));
        (setup.players, setup.advantage, setup.seed) = ([pa, pb], pb, t);
        let (mut g, created) = <Duel as Game>::start(setup, t).unwrap();
        let choose = Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter { starter: pa }));
        let mut later = g.play(&Actor::Player(pb), &choose, t + 1).unwrap();
        // The starter plays too: both have acted, so a resignation is a rated loss
        // (docs/ratings.md, "Fair play").
        let skip = Action::Move(DuelMove::Skip);
        later.extend(g.play(&Actor::Player(pa), &skip, t + 1).unwrap());
        let loser = if i % 3 == 0 { pa } else { pb };
        later.extend(
            g.play(&Actor::Player(loser), &Action::Resign, t + 2)
                .unwrap(),
        );
        let row = |e: &mondo::rules::Event<_>| NewEvent {
            at: e.at,
            body: serde_json::to_string(e).unwrap(),
        };
        let id = store
            .create_match(
                &NewMatch {
                    kind: "zendo-duel",
                    guild: Some(guild),
                    channel: None,
                    seed: t,
                    settings: "{}",
                    players: &[a, b],
                },
                &row(&created),
            )
            .await
            .unwrap();
        store
            .append_ending(id, 1, later.iter().map(row).collect(), true, g.finish())
            .await
            .unwrap();
    }
    store.close().await;
}

/// The card's title of a message (its first embed's).
fn card_title(m: &StoredMessage) -> String {
    m.embeds
        .first()
        .and_then(|e| e["title"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// Clicks `label` on message `id` and waits for the message to be redrawn.
async fn turn_page(fake: &FakeDiscord, user: u64, id: u64, label: &str) -> StoredMessage {
    let m = fake.message(id).expect("the replay");
    let before = std::time::Instant::now();
    fake.click(user, id, &button(&m, label)).await;
    redrawn(fake, id, before).await
}

/// Ratings, records and replays on Discord: a server with a settled Zendo Duel
/// rivalry (stored before the bot starts) and a Logical Bluffs match played and
/// resigned over Discord. `/stats` shows the new, provisional ratings (`?`) with wins
/// and losses and the recent match with its replay command; `/history` lists it;
/// `/leaderboard` posts a PNG per game with listed players (the rivals, not the
/// newcomers); `/replay` of a match still being played is refused to the asker only;
/// `/replay` of the finished one turns its pages with Next and Previous, and the same
/// buttons go on turning them after the bot is killed and started again, up to the
/// secrets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_leaderboard_history_and_a_replay_that_survives_a_restart() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false);
    let carol = fake.add_user("carol", false);
    let dave = fake.add_user("dave", false);
    stored_duels(&db, fake.guild_id(), carol.id, dave.id, 30).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    // A Logical Bluffs match on a layout nobody chose, both bluff, then Alice resigns:
    // Bob wins, rated (docs/ratings.md, "Fair play").
    let options = [("opponent", json!(bob.id.to_string()))];
    accepted(
        &fake,
        &fake.slash(alice.id, "bluffs duel", &options).await,
        bob.id,
    )
    .await;
    for (who, subset) in [(alice.id, "A1-A2-B1-B2"), (bob.id, "C1-C2-D1-D2")] {
        let first = there_is_a(mondo::lang::tiles::Colour::ALL[0]);
        let read = bluffs_form(&fake, who, subset, &first).await;
        let s = fake
            .click(who, read.id, &button(&read, "Submit this bluff"))
            .await;
        private_says(&answer(&fake, &s).await, "Your bluff is in");
    }
    fake.slash(alice.id, "bluffs resign", &[]).await;
    let end = channel_message(&fake, "wins").await;
    assert!(end.text().contains(&format!("<@{}> wins", bob.id)));
    // The result says what it did to each rating (docs/ratings.md, "On Discord").
    let ratings = format!(
        "**Ratings**: <@{}> 1500 -> 1338? (-162) · <@{}> 1500 -> 1662? (+162)",
        alice.id, bob.id
    );
    assert!(end.text().contains(&ratings), "{}", end.text());
    let over: u64 = {
        let store = mondo::store::Store::open_read_only(&db).await.unwrap();
        let h = store.history(fake.guild_id(), bob.id, 1).await.unwrap();
        store.close().await;
        assert_eq!(h.len(), 1, "{h:?}");
        h[0].id.0 as u64
    };

    let stats = answer(&fake, &fake.slash(bob.id, "stats", &[]).await).await;
    let text = stats.text();
    assert!(!stats.ephemeral, "{text}");
    assert!(text.contains("Stats of bob"), "{text}");
    assert!(
        text.contains("Logical Bluffs") && text.contains("1662?") && text.contains("1 win"),
        "{text}"
    );
    assert!(text.contains(&format!("/replay match:{over}")), "{text}");
    let bluffs = choice(&fake, "stats", "game", "Logical Bluffs");
    let options = [("player", json!(alice.id.to_string())), ("game", bluffs)];
    let stats = answer(&fake, &fake.slash(bob.id, "stats", &options).await).await;
    let text = stats.text();
    assert!(
        text.contains("Stats of alice") && text.contains("1338?") && text.contains("1 loss"),
        "{text}"
    );
    // Carol's duels are another game: a game she never played says so.
    let options = [
        ("player", json!(carol.id.to_string())),
        ("game", choice(&fake, "stats", "game", "Logical Bluffs")),
    ];
    let stats = answer(&fake, &fake.slash(bob.id, "stats", &options).await).await;
    assert!(
        stats.text().contains("No finished Logical Bluffs here yet"),
        "{}",
        stats.text()
    );

    let history = answer(&fake, &fake.slash(alice.id, "history", &[]).await).await;
    let text = history.text();
    assert!(
        text.contains(&format!("#{over}")) && text.contains("Logical Bluffs"),
        "{text}"
    );
    assert!(text.contains("lost") && text.contains(&format!("/replay match:{over}")));

    // The leaderboard: a picture of the Zendo Duel board with the two rivals; the
    // Bluffs newcomers (one game, provisional) are not listed.
    let board = answer(&fake, &fake.slash(bob.id, "leaderboard", &[]).await).await;
    assert!(!board.ephemeral);
    assert!(
        board.text().contains("Zendo Duel (2 players)"),
        "{}",
        board.text()
    );
    assert!(!board.text().contains("Logical Bluffs"), "{}", board.text());
    let (name, png) = board.files.first().expect("a picture");
    assert_eq!(name, "leaderboard-zendo-duel.png");
    let (w, h) = png_size(png);
    assert!(w > 300 && h > 100, "{w} x {h}");
    // One game asked for, with nobody listed: its picture says so.
    let options = [(
        "game",
        choice(&fake, "leaderboard", "game", "Logical Bluffs"),
    )];
    let empty = answer(&fake, &fake.slash(bob.id, "leaderboard", &options).await).await;
    assert_eq!(empty.files.len(), 1);
    assert!(empty.files[0].0 == "leaderboard-logical-bluffs.png");
    assert!(
        empty.text().contains("Logical Bluffs (0 players)"),
        "{}",
        empty.text()
    );

    // A live match has no replay: refused to the asker only.
    bluffs_duel(&fake, carol.id, dave.id, 77).await;
    let live = {
        let store = mondo::store::Store::open_read_only(&db).await.unwrap();
        let live = store
            .matches(&mondo::store::MatchFilter {
                status: Some(mondo::store::Status::Live),
                ..Default::default()
            })
            .await
            .unwrap();
        store.close().await;
        live[0].id.0
    };
    let i = fake
        .slash(alice.id, "replay", &[("match", json!(live))])
        .await;
    let refused = answer(&fake, &i).await;
    private_says(&refused, "still being played");
    assert!(refused.files.is_empty() && refused.buttons().is_empty());

    // The finished one, page by page.
    let i = fake
        .slash(alice.id, "replay", &[("match", json!(over))])
        .await;
    let replay = answer(&fake, &i).await;
    assert!(!replay.ephemeral);
    let first = card_title(&replay);
    assert!(first.contains("Logical Bluffs, step 1 of"), "{first}");
    let steps: usize = first
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("step N of M");
    assert!(steps >= 2, "{first}");
    assert!(!replay.buttons().iter().any(|(_, l)| l == "Previous"));
    let two = turn_page(&fake, bob.id, replay.id, "Next").await;
    assert!(
        card_title(&two).contains("step 2 of"),
        "{}",
        card_title(&two)
    );
    let back = turn_page(&fake, alice.id, replay.id, "Previous").await;
    assert!(
        card_title(&back).contains("step 1 of"),
        "{}",
        card_title(&back)
    );

    // Killed and started again: the buttons drawn before go on.
    bot.killed(&fake).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let two = turn_page(&fake, alice.id, replay.id, "Next").await;
    assert!(
        card_title(&two).contains("step 2 of"),
        "{}",
        card_title(&two)
    );
    let secrets = turn_page(&fake, alice.id, replay.id, "The secrets").await;
    assert!(
        card_title(&secrets).contains("the secrets"),
        "{}",
        card_title(&secrets)
    );
    assert!(!secrets.buttons().iter().any(|(_, l)| l == "Next"));
    // The layout, now that it is no one's secret.
    assert!(!secrets.files.is_empty(), "{}", secrets.text());
    let start = turn_page(&fake, alice.id, replay.id, "From the start").await;
    assert!(card_title(&start).contains("step 1 of"));
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}

/// A server's leaderboard rules, set by a host on Discord: `/leaderboard-settings`
/// shows the defaults, is refused to a non-host and for a value out of range (saying
/// what is allowed), sets the server's own, which read back after the bot is killed and
/// started again and decide who `/leaderboard` lists. The umpire's AI seat, rated in
/// its duels, is never listed; `/stats` of the bot shows its rating, and `/history`
/// names it rather than mentioning a user who does not exist.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_leaderboard_rules_survive_a_restart_and_the_ai_is_rated_off_the_board() {
    let (fake, _dir, db, log) = setup().await;
    let host = fake.add_user("hostess", true);
    fake.set_permissions(host.id, MANAGE_GUILD);
    let carol = fake.add_user("carol", false);
    let dave = fake.add_user("dave", false);
    let ai = mondo::rules::PlayerId::ai(2, 0).0;
    // Three duels each: carol and dave, then carol and the expert AI seat.
    stored_duels(&db, fake.guild_id(), carol.id, dave.id, 3).await;
    stored_duels(&db, fake.guild_id(), carol.id, ai, 3).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    // The configured rules list nobody yet (three games, provisional).
    let board = answer(&fake, &fake.slash(dave.id, "leaderboard", &[]).await).await;
    let text = board.text();
    assert!(
        text.contains("nobody listed yet") && text.contains("5 rated games"),
        "{text}"
    );
    let settings = "leaderboard-settings";
    let i = fake
        .slash(carol.id, settings, &[("min_games", json!(2))])
        .await;
    private_says(&answer(&fake, &i).await, "only a host");
    let shown = answer(&fake, &fake.slash(host.id, settings, &[]).await).await;
    private_says(
        &shown,
        "at least 5 rated games in the game (default); one within 30 days (default)",
    );
    let i = fake
        .slash(host.id, settings, &[("max_deviation", json!(400))])
        .await;
    let refused = answer(&fake, &i).await;
    private_says(&refused, "nothing was changed");
    private_says(&refused, "allowed 10 to 350");
    let asked = [("min_games", json!(3)), ("max_deviation", json!(350))];
    let set = answer(&fake, &fake.slash(host.id, settings, &asked).await).await;
    private_says(
        &set,
        "at least 3 rated games in the game; one within 30 days (default)",
    );
    private_says(&set, "a deviation under 350");
    assert!(
        !set.text().contains("under 350 (default)"),
        "{}",
        set.text()
    );

    bot.killed(&fake).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    let shown = answer(&fake, &fake.slash(host.id, settings, &[]).await).await;
    private_says(&shown, "at least 3 rated games in the game;");
    // Carol (six games) and dave (three) are listed; the AI seat (three) is not.
    let board = answer(&fake, &fake.slash(dave.id, "leaderboard", &[]).await).await;
    let text = board.text();
    assert!(
        text.contains("Zendo Duel (2 players)") && text.contains("3 rated games"),
        "{text}"
    );
    assert_eq!(board.files[0].0, "leaderboard-zendo-duel.png");
    {
        let store = mondo::store::Store::open_read_only(&db).await.unwrap();
        let rules = store.leaderboard_settings(fake.guild_id()).await.unwrap();
        assert_eq!((rules.min_games, rules.recent_days), (Some(3), None));
        store.close().await;
    }

    // The AI's rating, asked of the bot itself.
    let mondo = fake.bot_user_id().to_string();
    let i = fake
        .slash(dave.id, "stats", &[("player", json!(mondo))])
        .await;
    let stats = answer(&fake, &i).await;
    let text = stats.text();
    assert!(
        text.contains("(AI)") && text.contains("Mondo (AI, expert)"),
        "{text}"
    );
    assert!(
        text.contains("Zendo Duel") && text.contains("3 rated games"),
        "{text}"
    );
    assert!(text.contains("never listed on a leaderboard"), "{text}");
    let history = answer(&fake, &fake.slash(carol.id, "history", &[]).await).await;
    let text = history.text();
    assert!(text.contains("with **Mondo** (AI)"), "{text}");
    assert!(!text.contains(&format!("<@{ai}>")), "{text}");

    // Reset: the configured rules again.
    let i = fake
        .slash(host.id, settings, &[("reset", json!(true))])
        .await;
    private_says(
        &answer(&fake, &i).await,
        "at least 5 rated games in the game (default)",
    );
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
    drop(bot);
}
