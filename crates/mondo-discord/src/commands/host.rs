//! What hosts do (Manage Server, or the server's host role): pattern pools, overrides
//! on a running match, and the server's settings. Replies are seen only by the host.

use crate::data::off_runtime;
use crate::finder::{self, Limits, ReasonableOptions};
use crate::kit::host::{host_only, override_match};
use crate::kit::{BUILT_IN_POOLS, SetChoice, reply};
use crate::koan::PieceSet;
use crate::lang;
use crate::pool::{self, Difficulty, EditError, NewEntry, Pool};
use crate::post::Post;
use crate::rules::PlayerId;
use crate::runtime::{AnyAction, Common};
use crate::{Context, Error, say};
use poise::serenity_prelude as serenity;

/// The largest pool file accepted.
const MAX_POOL_BYTES: u32 = crate::files::MAX_POOL_BYTES as u32;

fn guild(ctx: Context<'_>) -> u64 {
    ctx.guild_id().map_or(0, |g| g.get())
}

/// Pattern pools (hosts): the hidden patterns this server's matches draw from.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "pool_add",
        "pool_remove",
        "pool_list",
        "pool_check",
        "pool_pattern",
        "pool_export"
    ),
    subcommand_required
)]
pub async fn pool(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Add or replace a pool from a TOML file (its format: docs/hosts.md, "Pool files").
#[poise::command(slash_command, rename = "add")]
pub async fn pool_add(
    ctx: Context<'_>,
    #[description = "The pool file (.toml)"] file: serenity::Attachment,
    #[description = "Its name here (default: the file's name without .toml)"] name: Option<String>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let name = name.unwrap_or_else(|| file.filename.trim_end_matches(".toml").to_string());
    if let Err(e) = check_name(&name) {
        return reply(ctx, Post::private(e)).await;
    }
    // Fetching and checking the file may outlast Discord's 3 seconds.
    ctx.defer_ephemeral().await?;
    let text = match download(&file).await {
        Ok(t) => t,
        Err(e) => return reply(ctx, Post::private(e)).await,
    };
    let checked = text.clone();
    let pool = match off_runtime(move || Pool::from_toml(&checked)).await? {
        Ok(p) => p,
        Err(errors) => {
            return reply(
                ctx,
                Post::private(format!(
                    "the pool was not stored: {}",
                    problems(&file.filename, &errors)
                )),
            )
            .await;
        }
    };
    ctx.data()
        .store
        .put_pool(guild(ctx), &name, &text, Some(ctx.author().id.get()))
        .await?;
    reply(
        ctx,
        Post::private(format!(
            "pool `{name}` stored: {}. Duels draw from it with `/zendo duel pool:{name}`, or \
             by default after `/settings pool:{name}`.",
            summary(&pool)
        )),
    )
    .await
}

/// Remove one of this server's pools.
#[poise::command(slash_command, rename = "remove")]
pub async fn pool_remove(
    ctx: Context<'_>,
    #[description = "The pool's name"] name: String,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let settings = bot.settings(Some(guild(ctx))).await?;
    if settings
        .stored
        .pool
        .as_deref()
        .is_some_and(|p| p.eq_ignore_ascii_case(&name))
    {
        return reply(
            ctx,
            Post::private(format!(
                "`{name}` is this server's default pool: choose another with `/settings pool` \
                 first"
            )),
        )
        .await;
    }
    let text = if bot.store.delete_pool(guild(ctx), &name).await? {
        format!("pool `{name}` removed (matches already running keep their pattern)")
    } else {
        format!("this server has no pool `{name}`; `/pool list` shows them")
    };
    reply(ctx, Post::private(text)).await
}

/// The pools matches can draw from here (ids and difficulties; never the patterns).
#[poise::command(slash_command, rename = "list")]
pub async fn pool_list(ctx: Context<'_>) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let settings = bot.settings(Some(guild(ctx))).await?;
    let mut post = Post::private(format!("default pool here: `{}`", settings.pool));
    for set in PieceSet::ALL {
        post.line(format!(
            "`{set}` (built in): {}",
            summary(&Pool::shipped(set))
        ));
    }
    post.line("`generated` (built in): a fresh random reasonable pattern each match");
    for record in bot.store.pools(guild(ctx)).await? {
        let about = match off_runtime(move || Pool::from_toml(&record.toml)).await? {
            Ok(p) => summary(&p),
            Err(e) => format!("no longer reads ({} problems)", e.0.len()),
        };
        post.line(format!(
            "`{}`: {about}; updated {}{}",
            record.name,
            record.updated,
            record.updated_by.map_or(String::new(), |u| format!(
                " by {}",
                say::mention(PlayerId(u))
            ))
        ));
    }
    reply(ctx, post).await
}

/// Check a pool file (or a stored pool) without storing anything.
#[poise::command(slash_command, rename = "check")]
pub async fn pool_check(
    ctx: Context<'_>,
    #[description = "A pool file (.toml) to check"] file: Option<serenity::Attachment>,
    #[description = "Or a stored pool's name"] name: Option<String>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    ctx.defer_ephemeral().await?;
    let (label, text) = match (file, name) {
        (Some(f), None) => match download(&f).await {
            Ok(t) => (f.filename.clone(), t),
            Err(e) => return reply(ctx, Post::private(e)).await,
        },
        (None, Some(n)) => match ctx.data().store.pool(guild(ctx), &n).await? {
            Some(r) => (n, r.toml),
            None => {
                return reply(ctx, Post::private(format!("this server has no pool `{n}`"))).await;
            }
        },
        _ => {
            return reply(
                ctx,
                Post::private("give either a file or a stored pool's name, not both"),
            )
            .await;
        }
    };
    let text = match off_runtime(move || Pool::from_toml(&text)).await? {
        Ok(p) => format!("`{label}` is a good pool: {}", summary(&p)),
        Err(e) => problems(&label, &e),
    };
    reply(ctx, Post::private(text)).await
}

fn check_name(name: &str) -> Result<(), String> {
    let ok = (1..=40).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(format!(
            "`{name}` is not a pool name: use 1-40 letters, digits, `-` or `_`"
        ));
    }
    if BUILT_IN_POOLS.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        return Err(format!(
            "`{name}` is a built-in pool's name: choose another"
        ));
    }
    Ok(())
}

