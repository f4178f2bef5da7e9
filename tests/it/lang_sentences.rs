//! Random English sentences from the contract's grammar: each reads, prints back as
//! natural English (not the symbolic fallback) with the same reading, and agrees
//! with its symbolic form on random structures.

use mondo::koan::PieceSet;
use mondo::lang::random;
use mondo::lang::{
    english, evaluate, natural_english, parse_english, parse_symbolic, same_reading, symbolic,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

struct G {
    rng: StdRng,
}

impl G {
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.rng.random_range(0..xs.len())]
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn sentence(&mut self, depth: u32) -> String {
        if depth == 0 || self.chance(0.6) {
            return self.atomic(depth);
        }
        let (a, b) = (self.sentence(depth - 1), self.sentence(depth - 1));
        match self.rng.random_range(0..7) {
            0 => format!("({a}) and ({b})"),
            1 => format!("({a}) or ({b})"),
            2 => format!("if ({a}) then ({b})"),
            3 => format!("({a}) if and only if ({b})"),
            4 => format!("either ({a}) or ({b}) but not both"),
            5 => format!("it is not the case that ({a})"),
            _ => format!("not ({a})"),
        }
    }

    fn det(&mut self) -> String {
        self.pick(&[
            "some",
            "a",
            "every",
            "each",
            "no",
            "exactly two",
            "at least two",
            "at most one",
            "more than one",
            "fewer than three",
            "an odd number of",
            "an even number of",
            "the unique",
            "only",
            "exactly one",
            "at least one",
        ])
        .to_string()
    }

    fn atomic(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.random_range(0..9) {
            0..=2 => format!("{} {} {}", self.det(), self.np(d), self.vp(d, false)),
            3 => {
                let det = self.pick(&[
                    "a",
                    "some",
                    "exactly three",
                    "at most two",
                    "no",
                    "only",
                    "an odd number of",
                ]);
                format!("there are {det} {}", self.np(d))
            }
            4 => {
                let c = self.pick(&["more", "fewer"]);
                format!("there are {c} {} than {}", self.np(d), self.np(d))
            }
            5 => format!("there are as many {} as {}", self.np(d), self.np(d)),
            6 => {
                let cmp = self.pick(&[
                    "is",
                    "is at least",
                    "is at most",
                    "is more than",
                    "is less than",
                    "is not",
                    ">=",
                    "=",
                ]);
                format!("{} {cmp} {}", self.term(d), self.term(d))
            }
            7 => {
                let p = self.pick(&["odd", "even"]);
                format!("{} is {p}", self.term(d))
            }
            _ => {
                let c = self.pick(&[
                    "point the same direction",
                    "are the same size",
                    "are in the same row",
                    "are in the same column",
                ]);
                let adj = if self.chance(0.5) { self.adj() } else { "" };
                format!("all {adj} pieces {c}").replace("  ", " ")
            }
        }
    }

    fn term(&mut self, d: u32) -> String {
        match self.rng.random_range(0..8) {
            0 => self.pick(&["two", "3", "zero", "ten"]).to_string(),
            1 => format!("the number of {}", self.np(d)),
            2 => "the total pips".into(),
            3 => format!("the total pips of {}", self.np(d)),
            4 => self
                .pick(&["the width", "the height", "the number of groups"])
                .into(),
            5 => self
                .pick(&[
                    "the number of different sizes",
                    "the number of different directions",
                ])
                .into(),
            6 => "the number of pieces".into(),
            _ => format!("the width + {}", self.pick(&["one", "the height"])),
        }
    }

    fn adj(&mut self) -> &'static str {
        const ADJECTIVES: &str = "small medium large vertical horizontal topmost bottommost \
                                  leftmost rightmost largest smallest 1-pip top-most";
        let all: Vec<&'static str> = ADJECTIVES.split_whitespace().collect();
        self.pick(&all)
    }

    fn np(&mut self, d: u32) -> String {
        let mut s = String::new();
        for _ in 0..self.rng.random_range(0..3) {
            s.push_str(self.adj());
            s.push(' ');
        }
        s.push_str(self.pick(&["piece", "pieces", "pyramid", "arrows"]));
        if self.chance(0.35) {
            if self.chance(0.15) {
                let c = self.pick(&["and", "or"]);
                let (a, b) = (self.vp(0, false), self.vp(d, false));
                s.push_str(&format!(" that {a} {c} which {b}"));
            } else if self.chance(0.5) {
                s.push_str(&format!(" that {}", self.vp(d, false)));
            } else {
                s.push_str(&format!(" {}", self.vp(d, true)));
            }
        }
        s
    }

    fn dp(&mut self, d: u32) -> String {
        let det = self.pick(&[
            "a",
            "another",
            "no",
            "every",
            "exactly two",
            "at least two",
            "an odd number of",
            "some",
            "the unique",
        ]);
        let np = if d == 0 {
            self.pick(&["piece", "small piece", "other pieces"])
                .to_string()
        } else {
            self.np(d - 1)
        };
        if np.starts_with("other") {
            np
        } else {
            format!("{det} {np}")
        }
    }

    fn vp(&mut self, d: u32, participle: bool) -> String {
        let a = self.vp_atom(d, participle);
        if d > 0 && self.chance(0.25) {
            let b = self.vp_atom(d - 1, participle);
            let c = self.pick(&["and", "or"]);
            return format!("{a} {c} {b}");
        }
        a
    }

    fn vp_atom(&mut self, d: u32, participle: bool) -> String {
        let dir = self.pick(&[
            "up",
            "down",
            "left",
            "right",
            "vertically",
            "up or down",
            "up, right or down",
        ]);
        if participle {
            return match self.rng.random_range(0..5) {
                0 => format!("pointing {dir}"),
                1 => format!("not pointing {dir}"),
                2 => format!("touching {}", self.dp(d)),
                3 => format!("pointing at {}", self.dp(d)),
                _ => format!("pointing the same direction as {}", self.dp(d)),
            };
        }
        let adj = self.adj();
        match self.rng.random_range(0..13) {
            0 => format!("points {dir}"),
            1 => format!("does not point {dir}"),
            2 => format!("touches {}", self.dp(d)),
            3 => format!("points at {}", self.dp(d)),
            4 => format!("is {adj}"),
            5 => format!("is not {adj}"),
            6 => format!("is above {}", self.dp(d)),
            7 => format!("is directly left of {}", self.dp(d)),
            8 => format!("is in the same column as {}", self.dp(d)),
            9 => format!("is larger than {}", self.dp(d)),
            10 => format!("is the same size as {}", self.dp(d)),
            11 => {
                let verb = self.pick(&["does not touch", "is not above", "does not point at"]);
                let np = if d == 0 {
                    self.pick(&["piece", "small piece", "other pieces"])
                        .to_string()
                } else {
                    self.np(d - 1)
                };
                format!("{verb} any {np}")
            }
            _ => format!("points the opposite direction to {}", self.dp(d)),
        }
    }
}

