//! The distributions as the page shows them: every distribution variable
//! in each of the three views (exactly, at least, at most), rendered by the
//! report's own distribution views (`--view`, docs/reports.md) as the
//! Markdown output's grids, so the page and the command line show the same
//! cells. The page switches between them without asking again.

use serde_json::{Map, Value as Json};

use crate::report::view::View;
use crate::report::{view_html, Report};

/// The three views, as `--view` names them.
pub const ALL: [View; 3] = [View::Exactly, View::AtLeast, View::AtMost];

/// `{ "exactly": HTML, "at-least": HTML, "at-most": HTML }`.
pub fn distributions(report: &Report) -> Json {
    let mut out = Map::new();
    for view in ALL {
        out.insert(view.name().into(), Json::String(view_html(report, view)));
    }
    Json::Object(out)
}
