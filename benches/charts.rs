//! Chart rendering speed: the charts of an 18-case Cortex sweep (heatmap,
//! stacked effect bars, hitch bars), as PNG and as SVG.

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use oddsmith::cli::{FormatArg, MethodArg};
use oddsmith::commands::evaluate::{evaluate_case, Settings};
use oddsmith::report::chart::{charts, render};
use oddsmith::report::{Report, ReportKind, TableLayout};

fn sweep() -> Report {
    let text = "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8 2d6\", \"d10 d8 d6\", \"d12 d10 d8 d6\"]\nvs = [\"2d6\", \"2d8\", \"2d10\", \"3d6\", \"3d8\", \"3d10\"]\n";
    let scenario = oddsmith::scenario::parse(text, "bench.toml", "bench").expect("valid");
    let settings = Settings {
        trials: 1,
        seed: 1,
        workers: Default::default(),
        method: MethodArg::Exact,
        format: FormatArg::Table,
        quiet: true,
        fractions: false,
    };
    let cancel = AtomicBool::new(false);
    let results = scenario
        .cases
        .iter()
        .flat_map(|c| evaluate_case(c, &settings, &cancel).expect("exact"))
        .collect();
    Report {
        kind: ReportKind::Cases,
        name: "bench".into(),
        description: None,
        seed: 1,
        trials: 1,
        results,
        balances: Vec::new(),
        table: TableLayout::Compact,
        spilled_distributions: None,
        presentation: Default::default(),
    }
}

fn bench(c: &mut Criterion) {
    let report = sweep();
    let all = charts(&report);
    c.bench_function("cortex sweep charts as PNG", |b| {
        b.iter(|| {
            for chart in &all {
                render::png(chart).expect("renders");
            }
        })
    });
    c.bench_function("cortex sweep charts as SVG", |b| {
        b.iter(|| {
            for chart in &all {
                render::svg(chart).expect("renders");
            }
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
