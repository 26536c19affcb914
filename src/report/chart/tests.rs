//! Chart tests on the reports of `report::fixture` (small real runs): every chart kind
//! renders a non-empty PNG of at least 1200x800 and a well-formed SVG,
//! rendering is deterministic, and the builders read the right numbers.

use super::model::{Chart, Plot};
use super::*;
use crate::report::fixture;

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a valid PNG");
    let info = reader.info();
    (info.width, info.height)
}

/// Renders both formats and checks them; returns the SVG.
pub(super) fn check_renders(chart: &Chart) -> String {
    let png_bytes = render::png(chart).expect("PNG renders");
    assert!(png_bytes.len() > 10_000, "{}: PNG too small", chart.stem);
    let (w, h) = png_size(&png_bytes);
    assert!(w >= 1200 && h >= 800, "{}: {w}x{h}", chart.stem);
    let svg = render::svg(chart).expect("SVG renders");
    let doc = roxmltree::Document::parse(&svg)
        .unwrap_or_else(|e| panic!("{}: SVG is not well-formed XML: {e}", chart.stem));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // Every chart carries its title as text.
    let first_words = chart.title.split(' ').take(2).collect::<Vec<_>>().join(" ");
    assert!(
        svg.contains(&first_words),
        "{}: title missing from the SVG",
        chart.stem
    );
    svg
}

pub(super) fn stems(charts: &[Chart]) -> Vec<&str> {
    charts.iter().map(|c| c.stem.as_str()).collect()
}

pub(super) fn find<'a>(charts: &'a [Chart], stem: &str) -> &'a Chart {
    charts
        .iter()
        .find(|c| c.stem == stem)
        .unwrap_or_else(|| panic!("no chart {stem} in {:?}", stems(charts)))
}

fn all_fixture_reports() -> Vec<crate::report::Report> {
    vec![
        fixture::cortex(false, true),
        fixture::cortex(true, false),
        fixture::storytelling(false),
        fixture::storytelling(true),
        fixture::advantage(false),
        fixture::advantage(true),
        fixture::scene(false),
        fixture::scene(true),
    ]
}

#[test]
fn every_chart_kind_renders_png_and_svg() {
    let mut seen = Vec::new();
    for report in all_fixture_reports() {
        for chart in charts(&report) {
            check_renders(&chart);
            seen.push(chart.stem.clone());
        }
    }
    for stem in [
        "cortex-p-success",
        "cortex-effect-die",
        "cortex-pool-effect",
        "cortex-hitches",
        "storytelling-at-least-k",
        "storytelling-successes",
        "advantage-tiers",
        "advantage-miss-to-strong",
        "cortex-scene-success-by-action",
        "cortex-scene-final-doom",
    ] {
        assert!(seen.iter().any(|s| s == stem), "{stem} was never drawn");
    }
}

#[test]
fn rendering_twice_gives_the_same_bytes() {
    for report in [fixture::cortex(true, false), fixture::scene(true)] {
        for chart in charts(&report) {
            assert_eq!(render::svg(&chart).unwrap(), render::svg(&chart).unwrap());
            assert_eq!(render::png(&chart).unwrap(), render::png(&chart).unwrap());
        }
    }
}

