//! Saying patterns back (docs/patterns.md, "How it reads"): canonical English and the
//! exact symbolic form.
//!
//! [`symbolic`] prints any formula exactly: reading it back gives the same tree (up to
//! spans and variable names), with parentheses only where precedence needs them.
//!
//! [`english`] prints the shapes that the English reader produces as natural English
//! within the contract's grammar. A formula the grammar has no words for (a relation
//! whose subject is not the nearest piece, `pips(x)`, `true`, a variable pattern
//! English cannot say) is printed in the symbolic form, whole. Before English is
//! returned it is read back and compared with the formula ([`super::same_reading`]);
//! if the reading differs, the symbolic form is returned instead. So `parse(english(f))`
//! always means what `f` means. Of the readings it can say, the one with fewer words is
//! shown: a negated `and` / `or` is also said by De Morgan's law (`not every piece
//! points up or there are no small pieces`), read back and compared with that form.

use super::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Term, TermKind, UnaryPred, Var,
};
use super::english::parse_english;
use super::normal::{converse, same_reading};
use super::words::{adjective_word, say_number};
use crate::koan::PieceSet;

// ---------------------------------------------------------------------------------
// Symbolic.

/// The exact symbolic form of a formula.
pub fn symbolic(f: &Formula) -> String {
    let mut out = String::new();
    sym(f, 0, true, &mut out);
    out
}

/// Printed variable names: `x y z w u v`, then `x6`, `x7`...
pub fn var_name(v: Var) -> String {
    const NAMES: [&str; 6] = ["x", "y", "z", "w", "u", "v"];
    match NAMES.get(v.0 as usize) {
        Some(n) => (*n).to_string(),
        None => format!("x{}", v.0),
    }
}

/// `min`: the loosest operator allowed here without parentheses. `tail`: nothing
/// follows before the enclosing parenthesis or the end (a quantifier's body runs to
/// the right as far as it can, so elsewhere it needs parentheses).
fn sym(f: &Formula, min: u8, tail: bool, out: &mut String) {
    match &f.kind {
        FormulaKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        FormulaKind::Bin(op, a, b) => {
            let paren = op.level() < min;
            let tail = tail || paren;
            let (la, lb) = op.operand_levels();
            if paren {
                out.push('(');
            }
            sym(a, la, false, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            sym(b, lb, tail, out);
            if paren {
                out.push(')');
            }
        }
        FormulaKind::Not(a) => {
            if let FormulaKind::Same(x, y) = a.kind {
                out.push_str(&format!("{} != {}", var_name(x), var_name(y)));
            } else {
                out.push('!');
                sym(a, 6, tail, out);
            }
        }
        FormulaKind::Forall(..) | FormulaKind::Exists(..) => {
            if !tail {
                out.push('(');
            }
            let forall = matches!(f.kind, FormulaKind::Forall(..));
            out.push_str(if forall { "forall" } else { "exists" });
            let mut body = f;
            // `forall x y. F` for directly nested quantifiers of one kind.
            loop {
                match &body.kind {
                    FormulaKind::Forall(v, b) if forall => {
                        out.push_str(&format!(" {}", var_name(*v)));
                        body = b;
                    }
                    FormulaKind::Exists(v, b) if !forall => {
                        out.push_str(&format!(" {}", var_name(*v)));
                        body = b;
                    }
                    _ => break,
                }
            }
            out.push_str(". ");
            sym(body, 0, true, out);
            if !tail {
                out.push(')');
            }
        }
        FormulaKind::Unary(p, v) => out.push_str(&format!("{}({})", p.name(), var_name(*v))),
        FormulaKind::Binary(p, a, b) => {
            out.push_str(&format!("{}({}, {})", p.name(), var_name(*a), var_name(*b)))
        }
        FormulaKind::Same(a, b) => out.push_str(&format!("{} = {}", var_name(*a), var_name(*b))),
        FormulaKind::Cmp(op, a, b) => {
            sym_term(a, Place::Free, out);
            out.push_str(&format!(" {} ", op.symbol()));
            sym_term(b, Place::Free, out);
        }
        FormulaKind::Parity(p, t) => {
            out.push_str(if *p == Parity::Odd { "odd(" } else { "even(" });
            sym_term(t, Place::Free, out);
            out.push(')');
        }
    }
}

/// Where a term is printed, for its parentheses: `+`/`-` bind looser than `*`/`%`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Anywhere a whole term fits.
    Free,
    /// Right of `+` / `-` (sums are left associative).
    AfterSign,
    /// Left of `%`: a sum needs parentheses.
    BeforePercent,
    /// Right of `k *`: everything but a primary needs them (`2 * (3 * t)`).
    Factor,
}

fn sym_term(t: &Term, place: Place, out: &mut String) {
    let sum = matches!(t.kind, TermKind::Add(..) | TermKind::Sub(..));
    let product = matches!(t.kind, TermKind::Mul(..) | TermKind::Mod(..));
    let paren = match place {
        Place::Free => false,
        Place::AfterSign | Place::BeforePercent => sum,
        Place::Factor => sum || product,
    };
    if paren {
        out.push('(');
    }
    match &t.kind {
        TermKind::Int(n) => out.push_str(&n.to_string()),
        TermKind::Count(v, f) | TermKind::PipsSum(v, f) => {
            let name = if matches!(t.kind, TermKind::Count(..)) {
                "count"
            } else {
                "pips"
            };
            out.push_str(&format!("{name}({}: ", var_name(*v)));
            sym(f, 0, true, out);
            out.push(')');
        }
        TermKind::PipsOf(v) => out.push_str(&format!("pips({})", var_name(*v))),
        TermKind::Pieces => out.push_str("pieces"),
        TermKind::Width => out.push_str("width"),
        TermKind::Height => out.push_str("height"),
        TermKind::Groups => out.push_str("groups"),
        TermKind::Sizes => out.push_str("sizes"),
        TermKind::Directions => out.push_str("directions"),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            sym_term(a, Place::Free, out);
            out.push_str(if matches!(t.kind, TermKind::Add(..)) {
                " + "
            } else {
                " - "
            });
            sym_term(b, Place::AfterSign, out);
        }
        TermKind::Mul(k, a) => {
            out.push_str(&format!("{k} * "));
            sym_term(a, Place::Factor, out);
        }
        TermKind::Mod(a, k) => {
            sym_term(a, Place::BeforePercent, out);
            out.push_str(&format!(" % {k}"));
        }
    }
    if paren {
        out.push(')');
    }
}

