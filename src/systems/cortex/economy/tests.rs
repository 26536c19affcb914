//! The scene's economy held to hand-worked single actions, to a brute-force
//! walk of every face of every action on small scenes, to Monte Carlo on
//! every metric, and, with every key at its default, to the plain scene.

use std::collections::BTreeMap;

use super::*;
use crate::dice::Pool;
use crate::distribution::{metric, DistRow, Metric};
use crate::engine::exact::Budget;
use crate::engine::monte_carlo::McSettings;
use crate::systems::cortex::rules::Rules;
use crate::systems::cortex::Ties;

fn scene(pool: &str, doom: &str, actions: u32, economy: Economy) -> SceneCase {
    SceneCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        doom: Pool::parse_cortex(doom).unwrap(),
        actions,
        rules: Rules::default(),
        end_at_2d12: false,
        economy: Some(economy),
    }
}

fn economy(hero: HeroSpend, distinction: Distinction, gm: GmSpend) -> Economy {
    Economy {
        hero_spend: hero,
        distinction,
        gm_spend: gm,
        ..Economy::default()
    }
}

fn exact(case: &SceneCase) -> (Vec<Metric>, Vec<DistRow>) {
    let e = case.economy.as_ref().unwrap();
    let h = case
        .economy_exact_hists(e, &mut Budget::unlimited())
        .unwrap();
    (case.economy_metrics(&h), case.economy_rows(&h))
}

fn value(metrics: &[Metric], name: &str) -> f64 {
    metric(metrics, name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .value
        .unwrap_or(f64::NAN)
}

fn row(rows: &[DistRow], variable: &str, outcome: &str) -> f64 {
    rows.iter()
        .find(|r| r.variable == variable && r.outcome == outcome)
        .map_or(0.0, |r| r.probability)
}

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} vs {want}");
}

#[test]
fn the_d4_distinction_swaps_a_d8_and_earns_a_point_at_once() {
    // A d8 rolled as a d4 against a d4: the plain d4 against d4 (3/8), and
    // a plot point for the swap plus one for a hitch (1/4).
    let case = scene(
        "d8",
        "d4",
        1,
        economy(HeroSpend::Never, Distinction::D4WhenBroke, GmSpend::Never),
    );
    let (metrics, rows) = exact(&case);
    close(value(&metrics, "p_success_action_1"), 3.0 / 8.0, "success");
    close(value(&metrics, "mean_plot_points"), 1.25, "earned");
    close(value(&metrics, "mean_final_plot_points"), 1.25, "held");
    close(row(&rows, "final_plot_points", "2"), 0.25, "two held");
    // The point earned is spent in the same action: a d6 added to the d4.
    let mut case = case;
    case.economy.as_mut().unwrap().hero_spend = HeroSpend::AddD6;
    let (metrics, _) = exact(&case);
    let plain = scene("d6 d4", "d4", 1, Economy::default());
    let (want, _) = exact(&plain);
    close(
        value(&metrics, "p_success_action_1"),
        value(&want, "p_success_action_1"),
        "d6 d4",
    );
    close(value(&metrics, "mean_plot_points_spent"), 1.0, "spent");
    // Earned: the swap, and a hitch on d6 d4: 1 - 5/6 * 3/4 = 3/8.
    close(
        value(&metrics, "mean_plot_points"),
        1.0 + 3.0 / 8.0,
        "earned",
    );
    close(value(&metrics, "mean_final_plot_points"), 3.0 / 8.0, "held");
    // Holding a point, the hero rolls the d8 as it is.
    case.economy.as_mut().unwrap().start_plot_points = 1;
    let (metrics, _) = exact(&case);
    let (want, _) = exact(&scene("d8 d6", "d4", 1, Economy::default()));
    close(
        value(&metrics, "p_success_action_1"),
        value(&want, "p_success_action_1"),
        "d8 d6",
    );
}

