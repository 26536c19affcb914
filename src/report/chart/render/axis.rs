//! Value axes: the pixel rectangle of a plot, the linear map from values
//! to pixels, round tick positions and their labels.

use crate::report::chart::model::{Axis, Format};
use crate::report::format;

/// A pixel rectangle.
#[derive(Debug, Clone, Copy)]
pub(super) struct Area {
    pub(super) x0: i32,
    pub(super) y0: i32,
    pub(super) x1: i32,
    pub(super) y1: i32,
}

/// A linear map from data values to pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scale {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) p0: i32,
    pub(super) p1: i32,
}

impl Scale {
    /// The pixel of `v`, held inside the axis so an interval reaching past
    /// it (a mean's interval below zero) stops at the frame.
    pub(super) fn px(&self, v: f64) -> i32 {
        let t = if self.hi > self.lo {
            ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (f64::from(self.p0) + t * f64::from(self.p1 - self.p0)).round() as i32
    }
}

/// Round tick positions covering `lo..=hi` with about `target` steps, and
/// the (possibly raised) top so the last tick sits on the frame.
pub(super) fn nice_ticks(
    lo: f64,
    hi: f64,
    target: usize,
    extend_top: bool,
) -> (Vec<f64>, f64, f64) {
    let span = (hi - lo).max(1e-12);
    let raw = span / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * magnitude);
    let top = if extend_top {
        (hi / step - 1e-9).ceil() * step
    } else {
        hi
    };
    let mut ticks = Vec::new();
    let mut i = (lo / step - 1e-9).ceil() as i64;
    loop {
        let t = i as f64 * step;
        if t > top + step * 1e-6 {
            break;
        }
        ticks.push(t);
        i += 1;
    }
    (ticks, step, top)
}

/// Tick label text: percentages with only the decimals the step needs.
pub(super) fn tick_label(format: Format, v: f64, step: f64) -> String {
    // The fewest decimals that write the step exactly (2.5 -> 1, 20 -> 0).
    let decimals_for = |step: f64| {
        (0..4)
            .find(|d| {
                let scaled = step * 10f64.powi(*d);
                (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
            })
            .unwrap_or(4) as usize
    };
    match format {
        Format::Percent => format::percent_tick(v, decimals_for(step * 100.0)),
        Format::Number(_) => format::decimals(v, decimals_for(step)),
    }
}

/// The numeric range an axis covers for this data: its fixed bounds, else
/// the data's with headroom for labels and error bars.
pub(super) fn axis_range(axis: &Axis, data_max: f64, data_min: f64) -> (f64, f64, bool) {
    let lo = axis.min.unwrap_or(data_min.min(0.0));
    match axis.max {
        Some(hi) => (lo, hi, false),
        None => {
            let hi = if data_max > lo {
                data_max * 1.08
            } else {
                lo + 1.0
            };
            (lo, hi, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let (ticks, step, top) = nice_ticks(0.0, 1.0, 5, false);
        assert_eq!(step, 0.2);
        assert_eq!(ticks.len(), 6);
        assert_eq!(top, 1.0);
        let (ticks, step, top) = nice_ticks(0.0, 0.37, 6, true);
        assert_eq!(step, 0.1);
        assert!((top - 0.4).abs() < 1e-12);
        assert_eq!(ticks.len(), 5);
        assert_eq!(tick_label(Format::Percent, 0.2, 0.2), "20 %");
        assert_eq!(tick_label(Format::Percent, 0.025, 0.025), "2.5 %");
        assert_eq!(tick_label(Format::Number(2), 0.5, 0.5), "0.5");
    }
}