// ---------------------------------------------------------------------------------
// English.

/// Canonical English for any formula (the symbolic form where English has no words
/// for it; see the module documentation).
pub fn english(f: &Formula) -> String {
    match natural_english(f) {
        Some(s) => s,
        None => symbolic(f),
    }
}

/// Canonical English for a game played with `set`: as [`english`], but calling the
/// pieces what the set calls them (`every arrow points up` in the arrows set; the
/// pyramids set keeps `piece`).
pub fn english_for(f: &Formula, set: PieceSet) -> String {
    let Some(s) = natural_english(f) else {
        return symbolic(f);
    };
    let named = match set {
        PieceSet::Pyramids => return s,
        PieceSet::Arrows => rename_pieces(&s, "arrow", "arrows"),
    };
    // The nouns are synonyms to the reader; checked all the same, as for `english`.
    let reads_same = parse_english(&named).is_ok_and(|back| same_reading(&back.formula, f));
    if reads_same { named } else { s }
}

/// Replaces the words `piece` / `pieces` (and an `a` before them, if the new noun
/// needs `an`).
fn rename_pieces(text: &str, one: &str, many: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let word_len = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        if word_len == 0 {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let noun = match &rest[..word_len] {
            "piece" => one,
            "pieces" => many,
            word => word,
        };
        if noun.starts_with(['a', 'e', 'i', 'o', 'u'])
            && let Some(before) = out.strip_suffix("a ")
            && !before.ends_with(|c: char| c.is_ascii_alphabetic())
        {
            out.truncate(before.len());
            out.push_str("an ");
        }
        out.push_str(noun);
        rest = &rest[word_len..];
    }
    out
}

/// Natural English for the formula, if the English grammar can say it and it reads
/// back the same.
pub fn natural_english(f: &Formula) -> Option<String> {
    // Said, and read back as the formula it was said from.
    let reads = |g: &Formula| {
        let (s, _) = sentence_at(g)?;
        let back = parse_english(&s).ok()?;
        same_reading(&back.formula, g).then_some(s)
    };
    let first = reads(f);
    // The shortest of the readings it can say: a negated `and` / `or` is also said
    // the other way round (`not (A and B)` as `not A or not B`, the same by De
    // Morgan's law), and the one with fewer words is shown.
    let other = de_morgan(f).and_then(|g| reads(&g));
    match (first, other) {
        (Some(a), Some(b)) if super::word_count(&b) < super::word_count(&a) => Some(b),
        (Some(a), _) => Some(a),
        (None, b) => b,
    }
}

/// `not (A and B)` as `not A or not B` (and `not (A or B)` as `not A and not B`).
fn de_morgan(f: &Formula) -> Option<Formula> {
    let FormulaKind::Not(inner) = &f.kind else {
        return None;
    };
    let FormulaKind::Bin(op, a, b) = &inner.kind else {
        return None;
    };
    let dual = match op {
        BinOp::And => BinOp::Or,
        BinOp::Or => BinOp::And,
        _ => return None,
    };
    let not = |g: &Formula| Formula::new(g.span.clone(), FormulaKind::Not(Box::new(g.clone())));
    Some(Formula::new(
        f.span.clone(),
        FormulaKind::Bin(dual, Box::new(not(a)), Box::new(not(b))),
    ))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `every piece points up`
    Singular,
    /// `pieces that point up`
    Plural,
    /// `pieces pointing up`
    Participle,
}

fn conjuncts(f: &Formula) -> Vec<&Formula> {
    let mut out = Vec::new();
    collect(f, BinOp::And, &mut out);
    out
}

fn collect<'a>(f: &'a Formula, op: BinOp, out: &mut Vec<&'a Formula>) {
    match &f.kind {
        // `the unique NP`: one phrase, not two conjuncts.
        FormulaKind::Bin(BinOp::And, a, b) if op == BinOp::And && is_unique_shape(a, b) => {
            out.push(f)
        }
        FormulaKind::Bin(o, a, b) if *o == op => {
            collect(a, op, out);
            collect(b, op, out);
        }
        FormulaKind::Bool(true) if op == BinOp::And => {}
        _ => out.push(f),
    }
}

/// Sentence levels, loosest first: iff 0, if-then 1, or 2, and 3, not/atomic 4.
/// `it is not the case that` negates the rest of its clause, so as a part of a
/// larger sentence it always takes parentheses.
fn sentence(f: &Formula, min: u8) -> Option<String> {
    let (s, lvl) = sentence_at(f)?;
    let wide = s.starts_with(WIDE_NOT);
    Some(if lvl < min || wide {
        format!("({s})")
    } else {
        s
    })
}

const WIDE_NOT: &str = "it is not the case that ";

fn sentence_at(f: &Formula) -> Option<(String, u8)> {
    if let Some(s) = number_choice(f) {
        return Some((s, 4));
    }
    Some(match &f.kind {
        FormulaKind::Bin(BinOp::Iff, a, b) => (
            format!("{} if and only if {}", sentence(a, 0)?, sentence(b, 1)?),
            0,
        ),
        FormulaKind::Bin(BinOp::Implies, a, b) => (
            format!("if {} then {}", sentence(a, 2)?, sentence(b, 1)?),
            1,
        ),
        FormulaKind::Bin(BinOp::Or, a, b) => {
            (format!("{} or {}", sentence(a, 2)?, sentence(b, 3)?), 2)
        }
        FormulaKind::Bin(BinOp::Xor, a, b) => (
            format!(
                "either {} or {} but not both",
                sentence(a, 3)?,
                sentence(b, 3)?
            ),
            2,
        ),
        FormulaKind::Bin(BinOp::And, a, b) => match the_unique(a, b) {
            Some(s) => (s, 4),
            None => (format!("{} and {}", sentence(a, 3)?, sentence(b, 4)?), 3),
        },
        FormulaKind::Not(a) => (negation(a)?, 4),
        _ => (atomic(f)?, 4),
    })
}

