//! Speed targets of the balancing tools: an exact doom-pool scene
//! of 10 actions from a 3d8 doom pool "in well under a second", the balance
//! solver on the default nine-rung ladder ("instant"), the exact
//! max-effect programme, 60- and 100-action scenes (targets: half a
//! second and three), a scene's economy (every spending rule on) of 8
//! actions, exact, under 100 ms, with how it grows with the actions, and
//! the scene's Monte Carlo beside its generator floor (target: at most
//! 1.3x it).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::balance::BalanceSpec;
use oddsmith::dice::Pool;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers, BLOCK_SIZE};
use oddsmith::engine::rng::{block_rng, DieRoller};
use oddsmith::options::{KeyStyle, Options, RawItem, RawValue};
use oddsmith::systems::cortex::economy::{Distinction, Economy, GmSpend, HeroSpend};
use oddsmith::systems::cortex::scene::SceneCase;
use oddsmith::systems::cortex::{CortexCase, Opposition, Policy, Rules};

fn pool(text: &str) -> Pool {
    Pool::parse_cortex(text).unwrap()
}

fn scene_exact(c: &mut Criterion) {
    let case = SceneCase {
        pool: pool("d10 2d8 d6"),
        doom: pool("3d8"),
        actions: 10,
        rules: Rules::default(),
        end_at_2d12: true,
        economy: None,
    };
    c.bench_function("scene exact: d10 2d8 d6 vs 3d8, 10 actions", |b| {
        b.iter(|| black_box(case.exact_hists(&mut Budget::unlimited()).unwrap()))
    });
}

/// A 60-action scene, exact (pools below 1e-15 dropped beyond 1,024, the
/// heroic successes by moments): target half a second.
fn scene_exact_60_actions(c: &mut Criterion) {
    let case = SceneCase {
        pool: pool("d10 2d8 d6"),
        doom: pool("2d6"),
        actions: 60,
        rules: Rules::default(),
        end_at_2d12: false,
        economy: None,
    };
    let mut group = c.benchmark_group("scene_exact_60_actions");
    group.sample_size(10);
    group.bench_function("d10 2d8 d6 vs 2d6", |b| {
        b.iter(|| black_box(case.exact_hists(&mut Budget::unlimited()).unwrap()))
    });
    group.finish();
}

/// A 100-action scene, exact: the long scene the chain's pruning is for
/// (pools below 1e-15 dropped, their mass reported): target three seconds.
fn scene_exact_100_actions(c: &mut Criterion) {
    let case = SceneCase {
        pool: pool("d10 2d8 d6"),
        doom: pool("2d6"),
        actions: 100,
        rules: Rules::default(),
        end_at_2d12: false,
        economy: None,
    };
    let mut group = c.benchmark_group("scene_exact_100_actions");
    group.sample_size(10);
    group.bench_function("d10 2d8 d6 vs 2d6", |b| {
        b.iter(|| black_box(case.exact_hists(&mut Budget::unlimited()).unwrap()))
    });
    group.finish();
}

/// The generator floor of one block: for each scene, a new die roller
/// throwing that scene's dice (`counts` of them, their `sides` in order),
/// summed; nothing else. Not inlined, so that `callgrind` counts it on
/// its own.
#[inline(never)]
fn floor_of(sides: &[u8], counts: &[u32]) -> u32 {
    let mut rng = block_rng(7, 0);
    let (mut sum, mut at) = (0u32, 0);
    for &n in counts {
        let mut roller = DieRoller::new(&mut rng);
        for &s in &sides[at..at + n as usize] {
            sum = sum.wrapping_add(roller.roll(u32::from(s)));
        }
        at += n as usize;
    }
    sum
}

/// Every spending rule on: a hero starting with a plot point who rolls the
/// distinction as d4 when broke and spends on the total below 12, and a GM
/// who spends doom dice to win.
fn every_rule() -> Economy {
    Economy {
        start_plot_points: 1,
        hero_spend: HeroSpend::AddToTotal,
        spend_below: Some(12),
        distinction: Distinction::D4WhenBroke,
        gm_spend: GmSpend::ToWin,
    }
}

