//! `/help`: every command with its help, as written in its doc comment.

use crate::bot::kit::reply;
use crate::bot::post::{MAX_CONTENT, Post};
use crate::bot::{Context, Error};

/// A help topic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Topic {
    #[name = "commands"]
    Commands,
    #[name = "patterns"]
    Patterns,
    #[name = "tiles"]
    Tiles,
}

/// Every command, briefly; or the words of a guess (`patterns`) or a statement (`tiles`).
#[poise::command(slash_command)]
pub async fn help(
    ctx: Context<'_>,
    #[description = "commands (default); patterns: the words of a Zendo guess; tiles: of a Bluffs statement"]
    topic: Option<Topic>,
) -> Result<(), Error> {
    let lines: Vec<String> = match topic {
        Some(Topic::Patterns) => crate::lang::vocabulary_text()
            .lines()
            .map(String::from)
            .collect(),
        Some(Topic::Tiles) => crate::lang::tiles::vocabulary_text()
            .lines()
            .map(String::from)
            .collect(),
        _ => {
            let mut lines = vec![INTRO.to_string()];
            lines.extend(command_lines(&ctx.framework().options().commands));
            lines
        }
    };
    // Every command, however many there are: as many private messages as it takes.
    for mut page in pages(lines) {
        let mut post = Post::private(page.remove(0));
        for line in page {
            post.line(line);
        }
        reply(ctx, post).await?;
    }
    Ok(())
}

const INTRO: &str = "**Mondo** umpires Zendo: it hides a pattern, draws every structure, \
                     takes private answers by DM, runs the clocks, and calls a guess right \
                     only when it has proved it. Structures are written like \
                     `3> .. 2^ / .. 1< 1<` (size 1-3 then ^ > v <, `..` empty, ` / ` \
                     between rows).";

/// Lines grouped into pages that each fit one Discord message (joined by newlines).
fn pages(lines: Vec<String>) -> Vec<Vec<String>> {
    let mut pages: Vec<Vec<String>> = Vec::new();
    // Characters of the last page as joined.
    let mut size = 0;
    for line in lines {
        let len = line.chars().count();
        match pages.last_mut() {
            Some(page) if size + 1 + len <= MAX_CONTENT => {
                page.push(line);
                size += 1 + len;
            }
            _ => {
                pages.push(vec![line]);
                size = len;
            }
        }
    }
    pages
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

    #[test]
    fn help_lists_every_command_with_its_doc_comment() {
        let lines = command_lines(&crate::bot::commands::all());
        for name in [
            "/zendo duel",
            "/zendo practice",
            "/zendo status",
            "/zendo board",
            "/zendo resign",
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
        ] {
            let line = lines
                .iter()
                .find(|l| l.starts_with(&format!("`{name}`:")))
                .unwrap_or_else(|| panic!("{name} missing from {lines:#?}"));
            assert!(line.len() > name.len() + 12, "{name} has no help: {line}");
        }
        // Every line is sent, each page within Discord's limit.
        let mut all = vec![INTRO.to_string()];
        all.extend(lines.clone());
        let pages = pages(all.clone());
        assert!(pages.len() >= 2, "the list no longer fits one message");
        for page in &pages {
            assert!(page.join("\n").chars().count() <= MAX_CONTENT);
        }
        assert_eq!(pages.concat(), all);
    }
}
