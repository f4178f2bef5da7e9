//! Text through the bundled font (DejaVu Sans Bold, subset; see assets/fonts/).

use super::geometry::Point;
use super::style::Rgb;
use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont};
use std::sync::LazyLock;
use tiny_skia::{Pixmap, PremultipliedColorU8};

static FONT_BYTES: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold-subset.ttf");

static FONT: LazyLock<FontRef<'static>> = LazyLock::new(|| {
    // The font is part of the binary and checked by a test, never user input.
    FontRef::try_from_slice(FONT_BYTES).expect("the bundled font parses")
});

/// The glyph for `c`, or `?` for characters the subset does not carry, so no text
/// silently disappears.
fn glyph(c: char) -> GlyphId {
    let id = FONT.glyph_id(c);
    if id.0 == 0 { FONT.glyph_id('?') } else { id }
}

/// Horizontal pen positions of each character, and the total advance.
fn advances(text: &str, px: f32) -> (Vec<(GlyphId, f32)>, f32) {
    let font = FONT.as_scaled(PxScale::from(px));
    let mut x = 0.0;
    let mut prev: Option<GlyphId> = None;
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let id = glyph(c);
        if let Some(p) = prev {
            x += font.kern(p, id);
        }
        out.push((id, x));
        x += font.h_advance(id);
        prev = Some(id);
    }
    (out, x)
}

/// Width of `text` at `px` pixels.
pub(crate) fn width(text: &str, px: f32) -> f32 {
    advances(text, px).1
}

/// `text`, shortened with an ellipsis if needed so it is at most `max` pixels wide.
pub(crate) fn fit(text: &str, px: f32, max: f32) -> String {
    if width(text, px) <= max {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let candidate: String = chars.iter().collect::<String>() + "…";
        if width(&candidate, px) <= max {
            return candidate;
        }
    }
    String::new()
}

/// Height of a capital letter at `px`, for centring text on a line.
pub(crate) fn cap_height(px: f32) -> f32 {
    // DejaVu Sans's cap height is 0.729 em; PxScale measures ascent minus descent.
    let font = FONT.as_scaled(PxScale::from(px));
    let em = font.scale().y / FONT.height_unscaled() * FONT.units_per_em().unwrap_or(2048.0);
    0.729 * em
}

/// Draws `text` with its baseline starting at `at`, with ab_glyph's coverage
/// rasteriser blended onto the (premultiplied) pixmap.
pub(crate) fn draw(pixmap: &mut Pixmap, text: &str, px: f32, at: Point, colour: Rgb) {
    let (glyphs, _) = advances(text, px);
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    let pixels = pixmap.pixels_mut();
    for (id, x) in glyphs {
        let glyph = id.with_scale_and_position(px, ab_glyph::point(at.x + x, at.y));
        let Some(outlined) = FONT.outline_glyph(glyph) else {
            continue; // a space has no outline
        };
        let min = outlined.px_bounds().min;
        outlined.draw(|gx, gy, coverage| {
            let (x, y) = (min.x as i32 + gx as i32, min.y as i32 + gy as i32);
            if x < 0 || y < 0 || x >= w || y >= h {
                return;
            }
            let i = (y * w + x) as usize;
            let dst = pixels[i];
            let c = coverage.clamp(0.0, 1.0);
            let mix = |s: u8, d: u8| (s as f32 * c + d as f32 * (1.0 - c)).round() as u8;
            // The text colour is opaque, so premultiplied blending is a plain mix.
            pixels[i] = PremultipliedColorU8::from_rgba(
                mix(colour.0, dst.red()),
                mix(colour.1, dst.green()),
                mix(colour.2, dst.blue()),
                mix(255, dst.alpha()),
            )
            .unwrap_or(dst);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_font_carries_what_captions_use() {
        // Pattern Assembly's coordinates take every capital (rows A-Z).
        let captions = "#0123456789 initial obeys does not obey …?";
        for c in captions.chars().chain('A'..='Z') {
            assert_ne!(FONT.glyph_id(c).0, 0, "missing {c:?}");
        }
    }

    #[test]
    fn unknown_characters_become_question_marks_not_nothing() {
        assert_eq!(width("☃", 20.0), width("?", 20.0));
        assert!(width("☃", 20.0) > 0.0);
    }

    #[test]
    fn fit_shortens_only_what_is_too_wide() {
        assert_eq!(fit("#7", 20.0, 200.0), "#7");
        let long = "a caption far too long for a narrow picture";
        let short = fit(long, 20.0, 120.0);
        assert!(short.ends_with('…') && width(&short, 20.0) <= 120.0);
        assert!(short.len() > 3);
    }
}
