//! Reading patterns as players type them: the golden phrasings (each reads) and the
//! golden refusals (each refused, with its suggestions read before they are offered).
//! Criterion's throughput figure gives the time per pattern.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mondo::lang::parse;
use std::hint::black_box;

fn patterns(file: &str, arrow: bool) -> Vec<String> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("golden file");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .map(|l| match l.split_once("  =>  ") {
            Some((phrase, _)) if arrow => phrase.trim().to_string(),
            _ => l.to_string(),
        })
        .collect()
}

fn read(c: &mut Criterion) {
    let mut group = c.benchmark_group("read");
    for (name, file, arrow) in [
        ("golden phrasings", "lang_phrasings.txt", true),
        ("golden refusals", "lang_refusals.txt", false),
    ] {
        let ps = patterns(file, arrow);
        group.throughput(Throughput::Elements(ps.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for p in &ps {
                    let _ = black_box(parse(black_box(p)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
