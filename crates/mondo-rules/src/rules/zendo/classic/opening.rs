//! How a Classic game opens: the Master's rule and the two initial structures. The
//! umpire picks the rule from the pool (or generates one) as for a duel; a host who
//! does not play may be the Master and type the rule instead, which must then be
//! *reasonable* ([`finder::reasonable`]: neither always nor never true, obeyed by a
//! fair share of random structures, not needlessly long), as Triple's given patterns
//! are. Pure, but it runs the finder: an async front calls it on a blocking thread.

use crate::finder::{self, Limits, ReasonableOptions};
use crate::koan::PieceSet;
use crate::lang;
use crate::rules::zendo::opening::{Opening, Source, opening};

/// The rule and the initial structures of a new Classic game of `set`.
pub fn classic_opening(
    source: Source<'_>,
    set: PieceSet,
    seed: u64,
    limits: &Limits,
) -> Result<Opening, String> {
    if let Source::Pattern(text) = source {
        let rule = lang::parse(text).map_err(|e| format!("the rule does not read: {e}"))?;
        let report = finder::reasonable(&rule, set, &ReasonableOptions::default());
        if !report.accepted() {
            return Err(format!(
                "the rule is not reasonable: {}",
                report.refusals.join("; ")
            ));
        }
    }
    opening(source, set, seed, limits).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masters_rule_must_be_reasonable() {
        let limits = Limits::default();
        let set = PieceSet::Pyramids;
        let ok = classic_opening(Source::Pattern("some piece points up"), set, 1, &limits);
        assert!(ok.is_ok(), "{:?}", ok.err());
        let e = classic_opening(
            Source::Pattern("some piece points up or not some piece points up"),
            set,
            1,
            &limits,
        )
        .unwrap_err();
        assert!(
            e.contains("not reasonable") && e.contains("tautology"),
            "{e}"
        );
        let e =
            classic_opening(Source::Pattern("some piece is purple"), set, 1, &limits).unwrap_err();
        assert!(e.contains("does not read"), "{e}");
    }
}
