//! What advantage-die encounters measure (docs/advantage.md): every
//! metric's name, words and kind, declared once; the case builds its
//! metrics from these and charts and pages read them.

use super::Tier;
use crate::systems::metrics::{Declared, DistributionDef, MetricDef};

/// Shares of all rolls by tier.
pub const P_MISS: MetricDef = MetricDef::probability("p_miss", "share of rolls that miss");
pub const P_WEAK: MetricDef = MetricDef::probability("p_weak", "share of rolls that are weak hits");
pub const P_STRONG: MetricDef =
    MetricDef::probability("p_strong", "share of rolls that are strong hits");
pub const STRONG_PER_ENCOUNTER: MetricDef =
    MetricDef::mean("strong_per_encounter", "strong hits per encounter");
pub const P_ENCOUNTER_STRONG: MetricDef = MetricDef::probability(
    "p_encounter_strong",
    "chance of a strong hit in an encounter",
);
pub const USES_PER_ENCOUNTER: MetricDef =
    MetricDef::mean("uses_per_encounter", "advantage dice spent per encounter");
pub const MISS_TO_STRONG_PER_ENCOUNTER: MetricDef = MetricDef::mean(
    "miss_to_strong_per_encounter",
    "misses turned into strong hits per encounter",
);

/// The share of rolls that land in `tier`.
pub fn tier_share(tier: Tier) -> MetricDef {
    match tier {
        Tier::Miss => P_MISS,
        Tier::Weak => P_WEAK,
        Tier::Strong => P_STRONG,
    }
}

/// The tier of roll `N`: `tier_roll_2`, outcomes `miss`, `weak`, `strong`.
pub const TIER_ROLL: DistributionDef = DistributionDef {
    name: "tier_roll_",
    numbered: true,
    ordered: false,
};

pub const DECLARED: Declared = Declared {
    metrics: &[
        P_MISS,
        P_WEAK,
        P_STRONG,
        STRONG_PER_ENCOUNTER,
        P_ENCOUNTER_STRONG,
        USES_PER_ENCOUNTER,
        MISS_TO_STRONG_PER_ENCOUNTER,
    ],
    families: &[],
    distributions: &[TIER_ROLL],
};
