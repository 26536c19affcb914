//! Exact means exact: exact Cortex odds are the correctly
//! rounded values of the true fractions, `--fractions` writes those
//! fractions in lowest terms, and a pool's own metrics print as one number
//! in every case that rolls it.

use crate::common;

use std::collections::BTreeMap;

use common::json_of;
use oddsmith::dice::Pool;
use oddsmith::engine::exact::Budget;
use oddsmith::systems::cortex::{CortexCase, Opposition, Rules};
use oddsmith::systems::SystemCase;

#[test]
fn fractions_match_the_reference() {
    // Published figure: d8 d8 d6 alone.
    let out = json_of(&["cortex", "d8 d8 d6", "--format", "json", "--fractions"]);
    let result = &out["results"][0];
    let fractions = &result["fractions"];
    for (name, want) in [
        ("p_hitch", "139/384"),
        ("p_botch", "1/384"),
        ("pool_effect_d4", "139/384"),
        ("pool_effect_d6", "15/64"),
        ("pool_effect_d8", "155/384"),
        ("pool_effect_d12", "0/1"),
    ] {
        assert_eq!(fractions[name], want, "{name}");
    }
    // Means are not probabilities: no fraction.
    assert!(fractions.get("mean_total").is_none());
    // Without the flag, no fractions.
    let plain = json_of(&["cortex", "d8 d8 d6", "--format", "json"]);
    assert!(plain["results"][0].get("fractions").is_none());
}

fn cortex(pool: &str, vs: Option<&str>) -> CortexCase {
    CortexCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        opposition: vs.map_or(Opposition::None, |v| {
            Opposition::Pool(Pool::parse_cortex(v).unwrap())
        }),
        rules: Rules::default(),
    }
}

#[test]
fn values_are_their_fractions_rounded_once() {
    // Published figure: d8 d8 d6 alone, mean_total = 1945/192 (small enough
    // that f64 division rounds it once too).
    let alone = cortex("d8 d8 d6", None);
    let metrics = alone.exact(&mut Budget::unlimited()).unwrap().metrics;
    assert_eq!(metrics[0].name, "mean_total");
    assert_eq!(metrics[0].value, Some(1945.0 / 192.0));

    let case = cortex("d8 d6 d6", Some("2d6"));
    let hists = case.exact_hists(&mut Budget::unlimited()).unwrap();
    let metrics = case.metrics(&hists);
    let fractions = case.fractions(&hists).unwrap();
    assert!(fractions.iter().any(|(name, _)| name == "p_success"));
    for (name, text) in &fractions {
        let (n, d) = text.split_once('/').unwrap();
        let (n, d): (u64, u64) = (n.parse().unwrap(), d.parse().unwrap());
        assert!(n <= d, "{name}");
        // 8 x 6^4 combinations: the denominator divides it.
        assert_eq!(10_368 % d, 0, "{name}: {text}");
        let value = metrics.iter().find(|m| &m.name == name).unwrap().value;
        assert_eq!(value, Some(n as f64 / d as f64), "{name}");
    }
    // Published figure: d8 d6 d6 vs 2d6, p_success 0.7068 and p_heroic 0.3166.
    let p = |name: &str| {
        metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap()
            .value
            .unwrap()
    };
    assert!((p("p_success") - 0.7068).abs() < 5e-5);
    assert!((p("p_heroic") - 0.3166).abs() < 5e-5);
}

#[test]
fn a_pools_own_metrics_are_one_number_across_the_doom_ladder() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/doom-ladder.toml");
    let scenario = oddsmith::scenario::load(std::path::Path::new(path)).unwrap();
    let own = [
        "mean_total",
        "p_hitch",
        "mean_hitches",
        "p_botch",
        "pool_effect_d4",
        "pool_effect_d6",
        "pool_effect_d8",
        "pool_effect_d10",
        "pool_effect_d12",
    ];
    let mut seen: BTreeMap<(String, &str), u64> = BTreeMap::new();
    for case in &scenario.cases {
        let pool = case.spec.inputs()["pool"].as_str().unwrap().to_string();
        let metrics = case.spec.exact(&mut Budget::interactive()).unwrap().metrics;
        for name in own {
            let bits = metrics
                .iter()
                .find(|m| m.name == name)
                .unwrap()
                .value
                .unwrap()
                .to_bits();
            let first = *seen.entry((pool.clone(), name)).or_insert(bits);
            assert_eq!(first, bits, "{pool} {name}");
        }
    }
    assert_eq!(scenario.cases.len(), 45);
}

#[test]
fn a_long_scene_is_exact_and_reports_what_it_dropped() {
    use oddsmith::options::{KeyStyle, RawItem, RawValue};
    use oddsmith::systems::System;
    let scene = |actions: i64| {
        let entries = [
            ("pool", RawValue::Str("d10 2d8 d6".into())),
            ("actions", RawValue::Int(actions)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(v)))
        .collect();
        let system = System::CortexScene;
        system
            .resolve(system.options(KeyStyle::Toml, entries))
            .unwrap()
    };
    // Past the old cliff at 24 actions: exact within the interactive budget,
    // with the dropped pools' mass reported and tiny.
    let exact = scene(40).exact(&mut Budget::interactive()).unwrap();
    let dropped = exact.dropped_mass.expect("unlikely pools were dropped");
    assert!(dropped > 0.0 && dropped < 1e-10, "{dropped}");
    // Far beyond: refused, naming the scene and its pools, not the doom pool.
    let refused = scene(400).exact(&mut Budget::interactive()).unwrap_err();
    let message = refused.to_string();
    assert!(message.contains("a scene of 400 actions"), "{message}");
    assert!(message.contains("doom pools"), "{message}");
    assert!(!message.contains("the doom pool 2d6"), "{message}");
}
