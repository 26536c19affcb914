//! Advantage-die speed: Monte Carlo encounters per second beside the
//! generator floor (the same draws, the 2d6 face and each chance, from the
//! same generator in a bare loop; target: Monte Carlo at most 1.3x it), and the
//! time the exact Markov chain takes for a 50-roll encounter (the target is
//! milliseconds); docs/advantage.md's variants: two d8 counters, and a
//! party of 4 with d8 counters over 40 rolls, with and without `share`
//! (the target is under a second). Run with
//! `cargo bench --bench advantage -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::engine::rng::block_rng;
use oddsmith::systems::advantage::{AdvantageCase, Policy};
use oddsmith::systems::SystemCase;
use rand::distr::Bernoulli;
use rand::RngExt;

/// A case with every rule switched on: tier gains, chance gain, GM reduction.
fn case(die: u8, rolls: u32) -> AdvantageCase {
    AdvantageCase {
        die,
        rolls,
        policy: Policy::Greedy,
        gain_on: [1, 0, 0],
        gain_chance: 0.5,
        gm_reduce_chance: 0.1,
        ..AdvantageCase::default()
    }
}

fn monte_carlo(c: &mut Criterion) {
    let trials = 1 << 16;
    let mut group = c.benchmark_group("advantage_mc_encounters");
    group.throughput(Throughput::Elements(trials));
    for (die, rolls) in [(6, 4), (8, 6), (8, 10), (8, 50)] {
        let case = case(die, rolls);
        let settings = McSettings::new(trials, 1);
        let one = Workers::start(Some(1)).unwrap();
        group.bench_function(format!("d{die}_{rolls}_rolls_1_thread"), |b| {
            b.iter(|| black_box(one.install(|| case.monte_carlo(&settings)).unwrap()))
        });
        // The floor: each roll's face and, but after the last roll, the
        // lone counter's chance gain and GM reduction, drawn as the
        // sampler draws them, summed so the compiler keeps the draws.
        let gain = Bernoulli::new(case.gain_chance).unwrap();
        let reduce = Bernoulli::new(case.gm_reduce_chance).unwrap();
        group.bench_function(format!("d{die}_{rolls}_rolls_generator_floor"), |b| {
            b.iter(|| black_box(floor(trials, rolls, gain, reduce)))
        });
    }
    group.finish();
}

/// The generator floor: each encounter's draws as the sampler draws
/// them, summed. Not inlined, so that `callgrind` counts it on its own.
#[inline(never)]
fn floor(trials: u64, rolls: u32, gain: Bernoulli, reduce: Bernoulli) -> usize {
    let mut rng = block_rng(1, 0);
    let mut sum = 0usize;
    for _ in 0..trials {
        for roll in 0..rolls {
            sum = sum.wrapping_add(rng.random_range(0..36usize));
            if roll + 1 < rolls {
                sum += usize::from(rng.sample(gain));
                sum += usize::from(rng.sample(reduce));
            }
        }
    }
    sum
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("advantage_exact_50_rolls");
    for die in [4, 6, 8, 12] {
        let case = case(die, 50);
        group.bench_function(format!("d{die}"), |b| {
            b.iter(|| black_box(case.exact(&mut Budget::interactive()).unwrap()))
        });
    }
    group.finish();
}

fn variants(c: &mut Criterion) {
    let mut group = c.benchmark_group("advantage_exact_variants");
    group.sample_size(10);
    let two = AdvantageCase {
        counters: 2,
        ..case(8, 40)
    };
    group.bench_function("two_d8_40_rolls", |b| {
        b.iter(|| black_box(two.exact(&mut Budget::interactive()).unwrap()))
    });
    for share in [false, true] {
        let party = AdvantageCase {
            party: 4,
            share,
            policy: Policy::ThresholdOrLast(7),
            ..case(8, 40)
        };
        let name = if share {
            "party_4_d8_40_rolls_share"
        } else {
            "party_4_d8_40_rolls"
        };
        group.bench_function(name, |b| {
            b.iter(|| black_box(party.exact(&mut Budget::interactive()).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, monte_carlo, exact, variants);
criterion_main!(benches);