#[test]
fn add_d6_needs_a_point() {
    let mut e = economy(HeroSpend::AddD6, Distinction::D8, GmSpend::Never);
    let (broke, _) = exact(&scene("d4", "d4", 1, e));
    close(
        value(&broke, "p_success_action_1"),
        3.0 / 8.0,
        "no point, no d6",
    );
    close(
        value(&broke, "mean_plot_points_spent"),
        0.0,
        "nothing spent",
    );
    e.start_plot_points = 1;
    let (metrics, _) = exact(&scene("d4", "d4", 1, e));
    let (want, _) = exact(&scene("d6 d4", "d4", 1, Economy::default()));
    close(
        value(&metrics, "p_success_action_1"),
        value(&want, "p_success_action_1"),
        "d6 d4",
    );
    close(value(&metrics, "mean_plot_points_spent"), 1.0, "one spent");
    close(
        value(&metrics, "mean_final_plot_points"),
        3.0 / 8.0,
        "a hitch earns it back",
    );
}

#[test]
fn add_to_total_by_hand() {
    // 2d4 keeping one die, one point, against a d4 (R = 0, 2, 3, 4).
    // Both live (9/16): the point sums both, losing only 2 + 2 against a 4
    // (1/64): 35/64. A hitch and x: x beats R < x, 3/16 in all. 47/64.
    let mut e = economy(HeroSpend::AddToTotal, Distinction::D8, GmSpend::Never);
    e.start_plot_points = 1;
    let mut case = scene("2d4", "d4", 1, e);
    case.rules.keep = 1;
    let (metrics, _) = exact(&case);
    close(
        value(&metrics, "p_success_action_1"),
        47.0 / 64.0,
        "success",
    );
    close(
        value(&metrics, "mean_plot_points_spent"),
        9.0 / 16.0,
        "spent",
    );
    // Held: 1 - 9/16 + 7/16 (a hitch earns one).
    close(value(&metrics, "mean_final_plot_points"), 7.0 / 8.0, "held");
    // With no point to spend: the higher live die, 2, 3, 4 with 3, 5, 7
    // sixteenths, beats the d4 a quarter, half, three quarters: 34/64.
    let mut broke = case.clone();
    broke.economy.as_mut().unwrap().start_plot_points = 0;
    let (metrics, _) = exact(&broke);
    close(
        value(&metrics, "p_success_action_1"),
        34.0 / 64.0,
        "no point",
    );
    // Spending only below 4: both live showing 2 or 3 (4/16), summing to
    // 4 (loses to a 4) or more; a 4 and a live die stays 4 (5/16 * 3/4).
    case.economy.as_mut().unwrap().spend_below = Some(4);
    let (metrics, _) = exact(&case);
    close(
        value(&metrics, "p_success_action_1"),
        42.0 / 64.0,
        "below 4",
    );
    close(
        value(&metrics, "mean_plot_points_spent"),
        4.0 / 16.0,
        "spent below 4",
    );
}

#[test]
fn the_gm_adds_and_spends_the_smallest_die_showing_the_added_value() {
    let rules = Rules::default();
    let e = economy(HeroSpend::Never, Distinction::D8, GmSpend::ToWin);
    let roll = |dice: &[(u8, u8)], keep: usize| {
        let mut d = rules::DoomDice::EMPTY;
        for &(step, face) in dice {
            d.push(keep + 1, step, face);
        }
        d.reaction(keep, keep + 1)
    };
    // d10 d8 d6 showing 5, 5, 5: 10, and a 5 added from the d6.
    let r = roll(&[(3, 5), (2, 5), (1, 5)], 2);
    assert_eq!(
        r,
        rules::Reaction {
            total: 10,
            added: Some((5, 1))
        }
    );
    // An 11 wins against 10 but not 15: the GM spends the d6.
    assert_eq!(e.gm_spends(&rules, 11, &r), Some(1));
    // 16 wins even so: nothing spent; 10 already loses: nothing spent.
    assert_eq!(e.gm_spends(&rules, 16, &r), None);
    assert_eq!(e.gm_spends(&rules, 10, &r), None);
    // d12 showing 7 and 2d8, d4 showing 4 with one reaction die: the added 4
    // comes from the d4, whichever order the dice came in.
    for order in [
        [(4, 7), (2, 4), (2, 4), (0, 4)],
        [(0, 4), (2, 4), (4, 7), (2, 4)],
    ] {
        let r = roll(&order, 1);
        assert_eq!(
            r,
            rules::Reaction {
                total: 7,
                added: Some((4, 0))
            }
        );
    }
    // Only `reaction_keep` live dice: nothing to add (a hitch is no die).
    assert_eq!(roll(&[(2, 6), (1, 1), (1, 3)], 2).added, None);
    assert_eq!(roll(&[(2, 6), (1, 3)], 2).added, None);
    // Ties to the action: 11 against 10 + 1 ties and succeeds, so no spend.
    let action = Rules {
        ties: Ties::Action,
        ..Rules::default()
    };
    let r = roll(&[(2, 6), (1, 4), (0, 1)], 2);
    assert_eq!(r.added, None);
    let r = roll(&[(2, 6), (1, 4), (0, 2)], 2);
    assert_eq!(e.gm_spends(&action, 12, &r), None);
    assert_eq!(e.gm_spends(&action, 11, &r), Some(0));
    assert_eq!(e.gm_spends(&rules, 12, &r), Some(0));
}

