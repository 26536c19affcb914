//! Long economy scenes (docs/cortex.md, "Long scenes"): the pruned chain
//! against Monte Carlo with the mass it dropped under the promise, and the
//! moments a long scene carries against the counts a short one keeps.

use super::*;
use crate::dice::Pool;
use crate::distribution::{metric, Spread};
use crate::engine::chain::{Pruning, PROMISED_DROPPED_MASS};
use crate::engine::exact::Budget;
use crate::systems::cortex::rules::Rules;

/// Every spending rule on (the benches' case), `end_at_2d12` too.
fn every_rule(pool: &str, actions: u32) -> SceneCase {
    SceneCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        doom: Pool::parse_cortex("2d6").unwrap(),
        actions,
        rules: Rules::default(),
        end_at_2d12: true,
        economy: Some(Economy {
            start_plot_points: 1,
            hero_spend: HeroSpend::AddToTotal,
            spend_below: Some(12),
            distinction: Distinction::D4WhenBroke,
            gm_spend: GmSpend::ToWin,
        }),
    }
}

fn mean_and_variance(m: &Metric) -> (f64, f64) {
    match m.spread {
        Spread::Mean { variance, .. } => (m.value.unwrap(), variance),
        _ => (m.value.unwrap(), 0.0),
    }
}

/// A scene long enough to be pruned and carried by moments: the chain
/// drops some mass, less than docs/cortex.md promises, and every metric
/// agrees with Monte Carlo.
#[test]
fn a_long_pruned_scene_agrees_with_monte_carlo_and_drops_less_than_promised() {
    let case = every_rule("d10 2d8 d6", 16);
    let economy = case.economy.unwrap();
    let h = case
        .economy_exact_hists(&economy, &mut Budget::interactive())
        .unwrap();
    assert!(h.scene.heroic_moments.is_some() && h.economy.doom_spent_moments.is_some());
    let dropped = h.scene.dropped;
    assert!(
        dropped > 0.0 && dropped < PROMISED_DROPPED_MASS,
        "dropped {dropped:e}"
    );
    // What was kept and what was dropped make one.
    let kept: f64 = h.scene.successes.iter().map(|(_, p)| p).sum();
    assert!((kept + dropped - 1.0).abs() < 1e-12);
    let exact = case.economy_metrics(&h);
    super::tests::assert_monte_carlo_agrees(&case, &economy, &exact, 100_000, 5);
}

/// Heroic successes and doom dice spent by moments, and whether the GM
/// spent carried in the row, give what the counts and the state give: every
/// metric's value and variance, every row of the distributions.
#[test]
fn moments_agree_with_the_counts() {
    for case in [every_rule("d10 2d8 d6", 9), every_rule("d8 d6", 11)] {
        let economy = case.economy.unwrap();
        let run = |moments| {
            chain::exact_hists_with(
                &case,
                &economy,
                Pruning::NONE,
                moments,
                &mut Budget::unlimited(),
            )
            .unwrap()
        };
        let (counts, moments) = (run(false), run(true));
        assert!(counts.scene.heroic_moments.is_none());
        assert!(moments.economy.doom_spent_moments.is_some());
        let (a, b) = (
            case.economy_metrics(&counts),
            case.economy_metrics(&moments),
        );
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            let ((mx, vx), (my, vy)) = (mean_and_variance(x), mean_and_variance(y));
            assert!((mx - my).abs() < 1e-9, "{}: {mx} against {my}", x.name);
            assert!((vx - vy).abs() < 1e-9, "{}: {vx} against {vy}", x.name);
        }
        for name in ["mean_heroic_successes", "mean_doom_dice_spent"] {
            let (_, variance) = mean_and_variance(metric(&b, name).unwrap());
            assert!(variance > 0.01, "{name} has a spread");
        }
        let (a, b) = (case.economy_rows(&counts), case.economy_rows(&moments));
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((&x.variable, &x.outcome), (&y.variable, &y.outcome));
            assert!((x.probability - y.probability).abs() < 1e-12);
        }
    }
}
