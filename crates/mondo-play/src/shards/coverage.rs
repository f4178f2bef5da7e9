//! Whether the `mondo serve` processes on one database run every shard of the bot
//! exactly once (docs/scale.md, "One range each: the coverage check"): given the
//! ranges the live processes announced and this process's total, which shards no
//! process runs, which more than one runs, and which processes were given another
//! total. Pure: the store reads the ranges, `bot::coverage` logs what this finds.

use super::ShardRange;
use crate::store::ShardRunner;
use std::fmt;

/// What the processes' ranges leave wrong, for one total; all empty when every shard
/// is run by exactly one process.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// The total the check was made for (this process's).
    pub total: u32,
    /// How many live processes run shards of that total.
    pub processes: usize,
    /// Shards no process runs, as maximal ranges, ascending.
    pub uncovered: Vec<ShardRange>,
    /// Shards more than one process runs: maximal ranges run by the same processes,
    /// ascending, each with those processes (owner names, sorted).
    pub overlapping: Vec<(ShardRange, Vec<String>)>,
    /// Processes given another total (their shard ids name other servers' shards, so
    /// they are left out of the rest): owner, range, total.
    pub other_totals: Vec<(String, ShardRange, u32)>,
}

impl Coverage {
    /// Every shard run by exactly one process, every process on the same total.
    pub fn is_exact(&self) -> bool {
        self.uncovered.is_empty() && self.overlapping.is_empty() && self.other_totals.is_empty()
    }

    /// How many shards no process runs.
    pub fn uncovered_shards(&self) -> u32 {
        self.uncovered.iter().map(ShardRange::count).sum()
    }

    /// How many shards more than one process runs.
    pub fn overlapping_shards(&self) -> u32 {
        self.overlapping.iter().map(|(r, _)| r.count()).sum()
    }

    /// One line per thing wrong, each saying which shards and what it does to the bot
    /// (none when exact).
    pub fn problems(&self) -> Vec<String> {
        let total = self.total;
        let mut lines = Vec::new();
        if !self.uncovered.is_empty() {
            lines.push(format!(
                "{} of {total} run in no live process on this database: their servers' \
                 commands go unanswered (start a process with --shards {})",
                Shards(&self.uncovered),
                self.uncovered[0]
            ));
        }
        for (range, owners) in &self.overlapping {
            lines.push(format!(
                "{} of {total} run in {} processes ({}): Discord sends their servers' \
                 events to each, so commands are answered twice or refused; give each \
                 process its own --shards",
                Shards(std::slice::from_ref(range)),
                owners.len(),
                owners.join(", ")
            ));
        }
        for (owner, range, other) in &self.other_totals {
            lines.push(format!(
                "process {owner} runs shards {range} of a total of {other}, this one of \
                 {total}: every process of one bot must be given the same --shard-total"
            ));
        }
        lines
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_exact() {
            write!(
                f,
                "every shard of {} runs in exactly one live process ({} in all)",
                self.total, self.processes
            )
        } else {
            f.write_str(&self.problems().join("; "))
        }
    }
}

/// `shard 3`, `shards 3-5`, `shards 0, 3-5`.
struct Shards<'a>(&'a [ShardRange]);

impl fmt::Display for Shards<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = self.0.len() == 1 && self.0[0].count() == 1;
        f.write_str(if one { "shard " } else { "shards " })?;
        let list: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&list.join(", "))
    }
}

/// The check: `runners` are the live processes' announced ranges (this process's
/// among them), `total` this process's total.
pub fn coverage(total: u32, runners: &[ShardRunner]) -> Coverage {
    let (same, other): (Vec<&ShardRunner>, Vec<&ShardRunner>) =
        runners.iter().partition(|r| r.total == total);
    let range = |r: &ShardRunner| ShardRange {
        first: r.first,
        last: r.last,
    };
    // Where the set of processes running a shard can change: the ends of the ranges.
    // Each piece between two of them is run by the same processes throughout (a sweep
    // over the ranges, never over the shards: a total may be large).
    let mut cuts: Vec<u64> = vec![0, u64::from(total)];
    for r in &same {
        cuts.push(u64::from(r.first));
        cuts.push(u64::from(r.last) + 1);
    }
    cuts.retain(|c| *c <= u64::from(total));
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Coverage {
        total,
        processes: same.len(),
        other_totals: other
            .iter()
            .map(|r| (r.owner.clone(), range(r), r.total))
            .collect(),
        ..Coverage::default()
    };
    for w in cuts.windows(2) {
        let piece = ShardRange {
            first: w[0] as u32,
            last: (w[1] - 1) as u32,
        };
        let mut owners: Vec<String> = same
            .iter()
            .filter(|r| range(r).contains(piece.first))
            .map(|r| r.owner.clone())
            .collect();
        owners.sort();
        match owners.len() {
            0 => push_joined(&mut out.uncovered, piece),
            1 => {}
            _ => match out.overlapping.last_mut() {
                Some((prev, who)) if prev.last + 1 == piece.first && *who == owners => {
                    prev.last = piece.last;
                }
                _ => out.overlapping.push((piece, owners)),
            },
        }
    }
    out
}

