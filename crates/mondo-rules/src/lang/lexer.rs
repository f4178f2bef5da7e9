//! The one lexer behind both pattern forms: words, integers and operator symbols, each
//! with its byte span. Words are lower-cased (the language is case-insensitive) and a
//! few hyphenated compounds (`top-most`, `1-pip`) become single words so that both
//! spellings read alike.

use super::ast::Span;
use super::error::ParsePatternError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A lower-cased word or identifier (letters, digits, `_`, inner `'`).
    Word(String),
    /// A non-negative integer literal.
    Int(i64),
    Sym(Sym),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    LParen,
    RParen,
    Comma,
    Period,
    Colon,
    Semicolon,
    Plus,
    Minus,
    Star,
    Percent,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Bang,
    Amp,
    Pipe,
    Caret,
    Arrow,
    DoubleArrow,
    /// A quotation mark or backtick (around a whole guess, say).
    Quote,
    Question,
}

impl Sym {
    pub(crate) fn text(self) -> &'static str {
        match self {
            Sym::LParen => "(",
            Sym::RParen => ")",
            Sym::Comma => ",",
            Sym::Period => ".",
            Sym::Colon => ":",
            Sym::Semicolon => ";",
            Sym::Plus => "+",
            Sym::Minus => "-",
            Sym::Star => "*",
            Sym::Percent => "%",
            Sym::Eq => "=",
            Sym::Ne => "!=",
            Sym::Lt => "<",
            Sym::Le => "<=",
            Sym::Gt => ">",
            Sym::Ge => ">=",
            Sym::Bang => "!",
            Sym::Amp => "&",
            Sym::Pipe => "|",
            Sym::Caret => "^",
            Sym::Arrow => "->",
            Sym::DoubleArrow => "<->",
            Sym::Quote => "\"",
            Sym::Question => "?",
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Whether whitespace (or a comment) separates it from the previous token.
    pub spaced: bool,
}

impl Token {
    pub(crate) fn word(&self) -> Option<&str> {
        match &self.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }
}

/// What the lexer saw besides the tokens.
#[derive(Debug, Default)]
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    /// A `#` comment occurred (only the symbolic form has them).
    pub comment: bool,
}

/// Hyphenated compounds read as one word, with the word they become.
const COMPOUNDS: &[(&str, &str)] = &[
    ("top-most", "topmost"),
    ("bottom-most", "bottommost"),
    ("left-most", "leftmost"),
    ("right-most", "rightmost"),
    ("1-pip", "1-pip"),
    ("2-pip", "2-pip"),
    ("3-pip", "3-pip"),
    ("one-pip", "1-pip"),
    ("two-pip", "2-pip"),
    ("three-pip", "3-pip"),
    ("buddha-nature", "buddha-nature"),
    ("up-pointing", "up-pointing"),
    ("up-facing", "up-pointing"),
    ("upward-pointing", "up-pointing"),
    ("upward-facing", "up-pointing"),
    ("upwards-pointing", "up-pointing"),
    ("upwards-facing", "up-pointing"),
    ("down-pointing", "down-pointing"),
    ("down-facing", "down-pointing"),
    ("downward-pointing", "down-pointing"),
    ("downward-facing", "down-pointing"),
    ("downwards-pointing", "down-pointing"),
    ("downwards-facing", "down-pointing"),
    ("left-pointing", "left-pointing"),
    ("left-facing", "left-pointing"),
    ("leftward-pointing", "left-pointing"),
    ("leftward-facing", "left-pointing"),
    ("right-pointing", "right-pointing"),
    ("right-facing", "right-pointing"),
    ("rightward-pointing", "right-pointing"),
    ("rightward-facing", "right-pointing"),
    ("medium-sized", "medium"),
    ("mid-sized", "medium"),
    ("middle-sized", "medium"),
    ("small-sized", "small"),
    ("large-sized", "large"),
];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