/// `t = 3 | t = 4` ("three or four") and `t >= 2 & t <= 4` ("at least two and at
/// most four"), for one term: said once.
fn number_choice(f: &Formula) -> Option<String> {
    fn cmp(g: &Formula) -> Option<(CmpOp, &Term, i64)> {
        match &g.kind {
            FormulaKind::Cmp(op, t, n) => match n.kind {
                TermKind::Int(n) if n >= 0 => Some((*op, t, n)),
                _ => None,
            },
            _ => None,
        }
    }
    let key = |t: &Term| {
        let mut out = String::new();
        sym_term(t, Place::Free, &mut out);
        out
    };
    let (numbers, t) = match &f.kind {
        FormulaKind::Bin(BinOp::Or, ..) => {
            let mut parts = Vec::new();
            collect(f, BinOp::Or, &mut parts);
            let cmps: Vec<_> = parts.iter().map(|p| cmp(p)).collect::<Option<Vec<_>>>()?;
            let (_, t, _) = cmps[0];
            if cmps
                .iter()
                .any(|(op, u, _)| *op != CmpOp::Eq || key(u) != key(t))
            {
                return None;
            }
            let words: Vec<String> = cmps.iter().map(|(_, _, n)| say_number(*n)).collect();
            let (last, init) = words.split_last()?;
            (format!("{} or {last}", init.join(", ")), t)
        }
        FormulaKind::Bin(BinOp::And, a, b) => {
            let ((CmpOp::Ge, t, lo), (CmpOp::Le, u, hi)) = (cmp(a)?, cmp(b)?) else {
                return None;
            };
            if key(t) != key(u) {
                return None;
            }
            (
                format!("at least {} and at most {}", say_number(lo), say_number(hi)),
                t,
            )
        }
        _ => return None,
    };
    match &t.kind {
        TermKind::Count(x, body) => {
            let n = np(*x, Some(body), Form::Plural)?;
            let exactly = if numbers.starts_with("at ") {
                ""
            } else {
                "exactly "
            };
            Some(format!("there are {exactly}{numbers} {n}"))
        }
        _ => Some(format!("{} is {numbers}", term(t)?)),
    }
}

fn negation(a: &Formula) -> Option<String> {
    match &a.kind {
        FormulaKind::Exists(x, body) => {
            return quantified("there are no", "no", *x, body, Form::Plural);
        }
        FormulaKind::Parity(p, t) if !matches!(t.kind, TermKind::Count(..)) => {
            return Some(format!("{} is not {}", term(t)?, parity_word(*p)));
        }
        FormulaKind::Cmp(CmpOp::Eq, t, one)
            if matches!(t.kind, TermKind::Groups) && matches!(one.kind, TermKind::Int(1)) =>
        {
            return Some("the structure is not connected".into());
        }
        _ => {}
    }
    let inner = sentence(a, 4)?;
    Some(if inner.starts_with("every ") {
        format!("not {inner}")
    } else {
        format!("{WIDE_NOT}{inner}")
    })
}

fn parity_word(p: Parity) -> &'static str {
    match p {
        Parity::Odd => "odd",
        Parity::Even => "even",
    }
}

/// `count(x: R) = 1 & exists x. ...`, the shape of `the unique`.
fn is_unique_shape(a: &Formula, b: &Formula) -> bool {
    let FormulaKind::Cmp(CmpOp::Eq, t, one) = &a.kind else {
        return false;
    };
    matches!(
        (&t.kind, &one.kind),
        (TermKind::Count(..), TermKind::Int(1))
    ) && matches!(b.kind, FormulaKind::Exists(..))
}

/// `Count(x, R) = 1 & Exists(x, R & V)`: "the unique NP VP".
fn the_unique(a: &Formula, b: &Formula) -> Option<String> {
    let FormulaKind::Cmp(CmpOp::Eq, t, one) = &a.kind else {
        return None;
    };
    let (TermKind::Count(x, r), TermKind::Int(1)) = (&t.kind, &one.kind) else {
        return None;
    };
    let FormulaKind::Exists(y, body) = &b.kind else {
        return None;
    };
    // Split body into the restriction R (the same conjuncts as r) and the rest V.
    let r_text = np(*x, Some(r), Form::Singular)?;
    let mut rest = Vec::new();
    let r_parts: Vec<String> = conjuncts(r).iter().map(|c| same_key(c, *x)).collect();
    let mut matched = 0;
    for c in conjuncts(body) {
        if matched < r_parts.len() && r_parts.contains(&same_key(c, *y)) {
            matched += 1;
        } else {
            rest.push(c);
        }
    }
    if matched != r_parts.len() || rest.is_empty() {
        return None;
    }
    let vp_text = vp_conj(*y, &rest, Form::Singular)?;
    Some(format!("the unique {r_text} {vp_text}"))
}

/// A key that identifies a conjunct about `x` regardless of the variable's index.
fn same_key(f: &Formula, x: Var) -> String {
    symbolic(&rename(f, x))
}

/// The formula with variable `x` renamed to a reserved index, for comparisons.
fn rename(f: &Formula, x: Var) -> Formula {
    let r = |v: Var| if v == x { Var(u8::MAX) } else { v };
    let kind = match &f.kind {
        FormulaKind::Unary(p, v) => FormulaKind::Unary(*p, r(*v)),
        FormulaKind::Binary(p, a, b) => FormulaKind::Binary(*p, r(*a), r(*b)),
        FormulaKind::Same(a, b) => FormulaKind::Same(r(*a), r(*b)),
        FormulaKind::Not(a) => FormulaKind::Not(Box::new(rename(a, x))),
        FormulaKind::Bin(op, a, b) => {
            FormulaKind::Bin(*op, Box::new(rename(a, x)), Box::new(rename(b, x)))
        }
        // Deeper structure keeps its own indices; the printer will compare texts.
        other => other.clone(),
    };
    Formula::new(f.span.clone(), kind)
}