#[test]
fn cortex_heatmap_holds_each_exact_p_success() {
    let report = fixture::cortex(false, true);
    let charts = charts(&report);
    let chart = find(&charts, "cortex-p-success");
    let Plot::Heatmap(h) = &chart.panels[0].plot else {
        panic!("not a heatmap")
    };
    // Rows and columns in report order ([[case]]s come before [[sweep]]s).
    assert_eq!(h.rows, ["d10 d8 d6", "d8 2d6", "d12 d10 d8 d6"]);
    // Pools on the rules text's difficulty table carry its rung name.
    assert_eq!(
        h.columns,
        [
            "difficulty 11",
            "2d6 (standard)",
            "2d8 (heroic)",
            "3d8 (global heroic)",
            "2d10 (catastrophic)"
        ]
    );
    for r in &report.results {
        let Some(vs) = input(r, &crate::systems::cortex::keys::VS) else {
            continue;
        };
        let row = h
            .rows
            .iter()
            .position(|x| Some(x) == input(r, &crate::systems::cortex::keys::POOL).as_ref())
            .unwrap();
        let col = h
            .columns
            .iter()
            .position(|x| x.split(' ').next() == Some(vs.as_str()))
            .unwrap();
        assert_eq!(h.cells[row][col], metric(r, "p_success"));
    }
    // Only d10 d8 d6 was rolled against difficulty 11.
    assert!(h.cells[0][0].is_some() && h.cells[1][0].is_none());
    assert!(
        chart.notes[0].starts_with("Rules: 2 dice kept for the total"),
        "{:?}",
        chart.notes
    );
    assert_eq!(chart.notes.last().unwrap(), "Exact probabilities.");
    // The SVG prints every cell's value as a text of its own.
    let svg = render::svg(chart).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for value in h.cells.iter().flatten().flatten() {
        let v = crate::report::format::percent(*value);
        assert!(texts.contains(&v.as_str()), "{v} not printed: {texts:?}");
    }
}

/// Each segment is the case's `win_effect` row of its name (the failure
/// segment the `fail` row, which the tally counts apart from the
/// successes), and the failure segment's interval is `p_success`'s mirrored.
#[test]
fn stacked_bars_are_the_win_effect_rows_and_carry_intervals_for_monte_carlo() {
    let report = fixture::cortex(true, false);
    let charts = charts(&report);
    let chart = find(&charts, "cortex-effect-die");
    // One panel per hero pool in report order, a bar per opposed case.
    let opposed: Vec<&CaseResult> = chosen(&report, System::Cortex)
        .into_iter()
        .filter(|r| metric(r, "p_success").is_some())
        .collect();
    let mut pools: Vec<String> = Vec::new();
    for r in &opposed {
        pools.extend(input(r, &crate::systems::cortex::keys::POOL).filter(|p| !pools.contains(p)));
    }
    assert_eq!(chart.panels.len(), pools.len());
    for (panel, pool) in chart.panels.iter().zip(&pools) {
        let Plot::Bars(bars) = &panel.plot else {
            panic!("not bars")
        };
        assert!(bars.stacked && bars.horizontal);
        assert_eq!(bars.series[0].name, "action fails");
        let cases: Vec<&&CaseResult> = opposed
            .iter()
            .filter(|r| input(r, &crate::systems::cortex::keys::POOL).as_ref() == Some(pool))
            .collect();
        assert_eq!(bars.categories.len(), cases.len());
        for (c, r) in cases.iter().enumerate() {
            let rows = distribution(r, "win_effect");
            for s in &bars.series {
                let row = match s.name.as_str() {
                    "action fails" => "fail",
                    "beyond d12 (heroic)" => "d12+",
                    name => name.strip_prefix("succeeds, ").expect("a die"),
                };
                let expected: f64 = rows
                    .iter()
                    .filter(|(o, _)| match row {
                        "d12+" => o.starts_with("d12+"),
                        row => *o == row,
                    })
                    .map(|(_, p)| p)
                    .sum();
                let value = s.values[c].map_or(0.0, |v| v.value);
                assert!(
                    (value - expected).abs() < 1e-12,
                    "{}: {} is {value}, its row {expected}",
                    r.case,
                    s.name
                );
            }
            let fail = bars.series[0].values[c].unwrap();
            let (lo, hi) = fail.ci.expect("Monte Carlo intervals");
            let (s_lo, s_hi) = metric_value(r, "p_success").unwrap().ci.unwrap();
            assert_eq!((lo, hi), (1.0 - s_hi, 1.0 - s_lo));
            assert!(
                lo < fail.value && fail.value < hi,
                "{lo} {} {hi}",
                fail.value
            );
        }
    }
    assert!(chart.notes.last().unwrap().contains("4,000 trials"));
    assert!(chart.legend.len() >= 2);
}