#[test]
fn the_gm_spends_down_to_reaction_keep_dice_and_no_further() {
    // d12 d10 against 3d4, three actions: a spend leaves two d4, and only a
    // hitch (a new die) allows another.
    let case = scene(
        "d12 d10",
        "3d4",
        3,
        economy(HeroSpend::Never, Distinction::D8, GmSpend::ToWin),
    );
    let (metrics, rows) = exact(&case);
    assert!(value(&metrics, "p_gm_spent") > 0.1);
    for r in rows
        .iter()
        .filter(|r| r.variable == "final_doom" && r.probability > 0.0)
    {
        let pool = Pool::parse_cortex(&r.outcome).unwrap();
        assert!(pool.len() >= 2, "{}", r.outcome);
    }
    // Without hitches in the hero's roll no pool could drop below 2d4; the
    // spends per scene never pass one plus the dice the hitches added.
    assert!(value(&metrics, "mean_doom_dice_spent") <= 1.0 + value(&metrics, "mean_plot_points"));
    let wrong = brute_force(&case);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn two_d12_end_a_scene_the_gm_has_been_spending_from() {
    // 4d4 hitching all four dice (1/256) adds a d12 to d12 2d4: the GM,
    // who may have spent a d4 on the first reaction, ends the scene before
    // the second action.
    let mut case = scene(
        "4d4",
        "d12 2d4",
        2,
        economy(HeroSpend::Never, Distinction::D8, GmSpend::ToWin),
    );
    case.end_at_2d12 = true;
    case.rules.reaction_keep = 1;
    let (metrics, _) = exact(&case);
    close(
        value(&metrics, "p_ended_early"),
        1.0 / 256.0,
        "four hitches, then 2d12",
    );
    assert!(value(&metrics, "p_gm_spent") > 0.0);
    let wrong = brute_force(&case);
    assert!(wrong.is_empty(), "{wrong:#?}");
    // 2d12 from the start: nothing happens, nothing is spent.
    let mut case = scene(
        "d8 d6",
        "2d12 d6",
        3,
        economy(HeroSpend::AddD6, Distinction::D8, GmSpend::ToWin),
    );
    case.end_at_2d12 = true;
    case.economy.as_mut().unwrap().start_plot_points = 2;
    let (metrics, rows) = exact(&case);
    assert_eq!(value(&metrics, "p_ended_early"), 1.0);
    assert_eq!(value(&metrics, "mean_doom_dice_spent"), 0.0);
    assert_eq!(value(&metrics, "p_gm_spent"), 0.0);
    assert_eq!(value(&metrics, "mean_final_plot_points"), 2.0);
    assert_eq!(row(&rows, "final_plot_points", "2"), 1.0);
}

/// The brute-force walk's state: the doom pool (sides), plot points held,
/// whether the GM spent, and the counts so far.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Walk {
    doom: Vec<u32>,
    held: u32,
    gm: bool,
    ended: bool,
    successes: u32,
    heroics: u32,
    earned: u32,
    spent: u32,
    doom_spent: u32,
}

