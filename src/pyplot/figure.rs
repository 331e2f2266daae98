//! The figure model: what `pyplot` calls record, independent of how it is drawn.

use std::cell::RefCell;
use std::rc::Rc;

use plotters::style::RGBColor;

use crate::pyplot::style::{Cmap, LineStyle, Marker, CYCLE};

/// A line (`plot`).
#[derive(Clone, Debug)]
pub struct Line {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub color: RGBColor,
    pub width: f64,
    pub style: LineStyle,
    pub marker: Option<Marker>,
    pub marker_size: f64,
    pub alpha: f64,
    pub label: Option<String>,
}

/// Points (`scatter`): one colour each.
#[derive(Clone, Debug)]
pub struct Scatter {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    /// Marker area in points², per point (matplotlib's `s`).
    pub sizes: Vec<f64>,
    pub colors: Vec<RGBColor>,
    pub alpha: f64,
    pub marker: Marker,
    pub label: Option<String>,
}

/// Rectangles from a baseline (`bar`, `hist`).
#[derive(Clone, Debug)]
pub struct Bars {
    /// Left edge and right edge of each bar.
    pub lefts: Vec<f64>,
    pub rights: Vec<f64>,
    pub heights: Vec<f64>,
    pub color: RGBColor,
    pub alpha: f64,
    pub edge: Option<RGBColor>,
    pub label: Option<String>,
    /// Category names shown under the bars (`plt.bar(['a', 'b'], ...)`).
    pub tick_labels: Option<Vec<(f64, String)>>,
}

/// A 2-D array drawn as coloured cells (`imshow`).
#[derive(Clone, Debug)]
pub struct Image {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
    pub cmap: Cmap,
    pub vmin: f64,
    pub vmax: f64,
}

#[derive(Clone, Debug)]
pub enum Artist {
    Line(Line),
    Scatter(Scatter),
    Bars(Bars),
    Image(Image),
}

/// One set of axes.
#[derive(Clone, Debug, Default)]
pub struct AxesData {
    pub artists: Vec<Artist>,
    pub title: Option<String>,
    pub xlabel: Option<String>,
    pub ylabel: Option<String>,
    pub xlim: Option<(f64, f64)>,
    pub ylim: Option<(f64, f64)>,
    pub xlog: bool,
    pub ylog: bool,
    pub legend: bool,
    pub grid: bool,
    /// Index into `artists` of the image a colorbar describes.
    pub colorbar: Option<usize>,
    /// Next colour of the property cycle.
    pub cycle: usize,
}

impl AxesData {
    pub fn next_color(&mut self) -> RGBColor {
        let c = CYCLE[self.cycle % CYCLE.len()];
        self.cycle += 1;
        c
    }

    /// Data limits with matplotlib's 5% margins (none for images), as (xmin, xmax, ymin, ymax).
    pub fn limits(&self) -> (f64, f64, f64, f64) {
        let mut xs = Extent::default();
        let mut ys = Extent::default();
        let mut image = false;
        let mut bars = false;
        for a in &self.artists {
            match a {
                Artist::Line(l) => {
                    xs.add_all(&l.x, self.xlog);
                    ys.add_all(&l.y, self.ylog);
                }
                Artist::Scatter(s) => {
                    xs.add_all(&s.x, self.xlog);
                    ys.add_all(&s.y, self.ylog);
                }
                Artist::Bars(b) => {
                    bars = true;
                    xs.add_all(&b.lefts, self.xlog);
                    xs.add_all(&b.rights, self.xlog);
                    ys.add_all(&b.heights, self.ylog);
                    if !self.ylog {
                        ys.add(0.0);
                    }
                }
                Artist::Image(im) => {
                    image = true;
                    xs.add(-0.5);
                    xs.add(im.cols as f64 - 0.5);
                    ys.add(-0.5);
                    ys.add(im.rows as f64 - 0.5);
                }
            }
        }
        let (mut x0, mut x1) = xs.or(0.0, 1.0);
        let (mut y0, mut y1) = ys.or(0.0, 1.0);
        if !image && !self.artists.is_empty() {
            (x0, x1) = margin(x0, x1, self.xlog);
            let (a, b) = margin(y0, y1, self.ylog);
            // Bars stand on the axis: no margin below a zero baseline.
            y0 = if bars && y0 == 0.0 { 0.0 } else { a };
            y1 = b;
        }
        if let Some((a, b)) = self.xlim {
            (x0, x1) = (a, b);
        }
        if let Some((a, b)) = self.ylim {
            (y0, y1) = (a, b);
        }
        (x0, x1, y0, y1)
    }

    pub fn has_image(&self) -> bool {
        self.artists.iter().any(|a| matches!(a, Artist::Image(_)))
    }
}

fn margin(lo: f64, hi: f64, log: bool) -> (f64, f64) {
    if log {
        let (a, b) = (lo.log10(), hi.log10());
        let m = if b > a { (b - a) * 0.05 } else { 0.5 };
        return (10f64.powf(a - m), 10f64.powf(b + m));
    }
    if hi > lo {
        let m = (hi - lo) * 0.05;
        (lo - m, hi + m)
    } else {
        let m = if lo == 0.0 { 0.055 } else { lo.abs() * 0.05 };
        (lo - m, hi + m)
    }
}

#[derive(Default)]
struct Extent {
    lo: Option<f64>,
    hi: Option<f64>,
}

impl Extent {
    fn add(&mut self, v: f64) {
        if v.is_finite() {
            self.lo = Some(self.lo.map_or(v, |l| l.min(v)));
            self.hi = Some(self.hi.map_or(v, |h| h.max(v)));
        }
    }
    fn add_all(&mut self, vs: &[f64], log: bool) {
        for &v in vs {
            if !log || v > 0.0 {
                self.add(v);
            }
        }
    }
    fn or(&self, lo: f64, hi: f64) -> (f64, f64) {
        match (self.lo, self.hi) {
            (Some(a), Some(b)) => (a, b),
            _ => (lo, hi),
        }
    }
}

/// A figure: a grid of axes, a size in inches and a resolution.
#[derive(Debug)]
pub struct FigureData {
    pub number: u32,
    pub width_in: f64,
    pub height_in: f64,
    pub dpi: f64,
    pub rows: usize,
    pub cols: usize,
    pub axes: Vec<Rc<RefCell<AxesData>>>,
    /// Index of the current axes (`plt.gca()`).
    pub current: usize,
    pub suptitle: Option<String>,
}

impl FigureData {
    pub fn new(number: u32, width_in: f64, height_in: f64, dpi: f64) -> FigureData {
        FigureData {
            number,
            width_in,
            height_in,
            dpi,
            rows: 1,
            cols: 1,
            axes: Vec::new(),
            current: 0,
            suptitle: None,
        }
    }

    pub fn pixel_size(&self) -> (u32, u32) {
        (
            (self.width_in * self.dpi).round().max(1.0) as u32,
            (self.height_in * self.dpi).round().max(1.0) as u32,
        )
    }

    /// matplotlib's `text/plain` for a figure.
    pub fn text_repr(&self) -> String {
        let (w, h) = (self.width_in * self.dpi, self.height_in * self.dpi);
        let n = self.axes.len();
        format!(
            "<Figure size {}x{} with {} Axes>",
            fmt_num(w),
            fmt_num(h),
            n
        )
    }
}

/// matplotlib prints sizes with `%g`.
fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}
