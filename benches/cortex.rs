//! Cortex speed targets (foundation issue): Monte Carlo opposed rolls per
//! second for `d10 2d8 d6` against `2d6` on one thread and on every thread
//! (target: 25 million per second per thread), and the exact engine on a
//! 20-die mixed pool against 5d12 (target: under 5 ms).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::dice::Pool;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::McSettings;
use oddsmith::systems::cortex::{CortexCase, Opposition, Rules};
use oddsmith::systems::SystemCase;

fn case(pool: &str, vs: &str) -> CortexCase {
    CortexCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        opposition: Opposition::Pool(Pool::parse_cortex(vs).unwrap()),
        rules: Rules::default(),
    }
}

fn monte_carlo(c: &mut Criterion) {
    let opposed = case("d10 2d8 d6", "2d6");
    let trials = 4_000_000;
    let mut group = c.benchmark_group("cortex_mc_opposed");
    group.throughput(Throughput::Elements(trials));
    group.sample_size(10);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (label, t) in [("1_thread", 1), ("all_threads", threads)] {
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut settings = McSettings::new(trials, 7);
                settings.threads = t;
                opposed.monte_carlo(&settings).unwrap()
            })
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    let big = case("2d12 4d10 6d8 5d6 3d4", "5d12");
    c.bench_function("cortex_exact_20_dice_vs_5d12", |b| {
        b.iter(|| big.exact(&mut Budget::unlimited()).unwrap())
    });
}

criterion_group!(benches, monte_carlo, exact);
criterion_main!(benches);
