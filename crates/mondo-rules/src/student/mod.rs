//! Mondo's AI students: a player of a game made by machine, seeing only what a player
//! sees, one folder per game family that has one (Zendo's and Logical Bluffs'; see docs/ai.md).

pub mod bluffs;
pub mod zendo;
