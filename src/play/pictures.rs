//! Pictures at the terminal: each structure as it joins the table (and the whole
//! table on `board`) written as a PNG into `--png DIR`, and shown inline where the
//! terminal can show pictures (kitty's graphics protocol, iTerm2's inline images,
//! sixel). When to show them inline is [`inline_protocol`]; how is viuer's.
//!
//! Inline pictures are never shown when standard output is not a terminal (a pipe, a
//! file), with `--json`, or when `MONDO_NO_IMAGES` is set: what a program or a test
//! reads stays text. Both standard input and output must be the terminal, since
//! asking it what it can show means reading its answer there.

use std::io::Write;
use std::path::Path;

/// A picture a game draws at the terminal.
pub struct Picture {
    /// The file's name in the folder.
    pub file: String,
    pub png: Vec<u8>,
    /// Its JSON line (the path is added).
    pub json: serde_json::Value,
    /// Its words: "picture of {what}: PATH".
    pub what: String,
}

/// An output item that is not a line: the next inline picture goes here (see
/// [`crate::play::Session::take_inline`]). Like [`crate::play::CLEAR_SCREEN`], it
/// is an item of its own that only a terminal front acts on; it is an empty APC
/// string, which a terminal would ignore anyway.
pub const INLINE_PICTURE: &str = "\x1b_mondo-picture\x1b\\";

/// The environment variable that turns inline pictures off (set to anything); the
/// configuration of `mondo serve` knows it is none of its settings.
pub use crate::config::NO_IMAGES;

/// How the terminal shows pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Kitty,
    Iterm,
    Sixel,
}

/// What decides whether pictures are shown inline, besides the terminal's answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct TerminalFacts {
    pub stdout_terminal: bool,
    pub stdin_terminal: bool,
    /// `--json`.
    pub json: bool,
    /// `MONDO_NO_IMAGES` is set.
    pub no_images: bool,
}

impl TerminalFacts {
    /// This process's.
    pub fn here(json: bool) -> TerminalFacts {
        use std::io::IsTerminal;
        TerminalFacts {
            stdout_terminal: std::io::stdout().is_terminal(),
            stdin_terminal: std::io::stdin().is_terminal(),
            json,
            no_images: std::env::var_os(NO_IMAGES).is_some(),
        }
    }
}

/// How to show pictures inline, or `None` for text only. `probe` asks the terminal
/// which protocol it speaks (it writes a query and reads the answer); it is only
/// called when everything else allows pictures, so a pipe, `--json` or
/// `MONDO_NO_IMAGES` never sends a query.
pub fn inline_protocol(
    facts: TerminalFacts,
    probe: impl FnOnce() -> Option<Protocol>,
) -> Option<Protocol> {
    if facts.json || facts.no_images || !facts.stdout_terminal || !facts.stdin_terminal {
        return None;
    }
    probe()
}

/// The terminal's own answer, through viuer: iTerm2's inline images (known from the
/// environment, no query), else kitty's graphics protocol, else sixel (each asked
/// with a query every terminal answers, so none waits). Call it before anything else
/// reads standard input.
pub fn probe() -> Option<Protocol> {
    if viuer::is_iterm_supported() {
        Some(Protocol::Iterm)
    } else if viuer::get_kitty_support() != viuer::KittySupport::None {
        Some(Protocol::Kitty)
    } else if viuer::is_sixel_supported() {
        Some(Protocol::Sixel)
    } else {
        None
    }
}

/// Shows a PNG on standard output at the cursor with `protocol`, at most as wide as
/// the terminal and about as large as its pixels, and moves below it.
pub fn show(png: &[u8], protocol: Protocol) -> Result<(), String> {
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .map_err(|e| format!("cannot read the picture: {e}"))?;
    // A cell is about 9 pixels wide: a picture keeps roughly its size, and never
    // overflows the terminal.
    let (columns, _) = viuer::terminal_size();
    let width = img
        .width()
        .div_ceil(9)
        .clamp(1, u32::from(columns.max(2)) - 1);
    let config = viuer::Config {
        absolute_offset: false,
        width: Some(width),
        use_kitty: protocol == Protocol::Kitty,
        use_iterm: protocol == Protocol::Iterm,
        use_sixel: protocol == Protocol::Sixel,
        ..Default::default()
    };
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    viuer::print(&img, &config)
        .map(|_| ())
        .map_err(|e| format!("cannot show the picture: {e}"))
}

/// The folder of `--png DIR`, made (with its parents) if missing; a path that is a
/// file, or a folder that cannot be made, is refused.
pub fn pictures_folder(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "--png {}: not a folder (a file is there); name a folder",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("--png {}: cannot make this folder: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Pictures are inline only at a terminal (input and output), without `--json` or
    /// `MONDO_NO_IMAGES`, and only in a protocol the terminal answered with; the
    /// terminal is not even asked otherwise.
    #[test]
    fn pictures_are_inline_only_at_a_terminal_that_shows_them() {
        let terminal = TerminalFacts {
            stdout_terminal: true,
            stdin_terminal: true,
            json: false,
            no_images: false,
        };
        let asked = Cell::new(0);
        let answers = |p: Option<Protocol>| {
            let asked = &asked;
            move || {
                asked.set(asked.get() + 1);
                p
            }
        };
        for protocol in [Protocol::Kitty, Protocol::Iterm, Protocol::Sixel] {
            assert_eq!(
                inline_protocol(terminal, answers(Some(protocol))),
                Some(protocol)
            );
        }
        assert_eq!(inline_protocol(terminal, answers(None)), None, "text only");
        assert_eq!(asked.get(), 4);

        let refused = [
            TerminalFacts {
                stdout_terminal: false,
                ..terminal
            },
            TerminalFacts {
                stdin_terminal: false,
                ..terminal
            },
            TerminalFacts {
                json: true,
                ..terminal
            },
            TerminalFacts {
                no_images: true,
                ..terminal
            },
            TerminalFacts::default(),
        ];
        for facts in refused {
            assert_eq!(
                inline_protocol(facts, answers(Some(Protocol::Kitty))),
                None,
                "{facts:?}"
            );
        }
        assert_eq!(asked.get(), 4, "the terminal was asked when it must not be");
    }
}