pub(crate) fn lex(src: &str) -> Result<Lexed, ParsePatternError> {
    let mut out = Lexed::default();
    let chars: Vec<(usize, char)> = src.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(src.len(), |&(b, _)| b);
    let mut i = 0;
    let mut spaced = true;
    while i < chars.len() {
        let (start, c) = chars[i];
        if c.is_whitespace() {
            spaced = true;
            i += 1;
            continue;
        }
        if c == '#' {
            out.comment = true;
            while i < chars.len() && chars[i].1 != '\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        if is_word_char(c) {
            let mut j = i;
            // A word: alphanumerics, `_`, and apostrophes between letters (`isn't`).
            while j < chars.len() {
                let cj = chars[j].1;
                let inner_quote = (cj == '\'' || cj == '\u{2019}')
                    && j > i
                    && chars.get(j + 1).is_some_and(|&(_, n)| n.is_alphabetic());
                if is_word_char(cj) || inner_quote {
                    j += 1;
                } else {
                    break;
                }
            }
            let mut text: String = src[start..end_of(j)]
                .to_lowercase()
                .replace('\u{2019}', "'");
            // Hyphenated compounds: `top-most`, `1-pip`.
            if chars.get(j).is_some_and(|&(_, c)| c == '-') {
                let mut k = j + 1;
                while k < chars.len() && chars[k].1.is_alphabetic() {
                    k += 1;
                }
                if k > j + 1 {
                    let joined = src[start..end_of(k)].to_lowercase();
                    if let Some((_, to)) = COMPOUNDS.iter().find(|(from, _)| *from == joined) {
                        text = (*to).to_string();
                        j = k;
                    }
                }
            }
            let span = start..end_of(j);
            let tok = if text.chars().all(|c| c.is_ascii_digit()) {
                match text.parse::<i64>() {
                    Ok(n) => Tok::Int(n),
                    Err(_) => {
                        return Err(ParsePatternError::new(
                            span,
                            format!("the number `{text}` is too large"),
                        ));
                    }
                }
            } else {
                Tok::Word(text)
            };
            out.tokens.push(Token { tok, span, spaced });
            spaced = false;
            i = j;
            continue;
        }
        let next = chars.get(i + 1).map(|&(_, c)| c);
        let next2 = chars.get(i + 2).map(|&(_, c)| c);
        let (sym, len) = match (c, next, next2) {
            ('<', Some('-'), Some('>')) => (Sym::DoubleArrow, 3),
            ('<', Some('='), Some('>')) => (Sym::DoubleArrow, 3),
            ('-', Some('>'), _) => (Sym::Arrow, 2),
            ('=', Some('>'), _) => (Sym::Arrow, 2),
            ('<', Some('='), _) => (Sym::Le, 2),
            ('>', Some('='), _) => (Sym::Ge, 2),
            ('!', Some('='), _) => (Sym::Ne, 2),
            ('=', Some('='), _) => (Sym::Eq, 2),
            ('&', Some('&'), _) => (Sym::Amp, 2),
            ('|', Some('|'), _) => (Sym::Pipe, 2),
            ('(', ..) => (Sym::LParen, 1),
            (')', ..) => (Sym::RParen, 1),
            (',', ..) => (Sym::Comma, 1),
            ('.', ..) => (Sym::Period, 1),
            (':', ..) => (Sym::Colon, 1),
            (';', ..) => (Sym::Semicolon, 1),
            ('+', ..) => (Sym::Plus, 1),
            ('-', ..) | ('\u{2212}', ..) => (Sym::Minus, 1),
            ('*', ..) | ('\u{d7}', ..) => (Sym::Star, 1),
            ('%', ..) => (Sym::Percent, 1),
            ('=', ..) => (Sym::Eq, 1),
            ('<', ..) => (Sym::Lt, 1),
            ('>', ..) => (Sym::Gt, 1),
            ('!', ..) | ('~', ..) | ('\u{ac}', ..) => (Sym::Bang, 1),
            ('&', ..) | ('\u{2227}', ..) => (Sym::Amp, 1),
            ('|', ..) | ('\u{2228}', ..) => (Sym::Pipe, 1),
            ('^', ..) | ('\u{2295}', ..) => (Sym::Caret, 1),
            ('"' | '\'' | '`' | '\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}', ..) => {
                (Sym::Quote, 1)
            }
            ('?', ..) => (Sym::Question, 1),
            ('\u{2192}', ..) => (Sym::Arrow, 1),
            ('\u{2194}', ..) => (Sym::DoubleArrow, 1),
            ('\u{2260}', ..) => (Sym::Ne, 1),
            ('\u{2264}', ..) => (Sym::Le, 1),
            ('\u{2265}', ..) => (Sym::Ge, 1),
            ('\u{2200}', ..) | ('\u{2203}', ..) => {
                let word = if c == '\u{2200}' { "forall" } else { "exists" };
                let span = start..end_of(i + 1);
                out.tokens.push(Token {
                    tok: Tok::Word(word.into()),
                    span,
                    spaced,
                });
                spaced = false;
                i += 1;
                continue;
            }
            _ => {
                return Err(ParsePatternError::new(
                    start..end_of(i + 1),
                    format!("unexpected character `{c}`"),
                ));
            }
        };
        out.tokens.push(Token {
            tok: Tok::Sym(sym),
            span: start..end_of(i + len),
            spaced,
        });
        spaced = false;
        i += len;
    }
    Ok(out)
}

impl Sym {
    /// Whether a number term goes on after it (an operator or a comparison).
    pub(crate) fn continues_term(self) -> bool {
        matches!(
            self,
            Sym::Plus
                | Sym::Minus
                | Sym::Star
                | Sym::Percent
                | Sym::Eq
                | Sym::Ne
                | Sym::Lt
                | Sym::Le
                | Sym::Gt
                | Sym::Ge
        )
    }
}

