//! The bundled chart font and the text metrics every chart is laid out with:
//! the DejaVu Sans faces in `assets/fonts/`, their pixel size for a chart's
//! text size, the width of a line of text, and the coverage of each pixel
//! when a line is rasterised for a PNG.
//!
//! The PNG text is placed here rather than by plotters' own `ab_glyph`
//! drawing, which starts every glyph at a whole pixel and drops its left
//! side bearing, so letters sat unevenly ("Ex act probabilities ." with a
//! detached full stop). Here each glyph keeps its fractional pen position,
//! its bearings and the font's kerning, as an SVG viewer lays them out, and
//! the coverage of a whole line is summed before it is painted, so
//! neighbouring glyphs that share a pixel do not darken it twice.

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale};
use anyhow::anyhow;

static FONT_REGULAR: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
static FONT_BOLD: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans-Bold.ttf");

/// The bundled faces, parsed once.
struct Faces {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

fn faces() -> anyhow::Result<&'static Faces> {
    static FACES: OnceLock<Option<Faces>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            Some(Faces {
                regular: FontRef::try_from_slice(FONT_REGULAR).ok()?,
                bold: FontRef::try_from_slice(FONT_BOLD).ok()?,
            })
        })
        .as_ref()
        .ok_or_else(|| anyhow!("the bundled chart font could not be loaded"))
}

fn face(bold: bool) -> anyhow::Result<&'static FontRef<'static>> {
    let faces = faces()?;
    Ok(if bold { &faces.bold } else { &faces.regular })
}

/// The em, in whole pixels, of text drawn at a chart text `size`.
///
/// A chart's text sizes are the font's full height (ascender to
/// descender), the measure plotters uses; DejaVu's em is about 86 % of it.
/// Rounding to a whole pixel gives the SVG plain font sizes ("31", not
/// "29.032258064516128"), and the PNG and the SVG the same em.
pub(super) fn em_pixels(size: f64) -> anyhow::Result<f64> {
    let font = face(false)?;
    let units_per_em = font
        .units_per_em()
        .ok_or_else(|| anyhow!("the bundled chart font has no em size"))?;
    let em = size * f64::from(units_per_em) / f64::from(font.height_unscaled());
    Ok(em.round().max(1.0))
}

/// ab_glyph scales a font by its full height; this is the scale whose em is
/// `em` pixels.
fn scale_for_em(font: &FontRef<'static>, em: f64) -> PxScale {
    let units_per_em = font.units_per_em().unwrap_or(2048.0);
    PxScale::from((em * f64::from(font.height_unscaled()) / f64::from(units_per_em)) as f32)
}

/// Pixels per font unit at `em` pixels per em.
fn units_to_pixels(font: &FontRef<'static>, em: f64) -> f32 {
    let units_per_em = font.units_per_em().unwrap_or(2048.0);
    (em / f64::from(units_per_em)) as f32
}

/// Where each glyph of `text` starts along the baseline (pen positions,
/// in pixels from the start of the line), and the line's advance width.
fn pen_positions(font: &FontRef<'static>, em: f64, text: &str) -> (Vec<(GlyphId, f32)>, f32) {
    let per_unit = units_to_pixels(font, em);
    let mut pen = 0f32;
    let mut previous: Option<GlyphId> = None;
    let mut placed = Vec::with_capacity(text.len());
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(previous) = previous {
            pen += font.kern_unscaled(previous, id) * per_unit;
        }
        placed.push((id, pen));
        pen += font.h_advance_unscaled(id) * per_unit;
        previous = Some(id);
    }
    (placed, pen)
}

/// The advance width of `text` in pixels (rounded up, so a label measured
/// to fit a space does), at a chart text `size`.
pub(super) fn text_width(text: &str, size: f64, bold: bool) -> anyhow::Result<i32> {
    let font = face(bold)?;
    let (_, width) = pen_positions(font, em_pixels(size)?, text);
    Ok(width.ceil() as i32)
}

