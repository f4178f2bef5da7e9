//! A line chart as a picture (a player's rating over time, a line per game): a title,
//! the values along the left on light gridlines, a line with a dot per point in each
//! line's own colour, what the x axis counts under it, and a legend naming each line
//! by its colour. The range shown is at least [`MIN_SPAN`] wide, centred on the
//! values, so a few points of change do not look like a cliff.

use super::geometry::{Point, Rect};
use super::style::{self, Rgb};
use super::text;

/// One line: its name in the legend and its points (x, value), in x order.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// The lines' colours, in order (a seventh line takes the first again). The profile
/// page draws its chart with the same ones.
pub const LINE_COLOURS: [(u8, u8, u8); 6] = [
    (0x17, 0x4a, 0x7c),
    (0xb5, 0x54, 0x2a),
    (0x2e, 0x7d, 0x32),
    (0x7b, 0x3f, 0xa0),
    (0x9a, 0x7b, 0x00),
    (0x00, 0x83, 0x8f),
];

/// The smallest range of values shown.
pub const MIN_SPAN: f64 = 100.0;

const WIDTH: f32 = 640.0;
const PLOT_H: f32 = 220.0;
const MARGIN: f32 = 18.0;
const TITLE_PX: f32 = 22.0;
const LABEL_PX: f32 = 13.0;
const LEGEND_PX: f32 = 15.0;
const LEGEND_ROW: f32 = 24.0;
/// Room for the values along the left.
const AXIS_W: f32 = 44.0;
const TICKS: usize = 4;

/// Where the plot sits and how values map onto it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plot {
    area: Rect,
    /// The values at the bottom and the top.
    lo: f64,
    hi: f64,
    /// The largest x (the right edge); the left edge is 0.
    last: f64,
}

impl Plot {
    fn new(lines: &[Line], top: f32) -> Plot {
        let all = || lines.iter().flat_map(|l| l.points.iter());
        let lo = all().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = all().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        let mid = (lo + hi) / 2.0;
        let half = ((hi - lo) / 2.0 * 1.1).max(MIN_SPAN / 2.0);
        let last = all().map(|p| p.0).fold(1.0, f64::max);
        let left = MARGIN + AXIS_W;
        Plot {
            area: Rect::new(left, top, WIDTH - left - MARGIN, PLOT_H),
            lo: mid - half,
            hi: mid + half,
            last,
        }
    }

    fn at(&self, (x, value): (f64, f64)) -> Point {
        let a = self.area;
        Point::new(
            a.x + a.w * (x / self.last) as f32,
            a.y + a.h * ((self.hi - value) / (self.hi - self.lo)) as f32,
        )
    }
}

