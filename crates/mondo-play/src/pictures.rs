//! Pictures at the terminal: each structure as it joins the table (and the whole
//! table on `board`) written as a PNG into `--png DIR`, and shown inline where the
//! terminal can show pictures (kitty's graphics protocol, iTerm2's inline images,
//! sixel, or coloured half blocks). Which protocol is [`inline_protocol`]; the bytes
//! are written by [`show`].
//!
//! The terminal is never asked anything: which protocol it speaks is read from the
//! environment it sets ([`detect`]), or chosen with `--pictures`. A query would wait
//! for an answer a terminal (an editor's console, `script`, a pty driven by a
//! program) may never send, and its answer would arrive in the player's input.
//! So the writers are our own: each is the protocol's one escape sequence, written
//! with the terminal told not to reply (kitty's `q=2`).
//!
//! With `--pictures auto` (the default), inline pictures are shown only when standard
//! output is a terminal, without `--json`, and without `MONDO_NO_IMAGES` set: what a
//! program or a test reads stays text. An explicit protocol is shown as asked (but
//! never into `--json`).

use base64::Engine;
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
/// [`crate::Session::take_inline`]). Like [`crate::CLEAR_SCREEN`], it
/// is an item of its own that only a terminal front acts on; it is an empty APC
/// string, which a terminal would ignore anyway.
pub const INLINE_PICTURE: &str = "\x1b_mondo-picture\x1b\\";

/// The environment variable that turns inline pictures off (set to anything) under
/// `--pictures auto`; the configuration of `mondo serve` knows it is none of its settings.
pub use crate::config::NO_IMAGES;

/// How the terminal shows pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// kitty's graphics protocol (kitty, Ghostty, WezTerm, Konsole).
    Kitty,
    /// iTerm2's inline images (iTerm2, WezTerm, mintty).
    Iterm,
    /// DEC sixel (foot, mlterm, Konsole, xterm started with sixel).
    Sixel,
    /// Coloured half blocks (`▀`), which any colour terminal shows.
    Blocks,
}

/// `--pictures`: how inline pictures are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Choice {
    /// The protocol the terminal's environment names, at a terminal only; text only
    /// when it names none.
    #[default]
    Auto,
    Kitty,
    Iterm,
    Sixel,
    /// Coloured half blocks.
    Blocks,
    /// Text only.
    Off,
}

/// What decides whether pictures are shown inline.
#[derive(Clone, Copy, Debug, Default)]
pub struct TerminalFacts {
    pub stdout_terminal: bool,
    /// `--json`.
    pub json: bool,
    /// `MONDO_NO_IMAGES` is set.
    pub no_images: bool,
    /// What the environment names ([`detect`]).
    pub detected: Option<Protocol>,
}

impl TerminalFacts {
    /// This process's.
    pub fn here(json: bool) -> TerminalFacts {
        use std::io::IsTerminal;
        TerminalFacts {
            stdout_terminal: std::io::stdout().is_terminal(),
            json,
            no_images: std::env::var_os(NO_IMAGES).is_some(),
            detected: detect(|name| std::env::var(name).ok()),
        }
    }
}

/// How to show pictures inline, or `None` for text only. Nothing here asks the
/// terminal: the choice and the facts decide.
pub fn inline_protocol(facts: TerminalFacts, choice: Choice) -> Option<Protocol> {
    if facts.json {
        return None;
    }
    match choice {
        Choice::Off => None,
        Choice::Kitty => Some(Protocol::Kitty),
        Choice::Iterm => Some(Protocol::Iterm),
        Choice::Sixel => Some(Protocol::Sixel),
        Choice::Blocks => Some(Protocol::Blocks),
        Choice::Auto if facts.no_images || !facts.stdout_terminal => None,
        Choice::Auto => facts.detected,
    }
}

