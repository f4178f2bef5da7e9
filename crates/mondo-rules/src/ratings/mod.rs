//! Ratings: how a finished match moves its players' ratings, and who a leaderboard
//! lists. Pure: the store calls [`rate`] inside the transaction that records a
//! match's last event, and `mondo ratings rebuild` calls it again over the logs.
//!
//! - The two-player games (Zendo Duel and Triple, Pattern Assembly, Logical Bluffs):
//!   Glicko-2 in its default configuration (1500, deviation 350, volatility 0.06,
//!   tau 0.5), each finished match its own rating period, as Lichess rates; a draw
//!   is a draw.
//! - Zendo Classic (2-8 students): Weng-Lin (OpenSkill), each student a team of one,
//!   ranked by outcome: the winner first, every other student tied behind. Its
//!   mu/sigma (25, 25/3) is shown on the Glicko scale, `1500 + 42 (mu - 25)` and
//!   `42 sigma`, so a new Classic player reads 1500 with deviation 350 like everyone
//!   else, and "provisional" means the same in every game.
//! - Practice counts for nothing here: it only feeds a solo record.
//!
//! A rating is provisional (shown with a `?`) while its deviation is above
//! [`PROVISIONAL_DEVIATION`]. The docs say it for players in docs/ratings.md.

use crate::rules::{Finish, PlayerId};
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::ops::RangeInclusive;

/// Above this deviation a rating is provisional (Lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Weng-Lin's mu and sigma shown on the Glicko scale: 350 / (25 / 3).
const WENG_LIN_SCALE: f64 = 42.0;

pub use crate::rules::finish::Method;

/// A player's rating in one game (on the Glicko scale whatever the method).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    /// Glicko-2's volatility (Weng-Lin has none: 0).
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts.
    pub fn new(method: Method) -> Rating {
        match method {
            Method::Glicko2 => {
                let g = Glicko2Rating::new();
                Rating {
                    rating: g.rating,
                    deviation: g.deviation,
                    volatility: g.volatility,
                }
            }
            Method::WengLin => from_weng_lin(WengLinRating::new()),
        }
    }

    /// While the deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        is_provisional(self.deviation)
    }

    /// As players read it: the rounded rating, with `?` while provisional.
    pub fn shown(&self) -> String {
        shown(self.rating, self.deviation)
    }
}

pub fn is_provisional(deviation: f64) -> bool {
    deviation > PROVISIONAL_DEVIATION
}

/// `1634`, or `1634?` while provisional.
pub fn shown(rating: f64, deviation: f64) -> String {
    let mark = if is_provisional(deviation) { "?" } else { "" };
    format!("{}{mark}", rating.round() as i64)
}

/// Glicko-2's own scale: a rating's deviation over this is phi (Glickman, "Example of
/// the Glicko-2 system", step 2).
const GLICKO2_SCALE: f64 = 173.7178;

/// A rating period, in days, by default (the setting `[ratings] period_days`)...
pub const PERIOD_DAYS: u32 = 7;
/// ...and what it may be.
pub const PERIOD_DAYS_RANGE: RangeInclusive<u64> = 1..=365;

/// One day in milliseconds.
pub const DAY_MS: u64 = 86_400_000;

/// `days` if a rating period may be that long; else what was wrong and what is allowed.
pub fn check_period_days(days: u64) -> std::result::Result<u32, String> {
    if PERIOD_DAYS_RANGE.contains(&days) {
        return Ok(days as u32);
    }
    Err(format!(
        "`period_days` cannot be {days}: allowed {} to {} days",
        PERIOD_DAYS_RANGE.start(),
        PERIOD_DAYS_RANGE.end()
    ))
}

/// Weng-Lin's tau, the uncertainty a rating gains each period without a game
/// (OpenSkill's default, 25/300), on the Glicko scale: 3.5.
const WENG_LIN_TAU: f64 = WENG_LIN_SCALE * 25.0 / 300.0;

