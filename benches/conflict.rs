//! Speed target of Cortex conflicts: a 10-exchange conflict with 5-die
//! pools and a 4-die mob, exact, in under 50 ms (the exact Markov chain
//! with its opposed rolls memoised per pair of pools); and Monte Carlo
//! fights of `d10 2d8 d6` against `d10 d8 d6` on one thread beside the
//! generator floor: the very dice those fights draw
//! ([`ConflictCase::floor_sides`]), from the same generator and die roller,
//! summed in a bare loop (target: Monte Carlo at most 1.3x it).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::dice::{Die, Pool};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers, BLOCK_SIZE};
use oddsmith::engine::rng::{block_rng, DieRoller};
use oddsmith::systems::cortex::conflict::{ConflictCase, Mob};
use oddsmith::systems::cortex::Rules;

fn pool(text: &str) -> Pool {
    Pool::parse_cortex(text).unwrap()
}

fn conflict_exact(c: &mut Criterion) {
    let case = ConflictCase {
        hero: pool("d12 d10 2d8 d6"),
        foe: pool("d10 2d8 2d6"),
        mob: Some(Mob {
            die: Die::D8,
            count: 4,
        }),
        exchanges: Some(10),
        foe_acts: true,
        hero_stress_limit: Die::D12,
        foe_stress_limit: Die::D12,
        rules: Rules::default(),
    };
    c.bench_function(
        "conflict exact: d12 d10 2d8 d6 vs d10 2d8 2d6 + 4d8 mob, 10 exchanges",
        |b| b.iter(|| black_box(case.exact_hists(&mut Budget::unlimited()).unwrap())),
    );
}

fn conflict_monte_carlo(c: &mut Criterion) {
    let case = ConflictCase {
        hero: pool("d10 2d8 d6"),
        foe: pool("d10 d8 d6"),
        mob: None,
        exchanges: Some(5),
        foe_acts: true,
        hero_stress_limit: Die::D12,
        foe_stress_limit: Die::D12,
        rules: Rules::default(),
    };
    // One block: the floor's dice are that block's.
    let trials = BLOCK_SIZE;
    let mut group = c.benchmark_group("conflict_mc_d10_2d8_d6_vs_d10_d8_d6");
    group.throughput(Throughput::Elements(trials));
    let one = Workers::start(Some(1)).unwrap();
    let settings = McSettings::new(trials, 7);
    group.bench_function("1_thread", |b| {
        b.iter(|| black_box(one.install(|| case.monte_carlo_hists(&settings)).unwrap()))
    });
    let sides = case.floor_sides(trials, 7);
    group.bench_function("generator_floor_1_thread", |b| {
        b.iter(|| black_box(floor(&sides)))
    });
    group.finish();
}

/// The generator floor: each opposed roll's dice (after its 0 in `sides`)
/// from a new die roller, as the fights draw them, summed. Not inlined, so
/// that `callgrind` counts it on its own.
#[inline(never)]
fn floor(sides: &[u8]) -> u32 {
    let mut rng = block_rng(7, 0);
    let mut sum = 0u32;
    for roll in sides.split(|&s| s == 0) {
        let mut roller = DieRoller::new(&mut rng);
        for &s in roll {
            sum = sum.wrapping_add(roller.roll(u32::from(s)));
        }
    }
    sum
}

criterion_group!(benches, conflict_exact, conflict_monte_carlo);
criterion_main!(benches);