/// The protocol a terminal's environment names, if any (`var` reads a variable):
/// inside tmux or screen none (they pass pictures on only when configured to, and
/// the outer terminal's variables are inherited); kitty and Ghostty (`KITTY_WINDOW_ID`,
/// `TERM=xterm-kitty`, `TERM=xterm-ghostty`, `TERM_PROGRAM=ghostty`) kitty's
/// protocol; iTerm2, WezTerm and mintty (`TERM_PROGRAM`, or `LC_TERMINAL=iTerm2`
/// over ssh) iTerm2's; foot, mlterm, yaft, contour (`TERM`) and Konsole
/// (`KONSOLE_VERSION`) sixel.
pub fn detect(var: impl Fn(&str) -> Option<String>) -> Option<Protocol> {
    let term = var("TERM").unwrap_or_default();
    let program = var("TERM_PROGRAM").unwrap_or_default();
    if var("TMUX").is_some()
        || var("STY").is_some()
        || term.starts_with("screen")
        || term.starts_with("tmux")
    {
        return None;
    }
    if var("KITTY_WINDOW_ID").is_some()
        || term == "xterm-kitty"
        || term == "xterm-ghostty"
        || program.eq_ignore_ascii_case("ghostty")
    {
        return Some(Protocol::Kitty);
    }
    if matches!(program.as_str(), "iTerm.app" | "WezTerm" | "mintty")
        || var("LC_TERMINAL").as_deref() == Some("iTerm2")
    {
        return Some(Protocol::Iterm);
    }
    let sixel_terms = ["foot", "mlterm", "yaft", "contour"];
    if sixel_terms.iter().any(|t| term.starts_with(t)) || var("KONSOLE_VERSION").is_some() {
        return Some(Protocol::Sixel);
    }
    None
}

/// Shows a PNG on standard output at the cursor with `protocol`, at most as wide as
/// the terminal and about as large as its pixels, and moves below it.
pub fn show(png: &[u8], protocol: Protocol) -> Result<(), String> {
    let columns = terminal_columns();
    let mut out = std::io::stdout().lock();
    out.flush().map_err(|e| e.to_string())?;
    write_picture(&mut out, png, protocol, columns)
        .map_err(|e| format!("cannot show the picture: {e}"))?;
    out.flush().map_err(|e| e.to_string())
}

/// How many columns the terminal on standard output has (80 when it says none).
fn terminal_columns() -> u16 {
    match rustix::termios::tcgetwinsize(std::io::stdout()) {
        Ok(size) if size.ws_col > 0 => size.ws_col,
        _ => 80,
    }
}

