//! The English form of statements (`grids.md` 3.1), read by recursive descent with the
//! pattern language's lexer, cursor, number words and errors.
//!
//! Choices, made as a careful host would and written down here:
//!
//! - A bare number is "at least" (the seed's rule): `there are two red tiles`, `two
//!   tiles are blue`, `a row with one red tile`. `exactly`, `at most`, `more than`,
//!   `fewer than` say otherwise. In `the number of ... is two`, `is` means equals.
//! - The object of a relation is never its subject: objects of `in the same row as`,
//!   `in the same column as` and `the same colour as` get `y != x`.
//! - `the NP VP` reads "every NP VP" (`the leftmost tile is red`).
//! - `either S or S` needs `but not both` (inclusive or exclusive?); plain `S or S`
//!   is inclusive.
//! - Collective sentences: `all tiles are the same colour`, `all tiles are different
//!   colours`, `no two [orthogonally|diagonally] adjacent tiles are the same colour`,
//!   and `two adjacent tiles are the same colour` (some pair is).
//! - `of the same colour`, `of a different colour`, `of another colour` after a tile
//!   noun compare it with the tile whose relation it is the object of:
//!   `every tile is adjacent to a tile of the same colour` is
//!   `forall x. exists y. y != x & same_colour(x, y) & adjacent(x, y)` (another tile,
//!   as for `the same colour as`). After a plural count (`adjacent to two tiles of the
//!   same colour`) it is refused: the same colour as the subject, or as each other?
//! - Counted with no such tile to compare with, tiles `of the same colour` share a
//!   colour among themselves: `a row has two tiles of the same colour` is
//!   `exists s: row. exists x y in s. x != y & same_colour(x, y)`, `three tiles of the
//!   same colour` is `exists x. count(y: same_colour(x, y)) >= 3` (the tile x counts
//!   itself), `no two tiles of the same colour` the negation, and `two tiles of
//!   different colours` is `exists x y. x != y & !same_colour(x, y)`. Only "at least"
//!   counts and `no` read: `exactly two tiles of the same colour` would leave open
//!   whether one colour or every colour is meant.
//! - `no two red tiles` is "fewer than two" (`count(x: red(x)) < 2`).
//! - `it` names the one tile mentioned before, other than the tile the phrase is
//!   said of: `every tile is the same colour as some tile adjacent to it` is
//!   `forall x. exists y. y != x & adjacent(y, x) & same_colour(x, y)`. With no such
//!   tile, or more than one, it is refused.

use super::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, Place, RegionKind, Relation, Span,
    Statement, Term, TermKind, Var,
};
use super::cells::Colour;
use crate::lang::ParsePatternError;
use crate::lang::lexer::{Cursor, Sym, Tok, Token, deeper, lex};
use crate::lang::words::{did_you_mean, number_word};

type R<T> = Result<T, ParsePatternError>;

const MAX_NESTING: u32 = 40;

/// Every word the reader knows, for "did you mean" hints.
pub(crate) const WORDS: &[&str] = &[
    "a",
    "above",
    "adjacent",
    "all",
    "an",
    "and",
    "another",
    "are",
    "as",
    "at",
    "below",
    "both",
    "but",
    "case",
    "colour",
    "colours",
    "column",
    "columns",
    "diagonally",
    "different",
    "each",
    "either",
    "equal",
    "equals",
    "even",
    "every",
    "exactly",
    "fewer",
    "from",
    "greater",
    "has",
    "have",
    "if",
    "iff",
    "in",
    "is",
    "it",
    "least",
    "left",
    "less",
    "many",
    "minus",
    "more",
    "most",
    "no",
    "not",
    "number",
    "odd",
    "of",
    "only",
    "or",
    "orthogonally",
    "plus",
    "right",
    "row",
    "rows",
    "same",
    "some",
    "square",
    "squares",
    "than",
    "that",
    "the",
    "then",
    "there",
    "tile",
    "tiles",
    "to",
    "two",
    "which",
    "with",
    "red",
    "blue",
    "green",
    "yellow",
    "topmost",
    "bottommost",
    "leftmost",
    "rightmost",
    "contains",
    "contain",
];

/// Parses the English form.
pub fn parse_english(text: &str) -> R<Statement> {
    let lexed = lex(text)?;
    let toks = normalise(lexed.tokens);
    if toks.is_empty() {
        return Err(
            ParsePatternError::new(0..text.len(), "the statement is empty")
                .with_example("there are two red tiles"),
        );
    }
    let mut p = Reader {
        c: Cursor::new(toks, text.len()),
        next: 0,
        nesting: 0,
        tiles: Vec::new(),
    };
    let formula = p.statement().map_err(|e| p.outside(e))?;
    if !p.c.at_end() {
        let e = p.unknown_or("`and`, `or`, `iff` or the end of the statement");
        return Err(p.outside(e));
    }
    Ok(Statement {
        source: text.to_string(),
        formula,
    })
}

/// Drops what carries no meaning (quotes, a final full stop), and spells `colour` one
/// way (`color`, `colors`, `coloured` read alike).
fn normalise(toks: Vec<Token>) -> Vec<Token> {
    let n = toks.len();
    toks.into_iter()
        .enumerate()
        .filter(|(i, t)| match t.tok {
            Tok::Sym(Sym::Quote) => false,
            Tok::Sym(Sym::Period) => *i + 1 != n,
            _ => true,
        })
        .map(|(_, mut t)| {
            if let Tok::Word(w) = &t.tok {
                let w = match w.as_str() {
                    "color" => "colour",
                    "colors" => "colours",
                    "squares" => "square",
                    "2×2" => "2x2",
                    _ => w,
                };
                t.tok = Tok::Word(w.to_string());
            }
            t
        })
        .collect()
}

/// How many tiles (or regions) a determiner speaks of.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Det {
    /// `a`, `an`, `some`.
    Some,
    /// `every`, `each`, `all`, `the`.
    Every,
    No,
    /// A number: `two` (at least), `exactly two`, `at most two`...
    Count(CmpOp, i64),
}

/// A noun phrase about one tile variable.
struct Np {
    /// Its restriction (`None`: any tile).
    restriction: Option<Formula>,
    /// `adjacent tiles` and the like, for collective sentences.
    pair: Option<(Relation, Span)>,
    span: Span,
    /// `of the same colour` and the like, with where it was said.
    hue: Option<(Hue, Span)>,
    /// The number of `no two tiles`.
    after_no: Option<i64>,
}

/// A colour phrase after a tile noun.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hue {
    /// `of the same colour`.
    Same,
    /// `of a different colour`, `of another colour`.
    Different,
    /// `of different colours` (tiles among themselves).
    Mixed,
}