fn atomic(f: &Formula) -> Option<String> {
    match &f.kind {
        FormulaKind::Exists(x, body) => quantified("there is a", "some", *x, body, Form::Singular),
        FormulaKind::Forall(x, body) => forall(*x, body),
        FormulaKind::Cmp(op, a, b) => comparison(*op, a, b),
        FormulaKind::Parity(p, t) => match &t.kind {
            TermKind::Count(x, body) => {
                let det = format!("an {} number of", parity_word(*p));
                quantified(&format!("there is {det}"), &det, *x, body, Form::Plural)
            }
            _ => Some(format!("{} is {}", term(t)?, parity_word(*p))),
        },
        _ => None,
    }
}

/// `Det NP VP` for a body that one noun phrase cannot say: its last `or` becomes
/// the verb phrase (a relative clause cannot group `or` against other conjuncts).
fn det_np_vp(det: &str, x: Var, body: &Formula, form: Form) -> Option<String> {
    let parts = conjuncts(body);
    let i = parts.iter().rposition(|p| {
        matches!(p.kind, FormulaKind::Bin(BinOp::Or, ..)) && !is_direction_list(x, p)
    })?;
    let rest = without(&parts, i);
    let noun = np(x, rebuild(&rest).as_ref(), form)?;
    Some(format!("{det} {noun} {}", vp(x, parts[i], form)?))
}

fn forall(x: Var, body: &Formula) -> Option<String> {
    if let Some(s) = pairwise_collective(x, body) {
        return Some(s);
    }
    let (r, v) = match &body.kind {
        FormulaKind::Bin(BinOp::Implies, r, v) => (Some(&**r), &**v),
        _ => (None, body),
    };
    // `every piece does not point up` is ambiguous (docs/patterns.md, "Scope of
    // `not`"): a negated verb is said as `no piece points up`.
    if let Some(p) = negated(v) {
        let some = match r {
            Some(r) => Formula::new(
                body.span.clone(),
                FormulaKind::Bin(BinOp::And, Box::new(r.clone()), Box::new(p)),
            ),
            None => p,
        };
        let exists = Formula::new(body.span.clone(), FormulaKind::Exists(x, Box::new(some)));
        return negation(&exists);
    }
    if let Some(r) = r
        && let (Some(n), Some(vp)) = (np(x, Some(r), Form::Singular), vp(x, v, Form::Singular))
    {
        return Some(format!("every {n} {vp}"));
    }
    Some(format!("every piece {}", vp(x, body, Form::Singular)?))
}

/// What a negated verb phrase denies (`!up(x)`: `up(x)`; `!a & !b`: `a | b`), if it
/// is one.
fn negated(v: &Formula) -> Option<Formula> {
    let denied = conjuncts(v)
        .into_iter()
        .map(|c| match &c.kind {
            FormulaKind::Not(p) => Some((**p).clone()),
            _ => None,
        })
        .collect::<Option<Vec<Formula>>>()?;
    denied.into_iter().reduce(|a, b| {
        Formula::new(
            v.span.clone(),
            FormulaKind::Bin(BinOp::Or, Box::new(a), Box::new(b)),
        )
    })
}

/// `forall x. R(x) -> forall y. R(y) -> same_direction(x, y)` and kin.
fn pairwise_collective(x: Var, body: &Formula) -> Option<String> {
    let FormulaKind::Bin(BinOp::Implies, rx, inner) = &body.kind else {
        return None;
    };
    let FormulaKind::Forall(y, inner) = &inner.kind else {
        return None;
    };
    let FormulaKind::Bin(BinOp::Implies, ry, p) = &inner.kind else {
        return None;
    };
    let FormulaKind::Binary(pred, a, b) = p.kind else {
        return None;
    };
    if (a, b) != (x, *y) {
        return None;
    }
    let words = collective_words(pred)?;
    let nx = np(x, Some(rx), Form::Plural)?;
    (np(*y, Some(ry), Form::Plural)? == nx).then(|| format!("all {nx} {words}"))
}

fn collective_words(pred: BinaryPred) -> Option<&'static str> {
    Some(match pred {
        BinaryPred::SameDirection => "point the same direction",
        BinaryPred::SameSize => "are the same size",
        BinaryPred::SameRow => "are in the same row",
        BinaryPred::SameColumn => "are in the same column",
        _ => return None,
    })
}

fn comparison(op: CmpOp, a: &Term, b: &Term) -> Option<String> {
    if let Some(s) = arithmetic(op, a, b) {
        return Some(s);
    }
    match (&a.kind, &b.kind) {
        (TermKind::Count(x, body), TermKind::Int(n))
            if *n >= 0 && !(op == CmpOp::Ge && *n == 1) =>
        {
            let Some(det) = count_det(op) else {
                return general_comparison(op, a, b);
            };
            let (verb, form) = if *n == 1 {
                ("is", Form::Singular)
            } else {
                ("are", Form::Plural)
            };
            let det = format!("{det} {}", say_number(*n));
            return quantified(&format!("there {verb} {det}"), &det, *x, body, form);
        }
        (TermKind::Count(x, p), TermKind::Count(y, q)) => {
            let (np_a, np_b) = (
                np(*x, Some(p), Form::Plural)?,
                np(*y, Some(q), Form::Plural)?,
            );
            match op {
                CmpOp::Gt => return Some(format!("there are more {np_a} than {np_b}")),
                CmpOp::Lt => return Some(format!("there are fewer {np_a} than {np_b}")),
                CmpOp::Eq => return Some(format!("there are as many {np_a} as {np_b}")),
                _ => {}
            }
        }
        (global, TermKind::Int(1)) if op == CmpOp::Eq => {
            let s = match global {
                TermKind::Groups => Some("the structure is connected"),
                TermKind::Directions => Some("all pieces point the same direction"),
                TermKind::Sizes => Some("all pieces are the same size"),
                TermKind::Height => Some("all pieces are in the same row"),
                TermKind::Width => Some("all pieces are in the same column"),
                _ => None,
            };
            if let Some(s) = s {
                return Some(s.into());
            }
        }
        _ => {}
    }
    general_comparison(op, a, b)
}