/// The bytes that show `png` with `protocol` on a terminal `columns` wide, then a
/// new line. None of them asks the terminal anything.
pub fn write_picture(
    out: &mut impl Write,
    png: &[u8],
    protocol: Protocol,
    columns: u16,
) -> Result<(), String> {
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .map_err(|e| format!("cannot read the picture: {e}"))?;
    // A cell is about 9 pixels wide: a picture keeps roughly its size, and never
    // overflows the terminal.
    let cells = img
        .width()
        .div_ceil(9)
        .clamp(1, u32::from(columns.max(2)) - 1);
    let io = |e: std::io::Error| e.to_string();
    match protocol {
        Protocol::Kitty => {
            // The PNG as it is (f=100), placed at once (a=T), `cells` columns wide,
            // the terminal told to answer nothing (q=2); in chunks of 4096 bytes of
            // base64, all but the last with m=1.
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            let chunks: Vec<&[u8]> = data.as_bytes().chunks(4096).collect();
            for (i, chunk) in chunks.iter().enumerate() {
                let more = u8::from(i + 1 < chunks.len());
                if i == 0 {
                    write!(out, "\x1b_Gf=100,a=T,q=2,c={cells},m={more};").map_err(io)?;
                } else {
                    write!(out, "\x1b_Gm={more};").map_err(io)?;
                }
                out.write_all(chunk).map_err(io)?;
                out.write_all(b"\x1b\\").map_err(io)?;
            }
            writeln!(out).map_err(io)
        }
        Protocol::Iterm => {
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            writeln!(
                out,
                "\x1b]1337;File=inline=1;size={};width={cells};preserveAspectRatio=1:{data}\x07",
                png.len()
            )
            .map_err(io)
        }
        Protocol::Sixel => {
            // Sixel is in pixels: the picture at `cells` columns of 9 pixels at most.
            let img = if img.width() > cells * 9 {
                img.resize(cells * 9, u32::MAX, image::imageops::FilterType::Triangle)
            } else {
                img
            };
            let rgba = img.to_rgba8();
            let sixel = icy_sixel::sixel_string(
                rgba.as_raw(),
                i32::try_from(rgba.width()).map_err(|e| e.to_string())?,
                i32::try_from(rgba.height()).map_err(|e| e.to_string())?,
                icy_sixel::PixelFormat::RGBA8888,
                icy_sixel::DiffusionMethod::Auto,
                icy_sixel::MethodForLargest::Auto,
                icy_sixel::MethodForRep::Auto,
                icy_sixel::Quality::AUTO,
            )
            .map_err(|e| e.to_string())?;
            out.write_all(sixel.as_bytes()).map_err(io)?;
            writeln!(out).map_err(io)
        }
        Protocol::Blocks => {
            // Two pixel rows per line: the upper one the foreground of `▀`, the lower
            // one its background, in 24-bit colour on white (for transparency).
            let img = img
                .resize(cells, u32::MAX, image::imageops::FilterType::Triangle)
                .to_rgba8();
            let over_white = |p: &image::Rgba<u8>| {
                let [r, g, b, a] = p.0;
                let mix = |c: u8| {
                    let (c, a) = (u32::from(c), u32::from(a));
                    ((c * a + 255 * (255 - a)) / 255) as u8
                };
                (mix(r), mix(g), mix(b))
            };
            for y in (0..img.height()).step_by(2) {
                for x in 0..img.width() {
                    let (r, g, b) = over_white(img.get_pixel(x, y));
                    let (r2, g2, b2) = if y + 1 < img.height() {
                        over_white(img.get_pixel(x, y + 1))
                    } else {
                        (255, 255, 255)
                    };
                    write!(
                        out,
                        "\x1b[38;2;{r};{g};{b}m\x1b[48;2;{r2};{g2};{b2}m\u{2580}"
                    )
                    .map_err(io)?;
                }
                writeln!(out, "\x1b[0m").map_err(io)?;
            }
            Ok(())
        }
    }
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

    fn env(vars: &[(&str, &str)]) -> Option<Protocol> {
        detect(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    /// The environment names the protocol: kitty's, iTerm2's, sixel, or none; inside
    /// tmux or screen none, whatever the outer terminal's variables say.
    #[test]
    fn the_protocol_is_read_from_the_environment() {
        let kitty = Some(Protocol::Kitty);
        let iterm = Some(Protocol::Iterm);
        let sixel = Some(Protocol::Sixel);
        assert_eq!(env(&[("KITTY_WINDOW_ID", "1"), ("TERM", "xterm")]), kitty);
        assert_eq!(env(&[("TERM", "xterm-kitty")]), kitty);
        assert_eq!(env(&[("TERM", "xterm-ghostty")]), kitty);
        assert_eq!(env(&[("TERM_PROGRAM", "iTerm.app")]), iterm);
        assert_eq!(env(&[("TERM_PROGRAM", "WezTerm")]), iterm);
        assert_eq!(env(&[("LC_TERMINAL", "iTerm2")]), iterm);
        assert_eq!(env(&[("TERM", "foot-extra")]), sixel);
        assert_eq!(env(&[("TERM", "mlterm")]), sixel);
        assert_eq!(env(&[("KONSOLE_VERSION", "230800")]), sixel);
        assert_eq!(env(&[("TERM", "xterm-256color")]), None);
        assert_eq!(env(&[]), None);
        assert_eq!(env(&[("KITTY_WINDOW_ID", "1"), ("TMUX", "/tmp/x")]), None);
        assert_eq!(
            env(&[("TERM", "screen-256color"), ("TERM_PROGRAM", "iTerm.app")]),
            None
        );
    }

    /// `auto` shows pictures only at a terminal, without `--json` or `MONDO_NO_IMAGES`,
    /// in the protocol the environment names; a protocol named with `--pictures` is
    /// used as asked, except into `--json`; `off` is text.
    #[test]
    fn pictures_are_inline_as_chosen_or_where_the_terminal_shows_them() {
        let terminal = TerminalFacts {
            stdout_terminal: true,
            json: false,
            no_images: false,
            detected: Some(Protocol::Sixel),
        };
        assert_eq!(
            inline_protocol(terminal, Choice::Auto),
            Some(Protocol::Sixel)
        );
        let plain = TerminalFacts {
            detected: None,
            ..terminal
        };
        assert_eq!(inline_protocol(plain, Choice::Auto), None);
        for facts in [
            TerminalFacts {
                stdout_terminal: false,
                ..terminal
            },
            TerminalFacts {
                no_images: true,
                ..terminal
            },
            TerminalFacts {
                json: true,
                ..terminal
            },
        ] {
            assert_eq!(inline_protocol(facts, Choice::Auto), None, "{facts:?}");
        }
        let piped = TerminalFacts {
            stdout_terminal: false,
            no_images: true,
            ..plain
        };
        for (choice, protocol) in [
            (Choice::Kitty, Protocol::Kitty),
            (Choice::Iterm, Protocol::Iterm),
            (Choice::Sixel, Protocol::Sixel),
            (Choice::Blocks, Protocol::Blocks),
        ] {
            assert_eq!(inline_protocol(piped, choice), Some(protocol));
            let json = TerminalFacts {
                json: true,
                ..piped
            };
            assert_eq!(
                inline_protocol(json, choice),
                None,
                "{choice:?} into --json"
            );
        }
        assert_eq!(inline_protocol(terminal, Choice::Off), None);
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 10, 10, 255]));
        let mut out = Vec::new();
        image::DynamicImage::ImageRgba8(img)
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    /// Each writer's bytes are its protocol's picture, sized to the terminal, and none
    /// is a query: kitty's carries `q=2` (answer nothing), no device-attributes or
    /// cursor query (`ESC [ c`, `ESC [ 6n`) is ever written.
    #[test]
    fn every_writer_writes_its_protocol_and_asks_nothing() {
        let picture = png(900, 40);
        let written = |protocol| {
            let mut out = Vec::new();
            write_picture(&mut out, &picture, protocol, 40).unwrap();
            String::from_utf8(out).unwrap()
        };
        let kitty = written(Protocol::Kitty);
        assert!(
            kitty.starts_with("\x1b_Gf=100,a=T,q=2,c=39,m="),
            "{kitty:.60}"
        );
        let b64 = base64::engine::general_purpose::STANDARD;
        let payload: String = kitty
            .split("\x1b\\")
            .filter_map(|chunk| chunk.split_once(';').map(|(_, data)| data))
            .collect();
        assert_eq!(
            b64.decode(payload).unwrap(),
            picture,
            "kitty's chunks are the PNG"
        );
        let iterm = written(Protocol::Iterm);
        assert!(
            iterm.starts_with(&format!(
                "\x1b]1337;File=inline=1;size={};width=39;",
                picture.len()
            )),
            "{iterm:.60}"
        );
        let sixel = written(Protocol::Sixel);
        assert!(sixel.starts_with("\x1bP"), "{sixel:.20}");
        assert!(
            sixel.contains("\"1;1;351;"),
            "sixel at 39 columns of 9 pixels: {sixel:.80}"
        );
        let blocks = written(Protocol::Blocks);
        assert_eq!(
            blocks.lines().count(),
            1,
            "40x900 at 39 columns is 2 pixel rows"
        );
        assert_eq!(blocks.matches('\u{2580}').count(), 39);
        assert!(blocks.contains("\x1b[38;2;"), "{blocks:.40}");
        for out in [kitty, iterm, sixel, blocks] {
            assert!(
                !out.contains("\x1b[c") && !out.contains("\x1b[6n"),
                "a query: {out:.80}"
            );
            assert!(out.ends_with('\n'));
        }
    }

    #[test]
    fn a_picture_that_is_not_a_png_is_said() {
        let mut out = Vec::new();
        let e = write_picture(&mut out, b"not a png", Protocol::Kitty, 80).unwrap_err();
        assert!(e.contains("cannot read the picture"), "{e}");
        assert!(out.is_empty());
    }
}
