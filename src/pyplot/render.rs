//! Drawing a [`FigureData`] with plotters onto any backend (RGB bitmap or SVG), and encoding
//! the bitmap as PNG.

use plotters::chart::SeriesAnno;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::pyplot::band;
use crate::pyplot::figure::{Artist, AxesData, Bars, FigureData, Image, Line, Scatter};
use crate::pyplot::style::{LineStyle, Marker};

pub const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

/// Register the embedded font once; plotters looks fonts up by family name.
pub fn ensure_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The font is compiled in and known to parse; a failure would only mean text is
        // missing from charts, which is better than refusing to draw.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES);
    });
}

use crate::pyplot::clip::Window;

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Font size in pixels for a size in points at the figure's dpi.
fn pt(fig: &FigureData, points: f64) -> f64 {
    points * fig.dpi / 72.0
}

/// How lines reach the backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineMode {
    /// Every point joined by plotters' polyline (a reference for tests).
    Full,
    /// Long series thinned per pixel column, still drawn as polylines: vector output, where
    /// a path is smaller than per-column spans and has no rasterisation gaps.
    Decimated,
    /// Solid lines drawn as one span per pixel column (bitmap output).
    Bands,
}

/// Draw the whole figure.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &FigureData,
    mode: LineMode,
) -> Result<(), String> {
    ensure_font();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut area = root.clone();
    if let Some(t) = &fig.suptitle {
        area = root
            .titled(t, (FONT, pt(fig, 12.0)))
            .map_err(|e| e.to_string())?;
    }
    let cells = area.split_evenly((fig.rows.max(1), fig.cols.max(1)));
    for (ax, cell) in fig.axes.iter().zip(cells.iter()) {
        draw_axes(cell, fig, &ax.borrow(), mode)?;
    }
    Ok(())
}

fn transform(v: f64, log: bool) -> f64 {
    if log {
        if v > 0.0 {
            v.log10()
        } else {
            f64::NAN
        }
    } else {
        v
    }
}

fn tick_label(v: f64, log: bool) -> String {
    if log {
        let p = 10f64.powf(v);
        if (v - v.round()).abs() < 1e-6 {
            return format!("1e{}", v.round() as i64);
        }
        return fmt_g(p);
    }
    let r = (v * 1e6).round() / 1e6;
    if r == 0.0 {
        return "0".into();
    }
    if r.abs() >= 1e6 || r.abs() < 1e-3 {
        return format!("{r:.1e}");
    }
    let s = format!("{r}");
    if s.contains('.') && s.len() > 8 {
        format!("{r:.3}")
    } else {
        s
    }
}