/// One level deeper in a reader's recursion; refused past `max` (keeps recursion,
/// and variable indices, bounded).
pub(crate) fn deeper(nesting: &mut u32, max: u32, at: Span) -> Result<(), ParsePatternError> {
    *nesting += 1;
    if *nesting > max {
        return Err(ParsePatternError::new(
            at,
            "the pattern is nested too deeply",
        ));
    }
    Ok(())
}

/// A position in a token list, shared by both parsers.
pub(crate) struct Cursor {
    pub toks: Vec<Token>,
    pub pos: usize,
    /// Length of the source, for the span of "the end of the text".
    pub end: usize,
}

impl Cursor {
    pub(crate) fn new(toks: Vec<Token>, end: usize) -> Cursor {
        Cursor { toks, pos: 0, end }
    }

    pub(crate) fn peek_at(&self, k: usize) -> Option<&Token> {
        self.toks.get(self.pos + k)
    }

    pub(crate) fn word_at(&self, k: usize) -> Option<&str> {
        self.peek_at(k).and_then(Token::word)
    }

    pub(crate) fn word(&self) -> Option<&str> {
        self.word_at(0)
    }

    pub(crate) fn is_word(&self, w: &str) -> bool {
        self.word() == Some(w)
    }

    /// Whether the next words are exactly `ws`.
    pub(crate) fn is_words(&self, ws: &[&str]) -> bool {
        ws.iter()
            .enumerate()
            .all(|(k, w)| self.word_at(k) == Some(*w))
    }

    pub(crate) fn sym_at(&self, k: usize) -> Option<Sym> {
        match self.peek_at(k).map(|t| &t.tok) {
            Some(Tok::Sym(s)) => Some(*s),
            _ => None,
        }
    }

    pub(crate) fn is_sym(&self, s: Sym) -> bool {
        self.sym_at(0) == Some(s)
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Span of the next token, or the empty span at the end of the text.
    pub(crate) fn here(&self) -> Span {
        self.peek_at(0)
            .map_or(self.end..self.end, |t| t.span.clone())
    }

    /// Span of the previous token (the one just consumed).
    pub(crate) fn prev(&self) -> Span {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.toks.get(i))
            .map_or(0..0, |t| t.span.clone())
    }

    pub(crate) fn bump(&mut self) -> Span {
        let span = self.here();
        self.pos = (self.pos + 1).min(self.toks.len());
        span
    }

    pub(crate) fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.is_word(w);
        if yes {
            self.bump();
        }
        yes
    }

    pub(crate) fn eat_words(&mut self, ws: &[&str]) -> bool {
        let yes = self.is_words(ws);
        if yes {
            self.pos += ws.len();
        }
        yes
    }

    pub(crate) fn eat_sym(&mut self, s: Sym) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.bump();
        }
        yes
    }

    /// How the next token reads in an error message.
    pub(crate) fn found(&self) -> String {
        match self.peek_at(0).map(|t| &t.tok) {
            None => "the end of the pattern".into(),
            Some(Tok::Word(w)) => format!("`{w}`"),
            Some(Tok::Int(n)) => format!("`{n}`"),
            Some(Tok::Sym(s)) => format!("`{}`", s.text()),
        }
    }

    /// An error at the next token: "expected X, found Y".
    pub(crate) fn expected(&self, what: &str) -> ParsePatternError {
        ParsePatternError::new(
            self.here(),
            format!("expected {what}, found {}", self.found()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<Tok> {
        lex(src)
            .unwrap()
            .tokens
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn compounds_numbers_and_symbols() {
        assert_eq!(
            words("Top-most 1-pip isn't 12 <-> x->y"),
            vec![
                Tok::Word("topmost".into()),
                Tok::Word("1-pip".into()),
                Tok::Word("isn't".into()),
                Tok::Int(12),
                Tok::Sym(Sym::DoubleArrow),
                Tok::Word("x".into()),
                Tok::Sym(Sym::Arrow),
                Tok::Word("y".into()),
            ]
        );
        // A hyphen that does not make a known compound is a minus sign.
        assert_eq!(
            words("width-height"),
            vec![
                Tok::Word("width".into()),
                Tok::Sym(Sym::Minus),
                Tok::Word("height".into())
            ]
        );
    }

    #[test]
    fn spans_are_bytes_and_comments_are_skipped() {
        let l = lex("up(x) # é comment\n& ∀").unwrap();
        assert!(l.comment);
        let spans: Vec<_> = l.tokens.iter().map(|t| t.span.clone()).collect();
        assert_eq!(spans, vec![0..2, 2..3, 3..4, 4..5, 19..20, 21..24]);
        assert!(lex("a @ b").is_err());
        assert!(lex("99999999999999999999").is_err());
    }
}
