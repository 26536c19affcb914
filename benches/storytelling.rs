//! Storytelling speed: Monte Carlo pools per second for a 10-die
//! 10-again pool on one thread and on every thread, and the exact method on
//! a 40-die 8-again rote pool (target: milliseconds).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::systems::storytelling::{Rules, StorytellingCase};
use oddsmith::systems::SystemCase;

fn case(dice: i64, again: u8, rote: bool) -> StorytellingCase {
    StorytellingCase {
        dice,
        modifier: 0,
        rules: Rules {
            pool: dice,
            again,
            rote,
            ..Rules::default()
        },
        need: 1,
        exceptional: 5,
    }
}

fn monte_carlo(c: &mut Criterion) {
    let ten = case(10, 10, false);
    let trials = 2_000_000;
    let mut group = c.benchmark_group("storytelling_mc_10_dice_10_again");
    group.throughput(Throughput::Elements(trials));
    group.sample_size(10);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (label, t) in [("1_thread", 1), ("all_threads", threads)] {
        let workers = Workers::start(Some(t)).unwrap();
        group.bench_function(label, |b| {
            b.iter(|| {
                let settings = McSettings::new(trials, 7);
                workers.install(|| ten.monte_carlo(&settings)).unwrap()
            })
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    let big = case(40, 8, true);
    c.bench_function("storytelling_exact_40_dice_8_again_rote", |b| {
        b.iter(|| big.exact(&mut Budget::unlimited()).unwrap())
    });
}

criterion_group!(benches, monte_carlo, exact);
criterion_main!(benches);