#[test]
fn hitch_bars_have_one_group_per_distinct_pool() {
    let report = fixture::cortex(false, false);
    let charts = charts(&report);
    let chart = find(&charts, "cortex-hitches");
    let Plot::Bars(hero) = &chart.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(hero.categories, ["d8 2d6", "d10 d8 d6", "d12 d10 d8 d6"]);
    // p_botch of any pool = product of 1/S (published tables): d8 2d6 -> 1/288.
    let botch = hero.series[1].values[0].unwrap().value;
    assert!((botch - 1.0 / 288.0).abs() < 1e-12);
    let Plot::Bars(opp) = &chart.panels[1].plot else {
        panic!("not bars")
    };
    assert_eq!(opp.categories, ["2d6", "2d8", "3d8", "2d10"]);
}

#[test]
fn storytelling_lines_are_per_variant_with_the_chance_die_at_zero() {
    let report = fixture::storytelling(false);
    let charts = charts(&report);
    let chart = find(&charts, "storytelling-at-least-k");
    assert_eq!(chart.panels.len(), 4);
    let names: Vec<_> = chart.legend.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["10-again", "9-again", "8-again", "10-again + rote"]);
    let Plot::Lines(lines) = &chart.panels[1].plot else {
        panic!("not lines")
    };
    assert_eq!(lines.x_ticks[0].1, "chance");
    // 10-again, 5 dice, at least 2 successes: 0.507795 (published tables).
    let p = lines.series[0]
        .points
        .iter()
        .find(|p| p.x == 5.0)
        .unwrap()
        .y
        .value;
    assert!((p - 0.507795).abs() < 1e-6);
    let dist = find(&charts, "storytelling-successes");
    // The chance die on its own panel, then the four other spread pools of
    // the first variant.
    let Plot::Bars(chance) = &dist.panels[0].plot else {
        panic!("not bars")
    };
    let Plot::Bars(bars) = &dist.panels[1].plot else {
        panic!("not bars")
    };
    assert_eq!(
        bars.series.len(),
        4,
        "the spread pools of the first variant"
    );
    assert!(bars.categories.last().unwrap().ends_with('+'));
    // No success: every die below 8 (0.7 each), or the chance die not a
    // 10 (docs/storytelling.md); rerolls only follow successes.
    assert_eq!(bars.categories[0], "0");
    assert_eq!(chance.categories[0], "0");
    for s in chance.series.iter().chain(&bars.series) {
        let expected = match s.name.as_str() {
            chance if chance.starts_with("chance die") => 0.9,
            "1 die" => 0.7,
            name => {
                let n: i32 = name.strip_suffix(" dice").unwrap().parse().unwrap();
                0.7f64.powi(n)
            }
        };
        let none = s.values[0].unwrap().value;
        assert!((none - expected).abs() < 1e-12, "{}: {none}", s.name);
    }
}

#[test]
fn advantage_setups_show_the_strong_hits_each_die_adds_per_player() {
    // Only with more than one setup (docs/advantage.md): the plain fixture has none.
    assert!(charts(&fixture::advantage(false))
        .iter()
        .all(|c| !c.stem.ends_with("setups")));
    let report = fixture::advantage_setups();
    let charts = charts(&report);
    let chart = find(&charts, "advantage-setups");
    let Plot::Bars(bars) = &chart.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(
        bars.categories,
        ["one die", "two dice", "party of 2, sharing"]
    );
    let names: Vec<&str> = bars.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["d4", "d8"]);
    // The party of 2 rolls 8 times, 4 per player: its bar is the gain in
    // p_strong over plain 2d6 (6/36) times 4.
    let party = report
        .results
        .iter()
        .find(|r| r.case.contains("party") && r.inputs["die"] == "d8")
        .unwrap();
    let p_strong = super::metric(party, "p_strong").unwrap();
    let bar = bars.series[1].values[2].unwrap().value;
    assert!((bar - (p_strong - 6.0 / 36.0) * 4.0).abs() < 1e-12);
    // The threshold follows the die and is named in a note, not a panel.
    assert!(chart
        .notes
        .iter()
        .any(|n| n == "Per die: d4 spend once the die shows 3+, d8 spend once the die shows 7+."));
    let tiers = find(&charts, "advantage-tiers");
    assert!(tiers
        .panels
        .iter()
        .all(|p| !p.caption.as_deref().unwrap_or("").contains("threshold")));
}

