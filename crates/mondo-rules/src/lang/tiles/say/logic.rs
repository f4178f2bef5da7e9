//! The named-tile English, for any tree: `for every tile x, x is red or there is a
//! tile y such that y is adjacent to x`.

use super::phrase::*;
use crate::lang::tiles::ast::{CmpOp, Domain, Formula, FormulaKind, Parity, Term, TermKind};
use crate::lang::tiles::print::Names;
use crate::lang::words::say_number;

/// Whether the node is said in one clause that nothing can attach to.
pub(super) fn atomic(f: &Formula) -> bool {
    match &f.kind {
        FormulaKind::Colour(..)
        | FormulaKind::Place(..)
        | FormulaKind::Rel(..)
        | FormulaKind::Same(..)
        | FormulaKind::Cmp(..)
        | FormulaKind::Parity(..)
        | FormulaKind::Bool(_) => true,
        FormulaKind::Not(a) => matches!(a.kind, FormulaKind::Same(..)),
        _ => false,
    }
}

pub(super) fn logic(f: &Formula, names: &mut Names) -> String {
    let part = |g: &Formula, names: &mut Names| {
        let s = logic(g, names);
        if atomic(g) { s } else { format!("({s})") }
    };
    match &f.kind {
        FormulaKind::Bool(true) => "there are at least zero tiles".into(),
        FormulaKind::Bool(false) => "there are fewer than zero tiles".into(),
        FormulaKind::Not(a) => match &a.kind {
            FormulaKind::Same(x, y) => format!("{} is not {}", names.name(*x), names.name(*y)),
            _ => format!("it is not the case that {}", logic(a, names)),
        },
        FormulaKind::Bin(op, a, b) => {
            let (a, b) = (part(a, names), part(b, names));
            connect(*op, &a, &b)
        }
        FormulaKind::Forall(x, d, body) | FormulaKind::Exists(x, d, body) => {
            let name = names.bind_tile(*x);
            let of = match d {
                Domain::Subset => String::new(),
                Domain::In(s) => format!(" of {}", names.name(*s)),
            };
            let body = logic(body, names);
            names.tiles.pop();
            if matches!(f.kind, FormulaKind::Forall(..)) {
                format!("for every tile {name}{of}, {body}")
            } else {
                format!("there is a tile {name}{of} such that {body}")
            }
        }
        FormulaKind::ForallRegion(s, k, body) | FormulaKind::ExistsRegion(s, k, body) => {
            let name = names.bind_region(*s);
            let body = logic(body, names);
            names.regions.pop();
            if matches!(f.kind, FormulaKind::ForallRegion(..)) {
                format!("for every {} {name}, {body}", k.noun())
            } else {
                format!("there is a {} {name} such that {body}", k.noun())
            }
        }
        FormulaKind::Colour(c, x) => format!("{} is {}", names.name(*x), c.name()),
        FormulaKind::Place(p, x) => format!("{} is {}", names.name(*x), p.words()),
        FormulaKind::Rel(r, x, y) => format!(
            "{} is {} {}",
            names.name(*x),
            relation_words(*r),
            names.name(*y)
        ),
        FormulaKind::Same(x, y) => format!("{} is {}", names.name(*x), names.name(*y)),
        FormulaKind::Cmp(op, a, b) => {
            let (a, b) = (logic_term(a, names), logic_term(b, names));
            format!("{a} {} {b}", comparison_words(*op))
        }
        FormulaKind::Parity(p, t) => format!(
            "{} is {}",
            logic_term(t, names),
            if *p == Parity::Odd { "odd" } else { "even" }
        ),
    }
}

/// `is`, `is not`, `is at least`...: the comparison after a number term.
pub(super) fn comparison_words(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "is",
        CmpOp::Ne => "is not",
        CmpOp::Lt => "is fewer than",
        CmpOp::Le => "is at most",
        CmpOp::Gt => "is more than",
        CmpOp::Ge => "is at least",
    }
}

pub(super) fn logic_term(t: &Term, names: &mut Names) -> String {
    let grouped = |t: &Term, names: &mut Names| {
        let s = logic_term(t, names);
        if matches!(t.kind, TermKind::Add(..) | TermKind::Sub(..)) {
            format!("({s})")
        } else {
            s
        }
    };
    match &t.kind {
        TermKind::Int(n) if *n < 0 => format!("(zero minus {})", say_number(-n)),
        TermKind::Int(n) => say_number(*n),
        TermKind::Tiles => "the number of tiles".into(),
        TermKind::Colours => "the number of different colours".into(),
        TermKind::ColoursIn(s) => format!("the number of different colours of {}", names.name(*s)),
        TermKind::Count(x, d, body) => {
            let name = names.bind_tile(*x);
            let of = match d {
                Domain::Subset => String::new(),
                Domain::In(s) => format!(" of {}", names.name(*s)),
            };
            let said = logic(body, names);
            names.tiles.pop();
            // The body ends where the count does: in parentheses unless one clause.
            let said = if atomic(body) {
                said
            } else {
                format!("({said})")
            };
            format!("the number of tiles {name}{of} such that {said}")
        }
        TermKind::Add(a, b) => format!("{} plus {}", logic_term(a, names), grouped(b, names)),
        TermKind::Sub(a, b) => format!("{} minus {}", logic_term(a, names), grouped(b, names)),
        TermKind::Mul(k, a) if *k < 0 => {
            format!(
                "(zero minus {} times {})",
                say_number(-k),
                grouped(a, names)
            )
        }
        TermKind::Mul(2, a) => format!("twice {}", grouped(a, names)),
        TermKind::Mul(k, a) => format!("{} times {}", say_number(*k), grouped(a, names)),
    }
}
