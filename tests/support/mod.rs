#![allow(dead_code)]
//! Test support shared by integration tests (`mod support;`).

pub mod discord;
