//! `mondo play duel --players me,ai`, `mondo play triple --players me,ai`, `mondo play
//! classic --players me,ai,ai-expert`: the AI students' seats at the terminal, each
//! under its level's reserved name (`ai-player`, `ai-expert`, `ai-player-2`). Each types its commands into the session as a player would, after
//! each line, seeing only its own player's view.

use mondo_play::games::GameArgs;
use mondo_play::games::zendo::ai_seat::{AiSeat, DEFAULT_NAME, set_of};
use mondo_play::pictures::Protocol;
use mondo_play::{Cast, Flow, Session};
use mondo_rules::rules::fair::{AI_LEVELS, ai_name, reserved_ai_name, reserved_list};
use mondo_rules::rules::{GameKind, Viewer};
use mondo_rules::student::zendo::Level;
use mondo_runtime::AnySetup;
use std::io::Write;

/// Whether a player's name seats the AI by default: `ai`, `ai2`, `ai3`...
fn default_ai(name: &str) -> bool {
    name.to_ascii_lowercase()
        .strip_prefix(DEFAULT_NAME)
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

/// The games the AI plays: the Zendo student's, and those with an AI of their own
/// (`mondo_play::ai`).
fn plays(game: GameKind) -> bool {
    matches!(
        game,
        GameKind::ZendoDuel | GameKind::ZendoTriple | GameKind::ZendoClassic
    ) || mondo_play::ai::plays(game)
}

/// The games the AI plays, for a player to read.
const AI_GAMES: &str = "a Zendo Duel, Triple or Classic game, or Pattern Assembly";

/// The AI's seats among `players`, each under its reserved name (docs/ratings.md,
/// "Fair play": seats are identities): a player named `ai`, `ai2`... (or each `--ai
/// NAME`) becomes the AI seat of `--ai-level` (`ai-player`, then `ai-player-2`), and a
/// reserved name given as it is (`ai-expert`) seats the AI at its own level. The
/// players are renamed in place; the seats are returned with their levels. `--ai` for
/// a person's name, or a reserved name in a game the AI does not play, is refused.
pub fn name_seats(
    game: GameKind,
    players: &mut [String],
    games: &GameArgs,
) -> Result<Vec<(String, Level)>, String> {
    let args = &games.ZendoDuel;
    let allowed = || {
        format!(
            "an AI seat is named `{DEFAULT_NAME}` (`{DEFAULT_NAME}2`, `{DEFAULT_NAME}3`... for \
             more), at the level --ai-level gives, or by its own name: {}",
            reserved_list()
        )
    };
    for name in &args.ai {
        if !players.iter().any(|p| p.eq_ignore_ascii_case(name)) {
            return Err(format!(
                "--ai {name}: not one of the players ({}); e.g. --players me,{DEFAULT_NAME}",
                players.join(", ")
            ));
        }
        if !default_ai(name) && reserved_ai_name(name).is_none() {
            return Err(format!(
                "--ai {name}: `{name}` is a person's name, and the AI plays only under its \
                 own: {}",
                allowed()
            ));
        }
    }
    if !plays(game) {
        if !args.ai.is_empty() {
            return Err(format!(
                "--ai seats the AI in {AI_GAMES}: `mondo play duel --players me,ai`"
            ));
        }
        if let Some(name) = players.iter().find(|p| reserved_ai_name(p).is_some()) {
            return Err(format!(
                "`{name}` is the AI student's own name, and the AI plays only {AI_GAMES}: \
                 choose another name"
            ));
        }
        return Ok(Vec::new());
    }
    let level = Level::ALL
        .iter()
        .position(|l| *l == args.ai_level)
        .unwrap_or(1);
    let is_ai = |name: &str| {
        reserved_ai_name(name).is_some()
            || if args.ai.is_empty() {
                default_ai(name)
            } else {
                args.ai.iter().any(|a| a.eq_ignore_ascii_case(name))
            }
    };
    // The reserved names given as they are keep their numbers; the others take the
    // next free one of their level.
    let mut taken: Vec<(usize, usize)> =
        players.iter().filter_map(|p| reserved_ai_name(p)).collect();
    let mut out = Vec::new();
    for name in players.iter_mut() {
        if !is_ai(name) {
            continue;
        }
        let (level, _) = match reserved_ai_name(name) {
            Some((level, nth)) => {
                // Spelled as the AI's own: `AI-Expert` is `ai-expert`.
                *name = ai_name(level, nth);
                (level, nth)
            }
            None => {
                let nth = (1..).find(|n| !taken.contains(&(level, *n))).unwrap_or(1);
                taken.push((level, nth));
                *name = ai_name(level, nth);
                (level, nth)
            }
        };
        out.push((name.clone(), Level::ALL[level.min(AI_LEVELS.len() - 1)]));
    }
    Ok(out)
}

/// The AI seats of a new match: each named seat of `cast` (from [`name_seats`]), with
/// its level.
pub fn seats(
    named: &[(String, Level)],
    setup: &AnySetup,
    cast: &Cast,
) -> Result<Vec<AiSeat>, String> {
    let (set, seed) = match setup {
        AnySetup::ZendoDuel(s) => (s.settings.set, s.seed),
        AnySetup::ZendoTriple(s) => (s.settings.set, s.seed),
        AnySetup::ZendoClassic(s) => (s.settings.set, s.seed),
        _ => return Ok(Vec::new()),
    };
    let mut out: Vec<AiSeat> = Vec::new();
    for (k, (name, level)) in named.iter().enumerate() {
        let Some((player, _)) = cast.players().iter().find(|(_, n)| n == name) else {
            return Err(format!("{name} is not at the table"));
        };
        eprintln!("{name} (the AI student, {level}) is getting ready...");
        let _ = std::io::stderr().flush();
        // Each seat its own draws: two AI students do not play alike.
        let seed = seed.wrapping_add((k as u64).wrapping_mul(0x9E37_79B9));
        out.push(AiSeat::new(name, *player, set, *level, seed));
    }
    Ok(out)
}

/// The AI seats of a resumed match: its players with reserved names, each at the
/// level its name says, so the AI goes on playing them and no typed line does.
pub async fn seats_again(session: &Session) -> Vec<AiSeat> {
    let Ok(view) = session
        .runtime()
        .view(session.id(), &Viewer::Spectator)
        .await
    else {
        return Vec::new();
    };
    let Some(set) = set_of(&view) else {
        return Vec::new();
    };
    let cast = session.cast();
    cast.players()
        .iter()
        .filter_map(|(player, name)| {
            let (level, _) = reserved_ai_name(name)?;
            let level = Level::ALL[level.min(AI_LEVELS.len() - 1)];
            Some(AiSeat::new(
                name,
                *player,
                set,
                level,
                session.id().0 as u64 ^ player.0,
            ))
        })
        .collect()
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