/// The longest a pool file may take to arrive from Discord.
const DOWNLOAD_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

async fn download(file: &serenity::Attachment) -> Result<String, String> {
    if file.size > MAX_POOL_BYTES {
        return Err(format!(
            "`{}` is {} bytes; a pool file may have at most {MAX_POOL_BYTES}",
            file.filename, file.size
        ));
    }
    let bytes = tokio::time::timeout(DOWNLOAD_WAIT, file.download())
        .await
        .map_err(|_| {
            format!(
                "Discord did not send `{}` within {} s; try again",
                file.filename,
                DOWNLOAD_WAIT.as_secs()
            )
        })?
        .map_err(|e| format!("could not fetch `{}` from Discord: {e}", file.filename))?;
    String::from_utf8(bytes).map_err(|_| {
        format!(
            "`{}` is not UTF-8 text: a pool is a TOML text file",
            file.filename
        )
    })
}

/// "34 patterns: pyramids 30 (easy 10, ...), arrows 4".
fn summary(pool: &Pool) -> String {
    format!(
        "{}: {}",
        crate::narrate::count(pool.len() as u64, "pattern", "patterns"),
        pool.breakdown()
    )
}

/// Every problem of a pool file, with lines and entry ids, in a code block.
fn problems(label: &str, errors: &crate::pool::PoolErrors) -> String {
    let text = errors.to_string().replace("```", "'''");
    format!("`{label}` has problems:\n```\n{text}\n```")
}

