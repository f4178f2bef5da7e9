mod finder_support;
use finder_support::*;
use mondo::finder::{self, Limits, SolverKind, Style};
use mondo::koan::PieceSet;
use mondo::lang::ast::{BinaryPred, CmpOp, TermKind, UnaryPred, Formula, BinOp};
use std::time::Instant;

fn cases() -> Vec<(&'static str, Formula, Formula, PieceSet)> {
    let p = PieceSet::Pyramids;
    let pipsum = pips(0, tru());
    let alt = add(add(count(0, tru()), count(0, not(un(UnaryPred::Small, 0)))), count(0, un(UnaryPred::Large, 0)));
    let touch_any = exists(0, exists(1, rel(BinaryPred::Touches, 0, 1)));
    let groups_lt = cmp(CmpOp::Lt, t(TermKind::Groups), t(TermKind::Pieces));
    let connected = global(TermKind::Groups, CmpOp::Eq, 1);
    let wh = cmp(CmpOp::Le, add(t(TermKind::Width), t(TermKind::Height)), add(t(TermKind::Pieces), int(1)));
    vec![
        ("pips two ways >= 30", cmp(CmpOp::Ge, pipsum.clone(), int(30)), cmp(CmpOp::Ge, alt.clone(), int(30)), p),
        ("pips two ways = 17", cmp(CmpOp::Eq, pipsum.clone(), int(17)), cmp(CmpOp::Eq, alt.clone(), int(17)), p),
        ("pips two ways odd", parity(mondo::lang::Parity::Odd, pipsum.clone()), parity(mondo::lang::Parity::Odd, alt.clone()), p),
        ("touch vs groups<pieces", touch_any.clone(), groups_lt.clone(), p),
        ("exactly one touching", cmp(CmpOp::Eq, count(0, exists(1, rel(BinaryPred::Touches, 0, 1))), int(1)), f(mondo::lang::FormulaKind::Bool(false)), p),
        ("connected -> w+h<=n+1", bin(BinOp::Implies, connected.clone(), wh.clone()), tru(), PieceSet::Arrows),
        ("connected -> w+h<=n+1 pyr", bin(BinOp::Implies, connected.clone(), wh.clone()), tru(), p),
        ("points at count sym", cmp(CmpOp::Ge, count(0, exists(1, rel(BinaryPred::PointsAt, 0, 1))), int(3)), cmp(CmpOp::Ge, count(0, exists(1, rel(BinaryPred::PointsAt, 1, 0))), int(3)), p),
        ("near miss 20", or(exists(0, un(UnaryPred::Small, 0)), global(TermKind::Pieces, CmpOp::Ge, 20)), exists(0, un(UnaryPred::Small, 0)), p),
        ("pips<=40 vs true", cmp(CmpOp::Le, pipsum.clone(), int(40)), tru(), p),
        ("largest exists", exists(0, un(UnaryPred::Largest, 0)), tru(), p),
        ("pips = 2n vs all medium", cmp(CmpOp::Eq, pipsum.clone(), add(t(TermKind::Pieces), t(TermKind::Pieces))), forall(0, un(UnaryPred::Medium, 0)), p),
        ("count touch pairs even", parity(mondo::lang::Parity::Even, count(0, exists(1, and(rel(BinaryPred::Touches,0,1), rel(BinaryPred::SameSize,0,1))))), tru(), p),
        ("groups<=pieces", cmp(CmpOp::Le, t(TermKind::Groups), t(TermKind::Pieces)), tru(), p),
    ]
}

#[test]
#[ignore]
fn measure() {
    for solver in [SolverKind::Cadical, SolverKind::Batsat] {
        for (name, h, g, set) in cases() {
            let limits = Limits { solver, conflicts: Some(300_000), ..Limits::default() };
            let t0 = Instant::now();
            let c = finder::compare_detailed(&h, &g, set, &[], Style::Simple, 0, &limits);
            let dt = t0.elapsed();
            let v = match &c.verdict { finder::Verdict::Equivalent => "EQ".to_string(), finder::Verdict::Counterexample(cx) => format!("CX {}p a{}", cx.koan.len(), cx.koan.area()), finder::Verdict::Undecided{reason} => reason.clone() };
            eprintln!("{solver:?} {name:32} {:>9.1} ms  {v}  {:?}", dt.as_secs_f64()*1000.0, c.stats);
        }
    }
}
