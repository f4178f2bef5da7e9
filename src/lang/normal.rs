//! Comparing readings: two formulas have the same reading when they are equal up to
//! variable names, the order and grouping of `and` / `or` operands, `true` conjuncts,
//! `false` disjuncts, double negation, `true -> F`, and `count(x: true)` vs `pieces`.
//! Every one of these rewrites keeps the meaning, so the same reading implies
//! equivalence (not conversely).

use super::ast::{BinOp, Formula, FormulaKind, Term, TermKind, Var};

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
            format!("({} {} {})", p.name(), name(env, *a), name(env, *b))
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
    }
}
