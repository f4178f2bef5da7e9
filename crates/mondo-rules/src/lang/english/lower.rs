//! Lowering phrases to the AST, once the variable a phrase speaks of is known.
//!
//! `d` is the next free variable index; `outer` the pieces named earlier in the
//! sentence that an `it` in the phrase may name (never the phrase's own subject).

use super::{
    BinOp, CmpOp, Det, DetS, Dom, Dp, F, FormulaKind, Logic, Np, Obj, Parser, R, Span, Var,
    Vocabulary, Vp, and_opt, bin, cmp, count, f, int, not, or_true, scaled,
};
use crate::lang::error::ParsePatternError;

impl<V: Vocabulary> Parser<'_, V> {
    /// The restriction of a noun phrase about `x`.
    pub(crate) fn lower_np(&self, np: &Np<V>, x: Var, d: u8, outer: &[Var]) -> R<Option<F<V>>> {
        let mut r = None;
        for m in &np.mods {
            r = and_opt(r, Some(self.lower_vp(m, x, d, outer)?));
        }
        if let Some(rel) = &np.rel {
            r = and_opt(r, Some(self.lower_vp(rel, x, d, outer)?));
        }
        Ok(r)
    }

    pub(crate) fn lower_vp(&self, vp: &Vp<V>, x: Var, d: u8, outer: &[Var]) -> R<F<V>> {
        Ok(match vp {
            Vp::Unary(p, span) => f(span.clone(), FormulaKind::Unary(*p, x)),
            Vp::True(span) => f(span.clone(), FormulaKind::Bool(true)),
            Vp::Adjs(mods, span) => {
                let mut r = None;
                for m in mods {
                    r = and_opt(r, Some(self.lower_vp(m, x, d, outer)?));
                }
                or_true(r, span)
            }
            Vp::Rel(pred, span, obj, passive) => {
                self.lower_rel(*pred, span, obj, *passive, x, d, outer)?
            }
            Vp::Collective(_, span) => {
                return Err(ParsePatternError::new(
                    span.clone(),
                    format!(
                        "`the same ...` needs `as` and a {} here, e.g. `{}`",
                        V::NOUN,
                        V::SAME_AS_EXAMPLE
                    ),
                )
                .with_help(format!(
                    "`{}` speaks of all the {} at once",
                    V::SAME_EXAMPLE,
                    V::NOUNS
                )));
            }
            Vp::Different(_, span)
            | Vp::Recip(_, span)
            | Vp::Groups(_, span)
            | Vp::CountOf(_, _, span) => {
                return Err(ParsePatternError::new(
                    span.clone(),
                    format!(
                        "this speaks of several {} at once, so it cannot be said of one {} here: make it a sentence of its own (`{}`)",
                        V::NOUNS,
                        V::NOUN,
                        V::NO_TWO_EXAMPLE
                    ),
                ));
            }
            Vp::Has(obj, span) => {
                // `has a small piece above it`: such a thing exists, other than x.
                let Obj::Dp(dp) = obj.as_ref() else {
                    return Err(ParsePatternError::new(
                        span.clone(),
                        V::say("say what the piece has: `has a small piece above it`"),
                    ));
                };
                let other = (x, span.clone());
                self.lower_object(dp, other, d, None, span.clone(), outer)?
            }
            Vp::Is(y, span) => f(span.clone(), FormulaKind::Same(x, *y)),
            Vp::NotAll(_, span) => {
                return Err(ParsePatternError::new(
                    span.clone(),
                    V::say("`not all` is said of all the pieces at once: say `not all pieces ...`"),
                ));
            }
            Vp::Not(a, span) => not(span.clone(), self.lower_vp(a, x, d, outer)?),
            Vp::And(a, b) => bin(
                BinOp::And,
                self.lower_vp(a, x, d, outer)?,
                self.lower_vp(b, x, d, outer)?,
            ),
            Vp::Or(a, b) => bin(
                BinOp::Or,
                self.lower_vp(a, x, d, outer)?,
                self.lower_vp(b, x, d, outer)?,
            ),
        })
    }

    /// `x pred Q` (or `Q pred x` for the passive).
    #[allow(clippy::too_many_arguments)]
    fn lower_rel(
        &self,
        pred: V::Binary,
        span: &Span,
        obj: &Obj<V>,
        passive: bool,
        x: Var,
        d: u8,
        outer: &[Var],
    ) -> R<F<V>> {
        let atom = |y: Var| {
            let (a, b) = if passive { (y, x) } else { (x, y) };
            f(span.clone(), FormulaKind::Binary(pred, a, b))
        };
        Ok(match obj {
            Obj::It(it) => atom(self.resolve_it(it, outer)?),
            Obj::Named(v) => atom(*v),
            // The thing the relation is said of: the innermost in scope.
            // Said the other way round (`same_colour(x, y)` for the subject x), as the
            // relation is symmetric.
            Obj::Anchor(at) => match outer.last() {
                Some(v) => f(span.clone(), FormulaKind::Binary(pred, *v, x)),
                None => return Err(V::anchor_refusal(at.clone())),
            },
            Obj::Or(a, b) | Obj::And(a, b) => {
                let op = if matches!(obj, Obj::Or(..)) {
                    BinOp::Or
                } else {
                    BinOp::And
                };
                bin(
                    op,
                    self.lower_rel(pred, span, a, passive, x, d, outer)?,
                    self.lower_rel(pred, span, b, passive, x, d, outer)?,
                )
            }
            Obj::Dp(dp) => {
                let y = Var(d);
                // The object never is its own subject: `y != x` joins every object's
                // restriction, whatever the relation and the determiner (without it
                // `every piece touches every piece` could never hold). `other` and
                // `another` only say so aloud.
                let ex_span = dp
                    .np
                    .other
                    .clone()
                    .or_else(|| dp.det.other.clone())
                    .unwrap_or_else(|| span.clone());
                let whole = span.start..dp.np.span.end.max(span.end);
                self.lower_object(dp, (x, ex_span), d, Some(atom(y)), whole, outer)?
            }
        })
    }

    /// Object `dp` of the piece `x`, as variable `d`: some or every other piece (`y !=
    /// x` spanned at `ex`) with `v` said of it; inside it, `it` may name `x`.
    fn lower_object(
        &self,
        dp: &Dp<V>,
        (x, ex): (Var, Span),
        d: u8,
        v: Option<F<V>>,
        span: Span,
        outer: &[Var],
    ) -> R<F<V>> {
        let exclusion = Some(not(ex.clone(), f(ex, FormulaKind::Same(Var(d), x))));
        let mut inner: Vec<Var> = outer.to_vec();
        if !inner.contains(&x) {
            inner.push(x);
        }
        let (det, np) = (&dp.det, &dp.np);
        self.quantify_lowered(det, np, d, exclusion, v, span, &inner, Dom::All)
    }

    /// The piece `it` names: the one piece of `outer`, those named in this sentence
    /// before those of a sentence before it (`if a piece is small, every large piece
    /// touches a piece larger than it`: the large piece).
    pub(crate) fn resolve_it(&self, it: &Span, outer: &[Var]) -> R<Var> {
        let local: Vec<Var> = outer
            .iter()
            .copied()
            .filter(|v| !self.discourse.contains(v))
            .collect();
        let outer = if local.is_empty() { outer } else { &local };
        match outer {
            [] => Err(ParsePatternError::new(
                it.clone(),
                V::say("`it` has no piece to name here: name the piece again (`a large piece`)"),
            )
            .with_help(format!(
                "`it` names a {} said before it in the same sentence: `{}`",
                V::NOUN,
                V::IT_EXAMPLE
            ))),
            [v] if self.ambiguous.contains(v) => {
                Err(super::sentence::ambiguous_it::<V>(it.clone()))
            }
            [v] => {
                if self.discourse.contains(v) {
                    self.it_used.set(true);
                }
                Ok(*v)
            }
            _ => Err(super::sentence::ambiguous_it::<V>(it.clone())),
        }
    }

    /// `Det NP (VP)` about the variable `Var(d)`. `exclusion` is the object's
    /// `y != x`; `v` the verb phrase (or relation), absent after `there is`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn quantify(
        &self,
        det: &DetS,
        np: &Np<V>,
        d: u8,
        exclusion: Option<F<V>>,
        v: Option<&Vp<V>>,
        span: Span,
        outer: &[Var],
        dom: Dom,
    ) -> R<F<V>> {
        let x = Var(d);
        if let (Det::Every, Some(vp)) = (&det.det, v)
            && vp.has_not_all()
        {
            return self.every_not_all(det, np, d, exclusion, vp, span, outer, dom);
        }
        let v = match v {
            // `a small piece is present` says no more than that there is one.
            Some(Vp::True(_)) if !matches!(det.det, Det::Every) => None,
            Some(vp) => Some(self.lower_vp(vp, x, d + 1, outer)?),
            None => None,
        };
        self.quantify_lowered(det, np, d, exclusion, v, span, outer, dom)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn quantify_lowered(
        &self,
        det: &DetS,
        np: &Np<V>,
        d: u8,
        exclusion: Option<F<V>>,
        v: Option<F<V>>,
        span: Span,
        outer: &[Var],
        dom: Dom,
    ) -> R<F<V>> {
        let x = Var(d);
        let r = self.lower_np(np, x, d + 1, outer)?;
        if let Det::Only = det.det {
            return match (r, v) {
                (None, _) => Err(ParsePatternError::new(
                    det.span.clone(),
                    format!(
                        "`only` needs a kind of {} after it, e.g. `{}`",
                        V::NOUN,
                        V::ONLY_EXAMPLE
                    ),
                )),
                (Some(r), None) => Ok(f(span, FormulaKind::Forall(x, dom, r))),
                (Some(r), Some(v)) => {
                    let cond = and_opt(exclusion, Some(v)).expect("v is present");
                    let body = bin(BinOp::Implies, cond, r);
                    Ok(f(span, FormulaKind::Forall(x, dom, body)))
                }
            };
        }
        // `the unique NP` counts the NPs of the whole structure (the object is never
        // the subject, but the subject may be the one NP that makes it not unique),
        // unless it says `the unique other NP`.
        let unique_among = if np.other.is_some() {
            and_opt(exclusion.clone(), r.clone())
        } else {
            r.clone()
        };
        let r = and_opt(exclusion, r);
        let body = |r: Option<F<V>>, v: Option<F<V>>| or_true(and_opt(r, v), &span);
        let counted = |r, v| count(x, dom, body(r, v), span.clone());
        Ok(match &det.det {
            Det::Some => f(span.clone(), FormulaKind::Exists(x, dom, body(r, v))),
            Det::No => not(
                span.clone(),
                f(span.clone(), FormulaKind::Exists(x, dom, body(r, v))),
            ),
            Det::Every => {
                let Some(v) = v else {
                    return Err(ParsePatternError::new(
                        det.span.clone(),
                        "`every` needs a verb phrase after the noun",
                    ));
                };
                let inner = match r {
                    Some(r) => bin(BinOp::Implies, r, v),
                    None => v,
                };
                f(span, FormulaKind::Forall(x, dom, inner))
            }
            Det::Num(num) => num.holds_of(counted(r, v), span.clone()),
            Det::NoN(n) => cmp(
                CmpOp::Lt,
                counted(r, v),
                int(*n, det.span.clone()),
                span.clone(),
            ),
            Det::AllBut(n) => {
                let Some(v) = v else {
                    return Err(ParsePatternError::new(
                        det.span.clone(),
                        V::say(
                            "`all but one` needs what the others do: `all pieces but one point up`",
                        ),
                    ));
                };
                let others = count(
                    x,
                    dom,
                    or_true(and_opt(r, Some(not(span.clone(), v))), &span),
                    span.clone(),
                );
                cmp(CmpOp::Eq, others, int(*n, det.span.clone()), span.clone())
            }
            Det::Half(op) => {
                if v.is_none() {
                    return Err(ParsePatternError::new(
                        det.span.clone(),
                        format!(
                            "`half of the {}` needs what they do: `{}`",
                            V::NOUNS,
                            V::HALF_EXAMPLE
                        ),
                    ));
                }
                let part = scaled(2, counted(r.clone(), v));
                let whole = count(x, dom, or_true(r, &span), span.clone());
                cmp(*op, part, whole, span.clone())
            }
            Det::Parity(p) => f(span.clone(), FormulaKind::Parity(*p, counted(r, v))),
            Det::TheUnique => {
                let one = cmp(
                    CmpOp::Eq,
                    count(x, dom, or_true(unique_among, &span), det.span.clone()),
                    int(1, det.span.clone()),
                    det.span.clone(),
                );
                let some = f(span.clone(), FormulaKind::Exists(x, dom, body(r, v)));
                f(span, FormulaKind::Bin(BinOp::And, one, some))
            }
            Det::Only => unreachable!("handled above"),
        })
    }

    /// `the tiles are neither all red nor all blue`: each conjunct with a floating
    /// `not all` negates the subject's `every` (not every tile is red), the others are
    /// said of every tile.
    #[allow(clippy::too_many_arguments)]
    fn every_not_all(
        &self,
        det: &DetS,
        np: &Np<V>,
        d: u8,
        exclusion: Option<F<V>>,
        vp: &Vp<V>,
        span: Span,
        outer: &[Var],
        dom: Dom,
    ) -> R<F<V>> {
        let mut parts = Vec::new();
        fn conjuncts<'v, V: Vocabulary>(vp: &'v Vp<V>, out: &mut Vec<&'v Vp<V>>) -> bool {
            match vp {
                Vp::And(a, b) => conjuncts(a, out) && conjuncts(b, out),
                Vp::Or(..) if vp.has_not_all() => false,
                other => {
                    out.push(other);
                    true
                }
            }
        }
        if !conjuncts(vp, &mut parts) {
            return Err(ParsePatternError::new(
                vp.span(),
                "`not all ... or ...` could be read more than one way: say it as two sentences",
            ));
        }
        let mut out: Option<F<V>> = None;
        for part in parts {
            let g = match part {
                Vp::NotAll(inner, nspan) if inner.is_group() => {
                    return Err(ParsePatternError::new(
                        nspan.clone(),
                        V::say("say `not all pieces ...` as its own sentence"),
                    ));
                }
                Vp::NotAll(inner, nspan) => {
                    let all = self.quantify(
                        det,
                        np,
                        d,
                        exclusion.clone(),
                        Some(inner),
                        span.clone(),
                        outer,
                        dom,
                    )?;
                    not(nspan.clone(), all)
                }
                other => self.quantify(
                    det,
                    np,
                    d,
                    exclusion.clone(),
                    Some(other),
                    span.clone(),
                    outer,
                    dom,
                )?,
            };
            out = and_opt(out, Some(g));
        }
        Ok(out.expect("at least one conjunct").respan(span))
    }
}
