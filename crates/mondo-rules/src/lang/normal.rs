//! Comparing readings: two formulas have the same reading when they are equal up to
//! variable names, the order and grouping of `and` / `or` operands, `true` conjuncts,
//! `false` disjuncts, double negation, `true -> F`, `count(x: true)` vs `pieces`, and
//! a relation vs its converse with the pieces swapped (`below(x, y)` is `above(y, x)`),
//! and `x != y` beside a relation that implies it (`touches(x, y) & x != y`).
//! Every one of these rewrites keeps the meaning, so the same reading implies
//! equivalence (not conversely).

use super::ast::{BinOp, BinaryPred, Formula, FormulaKind, Term, TermKind, Var};

/// Whether the two formulas read the same (see the module documentation).
pub fn same_reading(a: &Formula, b: &Formula) -> bool {
    canonical(a) == canonical(b)
}

/// A canonical text of the formula's reading, for comparisons.
pub fn canonical(f: &Formula) -> String {
    let mut env = Vec::new();
    formula(f, &mut env, false)
}

/// Whether the two formulas are the same tree up to spans and variable names.
pub fn same_tree(a: &Formula, b: &Formula) -> bool {
    formula(a, &mut Vec::new(), true) == formula(b, &mut Vec::new(), true)
}

/// The relation that holds of `(b, a)` exactly when `p` holds of `(a, b)`, if the
/// language has one (`points_at` has none).
pub(crate) fn converse(p: BinaryPred) -> Option<BinaryPred> {
    use BinaryPred::*;
    Some(match p {
        PointsAt => return None,
        Above => Below,
        Below => Above,
        LeftOf => RightOf,
        RightOf => LeftOf,
        DirectlyAbove => DirectlyBelow,
        DirectlyBelow => DirectlyAbove,
        DirectlyLeftOf => DirectlyRightOf,
        DirectlyRightOf => DirectlyLeftOf,
        Larger => Smaller,
        Smaller => Larger,
        symmetric @ (Touches | SameRow | SameColumn | SameSize | SameDirection
        | OppositeDirection) => symmetric,
    })
}

/// `env[i]` is the variable bound by the i-th enclosing binder.
fn name(env: &[Var], v: Var) -> String {
    match env.iter().rposition(|b| *b == v) {
        Some(i) => format!("v{i}"),
        None => format!("free{}", v.0),
    }
}

fn binder(env: &mut Vec<Var>, v: Var, body: &Formula, tag: &str, strict: bool) -> String {
    env.push(v);
    let s = format!("({tag} v{} {})", env.len() - 1, formula(body, env, strict));
    env.pop();
    s
}

fn flatten<'a>(f: &'a Formula, op: BinOp, out: &mut Vec<&'a Formula>) {
    match &f.kind {
        FormulaKind::Bin(o, a, b) if *o == op => {
            flatten(a, op, out);
            flatten(b, op, out);
        }
        _ => out.push(f),
    }
}

/// Whether `f` is `x != y` and a conjunct beside it is a relation between x and y
/// that never holds of a piece and itself, so implies it (`touches(x, y) & x != y`
/// is `touches(x, y)`).
fn implied_distinctness(f: &Formula, conjuncts: &[&Formula]) -> bool {
    let FormulaKind::Not(inner) = &f.kind else {
        return false;
    };
    let FormulaKind::Same(a, b) = inner.kind else {
        return false;
    };
    conjuncts.iter().any(|c| {
        matches!(c.kind, FormulaKind::Binary(p, c, d)
            if !p.is_reflexive_possible() && ((c, d) == (a, b) || (c, d) == (b, a)))
    })
}

fn formula(f: &Formula, env: &mut Vec<Var>, strict: bool) -> String {
    match &f.kind {
        FormulaKind::Bool(b) => b.to_string(),
        FormulaKind::Not(a) => match &a.kind {
            FormulaKind::Not(inner) if !strict => formula(inner, env, strict),
            _ => format!("(not {})", formula(a, env, strict)),
        },
        FormulaKind::Bin(op @ (BinOp::And | BinOp::Or), _, _) if !strict => {
            let mut parts = Vec::new();
            flatten(f, *op, &mut parts);
            if *op == BinOp::And {
                let all = parts.clone();
                parts.retain(|p| !implied_distinctness(p, &all));
            }
            let unit = if *op == BinOp::And { "true" } else { "false" };
            let mut texts: Vec<String> = parts
                .into_iter()
                .map(|p| formula(p, env, strict))
                .filter(|t| t != unit)
                .collect();
            texts.sort();
            texts.dedup();
            match texts.len() {
                0 => unit.to_string(),
                1 => texts.pop().unwrap_or_default(),
                _ => format!("({op:?} {})", texts.join(" ")),
            }
        }
        FormulaKind::Bin(BinOp::Implies, a, b)
            if !strict && matches!(a.kind, FormulaKind::Bool(true)) =>
        {
            formula(b, env, strict)
        }
        FormulaKind::Bin(op, a, b) => {
            format!(
                "({op:?} {} {})",
                formula(a, env, strict),
                formula(b, env, strict)
            )
        }
        FormulaKind::Forall(v, body) => binder(env, *v, body, "forall", strict),
        FormulaKind::Exists(v, body) => binder(env, *v, body, "exists", strict),
        FormulaKind::Unary(p, v) => format!("({} {})", p.name(), name(env, *v)),
        FormulaKind::Binary(p, a, b) => {
            let text = format!("({} {} {})", p.name(), name(env, *a), name(env, *b));
            match converse(*p).filter(|_| !strict) {
                Some(q) => text.min(format!(
                    "({} {} {})",
                    q.name(),
                    name(env, *b),
                    name(env, *a)
                )),
                None => text,
            }
        }
        FormulaKind::Same(a, b) => {
            let mut vs = [name(env, *a), name(env, *b)];
            if !strict {
                vs.sort();
            }
            format!("(same {} {})", vs[0], vs[1])
        }
        FormulaKind::Cmp(op, a, b) => {
            format!(
                "({} {} {})",
                op.symbol(),
                term(a, env, strict),
                term(b, env, strict)
            )
        }
        FormulaKind::Parity(p, t) => format!("({p:?} {})", term(t, env, strict)),
    }
}

