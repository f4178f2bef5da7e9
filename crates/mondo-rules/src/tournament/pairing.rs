//! Who meets whom: the round robin's circle, groups drawn snake-wise, the
//! single-elimination bracket's order, and Swiss rounds paired the Dutch way. Players
//! are seat numbers here (0 = the first seed); a pair's first is the higher seed.

use std::collections::HashSet;

/// A round's pairs and its bye (the seat without an opponent this round), if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Every round of a round robin among `seats` (in seed order), by the circle method:
/// each seat meets every other once, and with an odd count each sits out one round
/// (its bye). The higher seed of each pair comes first.
pub fn round_robin(seats: &[usize]) -> Vec<Round> {
    let n = seats.len();
    if n < 2 {
        return Vec::new();
    }
    // An odd count gets a phantom seat; whoever meets it has the bye.
    let mut ring: Vec<Option<usize>> = seats.iter().copied().map(Some).collect();
    if n % 2 == 1 {
        ring.push(None);
    }
    let m = ring.len();
    let mut rounds = Vec::with_capacity(m - 1);
    for _ in 0..m - 1 {
        let mut round = Round::default();
        for i in 0..m / 2 {
            match (ring[i], ring[m - 1 - i]) {
                (Some(a), Some(b)) => round.pairs.push(higher_first(a, b)),
                (Some(a), None) | (None, Some(a)) => round.bye = Some(a),
                (None, None) => {}
            }
        }
        rounds.push(round);
        // The first stays; the others turn one place.
        if let Some(last) = ring.pop() {
            ring.insert(1, last);
        }
    }
    rounds
}

fn higher_first(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// How many groups `n` players make with groups of at most `size` (3 to 6): as many
/// as `size` asks, but never a group under 3 players.
pub fn group_count(n: usize, size: usize) -> usize {
    n.div_ceil(size.max(1)).min(n / 3).max(1)
}

/// `n` seats (in seed order) drawn into `groups` groups snake-wise: seeds 1..g go to
/// groups 1..g, seeds g+1..2g back from g to 1, and so on. Sizes differ by one at most.
pub fn snake(n: usize, groups: usize) -> Vec<Vec<usize>> {
    let groups = groups.max(1);
    let mut out = vec![Vec::new(); groups];
    for seat in 0..n {
        let (lap, k) = (seat / groups, seat % groups);
        let g = if lap % 2 == 0 { k } else { groups - 1 - k };
        out[g].push(seat);
    }
    out
}

/// The bracket's order for `size` slots (a power of two): the seed numbers (0-based) in
/// slot order, so that slots 2k and 2k+1 meet in the first round and seeds 0 and 1 can
/// meet only in the final (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight).
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let m = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, m - 1 - s]).collect();
    }
    order
}

/// The first round of a bracket for `entrants` (seats in seed order): the bracket's
/// slots filled by seed, an empty slot being a bye for the seed it faces.
pub fn bracket_slots(entrants: &[usize]) -> Vec<Option<usize>> {
    let size = entrants.len().next_power_of_two().max(2);
    bracket_order(size)
        .into_iter()
        .map(|seed| entrants.get(seed).copied())
        .collect()
}

/// The playoffs' entrants in seed order, group mates kept apart in the first round
/// (the groups' winners meet others' runners-up, as a groups-to-bracket draw does).
/// `tiers` are the entrants by place in their group (the winners, then the seconds,
/// ...), each in seed order, each entrant with its group. Each keeps its tier (a
/// winner is seeded among the winners), and the seed order is kept where it puts no
/// two of a group in one first-round match (see [`bracket_order`]: seed `s` meets seed
/// `size - 1 - s`); when no draw avoids them all (one group), the seed order.
pub fn apart(tiers: &[Vec<(usize, usize)>]) -> Vec<usize> {
    let plain: Vec<usize> = tiers.iter().flatten().map(|e| e.0).collect();
    let n = plain.len();
    let size = n.next_power_of_two().max(2);
    let tier_of: Vec<usize> = tiers
        .iter()
        .enumerate()
        .flat_map(|(t, members)| std::iter::repeat_n(t, members.len()))
        .collect();
    let mut placed: Vec<(usize, usize)> = Vec::with_capacity(n);
    let mut used: HashSet<usize> = HashSet::new();
    let mut budget = SEARCH_LIMIT;
    if place(tiers, &tier_of, size, &mut placed, &mut used, &mut budget) {
        placed.into_iter().map(|e| e.0).collect()
    } else {
        plain
    }
}

