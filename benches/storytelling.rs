//! Storytelling speed: Monte Carlo pools per second for a 10-die
//! 10-again pool on one thread and on every thread, and the exact method on
//! a 40-die 8-again rote pool (target: milliseconds), on a 10-die 8-again
//! rote extended action of 30 successes in 20 rolls, and on a 20 x 20 grid
//! of contests (1 to 20 dice against 1 to 20).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
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

criterion_group!(benches, monte_carlo, exact, actions);
criterion_main!(benches);
