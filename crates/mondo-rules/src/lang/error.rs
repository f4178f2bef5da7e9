//! Errors of the pattern language: where reading failed, what was expected there, and
//! a corrected example when one is obvious.
//!
//! Rendering uses ariadne with colour off and its ASCII character set: the picture is
//! plain text that survives a Discord code block, and ariadne already handles what a
//! hand-rolled caret line gets wrong (multi-line symbolic patterns, wide characters,
//! tabs, spans at the end of the text).

use super::ast::Span;
use std::fmt;

/// Why a pattern text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePatternError {
    /// Byte span of the word (or symbol) where reading failed; empty at the end of text.
    pub span: Span,
    /// One line: what was wrong there and what was expected.
    pub message: String,
    /// A further hint (e.g. the allowed names), if any.
    pub help: Option<String>,
    /// Corrected versions of the whole pattern, when they are obvious.
    pub examples: Vec<String>,
    /// Whether the examples are every reading of the refused words (an ambiguity):
    /// where they all mean the same, the words are clear after all.
    pub readings: bool,
}

impl ParsePatternError {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> ParsePatternError {
        ParsePatternError {
            span,
            message: message.into(),
            help: None,
            examples: Vec::new(),
            readings: false,
        }
    }

    /// Marks the examples as every reading of the refused words.
    pub(crate) fn with_readings(mut self) -> ParsePatternError {
        self.readings = true;
        self
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> ParsePatternError {
        self.help = Some(help.into());
        self
    }

    pub(crate) fn with_example(mut self, example: impl Into<String>) -> ParsePatternError {
        self.examples.push(example.into());
        self
    }

    /// The first corrected example, if any.
    pub fn example(&self) -> Option<&str> {
        self.examples.first().map(String::as_str)
    }

    /// Draws the error under the source text in plain ASCII (fits a code block).
    pub fn render(&self, source: &str) -> String {
        let mut notes = Vec::new();
        if let Some(h) = &self.help {
            notes.push(h.clone());
        }
        for e in &self.examples {
            notes.push(format!("try: {e}"));
        }
        render_report(source, &self.span, &self.message, "here", &notes)
    }
}

impl fmt::Display for ParsePatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParsePatternError {}

/// A pattern that speaks of something the game's piece set lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetError {
    /// Span of the word that speaks of it.
    pub span: Span,
    /// That word (or phrase) as written, or the symbolic name.
    pub word: String,
    pub message: String,
}

impl SetError {
    /// Draws the error under the source text in plain ASCII.
    pub fn render(&self, source: &str) -> String {
        render_report(source, &self.span, &self.message, "this", &[])
    }
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SetError {}

fn render_report(
    source: &str,
    span: &Span,
    message: &str,
    label: &str,
    notes: &[String],
) -> String {
    use ariadne::{CharSet, Config, IndexType, Label, Report, ReportKind, Source};
    // Clamp to the text and to character boundaries, so a stale span never panics.
    let clamp = |mut i: usize| {
        i = i.min(source.len());
        while !source.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (start, end) = (clamp(span.start), clamp(span.end));
    let end = end.max(start);
    let config = Config::default()
        .with_color(false)
        .with_char_set(CharSet::Ascii)
        .with_index_type(IndexType::Byte);
    let mut report = Report::build(ReportKind::Error, ("pattern", start..end))
        .with_config(config)
        .with_message(message)
        .with_label(Label::new(("pattern", start..end)).with_message(label));
    for n in notes {
        report = report.with_help(n);
    }
    let mut out = Vec::new();
    if report
        .finish()
        .write(("pattern", Source::from(source)), &mut out)
        .is_err()
    {
        return format!("{message}\n");
    }
    let text = String::from_utf8_lossy(&out);
    text.lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect()
}
