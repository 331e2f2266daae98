//! The drawing calls shared by `plt.*` (on the current axes) and `Axes` methods: plot,
//! scatter, bar, hist, imshow and the labelling calls.

use std::cell::RefCell;
use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};
use crate::pyplot::data::{f64_array, opt_f64, opt_label, opt_str, pair, series};
use crate::pyplot::figure::{Artist, AxesData, Bars, Image, Line, Scatter};
use crate::pyplot::objects::{artist, text, Handle};
use crate::pyplot::style::{
    parse_cmap, parse_color, parse_format, parse_linestyle, parse_marker, Cmap, LineStyle, Marker,
};

pub type Ax = Rc<RefCell<AxesData>>;

fn color_arg(v: &Option<Value>) -> PyResult<Option<plotters::style::RGBColor>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => parse_color(s).map(Some),
        Some(Value::Tuple(t)) if t.len() == 3 || t.len() == 4 => {
            let c = |i: usize| -> PyResult<u8> { Ok((t[i].as_f64()? * 255.0).round() as u8) };
            Ok(Some(plotters::style::RGBColor(c(0)?, c(1)?, c(2)?)))
        }
        Some(other) => Err(PyErr::value_error(format!(
            "{} is not a valid color value",
            crate::py::value::Value::type_name(other)
        ))),
    }
}

/// `plot([x], y, [fmt], [x2], y2, [fmt2], ..., **kwargs)`.
pub fn plot(rt: &mut Runtime, ax: &Ax, args: Args) -> PyResult<Value> {
    let kw = Args {
        pos: vec![],
        kw: args.kw.clone(),
    }
    .bind(
        "plot",
        &[
            "label=",
            "color=",
            "c=",
            "linewidth=",
            "lw=",
            "linestyle=",
            "ls=",
            "marker=",
            "markersize=",
            "ms=",
            "alpha=",
            "scalex=",
            "scaley=",
            "data=",
            "zorder=",
        ],
    )?;
    let label = opt_label(rt, &kw[0])?;
    let color = color_arg(if kw[1].is_some() { &kw[1] } else { &kw[2] })?;
    let width = opt_f64(if kw[3].is_some() { &kw[3] } else { &kw[4] })?.unwrap_or(1.5);
    let ls = match opt_str(if kw[5].is_some() { &kw[5] } else { &kw[6] }, "linestyle")? {
        Some(s) => Some(parse_linestyle(&s)?),
        None => None,
    };
    let marker = match opt_str(&kw[7], "marker")? {
        Some(s) => Some(parse_marker(&s)?),
        None => None,
    };
    let msize = opt_f64(if kw[8].is_some() { &kw[8] } else { &kw[9] })?.unwrap_or(6.0);
    let alpha = opt_f64(&kw[10])?.unwrap_or(1.0);

    // Split the positional arguments into (x, y, fmt) groups as matplotlib does.
    let pos = &args.pos;
    let mut groups = Vec::new();
    let mut i = 0;
    while i < pos.len() {
        if matches!(pos[i], Value::Str(_)) {
            return Err(PyErr::value_error(
                "plot() got a format string where data was expected; write plt.plot(x, y, 'r-')",
            ));
        }
        let (x, y) = if i + 1 < pos.len() && !matches!(pos[i + 1], Value::Str(_)) {
            i += 2;
            (Some(&pos[i - 2]), &pos[i - 1])
        } else {
            i += 1;
            (None, &pos[i - 1])
        };
        let fmt = match pos.get(i) {
            Some(Value::Str(s)) => {
                i += 1;
                Some(parse_format(s)?)
            }
            _ => None,
        };
        groups.push((x, y, fmt));
    }
    let mut lines = Vec::new();
    for (x, y, fmt) in groups {
        let ys = series(rt, y, "plot")?;
        let n = ys.first_dim();
        let xs = match x {
            Some(x) => {
                let xs = series(rt, x, "plot")?;
                if xs.first_dim() != n {
                    return Err(PyErr::value_error(format!(
                        "x and y must have same first dimension, but have shapes {} and {}",
                        xs.shape_text(),
                        ys.shape_text()
                    )));
                }
                if xs.shape.len() > 1 {
                    return Err(PyErr::value_error("x must be 1-dimensional to plot"));
                }
                xs.values
            }
            None => (0..n).map(|k| k as f64).collect(),
        };
        if ys.shape.len() > 2 {
            return Err(PyErr::value_error(format!(
                "y can be no greater than 2D, but has shape {}",
                ys.shape_text()
            )));
        }
        // A 2-D y is one line per column.
        let columns = if ys.shape.len() == 2 { ys.shape[1] } else { 1 };
        for col in 0..columns {
            let yv: Vec<f64> = if ys.shape.len() < 2 {
                ys.values.clone()
            } else {
                (0..n).map(|r| ys.values[r * columns + col]).collect()
            };
            let xv = if ys.shape.is_empty() {
                vec![xs.first().copied().unwrap_or(0.0)]
            } else {
                xs.clone()
            };
            let mut a = ax.borrow_mut();
            let f = fmt.unwrap_or_default();
            let color = color.or(f.color).unwrap_or_else(|| a.next_color());
            let marker = marker.unwrap_or(f.marker);
            let style = ls
                .or(f.line)
                .unwrap_or(if f.marker.is_some() && f.line.is_none() {
                    LineStyle::None
                } else {
                    LineStyle::Solid
                });
            a.artists.push(Artist::Line(Line {
                x: xv,
                y: yv,
                color,
                width: width * 100.0 / 72.0,
                style,
                marker,
                marker_size: msize,
                alpha,
                label: label.clone(),
            }));
            lines.push(artist("matplotlib.lines.Line2D"));
        }
    }
    Ok(Value::list(lines))
}

