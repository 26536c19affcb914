//! Absolute-pixel drawing over a plotters canvas: text in the bundled font,
//! fills, outlines, lines, markers, error bars, and text measurement and
//! wrapping for the layout.
//!
//! Text goes two ways: into an SVG as `<text>` elements naming the bundled
//! font, and into a PNG as pixels placed by [`glyphs`](super::glyphs), so
//! both lay out letters alike. Both are measured by the same metrics.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use super::axis::{tick_label, Scale};
use super::glyphs::{self, Align, Baseline};
use super::{rgb, DESC, GRID, INK, MIN_DESC, TICK};
use crate::report::chart::model::{Colour, Format};
use crate::report::format::svg;

/// The SVG's `font-family`: the bundled font by name, so a viewer that has
/// it (or is given it) draws exactly what was measured, then the generic
/// family every viewer has.
const SVG_FAMILY: &str = "DejaVu Sans, sans-serif";

/// How the canvas draws text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TextOutput {
    /// As SVG `<text>` elements, laid out by the viewer.
    Svg,
    /// As pixels rasterised from the bundled font.
    Pixels,
}

/// Absolute-pixel drawing helpers over the whole canvas.
pub(super) struct Canvas<'a, DB: DrawingBackend> {
    pub(super) root: &'a DrawingArea<DB, Shift>,
    pub(super) text_output: TextOutput,
}

pub(super) type Res = anyhow::Result<()>;

/// The size to give plotters for an SVG `font-size` of exactly `em`:
/// plotters writes its size divided by 1.24, so the nearest float to
/// `em * 1.24` whose quotient is `em` itself.
fn plotters_size_for_em(em: f64) -> f64 {
    let mut low = em * 1.24;
    let mut high = low;
    for _ in 0..8 {
        if low / 1.24 == em {
            return low;
        }
        if high / 1.24 == em {
            return high;
        }
        low = low.next_down();
        high = high.next_up();
    }
    em * 1.24
}

fn text_style(
    size: f64,
    bold: bool,
    colour: Colour,
    h: HPos,
    v: VPos,
) -> anyhow::Result<TextStyle<'static>> {
    let style = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    let size = plotters_size_for_em(glyphs::em_pixels(size)?);
    Ok(TextStyle {
        font: (SVG_FAMILY, size, style).into_font(),
        color: rgb(colour).to_backend_color(),
        pos: Pos::new(h, v),
    })
}

