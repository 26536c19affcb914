//! What a Cortex roll measures (docs/cortex.md, "Metrics"): every metric's
//! name, words and kind, declared once; [`super::CortexCase`] builds its
//! metrics from these and charts and pages read them.

use crate::systems::metrics::{
    Declared, DistributionDef, Members, MetricDef, MetricFamily, MetricKind,
};

pub const MEAN_TOTAL: MetricDef = MetricDef::mean("mean_total", "average total");
pub const P_HITCH: MetricDef = MetricDef::probability("p_hitch", "chance of a hitch");
pub const MEAN_HITCHES: MetricDef = MetricDef::mean("mean_hitches", "average number of hitches");
pub const P_BOTCH: MetricDef = MetricDef::probability("p_botch", "chance of a botch");
pub const P_SUCCESS: MetricDef = MetricDef::probability("p_success", "chance of success");
pub const P_TIE: MetricDef = MetricDef::probability("p_tie", "chance of a tie");
pub const P_HEROIC: MetricDef = MetricDef::probability("p_heroic", "chance of a heroic success");
pub const P_REACTION_HITCH: MetricDef = MetricDef::probability("p_reaction_hitch", "chance the opposition rolls a hitch");
pub const MEAN_MARGIN: MetricDef = MetricDef::mean("mean_margin", "average margin");
pub const WIN_EFFECT_BEYOND: MetricDef = MetricDef::probability("win_effect_beyond", "chance of success with an effect beyond d12");
pub const MEAN_EFFECT_STEP: MetricDef = MetricDef::conditional_mean("mean_effect_step", "average effect step, d4 = 0", "of rolls that succeed");
pub const MEAN_PLOT_POINTS_SPENT: MetricDef = MetricDef::mean("mean_plot_points_spent", "average plot points spent");

/// The action pool's own effect die, success or not: `pool_effect_d8`.
pub const POOL_EFFECT: MetricFamily = MetricFamily {
    prefix: "pool_effect_",
    phrase: "chance the effect die is a {}",
    kind: MetricKind::Probability,
    members: Members::DieSizes,
};

/// A success whose final effect die is this size: `win_effect_d8`.
pub const WIN_EFFECT: MetricFamily = MetricFamily {
    prefix: "win_effect_",
    phrase: "chance of success with a {} effect die",
    kind: MetricKind::Probability,
    members: Members::DieSizes,
};

/// Exactly this many plot points spent: `p_plot_points_spent_2`.
pub const P_PLOT_POINTS_SPENT: MetricFamily = MetricFamily {
    prefix: "p_plot_points_spent_",
    phrase: "chance exactly {} plot points are spent",
    kind: MetricKind::Probability,
    members: Members::FromOne,
};

pub const TOTAL: DistributionDef = DistributionDef::ordered("total");
pub const HITCHES: DistributionDef = DistributionDef::ordered("hitches");
pub const POOL_EFFECT_DIE: DistributionDef = DistributionDef::categorical("pool_effect");
pub const MARGIN: DistributionDef = DistributionDef::ordered("margin");
pub const WIN_EFFECT_DIE: DistributionDef = DistributionDef::categorical("win_effect");
pub const PLOT_POINTS_SPENT: DistributionDef = DistributionDef::ordered("plot_points_spent");

pub const DECLARED: Declared = Declared {
    metrics: &[MEAN_TOTAL, P_HITCH, MEAN_HITCHES, P_BOTCH, P_SUCCESS, P_TIE, P_HEROIC, P_REACTION_HITCH, MEAN_MARGIN, WIN_EFFECT_BEYOND, MEAN_EFFECT_STEP, MEAN_PLOT_POINTS_SPENT],
    families: &[POOL_EFFECT, WIN_EFFECT, P_PLOT_POINTS_SPENT],
    distributions: &[TOTAL, HITCHES, POOL_EFFECT_DIE, MARGIN, WIN_EFFECT_DIE, PLOT_POINTS_SPENT],
};
