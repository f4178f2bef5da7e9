//! Things named by a letter, the English a logician writes and the umpire says back
//! when a statement has no shorter English: `for every tile x, x is red or there is a
//! tile y such that y is adjacent to x`, `the number of tiles x such that x is red is
//! odd`. A name is bound by `for every NOUN x,`, `there is a NOUN x such that` or `the
//! number of NOUNS x such that`, and stands for that thing until the end of the
//! clause it binds (as the symbolic form's quantifiers do); elsewhere a letter is not
//! a name. The vocabulary adds its regions (`for every row s,`, `of s`).

use super::{
    Det, Dom, F, FormulaKind, Logic, Mode, Named, Parser, R, Sym, T, TermKind, Var, Vocabulary, f,
    is_name, not,
};

impl<V: Vocabulary> Parser<'_, V> {
    /// The name `k` words ahead, if it is bound: its variable and what it names.
    pub(crate) fn named_at(&self, k: usize) -> Option<(Var, Named)> {
        let w = self.c.word_at(k)?;
        self.names
            .iter()
            .rev()
            .find(|(n, _, _)| n == w)
            .map(|(_, v, named)| (*v, *named))
    }

    /// Binds `name` to a new variable while `read` reads, then unbinds it.
    pub(crate) fn binding<X>(
        &mut self,
        name: &str,
        named: Named,
        read: impl FnOnce(&mut Self, Var) -> R<X>,
    ) -> R<X> {
        let v = Var(self.base);
        self.base += 1;
        self.names.push((name.to_string(), v, named));
        let r = read(self, v);
        self.names.pop();
        self.base -= 1;
        r
    }

    /// `of s` after a named thing: the region it ranges over.
    fn of_region(&mut self) -> R<Dom> {
        if !self.c.is_word("of") || self.named_at(1).map(|(_, n)| n) != Some(Named::Region) {
            return Ok(Dom::All);
        }
        self.c.bump();
        let (s, _) = self.named_at(0).expect("checked");
        self.c.bump();
        Ok(Dom::In(s))
    }

    /// `NOUN x [of s]` here: the name, read (the noun and name consumed).
    fn noun_and_name(&mut self) -> Option<String> {
        let noun = self.c.word().is_some_and(V::is_noun);
        let name = self.c.word_at(1).filter(|w| is_name(w))?.to_string();
        if !noun {
            return None;
        }
        self.c.pos += 2;
        Some(name)
    }

    /// `for every tile x, S`, `for some tile x of s, S`, `for no tile x, S`, and the
    /// vocabulary's named regions (`for every row s, S`). `None` when no such words
    /// start here.
    pub(crate) fn for_sentence(&mut self) -> Option<R<F<V>>> {
        if !self.c.is_word("for") {
            return None;
        }
        let det = match self.c.word_at(1)? {
            "every" | "each" | "all" | "any" => Det::Every,
            "some" | "a" | "an" => Det::Some,
            "no" => Det::No,
            _ => return None,
        };
        let noun_at = 2;
        let thing = self.c.word_at(noun_at).is_some_and(V::is_noun)
            && self.c.word_at(noun_at + 1).is_some_and(is_name);
        let start = self.start();
        if !thing {
            let save = self.c.pos;
            self.c.pos += 2;
            return match V::named_region(self, det.clone(), start) {
                Some(r) => Some(r),
                None => {
                    self.c.pos = save;
                    None
                }
            };
        }
        self.c.pos += 2;
        let name = self.noun_and_name()?;
        Some(self.binding(&name, Named::Thing, |p, x| {
            let dom = p.of_region()?;
            p.c.eat_sym(Sym::Comma);
            let body = p.sentence()?;
            let span = p.span_from(start);
            Ok(match det {
                Det::Every => f(span, FormulaKind::Forall(x, dom, body)),
                Det::No => not(span.clone(), f(span, FormulaKind::Exists(x, dom, body))),
                _ => f(span, FormulaKind::Exists(x, dom, body)),
            })
        }))
    }

    /// After `there is a` / `there is no`: `NOUN x [of s] such that S`. `None` when no
    /// name follows the noun.
    pub(crate) fn such_that(&mut self, det: &Det, start: usize) -> Option<R<F<V>>> {
        if !matches!(det, Det::Some | Det::No) {
            return None;
        }
        let save = self.c.pos;
        let name = self.noun_and_name()?;
        Some(self.binding(&name, Named::Thing, |p, x| {
            let dom = p.of_region()?;
            if !p.c.eat_words(&["such", "that"]) {
                p.c.pos = save;
                return Err(p.c.expected("`such that` and what holds of it"));
            }
            let body = p.sentence()?;
            let span = p.span_from(start);
            let some = f(span.clone(), FormulaKind::Exists(x, dom, body));
            Ok(if matches!(det, Det::No) {
                not(span, some)
            } else {
                some
            })
        }))
    }

    /// After `the number of`: `NOUNS x [of s] such that S`. `None` when no name
    /// follows the noun.
    pub(crate) fn number_such_that(&mut self, start: usize) -> Option<R<T<V>>> {
        let name = self.noun_and_name()?;
        Some(self.binding(&name, Named::Thing, |p, x| {
            let dom = p.of_region()?;
            if !p.c.eat_words(&["such", "that"]) {
                return Err(p.c.expected("`such that` and what holds of it"));
            }
            let body = p.sentence()?;
            Ok(<F<V> as Logic>::term(
                p.span_from(start),
                TermKind::Count(x, dom, body),
            ))
        }))
    }

    /// `x is red`, `x is adjacent to y`, `x is y`, `x is not y`: a sentence about a
    /// named thing.
    pub(crate) fn named_sentence(&mut self) -> Option<R<F<V>>> {
        let (x, Named::Thing) = self.named_at(0)? else {
            return None;
        };
        let start = self.start();
        self.c.bump();
        if !self.vp_start(0, Mode::Finite) {
            return Some(Err(self.c.expected(V::VP_EXPECTED)));
        }
        Some(self.vp(Mode::Finite).and_then(|vp| {
            let body = self.lower_vp(&vp, x, self.base, &[])?;
            Ok(body.respan(self.span_from(start)))
        }))
    }
}
