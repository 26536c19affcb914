//! Cortex speed targets: Monte Carlo opposed rolls per
//! second for `d10 2d8 d6` against `2d6` on one thread and on every thread
//! (target: 25 million per second per thread), and the exact engine on a
//! 20-die mixed pool against 5d12 (target: under 5 ms). Beside
//! the Monte Carlo, the generator floor (the same six dice per trial drawn
//! by the same generator in a bare loop; target: Monte Carlo at most 2.0x
//! it), the exactly rounded single roll, and a 128-case exact sweep. The
//! Monte Carlo draws a batch's dice with this very loop (one `DieRoller`
//! a block, `roll` per die, trial after trial), storing each face instead
//! of summing it, then scores the batch side by side: the ratio is what
//! scoring and counting add to drawing.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::dice::Pool;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::engine::rng::{block_rng, DieRoller};
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
        let workers = Workers::start(Some(t)).unwrap();
        group.bench_function(label, |b| {
            b.iter(|| {
                let settings = McSettings::new(trials, 7);
                workers.install(|| opposed.monte_carlo(&settings)).unwrap()
            })
        });
    }
    // The floor: the same six dice per trial, same generator and die
    // roller, summed so the compiler keeps the draws; nothing else.
    let sides: Vec<u32> = ["d10 2d8 d6", "2d6"]
        .iter()
        .flat_map(|p| Pool::parse_cortex(p).unwrap().dice().to_vec())
        .map(|d| d.sides())
        .collect();
    group.bench_function("generator_floor_1_thread", |b| {
        b.iter(|| black_box(floor(&sides, trials)))
    });
    group.finish();
}

/// The generator floor: `trials` times the dice of `sides`, one die roller
/// throughout as a block's batches have, summed. Not inlined, so that
/// `callgrind` counts it on its own.
#[inline(never)]
fn floor(sides: &[u32], trials: u64) -> u32 {
    let mut rng = block_rng(7, 0);
    let mut roller = DieRoller::new(&mut rng);
    let mut sum = 0u32;
    for _ in 0..trials {
        for &s in sides {
            sum = sum.wrapping_add(roller.roll(s));
        }
    }
    sum
}

fn exact(c: &mut Criterion) {
    let big = case("2d12 4d10 6d8 5d6 3d4", "5d12");
    c.bench_function("cortex_exact_20_dice_vs_5d12", |b| {
        b.iter(|| big.exact(&mut Budget::unlimited()).unwrap())
    });
}

/// One exactly rounded opposed roll (pools memoised after the
/// first iteration, as in any run that meets them again), and the 128-case
/// sweep of 8 hero pools against 16 doom pools (2..5 dice of d6..d12).
fn exact_rounded(c: &mut Criterion) {
    let single = case("d10 2d8 d6", "2d6");
    c.bench_function("cortex_exact_rounded_d10_2d8_d6_vs_2d6", |b| {
        b.iter(|| black_box(single.exact(&mut Budget::unlimited()).unwrap()))
    });
    let heroes = [
        "d8 2d6",
        "d8 d8 d6",
        "d10 2d8 d6",
        "d12 d10 d8 d6",
        "d12 d10 2d8 d6",
        "2d10 d8",
        "d12 2d8 2d6",
        "3d10 2d6",
    ];
    let mut sweep = Vec::new();
    for hero in heroes {
        for size in [6, 8, 10, 12] {
            for count in 2..=5 {
                sweep.push(case(hero, &format!("{count}d{size}")));
            }
        }
    }
    assert_eq!(sweep.len(), 128);
    c.bench_function("cortex_exact_sweep_128_cases", |b| {
        b.iter(|| {
            for case in &sweep {
                black_box(case.exact(&mut Budget::unlimited()).unwrap());
            }
        })
    });
}

criterion_group!(benches, monte_carlo, exact, exact_rounded);
criterion_main!(benches);
