//! `/help [game or topic]`: one private message of embed cards with a select menu of
//! every topic; choosing one swaps the cards in place. The topics: every command (as
//! its doc comment says), the table and guesses every Zendo game shares, each game's
//! players' page (`docs/games/`, the text the terminal's `help` also comes from), the
//! words of a guess and of a statement. The menu's id is [`MENU_ID`]; it carries no
//! match, so it works for anyone who sees it, at any time, after a restart too.

use crate::kit::card::{self, Card, Menu, MenuOption};
use crate::kit::reply;
use crate::post::Post;
use crate::{Context, Error};
use poise::serenity_prelude as serenity;

/// The custom id of help's topic menu.
pub const MENU_ID: &str = "help:topic";

/// The page every Zendo game shares (the table, the pieces, guessing).
const ZENDO_PAGE: &str = include_str!("../../../../docs/games/zendo.md");

/// One topic of the menu: its value (what `/help` takes), label and a few words.
struct Topic {
    value: String,
    label: String,
    about: String,
}

fn topics() -> Vec<Topic> {
    let topic = |value: &str, label: &str, about: &str| Topic {
        value: value.into(),
        label: label.into(),
        about: about.into(),
    };
    let mut all = vec![
        topic(
            "commands",
            "Every command",
            "each slash command in one line",
        ),
        topic(
            "zendo",
            "Zendo: the table",
            "pieces, structures, guesses and proofs",
        ),
    ];
    for (kind, page) in crate::games::help::pages() {
        all.push(topic(kind.name(), kind.title(), &first_sentence(page)));
    }
    all.push(topic(
        "patterns",
        "Words of a guess",
        "the words a Zendo guess may use, with examples",
    ));
    all.push(topic(
        "tiles",
        "Words of a statement",
        "the words of a Logical Bluffs statement",
    ));
    all
}