/// How a line of text sits on its anchor point, as SVG's `text-anchor` and
/// the `dy` plotters writes for each vertical anchor.
#[derive(Clone, Copy)]
pub(super) enum Align {
    Start,
    Middle,
    End,
}

/// The baseline's offset below the anchor for plotters' vertical anchors,
/// in ems: plotters' SVG writes `dy="0.76em"` for the top, `dy="0.5ex"`
/// for the centre and `dy="-0.5ex"` for the bottom; SVG viewers take the
/// ex from the font's x-height.
#[derive(Clone, Copy)]
pub(super) enum Baseline {
    Top,
    Centre,
    Bottom,
}

/// The font's x-height in ems (the top of an `x`).
fn x_height(font: &FontRef<'static>) -> f32 {
    let units_per_em = font.units_per_em().unwrap_or(2048.0);
    // ab_glyph's outline bounds keep the font's y-up top in `min.y`.
    font.outline(font.glyph_id('x')).map_or(0.5, |outline| {
        outline.bounds.min.y.max(outline.bounds.max.y) / units_per_em
    })
}

/// Coverage (0 to 1) of the pixels a line of text touches, as
/// `(x, y, coverage)` in the text's own frame: x along the line from the
/// anchor, y down from the anchor. Pixels are listed once each, in order.
pub(super) fn rasterise(
    text: &str,
    size: f64,
    bold: bool,
    align: Align,
    baseline: Baseline,
) -> anyhow::Result<Vec<(i32, i32, f32)>> {
    let font = face(bold)?;
    let em = em_pixels(size)?;
    let (placed, width) = pen_positions(font, em, text);
    let start = match align {
        Align::Start => 0.0,
        Align::Middle => -width / 2.0,
        Align::End => -width,
    };
    let em32 = em as f32;
    let base = match baseline {
        Baseline::Top => 0.76 * em32,
        Baseline::Centre => 0.5 * x_height(font) * em32,
        Baseline::Bottom => -0.5 * x_height(font) * em32,
    };
    let scale = scale_for_em(font, em);
    let mut outlined = Vec::new();
    for (id, pen) in placed {
        let glyph = id.with_scale_and_position(scale, point(start + pen, base));
        if let Some(shape) = font.outline_glyph(glyph) {
            outlined.push(shape);
        }
    }
    let Some(first) = outlined.first() else {
        return Ok(Vec::new());
    };
    // One coverage buffer over the whole line.
    let mut bounds = first.px_bounds();
    for shape in &outlined {
        let b = shape.px_bounds();
        bounds.min.x = bounds.min.x.min(b.min.x);
        bounds.min.y = bounds.min.y.min(b.min.y);
        bounds.max.x = bounds.max.x.max(b.max.x);
        bounds.max.y = bounds.max.y.max(b.max.y);
    }
    let (x0, y0) = (bounds.min.x as i32, bounds.min.y as i32);
    let w = (bounds.max.x as i32 - x0).max(0) as usize;
    let h = (bounds.max.y as i32 - y0).max(0) as usize;
    let mut coverage = vec![0f32; w * h];
    for shape in &outlined {
        let b = shape.px_bounds();
        let (gx, gy) = (b.min.x as i32 - x0, b.min.y as i32 - y0);
        shape.draw(|x, y, c| {
            let (px, py) = (gx + x as i32, gy + y as i32);
            if px >= 0 && py >= 0 && (px as usize) < w && (py as usize) < h {
                coverage[py as usize * w + px as usize] += c;
            }
        });
    }
    let mut pixels = Vec::new();
    for (i, c) in coverage.into_iter().enumerate() {
        if c > 0.0 {
            let (x, y) = ((i % w) as i32 + x0, (i / w) as i32 + y0);
            pixels.push((x, y, c.min(1.0)));
        }
    }
    Ok(pixels)
}