/// `%g`-style: three significant digits, no trailing zeros.
pub fn fmt_g(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let e = v.abs().log10().floor() as i32;
    if !(-4..6).contains(&e) {
        return format!("{v:.2e}");
    }
    let decimals = (2 - e).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A drawable range: plotters needs finite, distinct ends a finite distance apart (its
/// tick placement never ends on an infinite span, and pixel arithmetic overflows).
fn sane_range(a: f64, b: f64) -> (f64, f64) {
    // Infinite ends (data near f64::MAX padded by a margin) are held to a quarter of the
    // largest float, so the span stays finite.
    let c = f64::MAX / 4.0;
    if a.is_nan() || b.is_nan() {
        return (0.0, 1.0);
    }
    let (a, b) = (a.clamp(-c, c), b.clamp(-c, c));
    if a == b {
        (a - 0.5, a + 0.5)
    } else {
        (a, b)
    }
}

fn draw_axes<DB: DrawingBackend>(
    cell: &DrawingArea<DB, Shift>,
    fig: &FigureData,
    ax: &AxesData,
    mode: LineMode,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut plot_area = cell.clone();
    let mut bar_area = None;
    if let Some(i) = ax.colorbar {
        let (w, _) = cell.dim_in_pixel();
        let (a, b) = cell.split_horizontally(w.saturating_sub((w / 5).max(80)));
        plot_area = a;
        bar_area = Some((b, i));
    }
    let (x0, x1, y0, y1) = ax.limits();
    let (tx0, tx1) = sane_range(transform(x0, ax.xlog), transform(x1, ax.xlog));
    let (ty0, ty1) = sane_range(transform(y0, ax.ylog), transform(y1, ax.ylog));
    // imshow puts row 0 at the top: the y axis runs downwards.
    let image_rows = ax.artists.iter().find_map(|a| match a {
        Artist::Image(im) => Some(im.rows),
        _ => None,
    });
    let label_px = pt(fig, 10.0);
    let mut builder = ChartBuilder::on(&plot_area);
    builder
        .margin((pt(fig, 8.0)) as u32)
        .x_label_area_size((label_px * if ax.xlabel.is_some() { 2.8 } else { 1.6 }) as u32)
        .y_label_area_size((label_px * if ax.ylabel.is_some() { 5.0 } else { 3.6 }) as u32);
    if let Some(t) = &ax.title {
        builder.caption(t, (FONT, pt(fig, 12.0)));
    }
    let mut chart: Chart<DB> = builder
        .build_cartesian_2d(tx0..tx1, ty0..ty1)
        .map_err(err)?;
    let categories: Option<Vec<(f64, String)>> = ax.artists.iter().find_map(|a| match a {
        Artist::Bars(b) => b.tick_labels.clone(),
        _ => None,
    });
    let xfmt = |v: &f64| -> String {
        if let Some(cats) = &categories {
            return cats
                .iter()
                .find(|(p, _)| (p - v).abs() < 1e-9)
                .map(|(_, s)| s.clone())
                .unwrap_or_default();
        }
        tick_label(*v, ax.xlog)
    };
    let yfmt = |v: &f64| -> String {
        match image_rows {
            Some(rows) => tick_label(rows as f64 - 1.0 - v, false),
            None => tick_label(*v, ax.ylog),
        }
    };
    {
        let mut mesh = chart.configure_mesh();
        mesh.label_style((FONT, label_px))
            .axis_desc_style((FONT, label_px))
            .x_label_formatter(&xfmt)
            .y_label_formatter(&yfmt)
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(176, 176, 176).mix(if ax.grid { 0.6 } else { 0.0 }));
        if let Some(cats) = &categories {
            mesh.x_labels(cats.len().max(2) * 2 + 1);
        }
        if ax.xlog {
            mesh.x_labels(((tx1 - tx0).ceil() as usize + 1).clamp(2, 12));
        }
        if ax.ylog {
            mesh.y_labels(((ty1 - ty0).ceil() as usize + 1).clamp(2, 12));
        }
        if let Some(x) = &ax.xlabel {
            mesh.x_desc(x.as_str());
        }
        if let Some(y) = &ax.ylabel {
            mesh.y_desc(y.as_str());
        }
        mesh.draw().map_err(err)?;
    }
    let mut any_label = false;
    for artist in &ax.artists {
        match artist {
            Artist::Line(l) => any_label |= draw_line(&mut chart, fig, ax, l, mode)?,
            Artist::Scatter(s) => any_label |= draw_scatter(&mut chart, fig, ax, s)?,
            Artist::Bars(b) => any_label |= draw_bars(&mut chart, ax, b, ty0)?,
            Artist::Image(im) => draw_image(&mut chart, im)?,
        }
    }
    if ax.legend && any_label {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(RGBColor(204, 204, 204))
            .label_font((FONT, label_px))
            .draw()
            .map_err(err)?;
    }
    if let Some((area, i)) = bar_area {
        if let Some(Artist::Image(im)) = ax.artists.get(i) {
            draw_colorbar(&area, fig, im)?;
        }
    }
    Ok(())
}

fn line_style(l: &Line) -> ShapeStyle {
    ShapeStyle {
        color: l.color.mix(l.alpha),
        filled: false,
        stroke_width: l.width.round().max(1.0) as u32,
    }
}

/// Split a series into runs of finite points (matplotlib breaks lines at NaN).
/// The view of `chart` widened for clipping (see [`crate::pyplot::clip`]).
fn view_window<DB: DrawingBackend>(chart: &Chart<'_, DB>) -> Window {
    use plotters::coord::ranged1d::Ranged;
    let spec = chart.as_coord_spec();
    Window::around(spec.x_spec().range(), spec.y_spec().range())
}

fn finite_runs(points: Vec<(f64, f64)>) -> Vec<Vec<(f64, f64)>> {
    let mut runs = vec![Vec::new()];
    for p in points {
        if p.0.is_finite() && p.1.is_finite() {
            // invariant: `runs` starts with one run and only ever grows
            runs.last_mut().expect("runs is never empty").push(p);
        } else if !runs.last().is_some_and(|r| r.is_empty()) {
            runs.push(Vec::new());
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

/// Keep, per pixel column, the first, lowest, highest and last point in their original
/// order: the rasterised polyline covers the same pixels, at a few thousand points instead
/// of millions. Only valid when x does not go backwards.
pub fn decimate_by_column(points: &[(f64, f64)], column: impl Fn(f64) -> i64) -> Vec<(f64, f64)> {
    if points.windows(2).any(|w| w[1].0 < w[0].0) {
        return points.to_vec();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < points.len() {
        let col = column(points[i].0);
        let mut j = i;
        let (mut lo, mut hi) = (i, i);
        while j < points.len() && column(points[j].0) == col {
            if points[j].1 < points[lo].1 {
                lo = j;
            }
            if points[j].1 > points[hi].1 {
                hi = j;
            }
            j += 1;
        }
        let mut keep = [i, lo, hi, j - 1];
        keep.sort_unstable();
        let mut last = usize::MAX;
        for k in keep {
            if k != last {
                out.push(points[k]);
                last = k;
            }
        }
        i = j;
    }
    out
}

fn draw_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    fig: &FigureData,
    ax: &AxesData,
    l: &Line,
    mode: LineMode,
) -> Result<bool, String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let pts: Vec<(f64, f64)> =
        l.x.iter()
            .zip(&l.y)
            .map(|(&x, &y)| (transform(x, ax.xlog), transform(y, ax.ylog)))
            .collect();
    let style = line_style(l);
    let (w, _) = chart.plotting_area().dim_in_pixel();
    let mut labelled = false;
    let window = view_window(chart);
    for run in finite_runs(pts)
        .into_iter()
        .flat_map(|r| window.polyline(r))
    {
        let mut banded = false;
        if mode == LineMode::Bands && l.style == LineStyle::Solid && run.len() > 1 {
            if let Some(drawn) = draw_band(chart, l, &run, style, labelled)? {
                labelled |= drawn;
                banded = true;
            }
        }
        if banded && l.marker.is_none() {
            continue;
        }
        let run = if mode != LineMode::Full && l.marker.is_none() && run.len() > 4 * w as usize {
            let spec = chart.as_coord_spec().clone();
            decimate_by_column(&run, |x| {
                use plotters::coord::CoordTranslate;
                spec.translate(&(x, 0.0)).0 as i64
            })
        } else {
            run
        };
        let dash = (pt(fig, 3.7 * l.width.max(1.0) / 2.0)) as u32;
        let anno = match l.style {
            LineStyle::None => None,
            LineStyle::Solid if banded => None,
            LineStyle::Solid => Some(
                chart
                    .draw_series(LineSeries::new(run.iter().copied(), style))
                    .map_err(err)?,
            ),
            LineStyle::Dashed | LineStyle::DashDot => Some(
                chart
                    .draw_series(DashedLineSeries::new(
                        run.iter().copied(),
                        dash,
                        dash / 2 + 1,
                        style,
                    ))
                    .map_err(err)?,
            ),
            LineStyle::Dotted => Some(
                chart
                    .draw_series(DashedLineSeries::new(
                        run.iter().copied(),
                        style.stroke_width.max(1),
                        style.stroke_width * 2 + 1,
                        style,
                    ))
                    .map_err(err)?,
            ),
        };
        if let (Some(anno), Some(label), false) = (anno, &l.label, labelled) {
            let s = style;
            anno.label(label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], s));
            labelled = true;
        }
        if let Some(m) = l.marker {
            let size = pt(fig, l.marker_size) / 2.0;
            let mstyle = ShapeStyle {
                color: l.color.mix(l.alpha),
                filled: true,
                stroke_width: 1,
            };
            let pts = run.iter().map(|&p| (p, size, mstyle)).collect();
            let anno = draw_markers(chart, m, pts)?;
            if let (Some(label), false) = (&l.label, labelled) {
                let r = size.max(1.0) as i32;
                anno.label(label.clone())
                    .legend(move |(x, y)| Circle::new((x + 10, y), r, mstyle));
                labelled = true;
            }
        }
    }
    Ok(labelled)
}

/// Draw a solid line as one pixel span per column (see [`crate::pyplot::band`]). Returns None when
/// x goes backwards and the line must be drawn point to point, else whether a legend entry
/// was added.
fn draw_band<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    l: &Line,
    run: &[(f64, f64)],
    style: ShapeStyle,
    labelled: bool,
) -> Result<Option<bool>, String> {
    use plotters::coord::CoordTranslate;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let spec = chart.as_coord_spec().clone();
    let pixels = run.iter().map(|p| {
        let (x, y) = spec.translate(p);
        (x as f64, y as f64)
    });
    let Some(spans) = band::column_spans(pixels) else {
        return Ok(None);
    };
    let area = chart.plotting_area();
    band::draw_spans(
        &area.use_screen_coord(),
        &spans,
        area.get_pixel_range(),
        style.stroke_width,
        style,
    )?;
    if let (Some(label), false) = (&l.label, labelled) {
        // An empty series carries the legend entry for the band.
        chart
            .draw_series(Vec::<PathElement<(f64, f64)>>::new())
            .map_err(err)?
            .label(label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        return Ok(Some(true));
    }
    Ok(Some(false))
}

/// Draw markers (one shape for the whole series, colour and size per point). Each shape
/// is its own concrete element type: plotters' dynamic elements would need a 'static
/// backend, and the bitmap backend borrows its buffer.
fn draw_markers<'a, 'c, DB: DrawingBackend + 'a>(
    chart: &'c mut Chart<'a, DB>,
    m: Marker,
    pts: Vec<((f64, f64), f64, ShapeStyle)>,
) -> Result<&'c mut SeriesAnno<'a, DB>, String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let it = pts
        .into_iter()
        .map(|(p, size, style)| (p, (size.max(1.0)) as i32, style));
    let outline = |s: ShapeStyle| ShapeStyle {
        filled: false,
        stroke_width: 2,
        ..s
    };
    match m {
        Marker::Pixel => chart.draw_series(it.map(|(p, _, s)| Pixel::new(p, s))),
        Marker::Point => chart.draw_series(
            it.map(|(p, r, s)| EmptyElement::at(p) + Circle::new((0, 0), (r / 2).max(1), s)),
        ),
        Marker::Circle => {
            chart.draw_series(it.map(|(p, r, s)| EmptyElement::at(p) + Circle::new((0, 0), r, s)))
        }
        Marker::Square => chart.draw_series(
            it.map(|(p, r, s)| EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], s)),
        ),
        Marker::Cross => chart.draw_series(it.map(|(p, r, s)| {
            EmptyElement::at(p)
                + PathElement::new(vec![(-r, -r), (r, r)], outline(s))
                + PathElement::new(vec![(-r, r), (r, -r)], outline(s))
        })),
        Marker::Plus => chart.draw_series(it.map(|(p, r, s)| {
            EmptyElement::at(p)
                + PathElement::new(vec![(-r, 0), (r, 0)], outline(s))
                + PathElement::new(vec![(0, -r), (0, r)], outline(s))
        })),
        _ => chart.draw_series(
            it.map(|(p, r, s)| EmptyElement::at(p) + Polygon::new(polygon_points(m, r), s)),
        ),
    }
    .map_err(err)
}