struct Reader {
    c: Cursor,
    next: u8,
    nesting: u32,
    /// The tiles named so far whose scope the reader is in (for `it`), outermost first.
    tiles: Vec<Var>,
}

fn f(span: Span, kind: FormulaKind) -> Formula {
    Formula::new(span, kind)
}

fn and(a: Formula, b: Formula) -> Formula {
    let span = a.span.start.min(b.span.start)..a.span.end.max(b.span.end);
    f(span, FormulaKind::Bin(BinOp::And, Box::new(a), Box::new(b)))
}

fn and_opt(a: Option<Formula>, b: Formula) -> Formula {
    match a {
        Some(a) => and(a, b),
        None => b,
    }
}

fn not(a: Formula) -> Formula {
    f(a.span.clone(), FormulaKind::Not(Box::new(a)))
}

fn bin(op: BinOp, a: Formula, b: Formula) -> Formula {
    f(
        a.span.start..b.span.end,
        FormulaKind::Bin(op, Box::new(a), Box::new(b)),
    )
}

fn count(span: Span, x: Var, dom: Domain, body: Formula) -> Term {
    Term::new(span, TermKind::Count(x, dom, Box::new(body)))
}

/// The formula for "DET x (of the domain) such that body".
fn quantify(
    det: Det,
    x: Var,
    dom: Domain,
    restriction: Option<Formula>,
    body: Formula,
    span: Span,
) -> Formula {
    match det {
        Det::Some => f(
            span,
            FormulaKind::Exists(x, dom, Box::new(and_opt(restriction, body))),
        ),
        Det::No => not(f(
            span,
            FormulaKind::Exists(x, dom, Box::new(and_opt(restriction, body))),
        )),
        Det::Every => {
            let body = match restriction {
                Some(r) => bin(BinOp::Implies, r, body),
                None => body,
            };
            f(span, FormulaKind::Forall(x, dom, Box::new(body)))
        }
        Det::Count(op, n) => {
            let t = count(span.clone(), x, dom, and_opt(restriction, body));
            f(
                span.clone(),
                FormulaKind::Cmp(op, t, Term::new(span, TermKind::Int(n))),
            )
        }
    }
}

impl Reader {
    fn fresh(&mut self) -> R<Var> {
        if self.next >= 200 {
            return Err(ParsePatternError::new(
                self.c.here(),
                "the statement is too long",
            ));
        }
        self.next += 1;
        Ok(Var(self.next - 1))
    }

    fn enter(&mut self) -> R<()> {
        deeper(&mut self.nesting, MAX_NESTING, self.c.here())
    }

    /// An error at the next word: an unknown word gets "did you mean", a known one
    /// "expected ...".
    fn unknown_or(&self, expected: &str) -> ParsePatternError {
        if let Some(w) = self.c.word()
            && !WORDS.contains(&w)
            && number_word(w).is_none()
            && !w.starts_with(|c: char| c.is_ascii_digit())
        {
            let e = ParsePatternError::new(
                self.c.here(),
                format!("unknown word `{w}`; expected {expected}"),
            );
            return match did_you_mean(w, WORDS.iter().copied()) {
                Some(k) => {
                    let fixed = self.replaced(k);
                    e.with_help(format!("did you mean `{k}`?"))
                        .with_example(fixed)
                }
                None => e.with_help(VOCABULARY_HELP),
            };
        }
        self.c.expected(expected)
    }

    /// A refusal at words that reach outside the subset (`on the grid`, a tile named
    /// by its coordinates) says so: statements speak of their subset's tiles only,
    /// and coordinates are not part of the grid (the seed's rules 1 and 3).
    fn outside(&self, e: ParsePatternError) -> ParsePatternError {
        let at = self.c.pos;
        let word = |k: usize| self.c.toks.get(at + k).and_then(Token::word);
        let place = matches!(word(0), Some("on" | "in" | "of"))
            && word(1) == Some("the")
            && matches!(word(2), Some("grid" | "board"));
        if place {
            let span = self.c.toks[at].span.start..self.c.toks[at + 2].span.end;
            let kept: Vec<String> = self
                .c
                .toks
                .iter()
                .enumerate()
                .filter(|(i, _)| !(at..at + 3).contains(i))
                .filter_map(|(_, t)| match &t.tok {
                    Tok::Word(w) => Some(w.clone()),
                    Tok::Int(n) => Some(n.to_string()),
                    Tok::Sym(_) => None,
                })
                .collect();
            return ParsePatternError::new(
                span,
                "a statement speaks only of the tiles of its own subset, not of the whole grid",
            )
            .with_example(kept.join(" "));
        }
        let cell = word(0).is_some_and(|w| w.parse::<super::cells::Cell>().is_ok());
        if cell {
            return ParsePatternError::new(self.c.here(), "tiles are not named by their coordinates: a statement speaks of its subset's tiles by colour, place and relation")
                .with_help("for one tile, use its place: `the leftmost tile is red`, but every tile of the subset must count");
        }
        e
    }