/// A page's first sentence after its title, for the menu.
fn first_sentence(page: &str) -> String {
    let body = page
        .lines()
        .skip_while(|l| l.starts_with('#') || l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let text = plain(&body);
    text.split_inclusive(". ")
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// Help on every command, a game's rules, or the words of a guess (only you see it).
///
/// One message, with a menu to choose another game or topic.
#[poise::command(slash_command)]
pub async fn help(
    ctx: Context<'_>,
    #[description = "A game (zendo-duel, logical-bluffs, ...) or topic: commands (default), zendo, patterns, tiles"]
    #[autocomplete = "complete_topic"]
    topic: Option<String>,
) -> Result<(), Error> {
    let topic = topic.unwrap_or_else(|| "commands".into());
    let commands = &ctx.framework().options().commands;
    match help_post(&topic, commands) {
        Some(post) => reply(ctx, post).await,
        None => {
            let known: Vec<String> = topics().iter().map(|t| format!("`{}`", t.value)).collect();
            let e = format!(
                "there is no help on `{topic}`: choose one of {}",
                known.join(", ")
            );
            reply(ctx, Post::private(e)).await
        }
    }
}

async fn complete_topic(_: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let partial = partial.to_lowercase();
    let choices: Vec<serenity::AutocompleteChoice> = topics()
        .into_iter()
        .filter(|t| t.value.contains(&partial) || t.label.to_lowercase().contains(&partial))
        .take(25)
        .map(|t| serenity::AutocompleteChoice::new(t.label, t.value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The help on `topic` (a topic's value or a game's name, any case) as one private
/// post with the menu; `None` for a topic there is none of.
pub fn help_post<U, E>(topic: &str, commands: &[poise::Command<U, E>]) -> Option<Post> {
    let topic = topic.trim().to_lowercase();
    let all = topics();
    let chosen = all
        .iter()
        .find(|t| t.value == topic || t.label.to_lowercase() == topic)?;
    let cards = match chosen.value.as_str() {
        "commands" => {
            let mut cards = vec![Card {
                description: format!("{INTRO}\n\nChoose a game or a topic below."),
                ..Card::new("Mondo")
            }];
            cards.extend(text_cards("Commands", &command_lines(commands).join("\n")));
            cards
        }
        "zendo" => page_cards(ZENDO_PAGE),
        "patterns" => text_cards("Words of a guess", &crate::lang::vocabulary_text()),
        "tiles" => text_cards(
            "Words of a statement",
            &crate::lang::tiles::vocabulary_text(),
        ),
        game => {
            let (_, page) = crate::games::help::pages()
                .into_iter()
                .find(|(k, _)| k.name() == game)?;
            page_cards(page)
        }
    };
    let mut post = Post {
        ephemeral: true,
        cards,
        ..Post::default()
    };
    post.menu = Some(Menu {
        id: MENU_ID.into(),
        placeholder: "Help on a game or a topic".into(),
        options: all
            .iter()
            .map(|t| MenuOption {
                label: t.label.clone(),
                value: t.value.clone(),
                description: t.about.clone(),
                chosen: t.value == chosen.value,
            })
            .collect(),
    });
    Some(post)
}

/// A choice in help's menu: the same message, now on the chosen topic.
pub async fn on_select<U, E>(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    commands: &[poise::Command<U, E>],
) -> Result<(), Error> {
    let topic = match &press.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            values.first().cloned().unwrap_or_default()
        }
        _ => String::new(),
    };
    let response = match help_post(&topic, commands) {
        Some(mut post) => {
            // An update keeps the message's own visibility.
            post.ephemeral = false;
            serenity::CreateInteractionResponse::UpdateMessage(post.response())
        }
        None => serenity::CreateInteractionResponse::Message(
            Post::private(format!("there is no help on `{topic}`: choose another")).response(),
        ),
    };
    press.create_response(ctx, response).await?;
    Ok(())
}

const INTRO: &str = "**Mondo** umpires deduction games: it hides a pattern, draws every \
                     structure, takes private answers by DM, runs the clocks, and calls a \
                     guess right only when it has proved it. Structures are written like \
                     `3> .. 2^ / .. 1< 1<` (size 1-3 then ^ > v <, `..` empty, ` / ` \
                     between rows); `/zendo sketch` draws one for you alone.";

/// Text as cards titled `title`, split at line ends so each fits a card.
fn text_cards(title: &str, text: &str) -> Vec<Card> {
    let mut cards: Vec<Card> = Vec::new();
    for line in text.lines() {
        let fits = cards.last().is_some_and(|c| {
            c.description.chars().count() + 1 + line.chars().count() <= card::MAX_DESCRIPTION
        });
        if !fits {
            let title = if cards.is_empty() {
                title.to_string()
            } else {
                format!("{title} (more)")
            };
            cards.push(Card::new(title));
        }
        if let Some(c) = cards.last_mut() {
            if !c.description.is_empty() {
                c.description.push('\n');
            }
            c.description.push_str(line);
        }
    }
    cards
}

/// A players' page as cards: its title and opening, then each section but the
/// terminal's, in Discord's markdown; the rest is cut (with a note) past Discord's
/// limits.
fn page_cards(page: &str) -> Vec<Card> {
    let mut cards = Vec::new();
    let mut title = String::new();
    let mut body: Vec<&str> = Vec::new();
    let flush = |title: &str, body: &[&str], cards: &mut Vec<Card>| {
        let text = discord_markdown(body);
        if !title.is_empty() && !title.eq_ignore_ascii_case("At the terminal") {
            cards.extend(text_cards(title, text.trim()));
        }
    };
    for line in page.lines() {
        if let Some(h) = line.strip_prefix("# ").or_else(|| line.strip_prefix("## ")) {
            flush(&title, &body, &mut cards);
            title = h.trim().to_string();
            body.clear();
        } else {
            body.push(line);
        }
    }
    flush(&title, &body, &mut cards);
    let mut fitted = card::fit(&cards);
    if fitted != cards
        && let Some(last) = fitted.last_mut()
    {
        last.footer = Some("(cut here: the whole page is in Mondo's docs/games/)".into());
        // The footer counts too.
        let room =
            card::MAX_EMBEDS_TOTAL.saturating_sub(fitted.iter().map(Card::size).sum::<usize>());
        if room == 0 {
            let last = fitted.len() - 1;
            let keep = fitted[last].description.chars().count().saturating_sub(80);
            fitted[last].description = card::cut(&fitted[last].description, keep);
        }
    }
    fitted
}

/// A page's markdown as Discord shows it: tables as lines, links as their text, code
/// examples fenced, headings bold, comments dropped.
fn discord_markdown(lines: &[&str]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut in_code = false;
    let mut fenced = false;
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push(line.trim().to_string());
            continue;
        }
        if fenced {
            out.push(line.to_string());
            continue;
        }
        let indented = line.starts_with("    ") && !line.trim().is_empty();
        if indented != in_code {
            out.push("```".into());
            in_code = indented;
        }
        if in_code {
            out.push(line[4..].to_string());
            continue;
        }
        let t = line.trim();
        if t.starts_with("<!--") {
            continue;
        }
        if t.starts_with('|') {
            let separator = |l: &str| l.trim().starts_with("|-") || l.trim().starts_with("| -");
            if separator(t) || lines.get(i + 1).is_some_and(|n| separator(n)) {
                continue;
            }
            let cells: Vec<String> = t
                .trim_matches('|')
                .split(" | ")
                .map(|c| plain(c.trim()).replace("\\|", "|"))
                .collect();
            out.push(format!("• {}", cells.join(" — ")));
            continue;
        }
        if let Some(h) = t.strip_prefix("### ") {
            out.push(format!("**{}**", plain(h)));
            continue;
        }
        out.push(plain(line));
    }
    if in_code {
        out.push("```".into());
    }
    out.join("\n")
}

/// `[text](link)` as `text`.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find("](").and_then(|close| {
            let link = &after[close + 2..];
            link.find(')').map(|end| (close, close + 2 + end + 1))
        }) {
            Some((close, end)) => {
                out.push_str(&rest[..open]);
                out.push_str(&after[..close]);
                rest = &after[end..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// "`/zendo duel`: Challenge someone ..." for every command and subcommand.
pub fn command_lines<U, E>(commands: &[poise::Command<U, E>]) -> Vec<String> {
    fn walk<U, E>(prefix: &str, c: &poise::Command<U, E>, out: &mut Vec<String>) {
        let name = format!("{prefix}{}", c.name);
        if c.subcommands.is_empty() {
            let about = c.description.clone().unwrap_or_default();
            out.push(format!("`/{name}`: {about}"));
        } else {
            for sub in &c.subcommands {
                walk(&format!("{name} "), sub, out);
            }
        }
    }
    let mut out = Vec::new();
    for c in commands {
        walk("", c, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(post: &Post) -> String {
        post.cards
            .iter()
            .map(|c| format!("{}\n{}", c.title, c.description))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn help_lists_every_command_in_one_message_within_discords_limits() {
        let commands = crate::commands::all();
        let lines = command_lines(&commands);
        for name in [
            "/zendo duel",
            "/zendo practice",
            "/zendo status",
            "/zendo board",
            "/zendo resign",
            "/zendo sketch",
            "/koan",
            "/guess",
            "/pass",
            "/endturn",
            "/pool add",
            "/pool remove",
            "/pool list",
            "/pool check",
            "/pool pattern add",
            "/pool pattern remove",
            "/pool export",
            "/host pause",
            "/host resume",
            "/host disallow",
            "/host end",
            "/settings",
            "/help",
            "/stats",
            "/leaderboard",
            "/leaderboard-settings",
            "/history",
            "/replay",
        ] {
            let line = lines
                .iter()
                .find(|l| l.starts_with(&format!("`{name}`:")))
                .unwrap_or_else(|| panic!("{name} missing from {lines:#?}"));
            assert!(line.len() > name.len() + 12, "{name} has no help: {line}");
        }
        let post = help_post("commands", &commands).expect("the commands");
        let shown = card::fit(&post.cards);
        assert_eq!(shown, post.cards, "every command fits one message");
        let all = text(&post);
        for line in &lines {
            assert!(all.contains(line.as_str()), "{line} not shown");
        }
        assert!(post.ephemeral);
    }

    #[test]
    fn every_topic_and_game_has_help_and_the_menu_names_them_all() {
        let commands = crate::commands::all();
        let all = topics();
        assert!(all.len() <= card::MAX_OPTIONS);
        for t in &all {
            let post = help_post(&t.value, &commands).unwrap_or_else(|| panic!("{}", t.value));
            assert!(!post.cards.is_empty(), "{}", t.value);
            let total: usize = post.cards.iter().map(Card::size).sum();
            assert!(total <= card::MAX_EMBEDS_TOTAL, "{}: {total}", t.value);
            let menu = post.menu.expect("a menu");
            assert_eq!(menu.options.len(), all.len());
            let chosen: Vec<&str> = menu
                .options
                .iter()
                .filter(|o| o.chosen)
                .map(|o| o.value.as_str())
                .collect();
            assert_eq!(chosen, vec![t.value.as_str()]);
        }
        // A game's page: its rules, its Discord commands; no terminal section, no
        // markdown Discord would show raw.
        let duel = text(&help_post("zendo-duel", &commands).expect("the duel"));
        assert!(
            duel.contains("The rules") && duel.contains("ticket"),
            "{duel}"
        );
        assert!(!duel.contains("At the terminal"), "{duel}");
        assert!(
            !duel.contains("|---") && !duel.contains("](zendo.md)"),
            "{duel}"
        );
        assert!(
            help_post("Zendo Duel", &commands).is_some(),
            "by its title too"
        );
        assert!(help_post("chess", &commands).is_none());
    }

    #[test]
    fn page_markdown_reads_on_discord() {
        let md = discord_markdown(&[
            "Read [zendo.md](zendo.md) first.",
            "| Command | What |",
            "|---|---|",
            "| `/koan` | build |",
            "<!-- terminal help -->",
            "    > koan 1^",
            "    ok",
            "after",
        ]);
        assert_eq!(
            md,
            "Read zendo.md first.\n• `/koan` — build\n```\n> koan 1^\nok\n```\nafter"
        );
    }
}
