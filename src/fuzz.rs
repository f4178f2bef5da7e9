//! The fuzz targets' bodies (`fuzz/fuzz_targets/`): each target calls one function
//! here, so that stable `cargo test` replays the corpus kept in the repository
//! (`tests/data/fuzz/<target>/`: a seed corpus and every input a fuzz run ever crashed
//! on) through the very code the fuzzer runs (`tests/it/fuzz_corpus.rs`). A
//! function panics on a finding, as the fuzzer expects.

use crate::lang::{
    english, parse as read, parse_symbolic, same_reading, same_tree, symbolic, word_count,
};

/// A fuzz target's body: it panics on a finding.
pub type Body = fn(&[u8]);

/// The targets, by name (as in `fuzz/Cargo.toml`), and their bodies.
pub const TARGETS: &[(&str, Body)] = &[("parse", parse)];

/// `parse`: reading any text never panics; whatever reads is printed, and the prints
/// read back: the symbolic form as the same tree, the English one as the same reading.
pub fn parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = word_count(text);
    match read(text) {
        Ok(p) => {
            let s = symbolic(&p.formula);
            let back = parse_symbolic(&s).expect("symbolic form reads back");
            assert!(same_tree(&p.formula, &back.formula), "{s}");
            let e = english(&p.formula);
            let back = read(&e).expect("canonical English reads back");
            assert!(same_reading(&p.formula, &back.formula), "{e}");
        }
        Err(err) => {
            let _ = err.render(text);
        }
    }
}