fn polygon_points(m: Marker, r: i32) -> Vec<(i32, i32)> {
    match m {
        Marker::TriangleDown => vec![(0, r), (-r, -r), (r, -r)],
        Marker::TriangleLeft => vec![(-r, 0), (r, -r), (r, r)],
        Marker::TriangleRight => vec![(r, 0), (-r, -r), (-r, r)],
        Marker::Diamond => vec![(0, -r), (r, 0), (0, r), (-r, 0)],
        Marker::Star => (0..10)
            .map(|k| {
                let a = std::f64::consts::PI * (k as f64) / 5.0 - std::f64::consts::FRAC_PI_2;
                let rr = if k % 2 == 0 {
                    r as f64
                } else {
                    r as f64 * 0.45
                };
                ((rr * a.cos()).round() as i32, (rr * a.sin()).round() as i32)
            })
            .collect(),
        _ => vec![(0, -r), (-r, r), (r, r)],
    }
}

fn draw_scatter<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    fig: &FigureData,
    ax: &AxesData,
    s: &Scatter,
) -> Result<bool, String> {
    let n = s.x.len();
    let window = view_window(chart);
    let items: Vec<_> = (0..n)
        .filter_map(|i| {
            let p = (transform(s.x[i], ax.xlog), transform(s.y[i], ax.ylog));
            if !(p.0.is_finite() && p.1.is_finite() && window.contains(p)) {
                return None;
            }
            let area = s.sizes[i.min(s.sizes.len() - 1)];
            let radius = pt(fig, area.max(0.0).sqrt()) / 2.0;
            let color = s.colors[i.min(s.colors.len() - 1)];
            let style = ShapeStyle {
                color: color.mix(s.alpha),
                filled: true,
                stroke_width: 1,
            };
            Some((p, radius, style))
        })
        .collect();
    let anno = draw_markers(chart, s.marker, items)?;
    if let Some(label) = &s.label {
        let style = ShapeStyle {
            color: s.colors[0].mix(s.alpha),
            filled: true,
            stroke_width: 1,
        };
        anno.label(label.clone())
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, style));
        return Ok(true);
    }
    Ok(false)
}