/// Every face of every die of every action, the seven steps written out
/// afresh (sorting, no shared rule code): the metrics as (name, value),
/// and then the names where the chain differs from it.
fn brute_force(case: &SceneCase) -> Vec<String> {
    let e = case.economy.unwrap();
    let keep = case.rules.keep;
    let rk = case.rules.reaction_keep;
    let wins = |margin: i64| match case.rules.ties {
        Ties::Reaction => margin > 0,
        Ties::Action => margin >= 0,
    };
    let heroic = |margin: i64| wins(margin) && margin >= i64::from(case.rules.heroic_step);
    let start = Walk {
        doom: case.doom.dice().iter().map(|d| d.sides()).collect(),
        held: e.start_plot_points,
        gm: false,
        ended: false,
        successes: 0,
        heroics: 0,
        earned: 0,
        spent: 0,
        doom_spent: 0,
    };
    let mut states: BTreeMap<Walk, f64> = BTreeMap::from([(start, 1.0)]);
    let mut by_action = vec![0.0; case.actions as usize];
    for action in by_action.iter_mut() {
        let mut next: BTreeMap<Walk, f64> = BTreeMap::new();
        for (w, p) in states {
            if w.ended || (case.end_at_2d12 && w.doom.iter().filter(|&&s| s == 12).count() >= 2) {
                *next.entry(Walk { ended: true, ..w }).or_default() += p;
                continue;
            }
            let d4 = e.distinction == Distinction::D4WhenBroke && w.held == 0;
            let held = w.held + u32::from(d4);
            let add = e.hero_spend == HeroSpend::AddD6 && held >= 1;
            let held = held - u32::from(add);
            let mut hero: Vec<u32> = case.pool.dice().iter().map(|d| d.sides()).collect();
            if d4 {
                let i = hero.iter().position(|&s| s == 8).unwrap();
                hero[i] = 4;
            }
            if add {
                hero.push(6);
            }
            let dice: Vec<u32> = hero.iter().chain(&w.doom).copied().collect();
            let combos: u32 = dice.iter().product();
            let weight = p / f64::from(combos);
            for mut index in 0..combos {
                let mut faces = Vec::new();
                for &s in &dice {
                    faces.push(index % s + 1);
                    index /= s;
                }
                let (hf, df) = faces.split_at(hero.len());
                let mut live: Vec<u32> = hf.iter().copied().filter(|&f| f > 1).collect();
                live.sort_by(|a, b| b.cmp(a));
                let hitches = hf.iter().filter(|&&f| f == 1).count() as u32;
                let sum = |n: usize| live.iter().take(n).sum::<u32>();
                let on_total = e.hero_spend == HeroSpend::AddToTotal
                    && held >= 1
                    && live.len() > keep
                    && e.spend_below.is_none_or(|b| sum(keep) < b);
                let total = i64::from(sum(keep + usize::from(on_total)));
                let mut doom_live: Vec<(u32, u32)> = df
                    .iter()
                    .zip(&w.doom)
                    .filter(|(&f, _)| f > 1)
                    .map(|(&f, &s)| (f, s))
                    .collect();
                doom_live.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                let reaction: i64 = doom_live.iter().take(rk).map(|d| i64::from(d.0)).sum();
                let mut spend = None;
                if e.gm_spend == GmSpend::ToWin && doom_live.len() > rk {
                    let v = doom_live[rk].0;
                    let smallest = doom_live
                        .iter()
                        .filter(|d| d.0 == v)
                        .map(|d| d.1)
                        .min()
                        .unwrap();
                    if wins(total - reaction) && !wins(total - reaction - i64::from(v)) {
                        spend = Some((v, smallest));
                    }
                }
                let against = reaction + spend.map_or(0, |s| i64::from(s.0));
                let success = wins(total - against);
                if success {
                    *action += weight;
                }
                let mut doom = w.doom.clone();
                if let Some((_, sides)) = spend {
                    let i = doom.iter().position(|&s| s == sides).unwrap();
                    doom.remove(i);
                }
                if hitches >= 1 {
                    doom.push([6, 8, 10, 12][hitches.min(4) as usize - 1]);
                }
                doom.sort();
                let earned = u32::from(d4) + u32::from(hitches >= 1);
                let to = Walk {
                    doom,
                    held: held - u32::from(on_total) + u32::from(hitches >= 1),
                    gm: w.gm || spend.is_some(),
                    ended: false,
                    successes: w.successes + u32::from(success),
                    heroics: w.heroics + u32::from(heroic(total - against)),
                    earned: w.earned + earned,
                    spent: w.spent + u32::from(add) + u32::from(on_total),
                    doom_spent: w.doom_spent + u32::from(spend.is_some()),
                };
                *next.entry(to).or_default() += weight;
            }
        }
        states = next;
    }
    let mean = |f: &dyn Fn(&Walk) -> f64| states.iter().map(|(w, p)| f(w) * p).sum::<f64>();
    let ended = mean(&|w| f64::from(u8::from(w.ended)));
    let mut want: Vec<(String, f64)> = by_action
        .iter()
        .enumerate()
        .map(|(i, &p)| (format!("p_success_action_{}", i + 1), p))
        .collect();
    want.extend([
        ("mean_successes".into(), mean(&|w| f64::from(w.successes))),
        (
            "mean_heroic_successes".into(),
            mean(&|w| f64::from(w.heroics)),
        ),
        ("mean_plot_points".into(), mean(&|w| f64::from(w.earned))),
        ("p_ended_early".into(), ended),
        (
            "mean_final_doom_dice".into(),
            mean(&|w| if w.ended { 0.0 } else { w.doom.len() as f64 }) / (1.0 - ended),
        ),
        (
            "mean_plot_points_spent".into(),
            mean(&|w| f64::from(w.spent)),
        ),
        (
            "mean_final_plot_points".into(),
            mean(&|w| f64::from(w.held)),
        ),
        (
            "mean_doom_dice_spent".into(),
            mean(&|w| f64::from(w.doom_spent)),
        ),
        ("p_gm_spent".into(), mean(&|w| f64::from(u8::from(w.gm)))),
    ]);
    let (metrics, rows) = exact(case);
    let mut wrong: Vec<String> = want
        .iter()
        .filter(|(name, x)| {
            let got = value(&metrics, name);
            // The walk sums many small weights: rounding to about 1e-12.
            !(got.is_nan() && x.is_nan()) && (got - x).abs() > 1e-10
        })
        .map(|(name, x)| format!("{name}: chain {} walk {x}", value(&metrics, name)))
        .collect();
    assert_eq!(metrics.len(), want.len(), "every metric walked");
    // The final plot points, row by row.
    for held in 0..=(e.start_plot_points + 2 * case.actions) {
        let walked = mean(&|w| f64::from(u8::from(w.held == held)));
        let got = row(&rows, "final_plot_points", &held.to_string());
        if (walked - got).abs() > 1e-10 {
            wrong.push(format!(
                "final_plot_points {held}: chain {got} walk {walked}"
            ));
        }
    }
    wrong
}