#[test]
fn advantage_panels_per_policy_with_the_no_die_baseline() {
    let report = fixture::advantage(true);
    let charts = charts(&report);
    let chart = find(&charts, "advantage-tiers");
    // One panel per policy that spends the counter; policy "never" (no
    // die) is the baseline bar of every panel, not a panel of its own.
    assert_eq!(chart.panels.len(), 3);
    assert_eq!(
        chart.panels[0].caption.as_deref(),
        Some("spend whenever it helps")
    );
    let Plot::Bars(bars) = &chart.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(bars.categories, ["no die", "d4", "d6", "d8"]);
    let base_strong = bars.series[2].values[0].unwrap();
    assert!((base_strong.value - 6.0 / 36.0).abs() < 1e-12 && base_strong.ci.is_none());
    assert!(bars.series[0].values[1].unwrap().ci.is_some());
    // Die sizes are categories: grouped bars, a bar per policy.
    let chart = find(&charts, "advantage-miss-to-strong");
    let Plot::Bars(bars) = &chart.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(bars.series.len(), 3);
    assert_eq!(bars.categories, ["d4", "d6", "d8"]);
    // A d4 replacing the lower die never lifts a miss (6 or less) to a
    // strong hit (10 or more: the higher die would need 6 with the lower
    // at 0): a note says so where its bars would be.
    assert!(bars
        .series
        .iter()
        .all(|s| s.values[0].unwrap().value == 0.0));
    assert!(bars.series.iter().all(|s| s.values[1].unwrap().value > 0.0));
    let noted = chart.notes.iter().any(|n| n.starts_with("No bar for d4"));
    assert!(noted, "{:?}", chart.notes);
}

#[test]
fn scene_lines_per_doom_pool_and_final_doom_panels() {
    let report = fixture::scene(true);
    let charts = charts(&report);
    let chart = find(&charts, "cortex-scene-success-by-action");
    let names: Vec<_> = chart.legend.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "doom pool starts at 2d6, doom pool keeps growing past 2d12",
            "doom pool starts at 2d8, doom pool keeps growing past 2d12",
            "doom pool starts at d12 2d10, scene ends when the doom pool reaches 2d12"
        ]
    );
    assert!(chart
        .notes
        .last()
        .unwrap()
        .contains("counts as not succeeding"));
    // The final doom pools, counted by the dice added: one panel, a bar
    // per case in each count, summing with "ended" to every scene.
    let doom = find(&charts, "cortex-scene-final-doom");
    assert_eq!(doom.panels.len(), 1);
    let Plot::Bars(bars) = &doom.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(bars.series.len(), 3);
    assert_eq!(bars.categories[0], "0");
    assert_eq!(bars.categories.last().unwrap(), "scene ended early");
    for s in &bars.series {
        let total: f64 = s.values.iter().flatten().map(|v| v.value).sum();
        assert!((total - 1.0).abs() < 1e-9, "{}: {total}", s.name);
    }
    let first = chosen(&report, System::CortexScene)[0];
    let none_added: f64 = distribution(first, "final_doom")
        .iter()
        .filter(|(o, _)| *o == "2d6")
        .map(|(_, p)| p)
        .sum();
    assert_eq!(bars.series[0].values[0].unwrap().value, none_added);
}