/// `scatter(x, y, s=None, c=None, marker='o', alpha=None, label=None, cmap=None)`.
pub fn scatter(rt: &mut Runtime, ax: &Ax, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "scatter",
        &[
            "x",
            "y",
            "s=",
            "c=",
            "marker=",
            "cmap=",
            "norm=",
            "vmin=",
            "vmax=",
            "alpha=",
            "linewidths=",
            "edgecolors=",
            "label=",
            "color=",
            "zorder=",
        ],
    )?;
    // invariant: `x` and `y` are required, so bind() raised TypeError if missing
    let x = series(rt, a[0].as_ref().expect("required"), "scatter")?;
    let y = series(rt, a[1].as_ref().expect("required"), "scatter")?;
    if x.values.len() != y.values.len() {
        return Err(PyErr::value_error("x and y must be the same size"));
    }
    let n = x.values.len();
    let sizes = match &a[2] {
        None | Some(Value::None) => vec![36.0],
        Some(v) => {
            let s = series(rt, v, "scatter s")?.values;
            if s.len() != 1 && s.len() != n {
                return Err(PyErr::value_error(
                    "s must be a scalar, or float array-like with the same size as x and y",
                ));
            }
            s
        }
    };
    let cmap = match opt_str(&a[5], "cmap")? {
        Some(c) => parse_cmap(&c)?,
        None => Cmap::Viridis,
    };
    let mut axm = ax.borrow_mut();
    let colors = match (&a[3], &a[13]) {
        (Some(Value::Str(s)), _) | (_, Some(Value::Str(s))) => vec![parse_color(s)?],
        (Some(v), _) if !v.is_none() => {
            let items = match v {
                Value::List(_) | Value::Tuple(_) => rt.iterate(v)?,
                _ => vec![],
            };
            if !items.is_empty() && items.iter().all(|i| matches!(i, Value::Str(_))) {
                items
                    .iter()
                    .map(|i| parse_color(i.as_str().unwrap_or("")))
                    .collect::<PyResult<_>>()?
            } else {
                let vals = series(rt, v, "scatter c")?.values;
                if vals.len() != n {
                    return Err(PyErr::value_error(format!(
                        "'c' argument has {} elements, which is inconsistent with 'x' and 'y' with size {n}.",
                        vals.len()
                    )));
                }
                let lo = opt_f64(&a[7])?
                    .unwrap_or_else(|| vals.iter().cloned().fold(f64::INFINITY, f64::min));
                let hi = opt_f64(&a[8])?
                    .unwrap_or_else(|| vals.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
                vals.iter()
                    .map(|v| cmap.at(if hi > lo { (v - lo) / (hi - lo) } else { 0.5 }))
                    .collect()
            }
        }
        _ => vec![axm.next_color()],
    };
    let marker = match opt_str(&a[4], "marker")? {
        Some(m) => parse_marker(&m)?.unwrap_or(Marker::Circle),
        None => Marker::Circle,
    };
    let label = opt_label(rt, &a[12])?;
    axm.artists.push(Artist::Scatter(Scatter {
        x: x.values,
        y: y.values,
        sizes,
        colors,
        alpha: opt_f64(&a[9])?.unwrap_or(1.0),
        marker,
        label,
    }));
    Ok(artist("matplotlib.collections.PathCollection"))
}