fn draw_bars<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    ax: &AxesData,
    b: &Bars,
    bottom: f64,
) -> Result<bool, String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let base = if ax.ylog { bottom } else { 0.0 };
    let fill = b.color.mix(b.alpha).filled();
    let window = view_window(chart);
    let rects: Vec<_> = (0..b.heights.len())
        .filter_map(|i| {
            let l = transform(b.lefts[i], ax.xlog);
            let r = transform(b.rights[i], ax.xlog);
            let h = transform(b.heights[i], ax.ylog);
            (l.is_finite() && r.is_finite() && h.is_finite()).then(|| {
                let (l, r) = (window.clamp_x(l), window.clamp_x(r));
                let (lo, hi) = (window.clamp_y(base), window.clamp_y(h));
                Rectangle::new([(l, lo), (r, hi)], fill)
            })
        })
        .collect();
    let anno = chart.draw_series(rects).map_err(err)?;
    if let Some(label) = &b.label {
        anno.label(label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], fill));
    }
    if let Some(edge) = b.edge {
        let outlines: Vec<_> = (0..b.heights.len())
            .map(|i| {
                Rectangle::new(
                    [
                        (b.lefts[i], base),
                        (b.rights[i], transform(b.heights[i], ax.ylog)),
                    ],
                    edge.stroke_width(1),
                )
            })
            .collect();
        chart.draw_series(outlines).map_err(err)?;
    }
    Ok(b.label.is_some())
}

