//! Reading any text never panics; whatever reads is printed, and the prints read
//! back: the symbolic form as the same tree, the English one as the same reading.

#![no_main]

use libfuzzer_sys::fuzz_target;
use mondo::lang::{english, parse, parse_symbolic, same_reading, same_tree, symbolic, word_count};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = word_count(text);
    match parse(text) {
        Ok(p) => {
            let s = symbolic(&p.formula);
            let back = parse_symbolic(&s).expect("symbolic form reads back");
            assert!(same_tree(&p.formula, &back.formula), "{s}");
            let e = english(&p.formula);
            let back = parse(&e).expect("canonical English reads back");
            assert!(same_reading(&p.formula, &back.formula), "{e}");
        }
        Err(err) => {
            let _ = err.render(text);
        }
    }
});