/// Add or remove one pattern of a pool, without a file.
#[poise::command(
    slash_command,
    rename = "pattern",
    subcommands("pattern_add", "pattern_remove"),
    subcommand_required
)]
pub async fn pool_pattern(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A difficulty, as the host judges it.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum DifficultyChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

impl From<DifficultyChoice> for Difficulty {
    fn from(d: DifficultyChoice) -> Difficulty {
        match d {
            DifficultyChoice::Easy => Difficulty::Easy,
            DifficultyChoice::Medium => Difficulty::Medium,
            DifficultyChoice::Hard => Difficulty::Hard,
        }
    }
}

/// One edit of a server's pools at a time in this process; across processes each edit
/// is stored only if the pool is still as it was read (`Store::replace_pool`), else
/// made again on the other's, so two hosts editing at once both land.
static POOL_EDITS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How many times an edit is made again on a pool others keep changing.
const POOL_TRIES: u32 = 5;

/// An edit given up after [`POOL_TRIES`]: nothing was changed.
fn busy_pool(name: &str) -> String {
    format!(
        "pool `{name}` was being changed by other hosts at the same moment, {POOL_TRIES} \
         times over; nothing was changed: send the command again"
    )
}

/// Add a pattern to one of this server's pools (made if new); only you see the reply.
#[poise::command(slash_command, rename = "add")]
pub async fn pattern_add(
    ctx: Context<'_>,
    #[description = "The pool's name (a new name makes a new pool)"] pool: String,
    #[description = "The hidden pattern, in English or symbols (at most 10 words)"]
    #[max_length = 300]
    pattern: String,
    #[description = "How hard it is to find (default: medium)"] difficulty: Option<
        DifficultyChoice,
    >,
    #[description = "A note for hosts (never shown to players)"]
    #[max_length = 200]
    note: Option<String>,
    #[description = "The pieces (default: the pool file's set, else pyramids)"] set: Option<
        SetChoice,
    >,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    if let Err(e) = check_name(&pool) {
        return reply(ctx, Post::private(e)).await;
    }
    // The finder may outlast Discord's 3 seconds.
    ctx.defer_ephemeral().await?;
    let bot = ctx.data();
    let g = guild(ctx);
    let existing = bot.store.pool(g, &pool).await?;
    let set = match set {
        Some(choice) => PieceSet::from(choice),
        None => existing
            .as_ref()
            .and_then(|r| pool::file_set(&r.toml))
            .unwrap_or(PieceSet::Pyramids),
    };
    let difficulty = difficulty.map_or(Difficulty::Medium, Difficulty::from);
    let note = note.unwrap_or_default();
    let job = tokio::task::spawn_blocking(move || prepare(&pattern, set, difficulty, note));
    let prepared = match job.await {
        Ok(Ok(p)) => p,
        Ok(Err(refusal)) => {
            return reply(
                ctx,
                Post::private(format!("the pattern was not added: {refusal}")),
            )
            .await;
        }
        Err(e) => return Err(e.into()),
    };
    let _one_at_a_time = POOL_EDITS.lock().await;
    let by = Some(ctx.author().id.get());
    // Read again under the lock, and stored only if nobody changed it meanwhile (a host
    // on another process): else made again on what they left, so both edits stay.
    let mut tries = 0;
    let (existing, name, edited) = loop {
        tries += 1;
        let existing = bot.store.pool(g, &pool).await?;
        let (name, before) = match &existing {
            Some(r) => (r.name.clone(), Some(r.toml.clone())),
            None => (pool.clone(), None),
        };
        let (text, entry) = (before.clone(), prepared.entry.clone());
        let edited = off_runtime(move || pool::add_entry(text.as_deref(), &entry)).await?;
        let edited = match edited {
            Ok(e) => e,
            Err(e) => return reply(ctx, Post::private(edit_refusal(&name, &e))).await,
        };
        if edited.text.len() > MAX_POOL_BYTES as usize {
            return reply(
                ctx,
                Post::private(format!(
                    "the pattern was not added: pool `{name}` would pass {MAX_POOL_BYTES} \
                     bytes; remove patterns or start another pool"
                )),
            )
            .await;
        }
        let stored = bot
            .store
            .replace_pool(g, &name, before.as_deref(), &edited.text, by);
        if stored.await? {
            break (existing, name, edited);
        }
        if tries >= POOL_TRIES {
            return reply(ctx, Post::private(busy_pool(&name))).await;
        }
    };
    let e = &prepared.entry;
    let mut post = Post::private(format!(
        "pattern `{}` added to {} pool `{name}` (only you see this):",
        edited.id,
        if existing.is_none() { "the new" } else { "the" }
    ));
    post.line(format!("`{}` reads: {}", e.pattern, prepared.reading));
    post.line(format!(
        "opens with: `{}` obeys, `{}` does not ({set})",
        e.obeys.to_line(),
        e.does_not_obey.to_line()
    ));
    post.line(format!(
        "obeyed by {:.0} % of random structures; difficulty {}{}",
        100.0 * prepared.share,
        e.difficulty,
        if e.note.is_empty() {
            String::new()
        } else {
            format!("; note: {}", e.note)
        }
    ));
    post.line(format!(
        "pool `{name}` now has {}. Duels draw from it with `/zendo duel pool:{name}`; \
         `/pool pattern remove` takes a pattern out, `/pool export` gives the file.",
        summary(&edited.pool)
    ));
    reply(ctx, post).await
}

/// Remove one pattern, by its id, from one of this server's pools.
#[poise::command(slash_command, rename = "remove")]
pub async fn pattern_remove(
    ctx: Context<'_>,
    #[description = "The pool's name"] pool: String,
    #[description = "The pattern's id (as `/pool pattern add` or the pool file gave it)"]
    id: String,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    if let Err(e) = check_name(&pool) {
        return reply(ctx, Post::private(e)).await;
    }
    let bot = ctx.data();
    let g = guild(ctx);
    let _one_at_a_time = POOL_EDITS.lock().await;
    let by = Some(ctx.author().id.get());
    let mut tries = 0;
    let (record, edited) = loop {
        tries += 1;
        let Some(record) = bot.store.pool(g, &pool).await? else {
            return reply(ctx, Post::private(no_pool(&pool))).await;
        };
        let (text, id) = (record.toml.clone(), id.trim().to_string());
        let edited = match off_runtime(move || pool::remove_entry(&text, &id)).await? {
            Ok(e) => e,
            Err(e) => return reply(ctx, Post::private(edit_refusal(&record.name, &e))).await,
        };
        let stored = bot
            .store
            .replace_pool(g, &record.name, Some(&record.toml), &edited.text, by);
        if stored.await? {
            break (record, edited);
        }
        if tries >= POOL_TRIES {
            return reply(ctx, Post::private(busy_pool(&record.name))).await;
        }
    };
    reply(
        ctx,
        Post::private(format!(
            "pattern `{}` removed from pool `{}`, which now has {} (matches already running \
             keep their pattern)",
            edited.id,
            record.name,
            summary(&edited.pool)
        )),
    )
    .await
}

/// A pool's TOML file, sent only to you (edit it and `/pool add` it back).
#[poise::command(slash_command, rename = "export")]
pub async fn pool_export(
    ctx: Context<'_>,
    #[description = "The pool's name (this server's, or pyramids or arrows)"] pool: String,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let wanted = pool.trim();
    let shipped = pool::SHIPPED
        .iter()
        .find(|(file, _)| file.trim_end_matches(".toml").eq_ignore_ascii_case(wanted));
    let (name, text) = match shipped {
        Some((file, text)) => (file.trim_end_matches(".toml").to_string(), text.to_string()),
        None if wanted.eq_ignore_ascii_case("generated") => {
            return reply(
                ctx,
                Post::private(
                    "`generated` has no file: each match gets a fresh pattern from the finder",
                ),
            )
            .await;
        }
        None => match ctx.data().store.pool(guild(ctx), wanted).await? {
            Some(r) => (r.name, r.toml),
            None => return reply(ctx, Post::private(no_pool(wanted))).await,
        },
    };
    let checked = text.clone();
    let about = match off_runtime(move || Pool::from_toml(&checked)).await? {
        Ok(p) => summary(&p),
        Err(e) => format!(
            "it no longer reads ({} problems; `/pool check` shows them)",
            e.0.len()
        ),
    };
    let mut post = Post::private(format!(
        "pool `{name}`: {about}. Only you see this file; edit it and `/pool add` it back."
    ));
    post.files.push((format!("{name}.toml"), text.into_bytes()));
    reply(ctx, post).await
}

fn no_pool(name: &str) -> String {
    format!(
        "this server has no pool `{name}`: `/pool list` shows its pools, and \
         `/pool pattern add` makes one"
    )
}

fn edit_refusal(name: &str, e: &EditError) -> String {
    match e {
        EditError::Unreadable(errors) => format!(
            "pool `{name}` no longer reads, so it was left as it is; fix it and `/pool add` \
             it again. {}",
            problems(name, errors)
        ),
        EditError::Invalid(errors) => {
            format!("the pattern was not added: {}", problems(name, errors))
        }
        other => format!("pool `{name}` is unchanged: {other}"),
    }
}

/// A pattern ready to enter a pool, with what the host is told about it.
#[derive(Debug)]
struct Prepared {
    entry: NewEntry,
    /// The umpire's reading, in the set's words.
    reading: String,
    /// Share of random structures that obey it.
    share: f64,
}

/// Reads a host's pattern, checks that it is a reasonable hidden pattern for `set`
/// and builds its opening structures (the finder's simplest pair), or says why not
/// and what is allowed. Blocking: the finder may work a while.
fn prepare(
    text: &str,
    set: PieceSet,
    difficulty: Difficulty,
    note: String,
) -> Result<Prepared, String> {
    let text = text.trim();
    let pattern = lang::parse(text).map_err(|e| {
        format!(
            "it does not read:\n```\n{}\n```\nWrite it in English (`some piece points up`) \
             or in symbols; `/help` shows the language.",
            e.render(text).replace("```", "'''")
        )
    })?;
    let report = finder::reasonable(&pattern, set, &ReasonableOptions::default());
    if !report.accepted() {
        return Err(format!(
            "it is not a reasonable hidden pattern for the {set}:\n- {}\nA pool pattern has \
             at most {} words, speaks only of what the {set} have, and is obeyed by 5 % to \
             95 % of random structures (neither always nor never true).",
            report.refusals.join("\n- "),
            pool::MAX_WORDS
        ));
    }
    let initial = finder::initial(&pattern.formula, set, None, &Limits::default())
        .map_err(|e| format!("the umpire could not build its opening structures: {e}"))?;
    Ok(Prepared {
        reading: lang::english_for(&pattern.formula, set),
        share: report.share,
        entry: NewEntry {
            pattern: text.to_string(),
            obeys: initial.obeys,
            does_not_obey: initial.does_not_obey,
            difficulty,
            note: note.trim().to_string(),
        },
    })
}

/// Host overrides on a running match.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("host_pause", "host_resume", "host_disallow", "host_end"),
    subcommand_required
)]
pub async fn host(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Stop the clocks of the match here (any game) until resumed (players wait).
#[poise::command(slash_command, rename = "pause")]
pub async fn host_pause(
    ctx: Context<'_>,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    override_match(ctx, game, |_| Ok(AnyAction::Common(Common::Pause))).await
}

/// Let the clocks of the match here run again, with the time they had.
#[poise::command(slash_command, rename = "resume")]
pub async fn host_resume(
    ctx: Context<'_>,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    override_match(ctx, game, |_| Ok(AnyAction::Common(Common::Resume))).await
}

/// Disallow the guess being made (a contrived one): its ticket (or stone) comes back.
#[poise::command(slash_command, rename = "disallow")]
pub async fn host_disallow(
    ctx: Context<'_>,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    let fronts = ctx.data().fronts;
    override_match(ctx, game, |record| fronts.disallow(record)).await
}

/// End the match here (any game) with no winner; its secrets are revealed.
#[poise::command(slash_command, rename = "end")]
pub async fn host_end(
    ctx: Context<'_>,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    override_match(ctx, game, |_| Ok(AnyAction::Common(Common::End))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(text: &str, set: PieceSet) -> Result<Prepared, String> {
        prepare(text, set, Difficulty::Hard, " a note ".into())
    }

    #[test]
    fn a_reasonable_pattern_is_read_back_with_its_opening_and_stored_as_written() {
        let p = prepared("  Some piece is LARGE ", PieceSet::Pyramids).unwrap();
        assert_eq!(p.reading, "there is a large piece");
        assert_eq!(p.entry.pattern, "Some piece is LARGE");
        assert_eq!(p.entry.note, "a note");
        let f = lang::parse(&p.entry.pattern).unwrap().formula;
        assert!(lang::evaluate(&f, &p.entry.obeys));
        assert!(!lang::evaluate(&f, &p.entry.does_not_obey));
        // The finder's simplest pair: one piece each.
        assert_eq!((p.entry.obeys.len(), p.entry.does_not_obey.len()), (1, 1));
        assert!(p.share > 0.05 && p.share < 0.95, "{}", p.share);
        // Into a pool, it loads back.
        let added = pool::add_entry(None, &p.entry).unwrap();
        assert_eq!(added.pool.get("p1").unwrap().difficulty, Difficulty::Hard);
        let arrows = prepared("some arrow points up", PieceSet::Arrows).unwrap();
        assert_eq!(arrows.entry.obeys.set(), PieceSet::Arrows);
    }

    #[test]
    fn unreadable_and_unreasonable_patterns_say_what_is_allowed() {
        let e = prepared("points up some", PieceSet::Pyramids).unwrap_err();
        assert!(
            e.contains("does not read") && e.contains("in English"),
            "{e}"
        );
        let e = prepared("there is a piece or there is no piece", PieceSet::Pyramids).unwrap_err();
        assert!(e.contains("tautology") && e.contains("5 % to 95 %"), "{e}");
        let e = prepared("there are at least 9 pieces", PieceSet::Pyramids).unwrap_err();
        assert!(e.contains("too rarely true"), "{e}");
        let e = prepared("some piece is large", PieceSet::Arrows).unwrap_err();
        assert!(e.contains("does not fit the arrows set"), "{e}");
        let long = "some piece points up and some piece points down and no piece is large";
        let e = prepared(long, PieceSet::Pyramids).unwrap_err();
        assert!(e.contains("words as written"), "{e}");
    }
}
