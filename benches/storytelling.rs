//! Storytelling speed: Monte Carlo pools per second for a 10-die
//! 10-again pool on one thread and on every thread, 5 and 10 dice on one
//! thread beside the generator floor (the very d10s those rolls throw,
//! [`StorytellingCase::floor_dice`], from the same generator and die
//! roller in a bare loop; target: at most 1.3x it), an extended and a
//! contested action beside floors of their own, the exact method on
//! a 40-die 8-again rote pool (target: milliseconds), on a 10-die 8-again
//! rote extended action of 30 successes in 20 rolls, and on a 20 x 20 grid
//! of contests (1 to 20 dice against 1 to 20).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers, BLOCK_SIZE};
use oddsmith::engine::rng::{block_rng, DieRoller};
use oddsmith::systems::storytelling::{
    ContestCase, ContestTies, ExtendedCase, Rules, StorytellingCase,
};
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

/// The generator floor of one block: for each trial, a new die roller
/// throwing that trial's `counts` d10s, summed; nothing else. Not
/// inlined, so that `callgrind` counts it on its own.
#[inline(never)]
fn floor_of(counts: &[u32]) -> u32 {
    let mut rng = block_rng(7, 0);
    let mut sum = 0u32;
    for &n in counts {
        let mut roller = DieRoller::new(&mut rng);
        for _ in 0..n {
            sum = sum.wrapping_add(roller.roll(10));
        }
    }
    sum
}

fn floor(c: &mut Criterion) {
    // One block: the floor's dice are that block's.
    let trials = BLOCK_SIZE;
    let mut group = c.benchmark_group("storytelling_mc_beside_floor");
    group.throughput(Throughput::Elements(trials));
    let one = Workers::start(Some(1)).unwrap();
    let settings = McSettings::new(trials, 7);
    for dice in [5, 10] {
        let case = case(dice, 10, false);
        group.bench_function(format!("{dice}_dice_1_thread"), |b| {
            b.iter(|| black_box(one.install(|| case.monte_carlo(&settings)).unwrap()))
        });
        let counts = case.floor_dice(trials, 7);
        group.bench_function(format!("{dice}_dice_generator_floor"), |b| {
            b.iter(|| black_box(floor_of(&counts)))
        });
    }
    // An extended action (5 dice, 10 successes in up to 5 rolls) and a
    // contest (5 dice against 4, ties rerolled), each beside its floor.
    let extended = ExtendedCase {
        base: case(5, 10, false),
        extended: 10,
        rolls: 5,
    };
    group.bench_function("extended_5_dice_10_in_5_1_thread", |b| {
        b.iter(|| black_box(one.install(|| extended.monte_carlo(&settings)).unwrap()))
    });
    let counts = extended.floor_dice(trials, 7);
    group.bench_function("extended_5_dice_10_in_5_generator_floor", |b| {
        b.iter(|| black_box(floor_of(&counts)))
    });
    let contest = ContestCase {
        base: case(5, 10, false),
        vs_dice: 4,
        vs_modifier: 0,
        opponent: case(4, 10, false).rules,
        ties: ContestTies::Reroll,
    };
    group.bench_function("contest_5_vs_4_dice_1_thread", |b| {
        b.iter(|| black_box(one.install(|| contest.monte_carlo(&settings)).unwrap()))
    });
    let counts = contest.floor_dice(trials, 7);
    group.bench_function("contest_5_vs_4_dice_generator_floor", |b| {
        b.iter(|| black_box(floor_of(&counts)))
    });
    group.finish();
}

fn actions(c: &mut Criterion) {
    let extended = ExtendedCase {
        base: case(10, 8, true),
        extended: 30,
        rolls: 20,
    };
    c.bench_function(
        "storytelling_exact_extended_10_dice_8_again_rote_30_in_20",
        |b| b.iter(|| extended.exact(&mut Budget::unlimited()).unwrap()),
    );
    let grid: Vec<ContestCase> = (1..=20)
        .flat_map(|mine| {
            (1..=20).map(move |theirs| ContestCase {
                base: case(mine, 10, false),
                vs_dice: theirs,
                vs_modifier: 0,
                opponent: case(theirs, 10, false).rules,
                ties: ContestTies::Opponent,
            })
        })
        .collect();
    c.bench_function("storytelling_exact_contest_grid_20_by_20", |b| {
        b.iter(|| {
            grid.iter()
                .map(|contest| contest.exact(&mut Budget::unlimited()).unwrap())
                .collect::<Vec<_>>()
        })
    });
}

criterion_group!(benches, monte_carlo, floor, exact, actions);
criterion_main!(benches);
