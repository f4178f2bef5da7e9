//! The things at once: a verb phrase that speaks of several things together (`all
//! pieces point the same direction`, `no two pieces touch`, `some pieces touch each
//! other`), said of pairs, and collectively.

use super::{
    BinOp, CmpOp, Det, DetS, F, FormulaKind, Logic, Np, Num, Parser, R, Var, Vocabulary, Vp,
    and_opt, bin, cmp, count, f, int, not, splice,
};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;

impl<V: Vocabulary> Parser<'_, V> {
    // -----------------------------------------------------------------------------
    // The pieces at once.

    /// `all pieces point the same direction`, `no two pieces touch`, `some pieces
    /// touch each other`, `the pieces are connected`: a verb phrase that speaks of
    /// several pieces at once, with its subject's determiner.
    pub(crate) fn group_sentence(&self, det: &DetS, np: &Np<V>, vp: &Vp<V>, span: Span) -> R<F<V>> {
        // `there is a green tile in the same row`: one piece cannot share a row on its
        // own, and the other piece is not named (another green tile? any tile?).
        if matches!(det.det, Det::Some) && np.plural == Some(false) && np.pair.is_empty() {
            let what = &self.src[vp.span()];
            return Err(ParsePatternError::new(
                det.span.start..vp.span().end,
                V::say(&format!(
                    "`{what}` speaks of two pieces at once, but `{}` names one: name the other piece (another one like it, or any piece?)",
                    &self.src[det.span.start..np.span.end]
                )),
            )
            .with_example(splice(
                self.src,
                &(np.span.end..np.span.end),
                &format!(" and a {}", V::NOUN),
            )));
        }
        self.group_sentence_of(det, np, None, vp, span)
    }

    /// `an A and a B <in the same row / adjacent to each other / ...>`: some A and
    /// some other piece that is a B, so related with each other.
    pub(crate) fn coordinated_group(
        &self,
        det: &DetS,
        a: &Np<V>,
        b: &Np<V>,
        vp: &Vp<V>,
        span: Span,
    ) -> R<F<V>> {
        self.group_sentence_of(det, a, Some(b), vp, span)
    }

    /// The group sentence; `np_y`, if given, is what the partner of each piece is
    /// (otherwise the same noun phrase).
    fn group_sentence_of(
        &self,
        det: &DetS,
        np: &Np<V>,
        np_y: Option<&Np<V>>,
        vp: &Vp<V>,
        span: Span,
    ) -> R<F<V>> {
        let refuse = |what: &str| {
            Err(ParsePatternError::new(
                det.span.clone(),
                format!("`{}` here: {what}", &self.src[det.span.clone()]),
            ))
        };
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let dom = self.dom();
        let outer = self.discourse.clone();
        let rx = self.lower_np(np, x, self.base + 2, &outer)?;
        let ry = self.lower_np(np_y.unwrap_or(np), y, self.base + 2, &outer)?;
        if np_y.is_some()
            && !(matches!(det.det, Det::Some)
                && matches!(vp, Vp::Collective(..) | Vp::Different(..) | Vp::Recip(..)))
        {
            return refuse(&V::say(
                "two kinds of pieces joined by `and` are read only as one of each (`a small piece and a large piece touch`)",
            ));
        }
        let distinct: F<V> = not(span.clone(), f(span.clone(), FormulaKind::Same(y, x)));
        // `adjacent tiles`: the two are so related.
        let pairc: Option<F<V>> = np
            .pair
            .iter()
            .map(|(r, at)| f(at.clone(), FormulaKind::Binary(*r, x, y)))
            .reduce(|a, b| bin(BinOp::And, a, b));
        let ry = and_opt(ry, pairc.clone());
        // Some other piece of the phrase relates to x.
        let partner = |rel: F<V>| {
            let body =
                and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(rel))).expect("present");
            f(span.clone(), FormulaKind::Exists(y, dom, body))
        };
        let each_x = |body: F<V>| and_opt(rx.clone(), Some(body)).expect("present");
        let exists_x = |body: F<V>| f(span.clone(), FormulaKind::Exists(x, dom, each_x(body)));
        let no_pair = |rel: F<V>| not(span.clone(), exists_x(partner(rel)));
        let relation = |pred: V::Binary, vspan: &Span| {
            let there = f(vspan.clone(), FormulaKind::Binary(pred, x, y));
            if V::symmetric(pred) {
                there
            } else {
                let back = f(vspan.clone(), FormulaKind::Binary(pred, y, x));
                bin(BinOp::And, there, back)
            }
        };
        match vp {
            Vp::NotAll(inner, nspan) => {
                if !matches!(det.det, Det::Every) {
                    return refuse(&V::say("`not all` is said of all the pieces"));
                }
                let all = self.group_sentence_of(det, np, np_y, inner, span.clone())?;
                Ok(not(nspan.start.min(span.start)..span.end, all))
            }
            Vp::Collective(kind, cspan) => {
                let same = f(cspan.clone(), FormulaKind::Binary(*kind, x, y));
                match &det.det {
                    Det::Every if pairc.is_some() => {
                        // `all adjacent tiles are the same colour`: every such pair.
                        Ok(not(
                            span.clone(),
                            exists_x(partner(not(span.clone(), same))),
                        ))
                    }
                    Det::Every => self.collective(*kind, np, cspan.clone(), span),
                    Det::No | Det::NoN(2) => Ok(no_pair(same)),
                    Det::NoN(n) => {
                        // Every piece shares it with fewer than n - 1 others.
                        let others = count(
                            y,
                            dom,
                            and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(same)))
                                .expect("present"),
                            cspan.clone(),
                        );
                        let few = cmp(
                            CmpOp::Lt,
                            others,
                            int(n - 1, det.span.clone()),
                            span.clone(),
                        );
                        let inner = match rx.clone() {
                            Some(r) => bin(BinOp::Implies, r, few),
                            None => few,
                        };
                        Ok(f(span.clone(), FormulaKind::Forall(x, dom, inner)))
                    }
                    Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => Ok(exists_x(partner(same))),
                    Det::Num(Num::Cmp(CmpOp::Ge, n)) if *n > 2 => {
                        let others = count(
                            y,
                            dom,
                            and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(same)))
                                .expect("present"),
                            cspan.clone(),
                        );
                        Ok(exists_x(cmp(
                            CmpOp::Ge,
                            others,
                            int(n - 1, det.span.clone()),
                            span.clone(),
                        )))
                    }
                    _ => refuse(&V::say(
                        "`the same ...` without `as` says how many pieces share it; say `at least two`, `all` or `no two`",
                    )),
                }
            }
            Vp::Different(kind, dspan) => {
                let same = f(dspan.clone(), FormulaKind::Binary(*kind, x, y));
                let differ = not(dspan.clone(), same);
                match &det.det {
                    Det::Every => Ok(no_pair(f(dspan.clone(), FormulaKind::Binary(*kind, x, y)))),
                    Det::No | Det::NoN(2) => Ok(no_pair(differ)),
                    Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => Ok(exists_x(partner(differ))),
                    _ => refuse(&V::say(
                        "`different ...` is said of all the pieces or of two of them; say `all` or `at least two`",
                    )),
                }
            }
            Vp::Recip(pred, rspan) => {
                let rel = relation(*pred, rspan);
                match &det.det {
                    // Every two of them (three pieces can never all touch), each
                    // with another, or all in one group? A person could mean any.
                    Det::Every => Err(ParsePatternError::new(
                        rspan.clone(),
                        V::say("this could mean every two of them, each with some other one, or all of them in one group: say which"),
                    )
                    .with_help(
                        V::say("e.g. `every piece touches another piece`, `no two pieces touch`, `the pieces are connected`"),
                    )),
                    Det::No | Det::NoN(2) => Ok(no_pair(rel)),
                    // Two that touch each other: some pair does.
                    Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => Ok(exists_x(partner(rel))),
                    Det::NoN(_) | Det::Only | Det::Half(_) | Det::TheUnique => refuse(
                        &V::say("`each other` is said of two pieces at a time; say `no two`, `some` or a number"),
                    ),
                    Det::Num(Num::Cmp(CmpOp::Ge, n)) if *n >= 3 => {
                        if !V::cluster(*pred, *n) {
                            let fewer = (2..*n).rev().find(|k| V::cluster(*pred, *k)).unwrap_or(2);
                            return refuse(&V::say(
                                "more than three pieces relating to each other could form a line, a ring or a cluster: say it of two or three at a time",
                            ))
                            .map_err(|e| {
                                e.with_example(splice(
                                    self.src,
                                    &det.span,
                                    &crate::lang::words::say_number(fewer),
                                ))
                            });
                        }
                        // Three that touch each other: one of them touches the other two.
                        let others = count(
                            y,
                            dom,
                            and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(rel)))
                                .expect("present"),
                            rspan.clone(),
                        );
                        Ok(exists_x(cmp(
                            CmpOp::Ge,
                            others,
                            int(n - 1, det.span.clone()),
                            span.clone(),
                        )))
                    }
                    _ => {
                        // `exactly two tiles of the same colour are adjacent`: two
                        // tiles, or two pairs?
                        if let Some((r, _)) = np.pair.first() {
                            return Err(V::pair_refusal(*r, det.span.start..np.span.end));
                        }
                        // Count the pieces that have such a partner.
                        let plain = Np::all(np.span.clone());
                        let body = each_x(partner(rel));
                        let counted = body.respan(span.clone());
                        self.quantify_lowered(
                            det,
                            &plain,
                            x.0,
                            None,
                            Some(counted),
                            span,
                            &outer,
                            dom,
                        )
                    }
                }
            }
            Vp::CountOf(c, num, cspan) => {
                if !matches!(det.det, Det::Every | Det::Some) || !np.is_plain() {
                    return refuse(&V::say(
                        "this is said of all the pieces at once (`the pieces point in two directions`)",
                    ));
                }
                Ok(num.holds_of(V::counted_term(self, *c, cspan.clone()), span))
            }
            Vp::Groups(num, gspan) => {
                if !matches!(det.det, Det::Every) || !np.is_plain() {
                    return refuse(&V::say(
                        "how many groups there are is said of all the pieces (`the pieces are connected`)",
                    ));
                }
                let Some(groups) = V::groups(gspan.clone()) else {
                    return refuse(&V::say("groups are not counted here"));
                };
                Ok(num.holds_of(groups, span))
            }
            _ => unreachable!("only group verb phrases come here"),
        }
    }

    /// `two adjacent tiles are red`, `there are two tiles of the same colour`, `no two
    /// tiles side by side are red`: a noun phrase that speaks of pairs so related, each
    /// of them doing the verb phrase (or, for one that speaks of them at once, the
    /// pair doing it).
    pub(crate) fn pair_sentence(
        &self,
        det: &DetS,
        np: &Np<V>,
        vp: Option<&Vp<V>>,
        span: Span,
    ) -> R<F<V>> {
        if let Some(vp) = vp.filter(|v| v.is_group()) {
            return self.group_sentence(det, np, vp, span);
        }
        let (rel, at) = np.pair.first().cloned().expect("a noun phrase of pairs");
        // The relation that fails to hang together as a cluster, if one does.
        let cluster = |n: i64| np.pair.iter().all(|(r, _)| V::cluster(*r, n));
        let failing = |n: i64| {
            np.pair
                .iter()
                .find(|(r, _)| !V::cluster(*r, n))
                .map_or(rel, |(r, _)| *r)
        };
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let d = self.base + 2;
        let dom = self.dom();
        let outer = self.discourse.clone();
        let mut one = np.clone();
        one.pair = Vec::new();
        let body = |z: Var| -> R<Option<F<V>>> {
            let r = self.lower_np(&one, z, d, &outer)?;
            let v = match vp {
                Some(v) => Some(self.lower_vp(v, z, d, &outer)?),
                None => None,
            };
            Ok(and_opt(r, v))
        };
        let (bx, by) = (body(x)?, body(y)?);
        let rels: F<V> = np
            .pair
            .iter()
            .map(|(r, at)| f(at.clone(), FormulaKind::Binary(*r, x, y)))
            .reduce(|a, b| bin(BinOp::And, a, b))
            .expect("a noun phrase of pairs");
        let related: F<V> = bin(
            BinOp::And,
            not(at.clone(), f(at.clone(), FormulaKind::Same(y, x))),
            rels.clone(),
        );
        let exists_pair = |bx: Option<F<V>>, by: Option<F<V>>| {
            let inner = and_opt(and_opt(Some(related.clone()), bx), by).expect("present");
            let inner = f(span.clone(), FormulaKind::Exists(y, dom, inner));
            f(span.clone(), FormulaKind::Exists(x, dom, inner))
        };
        // `n` of them, related: one of them related to at least n - 1 others.
        let one_related_to_others = |n: i64, bx: Option<F<V>>, by: Option<F<V>>| {
            let others = count(
                y,
                dom,
                and_opt(Some(related.clone()), by).expect("present"),
                at.clone(),
            );
            let enough = cmp(
                CmpOp::Ge,
                others,
                int(n - 1, det.span.clone()),
                span.clone(),
            );
            let inner = and_opt(bx, Some(enough)).expect("present");
            f(span.clone(), FormulaKind::Exists(x, dom, inner))
        };
        Ok(match &det.det {
            Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => exists_pair(bx, by),
            Det::No | Det::NoN(2) => not(span.clone(), exists_pair(bx, by)),
            Det::NoN(n) if cluster(*n) => not(span.clone(), one_related_to_others(*n, bx, by)),
            Det::Only if vp.is_none() && cluster(i64::MAX) => {
                // `only tiles of the same colour`: every two of them are so related.
                let (rx, ry) = (
                    bx.unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(true))),
                    by,
                );
                let inner = match ry {
                    Some(ry) => bin(BinOp::Implies, ry, rels.clone()),
                    None => rels.clone(),
                };
                let inner = f(span.clone(), FormulaKind::Forall(y, dom, inner));
                let inner = bin(BinOp::Implies, rx, inner);
                f(span.clone(), FormulaKind::Forall(x, dom, inner))
            }
            Det::Every => {
                // Every such pair: both do it.
                let both =
                    and_opt(bx, by).unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(true)));
                let inner = bin(BinOp::Implies, related.clone(), both);
                let inner = f(span.clone(), FormulaKind::Forall(y, dom, inner));
                f(span.clone(), FormulaKind::Forall(x, dom, inner))
            }
            Det::Num(Num::Cmp(CmpOp::Ge, n)) if *n >= 3 => {
                if !cluster(*n) {
                    return Err(V::pair_refusal(failing(*n), det.span.start..np.span.end));
                }
                one_related_to_others(*n, bx, by)
            }
            _ => return Err(V::pair_refusal(failing(2), det.span.start..np.span.end)),
        })
    }

    /// `all NP point the same direction` and kin.
    pub(crate) fn collective(
        &self,
        kind: V::Binary,
        np: &Np<V>,
        cspan: Span,
        span: Span,
    ) -> R<F<V>> {
        if np.is_plain()
            && self.within.is_none()
            && let Some(term) = V::collective_term(kind, cspan.clone())
        {
            return Ok(cmp(CmpOp::Eq, term, int(1, cspan), span));
        }
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let dom = self.dom();
        let outer = self.discourse.clone();
        let rx = self.lower_np(np, x, self.base + 1, &outer)?;
        let ry = self.lower_np(np, y, self.base + 2, &outer)?;
        let p = f(cspan.clone(), FormulaKind::Binary(kind, x, y));
        let inner = match ry {
            Some(ry) => bin(BinOp::Implies, ry, p),
            None => p,
        };
        let inner = f(span.clone(), FormulaKind::Forall(y, dom, inner));
        let outer = match rx {
            Some(rx) => bin(BinOp::Implies, rx, inner),
            None => inner,
        };
        Ok(f(span, FormulaKind::Forall(x, dom, outer)))
    }
}