/// Comparisons people say with multiples: `there are twice as many A as B`, `more
/// than half of the pieces point up`, `the total pips is a multiple of three`.
fn arithmetic(op: CmpOp, a: &Term, b: &Term) -> Option<String> {
    match (&a.kind, &b.kind) {
        (TermKind::Mod(t, k), TermKind::Int(0))
            if matches!(op, CmpOp::Eq | CmpOp::Ne) && *k > 0 =>
        {
            let not = if op == CmpOp::Ne { " not" } else { "" };
            Some(format!(
                "{} is{not} a multiple of {}",
                term(t)?,
                say_number(*k)
            ))
        }
        (TermKind::Count(x, p), TermKind::Mul(k, t)) if *k >= 2 => {
            let TermKind::Count(y, q) = &t.kind else {
                return None;
            };
            let times = if *k == 2 {
                "twice".to_string()
            } else {
                format!("{} times", say_number(*k))
            };
            Some(format!(
                "there are {}{times} as many {} as {}",
                as_many_det(op)?,
                np(*x, Some(p), Form::Plural)?,
                np(*y, Some(q), Form::Plural)?
            ))
        }
        (TermKind::Mul(2, t), TermKind::Count(y, whole)) => {
            let TermKind::Count(x, part) = &t.kind else {
                return None;
            };
            half_of(op, *x, part, *y, whole).or_else(|| {
                Some(format!(
                    "there are {}half as many {} as {}",
                    as_many_det(op)?,
                    np(*x, Some(part), Form::Plural)?,
                    np(*y, Some(whole), Form::Plural)?
                ))
            })
        }
        _ => None,
    }
}

/// `2 * count(x: R & V) op count(y: R)`: "more than half of the R V".
fn half_of(op: CmpOp, x: Var, part: &Formula, y: Var, whole: &Formula) -> Option<String> {
    let det = match op {
        CmpOp::Eq => "half of the",
        CmpOp::Ge => "at least half of the",
        CmpOp::Le => "at most half of the",
        CmpOp::Gt => "more than half of the",
        CmpOp::Lt => "fewer than half of the",
        CmpOp::Ne => return None,
    };
    let keys: Vec<String> = conjuncts(whole).iter().map(|c| same_key(c, y)).collect();
    let mut matched = 0;
    let mut rest = Vec::new();
    for c in conjuncts(part) {
        if matched < keys.len() && keys.contains(&same_key(c, x)) {
            matched += 1;
        } else {
            rest.push(c);
        }
    }
    if matched != keys.len() || rest.is_empty() {
        return None;
    }
    let noun = np(y, Some(whole), Form::Plural)?;
    Some(format!("{det} {noun} {}", vp_conj(x, &rest, Form::Plural)?))
}

/// Before `as many`: how the counts compare.
fn as_many_det(op: CmpOp) -> Option<&'static str> {
    Some(match op {
        CmpOp::Eq => "",
        CmpOp::Ge => "at least ",
        CmpOp::Le => "at most ",
        CmpOp::Gt => "more than ",
        CmpOp::Lt => "fewer than ",
        CmpOp::Ne => return None,
    })
}

/// The determiner that says a count compares so with a number (`!=` has none).
fn count_det(op: CmpOp) -> Option<&'static str> {
    Some(match op {
        CmpOp::Eq => "exactly",
        CmpOp::Ge => "at least",
        CmpOp::Le => "at most",
        CmpOp::Gt => "more than",
        CmpOp::Lt => "fewer than",
        CmpOp::Ne => return None,
    })
}

/// How English says a comparison between two number terms (`is at least`); the
/// tiles' printer says it the same way.
pub(crate) fn comparison_words(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "is",
        CmpOp::Ne => "is not",
        CmpOp::Lt => "is less than",
        CmpOp::Le => "is at most",
        CmpOp::Gt => "is more than",
        CmpOp::Ge => "is at least",
    }
}

fn general_comparison(op: CmpOp, a: &Term, b: &Term) -> Option<String> {
    let word = comparison_words(op);
    Some(format!("{} {word} {}", term(a)?, term(b)?))
}

fn term(t: &Term) -> Option<String> {
    Some(match &t.kind {
        TermKind::Int(n) if *n >= 0 => say_number(*n),
        TermKind::Mul(2, t) => format!("twice {}", term_factor(t)?),
        TermKind::Mul(k, t) if *k > 2 => format!("{} times {}", say_number(*k), term_factor(t)?),
        TermKind::Int(_) | TermKind::PipsOf(_) | TermKind::Mul(..) | TermKind::Mod(..) => {
            return None;
        }
        TermKind::Pieces => "the number of pieces".into(),
        TermKind::Count(x, body) => format!("the number of {}", np(*x, Some(body), Form::Plural)?),
        TermKind::PipsSum(x, body) => match body.kind {
            FormulaKind::Bool(true) => "the total pips".into(),
            _ => format!("the total pips of {}", np(*x, Some(body), Form::Plural)?),
        },
        TermKind::Width => "the width".into(),
        TermKind::Height => "the height".into(),
        TermKind::Groups => "the number of groups".into(),
        TermKind::Sizes => "the number of different sizes".into(),
        TermKind::Directions => "the number of different directions".into(),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            if matches!(b.kind, TermKind::Add(..) | TermKind::Sub(..)) {
                return None;
            }
            let sign = if matches!(t.kind, TermKind::Add(..)) {
                "+"
            } else {
                "-"
            };
            format!("{} {sign} {}", term(a)?, term(b)?)
        }
    })
}