/// `bar(x, height, width=0.8, color=None, label=None, ...)`; x may be category names.
pub fn bar(rt: &mut Runtime, ax: &Ax, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "bar",
        &[
            "x",
            "height",
            "width=",
            "bottom=",
            "align=",
            "color=",
            "edgecolor=",
            "label=",
            "alpha=",
            "tick_label=",
            "linewidth=",
        ],
    )?;
    // invariant: `x` is required, so bind() raised TypeError if it was missing
    let xv = a[0].clone().expect("required");
    let xs_items = match &xv {
        Value::List(_) | Value::Tuple(_) => rt.iterate(&xv)?,
        _ => vec![],
    };
    let (positions, cats) =
        if !xs_items.is_empty() && xs_items.iter().all(|v| matches!(v, Value::Str(_))) {
            let names: Vec<String> = xs_items
                .iter()
                .map(|v| v.as_str().unwrap_or("").to_string())
                .collect();
            let pos: Vec<f64> = (0..names.len()).map(|k| k as f64).collect();
            (
                pos.clone(),
                Some(pos.into_iter().zip(names).collect::<Vec<_>>()),
            )
        } else {
            (series(rt, &xv, "bar")?.values, None)
        };
    // invariant: `height` is required, so bind() raised TypeError if missing
    let h = series(rt, a[1].as_ref().expect("required"), "bar")?.values;
    let heights = if h.len() == 1 {
        vec![h[0]; positions.len()]
    } else {
        h
    };
    if heights.len() != positions.len() {
        return Err(PyErr::value_error(format!(
            "shape mismatch: objects cannot be broadcast to a single shape: x has {} values and height has {}",
            positions.len(),
            heights.len()
        )));
    }
    let width = opt_f64(&a[2])?.unwrap_or(0.8);
    let edge_align = matches!(opt_str(&a[4], "align")?.as_deref(), Some("edge"));
    let lefts: Vec<f64> = positions
        .iter()
        .map(|p| if edge_align { *p } else { p - width / 2.0 })
        .collect();
    let rights: Vec<f64> = lefts.iter().map(|l| l + width).collect();
    let label = opt_label(rt, &a[7])?;
    let mut axm = ax.borrow_mut();
    let color = color_arg(&a[5])?.unwrap_or_else(|| axm.next_color());
    let n = heights.len();
    axm.artists.push(Artist::Bars(Bars {
        lefts,
        rights,
        heights,
        color,
        alpha: opt_f64(&a[8])?.unwrap_or(1.0),
        edge: color_arg(&a[6])?,
        label,
        tick_labels: cats,
    }));
    Ok(Value::object(Handle::text(format!(
        "<BarContainer object of {n} artists>"
    ))))
}

/// `hist(x, bins=10, range=None, density=False, ...)` → (counts, edges, patches), with
/// NumPy's binning (the last bin includes its right edge).
pub fn hist(rt: &mut Runtime, ax: &Ax, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "hist",
        &[
            "x",
            "bins=",
            "range=",
            "density=",
            "weights=",
            "cumulative=",
            "bottom=",
            "histtype=",
            "align=",
            "orientation=",
            "rwidth=",
            "log=",
            "color=",
            "label=",
            "alpha=",
            "edgecolor=",
        ],
    )?;
    // invariant: `x` is required, so bind() raised TypeError if it was missing
    let data: Vec<f64> = series(rt, a[0].as_ref().expect("required"), "hist")?
        .values
        .into_iter()
        .filter(|v| !v.is_nan())
        .collect();
    let (lo, hi) = match &a[2] {
        None | Some(Value::None) => {
            let lo = data.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = data.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            if data.is_empty() {
                (0.0, 1.0)
            } else if lo == hi {
                (lo - 0.5, hi + 0.5)
            } else {
                (lo, hi)
            }
        }
        Some(v) => pair(v)?,
    };
    let edges: Vec<f64> = match &a[1] {
        None | Some(Value::None) => crate::numpy::misc::even_edges(lo, hi, 10)?,
        Some(Value::Int(n)) if *n >= 1 => crate::numpy::misc::even_edges(lo, hi, *n as usize)?,
        Some(Value::Int(_)) => {
            return Err(PyErr::value_error(
                "`bins` must be positive, when an integer",
            ))
        }
        Some(v) => {
            let e = series(rt, v, "hist bins")?.values;
            if e.len() < 2 || e.windows(2).any(|w| w[1] < w[0]) {
                return Err(PyErr::value_error(
                    "`bins` must increase monotonically, when an array",
                ));
            }
            e
        }
    };
    let nb = edges.len() - 1;
    let mut counts = crate::numpy::misc::histogram_counts(&data, &edges);
    if matches!(a[3], Some(Value::Bool(true))) {
        let total: f64 = counts.iter().sum();
        for (k, c) in counts.iter_mut().enumerate() {
            let w = edges[k + 1] - edges[k];
            *c = if total > 0.0 && w > 0.0 {
                *c / (total * w)
            } else {
                0.0
            };
        }
    }
    let label = opt_label(rt, &a[13])?;
    let mut axm = ax.borrow_mut();
    let color = color_arg(&a[12])?.unwrap_or_else(|| axm.next_color());
    axm.artists.push(Artist::Bars(Bars {
        lefts: edges[..nb].to_vec(),
        rights: edges[1..].to_vec(),
        heights: counts.clone(),
        color,
        alpha: opt_f64(&a[14])?.unwrap_or(1.0),
        edge: color_arg(&a[15])?,
        label,
        tick_labels: None,
    }));
    drop(axm);
    Ok(Value::tuple(vec![
        f64_array(&counts)?,
        f64_array(&edges)?,
        Value::object(Handle::text(format!(
            "<BarContainer object of {nb} artists>"
        ))),
    ]))
}