/// A rating as it stands `idle_ms` after its player's last rated game, with rating
/// periods of `period_ms`. Glicko-2's deviation grows by its volatility for each period
/// without a game (Glickman's step 6 for a player who did not compete, phi' =
/// sqrt(phi^2 + sigma^2), in the Glicko-2 scale). Weng-Lin (Classic, no volatility)
/// grows the same way by its tau, as OpenSkill adds it before a game: sigma' =
/// sqrt(sigma^2 + tau^2) per period, tau = 25/300 (3.5 on the Glicko scale). Periods
/// are counted in whole days as fractions of a period (so a rating reads the same all
/// day long, and a rebuild gives the same numbers), never past where every player
/// starts (350; a rating already past it stays where it is). The rating itself does
/// not move. Pure: the caller says how long it has been.
pub fn idle(rating: Rating, idle_ms: u64, period_ms: u64) -> Rating {
    let days = idle_ms / DAY_MS;
    if period_ms == 0 || days == 0 {
        return rating;
    }
    let periods = (days * DAY_MS) as f64 / period_ms as f64;
    let (start, grown) = if rating.volatility > 0.0 {
        let phi = rating.deviation / GLICKO2_SCALE;
        let grown = (phi * phi + periods * rating.volatility * rating.volatility).sqrt();
        (
            Rating::new(Method::Glicko2).deviation,
            grown * GLICKO2_SCALE,
        )
    } else {
        let sigma = rating.deviation;
        let grown = (sigma * sigma + periods * WENG_LIN_TAU * WENG_LIN_TAU).sqrt();
        (Rating::new(Method::WengLin).deviation, grown)
    };
    Rating {
        deviation: grown.min(start.max(rating.deviation)),
        ..rating
    }
}

/// Milliseconds since 1970 of a stored wall time (`2026-12-06T21:04:11.512Z`, as the
/// store writes them); `None` for anything else.
pub fn wall_ms(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<u64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, min, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let ms = match text.get(19..)?.trim_end_matches('Z') {
        "" => 0,
        f => {
            let digits = f.strip_prefix('.')?;
            let padded = format!("{digits:0<3}");
            padded.get(..3)?.parse::<u64>().ok()?
        }
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || h > 23 || min > 59 || sec > 60 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm), from 1970-01-01.
    let (y, m) = (y as i64 - i64::from(m <= 2), m as i64);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + (h * 3600 + min * 60 + sec) as i64;
    u64::try_from(secs).ok().map(|s| s * 1000 + ms)
}

/// A wall time as the store writes it (`2026-12-06T21:04:11.512Z`), from milliseconds
/// since 1970: the inverse of [`wall_ms`].
pub fn wall_text(ms: u64) -> String {
    let (days, rest) = ((ms / DAY_MS) as i64, ms % DAY_MS);
    // The civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let (h, min) = (rest / 3_600_000, rest / 60_000 % 60);
    let (sec, milli) = (rest / 1000 % 60, rest % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{sec:02}.{milli:03}Z")
}

/// What a rated match did to a rating, as players read it wherever a result is told:
/// `1500 -> 1662? (+162)` (the `?` while the rating after is provisional). The change
/// is that of the rounded numbers shown, so the line adds up.
pub fn change(before: f64, after: f64, deviation_after: f64) -> String {
    let (from, to) = (before.round() as i64, after.round() as i64);
    format!(
        "{from} -> {} ({:+})",
        shown(after, deviation_after),
        to - from
    )
}

/// A player's rated results as players read them: `3 rated games: 2 wins, 1 loss,
/// 0 draws` (at the terminal and on Discord alike).
pub fn results(games: u32, wins: u32, losses: u32, draws: u32) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}: {}, {}, {}",
        plural(games, "rated game", "rated games"),
        plural(wins, "win", "wins"),
        plural(losses, "loss", "losses"),
        plural(draws, "draw", "draws"),
    )
}

fn to_glicko(r: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn from_glicko(g: Glicko2Rating) -> Rating {
    Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

fn to_weng_lin(r: &Rating) -> WengLinRating {
    WengLinRating {
        rating: 25.0 + (r.rating - 1500.0) / WENG_LIN_SCALE,
        uncertainty: r.deviation / WENG_LIN_SCALE,
    }
}

fn from_weng_lin(w: WengLinRating) -> Rating {
    Rating {
        rating: 1500.0 + (w.rating - 25.0) * WENG_LIN_SCALE,
        deviation: w.uncertainty * WENG_LIN_SCALE,
        volatility: 0.0,
    }
}

/// A rated player's result in one match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Result {
    Win,
    Loss,
    Draw,
}

impl Result {
    pub fn as_str(self) -> &'static str {
        match self {
            Result::Win => "win",
            Result::Loss => "loss",
            Result::Draw => "draw",
        }
    }

    /// The stored word back (anything else is `None`).
    pub fn parse(word: &str) -> Option<Result> {
        [Result::Win, Result::Loss, Result::Draw]
            .into_iter()
            .find(|r| r.as_str() == word)
    }
}