/// A term that `twice` / `3 times` can take without grouping.
fn term_factor(t: &Term) -> Option<String> {
    match t.kind {
        TermKind::Add(..) | TermKind::Sub(..) | TermKind::Mul(..) => None,
        _ => term(t),
    }
}

/// A noun phrase for the pieces `x` with restriction `r`: adjectives, the noun and a
/// relative clause.
fn np(x: Var, r: Option<&Formula>, form: Form) -> Option<String> {
    np_with(x, r, form, false)
}

fn np_with(x: Var, r: Option<&Formula>, form: Form, other: bool) -> Option<String> {
    np_inner(x, r, form, other, true)
}

/// The phrase for a determiner-led sentence, shortest first: a participle relative
/// clause (`there is a piece pointing up`), then `Det NP VP` (`some piece is the same
/// size as another piece`), then a `that` clause, then an `or` as the verb phrase.
fn quantified(there: &str, det: &str, x: Var, body: &Formula, form: Form) -> Option<String> {
    np_inner(x, Some(body), form, false, false)
        .map(|n| format!("{there} {n}"))
        .or_else(|| {
            let (adjs, rest): (Vec<&Formula>, Vec<&Formula>) = conjuncts(body)
                .into_iter()
                .partition(|c| matches!(c.kind, FormulaKind::Unary(p, v) if v == x && adjective_word(p).is_some()));
            if rest.is_empty() {
                return None;
            }
            let noun = np(x, rebuild(&adjs).as_ref(), form)?;
            Some(format!("{det} {noun} {}", vp_conj(x, &rest, form)?))
        })
        .or_else(|| det_np_vp(det, x, body, form))
        .or_else(|| np(x, Some(body), form).map(|n| format!("{there} {n}")))
}

fn np_inner(x: Var, r: Option<&Formula>, form: Form, other: bool, that: bool) -> Option<String> {
    let mut adjs: Vec<&str> = Vec::new();
    if other {
        adjs.push("other");
    }
    let mut rest = Vec::new();
    for c in r.map(conjuncts).unwrap_or_default() {
        match c.kind {
            FormulaKind::Unary(p, v) if v == x && adjective_word(p).is_some() => {
                adjs.push(adjective_word(p)?);
            }
            _ => rest.push(c),
        }
    }
    let noun = if form == Form::Singular {
        "piece"
    } else {
        "pieces"
    };
    let mut s = adjs.join(" ");
    if !s.is_empty() {
        s.push(' ');
    }
    s.push_str(noun);
    if !rest.is_empty() {
        let relative = vp_conj(x, &rest, Form::Participle)
            .map(|p| format!(" {p}"))
            .or_else(|| {
                if !that {
                    return None;
                }
                let f = if form == Form::Singular {
                    Form::Singular
                } else {
                    Form::Plural
                };
                vp_conj(x, &rest, f)
                    .map(|p| format!(" that {p}"))
                    .or_else(|| joined_relatives(x, &rest, f))
            })?;
        s.push_str(&relative);
    }
    Some(s)
}

/// ` that VP and that VP ...`, one clause per conjunct, for conjuncts that one verb
/// phrase cannot join (an `or` beside others). A clause with a relative clause of its
/// own goes last, and there may be only one: the reader joins a following `and that`
/// to the nearest clause.
fn joined_relatives(x: Var, parts: &[&Formula], form: Form) -> Option<String> {
    if parts.len() < 2 {
        return None;
    }
    let mut clauses = parts
        .iter()
        .map(|p| vp(x, p, form).map(|t| (has_relative(&t), t)))
        .collect::<Option<Vec<_>>>()?;
    if clauses.iter().filter(|(nested, _)| *nested).count() > 1 {
        return None;
    }
    clauses.sort_by_key(|(nested, _)| *nested);
    let texts: Vec<String> = clauses.into_iter().map(|(_, t)| t).collect();
    Some(format!(" that {}", texts.join(" and that ")))
}

/// Whether a verb phrase's text has a relative clause (in its object).
fn has_relative(vp_text: &str) -> bool {
    vp_text
        .split_whitespace()
        .skip(1)
        .any(|w| matches!(w, "that" | "pointing" | "touching"))
}

/// Verb phrases joined by `and`, ordered so that the reader attaches them as meant:
/// negated ones after plain ones (`touch a piece and do not point up`), and those
/// whose object has a relative clause last.
fn vp_conj(x: Var, parts: &[&Formula], form: Form) -> Option<String> {
    let mut texts = Vec::new();
    for p in parts {
        // `and` binds tighter than `or` in a verb phrase, and there are no parentheses.
        if matches!(p.kind, FormulaKind::Bin(BinOp::Or, ..))
            && !is_direction_list(x, p)
            && parts.len() > 1
        {
            return None;
        }
        let t = vp(x, p, form)?;
        let nested = has_relative(&t);
        let negated = matches!(p.kind, FormulaKind::Not(_));
        texts.push(((nested, negated), t));
    }
    texts.sort_by_key(|(k, _)| *k);
    Some(
        texts
            .into_iter()
            .map(|(_, t)| t)
            .collect::<Vec<_>>()
            .join(" and "),
    )
}

fn direction_word(p: UnaryPred) -> Option<&'static str> {
    Some(match p {
        UnaryPred::Up => "up",
        UnaryPred::Down => "down",
        UnaryPred::Left => "left",
        UnaryPred::Right => "right",
        UnaryPred::Vertical => "vertically",
        UnaryPred::Horizontal => "horizontally",
        _ => return None,
    })
}

fn is_direction_list(x: Var, f: &Formula) -> bool {
    direction_list(x, f).is_some()
}