/// `imshow(X, cmap='viridis', vmin=None, vmax=None, ...)` for 2-D arrays.
pub fn imshow(rt: &mut Runtime, ax: &Ax, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "imshow",
        &[
            "X",
            "cmap=",
            "norm=",
            "aspect=",
            "interpolation=",
            "alpha=",
            "vmin=",
            "vmax=",
            "origin=",
            "extent=",
        ],
    )?;
    // invariant: `X` is required, so bind() raised TypeError if it was missing
    let s = series(rt, a[0].as_ref().expect("required"), "imshow")?;
    if s.shape.len() != 2 {
        return Err(PyErr::type_error(format!(
            "Invalid shape {} for image data; imshow draws 2-D arrays (reshape first, e.g. a.reshape(rows, cols))",
            s.shape_text()
        )));
    }
    let cmap = match opt_str(&a[1], "cmap")? {
        Some(c) => parse_cmap(&c)?,
        None => Cmap::Viridis,
    };
    let finite = s.values.iter().cloned().filter(|v| v.is_finite());
    let given = |v: Option<f64>| v.filter(|x| x.is_finite());
    let vmin =
        given(opt_f64(&a[6])?).unwrap_or_else(|| finite.clone().fold(f64::INFINITY, f64::min));
    let vmax = given(opt_f64(&a[7])?).unwrap_or_else(|| finite.fold(f64::NEG_INFINITY, f64::max));
    // An image without finite values has no data range: use 0..1, so the colorbar's axis
    // is finite (an infinite one never finishes placing ticks).
    let (vmin, vmax) = match (vmin.is_finite(), vmax.is_finite()) {
        (true, true) => (vmin, vmax),
        (true, false) => (vmin, vmin),
        (false, true) => (vmax, vmax),
        (false, false) => (0.0, 1.0),
    };
    let mut axm = ax.borrow_mut();
    axm.artists.push(Artist::Image(Image {
        rows: s.shape[0],
        cols: s.shape[1],
        data: s.values,
        cmap,
        vmin,
        vmax,
    }));
    Ok(artist("matplotlib.image.AxesImage"))
}

/// `colorbar()`: a colour scale next to the axes' most recent image.
pub fn colorbar(ax: &Ax) -> PyResult<Value> {
    let mut axm = ax.borrow_mut();
    let idx = axm
        .artists
        .iter()
        .rposition(|a| matches!(a, Artist::Image(_)))
        .ok_or_else(|| {
            PyErr::runtime_error(
                "No mappable was found to use for colorbar creation. Call plt.imshow(...) before plt.colorbar().",
            )
        })?;
    axm.colorbar = Some(idx);
    Ok(artist("matplotlib.colorbar.Colorbar"))
}

pub fn set_title(rt: &mut Runtime, ax: &Ax, args: Args, f: &str) -> PyResult<Value> {
    let a = args.bind(
        f,
        &["label", "fontdict=", "loc=", "pad=", "fontsize=", "y="],
    )?;
    let t = opt_label(rt, &a[0])?.unwrap_or_default();
    ax.borrow_mut().title = Some(t.clone());
    Ok(text("0.5", "1.0", &t))
}

