//! What a conflict measures (docs/cortex.md, conflicts): every metric's
//! name, words and kind, declared once; [`super::ConflictCase`] builds its
//! metrics from these and charts and pages read them.

use crate::systems::metrics::{Declared, DistributionDef, MetricDef};

pub const P_FOE_OUT: MetricDef = MetricDef::probability("p_foe_out", "chance the foe is taken out");
pub const P_HERO_OUT: MetricDef = MetricDef::probability("p_hero_out", "chance the hero is taken out");
pub const P_NEITHER: MetricDef = MetricDef::probability("p_neither", "chance neither is taken out");
pub const MEAN_EXCHANGES: MetricDef = MetricDef::mean("mean_exchanges", "average exchanges played");
pub const MEAN_EXCHANGES_TO_FOE_OUT: MetricDef = MetricDef::conditional_mean("mean_exchanges_to_foe_out", "average exchanges to take the foe out", "of fights where it is");
pub const P_HERO_STRESSED: MetricDef = MetricDef::probability("p_hero_stressed", "chance the hero ends stressed or out");
pub const MEAN_TEAM_DICE_LEFT: MetricDef = MetricDef::mean("mean_team_dice_left", "average mob dice left");

/// The exchange a side is taken out in, `1` .. `N`, or `never` (which
/// "at least" leaves out).
pub const FOE_OUT_EXCHANGE: DistributionDef = DistributionDef::ordered("foe_out_exchange");
pub const HERO_OUT_EXCHANGE: DistributionDef = DistributionDef::ordered("hero_out_exchange");
/// Stress at the end: `none`, a die, or `out`.
pub const FINAL_FOE_STRESS: DistributionDef = DistributionDef::categorical("final_foe_stress");
pub const FINAL_HERO_STRESS: DistributionDef = DistributionDef::categorical("final_hero_stress");

pub const DECLARED: Declared = Declared {
    metrics: &[P_FOE_OUT, P_HERO_OUT, P_NEITHER, MEAN_EXCHANGES, MEAN_EXCHANGES_TO_FOE_OUT, P_HERO_STRESSED, MEAN_TEAM_DICE_LEFT],
    families: &[],
    distributions: &[FOE_OUT_EXCHANGE, HERO_OUT_EXCHANGE, FINAL_FOE_STRESS, FINAL_HERO_STRESS],
};