/// Appends `piece`, joined to the last range if they touch.
fn push_joined(ranges: &mut Vec<ShardRange>, piece: ShardRange) {
    match ranges.last_mut() {
        Some(prev) if prev.last + 1 == piece.first => prev.last = piece.last,
        _ => ranges.push(piece),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner(owner: &str, range: &str, total: u32) -> ShardRunner {
        let r: ShardRange = range.parse().unwrap();
        ShardRunner {
            owner: owner.into(),
            first: r.first,
            last: r.last,
            total,
        }
    }

    fn r(s: &str) -> ShardRange {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_that_cover_each_shard_once_are_exact_in_any_order() {
        let c = coverage(
            8,
            &[
                runner("c", "6-7", 8),
                runner("a", "0-2", 8),
                runner("b", "3-5", 8),
            ],
        );
        assert!(c.is_exact(), "{c:?}");
        assert_eq!(c.processes, 3);
        assert_eq!(c.problems(), Vec::<String>::new());
        assert_eq!(
            c.to_string(),
            "every shard of 8 runs in exactly one live process (3 in all)"
        );
        assert!(coverage(1, &[runner("a", "0", 1)]).is_exact());
    }

    #[test]
    fn a_gap_names_the_shards_no_process_runs() {
        // 0-1 and 4-5 of 8: 2-3 and 6-7 are nobody's.
        let c = coverage(8, &[runner("a", "0-1", 8), runner("b", "4-5", 8)]);
        assert_eq!(c.uncovered, [r("2-3"), r("6-7")]);
        assert_eq!(c.uncovered_shards(), 4);
        assert!(c.overlapping.is_empty() && !c.is_exact());
        let lines = c.problems();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("shards 2-3, 6-7 of 8 run in no live process")
                && lines[0].contains("--shards 2-3"),
            "{}",
            lines[0]
        );
        // Alone, a process sees the rest uncovered; one shard is said as one.
        let c = coverage(4, &[runner("a", "0-2", 4)]);
        assert_eq!(c.uncovered, [r("3")]);
        assert!(c.problems()[0].starts_with("shard 3 of 4 run"), "{c}");
        // Nobody at all: everything.
        assert_eq!(coverage(3, &[]).uncovered, [r("0-2")]);
    }

    #[test]
    fn an_overlap_names_the_shards_and_the_processes_that_share_them() {
        // a 0-2 and b 2-3 of 4: shard 2 is run twice; nothing is missing.
        let c = coverage(4, &[runner("b", "2-3", 4), runner("a", "0-2", 4)]);
        assert_eq!(c.overlapping, [(r("2"), vec!["a".into(), "b".into()])]);
        assert_eq!(c.overlapping_shards(), 1);
        assert!(c.uncovered.is_empty());
        let line = &c.problems()[0];
        assert!(
            line.starts_with("shard 2 of 4 run in 2 processes (a, b)") && line.contains("twice"),
            "{line}"
        );
        // Pieces run by different sets of processes are said apart; touching pieces by
        // the same set are one range.
        let c = coverage(
            8,
            &[
                runner("a", "0-5", 8),
                runner("b", "2-3", 8),
                runner("c", "3-7", 8),
            ],
        );
        assert_eq!(
            c.overlapping,
            [
                (r("2"), vec!["a".into(), "b".into()]),
                (r("3"), vec!["a".into(), "b".into(), "c".into()]),
                (r("4-5"), vec!["a".into(), "c".into()]),
            ]
        );
        assert_eq!(c.overlapping_shards(), 4);
        // Two processes with the same range: all of it.
        let c = coverage(2, &[runner("a", "0-1", 2), runner("b", "0-1", 2)]);
        assert_eq!(c.overlapping, [(r("0-1"), vec!["a".into(), "b".into()])]);
    }

    #[test]
    fn a_gap_and_an_overlap_together_and_another_total_said_apart() {
        let c = coverage(
            6,
            &[
                runner("a", "0-1", 6),
                runner("b", "1-2", 6),
                runner("x", "0-3", 4),
            ],
        );
        assert_eq!(c.uncovered, [r("3-5")]);
        assert_eq!(c.overlapping, [(r("1"), vec!["a".into(), "b".into()])]);
        // The process on 4 shards counts for nothing of the 6 (its shard 3 is not ours).
        assert_eq!(c.other_totals, [("x".into(), r("0-3"), 4)]);
        assert_eq!(c.processes, 2);
        let lines = c.problems();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[2].contains("process x runs shards 0-3 of a total of 4, this one of 6"),
            "{}",
            lines[2]
        );
        assert_eq!(c.to_string(), lines.join("; "));
    }

    #[test]
    fn a_huge_total_is_checked_without_walking_every_shard() {
        let c = coverage(u32::MAX, &[runner("a", "0-9", u32::MAX)]);
        assert_eq!(
            c.uncovered,
            [ShardRange {
                first: 10,
                last: u32::MAX - 1
            }]
        );
    }
}
