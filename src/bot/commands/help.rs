//! `/help`: every command with its help, as written in its doc comment.

use super::reply;
use crate::bot::post::Post;
use crate::bot::{Context, Error};

/// What Mondo does and every command, briefly.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let mut post = Post::private(
        "**Mondo** umpires Zendo: it hides a pattern, draws every structure, takes \
         private answers by DM, runs the clocks, and calls a guess right only when it has \
         proved it. Structures are written like `3> .. 2^ / .. 1< 1<` (size 1-3 then \
         ^ > v <, `..` empty, ` / ` between rows).",
    );
    for line in command_lines(&ctx.framework().options().commands) {
        post.line(line);
    }
    reply(ctx, post).await
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
    }
}
