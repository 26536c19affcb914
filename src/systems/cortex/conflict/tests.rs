//! Unit tests of Cortex conflicts: the stress rule and takeouts against the
//! rules text's own examples, one exchange against the plain opposed roll,
//! and the exact chain against a brute-force walk over every fight history.
//! Exact against Monte Carlo is in `tests/conflict.rs` and
//! `tests/properties.rs`.

use super::*;
use crate::options::{KeyStyle, RawItem, RawValue};
use crate::systems::cortex::{score, CortexCase, Opposition, Ties};

fn case(hero: &str, foe: &str, mob: Option<&str>, exchanges: u32) -> ConflictCase {
    let exchanges = Some(exchanges);
    let mob = mob.map(|m| {
        let pool = Pool::parse_cortex(m).unwrap();
        Mob {
            die: pool.dice()[0],
            count: pool.len() as u32,
        }
    });
    ConflictCase {
        hero: Pool::parse_cortex(hero).unwrap(),
        foe: if foe.is_empty() {
            Pool::new(Vec::new())
        } else {
            Pool::parse_cortex(foe).unwrap()
        },
        mob,
        exchanges,
        foe_acts: true,
        hero_stress_limit: Die::D12,
        foe_stress_limit: Die::D12,
        rules: Rules::default(),
    }
}

fn exact(case: &ConflictCase) -> ConflictHists<f64> {
    case.exact_hists(&mut Budget::unlimited()).unwrap()
}

