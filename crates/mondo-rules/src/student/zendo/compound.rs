//! Rules beyond the grammar: when no rule of the student's space agrees with every
//! structure on the table (the hidden pattern is one its grammar cannot say), it
//! believes the rules of two of its own joined by `and` or `or` that do.
//!
//! A rule `A and B` agrees with the table when `A` and `B` each hold on every
//! structure that obeys, and on every one that does not at least one of them fails;
//! `A or B` the other way round. So only the rules right on one side of the table
//! are paired, and a pair is kept when between them they get the other side right.
//! The pairs are found over the rules' verdicts on the table (one bit a structure),
//! the heaviest (shortest) first; each kept one is written in the umpire's English,
//! read back by the players' parser (what a guess of it says), and checked on every
//! structure of the table. Their fingerprints are those of their parts joined, so
//! equal meanings share a group as in the space.

use super::space::{Fingerprint, Hypothesis, PROBES, Space, prior};
use crate::koan::Koan;
use crate::lang::ast::{BinOp, Formula, FormulaKind};
use crate::lang::{self, CompiledPattern};
use std::collections::HashMap;

/// Rules of one side kept per pattern of verdicts, and patterns paired, heaviest first.
const PER_KEY: usize = 3;
const KEYS: usize = 1200;
/// Joined rules kept at most, and pairs of each kind weighed at most.
const KEPT: usize = 400;
const PAIRS: usize = 20_000;

/// One table word of verdict bits per hypothesis of the space: `bits[w][i]` holds
/// hypothesis `i`'s verdicts on table structures `64 w ..= 64 w + 63`.
pub type Verdicts = Vec<Vec<u64>>;

/// Rules joined from two of the space's that agree with every structure of `table`,
/// heaviest first, grouped by meaning (the groups after the space's). Empty when no
/// pair does.
pub fn join(space: &Space, verdicts: &Verdicts, table: &[(Koan, bool)]) -> Vec<Hypothesis> {
    let words = table.len().div_ceil(64);
    let mut pos = vec![0u64; words];
    for (j, (_, obeys)) in table.iter().enumerate() {
        if *obeys {
            pos[j / 64] |= 1 << (j % 64);
        }
    }
    let all: Vec<u64> = (0..words)
        .map(|w| {
            let n = (table.len() - 64 * w).min(64);
            if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
        })
        .collect();
    let neg: Vec<u64> = pos.iter().zip(&all).map(|(p, a)| !p & a).collect();
    let mut pairs: Vec<(f64, BinOp, usize, usize)> = Vec::new();
    for op in [BinOp::And, BinOp::Or] {
        // And: right on every structure that obeys; what it gets right of the others.
        // Or: right on every structure that does not; what it gets right of the others.
        let (must, cover) = match op {
            BinOp::And => (&pos, &neg),
            _ => (&neg, &pos),
        };
        let mut by_key: HashMap<Vec<u64>, Vec<usize>> = HashMap::new();
        for (i, _) in space.hypotheses.iter().enumerate() {
            // The structures whose verdict it gets right.
            let right: Vec<u64> = (0..words)
                .map(|w| !(verdicts[w][i] ^ pos[w]) & all[w])
                .collect();
            if right.iter().zip(must).any(|(r, m)| r & m != *m) {
                continue;
            }
            let key: Vec<u64> = right.iter().zip(cover).map(|(r, c)| r & c).collect();
            by_key.entry(key).or_default().push(i);
        }
        let mut keys: Vec<(Vec<u64>, Vec<usize>)> = by_key.into_iter().collect();
        for (_, members) in &mut keys {
            members.sort_by(|a, b| {
                let (a, b) = (&space.hypotheses[*a], &space.hypotheses[*b]);
                b.weight.total_cmp(&a.weight)
            });
            members.truncate(PER_KEY);
        }
        let heaviest = |m: &Vec<usize>| space.hypotheses[m[0]].weight;
        keys.sort_by(|a, b| {
            heaviest(&b.1)
                .total_cmp(&heaviest(&a.1))
                .then(a.0.cmp(&b.0))
        });
        keys.truncate(KEYS);
        let first = pairs.len();
        'pairs: for (x, (kx, mx)) in keys.iter().enumerate() {
            for (ky, my) in &keys[x + 1..] {
                if pairs.len() - first >= PAIRS {
                    break 'pairs;
                }
                if kx.iter().zip(ky).zip(cover).any(|((a, b), c)| a | b != *c) {
                    continue;
                }
                for &a in mx {
                    for &b in my {
                        let w = space.hypotheses[a].weight * space.hypotheses[b].weight;
                        pairs.push((w, op, a, b));
                    }
                }
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.2, a.3).cmp(&(b.2, b.3))));
    let mut out: Vec<Hypothesis> = Vec::new();
    let mut by_print: HashMap<Fingerprint, usize> = HashMap::new();
    let low = PROBES * 2 / 100;
    for (weight, op, a, b) in pairs {
        if out.len() >= KEPT {
            break;
        }
        let (ha, hb) = (&space.hypotheses[a], &space.hypotheses[b]);
        let (fa, fb) = (
            &space.groups[ha.group as usize],
            &space.groups[hb.group as usize],
        );
        let mut print: Fingerprint = [0; PROBES / 64];
        for (w, p) in print.iter_mut().enumerate() {
            *p = if op == BinOp::And {
                fa[w] & fb[w]
            } else {
                fa[w] | fb[w]
            };
        }
        let obeyed: u32 = print.iter().map(|p| p.count_ones()).sum();
        if (obeyed as usize) < low || obeyed as usize > PROBES - low {
            continue;
        }
        if let Some(first) = by_print.get(&print) {
            // An equal meaning is kept already: it weighs this one too.
            out[*first].weight += weight;
            continue;
        }
        let Some((text, compiled)) = joined(space, op, ha, hb, table) else {
            continue;
        };
        let group = (space.groups.len() + by_print.len()) as u32;
        by_print.insert(print, out.len());
        out.push(Hypothesis {
            text,
            words: ha.words.saturating_add(hb.words).saturating_add(1),
            compiled,
            weight: weight.max(prior(255)),
            group,
        });
    }
    out
}

/// `a OP b` in the umpire's English, read back as a player's guess would be, when it
/// reads and agrees with every structure of the table.
fn joined(
    space: &Space,
    op: BinOp,
    a: &Hypothesis,
    b: &Hypothesis,
    table: &[(Koan, bool)],
) -> Option<(String, CompiledPattern)> {
    let fa = lang::read_for(&a.text, space.set).ok()?.formula;
    let fb = lang::read_for(&b.text, space.set).ok()?.formula;
    let both = Formula::new(0..0, FormulaKind::Bin(op, Box::new(fa), Box::new(fb)));
    let text = lang::english_for(&both, space.set);
    let read = lang::read_for(&text, space.set).ok()?;
    let compiled = CompiledPattern::new(&read.formula);
    table
        .iter()
        .all(|(k, obeys)| compiled.evaluate(k) == *obeys)
        .then_some((text, compiled))
}