#[test]
fn the_chain_matches_a_walk_of_every_history() {
    let all = [
        (HeroSpend::Never, Distinction::D8, GmSpend::ToWin),
        (HeroSpend::AddD6, Distinction::D4WhenBroke, GmSpend::ToWin),
        (
            HeroSpend::AddToTotal,
            Distinction::D4WhenBroke,
            GmSpend::ToWin,
        ),
        (HeroSpend::AddToTotal, Distinction::D8, GmSpend::Never),
        (HeroSpend::AddD6, Distinction::D8, GmSpend::Never),
    ];
    for (i, &(hero, distinction, gm)) in all.iter().enumerate() {
        let mut e = economy(hero, distinction, gm);
        e.start_plot_points = (i % 2) as u32;
        let mut case = scene("d8 d4", "d6 d4", 2, e);
        let wrong = brute_force(&case);
        assert!(wrong.is_empty(), "{e:?}: {wrong:#?}");
        // Three actions from a smaller pool, other roll rules.
        case.pool = Pool::parse_cortex("d8").unwrap();
        case.doom = Pool::parse_cortex("2d4").unwrap();
        case.actions = 3;
        case.rules.keep = 1;
        case.rules.reaction_keep = 1;
        case.rules.ties = Ties::Action;
        case.rules.heroic_step = 2;
        if hero == HeroSpend::AddToTotal {
            case.economy.as_mut().unwrap().spend_below = Some(5);
        }
        let wrong = brute_force(&case);
        assert!(wrong.is_empty(), "{e:?}, three actions: {wrong:#?}");
    }
}