fn image_color(im: &Image, v: f64) -> RGBColor {
    let span = im.vmax - im.vmin;
    let t = if span > 0.0 {
        (v - im.vmin) / span
    } else {
        0.5
    };
    im.cmap.at(t)
}

fn draw_image<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    im: &Image,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    // Never draw more cells than there are pixels: sample the nearest cell per pixel block.
    let (pw, ph) = chart.plotting_area().dim_in_pixel();
    let cols = im.cols.min(pw.max(1) as usize);
    let rows = im.rows.min(ph.max(1) as usize);
    let cw = im.cols as f64 / cols as f64;
    let rh = im.rows as f64 / rows as f64;
    let mut rects = Vec::with_capacity(rows * cols); // bounded: <= pixels (8000 px a side)
    for r in 0..rows {
        let src_r = ((r as f64 + 0.5) * rh) as usize;
        for c in 0..cols {
            let src_c = ((c as f64 + 0.5) * cw) as usize;
            let v = im.data[src_r.min(im.rows - 1) * im.cols + src_c.min(im.cols - 1)];
            let x0 = c as f64 * cw - 0.5;
            let top = im.rows as f64 - 0.5 - r as f64 * rh;
            rects.push(Rectangle::new(
                [(x0, top), (x0 + cw, top - rh)],
                image_color(im, v).filled(),
            ));
        }
    }
    chart.draw_series(rects).map_err(err)?;
    Ok(())
}

