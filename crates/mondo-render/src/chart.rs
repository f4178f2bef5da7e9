//! A line chart as a picture (a player's rating over time, a line per game): a title,
//! the values along the left on light gridlines, a line with a dot per point in each
//! line's own colour, what the x axis counts under it, and a legend naming each line
//! by its colour. The range shown is at least [`MIN_SPAN`] wide, centred on the
//! values, so a few points of change do not look like a cliff, and its ends and
//! gridlines fall on round values ([`Axis`]: 1450, 1500, 1550, never 1437).

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

/// The value axis of a chart: from `lo` to `hi` in steps of `step`, where the step is
/// 1, 2 or 5 times a power of ten and both ends are multiples of it, so every label is
/// a round number a reader can take in at a glance. The profile page's chart and
/// `/stats`'s picture use the same one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

impl Axis {
    /// Gridlines aimed for, about (between 2 and 5 steps result).
    const STEPS: f64 = 4.0;

    /// An axis showing the values `lo..=hi` (any order; none, as `lo` > `hi`, shows
    /// around 0) with a little room above and below, at least [`MIN_SPAN`] wide.
    pub fn around(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 0.0)
        };
        let mid = (lo + hi) / 2.0;
        let half = ((hi - lo) / 2.0 * 1.1).max(MIN_SPAN / 2.0);
        let step = round_step((2.0 * half) / Self::STEPS);
        Axis {
            lo: ((mid - half) / step).floor() * step,
            hi: ((mid + half) / step).ceil() * step,
            step,
        }
    }

    /// The values with a gridline and a label, bottom to top, both ends included.
    pub fn ticks(&self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step).round() as usize;
        (0..=n).map(|i| self.lo + self.step * i as f64).collect()
    }

    /// A tick's label: whole numbers as such, a fraction (a step under 1) with as
    /// many decimals as the step needs.
    pub fn label(&self, value: f64) -> String {
        let decimals = (-self.step.log10().floor()).max(0.0) as usize;
        format!("{value:.decimals$}")
    }
}

/// The smallest of 1, 2, 5 times a power of ten that is at least `raw` (positive).
fn round_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// Where the plot sits and how values map onto it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plot {
    area: Rect,
    /// The values from the bottom to the top.
    axis: Axis,
    /// The largest x (the right edge); the left edge is 0.
    last: f64,
}

impl Plot {
    fn new(lines: &[Line], top: f32) -> Plot {
        let all = || lines.iter().flat_map(|l| l.points.iter());
        let lo = all().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = all().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let last = all().map(|p| p.0).fold(1.0, f64::max);
        let left = MARGIN + AXIS_W;
        Plot {
            area: Rect::new(left, top, WIDTH - left - MARGIN, PLOT_H),
            axis: Axis::around(lo, hi),
            last,
        }
    }

    fn at(&self, (x, value): (f64, f64)) -> Point {
        let (a, Axis { lo, hi, .. }) = (self.area, self.axis);
        Point::new(
            a.x + a.w * (x / self.last) as f32,
            a.y + a.h * ((hi - value) / (hi - lo)) as f32,
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
    for value in plot.axis.ticks() {
        let y = plot.at((0.0, value)).y.round();
        super::draw::bar(&mut pixmap, Rect::new(a.x, y, a.w, 1.0), style::GRID);
        let label = plot.axis.label(value);
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
        assert!(plot.axis.hi - plot.axis.lo >= MIN_SPAN);
        let at = plot.at((0.0, 1500.0));
        assert!(at.y > plot.area.y && at.y < plot.area.y + plot.area.h);
        assert!(!chart_png("t", &lines, "x").is_empty());
        assert!(!chart_png("t", &[], "x").is_empty());
    }

    /// The axis's ends and gridlines are round numbers (a step of 1, 2 or 5 times a
    /// power of ten, both ends multiples of it) around the values, never the values'
    /// own odd ends.
    #[test]
    fn the_axis_is_labelled_with_round_values() {
        let cases: [((f64, f64), &[&str]); 6] = [
            ((1500.0, 1500.0), &["1450", "1500", "1550"]),
            ((1338.0, 1662.0), &["1300", "1400", "1500", "1600", "1700"]),
            ((1487.0, 1531.0), &["1450", "1500", "1550", "1600"]),
            ((1437.3, 1441.9), &["1350", "1400", "1450", "1500"]),
            ((812.0, 2391.0), &["500", "1000", "1500", "2000", "2500"]),
            ((0.0, 0.0), &["-50", "0", "50"]),
        ];
        for ((lo, hi), want) in cases {
            let axis = Axis::around(lo, hi);
            let labels: Vec<String> = axis.ticks().iter().map(|t| axis.label(*t)).collect();
            assert_eq!(labels, want, "{lo}..{hi}: {axis:?}");
            assert!(axis.lo <= lo && hi <= axis.hi, "{lo}..{hi} inside {axis:?}");
        }
        // Wide ranges get a wide round step, with 2 to 5 steps whatever the range.
        for (lo, hi) in [
            (812.0, 2391.0),
            (1499.5, 1500.5),
            (-3.0, 7777.0),
            (0.2, 0.3),
        ] {
            let axis = Axis::around(lo, hi);
            let mantissa = axis.step / 10f64.powf(axis.step.log10().floor());
            assert!(
                [1.0, 2.0, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-9),
                "{axis:?}"
            );
            let steps = axis.ticks().len() - 1;
            assert!((2..=7).contains(&steps), "{lo}..{hi}: {axis:?}");
            assert!(axis.lo <= lo && hi <= axis.hi);
            for t in axis.ticks() {
                assert!(
                    ((t / axis.step).round() * axis.step - t).abs() < 1e-6,
                    "{t}"
                );
            }
        }
        assert_eq!(
            Axis::around(f64::INFINITY, f64::NEG_INFINITY),
            Axis::around(0.0, 0.0)
        );
    }
}
