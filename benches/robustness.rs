//! Robustness speed targets: `--method exact` refuses a case it
//! cannot finish in well under a second (target: under 1 s, before the
//! work); a 1,000-die pool runs in Monte Carlo at full speed (dice rolled
//! per second, compared with a small pool); a 100,000-case sweep loads in
//! reasonable time (target: under 1 s).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oddsmith::dice::Pool;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::McSettings;
use oddsmith::scenario;
use oddsmith::systems::cortex::{CortexCase, Opposition, Rules};
use oddsmith::systems::SystemCase;

fn case(pool: &str, vs: Option<&str>, keep: usize) -> CortexCase {
    CortexCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        opposition: vs.map_or(Opposition::None, |v| {
            Opposition::Pool(Pool::parse_cortex(v).unwrap())
        }),
        rules: Rules {
            keep,
            ..Rules::default()
        },
    }
}

fn exact_refusal(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact_refusal");
    group.sample_size(10);
    for (label, pool, vs, keep) in [
        ("1000d12_vs_5d12_keep5", "1000d12", Some("5d12"), 5),
        ("200d12_100d6_keep5", "200d12 100d6", None, 5),
        ("100000d4_keep1", "100000d4", None, 1),
    ] {
        let c = case(pool, vs, keep);
        group.bench_function(label, |b| {
            b.iter(|| {
                assert!(c.exact(&mut Budget::interactive()).is_err());
            })
        });
    }
    group.finish();
}

fn thousand_dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("mc_dice_per_second");
    group.sample_size(10);
    for (label, pool, trials) in [
        ("4_dice", "d10 2d8 d6", 2_000_000u64),
        ("1000_dice", "200d12 200d10 200d8 200d6 200d4", 8_000),
    ] {
        let c = case(pool, Some("2d6"), 2);
        let dice = (c.pool.len() + 2) as u64;
        group.throughput(Throughput::Elements(trials * dice));
        group.bench_function(label, |b| {
            b.iter(|| c.monte_carlo(&McSettings::new(trials, 1)).unwrap())
        });
    }
    group.finish();
}

fn big_sweep(c: &mut Criterion) {
    let values =
        |n: usize, f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(", ");
    let text = format!(
        "[[sweep]]\nsystem = \"cortex\"\npool = [{}]\ndifficulty = [{}]\n",
        values(100, &|i| format!("\"{}d6\"", i + 1)),
        values(1000, &|i| i.to_string())
    );
    let mut group = c.benchmark_group("scenario_load");
    group.sample_size(10);
    group.bench_function("sweep_100000_cases", |b| {
        b.iter(|| scenario::parse(&text, "s.toml", "s").unwrap().cases.len())
    });
    group.finish();
}

criterion_group!(benches, exact_refusal, thousand_dice, big_sweep);
criterion_main!(benches);
