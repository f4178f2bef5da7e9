//! Reading any text never panics; whatever reads is printed, and the prints read
//! back (the body is `mondo::fuzz::parse`, which `cargo test` replays over
//! `tests/data/fuzz/parse/`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mondo::fuzz::parse(data));