#[test]
fn exact_and_monte_carlo_agree_on_every_metric() {
    let trials = 200_000;
    let mut e = economy(
        HeroSpend::AddToTotal,
        Distinction::D4WhenBroke,
        GmSpend::ToWin,
    );
    e.spend_below = Some(11);
    let mut ends = scene(
        "d8 d6 2d4",
        "d12 d8 d6",
        5,
        economy(HeroSpend::AddD6, Distinction::D8, GmSpend::ToWin),
    );
    ends.end_at_2d12 = true;
    ends.economy.as_mut().unwrap().start_plot_points = 1;
    for case in [scene("d10 2d8 d6", "3d6", 6, e), ends] {
        let economy = case.economy.unwrap();
        let exact = case.economy_metrics(
            &case
                .economy_exact_hists(&economy, &mut Budget::unlimited())
                .unwrap(),
        );
        assert_monte_carlo_agrees(&case, &economy, &exact, trials, 11);
    }
}

/// Every metric of `trials` Monte Carlo scenes (seed `seed`) within five
/// standard errors of the `exact` one.
pub(super) fn assert_monte_carlo_agrees(
    case: &SceneCase,
    economy: &Economy,
    exact: &[Metric],
    trials: u64,
    seed: u64,
) {
    let mc = case.economy_metrics(
        &case
            .economy_monte_carlo_hists(economy, &McSettings::new(trials, seed))
            .unwrap(),
    );
    assert_eq!(exact.len(), mc.len());
    for (x, m) in exact.iter().zip(&mc) {
        assert_eq!(x.name, m.name);
        let z = crate::stats::z_vs_exact(m, x, trials).unwrap();
        assert!(z.abs() < 5.0, "{}: z = {z}", x.name);
    }
}

#[test]
fn defaults_are_the_plain_scene_to_the_last_bit() {
    for (pool, doom, actions, end) in [
        ("d10 2d8 d6", "3d8", 6, false),
        ("d6 3d4", "d12 d8", 5, true),
    ] {
        let mut case = scene(pool, doom, actions, Economy::default());
        case.end_at_2d12 = end;
        let economy = case.economy.unwrap();
        let plain = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let with = case
            .economy_exact_hists(&economy, &mut Budget::unlimited())
            .unwrap();
        assert_eq!(with.scene, plain);
        let settings = McSettings::new(20_000, 3);
        let with_mc = case.economy_monte_carlo_hists(&economy, &settings).unwrap();
        assert_eq!(with_mc.scene, case.monte_carlo_hists(&settings).unwrap());
        // The economy's chain itself, forced on the defaults, agrees with
        // the plain chain (to rounding: it sums in another order).
        let forced = chain::exact_hists(&case, &economy, &mut Budget::unlimited()).unwrap();
        let (a, b) = (case.metrics(&forced.scene), case.metrics(&plain));
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x.value.unwrap() - y.value.unwrap()).abs() < 1e-12,
                "{}",
                x.name
            );
        }
        assert_eq!(forced.economy.gm_spent, 0.0);
        // A start only adds to what the hero holds at the end.
        let mut start = economy;
        start.start_plot_points = 3;
        let held = case
            .economy_exact_hists(&start, &mut Budget::unlimited())
            .unwrap();
        assert_eq!(held.scene, plain);
        let m = case.economy_metrics(&held);
        close(
            value(&m, "mean_final_plot_points"),
            3.0 + value(&m, "mean_plot_points"),
            "start + earned",
        );
    }
}