    /// The source words with the next one replaced (for a corrected example).
    fn replaced(&self, by: &str) -> String {
        self.c
            .toks
            .iter()
            .enumerate()
            .map(|(i, t)| match (&t.tok, i == self.c.pos) {
                (_, true) => by.to_string(),
                (Tok::Word(w), _) => w.clone(),
                (Tok::Int(n), _) => n.to_string(),
                (Tok::Sym(s), _) => s.text().to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn statement(&mut self) -> R<Formula> {
        self.enter()?;
        let a = self.implication()?;
        let out = if self.c.eat_word("iff") || self.c.eat_words(&["if", "and", "only", "if"]) {
            let b = self.implication()?;
            bin(BinOp::Iff, a, b)
        } else {
            a
        };
        self.nesting -= 1;
        Ok(out)
    }

    fn implication(&mut self) -> R<Formula> {
        if !self.c.is_word("if") {
            return self.disjunction();
        }
        self.c.bump();
        let a = self.disjunction()?;
        self.c.eat_sym(Sym::Comma);
        if !self.c.eat_word("then") {
            return Err(self
                .unknown_or("`then` after the condition of `if`")
                .with_help("write it like `if there is a red tile then there is a blue tile`"));
        }
        self.enter()?;
        let b = self.implication()?;
        self.nesting -= 1;
        Ok(bin(BinOp::Implies, a, b))
    }

    fn disjunction(&mut self) -> R<Formula> {
        if self.c.is_word("either") {
            let at = self.c.bump();
            let a = self.conjunction()?;
            if !self.c.eat_word("or") {
                return Err(self.unknown_or("`or` after `either ...`"));
            }
            let b = self.conjunction()?;
            if !self.c.eat_words(&["but", "not", "both"]) {
                return Err(ParsePatternError::new(at, "`either ... or ...` needs `but not both`: is it inclusive or exclusive?")
                    .with_help("write `either A or B but not both` for exactly one, or `A or B` for at least one"));
            }
            return Ok(bin(BinOp::Xor, a, b));
        }
        let mut a = self.conjunction()?;
        while self.c.eat_word("or") {
            let b = self.conjunction()?;
            a = bin(BinOp::Or, a, b);
        }
        Ok(a)
    }

    fn conjunction(&mut self) -> R<Formula> {
        let mut a = self.clause()?;
        while self.c.eat_word("and") {
            let b = self.clause()?;
            a = bin(BinOp::And, a, b);
        }
        Ok(a)
    }

    fn clause(&mut self) -> R<Formula> {
        self.enter()?;
        let start = self.c.here().start;
        let out = if self
            .c
            .eat_words(&["it", "is", "not", "the", "case", "that"])
        {
            let a = self.clause()?;
            f(start..a.span.end, FormulaKind::Not(Box::new(a)))
        } else if self.c.is_sym(Sym::LParen) {
            self.c.bump();
            let a = self.statement()?;
            if !self.c.eat_sym(Sym::RParen) {
                return Err(self.c.expected("`)`"));
            }
            a
        } else if self.c.is_word("there") {
            self.there()?
        } else if self.c.is_words(&["the", "number", "of"])
            || self.number_at(0).is_some() && self.term_sentence_ahead()
        {
            self.number_sentence()?
        } else if self.c.is_word("not")
            && matches!(self.c.word_at(1), Some("every" | "all" | "each"))
        {
            self.c.bump();
            not(self.det_sentence()?)
        } else {
            self.det_sentence()?
        };
        self.nesting -= 1;
        Ok(out)
    }

    /// Whether a number opens a number sentence (`2 plus ...`) rather than a
    /// determiner (`two tiles ...`).
    fn term_sentence_ahead(&self) -> bool {
        matches!(self.c.word_at(1), Some("plus" | "minus" | "is"))
            || self.c.sym_at(1).is_some_and(Sym::continues_term)
    }

    fn number_at(&self, k: usize) -> Option<i64> {
        match self.c.peek_at(k).map(|t| &t.tok) {
            Some(Tok::Int(n)) => Some(*n),
            Some(Tok::Word(w)) => number_word(w),
            _ => None,
        }
    }

    fn number(&mut self, after: &str) -> R<i64> {
        match self.number_at(0) {
            Some(n) => {
                self.c.bump();
                Ok(n)
            }
            None => Err(self.c.expected(&format!("a number after `{after}`"))),
        }
    }

    /// A determiner, or `None` when the next word is not one.
    fn det(&mut self) -> R<Option<Det>> {
        let Some(w) = self
            .c
            .word()
            .map(str::to_string)
            .or_else(|| self.number_at(0).map(|n| n.to_string()))
        else {
            return Ok(None);
        };
        let det = match w.as_str() {
            "a" | "an" | "some" => {
                self.c.bump();
                Det::Some
            }
            "every" | "each" | "the" => {
                self.c.bump();
                Det::Every
            }
            "all" => {
                self.c.bump();
                self.c.eat_word("the");
                Det::Every
            }
            "no" => {
                self.c.bump();
                Det::No
            }
            "exactly" => {
                self.c.bump();
                Det::Count(CmpOp::Eq, self.number("exactly")?)
            }
            "at" if matches!(self.c.word_at(1), Some("least" | "most")) => {
                self.c.bump();
                let op = if self.c.is_word("least") {
                    CmpOp::Ge
                } else {
                    CmpOp::Le
                };
                self.c.bump();
                Det::Count(op, self.number("at least / at most")?)
            }
            "more" if self.c.word_at(1) == Some("than") => {
                self.c.pos += 2;
                Det::Count(CmpOp::Gt, self.number("more than")?)
            }
            "fewer" | "less" if self.c.word_at(1) == Some("than") => {
                self.c.pos += 2;
                Det::Count(CmpOp::Lt, self.number("fewer than")?)
            }
            _ => match self.number_at(0) {
                Some(n) => {
                    self.c.bump();
                    Det::Count(CmpOp::Ge, n)
                }
                None => return Ok(None),
            },
        };
        Ok(Some(det))
    }

    fn region_at(&self, k: usize) -> Option<(RegionKind, usize)> {
        match self.c.word_at(k) {
            Some("row" | "rows") => Some((RegionKind::Row, 1)),
            Some("column" | "columns") => Some((RegionKind::Column, 1)),
            Some("2x2") if self.c.word_at(k + 1) == Some("square") => Some((RegionKind::Square, 2)),
            Some("square") => Some((RegionKind::Square, 1)),
            _ if self.number_at(k) == Some(2)
                && self.c.word_at(k + 1) == Some("x")
                && self.number_at(k + 2) == Some(2) =>
            {
                (self.c.word_at(k + 3) == Some("square")).then_some((RegionKind::Square, 4))
            }
            _ => None,
        }
    }

    /// `there is|are ...`.
    fn there(&mut self) -> R<Formula> {
        let start = self.c.bump().start;
        if !(self.c.eat_word("is") || self.c.eat_word("are")) {
            return Err(self.unknown_or("`is` or `are` after `there`"));
        }
        let neg = self.c.eat_word("not");
        let comparative = matches!(self.c.word(), Some("more" | "fewer" | "less"))
            && self.c.word_at(1) != Some("than");
        let out = if comparative || self.c.is_words(&["as", "many"]) {
            self.comparative(start)?
        } else {
            let det_span = self.c.here();
            let det = match self.det()? {
                Some(Det::Every) => {
                    return Err(ParsePatternError::new(
                        det_span,
                        "`there is` takes `a`, `no` or a number, not `every` / `the`",
                    )
                    .with_example("there is a red tile"));
                }
                Some(d) => d,
                None if self.np_start(0) => Det::Some,
                None => {
                    return Err(self
                        .unknown_or("`a`, `no`, a number, or a noun phrase such as `red tiles`"));
                }
            };
            if let Some((kind, len)) = self.region_at(0) {
                self.region_sentence(det, kind, len, start, det_span, false)?
            } else {
                let x = self.fresh()?;
                let np = self.np(x)?;
                if let Some((_, at)) = np.pair {
                    return Err(pair_refusal(at));
                }
                let span = start..np.span.end;
                let counted = det_span.start..np.span.end;
                if let Some(g) = self.group(det, x, Domain::Subset, &np, counted)? {
                    return Ok(if neg { not(g) } else { g });
                }
                let det = fewer_than(det, &np);
                match np.restriction {
                    Some(r) => match det {
                        Det::Some => f(span, FormulaKind::Exists(x, Domain::Subset, Box::new(r))),
                        Det::No => {
                            not(f(span, FormulaKind::Exists(x, Domain::Subset, Box::new(r))))
                        }
                        Det::Count(op, n) => {
                            let t = count(span.clone(), x, Domain::Subset, r);
                            f(
                                span.clone(),
                                FormulaKind::Cmp(op, t, Term::new(span, TermKind::Int(n))),
                            )
                        }
                        Det::Every => f(span, FormulaKind::Bool(false)),
                    },
                    None => {
                        let tiles = Term::new(span.clone(), TermKind::Tiles);
                        let (op, n) = match det {
                            Det::Some => (CmpOp::Ge, 1),
                            Det::No => (CmpOp::Eq, 0),
                            Det::Count(op, n) => (op, n),
                            Det::Every => (CmpOp::Ge, 0),
                        };
                        f(
                            span.clone(),
                            FormulaKind::Cmp(op, tiles, Term::new(span, TermKind::Int(n))),
                        )
                    }
                }
            }
        };
        Ok(if neg { not(out) } else { out })
    }

    /// `there are more NP than NP`, `fewer NP than NP`, `as many NP as NP`.
    fn comparative(&mut self, start: usize) -> R<Formula> {
        let op = if self.c.eat_words(&["as", "many"]) {
            CmpOp::Eq
        } else if self.c.eat_word("more") {
            CmpOp::Gt
        } else {
            self.c.bump();
            CmpOp::Lt
        };
        let x = self.fresh()?;
        let a = self.np(x)?;
        let joiner = if op == CmpOp::Eq { "as" } else { "than" };
        if !self.c.eat_word(joiner) {
            return Err(self.unknown_or(&format!("`{joiner}` and a second noun phrase")));
        }
        let y = self.fresh()?;
        let b = self.np(y)?;
        for np in [&a, &b] {
            if let Some((_, at)) = &np.hue {
                return Err(no_anchor(at.clone()));
            }
        }
        let term = |v: Var, np: Np| match np.restriction {
            Some(r) => count(np.span.clone(), v, Domain::Subset, r),
            None => Term::new(np.span, TermKind::Tiles),
        };
        let end = b.span.end;
        let (ta, tb) = (term(x, a), term(y, b));
        Ok(f(start..end, FormulaKind::Cmp(op, ta, tb)))
    }

    /// `there is a row with ...`, `every row has ...`, `no 2x2 square has ...`.
    fn region_sentence(
        &mut self,
        det: Det,
        kind: RegionKind,
        len: usize,
        start: usize,
        det_span: Span,
        subject: bool,
    ) -> R<Formula> {
        let noun = self.c.here();
        self.c.pos += len;
        let s = self.fresh()?;
        let has = if subject {
            ["has", "have", "contains", "contain"]
                .iter()
                .any(|w| self.c.eat_word(w))
        } else {
            self.c.eat_word("with")
                || self.c.eat_words(&["that", "has"])
                || self.c.eat_words(&["that", "contains"])
                || self.c.eat_word("containing")
        };
        if !has {
            let want = if subject {
                "`has` and tiles, like `has a red tile`"
            } else {
                "`with` and tiles, like `with a red tile`"
            };
            return Err(self.unknown_or(want));
        }
        let body = self.region_body(s)?;
        let span = start..body.span.end;
        Ok(match det {
            Det::Some => f(span, FormulaKind::ExistsRegion(s, kind, Box::new(body))),
            Det::Every => f(span, FormulaKind::ForallRegion(s, kind, Box::new(body))),
            Det::No => not(f(span, FormulaKind::ExistsRegion(s, kind, Box::new(body)))),
            Det::Count(..) => {
                return Err(ParsePatternError::new(
                    det_span.start..noun.end,
                    format!(
                        "regions are not counted: say `a {}`, `every {}` or `no {}`",
                        kind.noun(),
                        kind.noun(),
                        kind.noun()
                    ),
                )
                .with_example(format!("there is a {} with two red tiles", kind.noun())));
            }
        })
    }

    /// What a region holds: `DET NP` over its tiles, or `only NP`.
    fn region_body(&mut self, s: Var) -> R<Formula> {
        let start = self.c.here().start;
        let dom = Domain::In(s);
        let x = self.fresh()?;
        if self.c.eat_word("only") {
            let np = self.np(x)?;
            if let Some((_, at)) = np.hue {
                return Err(no_anchor(at));
            }
            let r = np
                .restriction
                .unwrap_or_else(|| f(np.span.clone(), FormulaKind::Bool(true)));
            return Ok(f(
                start..np.span.end,
                FormulaKind::Forall(x, dom, Box::new(r)),
            ));
        }
        let det = match self.det()? {
            Some(Det::Every) | None => {
                return Err(self.unknown_or(
                    "`a`, `no`, `only` or a number, then tiles (like `two red tiles`)",
                ));
            }
            Some(d) => d,
        };
        let np = self.np(x)?;
        let span = start..np.span.end;
        if let Some(g) = self.group(det, x, dom, &np, span.clone())? {
            return Ok(g);
        }
        let det = fewer_than(det, &np);
        let r = np
            .restriction
            .unwrap_or_else(|| f(np.span.clone(), FormulaKind::Bool(true)));
        Ok(match det {
            Det::Some => f(span, FormulaKind::Exists(x, dom, Box::new(r))),
            Det::No => not(f(span, FormulaKind::Exists(x, dom, Box::new(r)))),
            Det::Count(op, n) => {
                let t = count(span.clone(), x, dom, r);
                f(
                    span.clone(),
                    FormulaKind::Cmp(op, t, Term::new(span, TermKind::Int(n))),
                )
            }
            Det::Every => f(span, FormulaKind::Bool(false)),
        })
    }

    /// `DET NP VP`: `exactly three tiles are red`, `every row has a red tile`.
    fn det_sentence(&mut self) -> R<Formula> {
        let start = self.c.here().start;
        let det_span = self.c.here();
        let det = match self.det()? {
            Some(d) => d,
            None if self.np_start(0) => Det::Count(CmpOp::Ge, 1),
            None => {
                return Err(self.unknown_or("a statement: `there is ...`, `every tile ...`, `two tiles ...`, `the number of ...`")
                    .with_example("there are two red tiles"));
            }
        };
        if let Some((kind, len)) = self.region_at(0) {
            return self.region_sentence(det, kind, len, start, det_span, true);
        }
        let x = self.fresh()?;
        let np = self.np(x)?;
        if let Some((_, at)) = np.hue {
            return Err(no_anchor(at));
        }
        if !(self.c.eat_word("is") || self.c.eat_word("are")) {
            return Err(self.unknown_or("`is` or `are` after the subject")
                .with_help("tiles are described with `is` / `are`: `every tile is red`, `two tiles are adjacent to a blue tile`"));
        }
        if let Some(g) = self.collective(det, x, &np, start)? {
            return Ok(g);
        }
        if let Some((_, at)) = np.pair {
            return Err(pair_refusal(at));
        }
        let det = fewer_than(det, &np);
        self.tiles.push(x);
        let vp = self.complements(x)?;
        self.tiles.pop();
        let span = start..vp.span.end;
        Ok(quantify(det, x, Domain::Subset, np.restriction, vp, span))
    }

    /// After `DET NP are`: `[all] the same colour`, `[all] different colours`.
    fn collective(&mut self, det: Det, x: Var, np: &Np, start: usize) -> R<Option<Formula>> {
        let save = self.c.pos;
        self.c.eat_word("all");
        let neg = self.c.eat_word("not");
        let same = if self.c.eat_words(&["the", "same", "colour"]) {
            true
        } else if self.c.eat_words(&["different", "colours"]) {
            false
        } else {
            self.c.pos = save;
            return Ok(None);
        };
        if self.c.is_word("as") {
            self.c.pos = save;
            return Ok(None);
        }
        let end = self.c.prev().end;
        let span = start..end;
        let y = self.fresh()?;
        let rename = |r: &Option<Formula>| r.as_ref().map(|r| substitute(r, x, y));
        let mut pair = f(span.clone(), FormulaKind::Rel(Relation::SameColour, x, y));
        if same == neg {
            pair = not(pair);
        }
        let mut cond = match np.pair {
            Some((rel, ref at)) => f(at.clone(), FormulaKind::Rel(rel, x, y)),
            None => not(f(span.clone(), FormulaKind::Same(x, y))),
        };
        if let Some(r) = &np.restriction {
            cond = and(
                and(cond, r.clone()),
                rename(&np.restriction).unwrap_or_else(|| r.clone()),
            );
        }
        let exists = |body: Formula| {
            f(
                span.clone(),
                FormulaKind::Exists(
                    x,
                    Domain::Subset,
                    Box::new(f(
                        span.clone(),
                        FormulaKind::Exists(y, Domain::Subset, Box::new(body)),
                    )),
                ),
            )
        };
        let out = match det {
            Det::Every if np.pair.is_none() => {
                let body = bin(BinOp::Implies, cond, pair);
                f(
                    span.clone(),
                    FormulaKind::Forall(
                        x,
                        Domain::Subset,
                        Box::new(f(
                            span.clone(),
                            FormulaKind::Forall(y, Domain::Subset, Box::new(body)),
                        )),
                    ),
                )
            }
            Det::No => not(exists(and(cond, pair))),
            Det::Count(CmpOp::Ge, 2) => exists(and(cond, pair)),
            _ => {
                return Err(ParsePatternError::new(
                    span,
                    "a sentence about pairs of tiles takes `all`, `two` or `no two`",
                )
                .with_example("no two adjacent tiles are the same colour"));
            }
        };
        Ok(Some(out))
    }

    /// Whether a tile noun phrase starts `k` words ahead.
    fn np_start(&self, k: usize) -> bool {
        match self.c.word_at(k) {
            Some(w) => {
                Colour::from_name(w).is_some()
                    || Place::from_name(w).is_some()
                    || matches!(
                        w,
                        "tile" | "tiles" | "adjacent" | "orthogonally" | "diagonally" | "other"
                    )
            }
            None => false,
        }
    }

    /// `[two] [adjectives] tile(s) [postmodifiers]` about x.
    fn np(&mut self, x: Var) -> R<Np> {
        let start = self.c.here().start;
        let mut restriction: Option<Formula> = None;
        let mut pair = None;
        let mut hue = None;
        let mut after_no = None;
        let no = self.c.pos > 0 && self.c.toks[self.c.pos - 1].word() == Some("no");
        if let Some(n) = self.number_at(0).filter(|_| self.np_start(1))
            && (no || self.c.is_word("two"))
        {
            // `no two adjacent tiles`: the determiner was `no`.
            self.c.bump();
            after_no = no.then_some(n);
        }
        self.tiles.push(x);
        loop {
            let span = self.c.here();
            let Some(w) = self.c.word().map(str::to_string) else {
                break;
            };
            if let Some(colour) = Colour::from_name(&w) {
                self.c.bump();
                restriction = Some(and_opt(
                    restriction,
                    f(span, FormulaKind::Colour(colour, x)),
                ));
            } else if let Some(place) = Place::from_name(&w) {
                self.c.bump();
                restriction = Some(and_opt(restriction, f(span, FormulaKind::Place(place, x))));
            } else if let Some((rel, len)) = self.pair_adjective() {
                let end = self.c.toks[self.c.pos + len - 1].span.end;
                self.c.pos += len;
                pair = Some((rel, span.start..end));
            } else if w == "other" || w == "another" {
                self.c.bump();
            } else {
                break;
            }
        }
        match self.c.word() {
            Some("tile" | "tiles") => {}
            _ => {
                let e = self.unknown_or("`tile` or `tiles`");
                return Err(if e.examples.is_empty() {
                    e.with_help("statements speak of tiles: `a red tile`, `two blue tiles`")
                } else {
                    e
                });
            }
        };
        let noun = self.c.bump();
        let mut end = noun.end;
        loop {
            if self.c.is_word("of") {
                if let Some((h, len)) = self.hue_at(1) {
                    let at = self.c.here().start..self.c.toks[self.c.pos + len].span.end;
                    if hue.is_some() {
                        return Err(ParsePatternError::new(
                            at,
                            "a tile has one colour phrase (`of the same colour`, `of a different colour`)",
                        ));
                    }
                    self.c.pos += len + 1;
                    end = at.end;
                    hue = Some((h, at));
                    continue;
                }
                // `a tile of the same colour as Q` is `a tile that is the same colour as Q`.
                if !(self.complement_start(1) && matches!(self.c.word_at(1), Some("the" | "a"))) {
                    break;
                }
                self.c.bump();
            } else if matches!(self.c.word(), Some("that" | "which"))
                && matches!(self.c.word_at(1), Some("is" | "are"))
            {
                self.c.pos += 2;
            } else if self.c.is_word("and")
                && matches!(self.c.word_at(1), Some("that" | "which"))
                && matches!(self.c.word_at(2), Some("is" | "are"))
            {
                self.c.pos += 3;
            } else if !self.complement_start(0) || self.c.is_word("not") {
                break;
            }
            let vp = self.complements(x)?;
            end = vp.span.end;
            restriction = Some(and_opt(restriction, vp));
        }
        self.tiles.pop();
        Ok(Np {
            restriction,
            pair,
            span: start..end.max(noun.end),
            hue,
            after_no,
        })
    }

    /// The colour phrase `k` words ahead (after `of`), and how many words it has:
    /// `the same colour` (not `... as`), `a different colour` (not `... from`),
    /// `another colour`, `different colours`.
    fn hue_at(&self, k: usize) -> Option<(Hue, usize)> {
        let w = |i: usize| self.c.word_at(k + i);
        let (hue, len) = match (w(0), w(1), w(2)) {
            (Some("the"), Some("same"), Some("colour")) => (Hue::Same, 3),
            (Some("a"), Some("different"), Some("colour")) => (Hue::Different, 3),
            (Some("another"), Some("colour"), _) => (Hue::Different, 2),
            (Some("different"), Some("colours"), _) => (Hue::Mixed, 2),
            _ => return None,
        };
        let compared = matches!(w(len), Some("as" | "from" | "than" | "to"));
        (!compared).then_some((hue, len))
    }

    /// `adjacent`, `orthogonally adjacent`, `diagonally adjacent` used as an
    /// adjective (not followed by `to`): the relation and how many words.
    fn pair_adjective(&self) -> Option<(Relation, usize)> {
        let (rel, len) = match self.c.word() {
            Some("adjacent") => (Relation::Adjacent, 1),
            Some("orthogonally") if self.c.word_at(1) == Some("adjacent") => {
                (Relation::OrthAdjacent, 2)
            }
            Some("diagonally") if self.c.word_at(1) == Some("adjacent") => {
                (Relation::DiagAdjacent, 2)
            }
            _ => return None,
        };
        (self.c.word_at(len) != Some("to")).then_some((rel, len))
    }

    /// Whether a complement (what follows `is`) starts `k` words ahead.
    fn complement_start(&self, k: usize) -> bool {
        match self.c.word_at(k) {
            Some(w) => {
                Colour::from_name(w).is_some()
                    || Place::from_name(w).is_some()
                    || matches!(
                        w,
                        "not" | "above" | "below" | "different" | "left" | "right"
                    )
                    || w == "adjacent" && self.c.word_at(k + 1) == Some("to")
                    || matches!(w, "orthogonally" | "diagonally")
                        && self.c.word_at(k + 2) == Some("to")
                    || self.c.is_words(&["the", "same"]) && k == 0
                    || w == "the" && self.c.word_at(k + 1) == Some("same")
                    || w == "a" && self.c.word_at(k + 1) == Some("different")
                    || w == "in" && self.c.word_at(k + 1) == Some("the")
                    || w == "to" && self.c.word_at(k + 1) == Some("the")
            }
            None => false,
        }
    }

    /// Complements joined by `and` / `or` (each may repeat `is`): `red or blue`,
    /// `red and adjacent to a green tile`.
    fn complements(&mut self, x: Var) -> R<Formula> {
        let mut a = self.complement(x)?;
        loop {
            let op = match self.c.word() {
                Some("and") => BinOp::And,
                Some("or") => BinOp::Or,
                _ => return Ok(a),
            };
            let k = if matches!(self.c.word_at(1), Some("is" | "are")) {
                2
            } else {
                1
            };
            if !self.complement_start(k) {
                return Ok(a);
            }
            self.c.pos += k;
            let b = self.complement(x)?;
            a = bin(op, a, b);
        }
    }

    fn complement(&mut self, x: Var) -> R<Formula> {
        let span = self.c.here();
        if self.c.eat_word("not") {
            let a = self.complement(x)?;
            return Ok(f(span.start..a.span.end, FormulaKind::Not(Box::new(a))));
        }
        let Some(w) = self.c.word().map(str::to_string) else {
            return Err(self
                .c
                .expected("a colour or a relation (`red`, `adjacent to a blue tile`)"));
        };
        if let Some(c) = Colour::from_name(&w) {
            self.c.bump();
            self.c.eat_word("tile");
            return Ok(f(span, FormulaKind::Colour(c, x)));
        }
        if let Some(p) = Place::from_name(&w) {
            self.c.bump();
            self.c.eat_word("tile");
            return Ok(f(span, FormulaKind::Place(p, x)));
        }
        let phrases: &[(&[&str], Relation, bool)] = &[
            (&["adjacent", "to"], Relation::Adjacent, false),
            (
                &["orthogonally", "adjacent", "to"],
                Relation::OrthAdjacent,
                false,
            ),
            (
                &["diagonally", "adjacent", "to"],
                Relation::DiagAdjacent,
                false,
            ),
            (
                &["in", "the", "same", "row", "as"],
                Relation::SameRow,
                false,
            ),
            (
                &["in", "the", "same", "column", "as"],
                Relation::SameColumn,
                false,
            ),
            (
                &["the", "same", "colour", "as"],
                Relation::SameColour,
                false,
            ),
            (
                &["a", "different", "colour", "from"],
                Relation::SameColour,
                true,
            ),
            (
                &["a", "different", "colour", "than"],
                Relation::SameColour,
                true,
            ),
            (
                &["a", "different", "colour", "to"],
                Relation::SameColour,
                true,
            ),
            (&["different", "colour", "from"], Relation::SameColour, true),
            (&["above"], Relation::Above, false),
            (&["below"], Relation::Below, false),
            (&["left", "of"], Relation::LeftOf, false),
            (&["right", "of"], Relation::RightOf, false),
            (&["to", "the", "left", "of"], Relation::LeftOf, false),
            (&["to", "the", "right", "of"], Relation::RightOf, false),
        ];
        for (words, rel, negated) in phrases {
            if self.c.eat_words(words) {
                let g = self.object(x, *rel, *negated, span.start)?;
                return Ok(g);
            }
        }
        Err(self.unknown_or("a colour (`red`, `blue`, `green`, `yellow`) or a relation (`adjacent to`, `orthogonally adjacent to`, `in the same row as`, `the same colour as`, `above`, `left of` ...)"))
    }

    /// The object of a relation: `a green tile`, `every red tile`, `two blue tiles`.
    fn object(&mut self, x: Var, rel: Relation, negated: bool, start: usize) -> R<Formula> {
        if self.c.is_word("it") {
            return self.it(x, rel, negated, start);
        }
        let det_span = self.c.here();
        let det = match self.det()? {
            Some(d) => d,
            None if self.np_start(0) => Det::Some,
            None => {
                return Err(self.unknown_or("a tile: `a red tile`, `every blue tile`, `two tiles`"));
            }
        };
        let y = self.fresh()?;
        let np = self.np(y)?;
        if let Some((_, at)) = np.pair {
            return Err(pair_refusal(at));
        }
        let span = start..np.span.end;
        let det = fewer_than(det, &np);
        let mut atom = f(span.clone(), FormulaKind::Rel(rel, x, y));
        if negated {
            atom = not(atom);
        }
        let mut restriction = np.restriction;
        if let Some((hue, at)) = &np.hue {
            if let Det::Count(_, n) = det
                && n >= 2
            {
                return Err(ParsePatternError::new(
                    det_span.start..at.end,
                    "ambiguous: tiles of the same colour as the subject, or as each other?",
                )
                .with_help(
                    "for the subject's colour, say `two tiles that are the same colour as it`",
                )
                .with_example(
                    "every tile is adjacent to two tiles that are the same colour as it",
                ));
            }
            let same = f(at.clone(), FormulaKind::Rel(Relation::SameColour, x, y));
            let g = match hue {
                Hue::Same => same,
                Hue::Different => not(same),
                Hue::Mixed => return Err(mixed_refusal(at.clone())),
            };
            restriction = Some(and_opt(restriction, g));
        }
        if rel.reflexive() || matches!(np.hue, Some((Hue::Same, _))) {
            let other = not(f(np.span.clone(), FormulaKind::Same(y, x)));
            restriction = Some(match restriction {
                Some(r) => and(other, r),
                None => other,
            });
        }
        Ok(quantify(det, y, Domain::Subset, restriction, atom, span))
    }

    /// `it` as the object of a relation of x: the one other tile in scope.
    fn it(&mut self, x: Var, rel: Relation, negated: bool, start: usize) -> R<Formula> {
        let at = self.c.bump();
        let others: Vec<Var> = self.tiles.iter().copied().filter(|v| *v != x).collect();
        let z = match others.as_slice() {
            [z] => *z,
            [] => {
                return Err(ParsePatternError::new(
                    at,
                    "`it` has no tile to mean here: it names a tile mentioned before, other than the one it is said of",
                )
                .with_help("use it inside a tile's description, after the tile it means: `every tile is the same colour as some tile adjacent to it`")
                .with_example("every tile is the same colour as some tile adjacent to it"));
            }
            _ => {
                return Err(ParsePatternError::new(
                    at,
                    "`it` could mean more than one of the tiles mentioned before",
                )
                .with_help("name the tile instead (`a red tile`, `the leftmost tile`), or say it with fewer tiles")
                .with_example("every tile is the same colour as some tile adjacent to it"));
            }
        };
        let span = start..at.end;
        let mut atom = f(span.clone(), FormulaKind::Rel(rel, x, z));
        if negated {
            atom = not(atom);
        }
        Ok(if rel.reflexive() {
            and(not(f(span, FormulaKind::Same(x, z))), atom)
        } else {
            atom
        })
    }

    /// Counted tiles of the same colour, or of different colours, among themselves:
    /// `two tiles of the same colour` (see the choices at the top).
    /// `None` when the noun phrase has no colour phrase.
    fn group(&mut self, det: Det, x: Var, dom: Domain, np: &Np, span: Span) -> R<Option<Formula>> {
        let Some((hue, at)) = np.hue.clone() else {
            return Ok(None);
        };
        let (neg, n) = match (det, np.after_no) {
            (Det::Count(CmpOp::Ge, n), _) if n >= 2 => (false, n),
            (Det::Count(CmpOp::Gt, n), _) if n >= 1 => (false, n + 1),
            (Det::No, Some(n)) if n >= 2 => (true, n),
            (Det::Count(..), _) => {
                return Err(ParsePatternError::new(
                    span.start..at.end,
                    "tiles of the same colour are counted with a bare number, `at least`, `more than` or `no`: `exactly`, `at most` and `fewer than` leave open whether one colour or every colour is meant",
                )
                .with_example("every row has two tiles of the same colour"));
            }
            _ => return Err(no_anchor(at)),
        };
        let same = |a: Var, b: Var| f(at.clone(), FormulaKind::Rel(Relation::SameColour, a, b));
        let y = self.fresh()?;
        let r = np.restriction.clone();
        let ry = r.as_ref().map(|g| substitute(g, x, y));
        let body = match hue {
            Hue::Different => return Err(no_anchor(at)),
            Hue::Mixed if n != 2 => return Err(mixed_refusal(at)),
            Hue::Mixed | Hue::Same if n == 2 => {
                let pair = if hue == Hue::Mixed {
                    not(same(x, y))
                } else {
                    same(x, y)
                };
                let mut cond = not(f(at.clone(), FormulaKind::Same(x, y)));
                if let (Some(r), Some(ry)) = (r, ry) {
                    cond = and(and(cond, r), ry);
                }
                let inner = f(
                    span.clone(),
                    FormulaKind::Exists(y, dom, Box::new(and(cond, pair))),
                );
                f(span.clone(), FormulaKind::Exists(x, dom, Box::new(inner)))
            }
            _ => {
                let t = count(span.clone(), y, dom, and_opt(ry, same(x, y)));
                let cmp = f(
                    span.clone(),
                    FormulaKind::Cmp(CmpOp::Ge, t, Term::new(at.clone(), TermKind::Int(n))),
                );
                f(
                    span.clone(),
                    FormulaKind::Exists(x, dom, Box::new(and_opt(r, cmp))),
                )
            }
        };
        Ok(Some(if neg { not(body) } else { body }))
    }

    /// `the number of NP is ...`, `the number of different colours is odd`.
    fn number_sentence(&mut self) -> R<Formula> {
        let a = self.term()?;
        let start = a.span.start;
        if matches!(self.c.word(), Some("is" | "equals")) {
            let equals = self.c.is_word("equals");
            self.c.bump();
            if !equals {
                if let Some(p) = match self.c.word() {
                    Some("odd") => Some(Parity::Odd),
                    Some("even") => Some(Parity::Even),
                    _ => None,
                } {
                    let end = self.c.bump().end;
                    return Ok(f(start..end, FormulaKind::Parity(p, a)));
                }
                if self.c.is_word("not") && matches!(self.c.word_at(1), Some("odd" | "even")) {
                    self.c.bump();
                    let p = if self.c.is_word("odd") {
                        Parity::Even
                    } else {
                        Parity::Odd
                    };
                    let end = self.c.bump().end;
                    return Ok(f(start..end, FormulaKind::Parity(p, a)));
                }
            }
            let op = if equals {
                CmpOp::Eq
            } else {
                self.comparison_words()?
            };
            let b = self.term()?;
            return Ok(f(start..b.span.end, FormulaKind::Cmp(op, a, b)));
        }
        let op = match self.c.sym_at(0) {
            Some(Sym::Eq) => CmpOp::Eq,
            Some(Sym::Ne) => CmpOp::Ne,
            Some(Sym::Lt) => CmpOp::Lt,
            Some(Sym::Le) => CmpOp::Le,
            Some(Sym::Gt) => CmpOp::Gt,
            Some(Sym::Ge) => CmpOp::Ge,
            _ => return Err(self.unknown_or("`is` and a comparison (`is at least two`, `is odd`)")),
        };
        self.c.bump();
        let b = self.term()?;
        Ok(f(start..b.span.end, FormulaKind::Cmp(op, a, b)))
    }

    /// After `is`: `at least`, `more than`, `not`, `equal to`... (nothing: equals).
    fn comparison_words(&mut self) -> R<CmpOp> {
        let neg = self.c.eat_word("not");
        let op = if self.c.eat_words(&["at", "least"]) {
            CmpOp::Ge
        } else if self.c.eat_words(&["at", "most"]) {
            CmpOp::Le
        } else if ["more", "greater", "larger", "bigger"]
            .iter()
            .any(|w| self.c.is_word(w))
            && self.c.word_at(1) == Some("than")
        {
            self.c.pos += 2;
            CmpOp::Gt
        } else if ["less", "fewer", "smaller"]
            .iter()
            .any(|w| self.c.is_word(w))
            && self.c.word_at(1) == Some("than")
        {
            self.c.pos += 2;
            CmpOp::Lt
        } else {
            let _ = self.c.eat_words(&["equal", "to"]) || self.c.eat_word("exactly");
            CmpOp::Eq
        };
        Ok(match (neg, op) {
            (false, op) => op,
            (true, CmpOp::Eq) => CmpOp::Ne,
            (true, CmpOp::Ge) => CmpOp::Lt,
            (true, CmpOp::Le) => CmpOp::Gt,
            (true, CmpOp::Gt) => CmpOp::Le,
            (true, CmpOp::Lt) => CmpOp::Ge,
            (true, CmpOp::Ne) => CmpOp::Eq,
        })
    }

    fn term(&mut self) -> R<Term> {
        let mut a = self.term_atom()?;
        loop {
            let plus = if self.c.eat_word("plus") || self.c.eat_sym(Sym::Plus) {
                true
            } else if self.c.eat_word("minus") || self.c.eat_sym(Sym::Minus) {
                false
            } else {
                return Ok(a);
            };
            let b = self.term_atom()?;
            a = super::symbolic::sum(plus, a, b);
        }
    }

    fn term_atom(&mut self) -> R<Term> {
        let span = self.c.here();
        if let Some(n) = self.number_at(0) {
            self.c.bump();
            return Ok(Term::new(span, TermKind::Int(n)));
        }
        if !self.c.eat_words(&["the", "number", "of"]) {
            return Err(self.unknown_or("a number or `the number of ...`"));
        }
        if self.c.eat_words(&["different", "colours"]) || self.c.eat_word("colours") {
            return Ok(Term::new(span.start..self.c.prev().end, TermKind::Colours));
        }
        let x = self.fresh()?;
        let np = self.np(x)?;
        if let Some((_, at)) = np.hue {
            return Err(no_anchor(at));
        }
        let span = span.start..np.span.end;
        Ok(match np.restriction {
            Some(r) => count(span, x, Domain::Subset, r),
            None => Term::new(span, TermKind::Tiles),
        })
    }
}

/// `no two red tiles` is "fewer than two" (not "no red tile").
fn fewer_than(det: Det, np: &Np) -> Det {
    match (det, np.after_no) {
        (Det::No, Some(n)) if np.pair.is_none() && np.hue.is_none() => Det::Count(CmpOp::Lt, n),
        _ => det,
    }
}

/// A colour phrase with no tile to compare with.
fn no_anchor(at: Span) -> ParsePatternError {
    ParsePatternError::new(at, "`of the same colour` / `of a different colour` here has no tile to compare with")
        .with_help("say it of a relation's object (`every tile is adjacent to a tile of the same colour`), or count the tiles among themselves (`every row has two tiles of the same colour`, `two adjacent tiles are the same colour`)")
        .with_example("every tile is adjacent to a tile of the same colour")
}

fn mixed_refusal(at: Span) -> ParsePatternError {
    ParsePatternError::new(
        at,
        "`of different colours` reads only for two tiles among themselves",
    )
    .with_help(
        "say `two tiles of different colours`, or for one tile `a tile of a different colour`",
    )
    .with_example("every row has two tiles of different colours")
}

fn pair_refusal(at: Span) -> ParsePatternError {
    ParsePatternError::new(at, "`adjacent` before `tiles` only speaks of pairs: `no two adjacent tiles are the same colour`")
        .with_help("for one tile, say what it is adjacent to: `a red tile adjacent to a blue tile`")
        .with_example("no two adjacent tiles are the same colour")
}

/// The formula with variable `from` renamed `to` (for the second tile of a pair).
fn substitute(g: &Formula, from: Var, to: Var) -> Formula {
    let r = |v: &Var| if *v == from { to } else { *v };
    let kind = match &g.kind {
        FormulaKind::Colour(c, v) => FormulaKind::Colour(*c, r(v)),
        FormulaKind::Place(p, v) => FormulaKind::Place(*p, r(v)),
        FormulaKind::Rel(rel, a, b) => FormulaKind::Rel(*rel, r(a), r(b)),
        FormulaKind::Same(a, b) => FormulaKind::Same(r(a), r(b)),
        FormulaKind::Not(a) => FormulaKind::Not(Box::new(substitute(a, from, to))),
        FormulaKind::Bin(op, a, b) => FormulaKind::Bin(
            *op,
            Box::new(substitute(a, from, to)),
            Box::new(substitute(b, from, to)),
        ),
        FormulaKind::Forall(v, d, a) => {
            FormulaKind::Forall(*v, *d, Box::new(substitute(a, from, to)))
        }
        FormulaKind::Exists(v, d, a) => {
            FormulaKind::Exists(*v, *d, Box::new(substitute(a, from, to)))
        }
        FormulaKind::Cmp(op, a, b) => FormulaKind::Cmp(
            *op,
            substitute_term(a, from, to),
            substitute_term(b, from, to),
        ),
        other => other.clone(),
    };
    f(g.span.clone(), kind)
}

fn substitute_term(t: &Term, from: Var, to: Var) -> Term {
    let kind = match &t.kind {
        TermKind::Count(v, d, body) => {
            TermKind::Count(*v, *d, Box::new(substitute(body, from, to)))
        }
        other => other.clone(),
    };
    Term::new(t.span.clone(), kind)
}

const VOCABULARY_HELP: &str = "statements use: tile(s); red blue green yellow; topmost bottommost leftmost rightmost; adjacent to, orthogonally / diagonally adjacent to, in the same row / column as, the same colour as, a different colour from, above, below, left of, right of; row, column, 2x2 square; the number of ...; a, every, no, exactly / at least / at most N (a bare number means at least)";