/// What a player at `place` made of a match where the places were `places`: first
/// with someone behind is a win, behind someone is a loss, all level is a draw.
pub fn result_of(place: u32, places: &[u32]) -> Result {
    let best = places.iter().copied().min().unwrap_or(place);
    if place > best {
        Result::Loss
    } else if places.iter().any(|p| *p > place) {
        Result::Win
    } else {
        Result::Draw
    }
}

/// Why a finish cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    #[error("Glicko-2 rates a match between two players, not {players}")]
    NotTwo { players: usize },
    #[error("Weng-Lin needs two or more players to rate a match, not {players}")]
    TooFew { players: usize },
    #[error("player {0} appears twice in one result")]
    Twice(u64),
}

/// One player's part in a rated match: who, their place (0 first), their rating
/// before.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub player: PlayerId,
    pub place: u32,
    pub before: Rating,
}

/// The ratings after one match rated by `method`, in the order of `entries`. Each
/// match is its own rating period.
pub fn rate(method: Method, entries: &[Entry]) -> std::result::Result<Vec<Rating>, RateError> {
    for (i, e) in entries.iter().enumerate() {
        if entries[..i].iter().any(|o| o.player == e.player) {
            return Err(RateError::Twice(e.player.0));
        }
    }
    match method {
        Method::Glicko2 => {
            let [one, two] = entries else {
                return Err(RateError::NotTwo {
                    players: entries.len(),
                });
            };
            let outcome = match one.place.cmp(&two.place) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
            };
            let (a, b) = glicko2(
                &to_glicko(&one.before),
                &to_glicko(&two.before),
                &outcome,
                &Glicko2Config::new(),
            );
            Ok(vec![from_glicko(a), from_glicko(b)])
        }
        Method::WengLin => {
            if entries.len() < 2 {
                return Err(RateError::TooFew {
                    players: entries.len(),
                });
            }
            let teams: Vec<[WengLinRating; 1]> =
                entries.iter().map(|e| [to_weng_lin(&e.before)]).collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(entries)
                .map(|(t, e)| (&t[..], MultiTeamOutcome::new(e.place as usize + 1)))
                .collect();
            Ok(weng_lin_multi_team(&ranked, &WengLinConfig::new())
                .into_iter()
                .map(|team| {
                    team.first()
                        .copied()
                        .map_or(Rating::new(method), from_weng_lin)
                })
                .collect())
        }
    }
}

/// Whether a finish counts towards ratings at all: how, and with whom.
pub fn rated(finish: &Finish) -> Option<(Method, &[(PlayerId, u32)])> {
    match finish {
        Finish::Placed { method, places } => Some((*method, places)),
        Finish::Unrated(_) | Finish::Solo { .. } => None,
    }
}

/// Who a leaderboard lists (a server's settings may change them).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BoardSettings {
    /// Rated games in that game, at least.
    pub min_games: u32,
    /// One of them within this many days.
    pub recent_days: u32,
    /// A deviation under this.
    pub max_deviation: f64,
}

impl Default for BoardSettings {
    fn default() -> BoardSettings {
        BoardSettings {
            min_games: 5,
            recent_days: 30,
            max_deviation: PROVISIONAL_DEVIATION,
        }
    }
}

/// What a leaderboard's listing rules may be (the configuration, a server's
/// `/leaderboard-settings` and `mondo leaderboard`'s options alike): rated games
/// needed...
pub const BOARD_MIN_GAMES: RangeInclusive<u64> = 1..=1000;
/// ...days within which one of them was played...
pub const BOARD_RECENT_DAYS: RangeInclusive<u64> = 1..=3650;
/// ...and the deviation to be under (350 is where every player starts: a rule of 350
/// lists everyone with a rated game).
pub const BOARD_MAX_DEVIATION: RangeInclusive<u64> = 10..=350;

/// One listing rule, by the name the configuration and the commands give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardRule {
    MinGames,
    RecentDays,
    MaxDeviation,
}

impl BoardRule {
    pub const ALL: [BoardRule; 3] = [
        BoardRule::MinGames,
        BoardRule::RecentDays,
        BoardRule::MaxDeviation,
    ];