/// `up(x) | right(x) | down(x)`: "up, right or down".
fn direction_list(x: Var, f: &Formula) -> Option<String> {
    let mut parts = Vec::new();
    collect(f, BinOp::Or, &mut parts);
    let words: Vec<&str> = parts
        .iter()
        .map(|p| match p.kind {
            FormulaKind::Unary(d, v) if v == x => direction_word(d),
            _ => None,
        })
        .collect::<Option<_>>()?;
    Some(match words.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
        None => return None,
    })
}

/// Verb forms: (singular, plural, participle, base after `do not`).
const POINT: [&str; 4] = ["points", "point", "pointing", "point"];
const TOUCH: [&str; 4] = ["touches", "touch", "touching", "touch"];

fn verb(forms: [&str; 4], form: Form) -> &str {
    match form {
        Form::Singular => forms[0],
        Form::Plural => forms[1],
        Form::Participle => forms[2],
    }
}

fn copula(form: Form) -> Option<&'static str> {
    match form {
        Form::Singular => Some("is"),
        Form::Plural => Some("are"),
        Form::Participle => None,
    }
}

/// A verb phrase saying `f` of the piece `x`.
fn vp(x: Var, f: &Formula, form: Form) -> Option<String> {
    if let Some(list) = direction_list(x, f) {
        return Some(format!("{} {list}", verb(POINT, form)));
    }
    match &f.kind {
        FormulaKind::Unary(p, v) if *v == x => {
            let adj = adjective_word(*p)?;
            Some(format!("{} {adj}", copula(form)?))
        }
        FormulaKind::Bin(BinOp::And, a, b) if is_unique_shape(a, b) => relation(x, f, form),
        FormulaKind::Bin(BinOp::And, ..) => vp_conj(x, &conjuncts(f), form),
        FormulaKind::Bin(BinOp::Or, a, b) => {
            Some(format!("{} or {}", vp(x, a, form)?, vp(x, b, form)?))
        }
        FormulaKind::Not(a) => negated_vp(x, a, form),
        FormulaKind::Binary(..) => relation_to_it(x, f, form),
        _ => relation(x, f, form),
    }
}

fn negated_vp(x: Var, a: &Formula, form: Form) -> Option<String> {
    let positive = vp(x, a, Form::Singular)?;
    let (first, rest) = positive.split_once(' ')?;
    if first == "points" || first == "touches" {
        let base = if first == "points" {
            POINT[3]
        } else {
            TOUCH[3]
        };
        return Some(match form {
            Form::Singular => format!("does not {base} {rest}"),
            Form::Plural => format!("do not {base} {rest}"),
            Form::Participle => format!(
                "not {} {rest}",
                verb(if first == "points" { POINT } else { TOUCH }, form)
            ),
        });
    }
    if first == "is" {
        // Only a single complement: `is not small`, never `is not small or large`.
        if matches!(a.kind, FormulaKind::Bin(..)) {
            return None;
        }
        return Some(format!("{} not {rest}", copula(form)?));
    }
    None
}

/// A relation with a quantified object: "touches a small piece", "is above every
/// large piece", "points at exactly two other pieces", "is pointed at by a piece".
fn relation(x: Var, f: &Formula, form: Form) -> Option<String> {
    let (said, object) = object(x, f)?;
    Some(format!("{} {object}", rel_words(said, form)?))
}

/// The words of a relation before its object.
fn rel_words((pred, passive): Said, form: Form) -> Option<String> {
    if passive {
        return Some(match form {
            Form::Participle => "pointed at by".into(),
            _ => format!("{} pointed at by", copula(form)?),
        });
    }
    Some(match pred {
        BinaryPred::PointsAt => format!("{} at", verb(POINT, form)),
        BinaryPred::Touches => verb(TOUCH, form).to_string(),
        BinaryPred::SameDirection => format!("{} the same direction as", verb(POINT, form)),
        BinaryPred::OppositeDirection => {
            format!("{} the opposite direction to", verb(POINT, form))
        }
        other => {
            let phrase = match other {
                BinaryPred::Above => "above",
                BinaryPred::Below => "below",
                BinaryPred::LeftOf => "left of",
                BinaryPred::RightOf => "right of",
                BinaryPred::DirectlyAbove => "directly above",
                BinaryPred::DirectlyBelow => "directly below",
                BinaryPred::DirectlyLeftOf => "directly left of",
                BinaryPred::DirectlyRightOf => "directly right of",
                BinaryPred::SameRow => "in the same row as",
                BinaryPred::SameColumn => "in the same column as",
                BinaryPred::SameSize => "the same size as",
                BinaryPred::Larger => "larger than",
                BinaryPred::Smaller => "smaller than",
                _ => return None,
            };
            format!("{} {phrase}", copula(form)?)
        }
    })
}

/// A relation between `x` and a piece named before it, said with `it` (`points back
/// at it`, `is larger than it`). The reader takes `it` to be the one such piece, and
/// the read-back check confirms it.
fn relation_to_it(x: Var, f: &Formula, form: Form) -> Option<String> {
    let FormulaKind::Binary(p, a, b) = f.kind else {
        return None;
    };
    let said = match (a == x, b == x) {
        (true, false) => (p, false),
        (false, true) => match converse(p) {
            Some(q) => (q, false),
            None if p == BinaryPred::PointsAt => (p, true),
            None => return None,
        },
        _ => return None,
    };
    Some(format!("{} it", rel_words(said, form)?))
}

/// A relation as said from its subject: the predicate, and whether it is said in
/// the passive (`is pointed at by`, the one relation without a converse).
type Said = (BinaryPred, bool);

