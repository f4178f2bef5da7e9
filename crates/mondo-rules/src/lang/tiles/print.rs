//! Saying statements back in the exact symbolic form (docs/tiles.md, "The symbolic
//! form"). The canonical English is [`super::say`]'s; both read back to the same
//! meaning (see the tests).

use super::ast::{Domain, Formula, FormulaKind, Parity, Term, TermKind, Var};

pub(super) const TILE_NAMES: [&str; 6] = ["x", "y", "z", "w", "u", "v"];
pub(super) const REGION_NAMES: [&str; 4] = ["s", "t", "r", "q"];

/// Variable names in scope while printing, innermost last.
#[derive(Clone, Default)]
pub(super) struct Names {
    pub(super) tiles: Vec<(Var, String)>,
    pub(super) regions: Vec<(Var, String)>,
}

impl Names {
    pub(super) fn bind_tile(&mut self, v: Var) -> String {
        let i = self.tiles.len();
        let name = TILE_NAMES
            .get(i)
            .map_or_else(|| format!("x{i}"), |n| n.to_string());
        self.tiles.push((v, name.clone()));
        name
    }

    pub(super) fn bind_region(&mut self, v: Var) -> String {
        let i = self.regions.len();
        let name = REGION_NAMES
            .get(i)
            .map_or_else(|| format!("s{i}"), |n| n.to_string());
        self.regions.push((v, name.clone()));
        name
    }

    pub(super) fn name(&self, v: Var) -> String {
        self.tiles
            .iter()
            .chain(&self.regions)
            .rev()
            .find(|(w, _)| *w == v)
            .map_or_else(|| format!("v{}", v.0), |(_, n)| n.clone())
    }
}

fn prec(f: &Formula) -> u8 {
    match &f.kind {
        FormulaKind::Bin(op, ..) => op.level(),
        FormulaKind::Forall(..)
        | FormulaKind::Exists(..)
        | FormulaKind::ForallRegion(..)
        | FormulaKind::ExistsRegion(..) => 0,
        _ => 6,
    }
}

/// The exact symbolic form (docs/tiles.md, "The symbolic form").
pub fn symbolic(f: &Formula) -> String {
    let mut out = String::new();
    sym(f, &mut Names::default(), true, &mut out);
    out
}

/// Prints `f`; `tail` says whether nothing follows it in its context (a quantifier
/// anywhere else needs parentheses, its body reaching to the right).
fn sym(f: &Formula, names: &mut Names, tail: bool, out: &mut String) {
    match &f.kind {
        FormulaKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        FormulaKind::Not(a) => match &a.kind {
            FormulaKind::Same(x, y) => {
                out.push_str(&format!("{} != {}", names.name(*x), names.name(*y)))
            }
            FormulaKind::Cmp(..) => {
                out.push_str("!(");
                sym(a, names, true, out);
                out.push(')');
            }
            _ => {
                out.push('!');
                child(a, 6, names, tail, out);
            }
        },
        FormulaKind::Bin(op, a, b) => {
            let (lp, rp) = op.operand_levels();
            child(a, lp, names, false, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            child(b, rp, names, tail, out);
        }
        FormulaKind::Forall(..) | FormulaKind::Exists(..) => {
            let forall = matches!(f.kind, FormulaKind::Forall(..));
            out.push_str(if forall { "forall" } else { "exists" });
            let mark = names.tiles.len();
            let mut g = f;
            let mut dom = None;
            // Merge `exists x. exists y.` over one domain into `exists x y.`.
            while let FormulaKind::Forall(v, d, body) | FormulaKind::Exists(v, d, body) = &g.kind {
                if matches!(g.kind, FormulaKind::Forall(..)) != forall
                    || dom.is_some_and(|e| e != *d)
                {
                    break;
                }
                dom = Some(*d);
                out.push(' ');
                out.push_str(&names.bind_tile(*v));
                g = body.as_ref();
            }
            if let Some(Domain::In(s)) = dom {
                out.push_str(" in ");
                out.push_str(&names.name(s));
            }
            out.push_str(". ");
            sym(g, names, true, out);
            names.tiles.truncate(mark);
        }
        FormulaKind::ForallRegion(s, k, body) | FormulaKind::ExistsRegion(s, k, body) => {
            let q = if matches!(f.kind, FormulaKind::ForallRegion(..)) {
                "forall"
            } else {
                "exists"
            };
            let name = names.bind_region(*s);
            out.push_str(&format!("{q} {name}: {}. ", k.name()));
            sym(body, names, true, out);
            names.regions.pop();
        }
        FormulaKind::Colour(c, x) => out.push_str(&format!("{}({})", c.name(), names.name(*x))),
        FormulaKind::Place(p, x) => out.push_str(&format!("{}({})", p.name(), names.name(*x))),
        FormulaKind::Rel(r, x, y) => out.push_str(&format!(
            "{}({}, {})",
            r.name(),
            names.name(*x),
            names.name(*y)
        )),
        FormulaKind::Same(x, y) => {
            out.push_str(&format!("{} = {}", names.name(*x), names.name(*y)))
        }
        FormulaKind::Cmp(op, a, b) => {
            term(a, names, out);
            out.push_str(&format!(" {} ", op.symbol()));
            term(b, names, out);
        }
        FormulaKind::Parity(p, t) => {
            out.push_str(if *p == Parity::Odd { "odd(" } else { "even(" });
            term(t, names, out);
            out.push(')');
        }
    }
}

fn child(f: &Formula, min: u8, names: &mut Names, tail: bool, out: &mut String) {
    let p = prec(f);
    let paren = if p == 0 { !tail } else { p < min };
    if paren {
        out.push('(');
    }
    sym(f, names, paren || tail, out);
    if paren {
        out.push(')');
    }
}

fn term(t: &Term, names: &mut Names, out: &mut String) {
    match &t.kind {
        TermKind::Int(n) => out.push_str(&n.to_string()),
        TermKind::Tiles => out.push_str("tiles"),
        TermKind::Colours => out.push_str("colours"),
        TermKind::ColoursIn(s) => {
            out.push_str("colours(");
            out.push_str(&names.name(*s));
            out.push(')');
        }
        TermKind::Mul(k, a) => {
            out.push_str(&format!("{k} * "));
            let paren = matches!(a.kind, TermKind::Add(..) | TermKind::Sub(..));
            if paren {
                out.push('(');
            }
            term(a, names, out);
            if paren {
                out.push(')');
            }
        }
        TermKind::Count(v, d, body) => {
            let name = names.bind_tile(*v);
            out.push_str("count(");
            out.push_str(&name);
            if let Domain::In(s) = d {
                out.push_str(" in ");
                out.push_str(&names.name(*s));
            }
            out.push_str(": ");
            sym(body, names, true, out);
            out.push(')');
            names.tiles.pop();
        }
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            term(a, names, out);
            out.push_str(if matches!(t.kind, TermKind::Add(..)) {
                " + "
            } else {
                " - "
            });
            // `a - (b + c)` keeps its parentheses.
            let paren = matches!(b.kind, TermKind::Add(..) | TermKind::Sub(..));
            if paren {
                out.push('(');
            }
            term(b, names, out);
            if paren {
                out.push(')');
            }
        }
    }
}