/// Fills the seed positions from `placed.len()` on (see [`apart`]): whether it could.
fn place(
    tiers: &[Vec<(usize, usize)>],
    tier_of: &[usize],
    size: usize,
    placed: &mut Vec<(usize, usize)>,
    used: &mut HashSet<usize>,
    budget: &mut usize,
) -> bool {
    let p = placed.len();
    let Some(&tier) = tier_of.get(p) else {
        return true;
    };
    // The seed this one meets first, if it is placed already.
    let against = placed.get(size - 1 - p).map(|e| e.1);
    for &(seat, group) in &tiers[tier] {
        if *budget == 0 {
            return false;
        }
        if used.contains(&seat) || against == Some(group) {
            continue;
        }
        *budget -= 1;
        placed.push((seat, group));
        used.insert(seat);
        if place(tiers, tier_of, size, placed, used, budget) {
            return true;
        }
        placed.pop();
        used.remove(&seat);
    }
    false
}

/// A player as a Swiss round sees them: their seat, points so far (in half points),
/// whether they had a bye, whom they met.
#[derive(Clone, Debug)]
pub struct Standing {
    pub seat: usize,
    pub half_points: u32,
    pub had_bye: bool,
    pub met: HashSet<usize>,
}

/// The most pairings tried before a round accepts a repeat: far more than any round
/// of a real tournament needs (a round with a pairing without repeats finds it in a
/// handful), and a bound when none exists among many players.
const SEARCH_LIMIT: usize = 200_000;

/// A Swiss round, Dutch style: the players ranked by points (then seed); the bye to
/// the lowest ranked who has not had one (an odd count); within each score group the
/// top half meets the bottom half (1 v 5, 2 v 6 ... in a group of eight), players
/// floating down to the next group when theirs is odd. No two players meet again while
/// a round without a repeat exists (the search tries the Dutch preferences in order
/// and backs out of dead ends); only when none does is a repeat allowed.
pub fn swiss(players: &[Standing]) -> Round {
    let mut ranked: Vec<&Standing> = players.iter().collect();
    ranked.sort_by_key(|p| (std::cmp::Reverse(p.half_points), p.seat));
    let byes: Vec<Option<usize>> = if ranked.len() % 2 == 1 {
        // The lowest ranked first; everyone without a bye, then (none left) anyone.
        let fresh: Vec<Option<usize>> = (0..ranked.len())
            .rev()
            .filter(|&i| !ranked[i].had_bye)
            .map(Some)
            .collect();
        if fresh.is_empty() {
            vec![Some(ranked.len() - 1)]
        } else {
            fresh
        }
    } else {
        vec![None]
    };
    for strict in [true, false] {
        let mut budget = SEARCH_LIMIT;
        for &bye in &byes {
            let rest: Vec<&Standing> = ranked
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != bye)
                .map(|(_, p)| *p)
                .collect();
            if let Some(pairs) = pair_dutch(&rest, strict, &mut budget) {
                return Round {
                    pairs: pairs
                        .into_iter()
                        .map(|(a, b)| higher_first(rest[a].seat, rest[b].seat))
                        .collect(),
                    bye: bye.map(|i| ranked[i].seat),
                };
            }
        }
    }
    // Unreachable with an even count (the loose search always pairs); kept total.
    Round::default()
}

/// Pairs `ranked` (ranked order) by the Dutch preferences; `strict`: no repeat.
fn pair_dutch(
    ranked: &[&Standing],
    strict: bool,
    budget: &mut usize,
) -> Option<Vec<(usize, usize)>> {
    let n = ranked.len();
    // Each player's preferred opponents, best first: in their score group, the one
    // half a group below (the Dutch S1 v S2), then the rest of the group downwards,
    // then the nearest ranks below, then those above.
    let prefs: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let score = ranked[i].half_points;
            let group: Vec<usize> = (0..n).filter(|&j| ranked[j].half_points == score).collect();
            let pos = group.iter().position(|&j| j == i).unwrap_or(0);
            let half = group.len() / 2;
            let mut order: Vec<usize> = Vec::with_capacity(n);
            if pos < half {
                order.extend(group.iter().skip(pos + half).copied());
                order.extend(group.iter().skip(half).take(pos).rev().copied());
            }
            let below: Vec<usize> = (i + 1..n).filter(|j| !order.contains(j)).collect();
            order.extend(below);
            order.extend((0..i).rev());
            order
        })
        .collect();
    let mut partner = vec![None; n];
    if search(ranked, &prefs, strict, &mut partner, budget) {
        Some(
            (0..n)
                .filter_map(|i| partner[i].filter(|&j| j > i).map(|j| (i, j)))
                .collect(),
        )
    } else {
        None
    }
}

fn search(
    ranked: &[&Standing],
    prefs: &[Vec<usize>],
    strict: bool,
    partner: &mut [Option<usize>],
    budget: &mut usize,
) -> bool {
    let Some(i) = partner.iter().position(Option::is_none) else {
        return true;
    };
    for &j in &prefs[i] {
        if *budget == 0 {
            return false;
        }
        if partner[j].is_some() || (strict && ranked[i].met.contains(&ranked[j].seat)) {
            continue;
        }
        *budget -= 1;
        partner[i] = Some(j);
        partner[j] = Some(i);
        if search(ranked, prefs, strict, partner, budget) {
            return true;
        }
        partner[i] = None;
        partner[j] = None;
    }
    false
}
