//! The cost model's tests: the forecast on runs of known growth, each
//! chain engine's forecast (made a quarter of the way in) against the work
//! its run then counted, and refusals decided before the work. All of it
//! counts the budget's predicted nanoseconds, never the clock.

use super::*;
use crate::scenario;
use crate::systems::Case;

/// A case from its scenario table.
fn case(table: &str) -> Case {
    let text = format!("[[case]]\n{table}\n");
    scenario::parse(&text, "s.toml", "s")
        .unwrap()
        .cases
        .remove(0)
}

/// Plays a run of `steps` steps whose cumulative cost after `n` is
/// `cost(n)`, returning the first trusted forecast.
fn forecast_of(steps: usize, cost: impl Fn(usize) -> u64) -> Option<u64> {
    let mut budget = Budget::unlimited();
    let mut forecast = Forecast::new(steps as f64, &budget);
    for n in 1..=steps {
        let more = cost(n) - budget.spent();
        budget.spend(more, &String::new).unwrap();
        forecast.step(&mut budget, || 1.0, &String::new).unwrap();
    }
    budget.trusted_forecast()
}

#[test]
fn a_power_law_run_is_forecast_from_its_first_quarter() {
    let cube = |n: usize| (n as u64).pow(3) * 1000;
    let predicted = forecast_of(100, cube).unwrap() as f64;
    let total = cube(100) as f64;
    assert!(
        (predicted / total - 1.0).abs() < 0.01,
        "{predicted} against {total}"
    );
    // Linear work, likewise.
    let line = |n: usize| n as u64 * 1000;
    let predicted = forecast_of(40, line).unwrap() as f64;
    assert!((predicted / 40_000.0 - 1.0).abs() < 0.01, "{predicted}");
}

#[test]
fn a_settling_run_is_forecast_to_where_its_mass_runs_out() {
    // Half the mass ends each step, a constant cost a step: the chain
    // settles below 1e-12 after about 40 of its 20,000 steps.
    let mut budget = Budget::unlimited();
    let mut forecast = Forecast::new(20_000.0, &budget).bounded().settling(1e-12);
    let mut mass = 1.0;
    for _ in 0..12 {
        budget.spend(1000, &String::new).unwrap();
        mass /= 2.0;
        forecast.step(&mut budget, || mass, &String::new).unwrap();
    }
    let predicted = budget.trusted_forecast().unwrap() as f64;
    assert!((35_000.0..=45_000.0).contains(&predicted), "{predicted}");
}

#[test]
fn a_run_forecast_far_past_the_budget_is_refused_at_once() {
    let mut budget = Budget::new(1_000_000);
    let mut forecast = Forecast::new(1000.0, &budget);
    let mut refused_at = None;
    for n in 1..=1000u64 {
        budget.spend(n * n, &String::new).unwrap();
        if forecast.step(&mut budget, || 1.0, &String::new).is_err() {
            refused_at = Some(n);
            break;
        }
    }
    // The whole run is about 3.3e8: refused at the fourth step, when the
    // forecast is first made, with 30 of the budget's 1,000,000 spent.
    assert_eq!(refused_at, Some(4));
    assert_eq!(budget.spent(), 30);
}

/// The factor within which a chain's forecast, a quarter of the way in,
/// holds the work its run then counts (docs/development.md, "Exact
/// budget": early on a chain fans out faster than it grows later, and
/// the forecast runs ahead of the total by up to about three times).
const FIT_FACTOR: f64 = 3.0;

fn fits(table: &str) {
    let case = case(table);
    let mut budget = Budget::unlimited();
    case.spec.exact(&mut budget).unwrap();
    let counted = budget.spent() as f64;
    let predicted = budget.trusted_forecast().expect("a forecast") as f64;
    let ratio = predicted / counted;
    assert!(
        (1.0 / FIT_FACTOR..=FIT_FACTOR).contains(&ratio),
        "{table}: predicted {predicted} against {counted} counted"
    );
}

#[test]
fn the_scene_forecast_fits_the_work_counted() {
    for actions in [24, 40, 60] {
        fits(&format!(
            "system = \"cortex-scene\"\npool = \"d10 2d8 d6\"\ndoom = \"2d6\"\nactions = {actions}"
        ));
    }
}

/// The economy scene with every spending rule on (docs/cortex.md).
fn economy(actions: u32) -> String {
    format!(
        "system = \"cortex-scene\"\npool = \"d10 2d8 d6\"\ndoom = \"2d6\"\nstart_plot_points = 1\n\
         hero_spend = \"add-to-total\"\ndistinction = \"d4-when-broke\"\ngm_spend = \"to-win\"\n\
         end_at_2d12 = true\nactions = {actions}"
    )
}

#[test]
fn the_economy_forecast_fits_the_work_counted() {
    for actions in [12, 16] {
        fits(&economy(actions));
    }
}

#[test]
fn the_conflict_forecast_fits_the_work_counted() {
    // (A short fight's work is mostly the pools it meets in its first
    // exchanges, which a forecast cannot tell from a trend: 8 exchanges
    // are forecast at about six times their few milliseconds.)
    for exchanges in ["exchanges = 40", "exchanges = 100", ""] {
        fits(&format!(
            "system = \"cortex-conflict\"\nhero = \"d10 2d8 d6\"\nfoe = \"d8 2d6\"\n{exchanges}"
        ));
    }
    fits("system = \"cortex-conflict\"\nhero = \"d12 d10 2d8 d6\"\nfoe = \"d10 2d8 2d6\"\nmob = \"4d8\"");
}