/// Recognises a quantified object of a relation whose subject is `x`; returns the
/// relation and the object's determiner phrase.
fn object(x: Var, f: &Formula) -> Option<(Said, String)> {
    match &f.kind {
        FormulaKind::Exists(y, body) => {
            let (pred, other, r) = split_object(x, *y, body)?;
            let det = if other { "another" } else { "a" };
            Some((
                pred,
                format!("{det} {}", np_with(*y, r.as_ref(), Form::Singular, false)?),
            ))
        }
        FormulaKind::Not(inner) => {
            let FormulaKind::Exists(y, body) = &inner.kind else {
                return None;
            };
            let (pred, other, r) = split_object(x, *y, body)?;
            Some((
                pred,
                format!("no {}", np_with(*y, r.as_ref(), Form::Singular, other)?),
            ))
        }
        FormulaKind::Forall(y, body) => {
            let (r, v) = match &body.kind {
                FormulaKind::Bin(BinOp::Implies, r, v) => (Some(r.as_ref()), v.as_ref()),
                _ => (None, body.as_ref()),
            };
            let pred = relation_of(x, *y, v)?;
            let parts: Vec<&Formula> = r.map(conjuncts).unwrap_or_default();
            // Without `y != x` the English object would read with it: no English.
            let (true, rest) = take_exclusion(x, *y, &parts) else {
                return None;
            };
            let r = rebuild(&rest);
            // `every other piece`: here the distinctness is what a reader must not miss.
            Some((
                pred,
                format!("every {}", np_with(*y, r.as_ref(), Form::Singular, true)?),
            ))
        }
        FormulaKind::Cmp(op, t, n) => {
            let (TermKind::Count(y, body), TermKind::Int(n)) = (&t.kind, &n.kind) else {
                return None;
            };
            if *n < 0 || (*op == CmpOp::Ge && *n == 1) {
                return None;
            }
            let det = count_det(*op)?;
            let (pred, other, r) = split_object(x, *y, body)?;
            let form = if *n == 1 {
                Form::Singular
            } else {
                Form::Plural
            };
            let noun = np_with(*y, r.as_ref(), form, other)?;
            Some((pred, format!("{det} {} {noun}", say_number(*n))))
        }
        // `the unique NP`: the count's restriction is the one said; the read-back
        // check in `natural_english` confirms it.
        // `other` says that the count leaves out the subject.
        FormulaKind::Bin(BinOp::And, a, b) if is_unique_shape(a, b) => {
            let (FormulaKind::Cmp(_, t, _), FormulaKind::Exists(y, body)) = (&a.kind, &b.kind)
            else {
                return None;
            };
            let TermKind::Count(z, among) = &t.kind else {
                return None;
            };
            let (other, _) = take_exclusion(x, *z, &conjuncts(among));
            let (pred, _, r) = split_object(x, *y, body)?;
            let noun = np_with(*y, r.as_ref(), Form::Singular, other)?;
            Some((pred, format!("the unique {noun}")))
        }
        FormulaKind::Parity(p, t) => {
            let TermKind::Count(y, body) = &t.kind else {
                return None;
            };
            let (pred, other, r) = split_object(x, *y, body)?;
            let noun = np_with(*y, r.as_ref(), Form::Plural, other)?;
            Some((pred, format!("an {} number of {noun}", parity_word(*p))))
        }
        _ => None,
    }
}

/// Splits the body of an object quantifier into the relation `pred(x, y)`, whether
/// to say `other`, and the object's own restriction. Every English object excludes
/// its subject, so `y != x` is dropped from the words; `other` is said only where the
/// relation could hold of a piece and itself (`the same size as another piece`).
/// Without `y != x` only a relation that cannot hold of a piece and itself can be
/// said (the exclusion adds nothing to it).
fn split_object(x: Var, y: Var, body: &Formula) -> Option<(Said, bool, Option<Formula>)> {
    let parts = conjuncts(body);
    // The relation to say: as written (`x` before `y`) rather than turned round,
    // active rather than passive, and the last one (the reader puts the verb's own
    // relation after the object's clauses).
    let rank = |p: &Formula| {
        let said = relation_of(x, y, p)?;
        let direct = matches!(p.kind, FormulaKind::Binary(_, a, _) if a == x);
        Some((usize::from(direct) * 2 + usize::from(!said.1), said))
    };
    let chosen = parts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| rank(p).map(|(r, said)| (r, i, said)))
        .max_by_key(|(r, i, _)| (*r, *i));
    let (_, at, pred) = chosen?;
    let rest = without(&parts, at);
    let (excluded, rest) = take_exclusion(x, y, &rest);
    let reflexive = pred.0.is_reflexive_possible();
    if reflexive && !excluded {
        return None;
    }
    Some((pred, reflexive, rebuild(&rest)))
}

/// `f` as a relation with subject `x` and object `y` (turning `below(y, x)` into
/// `above(x, y)`, and `points_at(y, x)` into "is pointed at by").
fn relation_of(x: Var, y: Var, f: &Formula) -> Option<Said> {
    match f.kind {
        FormulaKind::Binary(p, a, b) if (a, b) == (x, y) => Some((p, false)),
        FormulaKind::Binary(p, a, b) if (a, b) == (y, x) => match converse(p) {
            Some(q) => Some((q, false)),
            None => (p == BinaryPred::PointsAt).then_some((p, true)),
        },
        _ => None,
    }
}

/// Removes `y != x` from conjuncts; says whether it was there.
fn take_exclusion<'a>(x: Var, y: Var, parts: &[&'a Formula]) -> (bool, Vec<&'a Formula>) {
    let mut found = false;
    let mut rest = Vec::new();
    for p in parts {
        let is_ex = match &p.kind {
            FormulaKind::Not(inner) => matches!(inner.kind,
                FormulaKind::Same(a, b) if (a, b) == (x, y) || (a, b) == (y, x)),
            _ => false,
        };
        if is_ex && !found {
            found = true;
        } else {
            rest.push(*p);
        }
    }
    (found, rest)
}

/// The conjuncts but the one at `at`.
fn without<'a>(parts: &[&'a Formula], at: usize) -> Vec<&'a Formula> {
    let mut rest = parts.to_vec();
    rest.remove(at);
    rest
}

fn rebuild(parts: &[&Formula]) -> Option<Formula> {
    let mut it = parts.iter();
    let first = (*it.next()?).clone();
    Some(it.fold(first, |a, b| {
        Formula::new(
            a.span.clone(),
            FormulaKind::Bin(BinOp::And, Box::new(a), Box::new((*b).clone())),
        )
    }))
}