fn draw_colorbar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &FigureData,
    im: &Image,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let (lo, hi) = if im.vmax > im.vmin {
        (im.vmin, im.vmax)
    } else {
        (im.vmin - 0.5, im.vmin + 0.5)
    };
    let (lo, hi) = sane_range(lo, hi);
    let mut chart = ChartBuilder::on(area)
        .margin_top(pt(fig, 8.0) as u32)
        .margin_bottom((pt(fig, 10.0) * 1.6 + pt(fig, 8.0)) as u32)
        .margin_right(4)
        .margin_left(pt(fig, 6.0) as u32)
        .y_label_area_size(0)
        .right_y_label_area_size((pt(fig, 10.0) * 3.0) as u32)
        .build_cartesian_2d(0.0..1.0, lo..hi)
        .map_err(err)?
        .set_secondary_coord(0.0..1.0, lo..hi);
    let steps = 128;
    chart
        .draw_series((0..steps).map(|k| {
            let a = lo + (hi - lo) * k as f64 / steps as f64;
            let b = lo + (hi - lo) * (k + 1) as f64 / steps as f64;
            let t = (k as f64 + 0.5) / steps as f64;
            Rectangle::new([(0.0, a), (1.0, b)], im.cmap.at(t).filled())
        }))
        .map_err(err)?;
    chart
        .configure_secondary_axes()
        .label_style((FONT, pt(fig, 10.0)))
        .y_label_formatter(&|v| tick_label(*v, false))
        .draw()
        .map_err(err)?;
    Ok(())
}

/// Render to a packed RGB buffer.
pub fn render_rgb(fig: &FigureData, mode: LineMode) -> Result<(Vec<u8>, u32, u32), String> {
    let (w, h) = fig.pixel_size();
    let mut buf = vec![255u8; w as usize * h as usize * 3]; // bounded: 8000 px a side (size_args)
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        draw(&root, fig, mode)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok((buf, w, h))
}

pub fn render_svg(fig: &FigureData) -> Result<String, String> {
    let (w, h) = fig.pixel_size();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        draw(&root, fig, LineMode::Decimated)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// PNG with fast compression: charts are flat colours, so speed matters more than the last
/// few percent of size.
pub fn encode_png(rgb: &[u8], w: u32, h: u32, dpi: f64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let ppm = (dpi / 0.0254).round() as u32;
        enc.set_pixel_dims(Some(png::PixelDimensions {
            xppu: ppm,
            yppu: ppm,
            unit: png::Unit::Meter,
        }));
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Draw and encode as PNG.
pub fn render_png(fig: &FigureData) -> Result<Vec<u8>, String> {
    let (rgb, w, h) = render_rgb(fig, LineMode::Bands)?;
    encode_png(&rgb, w, h, fig.dpi)
}

/// Used by `Bars` helpers elsewhere.
pub fn bars_from_edges(edges: &[f64], counts: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let lefts = edges[..counts.len()].to_vec();
    let rights = edges[1..=counts.len()].to_vec();
    (lefts, rights, counts.to_vec())
}
