//! The exact budget's calibration (docs/development.md, "Exact budget"):
//! every exact engine on a few sizes, each timed by criterion beside the
//! time the cost model (`oddsmith::engine::cost`) predicts for it, which
//! is the budget the case spends. Before the benchmarks, one timed run of
//! each case prints a line "predicted ... measured (processor time) ...
//! ratio", the table
//! the rates are fitted on (the pool memo is emptied before each run, so
//! the programmes are timed, not the memo).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use oddsmith::engine::cost::{self, reset_tally, Work};
use oddsmith::engine::exact::Budget;
use oddsmith::scenario;
use oddsmith::systems::cortex::forget_pools;
use oddsmith::systems::Case;

/// The cases timed, by engine: a name and the case as a scenario's table.
const CASES: &[(&str, &str)] = &[
    (
        "programme 100d12 keep 5",
        r#"system = "cortex"
pool = "100d12"
keep = 5
difficulty = 30"#,
    ),
    (
        "programme 200d12 keep 5",
        r#"system = "cortex"
pool = "200d12"
keep = 5
difficulty = 30"#,
    ),
    (
        "programme 200d12 vs 100d6 keep 5",
        r#"system = "cortex"
pool = "200d12"
vs = "100d6"
keep = 5
reaction_keep = 5"#,
    ),
    (
        "hitches 10000d8 vs 2d6",
        r#"system = "cortex"
pool = "10000d8"
vs = "2d6""#,
    ),
    (
        "hitches 20000d4",
        r#"system = "cortex"
pool = "20000d4"
difficulty = 5"#,
    ),
    (
        "plot points 30d8 keep 3, 3 points",
        r#"system = "cortex"
pool = "30d8"
keep = 3
plot_points = 3
difficulty = 25"#,
    ),
    (
        "plot points 10d12 keep 4, 5 points",
        r#"system = "cortex"
pool = "10d12"
keep = 4
plot_points = 5
difficulty = 30"#,
    ),
    (
        "max-effect 12d8",
        r#"system = "cortex"
pool = "12d8"
policy = "max-effect"
difficulty = 12"#,
    ),
    (
        "scene 30 actions",
        r#"system = "cortex-scene"
pool = "d10 2d8 d6"
doom = "2d6"
actions = 30"#,
    ),
    (
        "scene 60 actions",
        r#"system = "cortex-scene"
pool = "d10 2d8 d6"
doom = "2d6"
actions = 60"#,
    ),
    (
        "scene 100 actions",
        r#"system = "cortex-scene"
pool = "d10 2d8 d6"
doom = "2d6"
actions = 100"#,
    ),
    ("economy 8 actions", ECONOMY_8),
    ("economy 12 actions", ECONOMY_12),
    ("economy 16 actions", ECONOMY_16),
    ("economy 24 actions", ECONOMY_24),
    ("economy 30 actions", ECONOMY_30),
    (
        "conflict 10 exchanges",
        r#"system = "cortex-conflict"
hero = "d10 2d8 d6"
foe = "d10 d8 d6"
exchanges = 10"#,
    ),
    (
        "conflict 40 exchanges",
        r#"system = "cortex-conflict"
hero = "d10 2d8 d6"
foe = "d10 d8 d6"
exchanges = 40"#,
    ),
    (
        "conflict mob of 4d8, 10 exchanges",
        r#"system = "cortex-conflict"
hero = "d12 d10 2d8 d6"
foe = "d10 2d8 2d6"
mob = "4d8"
exchanges = 10"#,
    ),
    (
        "storytelling 2000 dice",
        r#"system = "storytelling"
dice = 2000"#,
    ),
    (
        "storytelling 8000 dice",
        r#"system = "storytelling"
dice = 8000"#,
    ),
    (
        "contest 100 vs 100 dice",
        r#"system = "storytelling"
dice = 100
vs_dice = 100"#,
    ),
    (
        "extended 10 dice, 100 in 60 rolls",
        r#"system = "storytelling"
dice = 10
extended = 100
rolls = 60"#,
    ),
    (
        "advantage party 4, d8, 40 rolls",
        r#"system = "advantage"
die = "d8"
party = 4
rolls = 40"#,
    ),
    (
        "advantage party 4, d8, 120 rolls",
        r#"system = "advantage"
die = "d8"
party = 4
rolls = 120"#,
    ),
    (
        "advantage party 4, d10 sharing, 60 rolls",
        r#"system = "advantage"
die = "d10"
party = 4
share = true
rolls = 60"#,
    ),
    (
        "advantage party 4, d10 sharing, 100 rolls",
        r#"system = "advantage"
die = "d10"
party = 4
share = true
rolls = 100"#,
    ),
];

/// The economy scene with every spending rule on (docs/cortex.md).
macro_rules! economy {
    ($actions:literal) => {
        concat!(
            r#"system = "cortex-scene"
pool = "d10 2d8 d6"
doom = "2d6"
start_plot_points = 1
hero_spend = "add-to-total"
distinction = "d4-when-broke"
gm_spend = "to-win"
end_at_2d12 = true
actions = "#,
            $actions
        )
    };
}
const ECONOMY_8: &str = economy!(8);
const ECONOMY_12: &str = economy!(12);
const ECONOMY_16: &str = economy!(16);
const ECONOMY_24: &str = economy!(24);
const ECONOMY_30: &str = economy!(30);

fn case(table: &str) -> Case {
    let text = format!("[[case]]\n{table}\n");
    let mut s = scenario::parse(&text, "budget.toml", "budget").expect("a valid case");
    s.cases.remove(0)
}

/// The budget the case spends: its predicted nanoseconds.
fn predicted(case: &Case) -> u64 {
    forget_pools();
    let mut budget = Budget::unlimited();
    case.spec.exact(&mut budget).expect("exact answers");
    budget.spent()
}

/// This thread's processor time: the budget predicts processor time, and
/// on a loaded machine the wall clock runs ahead of it.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn calibration(c: &mut Criterion) {
    let cases: Vec<(&str, Case)> = CASES.iter().map(|&(n, t)| (n, case(t))).collect();
    println!(
        "{:<40} {:>14} {:>14} {:>7}",
        "case", "predicted ms", "measured ms", "ratio"
    );
    for (name, case) in &cases {
        reset_tally();
        let predicted = predicted(case) as f64 / 1e6;
        let tally = cost::tally();
        forget_pools();
        let start = thread_cpu_seconds();
        black_box(case.spec.exact(&mut Budget::unlimited()).unwrap());
        let measured = (thread_cpu_seconds() - start) * 1e3;
        let units: Vec<String> = Work::ALL
            .iter()
            .zip(tally)
            .filter(|(_, n)| *n > 0)
            .map(|(w, n)| format!("{}={n}", w.name()))
            .collect();
        println!(
            "{name:<40} {predicted:>14.2} {measured:>14.2} {:>7.2}  {}",
            measured / predicted,
            units.join(" ")
        );
    }
    let mut group = c.benchmark_group("budget");
    group.sample_size(10);
    for (name, case) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| {
                forget_pools();
                black_box(case.spec.exact(&mut Budget::unlimited()).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, calibration);
criterion_main!(benches);