#[test]
fn many_advantage_cases_show_one_slice_in_a_few_panels() {
    let report = fixture::many_advantage_cases();
    assert!(report.results.len() > 100);
    let charts = charts(&report);
    let chart = find(&charts, "advantage-tiers");
    let mut captions: Vec<_> = chart
        .panels
        .iter()
        .map(|p| p.caption.as_deref().unwrap_or(""))
        .collect();
    captions.sort_unstable();
    assert_eq!(
        captions,
        [
            "spend on the last roll",
            "spend whenever it helps",
            "threshold policy, spend once the die shows 3+",
            "threshold policy, spend once the die shows 4+"
        ]
    );
    assert!(chart.height <= 1600, "{}x{}", chart.width, chart.height);
    let (_, h) = render::canvas_size(chart).unwrap();
    assert!(h <= 1600);
    // stat 0 and the middle encounter length stand for the rest.
    let note = chart
        .notes
        .iter()
        .find(|n| n.starts_with("Shown:"))
        .expect("a slice note");
    assert!(note.contains("stat 0 (of -1, 0, 1, 2)"), "{note}");
    assert!(
        note.contains("6 rolls an encounter (of 3, 6, 10)"),
        "{note}"
    );
    let line = find(&charts, "advantage-miss-to-strong");
    let Plot::Bars(bars) = &line.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(bars.series.len(), 4);
    assert!(line.notes.iter().any(|n| n.starts_with("Shown:")));
    check_renders(chart);
}

#[test]
fn a_stat_range_without_zero_shows_the_value_nearest_it() {
    let mut report = fixture::many_advantage_cases();
    report
        .results
        .retain(|r| r.inputs["stat"].as_i64() != Some(0));
    let charts = charts(&report);
    let chart = find(&charts, "advantage-tiers");
    let note = chart
        .notes
        .iter()
        .find(|n| n.starts_with("Shown:"))
        .unwrap();
    assert!(note.contains("stat -1 (of -1, 1, 2)"), "{note}");
}

#[test]
fn many_scene_cases_keep_one_line_per_doom_pool() {
    let report = fixture::many_scene_cases();
    let charts = charts(&report);
    let chart = find(&charts, "cortex-scene-success-by-action");
    assert_eq!(chart.panels.len(), 4);
    let names: Vec<_> = chart.legend.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "doom pool starts at 2d6",
            "doom pool starts at 2d8",
            "doom pool starts at d12 2d10"
        ]
    );
    for panel in &chart.panels {
        let Plot::Lines(lines) = &panel.plot else {
            panic!("not lines")
        };
        // One line per doom pool, each the 8-action scene.
        assert_eq!(lines.series.len(), 3);
        assert!(lines.series.iter().all(|s| s.points.len() == 8));
        assert_eq!(lines.x_ticks.len(), 8);
    }
    assert_eq!(
        chart.panels[0].caption.as_deref(),
        Some("hero pool d10 d8 d6, doom pool keeps growing past 2d12")
    );
    check_renders(chart);
    let doom = find(&charts, "cortex-scene-final-doom");
    assert!(doom.panels.len() <= 6);
    assert!(doom.notes.iter().any(|n| n.starts_with("Shown:")));
}

#[test]
fn a_long_legend_grows_the_canvas_instead_of_squashing_the_plot() {
    let mut chart = find(
        &charts(&fixture::scene(false)),
        "cortex-scene-success-by-action",
    )
    .clone();
    let item = chart.legend[0].clone();
    chart.legend = (0..40)
        .map(|i| model::LegendItem {
            name: format!("a rather long legend entry number {i} that fills a row"),
            ..item.clone()
        })
        .collect();
    let (w, h) = render::canvas_size(&chart).unwrap();
    assert_eq!(w, chart.width);
    // Twenty rows of legend (about 600 pixels) above a plot of 300 or more.
    assert!(h > 1000, "{h}");
    let png_bytes = render::png(&chart).unwrap();
    assert_eq!(png_size(&png_bytes), (w, h));
    check_renders(&chart);
}

#[test]
fn both_methods_chart_the_exact_result() {
    let mut report = fixture::cortex(false, false);
    let mc = fixture::cortex(true, false);
    report.results.extend(mc.results);
    let chosen = chosen(&report, System::Cortex);
    assert_eq!(chosen.len(), 12);
    assert!(chosen.iter().all(|r| r.method == MethodUsed::Exact));
}

