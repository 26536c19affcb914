//! What a Storytelling pool measures (docs/storytelling.md): every metric's
//! name, words and kind, declared once; the case builds its metrics from
//! these and charts and pages read them.

use crate::systems::metrics::{Declared, DistributionDef, MetricDef};

pub const P_SUCCESS: MetricDef = MetricDef::probability("p_success", "chance of success");
pub const P_EXCEPTIONAL: MetricDef =
    MetricDef::probability("p_exceptional", "chance of an exceptional success");
pub const MEAN_SUCCESSES: MetricDef =
    MetricDef::mean("mean_successes", "average number of successes");
pub const P_DRAMATIC: MetricDef =
    MetricDef::probability("p_dramatic", "chance of a dramatic failure");

pub const SUCCESSES: DistributionDef = DistributionDef::ordered("successes");

pub const DECLARED: Declared = Declared {
    metrics: &[P_SUCCESS, P_EXCEPTIONAL, MEAN_SUCCESSES, P_DRAMATIC],
    families: &[],
    distributions: &[SUCCESSES],
};
