//! What a Storytelling pool measures (docs/storytelling.md): every metric's
//! name, words and kind, declared once; the case builds its metrics from
//! these and charts and pages read them.

use crate::systems::metrics::{Declared, DistributionDef, MetricDef};

pub const P_SUCCESS: MetricDef = MetricDef::probability("p_success", "chance of success");
pub const P_EXCEPTIONAL: MetricDef = MetricDef::probability("p_exceptional", "chance of an exceptional success");
pub const MEAN_SUCCESSES: MetricDef = MetricDef::mean("mean_successes", "average number of successes");
pub const P_DRAMATIC: MetricDef = MetricDef::probability("p_dramatic", "chance of a dramatic failure");


// An extended action (docs/storytelling.md, "Extended actions").
pub const P_EXTENDED_SUCCESS: MetricDef = MetricDef::probability("p_extended_success", "chance the extended action succeeds");
pub const P_EXTENDED_DRAMATIC: MetricDef = MetricDef::probability("p_extended_dramatic", "chance a dramatic failure ends the extended action");
pub const MEAN_ROLLS: MetricDef = MetricDef::mean("mean_rolls", "average number of rolls made");
pub const MEAN_ROLLS_TO_SUCCESS: MetricDef = MetricDef::conditional_mean("mean_rolls_to_success", "average rolls to succeed", "of actions that succeed");
pub const MEAN_TOTAL_SUCCESSES: MetricDef = MetricDef::mean("mean_total_successes", "average successes gathered when rolling stops");

// A contested action (docs/storytelling.md, "Contested actions").
pub const P_WIN: MetricDef = MetricDef::probability("p_win", "chance the roller wins the contest");
pub const P_TIE: MetricDef = MetricDef::probability("p_tie", "chance of a tie");
pub const MEAN_NET_SUCCESSES: MetricDef = MetricDef::mean("mean_net_successes", "average successes over the opponent's");

pub const SUCCESSES: DistributionDef = DistributionDef::ordered("successes");
/// The roll an extended action succeeds on, `1` .. `rolls`, then `never`.
pub const SUCCESS_ROLL: DistributionDef = DistributionDef::ordered("success_roll");
/// The roller's successes less the opponent's, one pair of rolls.
pub const NET_SUCCESSES: DistributionDef = DistributionDef::ordered("net_successes");

pub const DECLARED: Declared = Declared {
    metrics: &[
        P_SUCCESS, P_EXCEPTIONAL, MEAN_SUCCESSES, P_DRAMATIC,
        P_EXTENDED_SUCCESS, P_EXTENDED_DRAMATIC, MEAN_ROLLS, MEAN_ROLLS_TO_SUCCESS, MEAN_TOTAL_SUCCESSES,
        P_WIN, P_TIE, MEAN_NET_SUCCESSES,
    ],
    families: &[],
    distributions: &[SUCCESSES, SUCCESS_ROLL, NET_SUCCESSES],
};