#[test]
fn old_charts_are_recognised_by_their_system_prefix() {
    for report in all_fixture_reports() {
        for (name, _) in files(&report).unwrap() {
            assert!(is_chart_file(&name), "{name}");
        }
    }
    for other in [
        "photo.png",
        "cortex.png",
        "cortex-p-success.csv",
        "run.json",
    ] {
        assert!(!is_chart_file(other), "{other}");
    }
}

/// Writes every fixture chart to `target/chart-review/` for a person to
/// look at: `cargo test write_fixture_charts -- --ignored`.
#[test]
#[ignore = "writes files for review"]
fn write_fixture_charts_for_review() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/chart-review");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, report) in all_fixture_reports().into_iter().enumerate() {
        for (name, bytes) in files(&report).unwrap() {
            std::fs::write(dir.join(format!("{i}-{name}")), bytes).unwrap();
        }
    }
}

/// Control characters in any label (names are refused at
/// load, but a chart must not rely on it) and XML's special characters
/// still give a well-formed SVG.
#[test]
fn labels_with_control_and_markup_characters_give_well_formed_svg() {
    let mut report = fixture::cortex(false, true);
    for (i, r) in report.results.iter_mut().enumerate() {
        r.case = format!("a\u{1}<b>&\"'\u{1b}[31m {i}");
    }
    for mut chart in charts(&report) {
        chart.title.push_str(" \u{0}<&>");
        check_renders(&chart);
    }
}

#[test]
fn the_successes_chart_shows_every_storytelling_variant() {
    let report = fixture::storytelling(false);
    let charts = charts(&report);
    let chart = find(&charts, "storytelling-successes");
    let captions: Vec<_> = chart
        .panels
        .iter()
        .map(|p| p.caption.as_deref().unwrap_or(""))
        .collect();
    // The chance die first, on a scale of its own (its 90 % failure would
    // flatten the pools' bars), then every variant.
    assert_eq!(
        captions,
        [
            "Chance die (own scale)",
            "10-again",
            "9-again",
            "8-again",
            "10-again + rote"
        ]
    );
    // The same pool sizes, coloured alike, in every panel; one legend.
    let names: Vec<_> = chart.legend.iter().map(|l| l.name.as_str()).collect();
    assert!(
        names[0].ends_with("dice") || names[0] == "1 die",
        "{names:?}"
    );
    let pools: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !n.starts_with("chance die"))
        .collect();
    assert!(pools.len() < names.len(), "{names:?}");
    for panel in &chart.panels[1..4] {
        let Plot::Bars(bars) = &panel.plot else {
            panic!("not bars")
        };
        let series: Vec<_> = bars.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(series, pools);
        // The pools' scale leaves the chance die out: far below 90 %.
        assert!(bars.axis.max.unwrap() < 0.8, "{:?}", bars.axis.max);
    }
    let Plot::Bars(chance) = &chart.panels[0].plot else {
        panic!("not bars")
    };
    assert!(chance.series[0].colour != chart.legend[0].colour);
}

#[test]
fn effect_legend_lists_only_dice_that_occur_and_groups_cases_by_pool() {
    let report = fixture::cortex(false, false);
    let charts = charts(&report);
    let chart = find(&charts, "cortex-effect-die");
    let captions: Vec<_> = chart
        .panels
        .iter()
        .map(|p| p.caption.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        captions,
        [
            "hero pool d8 2d6",
            "hero pool d10 d8 d6",
            "hero pool d12 d10 d8 d6"
        ]
    );
    // Every legend entry has a bar somewhere; every effect metric above zero
    // has its legend entry.
    for item in &chart.legend {
        let shown = chart.panels.iter().any(|p| match &p.plot {
            Plot::Bars(b) => b
                .series
                .iter()
                .any(|s| s.name == item.name && s.values.iter().flatten().any(|v| v.value > 0.0)),
            _ => false,
        });
        assert!(shown, "{} never occurs", item.name);
    }
    for r in chosen(&report, System::Cortex) {
        for size in ["d4", "d6", "d8", "d10", "d12"] {
            if metric(r, &format!("win_effect_{size}")).unwrap_or(0.0) > 0.0 {
                let name = format!("succeeds, {size}");
                assert!(chart.legend.iter().any(|l| l.name == name), "{name}");
            }
        }
    }
    // Each panel's bars are the pool's cases, named by the opposition.
    let Plot::Bars(first) = &chart.panels[0].plot else {
        panic!("not bars")
    };
    assert_eq!(first.categories[0], "against 2d6");
}

