//! Speed target of Cortex conflicts: a 10-exchange conflict with 5-die
//! pools and a 4-die mob, exact, in under 50 ms (the exact Markov chain
//! with its opposed rolls memoised per pair of pools).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use oddsmith::dice::{Die, Pool};
use oddsmith::engine::exact::Budget;
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

criterion_group!(benches, conflict_exact);
criterion_main!(benches);
