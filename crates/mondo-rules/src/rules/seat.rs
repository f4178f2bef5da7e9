//! Who plays, and places at the table: a seat is an index (a duel has two, Zendo Classic
//! up to nine with the Master), and per-seat values live in a [`BySeat`].

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::ops::{Index, IndexMut};

/// A player as the fronts know them: a Discord user id, or a local number in the
/// terminal. Names are the fronts' business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u64);

/// The first id of the seats the umpire's AI students take on Discord, where a person's
/// user id would be (Discord's ids are snowflakes, far above these): the id says the
/// seat's strength (`level`, counting from 0) and its number (`k`: 0 for the opponent
/// of a duel, 1 to 99 for the students of a game of many). Stored with the match like
/// any player, so an AI seat and its strength come back after a restart.
const AI_BASE: u64 = 1_000_000;
/// Ids per strength level.
const AI_PER_LEVEL: u64 = 100;
/// Strength levels an id can say.
const AI_LEVELS: u64 = 10;

impl PlayerId {
    /// The AI seat number `k` (below 100) of strength `level` (below 10).
    pub const fn ai(level: u8, k: u8) -> PlayerId {
        let level = if (level as u64) < AI_LEVELS {
            level as u64
        } else {
            AI_LEVELS - 1
        };
        let k = if (k as u64) < AI_PER_LEVEL {
            k as u64
        } else {
            AI_PER_LEVEL - 1
        };
        PlayerId(AI_BASE + level * AI_PER_LEVEL + k)
    }

    /// The strength level and number of an AI seat; `None` for a person.
    pub const fn ai_seat(self) -> Option<(u8, u8)> {
        if self.0 < AI_BASE || self.0 >= AI_BASE + AI_LEVELS * AI_PER_LEVEL {
            return None;
        }
        let n = self.0 - AI_BASE;
        Some(((n / AI_PER_LEVEL) as u8, (n % AI_PER_LEVEL) as u8))
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

/// A place at the table, counting from 0 in the match's seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

impl Seat {
    /// The first seat (the only one in solo games).
    pub const FIRST: Seat = Seat(0);
    /// The second seat of a two-player game.
    pub const SECOND: Seat = Seat(1);

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one, round a table of `seats`.
    pub const fn next(self, seats: usize) -> Seat {
        Seat(((self.0 as usize + 1) % seats) as u8)
    }

    /// The other seat of a two-player game.
    pub const fn other(self) -> Seat {
        self.next(2)
    }

    /// Every seat of a table of `seats`, in order.
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> {
        (0..seats.min(u8::MAX as usize)).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0 as u32 + 1)
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

/// A number; logs written before seats were indices say `"first"` and `"second"`.
impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        struct SeatVisitor;
        impl Visitor<'_> for SeatVisitor {
            type Value = Seat;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a seat number (0, 1, ...) or \"first\" / \"second\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Seat, E> {
                u8::try_from(v)
                    .map(Seat)
                    .map_err(|_| E::custom(format!("seat {v} is out of range")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Seat, E> {
                u64::try_from(v)
                    .map_err(|_| E::custom(format!("seat {v} is out of range")))
                    .and_then(|v| self.visit_u64(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Seat, E> {
                match v {
                    "first" => Ok(Seat::FIRST),
                    "second" => Ok(Seat::SECOND),
                    other => Err(E::custom(format!("`{other}` is not a seat"))),
                }
            }
        }
        d.deserialize_any(SeatVisitor)
    }
}

/// One value per seat, in seat order (a JSON array).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(Vec<T>);

impl<T> BySeat<T> {
    /// `value` for each of `seats` seats.
    pub fn new(seats: usize, value: T) -> BySeat<T>
    where
        T: Clone,
    {
        BySeat(vec![value; seats])
    }

    pub fn from_vec(values: Vec<T>) -> BySeat<T> {
        BySeat(values)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    /// The seats and their values, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    pub fn values(&self) -> &[T] {
        &self.0
    }

    /// The seat holding `value`, if any.
    pub fn seat_of(&self, value: &T) -> Option<Seat>
    where
        T: PartialEq,
    {
        self.0
            .iter()
            .position(|v| v == value)
            .map(|i| Seat(i as u8))
    }

    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> BySeat<U> {
        BySeat(self.0.iter().map(f).collect())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

impl<T, const N: usize> From<[T; N]> for BySeat<T> {
    fn from(values: [T; N]) -> BySeat<T> {
        BySeat(values.into())
    }
}

impl<T> From<Vec<T>> for BySeat<T> {
    fn from(values: Vec<T>) -> BySeat<T> {
        BySeat(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_as_numbers_and_as_the_old_names() {
        let seats: Vec<Seat> = serde_json::from_str(r#"[0, 1, 5, "first", "second"]"#).unwrap();
        assert_eq!(
            seats,
            [Seat(0), Seat(1), Seat(5), Seat::FIRST, Seat::SECOND]
        );
        assert_eq!(serde_json::to_string(&Seat(3)).unwrap(), "3");
        assert!(serde_json::from_str::<Seat>(r#""third""#).is_err());
        assert!(serde_json::from_str::<Seat>("300").is_err());
    }

    #[test]
    fn seats_go_round_the_table() {
        assert_eq!(Seat(0).other(), Seat(1));
        assert_eq!(Seat(1).other(), Seat(0));
        assert_eq!(Seat(2).next(3), Seat(0));
        assert_eq!(
            Seat::all(3).collect::<Vec<_>>(),
            [Seat(0), Seat(1), Seat(2)]
        );
        assert_eq!(Seat(0).to_string(), "seat 1");
    }

    #[test]
    fn values_by_seat_are_indexed_by_seat() {
        let mut tickets = BySeat::new(2, 0u32);
        tickets[Seat::SECOND] += 2;
        assert_eq!(tickets.values(), [0, 2]);
        assert_eq!(serde_json::to_string(&tickets).unwrap(), "[0,2]");
        let players = BySeat::from([7u64, 9]);
        assert_eq!(players.seat_of(&9), Some(Seat::SECOND));
        assert_eq!(players.seat_of(&8), None);
    }
}