#[test]
fn cortex_totals_at_least_read_the_at_least_column() {
    let report = fixture::cortex(false, false);
    let charts = charts(&report);
    let chart = find(&charts, "cortex-totals-at-least");
    let Plot::Lines(lines) = &chart.panels[0].plot else {
        panic!("not lines")
    };
    let names: Vec<_> = lines.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["d8 2d6", "d10 d8 d6", "d12 d10 d8 d6"]);
    // Each point is P(total >= x), summed here from the total rows.
    let r = chosen(&report, System::Cortex)[0];
    let totals: Vec<(i64, f64)> = distribution(r, "total")
        .into_iter()
        .map(|(o, p)| (o.parse().unwrap(), p))
        .collect();
    assert!(lines.series[0].points.len() > 5);
    for p in &lines.series[0].points {
        let tail: f64 = totals
            .iter()
            .filter(|(t, _)| *t >= p.x as i64)
            .map(|(_, q)| q)
            .sum();
        assert!((p.y.value - tail).abs() < 1e-12, "{}: {}", p.x, p.y.value);
    }
    // From a total of 1: a total of 0 (a botch) is always reached.
    assert_eq!(lines.series[0].points[0].x, 1.0);
}

#[test]
fn a_doom_pool_balance_gets_a_chart_with_rung_names_and_the_chosen_rung() {
    use crate::balance::{BalanceResult, Form, RungValue, DEFAULT_LADDER};
    let ladder: Vec<RungValue> = DEFAULT_LADDER
        .iter()
        .enumerate()
        .map(|(i, (pool, label))| RungValue {
            value: (*pool).into(),
            label: Some(label),
            metric: Some(0.9 - 0.1 * i as f64),
        })
        .collect();
    let mut inputs = serde_json::Map::new();
    inputs.insert("pool".into(), "d8 2d6".into());
    let answer = BalanceResult {
        form: Form::Pools,
        table: 1,
        system: System::Cortex,
        inputs,
        key: "vs".into(),
        metric: "p_success".into(),
        target: 0.6,
        best: Some(3),
        ladder,
    };
    let charts = balance::charts(&[answer]);
    assert_eq!(charts.len(), 1);
    let chart = &charts[0];
    assert_eq!(chart.stem, "cortex-balance-1");
    assert_eq!(chart.panels[0].caption.as_deref(), Some("hero pool d8 2d6"));
    let Plot::Lines(lines) = &chart.panels[0].plot else {
        panic!("not lines")
    };
    assert_eq!(lines.x_ticks[0].1, "2d6 (standard)");
    // Rungs are categories: a dot each, no line joining them.
    let dots: Vec<_> = lines
        .series
        .iter()
        .filter(|s| s.name == labels::metric_phrase("p_success"))
        .collect();
    assert_eq!(dots.len(), 9);
    assert!(dots.iter().all(|s| s.points.len() == 1));
    // The chosen rung is marked at its place on the ladder, and named so.
    let marked = &lines
        .series
        .iter()
        .find(|s| s.name == "closest rung")
        .unwrap()
        .points;
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0].x, 4.0);
    assert_eq!(lines.x_ticks[3].1, "3d6 (global) [closest]");
    let names: Vec<_> = chart.legend.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    check_renders(chart);
}
