//! `mondo play duel --players me,ai [--ai NAME]`: the AI student's seat at the
//! terminal. It types its commands into the session as a player would, after each
//! line, seeing only its own player's view.

use mondo::play::games::GameArgs;
use mondo::play::games::zendo::ai_seat::{AiSeat, DEFAULT_NAME};
use mondo::play::pictures::Protocol;
use mondo::play::{Cast, Flow, Session};
use mondo::rules::{Actor, Viewer};
use mondo::runtime::AnySetup;
use std::io::Write;

/// The AI's seat, if one of the duel's players is the AI (`--ai NAME`, or a player
/// named `ai`).
pub fn seat(games: &GameArgs, setup: &AnySetup, cast: &Cast) -> Result<Option<AiSeat>, String> {
    let args = &games.ZendoDuel;
    let name = args.ai.as_deref().unwrap_or(DEFAULT_NAME);
    let AnySetup::ZendoDuel(duel) = setup else {
        return match &args.ai {
            Some(_) => Err(
                "--ai seats the AI student in a Zendo Duel: `mondo play duel \
                            --players me,ai`"
                    .into(),
            ),
            None => Ok(None),
        };
    };
    let player = match cast.actor(name) {
        Some(Actor::Player(id)) => id,
        _ if args.ai.is_some() => {
            return Err(format!(
                "--ai {name}: not one of the players ({}); e.g. --players me,{name}",
                cast.names_list()
            ));
        }
        _ => return Ok(None),
    };
    eprintln!(
        "{name} (the AI student, {}) is getting ready...",
        args.ai_level
    );
    let _ = std::io::stderr().flush();
    Ok(Some(AiSeat::new(
        name,
        player,
        duel.settings.set,
        args.ai_level,
        duel.seed,
    )))
}

/// The AI's moves until it has none: each typed as a line, its output printed.
pub async fn moves(
    session: &mut Session,
    seat: &mut AiSeat,
    json: bool,
    inline: Option<Protocol>,
) -> Flow {
    for _ in 0..64 {
        let view = match session
            .runtime()
            .view(session.id(), &Viewer::Player(seat.player))
            .await
        {
            Ok(v) => v,
            Err(_) => return Flow::Continue,
        };
        let Some(line) = seat.line(&view) else {
            return Flow::Continue;
        };
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
    Flow::Continue
}