fn value(metrics: &[Metric], name: &str) -> Option<f64> {
    crate::distribution::metric(metrics, name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .value
}

const D4: u32 = 0;
const D6: u32 = 1;
const D8: u32 = 2;
const D10: u32 = 3;
const D12: u32 = 4;

#[test]
fn stress_replaces_when_larger_and_steps_up_otherwise() {
    // The rules text, "Стресс": the first stress is the effect die; a
    // larger die replaces it; an equal or smaller one steps it up once.
    assert_eq!(inflict_stress(None, D8), D8);
    assert_eq!(inflict_stress(Some(D6), D10), D10);
    assert_eq!(inflict_stress(Some(D8), D8), D10);
    assert_eq!(inflict_stress(Some(D10), D4), D12);
    // d12 steps past d12 ("beyond d12"), and a heroic effect may start there.
    assert_eq!(inflict_stress(Some(D12), D6), D12 + 1);
    assert_eq!(inflict_stress(None, D12 + 2), D12 + 2);
}

#[test]
fn heroes_and_specialists_are_out_past_their_limit() {
    let mut c = case("d8", "d8", None, 1);
    // A hero holds d12 and goes out only past it ("превышает планку d12").
    assert_eq!(c.hero_takes(Some(D10), D10), Some(Some(D12)));
    assert_eq!(c.hero_takes(Some(D12), D4), None);
    assert_eq!(c.hero_takes(None, D12 + 1), None);
    // Specialists ("Специалисты"): novices go down at d8, experts at d10,
    // masters at d12.
    let foe = |stress| FoeState { stress, team: 0 };
    for (limit, holds, out) in [(Die::D6, D6, D8), (Die::D8, D8, D10), (Die::D10, D10, D12)] {
        c.foe_stress_limit = limit;
        assert_eq!(c.foe_takes(foe(None), holds), Some(foe(Some(holds))));
        assert_eq!(c.foe_takes(foe(None), out), None);
        assert_eq!(c.foe_takes(foe(Some(holds)), D4), None);
    }
}

#[test]
fn a_mob_loses_a_team_die_when_its_stress_passes_the_team_die() {
    // The rules text's example: a 3d8 mob needs d10 stress to drop to 2d8,
    // and then clears its stress.
    let c = case("d8", "", Some("3d8"), 1);
    let mob = |stress, team| FoeState { stress, team };
    assert_eq!(c.foe_takes(mob(None, 3), D8), Some(mob(Some(D8), 3)));
    assert_eq!(c.foe_takes(mob(None, 3), D10), Some(mob(None, 2)));
    // d8 on d8 steps up to d10: one die lost.
    assert_eq!(c.foe_takes(mob(Some(D8), 3), D6), Some(mob(None, 2)));
    // However large the effect, one die per inflicted effect.
    assert_eq!(c.foe_takes(mob(None, 3), D12 + 3), Some(mob(None, 2)));
    // The last team die lost takes the mob out.
    assert_eq!(c.foe_takes(mob(None, 1), D12), None);
    assert_eq!(c.foe_takes(mob(Some(D6), 1), D4), Some(mob(Some(D8), 1)));
}

#[test]
fn one_exchange_is_the_plain_opposed_roll() {
    // With the foe not acting, a one-exchange fight takes a d6-limit foe out
    // exactly when the cortex system's final effect die is d8 or more.
    for (ties, heroic_step, down) in [
        (Ties::Reaction, 5, false),
        (Ties::Action, 3, true),
        (Ties::Reaction, 1, true),
    ] {
        let mut c = case("d10 2d8 d6", "d8 2d6", None, 1);
        c.foe_acts = false;
        c.foe_stress_limit = Die::D6;
        c.rules.ties = ties;
        c.rules.heroic_step = heroic_step;
        c.rules.effect_step_down = down;
        let roll = CortexCase {
            pool: c.hero.clone(),
            opposition: Opposition::Pool(c.foe.clone()),
            rules: c.rules,
        };
        let counts = roll.exact_hists(&mut Budget::unlimited()).unwrap();
        let plain_win = counts.win_effect.map(|c| c as f64 / counts.whole as f64);
        let h = exact(&c);
        let metrics = c.metrics(&h);
        let want = plain_win.mass_where(|s| s > i64::from(D6));
        assert!((value(&metrics, "p_foe_out").unwrap() - want).abs() < 1e-12);
        assert_eq!(value(&metrics, "p_hero_out"), Some(0.0));
        let stressed = plain_win.mass_where(|s| s <= i64::from(D6));
        assert!((h.final_foe_stress.get(1) + h.final_foe_stress.get(2) - stressed).abs() < 1e-12);
    }
}

/// Brute force, for the cross-check only: one opposed roll's final-effect
/// distribution by scoring every face combination with the plain scorer.
fn brute_roll(c: &ConflictCase, action: &Pool, reaction: &Pool) -> Vec<(Option<u32>, f64)> {
    let dice: Vec<Die> = action
        .dice()
        .iter()
        .chain(reaction.dice())
        .copied()
        .collect();
    let weight = 1.0 / dice.iter().map(|d| f64::from(d.sides())).product::<f64>();
    let mut faces = vec![1u8; dice.len()];
    let mut out: Vec<(Option<u32>, f64)> = Vec::new();
    loop {
        let (a, r) = faces.split_at(action.len());
        let a = score(action.dice(), a, c.rules.keep);
        let r = score(reaction.dice(), r, c.rules.reaction_keep);
        let effect = c.opposed_effect(a, r);
        match out.iter_mut().find(|(e, _)| *e == effect) {
            Some(slot) => slot.1 += weight,
            None => out.push((effect, weight)),
        }
        let mut i = 0;
        loop {
            if i == dice.len() {
                return out;
            }
            if u32::from(faces[i]) < dice[i].sides() {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// Brute force: walks every history of the fight (no merging of states),
/// recording each ending with its probability.
fn brute_fight(
    c: &ConflictCase,
    hero: Option<u32>,
    foe: FoeState,
    exchange: u32,
    p: f64,
    hists: &mut ConflictHists<f64>,
) {
    let mob = c.mob.is_some();
    let end = |hero_out, foe_out, hero_stress, foe| Ending {
        exchange,
        hero_out,
        foe_out,
        hero_stress,
        foe,
    };
    let attack = brute_roll(c, &with_stress(&c.hero, foe.stress), &c.foe_pool(foe.team));
    for (effect, q) in attack {
        let foe = match effect.map(|e| c.foe_takes(foe, e)) {
            None => foe,
            Some(Some(after)) => after,
            Some(None) => {
                hists.record_end(end(false, true, hero, foe), p * q, mob);
                continue;
            }
        };
        let answers = if c.foe_acts {
            brute_roll(c, &with_stress(&c.foe_pool(foe.team), hero), &c.hero)
        } else {
            vec![(None, 1.0)]
        };
        for (effect, r) in answers {
            let hero = match effect.map(|e| c.hero_takes(hero, e)) {
                None => hero,
                Some(Some(after)) => after,
                Some(None) => {
                    hists.record_end(end(true, false, hero, foe), p * q * r, mob);
                    continue;
                }
            };
            if Some(exchange) == c.exchanges {
                hists.record_end(end(false, false, hero, foe), p * q * r, mob);
            } else {
                brute_fight(c, hero, foe, exchange + 1, p * q * r, hists);
            }
        }
    }
}

#[test]
fn the_chain_matches_a_brute_force_walk_over_every_history() {
    let mut specialist = case("d6 d4", "d6", None, 3);
    specialist.foe_stress_limit = Die::D6;
    specialist.hero_stress_limit = Die::D8;
    specialist.rules.heroic_step = 2;
    let mut passive = case("d6", "d4 d4", None, 3);
    passive.foe_acts = false;
    passive.rules.ties = Ties::Action;
    let mut mob = case("d6 d4", "", Some("2d4"), 3);
    mob.rules.effect_step_down = true;
    mob.rules.heroic_step = 3;
    let mut mixed = case("d6", "d4", Some("2d6"), 2);
    mixed.rules.keep = 1;
    mixed.rules.reaction_keep = 1;
    for c in [specialist, passive, mob, mixed] {
        let fast = exact(&c);
        let mut slow = ConflictHists::new(c.tally_range());
        brute_fight(&c, None, c.start(), 1, 1.0, &mut slow);
        let (fast_m, slow_m) = (c.metrics(&fast), c.metrics(&slow));
        for (f, s) in fast_m.iter().zip(&slow_m) {
            let (f, s) = (f.value.unwrap_or(-1.0), s.value.unwrap_or(-1.0));
            assert!((f - s).abs() < 1e-12, "{c:?}: {f} vs {s}");
        }
        for (f, s) in c.rows(&fast).iter().zip(&c.rows(&slow)) {
            assert_eq!((&f.variable, &f.outcome), (&s.variable, &s.outcome));
            assert!(
                (f.probability - s.probability).abs() < 1e-12,
                "{f:?} vs {s:?}"
            );
        }
        // Every fight ends once: the endings hold all the mass.
        assert!((fast.exchanges.mass() - 1.0).abs() < 1e-12);
    }
}

fn build(entries: Vec<(&str, RawValue)>) -> Result<ConflictCase, OptionError> {
    let entries = entries
        .into_iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(v)))
        .collect();
    ConflictCase::from_options(System::CortexConflict.options(KeyStyle::Flag, entries))
}

fn text(s: &str) -> RawValue {
    RawValue::Str(s.into())
}

#[test]
fn options_have_the_spec_defaults_and_names() {
    let c = build(vec![("hero", text("d6 d10 d8")), ("foe", text("d8 d6"))]).unwrap();
    // No cap: the fight runs until one side is out (docs/cortex.md).
    assert_eq!(c.exchanges, None);
    assert!(c.foe_acts);
    assert_eq!(
        (c.hero_stress_limit, c.foe_stress_limit),
        (Die::D12, Die::D12)
    );
    assert_eq!(c.rules, Rules::default());
    let swept = ["hero".to_string(), "foe".to_string(), "mob".to_string()];
    assert_eq!(c.sweep_name(&swept).unwrap(), "d10 d8 d6 vs d8 d6");
    let mob = build(vec![
        ("hero", text("d10 d8 d6")),
        ("foe", text("d6")),
        ("mob", text("3d6")),
    ])
    .unwrap();
    assert_eq!(mob.sweep_name(&swept).unwrap(), "d10 d8 d6 vs d6 + 3d6 mob");
    assert!(mob.inputs().get("foe_stress_limit").is_none());
    let bare = build(vec![("hero", text("d10 d8 d6")), ("mob", text("3d6"))]).unwrap();
    assert_eq!(bare.sweep_name(&swept).unwrap(), "d10 d8 d6 vs 3d6 mob");
    assert!(bare.inputs().get("foe").is_none());
}

#[test]
fn bad_options_say_what_is_allowed() {
    let err = |entries| build(entries).unwrap_err().message;
    let hero = || ("hero", text("d8 d6"));
    let foe = || ("foe", text("d8"));
    let mixed = err(vec![hero(), ("mob", text("2d8 d6"))]);
    assert!(mixed.contains("all of one size"), "{mixed}");
    let d4 = err(vec![hero(), foe(), ("foe_stress_limit", text("d4"))]);
    assert!(
        d4.contains("\"d4\"") && d4.contains("`d6` (novice)"),
        "{d4}"
    );
    let with_mob = err(vec![
        hero(),
        ("mob", text("3d6")),
        ("foe_stress_limit", text("d8")),
    ]);
    assert!(with_mob.contains("does not apply to a mob"), "{with_mob}");
    for n in [0, 101] {
        let e = err(vec![hero(), foe(), ("exchanges", RawValue::Int(n))]);
        assert!(e.contains("from 1 to 100"), "{e}");
    }
    assert!(err(vec![hero()]).contains("needs `--foe`"));
    assert!(err(vec![foe()]).contains("needs `--hero`"));
    let vs = err(vec![hero(), foe(), ("vs", text("2d6"))]);
    assert!(vs.contains("unknown key `--vs`"), "{vs}");
}