/// PNG bytes of a chart: `title` on top, `lines` drawn over gridlines, `x_label` under
/// the plot (what the x axis counts), then a legend row per line.
pub fn chart_png(title: &str, lines: &[Line], x_label: &str) -> Vec<u8> {
    let top = MARGIN + TITLE_PX * 1.6;
    let plot = Plot::new(lines, top);
    let legend_top = top + PLOT_H + LABEL_PX * 2.2;
    let height = (legend_top + LEGEND_ROW * lines.len() as f32 + MARGIN).ceil();
    let mut pixmap = super::draw::card(WIDTH as u32, height as u32);
    let inner = WIDTH - 2.0 * MARGIN;
    let baseline = |y: f32, px: f32| y + text::cap_height(px) / 2.0;
    text::draw(
        &mut pixmap,
        &text::fit(title, TITLE_PX, inner),
        TITLE_PX,
        Point::new(MARGIN, (MARGIN + text::cap_height(TITLE_PX)).round()),
        style::TEXT,
    );
    let a = plot.area;
    for i in 0..=TICKS {
        let value = plot.lo + (plot.hi - plot.lo) * i as f64 / TICKS as f64;
        let y = plot.at((0.0, value)).y.round();
        super::draw::bar(&mut pixmap, Rect::new(a.x, y, a.w, 1.0), style::GRID);
        let label = format!("{value:.0}");
        let x = a.x - 6.0 - text::width(&label, LABEL_PX);
        let at = Point::new(x.round(), baseline(y, LABEL_PX).round());
        text::draw(&mut pixmap, &label, LABEL_PX, at, style::TEXT);
    }
    let under = Point::new(
        (a.x + (a.w - text::width(x_label, LABEL_PX)) / 2.0).round(),
        (a.y + a.h + LABEL_PX * 1.6).round(),
    );
    text::draw(&mut pixmap, x_label, LABEL_PX, under, style::TEXT);
    for (i, line) in lines.iter().enumerate() {
        let colour = colour(i);
        let points: Vec<Point> = line.points.iter().map(|p| plot.at(*p)).collect();
        super::draw::polyline(&mut pixmap, &points, 2.5, colour);
        for p in &points {
            super::draw::dot(&mut pixmap, *p, 4.0, colour);
        }
        let y = legend_top + LEGEND_ROW * i as f32;
        super::draw::bar(&mut pixmap, Rect::new(MARGIN, y - 7.0, 14.0, 14.0), colour);
        let label = text::fit(&line.label, LEGEND_PX, inner - 22.0);
        let at = Point::new(MARGIN + 22.0, baseline(y, LEGEND_PX).round());
        text::draw(&mut pixmap, &label, LEGEND_PX, at, style::TEXT);
    }
    super::encode_board(&super::into_image(pixmap))
}

fn colour(i: usize) -> Rgb {
    let (r, g, b) = LINE_COLOURS[i % LINE_COLOURS.len()];
    Rgb(r, g, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> image::RgbImage {
        image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .unwrap()
            .to_rgb8()
    }

    fn line(label: &str, values: &[f64]) -> Line {
        Line {
            label: label.into(),
            points: values
                .iter()
                .enumerate()
                .map(|(x, v)| (x as f64, *v))
                .collect(),
        }
    }

    /// Each point is a dot of its line's colour where the plot puts it, and the
    /// picture grows by a legend row per line.
    #[test]
    fn each_point_is_drawn_in_its_lines_colour_where_its_value_says() {
        let lines = [
            line("Zendo Duel", &[1500.0, 1662.0, 1590.0]),
            line("Logical Bluffs", &[1500.0, 1338.0]),
        ];
        let png = chart_png("Rating over time", &lines, "rated matches, oldest first");
        let img = decode(&png);
        let plot = Plot::new(&lines, MARGIN + TITLE_PX * 1.6);
        for (i, l) in lines.iter().enumerate() {
            let Rgb(r, g, b) = colour(i);
            for p in &l.points {
                let at = plot.at(*p);
                let px = img.get_pixel(at.x as u32, at.y as u32).0;
                // The later line may cross an earlier one's first point.
                if i == 0 && p.0 == 0.0 {
                    continue;
                }
                assert_eq!(px, [r, g, b], "{} at {p:?}", l.label);
            }
        }
        // The highest value sits above the lowest.
        assert!(plot.at((1.0, 1662.0)).y < plot.at((1.0, 1338.0)).y);
        let one = decode(&chart_png("t", &lines[..1], "x"));
        assert_eq!(img.height() - one.height(), LEGEND_ROW as u32);
    }

    /// A single point, or values that barely move, still get a range of at least
    /// [`MIN_SPAN`], with the point inside the plot.
    #[test]
    fn a_flat_line_is_shown_within_a_sensible_range() {
        let lines = [line("Zendo Duel", &[1500.0])];
        let plot = Plot::new(&lines, 0.0);
        assert!(plot.hi - plot.lo >= MIN_SPAN);
        let at = plot.at((0.0, 1500.0));
        assert!(at.y > plot.area.y && at.y < plot.area.y + plot.area.h);
        assert!(!chart_png("t", &lines, "x").is_empty());
        assert!(!chart_png("t", &[], "x").is_empty());
    }
}