#[test]
fn random_sentences_read_and_print_back_naturally() {
    let mut g = G {
        rng: StdRng::seed_from_u64(7),
    };
    let mut krng = StdRng::seed_from_u64(8);
    let koans: Vec<_> = (0..40)
        .map(|_| random::koan(&mut krng, PieceSet::Pyramids, 7))
        .collect();
    let (mut total, mut natural, mut refused) = (0, 0, 0);
    let mut unnatural = Vec::new();
    for _ in 0..3000 {
        let s = g.sentence(2);
        let p = match parse_english(&s) {
            Ok(p) => p,
            // A refusal (ambiguous or meaningless) is fine; failing to read is not.
            Err(e) if !e.message.starts_with("expected") => {
                refused += 1;
                continue;
            }
            Err(e) => panic!("{s}\n{}", e.render(&s)),
        };
        total += 1;
        match natural_english(&p.formula) {
            Some(e) => {
                natural += 1;
                let back = parse_english(&e).expect("natural English reads back");
                // The same reading, or (said the shorter way, `not A or not B` for
                // `not (A and B)`) the same verdicts.
                let same = same_reading(&back.formula, &p.formula)
                    || koans
                        .iter()
                        .all(|k| evaluate(&back.formula, k) == evaluate(&p.formula, k));
                assert!(same, "{s} -> {e}");
            }
            None => unnatural.push(format!("{s}\n    -> {}", english(&p.formula))),
        }
        let sym = parse_symbolic(&symbolic(&p.formula)).expect("symbolic reads back");
        for k in &koans {
            assert_eq!(evaluate(&p.formula, k), evaluate(&sym.formula, k), "{s}");
        }
    }
    println!(
        "{natural} of {total} random sentences print back as natural English ({refused} refused)"
    );
    assert!(refused * 10 < total, "{refused} refused");
    for u in unnatural.iter().take(30) {
        println!("{u}");
    }
    assert!(
        natural * 100 >= total * 97,
        "{natural} of {total}; e.g.\n{}",
        unnatural
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