impl<DB: DrawingBackend> Canvas<'_, DB>
where
    DB::ErrorType: 'static,
{
    /// The width of `text` in pixels, the same for the SVG and the PNG.
    pub(super) fn width(&self, text: &str, size: f64, bold: bool) -> anyhow::Result<i32> {
        glyphs::text_width(&svg(text), size, bold)
    }

    /// Line height for a font size.
    pub(super) fn line_height(size: f64) -> i32 {
        (size * 1.05).round() as i32
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn text(
        &self,
        text: &str,
        at: (i32, i32),
        size: f64,
        bold: bool,
        colour: Colour,
        h: HPos,
        v: VPos,
    ) -> Res {
        self.any_text(text, at, (size, bold, colour), (h, v), false)
    }

    /// Text at tick size in ink: the axes' numbers and the categories.
    pub(super) fn tick(&self, text: &str, at: (i32, i32), (h, v): (HPos, VPos)) -> Res {
        self.text(text, at, TICK, false, INK, h, v)
    }

    /// The value grid of a chart whose values run up the left: at each
    /// tick a grid line from `left` to `right`, its label left of `left`.
    pub(super) fn value_rows(
        &self,
        format: Format,
        (ticks, step): (&[f64], f64),
        scale: &Scale,
        (left, right): (i32, i32),
    ) -> Res {
        for t in ticks {
            let y = scale.px(*t);
            self.line(vec![(left, y), (right, y)], GRID, 1)?;
            let label = tick_label(format, *t, step);
            self.tick(&label, (left - 8, y), (HPos::Right, VPos::Center))?;
        }
        Ok(())
    }

    /// What the axes measure: `below` centred under the plot, its top at
    /// `under`; `beside` read bottom to top, centred on `left`, in a
    /// smaller size where it is longer than the plot is tall (`room`
    /// pixels), so a long metric's phrase stays beside its own plot.
    pub(super) fn axis_names(
        &self,
        (below, under): (&str, (i32, i32)),
        (beside, left, room): (&str, (i32, i32), i32),
    ) -> Res {
        let top = (HPos::Center, VPos::Top);
        self.any_text(below, under, (DESC, false, INK), top, false)?;
        let long = self.width(beside, DESC, false)?;
        let size = if long > room && room > 0 {
            (DESC * f64::from(room) / f64::from(long)).max(MIN_DESC)
        } else {
            DESC
        };
        self.vertical_text(beside, left, size)
    }

    /// Text turned to read bottom to top, centred on `at`.
    pub(super) fn vertical_text(&self, text: &str, at: (i32, i32), size: f64) -> Res {
        let centre = (HPos::Center, VPos::Center);
        self.any_text(text, at, (size, false, INK), centre, true)
    }

    /// Text as the output wants it: as text, or as pixels blended over what
    /// is there; `turned` reads it bottom to top (a quarter turn
    /// anticlockwise about `at`).
    fn any_text(
        &self,
        text: &str,
        at: (i32, i32),
        (size, bold, colour): (f64, bool, Colour),
        (h, v): (HPos, VPos),
        turned: bool,
    ) -> Res {
        if self.text_output != TextOutput::Pixels {
            let mut style = text_style(size, bold, colour, h, v)?;
            if turned {
                style = style.transform(FontTransform::Rotate270);
            }
            self.root.draw_text(&svg(text), &style, at)?;
            return Ok(());
        }
        let align = match h {
            HPos::Left => Align::Start,
            HPos::Center => Align::Middle,
            HPos::Right => Align::End,
        };
        let baseline = match v {
            VPos::Top => Baseline::Top,
            VPos::Center => Baseline::Centre,
            VPos::Bottom => Baseline::Bottom,
        };
        let Colour(r, g, b) = colour;
        for (x, y, coverage) in glyphs::rasterise(&svg(text), size, bold, align, baseline)? {
            let pixel = if turned {
                (at.0 + y, at.1 - x)
            } else {
                (at.0 + x, at.1 + y)
            };
            self.root
                .draw_pixel(pixel, &RGBAColor(r, g, b, f64::from(coverage)))?;
        }
        Ok(())
    }

    pub(super) fn fill(&self, a: (i32, i32), b: (i32, i32), colour: Colour) -> Res {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        self.root
            .draw(&Rectangle::new([(x0, y0), (x1, y1)], rgb(colour).filled()))?;
        Ok(())
    }

    pub(super) fn outline(&self, a: (i32, i32), b: (i32, i32), colour: Colour) -> Res {
        self.root
            .draw(&Rectangle::new([a, b], rgb(colour).stroke_width(1)))?;
        Ok(())
    }

    pub(super) fn line(&self, points: Vec<(i32, i32)>, colour: Colour, width: u32) -> Res {
        self.root
            .draw(&PathElement::new(points, rgb(colour).stroke_width(width)))?;
        Ok(())
    }

    pub(super) fn marker(&self, at: (i32, i32), shape: usize, colour: Colour) -> Res {
        let style = rgb(colour).filled();
        let (x, y) = at;
        let r = 7;
        match shape % 4 {
            0 => self.root.draw(&Circle::new(at, r, style))?,
            1 => self.root.draw(&Rectangle::new(
                [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)],
                style,
            ))?,
            2 => self.root.draw(&Polygon::new(
                vec![(x, y - r - 1), (x + r, y + r - 2), (x - r, y + r - 2)],
                style,
            ))?,
            _ => self.root.draw(&Polygon::new(
                vec![
                    (x, y - r - 1),
                    (x + r + 1, y),
                    (x, y + r + 1),
                    (x - r - 1, y),
                ],
                style,
            ))?,
        }
        // A white rim keeps overlapping markers apart.
        if shape.is_multiple_of(4) {
            self.root
                .draw(&Circle::new(at, r, RGBColor(255, 255, 255).stroke_width(1)))?;
        }
        Ok(())
    }

    /// An error bar from `a` to `b` (pixels along one axis) with caps.
    pub(super) fn whisker(
        &self,
        a: (i32, i32),
        b: (i32, i32),
        colour: Colour,
        horizontal: bool,
    ) -> Res {
        let cap = 5;
        self.line(vec![a, b], colour, 2)?;
        for p in [a, b] {
            let ends = if horizontal {
                vec![(p.0, p.1 - cap), (p.0, p.1 + cap)]
            } else {
                vec![(p.0 - cap, p.1), (p.0 + cap, p.1)]
            };
            self.line(ends, colour, 2)?;
        }
        Ok(())
    }

    /// Splits `text` at spaces into lines no wider than `max` pixels (a
    /// single word wider than that keeps its own line).
    pub(super) fn wrap(
        &self,
        text: &str,
        size: f64,
        bold: bool,
        max: i32,
    ) -> anyhow::Result<Vec<String>> {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        for word in text.split(' ') {
            let candidate = if current.is_empty() {
                word.to_string()
            } else {
                format!("{current} {word}")
            };
            if !current.is_empty() && self.width(&candidate, size, bold)? > max {
                lines.push(std::mem::take(&mut current));
                current = word.to_string();
            } else {
                current = candidate;
            }
        }
        if !current.is_empty() || lines.is_empty() {
            lines.push(current);
        }
        Ok(lines)
    }
}