#[test]
fn the_extended_forecast_fits_the_work_counted() {
    for rolls in [12, 30, 60] {
        fits(&format!(
            "system = \"storytelling\"\ndice = 10\nextended = 100\nrolls = {rolls}"
        ));
    }
}

/// Refused by the interactive budget having counted less than the
/// refusal's share of it (50 ms).
fn refused_early(table: &str) {
    let case = case(table);
    let mut budget = Budget::interactive();
    let refused = case.spec.exact(&mut budget);
    assert!(matches!(refused, Err(ExactError::TooLarge(_))), "{table}");
    assert!(
        budget.spent() < REFUSAL_NANOS,
        "{table}: refused after {} ns",
        budget.spent()
    );
}

#[test]
fn refusals_come_before_the_work() {
    // (30 actions, about 0.8 s of work, is refused only half-way in: the
    // economy's forecast is trusted from there; docs/development.md.)
    refused_early(&economy(40));
    refused_early(&economy(60));
    for actions in [200, 500] {
        refused_early(&format!(
            "system = \"cortex-scene\"\npool = \"d10 2d8 d6\"\ndoom = \"2d6\"\nactions = {actions}"
        ));
    }
    refused_early("system = \"cortex\"\npool = \"100000d4\"\ndifficulty = 5");
    refused_early("system = \"cortex\"\npool = \"1000d12\"\nvs = \"5d12\"\nkeep = 5");
    refused_early("system = \"cortex\"\npool = \"300d12\"\nvs = \"100d6\"\nkeep = 5");
    // Plot points: the programme's states counted before it runs (14d12
    // with five points once ran 2.2 s before its running check refused).
    for dice in [14, 20, 100_000] {
        refused_early(&format!(
            "system = \"cortex\"\npool = \"{dice}d12\"\nkeep = 4\nplot_points = 5\ndifficulty = 30"
        ));
    }
    refused_early("system = \"advantage\"\ndie = \"d8\"\nparty = 4\nrolls = 200");
    // Sized from a sample of their states before any table is built.
    refused_early("system = \"advantage\"\ndie = \"d12\"\nparty = 4\nrolls = 1000");
    // (100 rolls sharing, about 1.1 s of work, is sized within a tenth of
    // the budget by its sample, so its tables are built before it is
    // refused, a tenth of a second in.)
    refused_early("system = \"advantage\"\ndie = \"d10\"\nparty = 4\nrolls = 120\nshare = true");
    refused_early("system = \"storytelling\"\ndice = 100000");
    // Sized before the convolution from the die's rate (a pool of 40,000
    // was refused only a fifth of a second in).
    refused_early("system = \"storytelling\"\ndice = 40000");
    refused_early("system = \"storytelling\"\ndice = 20000\nagain = 8");
    // Each pool of a contest fits alone, the two together do not.
    refused_early("system = \"storytelling\"\ndice = 30000\nvs_dice = 30000");
}

#[test]
fn auto_gives_exact_what_sampling_would_take() {
    assert_eq!(auto_allowance(0.0), INTERACTIVE_NANOS);
    assert_eq!(auto_allowance(3e9), 3_000_000_000);
    assert_eq!(auto_allowance(f64::INFINITY), u64::MAX);
}

/// `--method auto` on one thread at `trials` trials: the method it used
/// and its warnings.
fn auto(table: &str, trials: u64) -> (crate::report::MethodUsed, Vec<String>) {
    use crate::commands::evaluate::{evaluate_case, Settings};
    let settings = Settings {
        trials,
        seed: 1,
        workers: crate::engine::monte_carlo::Workers::start(Some(1)).unwrap(),
        method: crate::cli::MethodArg::Auto,
        format: crate::cli::FormatArg::Table,
        quiet: true,
        fractions: false,
    };
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let result = evaluate_case(&case(table), &settings, &cancel)
        .unwrap()
        .remove(0);
    (result.method, result.warnings)
}

#[test]
fn auto_runs_exact_past_a_second_when_sampling_would_take_longer() {
    // A 110-action scene: about 1.1 s of exact work, past `--method
    // exact`'s second, but 100 million trials on one thread are predicted
    // at about five minutes.
    let scene = "system = \"cortex-scene\"\npool = \"d10 2d8 d6\"\ndoom = \"2d6\"\nactions = 110";
    assert!(matches!(
        case(scene).spec.exact(&mut Budget::interactive()),
        Err(ExactError::TooLarge(_))
    ));
    let (method, _) = auto(scene, 100_000_000);
    assert_eq!(method, crate::report::MethodUsed::Exact);
    // At a thousand trials sampling is the faster, and says why it ran.
    let (method, warnings) = auto(scene, 1000);
    assert_eq!(method, crate::report::MethodUsed::MonteCarlo);
    assert!(
        warnings[0].contains("more than the exact engine answers in about a second"),
        "{warnings:?}"
    );
}