    /// `min_games`, `recent_days`, `max_deviation`.
    pub const fn key(self) -> &'static str {
        match self {
            BoardRule::MinGames => "min_games",
            BoardRule::RecentDays => "recent_days",
            BoardRule::MaxDeviation => "max_deviation",
        }
    }

    pub const fn range(self) -> RangeInclusive<u64> {
        match self {
            BoardRule::MinGames => BOARD_MIN_GAMES,
            BoardRule::RecentDays => BOARD_RECENT_DAYS,
            BoardRule::MaxDeviation => BOARD_MAX_DEVIATION,
        }
    }

    pub const fn unit(self) -> &'static str {
        match self {
            BoardRule::MinGames => "rated games",
            BoardRule::RecentDays => "days",
            BoardRule::MaxDeviation => "(a deviation)",
        }
    }

    /// `value` if it is allowed; else what was wrong and what is allowed.
    pub fn check(self, value: f64) -> std::result::Result<f64, String> {
        let range = self.range();
        if value.is_finite() && (*range.start() as f64..=*range.end() as f64).contains(&value) {
            return Ok(value);
        }
        Err(format!(
            "`{}` cannot be {value}: allowed {} to {} {}",
            self.key(),
            range.start(),
            range.end(),
            self.unit()
        ))
    }
}

impl BoardSettings {
    /// Each rule checked ([`BoardRule::check`]): the first one out of its range says so.
    pub fn check(&self) -> std::result::Result<(), String> {
        BoardRule::MinGames.check(f64::from(self.min_games))?;
        BoardRule::RecentDays.check(f64::from(self.recent_days))?;
        BoardRule::MaxDeviation.check(self.max_deviation)?;
        Ok(())
    }
}

/// The listing rules a server set for itself; `None` keeps the configured default
/// (so a later change of the configuration still reaches the rules it never set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoardOverrides {
    pub min_games: Option<u32>,
    pub recent_days: Option<u32>,
    pub max_deviation: Option<f64>,
}

impl BoardOverrides {
    /// The rules that apply: the server's own over `defaults`.
    pub fn over(&self, defaults: &BoardSettings) -> BoardSettings {
        BoardSettings {
            min_games: self.min_games.unwrap_or(defaults.min_games),
            recent_days: self.recent_days.unwrap_or(defaults.recent_days),
            max_deviation: self.max_deviation.unwrap_or(defaults.max_deviation),
        }
    }

    /// Whether the server set `rule` itself.
    pub fn sets(&self, rule: BoardRule) -> bool {
        match rule {
            BoardRule::MinGames => self.min_games.is_some(),
            BoardRule::RecentDays => self.recent_days.is_some(),
            BoardRule::MaxDeviation => self.max_deviation.is_some(),
        }
    }

