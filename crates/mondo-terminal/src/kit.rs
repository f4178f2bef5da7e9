//! What every subcommand writes with: lines made printable, a session's output
//! (pictures inline where the terminal shows them), and the tokio runtime an async
//! command runs on. A leaf: it imports no other subcommand.

use mondo_play::pictures::Protocol;
use mondo_play::{CLEAR_SCREEN, INLINE_PICTURE};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// A line as it may be written to a terminal: control characters (other than tab)
/// that a player typed and Mondo repeats, such as ESC starting a terminal's own
/// command, are shown as `\u001b` instead of being obeyed by the terminal; so are the
/// bidirectional controls (U+202A-U+202E, U+2066-U+2069, and the marks U+200E, U+200F,
/// U+061C), which would reorder what the terminal shows (a line that reads as another).
/// In a JSON line that is the same character, escaped (serde_json leaves DEL and C1
/// raw).
pub fn printable(line: &str) -> std::borrow::Cow<'_, str> {
    let bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}');
    let hidden = |c: char| (c.is_control() && c != '\t' && c != '\n') || bidi(c);
    if !line.contains(hidden) {
        return line.into();
    }
    line.chars()
        .map(|c| {
            if hidden(c) {
                format!("\\u{:04x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// Runs a command's async body on a tokio runtime; its error is printed with exit
/// status 2 (what the player asked for cannot be done as asked).
pub fn block_on(body: impl Future<Output = Result<ExitCode, String>>) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(body) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {}", printable(&message));
            ExitCode::from(2)
        }
    }
}

/// Prints a session's output, each [`INLINE_PICTURE`] item as the next of `pictures`
/// shown with `protocol` (a picture that cannot be shown is said in a line instead).
pub fn print_lines(lines: &[String], pictures: Vec<Vec<u8>>, protocol: Option<Protocol>) {
    let stdout = std::io::stdout();
    let terminal = stdout.is_terminal();
    let mut pictures = pictures.into_iter();
    for part in lines.split_inclusive(|l| l == INLINE_PICTURE) {
        let mut out = stdout.lock();
        let _ = write_lines(&mut out, part, terminal);
        let _ = out.flush();
        drop(out);
        if part.last().is_some_and(|l| l == INLINE_PICTURE) {
            if let (Some(png), Some(protocol)) = (pictures.next(), protocol) {
                if let Err(e) = mondo_play::pictures::show(&png, protocol) {
                    println!("{}", printable(&format!("error: {e}")));
                }
            }
        }
    }
}

/// Writes a session's output: each line made printable (a control character a player
/// typed is shown, not obeyed), except Mondo's own [`CLEAR_SCREEN`], which a terminal
/// obeys (the screen and its scrollback are cleared) and anything else never sees, and
/// [`INLINE_PICTURE`], which [`print_lines`] shows.
fn write_lines(out: &mut impl Write, lines: &[String], terminal: bool) -> std::io::Result<()> {
    for l in lines {
        if l == CLEAR_SCREEN {
            if terminal {
                out.write_all(CLEAR_SCREEN.as_bytes())?;
            }
        } else if l != INLINE_PICTURE {
            writeln!(out, "{}", printable(l))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal gets the real clear (display, scrollback, cursor home) before the
    /// line after it; a pipe gets neither the clear nor any escape as text; a player's
    /// own escape is shown, never obeyed, either way.
    #[test]
    fn a_terminal_is_cleared_and_a_pipe_is_not() {
        let lines = [
            "  A O X + + X O".to_string(),
            CLEAR_SCREEN.to_string(),
            "The grid is hidden.".to_string(),
            "error: `\x1b[2J` is not a command".to_string(),
        ];
        let mut tty = Vec::new();
        write_lines(&mut tty, &lines, true).unwrap();
        let tty = String::from_utf8(tty).unwrap();
        assert_eq!(
            tty,
            "  A O X + + X O\n\x1b[2J\x1b[3J\x1b[HThe grid is hidden.\n\
             error: `\\u001b[2J` is not a command\n"
        );
        let mut pipe = Vec::new();
        write_lines(&mut pipe, &lines, false).unwrap();
        let pipe = String::from_utf8(pipe).unwrap();
        assert_eq!(
            pipe,
            "  A O X + + X O\nThe grid is hidden.\nerror: `\\u001b[2J` is not a command\n"
        );
    }
}
