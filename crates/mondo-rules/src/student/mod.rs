//! Mondo's AI students: a player of a game made by machine, seeing only what a player
//! sees, one folder per game family that has one (Zendo's today; see docs/ai.md).

pub mod zendo;
