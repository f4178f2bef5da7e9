//! The reference evaluator: the meaning of a formula on a structure, written for
//! clarity straight from the definitions in [`super::ast`]. Faster evaluators and the
//! SAT finder are tested against it.

use super::ast::{Formula, FormulaKind, Parity, Term, TermKind};
use crate::koan::Koan;

/// Does the structure obey the (closed) formula?
pub fn evaluate(formula: &Formula, koan: &Koan) -> bool {
    let mut env = [usize::MAX; 256];
    formula_holds(formula, koan, &mut env)
}

fn formula_holds(f: &Formula, koan: &Koan, env: &mut [usize; 256]) -> bool {
    match &f.kind {
        FormulaKind::Bool(b) => *b,
        FormulaKind::Not(a) => !formula_holds(a, koan, env),
        FormulaKind::Bin(op, a, b) => {
            let a = formula_holds(a, koan, env);
            let b = formula_holds(b, koan, env);
            op.holds(a, b)
        }
        FormulaKind::Forall(v, body) => with_each(koan, env, v.0, body).all(|b| b),
        FormulaKind::Exists(v, body) => with_each(koan, env, v.0, body).any(|b| b),
        FormulaKind::Unary(p, v) => p.holds(koan, bound(env, v.0)),
        FormulaKind::Binary(p, a, b) => {
            let pieces = koan.pieces();
            p.holds(pieces[bound(env, a.0)], pieces[bound(env, b.0)])
        }
        FormulaKind::Same(a, b) => bound(env, a.0) == bound(env, b.0),
        FormulaKind::Cmp(op, a, b) => op.holds(value(a, koan, env), value(b, koan, env)),
        FormulaKind::Parity(p, t) => {
            let even = value(t, koan, env).rem_euclid(2) == 0;
            even == (*p == Parity::Even)
        }
    }
}

fn bound(env: &[usize; 256], v: u8) -> usize {
    let i = env[v as usize];
    assert!(i != usize::MAX, "variable {v} used outside its quantifier");
    i
}

/// The truth of `body` for each piece bound to variable `v` in turn.
fn with_each<'a>(
    koan: &'a Koan,
    env: &'a mut [usize; 256],
    v: u8,
    body: &'a Formula,
) -> impl Iterator<Item = bool> + 'a {
    let saved = env[v as usize];
    let n = koan.len();
    let mut results = Vec::with_capacity(n);
    for i in 0..n {
        env[v as usize] = i;
        results.push(formula_holds(body, koan, env));
    }
    env[v as usize] = saved;
    results.into_iter()
}

fn value(t: &Term, koan: &Koan, env: &mut [usize; 256]) -> i64 {
    match &t.kind {
        TermKind::Int(n) => *n,
        TermKind::Count(v, f) => with_each(koan, env, v.0, f).filter(|b| *b).count() as i64,
        TermKind::PipsSum(v, f) => {
            let held: Vec<bool> = with_each(koan, env, v.0, f).collect();
            koan.pieces()
                .iter()
                .zip(held)
                .filter(|(_, h)| *h)
                .map(|((_, p), _)| p.pips() as i64)
                .sum()
        }
        TermKind::PipsOf(v) => koan.pieces()[bound(env, v.0)].1.pips() as i64,
        TermKind::Add(a, b) => value(a, koan, env).saturating_add(value(b, koan, env)),
        TermKind::Sub(a, b) => value(a, koan, env).saturating_sub(value(b, koan, env)),
        TermKind::Mul(k, a) => super::ast::times(*k, value(a, koan, env)),
        TermKind::Mod(a, k) => super::ast::remainder(value(a, koan, env), *k),
        global => global
            .global_value(koan)
            .expect("every other term is global"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koan::{Direction, Piece, PieceSet, Size};
    use crate::lang::ast::{BinaryPred, CmpOp, UnaryPred, Var};

    fn f(kind: FormulaKind) -> Formula {
        Formula::new(0..0, kind)
    }
    fn t(kind: TermKind) -> Term {
        Term::new(0..0, kind)
    }

    #[test]
    fn counts_pieces_pointing_at_another() {
        use Direction::*;
        use Size::*;
        // 1> .. 2<  /  .. .. 3^ : pieces 0 and 1 point at each other; 2 points at 1.
        let k = Koan::new(
            PieceSet::Pyramids,
            [
                (0, 0, Piece::new(Small, Right)),
                (0, 2, Piece::new(Medium, Left)),
                (1, 2, Piece::new(Large, Up)),
            ],
        )
        .unwrap();
        let (x, y) = (Var(0), Var(1));
        let points = f(FormulaKind::Exists(
            y,
            Box::new(f(FormulaKind::Binary(BinaryPred::PointsAt, x, y))),
        ));
        let count = t(TermKind::Count(x, Box::new(points)));
        assert!(evaluate(
            &f(FormulaKind::Cmp(
                CmpOp::Eq,
                count.clone(),
                t(TermKind::Int(3))
            )),
            &k
        ));
        assert!(evaluate(&f(FormulaKind::Parity(Parity::Odd, count)), &k));
        let large_pips = t(TermKind::PipsSum(
            x,
            Box::new(f(FormulaKind::Unary(UnaryPred::Large, x))),
        ));
        assert!(evaluate(
            &f(FormulaKind::Cmp(CmpOp::Eq, large_pips, t(TermKind::Int(3)))),
            &k
        ));
    }
}