pub fn set_xlabel(rt: &mut Runtime, ax: &Ax, args: Args, f: &str) -> PyResult<Value> {
    let a = args.bind(
        f,
        &["xlabel", "fontdict=", "labelpad=", "loc=", "fontsize="],
    )?;
    let t = opt_label(rt, &a[0])?.unwrap_or_default();
    ax.borrow_mut().xlabel = Some(t.clone());
    Ok(text("0.5", "0", &t))
}

pub fn set_ylabel(rt: &mut Runtime, ax: &Ax, args: Args, f: &str) -> PyResult<Value> {
    let a = args.bind(
        f,
        &["ylabel", "fontdict=", "labelpad=", "loc=", "fontsize="],
    )?;
    let t = opt_label(rt, &a[0])?.unwrap_or_default();
    ax.borrow_mut().ylabel = Some(t.clone());
    Ok(text("0", "0.5", &t))
}

/// `xlim()`, `xlim(lo, hi)`, `xlim((lo, hi))`, `xlim(left=..., right=...)`; returns the limits.
pub fn lim(ax: &Ax, args: Args, x: bool) -> PyResult<Value> {
    let (k0, k1) = if x {
        ("left", "right")
    } else {
        ("bottom", "top")
    };
    let current = {
        let a = ax.borrow();
        let (x0, x1, y0, y1) = a.limits();
        if x {
            (x0, x1)
        } else {
            (y0, y1)
        }
    };
    let mut new = current;
    match args.pos.len() {
        0 => {}
        1 if !args.pos[0].is_none() => new = pair(&args.pos[0])?,
        1 => {}
        2 => {
            if !args.pos[0].is_none() {
                new.0 = args.pos[0].as_f64()?;
            }
            if !args.pos[1].is_none() {
                new.1 = args.pos[1].as_f64()?;
            }
        }
        _ => return Err(PyErr::type_error("limits take at most two values")),
    }
    for (k, v) in &args.kw {
        match &**k {
            n if n == k0 || n == if x { "xmin" } else { "ymin" } => new.0 = v.as_f64()?,
            n if n == k1 || n == if x { "xmax" } else { "ymax" } => new.1 = v.as_f64()?,
            other => {
                return Err(PyErr::type_error(format!(
                    "got an unexpected keyword argument '{other}'"
                )))
            }
        }
    }
    if !args.pos.is_empty() || !args.kw.is_empty() {
        let mut a = ax.borrow_mut();
        if x {
            a.xlim = Some(new);
        } else {
            a.ylim = Some(new);
        }
    }
    Ok(Value::tuple(vec![Value::Float(new.0), Value::Float(new.1)]))
}

pub fn set_scale(ax: &Ax, args: Args, x: bool, f: &str) -> PyResult<Value> {
    let a = args.bind(f, &["value", "base="])?;
    let log = match a[0].as_ref().and_then(|v| v.as_str()) {
        Some("log") => true,
        Some("linear") => false,
        _ => {
            return Err(PyErr::value_error(format!(
                "{f}: only 'linear' and 'log' scales are supported"
            )))
        }
    };
    let mut axm = ax.borrow_mut();
    if x {
        axm.xlog = log;
    } else {
        axm.ylog = log;
    }
    Ok(Value::None)
}

pub fn grid(ax: &Ax, args: Args) -> PyResult<Value> {
    let visible = match args.pos.first().or_else(|| args.kwarg("visible")) {
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::None) | None => None,
        Some(_) => Some(true),
    };
    let mut a = ax.borrow_mut();
    a.grid = match visible {
        Some(v) => v,
        // `grid()` with only style keywords turns it on; bare `grid()` toggles.
        None if args.kw.iter().any(|(k, _)| &**k != "visible") => true,
        None => !a.grid,
    };
    Ok(Value::None)
}

pub fn legend(rt: &mut Runtime, ax: &Ax, _args: Args) -> PyResult<Value> {
    let has_labels = ax.borrow().artists.iter().any(|a| match a {
        Artist::Line(l) => l.label.is_some(),
        Artist::Scatter(s) => s.label.is_some(),
        Artist::Bars(b) => b.label.is_some(),
        Artist::Image(_) => false,
    });
    if !has_labels {
        rt.warn(
            "UserWarning",
            "No artists with labels found to put in legend.  Note that artists whose label start with an underscore are ignored when legend() is called with no argument.",
            "",
        )?;
    }
    ax.borrow_mut().legend = true;
    Ok(artist("matplotlib.legend.Legend"))
}