fn term(t: &Term, env: &mut Vec<Var>, strict: bool) -> String {
    match &t.kind {
        TermKind::Int(n) => n.to_string(),
        TermKind::Count(_, body) if !strict && matches!(body.kind, FormulaKind::Bool(true)) => {
            "pieces".into()
        }
        TermKind::Count(v, body) => {
            env.push(*v);
            let s = format!("(count v{} {})", env.len() - 1, formula(body, env, strict));
            env.pop();
            s
        }
        TermKind::PipsSum(v, body) => {
            env.push(*v);
            let s = format!("(pips v{} {})", env.len() - 1, formula(body, env, strict));
            env.pop();
            s
        }
        TermKind::PipsOf(v) => format!("(pipsof {})", name(env, *v)),
        TermKind::Pieces => "pieces".into(),
        TermKind::Width => "width".into(),
        TermKind::Height => "height".into(),
        TermKind::Groups => "groups".into(),
        TermKind::Sizes => "sizes".into(),
        TermKind::Directions => "directions".into(),
        TermKind::Add(a, b) => format!("(+ {} {})", term(a, env, strict), term(b, env, strict)),
        TermKind::Sub(a, b) => format!("(- {} {})", term(a, env, strict), term(b, env, strict)),
        TermKind::Mul(k, a) => format!("(* {k} {})", term(a, env, strict)),
        TermKind::Mod(a, k) => format!("(% {} {k})", term(a, env, strict)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koan::{Koan, PieceSet};

    /// The rule that drops `x != y` beside a relation rests on this.
    #[test]
    fn only_the_reflexive_relations_hold_of_a_piece_and_itself() {
        for &p in PieceSet::Pyramids.pieces() {
            let k = Koan::new(PieceSet::Pyramids, [(0, 0, p)]).expect("one piece");
            let a = k.pieces()[0];
            for rel in BinaryPred::ALL {
                assert_eq!(rel.holds(a, a), rel.is_reflexive_possible(), "{rel:?}");
            }
        }
    }

    #[test]
    fn distinctness_beside_an_irreflexive_relation_is_implied() {
        use crate::lang::parse_symbolic;
        let same = |a: &str, b: &str| {
            let (a, b) = (parse_symbolic(a).unwrap(), parse_symbolic(b).unwrap());
            same_reading(&a.formula, &b.formula)
        };
        assert!(same(
            "exists x y. x != y & touches(x, y)",
            "exists x y. touches(y, x)"
        ));
        assert!(same(
            "exists x. count(y: y != x & large(y) & above(y, x)) = 2",
            "exists x. count(y: large(y) & below(x, y)) = 2"
        ));
        // Not beside a relation that can hold of a piece and itself, nor across `->`.
        assert!(!same(
            "exists x y. x != y & same_size(x, y)",
            "exists x y. same_size(x, y)"
        ));
        assert!(!same(
            "forall x y. y != x -> touches(x, y)",
            "forall x y. touches(x, y)"
        ));
    }

    #[test]
    fn converses_are_exact() {
        // Two pieces in every relative place within 3 x 3, every pair of pieces.
        for (dr, dc) in (-2..=2).flat_map(|r| (-2..=2).map(move |c| (r, c))) {
            if (dr, dc) == (0, 0) {
                continue;
            }
            for &p in PieceSet::Pyramids.pieces() {
                for &q in PieceSet::Pyramids.pieces() {
                    let k = Koan::new(PieceSet::Pyramids, [(2, 2, p), (2 + dr, 2 + dc, q)])
                        .expect("two distinct cells");
                    let (a, b) = (k.pieces()[0], k.pieces()[1]);
                    for rel in BinaryPred::ALL {
                        if let Some(conv) = converse(rel) {
                            assert_eq!(rel.holds(a, b), conv.holds(b, a), "{rel:?}");
                        }
                    }
                }
            }
        }
    }
}