/// The scene's Monte Carlo on one thread, one block of 10-action scenes
/// (the exact bench's case), beside its generator floor: the very dice
/// those scenes throw ([`SceneCase::floor_dice`]), a die roller a scene,
/// summed in a bare loop.
fn scene_monte_carlo(c: &mut Criterion) {
    let case = SceneCase {
        pool: pool("d10 2d8 d6"),
        doom: pool("3d8"),
        actions: 10,
        rules: Rules::default(),
        end_at_2d12: true,
        economy: None,
    };
    let trials = BLOCK_SIZE;
    let mut group = c.benchmark_group("scene_mc_beside_floor");
    group.throughput(Throughput::Elements(trials));
    group.sample_size(20);
    let one = Workers::start(Some(1)).unwrap();
    let settings = McSettings::new(trials, 7);
    group.bench_function("10_actions_1_thread", |b| {
        b.iter(|| black_box(one.install(|| case.monte_carlo_hists(&settings)).unwrap()))
    });
    let (sides, counts) = case.floor_dice(trials, 7);
    group.bench_function("10_actions_generator_floor", |b| {
        b.iter(|| black_box(floor_of(&sides, &counts)))
    });
    // The scene's economy, every spending rule on (the exact bench's), 8
    // actions.
    let economy = every_rule();
    let case = SceneCase {
        pool: pool("d10 2d8 d6"),
        doom: pool("2d6"),
        actions: 8,
        rules: Rules::default(),
        end_at_2d12: true,
        economy: Some(economy),
    };
    group.bench_function("economy_8_actions_1_thread", |b| {
        b.iter(|| {
            black_box(
                one.install(|| case.economy_monte_carlo_hists(&economy, &settings))
                    .unwrap(),
            )
        })
    });
    let (sides, counts) = case.economy_floor_dice(&economy, trials, 7);
    group.bench_function("economy_8_actions_generator_floor", |b| {
        b.iter(|| black_box(floor_of(&sides, &counts)))
    });
    group.finish();
}

fn balance_default_ladder(c: &mut Criterion) {
    let pools = RawValue::Array(vec![RawItem::new(RawValue::Str("d10 2d8 d6".into()))]);
    let options = Options::new(
        "balance",
        KeyStyle::Flag,
        vec![("pools".into(), RawItem::new(pools))],
    );
    let spec = BalanceSpec::from_options(options).unwrap();
    c.bench_function("balance: d10 2d8 d6 on the default ladder", |b| {
        b.iter(|| {
            for question in spec.questions(1) {
                black_box(question.answer_exactly().unwrap());
            }
        })
    });
}

fn max_effect_exact(c: &mut Criterion) {
    let case = CortexCase {
        pool: pool("d12 d10 2d8 d6"),
        opposition: Opposition::Difficulty(11),
        rules: Rules {
            policy: Policy::MaxEffect,
            ..Rules::default()
        },
    };
    c.bench_function("max-effect exact: d12 d10 2d8 d6 vs 11", |b| {
        b.iter(|| black_box(case.exact_hists(&mut Budget::unlimited()).unwrap()))
    });
}

/// Every spending rule on ([`every_rule`]); 8 actions (aim: under 100 ms),
/// and 4 to 100 to show how it grows. Past 12 actions the chain carries
/// moments and prunes (docs/cortex.md, "Long scenes"); the aims are 60
/// actions under 0.5 s and 100 under 3 s, and one iteration of 60 or 100
/// takes far longer today (docs/benchmarks.md), so filter
/// on the case wanted.
fn economy_exact(c: &mut Criterion) {
    let economy = every_rule();
    let mut group = c.benchmark_group("economy_exact");
    group.sample_size(10);
    for actions in [4, 6, 8, 10, 12, 20, 30, 60, 100] {
        let case = SceneCase {
            pool: pool("d10 2d8 d6"),
            doom: pool("2d6"),
            actions,
            rules: Rules::default(),
            end_at_2d12: true,
            economy: Some(economy),
        };
        group.bench_function(format!("d10 2d8 d6 vs 2d6, {actions} actions"), |b| {
            b.iter(|| {
                black_box(
                    case.economy_exact_hists(&economy, &mut Budget::unlimited())
                        .unwrap(),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    economy_exact,
    scene_exact,
    scene_monte_carlo,
    scene_exact_60_actions,
    scene_exact_100_actions,
    balance_default_ladder,
    max_effect_exact
);
criterion_main!(benches);
