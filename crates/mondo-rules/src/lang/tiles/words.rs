//! What a Logical Bluffs statement may say, for the fronts' help (`help words` in a
//! Logical Bluffs game at the terminal, `/help tiles` on Discord): "The words" of
//! `docs/tiles.md`, read from the page at build time so the help and the page cannot
//! drift.

const PAGE: &str = include_str!("../../../../../docs/tiles.md");

/// "The words" of `docs/tiles.md`, one line per kind of word (the page's bullets,
/// unwrapped, without its bold marks), after a line saying what statements are.
pub fn vocabulary_text() -> String {
    let section = PAGE
        .split_once("\n## The words\n")
        .and_then(|(_, rest)| rest.split("\n## ").next())
        .unwrap_or("");
    let mut out = String::from(
        "Statements say what colours the tiles of your subset have. Words, with examples:",
    );
    for line in section.lines().map(str::trim_end) {
        if let Some(item) = line.strip_prefix("- ") {
            out.push('\n');
            out.push_str(&item.replace("**", ""));
        } else if let Some(more) = line.strip_prefix("  ") {
            out.push(' ');
            out.push_str(more.trim_start());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_is_the_pages_words_one_line_each() {
        let text = vocabulary_text();
        let lines: Vec<&str> = text.lines().collect();
        // The heading and one line per kind of word on the page.
        assert!(lines.len() >= 7, "{text}");
        for kind in [
            "Tiles and colours",
            "Neighbours",
            "Places",
            "Regions",
            "Numbers",
        ] {
            assert!(
                lines.iter().any(|l| l.starts_with(&format!("{kind}:"))),
                "{kind} is missing: {text}"
            );
        }
        assert!(!text.contains("**"), "{text}");
        // What `adjacent` and `above` mean is said, as players need it.
        assert!(
            text.contains("`adjacent to` is any of the 8 neighbours"),
            "{text}"
        );
        assert!(
            text.contains("`directly above` is the same column"),
            "{text}"
        );
    }
}
