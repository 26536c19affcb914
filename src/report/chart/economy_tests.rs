//! The economy chart's tests (docs/cortex.md, "The scene's economy"): drawn
//! only where some case spends, the doom pools as categories.

use super::model::Plot;
use super::tests::{check_renders, find, stems};
use super::*;
use crate::report::fixture;

#[test]
fn economy_bars_per_way_of_spending_only_where_someone_spends() {
    // Every scene reports the economy; a scenario where nobody spends
    // draws no economy chart.
    assert!(!stems(&charts(&fixture::scene(false))).contains(&"cortex-scene-economy"));
    let report = fixture::economy_scenes();
    let charts = charts(&report);
    let chart = find(&charts, "cortex-scene-economy");
    check_renders(chart);
    let names: Vec<_> = chart.legend.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "nobody spends",
            "the hero spends plot points",
            "the GM spends doom dice",
            "both spend"
        ]
    );
    // Successes, doom dice left and doom dice spent, for each hero pool;
    // the doom pools are categories, a bar per way of spending.
    assert_eq!(chart.panels.len(), 6);
    let Plot::Bars(bars) = &chart.panels[0].plot else {
        panic!("the doom pools are drawn as categories")
    };
    assert_eq!(bars.categories, ["2d6", "3d8"]);
    assert_eq!(bars.series.len(), 4);
    for r in &report.results {
        let pool = r.inputs["pool"].as_str().unwrap();
        let doom = r.inputs["doom"].as_str().unwrap();
        let hero = r.inputs["hero_spend"] != "never";
        let gm = r.inputs["gm_spend"] != "never";
        let series = usize::from(hero) + 2 * usize::from(gm);
        let panel = if pool == "d8 2d6" { 0 } else { 1 };
        let Plot::Bars(bars) = &chart.panels[panel].plot else {
            panic!("not bars")
        };
        let x = bars.categories.iter().position(|c| c == doom).unwrap();
        let bar = bars.series[series].values[x].unwrap();
        let successes = r
            .metrics
            .value_at(fixture::metric_index(r, "mean_successes"))
            .unwrap();
        assert!((bar.value - successes).abs() < 1e-12, "{pool} vs {doom}");
    }
    // The GM's row draws only the cases in which the GM spends.
    let Plot::Bars(spent) = &chart.panels[4].plot else {
        panic!("not bars")
    };
    assert_eq!(spent.series.len(), 2);
}
