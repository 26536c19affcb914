//! What a doom-pool scene measures (docs/cortex.md, scenes): every metric's
//! name, words and kind, declared once; [`super::scene::SceneCase`] builds
//! its metrics from these and charts and pages read them.

use crate::systems::metrics::{
    Declared, DistributionDef, Members, MetricDef, MetricFamily, MetricKind,
};

/// Action `N` of the scene succeeds: `p_success_action_3`.
pub const P_SUCCESS_ACTION: MetricFamily = MetricFamily {
    prefix: "p_success_action_",
    phrase: "chance action {} succeeds",
    kind: MetricKind::Probability,
    members: Members::FromOne,
};

pub const MEAN_SUCCESSES: MetricDef = MetricDef::mean("mean_successes", "average number of successes");
pub const MEAN_HEROIC_SUCCESSES: MetricDef = MetricDef::mean("mean_heroic_successes", "average number of heroic successes");
pub const MEAN_PLOT_POINTS: MetricDef = MetricDef::mean("mean_plot_points", "average plot points earned");
pub const P_ENDED_EARLY: MetricDef = MetricDef::probability("p_ended_early", "chance the scene ends early");
pub const MEAN_FINAL_DOOM_DICE: MetricDef = MetricDef::conditional_mean("mean_final_doom_dice", "average doom dice at the end", "of scenes not ended early");

// The scene's economy (docs/cortex.md), reported for every scene case.
// A Cortex roll's plot points spent read the same.
pub use super::metrics::MEAN_PLOT_POINTS_SPENT;
pub const MEAN_FINAL_PLOT_POINTS: MetricDef = MetricDef::mean("mean_final_plot_points", "average plot points held at the end");
pub const MEAN_DOOM_DICE_SPENT: MetricDef = MetricDef::mean("mean_doom_dice_spent", "average doom dice the GM spent");
pub const P_GM_SPENT: MetricDef = MetricDef::probability("p_gm_spent", "chance the GM spends a doom die");

/// The doom pool at the end, or `ended`: pools, not numbers.
pub const FINAL_DOOM: DistributionDef = DistributionDef::categorical("final_doom");
pub const SUCCESSES: DistributionDef = DistributionDef::ordered("successes");
pub const PLOT_POINTS: DistributionDef = DistributionDef::ordered("plot_points");
pub const FINAL_PLOT_POINTS: DistributionDef = DistributionDef::ordered("final_plot_points");

pub const DECLARED: Declared = Declared {
    metrics: &[MEAN_SUCCESSES, MEAN_HEROIC_SUCCESSES, MEAN_PLOT_POINTS, P_ENDED_EARLY, MEAN_FINAL_DOOM_DICE,
        MEAN_PLOT_POINTS_SPENT, MEAN_FINAL_PLOT_POINTS, MEAN_DOOM_DICE_SPENT, P_GM_SPENT],
    families: &[P_SUCCESS_ACTION],
    distributions: &[FINAL_DOOM, SUCCESSES, PLOT_POINTS, FINAL_PLOT_POINTS],
};