    /// Each rule the server set, checked (values stored by hand, or by a Mondo that
    /// allowed more, are refused here rather than listing nobody).
    pub fn check(&self) -> std::result::Result<(), String> {
        self.over(&BoardSettings::default()).check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: PlayerId = PlayerId(1);
    const B: PlayerId = PlayerId(2);
    const C: PlayerId = PlayerId(3);

    fn glicko(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn entry(player: PlayerId, place: u32, before: Rating) -> Entry {
        Entry {
            player,
            place,
            before,
        }
    }

    #[test]
    fn new_ratings_are_the_defaults_the_games_promise() {
        assert_eq!(Rating::new(Method::Glicko2), glicko(1500.0, 350.0));
        let classic = Rating::new(Method::WengLin);
        assert!((classic.rating - 1500.0).abs() < 1e-9);
        assert!((classic.deviation - 350.0).abs() < 1e-9);
        assert!(classic.is_provisional());
        assert_eq!(classic.shown(), "1500?");
        assert_eq!(glicko(1634.4, 109.9).shown(), "1634");
        assert!(!glicko(1634.4, 110.0).is_provisional());
    }

    /// The crate's own reference results (its tests, from Glickman's paper's setting).
    #[test]
    fn glicko2_matches_the_crates_reference_values() {
        let after = rate(
            Method::Glicko2,
            &[
                entry(A, 0, glicko(1520.0, 350.0)),
                entry(B, 1, glicko(1420.0, 350.0)),
            ],
        )
        .unwrap();
        assert_eq!(after[0].rating.round(), 1653.0);
        assert_eq!(after[0].deviation.round(), 292.0);
        assert_eq!(after[1].rating.round(), 1287.0);
        assert_eq!(after[1].deviation.round(), 292.0);
        // A draw is a draw.
        let after = rate(
            Method::Glicko2,
            &[
                entry(A, 0, glicko(1600.0, 350.0)),
                entry(B, 0, glicko(1500.0, 50.0)),
            ],
        )
        .unwrap();
        assert_eq!(after[0].rating.round(), 1550.0);
        assert_eq!(after[0].deviation.round(), 253.0);
        assert_eq!(after[1].rating.round(), 1501.0);
        assert_eq!(after[1].deviation.round(), 51.0);
        // Glickman's example: 1500/200 beats 1400/30.
        let after = rate(
            Method::Glicko2,
            &[
                entry(A, 0, glicko(1500.0, 200.0)),
                entry(B, 1, glicko(1400.0, 30.0)),
            ],
        )
        .unwrap();
        assert_eq!(
            (after[0].rating.round(), after[0].deviation.round()),
            (1564.0, 175.0)
        );
        assert_eq!(
            (after[1].rating.round(), after[1].deviation.round()),
            (1398.0, 32.0)
        );
        // The loser listed first: the same numbers, each to its own player.
        let swapped = rate(
            Method::Glicko2,
            &[
                entry(B, 1, glicko(1400.0, 30.0)),
                entry(A, 0, glicko(1500.0, 200.0)),
            ],
        )
        .unwrap();
        assert_eq!(swapped, vec![after[1], after[0]]);
    }

    #[test]
    fn weng_lin_matches_the_crates_reference_values_on_the_glicko_scale() {
        // The crate's 1-v-1 reference: two new players, the first wins.
        let new = Rating::new(Method::WengLin);
        let after = rate(Method::WengLin, &[entry(A, 0, new), entry(B, 1, new)]).unwrap();
        let mu = |r: &Rating| to_weng_lin(r).rating;
        let sigma = |r: &Rating| to_weng_lin(r).uncertainty;
        assert!((mu(&after[0]) - 27.635_231_383_473_65).abs() < 1e-9);
        assert!((sigma(&after[0]) - 8.065_506_316_323_548).abs() < 1e-9);
        assert!((mu(&after[1]) - 22.364_768_616_526_35).abs() < 1e-9);
        assert!((sigma(&after[1]) - 8.065_506_316_323_548).abs() < 1e-9);
        // Three students, the winner first and the other two tied: the crate's
        // multi-team update with those ranks, each a team of one.
        let after = rate(
            Method::WengLin,
            &[entry(A, 1, new), entry(B, 0, new), entry(C, 1, new)],
        )
        .unwrap();
        let w = WengLinRating::new();
        let direct = weng_lin_multi_team(
            &[
                (&[w][..], MultiTeamOutcome::new(2)),
                (&[w][..], MultiTeamOutcome::new(1)),
                (&[w][..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        for (mine, theirs) in after.iter().zip(&direct) {
            assert!((mu(mine) - theirs[0].rating).abs() < 1e-9);
            assert!((sigma(mine) - theirs[0].uncertainty).abs() < 1e-9);
        }
        assert!(after[1].rating > 1500.0 && after[0].rating < 1500.0);
        assert_eq!(after[0], after[2], "the tied students move alike");
    }

    #[test]
    fn listing_rules_take_a_servers_own_over_the_defaults_and_refuse_what_is_not_allowed() {
        let defaults = BoardSettings {
            min_games: 7,
            recent_days: 14,
            max_deviation: 90.0,
        };
        assert_eq!(BoardOverrides::default().over(&defaults), defaults);
        let own = BoardOverrides {
            min_games: Some(2),
            max_deviation: Some(200.0),
            ..BoardOverrides::default()
        };
        assert_eq!(
            own.over(&defaults),
            BoardSettings {
                min_games: 2,
                recent_days: 14,
                max_deviation: 200.0
            }
        );
        assert!(own.sets(BoardRule::MinGames) && !own.sets(BoardRule::RecentDays));
        assert_eq!(BoardSettings::default().check(), Ok(()));
        assert_eq!(own.check(), Ok(()));
        let e = BoardRule::MinGames.check(0.0).unwrap_err();
        assert_eq!(e, "`min_games` cannot be 0: allowed 1 to 1000 rated games");
        let e = BoardRule::RecentDays.check(3651.0).unwrap_err();
        assert!(e.contains("allowed 1 to 3650 days"), "{e}");
        for bad in [9.0, 351.0, f64::NAN, f64::INFINITY] {
            let e = BoardRule::MaxDeviation.check(bad).unwrap_err();
            assert!(e.contains("allowed 10 to 350"), "{e}");
        }
        let stored = BoardOverrides {
            recent_days: Some(0),
            ..BoardOverrides::default()
        };
        assert!(stored.check().unwrap_err().contains("recent_days"));
    }

    /// Glickman's step 6 for a player who does not compete, period by period, by hand:
    /// phi' = sqrt(phi^2 + sigma^2) in the Glicko-2 scale (RD / 173.7178).
    fn by_hand(deviation: f64, volatility: f64, periods: u32) -> f64 {
        let mut phi = deviation / 173.7178;
        for _ in 0..periods {
            phi = (phi * phi + volatility * volatility).sqrt();
        }
        (phi * 173.7178).min(350.0)
    }

    #[test]
    fn an_idle_deviation_grows_as_the_glicko2_paper_says() {
        let week = 7 * DAY_MS;
        for (deviation, volatility, periods) in [
            (50.0, 0.06, 1),
            (50.0, 0.06, 10),
            (80.0, 0.059_99, 52),
            (200.0, 0.09, 3),
        ] {
            let r = Rating {
                rating: 1700.0,
                deviation,
                volatility,
            };
            let after = idle(r, u64::from(periods) * week, week);
            assert!(
                (after.deviation - by_hand(deviation, volatility, periods)).abs() < 1e-9,
                "{deviation} {volatility} {periods}: {after:?}"
            );
            assert_eq!(after.rating, 1700.0, "the rating itself stays");
            assert_eq!(after.volatility, volatility);
        }
        // One period from 50 at 0.06: sqrt(0.28782^2 + 0.06^2) * 173.7178 = 51.07.
        let r = Rating {
            rating: 1500.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        assert!((idle(r, week, week).deviation - 51.0749).abs() < 1e-3);
        // Three days of a week are 3/7 of the growth of the variance; a day not yet
        // over counts for nothing.
        let part = idle(r, 3 * DAY_MS + DAY_MS / 2, week).deviation / 173.7178;
        let phi = 50.0 / 173.7178;
        assert!((part * part - (phi * phi + 3.0 / 7.0 * 0.0036)).abs() < 1e-12);
        assert_eq!(idle(r, DAY_MS - 1, week), r);
        // A year away (52 weeks and a day): a player who had just settled (90) is
        // provisional again (117); a deeply settled one (60) reads 96 then, and is
        // provisional again after a year and a half (79 periods). Never past 350.
        let settled = Rating {
            rating: 1900.0,
            deviation: 90.0,
            volatility: 0.06,
        };
        let back = idle(settled, 365 * DAY_MS, week);
        assert!(back.is_provisional(), "{back:?}");
        assert_eq!(back.deviation.round(), 117.0);
        let deep = Rating {
            deviation: 60.0,
            ..settled
        };
        assert_eq!(idle(deep, 365 * DAY_MS, week).deviation.round(), 96.0);
        assert!(!idle(deep, 78 * week, week).is_provisional());
        assert!(idle(deep, 79 * week, week).is_provisional());
        assert_eq!(idle(settled, 100 * 365 * DAY_MS, week).deviation, 350.0);
        // No time: as it was.
        assert_eq!(idle(settled, 0, week), settled);
    }

    /// OpenSkill's sigma for a player who does not play, period by period, by hand:
    /// sigma' = sqrt(sigma^2 + tau^2), tau = 25/300, on Weng-Lin's own scale.
    fn weng_lin_by_hand(sigma: f64, periods: u32) -> f64 {
        let tau = 25.0 / 300.0;
        (0..periods).fold(sigma, |s, _| (s * s + tau * tau).sqrt())
    }

    #[test]
    fn an_idle_classic_uncertainty_grows_by_openskills_tau() {
        let week = 7 * DAY_MS;
        let classic = Rating::new(Method::WengLin);
        let at = |deviation: f64| Rating {
            rating: 1700.0,
            deviation,
            ..classic
        };
        // By hand: deviation 100 (sigma 100/42) after 4 periods is
        // sqrt(100^2 + 4 * 3.5^2) = sqrt(10049) = 100.2447 (tau 25/300 is 3.5 here).
        let four = idle(at(100.0), 4 * week, week);
        assert!((four.deviation - 10049f64.sqrt()).abs() < 1e-9, "{four:?}");
        assert!((four.deviation - 100.2447).abs() < 1e-4);
        assert_eq!(four.rating, 1700.0, "the rating itself does not move");
        for (deviation, periods) in [(100.0, 4), (40.0, 1), (60.0, 52), (200.0, 300)] {
            let sigma = to_weng_lin(&idle(at(deviation), u64::from(periods) * week, week));
            let by_hand = weng_lin_by_hand(deviation / WENG_LIN_SCALE, periods);
            assert!(
                (sigma.uncertainty - by_hand).abs() < 1e-9,
                "{deviation} {periods}: {} vs {by_hand}",
                sigma.uncertainty
            );
        }
        // Never past where every Classic player starts (25/3, 350 here); half a day
        // is no time.
        assert_eq!(
            idle(at(300.0), 10_000 * week, week).deviation,
            classic.deviation
        );
        assert_eq!(idle(at(100.0), DAY_MS - 1, week), at(100.0));
    }

    #[test]
    fn wall_times_read_as_the_store_writes_them() {
        assert_eq!(wall_ms("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(wall_ms("1970-01-02T00:00:01.5Z"), Some(DAY_MS + 1500));
        // 2026-12-06 is day 20,793 since 1970.
        assert_eq!(
            wall_ms("2026-12-06T21:04:11.512Z"),
            Some(20_793 * DAY_MS + (21 * 3600 + 4 * 60 + 11) * 1000 + 512)
        );
        assert_eq!(
            wall_ms("2024-03-01T00:00:00Z").map(|ms| ms / DAY_MS),
            Some(19_783)
        );
        // Written back as read, leap days and the turn of a year included.
        for text in [
            "1970-01-01T00:00:00.000Z",
            "2024-02-29T23:59:59.999Z",
            "2026-12-31T00:00:00.001Z",
            "2026-12-06T21:04:11.512Z",
        ] {
            assert_eq!(wall_ms(text).map(wall_text).as_deref(), Some(text));
        }
        for bad in [
            "",
            "2026-13-01T00:00:00Z",
            "yesterday",
            "2026-12-06 21:04:11",
        ] {
            assert_eq!(wall_ms(bad), None, "{bad}");
        }
        assert_eq!(check_period_days(7), Ok(7));
        assert!(
            check_period_days(0)
                .unwrap_err()
                .contains("allowed 1 to 365 days")
        );
    }

    #[test]
    fn a_change_adds_up_as_shown() {
        assert_eq!(change(1500.0, 1662.31, 290.0), "1500 -> 1662? (+162)");
        assert_eq!(change(1662.4, 1600.6, 100.0), "1662 -> 1601 (-61)");
        // 1500.4 -> 1662.6 is +162.2, but the numbers shown are 1500 and 1663.
        assert_eq!(change(1500.4, 1662.6, 50.0), "1500 -> 1663 (+163)");
        assert_eq!(change(1500.0, 1500.2, 50.0), "1500 -> 1500 (+0)");
    }

    #[test]
    fn results_read_as_words() {
        assert_eq!(
            results(3, 2, 1, 0),
            "3 rated games: 2 wins, 1 loss, 0 draws"
        );
        assert_eq!(results(1, 1, 0, 1), "1 rated game: 1 win, 0 losses, 1 draw");
    }

    #[test]
    fn results_and_refusals() {
        assert_eq!(result_of(0, &[0, 1]), Result::Win);
        assert_eq!(result_of(1, &[0, 1]), Result::Loss);
        assert_eq!(result_of(0, &[0, 0]), Result::Draw);
        assert_eq!(result_of(1, &[1, 0, 1]), Result::Loss);
        let g = glicko(1500.0, 350.0);
        assert_eq!(
            rate(Method::Glicko2, &[entry(A, 0, g)]),
            Err(RateError::NotTwo { players: 1 })
        );
        assert_eq!(
            rate(Method::WengLin, &[entry(A, 0, g)]),
            Err(RateError::TooFew { players: 1 })
        );
        assert_eq!(
            rate(Method::WengLin, &[entry(A, 0, g), entry(A, 1, g)]),
            Err(RateError::Twice(1))
        );
        assert_eq!(rated(&Finish::Unrated(crate::rules::Why::Abandoned)), None);
    }
}
