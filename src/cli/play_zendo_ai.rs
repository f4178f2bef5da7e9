//! `mondo play duel --players me,ai`, `mondo play triple --players me,ai`, `mondo play
//! classic --players me,ai,ai2` (and `--ai NAME` for any name): the AI students' seats
//! at the terminal. Each types its commands into the session as a player would, after
//! each line, seeing only its own player's view.

use mondo::play::games::GameArgs;
use mondo::play::games::zendo::ai_seat::{AiSeat, DEFAULT_NAME};
use mondo::play::pictures::Protocol;
use mondo::play::{Cast, Flow, Session};
use mondo::rules::{Actor, Viewer};
use mondo::runtime::AnySetup;
use std::io::Write;

/// Whether a player's name seats the AI by default: `ai`, `ai2`, `ai3`...
fn default_ai(name: &str) -> bool {
    name.strip_prefix(DEFAULT_NAME)
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

/// The AI seats among the players (`--ai NAME` for each, or the players named `ai`,
/// `ai2`...), for the games the AI student plays (the Duel, the Triple, Classic).
pub fn seats(games: &GameArgs, setup: &AnySetup, cast: &Cast) -> Result<Vec<AiSeat>, String> {
    let args = &games.ZendoDuel;
    let (set, seed) = match setup {
        AnySetup::ZendoDuel(s) => (s.settings.set, s.seed),
        AnySetup::ZendoTriple(s) => (s.settings.set, s.seed),
        AnySetup::ZendoClassic(s) => (s.settings.set, s.seed),
        _ if !args.ai.is_empty() => {
            return Err(
                "--ai seats the AI student in a Zendo Duel, Triple or Classic game: \
                        `mondo play duel --players me,ai`"
                    .into(),
            );
        }
        _ => return Ok(Vec::new()),
    };
    let names: Vec<String> = if args.ai.is_empty() {
        cast.players()
            .iter()
            .map(|(_, name)| name.clone())
            .filter(|n| default_ai(n))
            .collect()
    } else {
        args.ai.clone()
    };
    let mut out: Vec<AiSeat> = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let Some(Actor::Player(player)) = cast.actor(name) else {
            return Err(format!(
                "--ai {name}: not one of the players ({}); e.g. --players me,{name}",
                cast.names_list()
            ));
        };
        if out.iter().any(|s| s.player == player) {
            continue;
        }
        eprintln!(
            "{name} (the AI student, {}) is getting ready...",
            args.ai_level
        );
        let _ = std::io::stderr().flush();
        // Each seat its own draws: two AI students do not play alike.
        let seed = seed.wrapping_add((k as u64).wrapping_mul(0x9E37_79B9));
        out.push(AiSeat::new(name, player, set, args.ai_level, seed));
    }
    Ok(out)
}

/// The AI seats' moves until none has one: each typed as a line, its output printed.
pub async fn moves(
    session: &mut Session,
    seats: &mut [AiSeat],
    json: bool,
    inline: Option<Protocol>,
) -> Flow {
    // A bound on lines in a row without a person's (a game of AI seats only ends by
    // itself: its clocks and guesses; the bound only keeps the terminal responsive).
    for _ in 0..256 {
        let mut moved = false;
        for seat in seats.iter_mut() {
            let view = match session
                .runtime()
                .view(session.id(), &Viewer::Player(seat.player))
                .await
            {
                Ok(v) => v,
                Err(_) => return Flow::Continue,
            };
            let Some(line) = seat.line(&view) else {
                continue;
            };
            moved = true;
            // What it typed, as a person at the table would see it typed; an answer to a
            // challenge stays private (the session says only that it is in).
            if !json && !line.contains(": answer ") {
                super::kit::print_lines(&[format!("> {line}")], Vec::new(), None);
            }
            let (lines, flow) = session.line(&line).await;
            super::kit::print_lines(&lines, session.take_inline(), inline);
            if flow != Flow::Continue {
                return flow;
            }
        }
        if !moved {
            break;
        }
    }
    Flow::Continue
}
