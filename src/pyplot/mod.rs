//! `matplotlib.pyplot` drawn with plotters: the figure model, the drawing calls, styles and
//! colormaps, rendering to PNG and SVG.
//!
//! | file | holds |
//! |---|---|
//! | `axes.rs` | The drawing calls shared by `plt.*` (on the current axes) and `Axes` methods: plot, scatter, bar, hist, imshow and the labelling calls. |
//! | `band.rs` | Dense solid lines drawn as one vertical span per pixel column. |
//! | `clip.rs` | Clipping data to the neighbourhood of the view before plotters maps it to pixels, so no coordinate overflows its integer arithmetic. |
//! | `data.rs` | Turning plot arguments (host arrays, lists, scalars, device and CuPy arrays) into f64 series for drawing. |
//! | `figure.rs` | The figure model: what `pyplot` calls record, independent of how it is drawn. |
//! | `objects.rs` | The Python-visible objects of `pyplot`: figures, axes (single and in grids) and the small handles (`Line2D`, `Text`, ...) whose reprs match matplotlib's. |
//! | `render.rs` | Drawing a `FigureData` with plotters onto any backend (RGB bitmap or SVG), and encoding the bitmap as PNG. |
//! | `style.rs` | Colours, line styles and markers as matplotlib spells them: `'r-'`, `'o'`, `'--'`, `'C3'`, `'tab:orange'`, `'#1f77b4'`. |
//!
//! `mod.rs`:
//! `matplotlib.pyplot`: the state machine (current figure, current axes) and the inline
//! backend's behaviour: open figures are shown at `show()` and at the end of every cell,
//! then closed.

pub mod axes;
pub mod band;
pub mod clip;
pub mod data;
pub mod figure;
pub mod objects;
pub mod render;
pub mod style;

use std::cell::RefCell;
use std::rc::Rc;

use base64::Engine as _;
use serde_json::{Map, Value as Json};

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value};
use crate::pyplot::axes::Ax;
use crate::pyplot::data::{opt_f64, pair};
use crate::pyplot::figure::{AxesData, FigureData};
use crate::pyplot::objects::{axes_call, AxesGrid, AxesObj, FigureObj};

/// matplotlib's inline backend default: 6.4 x 4.8 inches at 100 dpi.
const DEFAULT_SIZE: (f64, f64) = (6.4, 4.8);
const DEFAULT_DPI: f64 = 100.0;

/// The open figures of a session, in creation order, and which one is current.
#[derive(Default)]
pub struct PyplotState {
    figures: Vec<Rc<RefCell<FigureData>>>,
    current: Option<usize>,
    next_number: u32,
    hook_installed: bool,
}

fn state(rt: &mut Runtime) -> &mut PyplotState {
    if !rt.state::<PyplotState>().hook_installed {
        rt.on_end_of_cell("pyplot", flush_figures);
        rt.state::<PyplotState>().hook_installed = true;
    }
    rt.state::<PyplotState>()
}

fn new_figure(rt: &mut Runtime, size: (f64, f64), dpi: f64) -> Rc<RefCell<FigureData>> {
    let st = state(rt);
    st.next_number += 1;
    let fig = Rc::new(RefCell::new(FigureData::new(
        st.next_number,
        size.0,
        size.1,
        dpi,
    )));
    st.figures.push(fig.clone());
    st.current = Some(st.figures.len() - 1);
    fig
}

pub fn gcf(rt: &mut Runtime) -> Rc<RefCell<FigureData>> {
    let st = state(rt);
    if let Some(i) = st.current {
        return st.figures[i].clone();
    }
    new_figure(rt, DEFAULT_SIZE, DEFAULT_DPI)
}

/// The figure's current axes, creating a single one if it has none.
pub fn figure_gca(fig: &Rc<RefCell<FigureData>>) -> Ax {
    let mut f = fig.borrow_mut();
    if f.axes.is_empty() {
        f.axes.push(Rc::new(RefCell::new(AxesData::default())));
        f.current = 0;
    }
    f.axes[f.current.min(f.axes.len() - 1)].clone()
}

/// The axes holding the current image (`plt.gci()`): the current axes if it has one,
/// otherwise the last axes of the figure that does.
pub fn image_axes(fig: &Rc<RefCell<FigureData>>) -> Ax {
    let cur = figure_gca(fig);
    if cur.borrow().has_image() {
        return cur;
    }
    let f = fig.borrow();
    f.axes
        .iter()
        .rev()
        .find(|a| a.borrow().has_image())
        .cloned()
        .unwrap_or(cur)
}

pub fn gca(rt: &mut Runtime) -> Ax {
    let fig = gcf(rt);
    figure_gca(&fig)
}

/// The display bundle of a figure: PNG always, SVG too when it is the smaller of the two.
pub fn figure_bundle(fig: &FigureData) -> PyResult<Map<String, Json>> {
    let png = render::render_png(fig)
        .map_err(|e| PyErr::runtime_error(format!("could not draw the figure: {e}")))?;
    let b64 = base64::engine::general_purpose::STANDARD.encode(&png);
    let mut data = Map::new();
    if !fig.axes.iter().any(|a| a.borrow().has_image())
        && fig.axes.iter().all(|a| small_for_svg(&a.borrow()))
    {
        if let Ok(svg) = render::render_svg(fig) {
            if svg.len() < b64.len() {
                data.insert("image/svg+xml".into(), Json::String(svg));
            }
        }
    }
    data.insert("image/png".into(), Json::String(b64));
    data.insert("text/plain".into(), Json::String(fig.text_repr()));
    Ok(data)
}

/// Only consider SVG for figures with few drawn points (SVG grows with every point).
fn small_for_svg(ax: &AxesData) -> bool {
    use crate::pyplot::figure::Artist;
    let n: usize = ax
        .artists
        .iter()
        .map(|a| match a {
            Artist::Line(l) => l.x.len(),
            Artist::Scatter(s) => s.x.len(),
            Artist::Bars(b) => b.heights.len(),
            Artist::Image(im) => im.rows * im.cols,
        })
        .sum();
    n <= 2000
}

fn show_figure(rt: &mut Runtime, fig: &Rc<RefCell<FigureData>>) -> PyResult<()> {
    let data = figure_bundle(&fig.borrow())?;
    rt.frontend.display(data, Map::new(), None, false);
    Ok(())
}

/// Show every open figure that has something in it, and close them all (the inline
/// backend's `flush_figures`).
pub fn flush_figures(rt: &mut Runtime) -> PyResult<()> {
    let figs = std::mem::take(&mut rt.state::<PyplotState>().figures);
    rt.state::<PyplotState>().current = None;
    let mut first_err = None;
    for fig in figs {
        if fig.borrow().axes.is_empty() {
            continue;
        }
        if let Err(e) = show_figure(rt, &fig) {
            first_err.get_or_insert(e);
        }
    }
    first_err.map_or(Ok(()), Err)
}

pub fn savefig(rt: &mut Runtime, fig: &Rc<RefCell<FigureData>>, a: Args) -> PyResult<Value> {
    let b = a.bind(
        "savefig",
        &[
            "fname",
            "dpi=",
            "format=",
            "bbox_inches=",
            "transparent=",
            "facecolor=",
            "pad_inches=",
        ],
    )?;
    let path = match &b[0] {
        Some(Value::Str(s)) => s.to_string(),
        _ => {
            return Err(PyErr::type_error(
                "savefig() needs a file name such as 'waveform.png'",
            ))
        }
    };
    let format = match &b[2] {
        Some(Value::Str(f)) => f.to_ascii_lowercase(),
        _ => std::path::Path::new(&path)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_else(|| "png".into()),
    };
    let saved_dpi = fig.borrow().dpi;
    if let Some(d) = opt_f64(&b[1])? {
        // The same size limit as figure(): the dpi decides how many pixels are drawn.
        let f = fig.borrow();
        size_args(
            &Some(Value::tuple(vec![
                Value::Float(f.width_in),
                Value::Float(f.height_in),
            ])),
            &Some(Value::Float(d)),
        )?;
        drop(f);
        fig.borrow_mut().dpi = d;
    }
    let bytes = match format.as_str() {
        "png" => render::render_png(&fig.borrow()),
        "svg" => render::render_svg(&fig.borrow()).map(String::into_bytes),
        other => {
            fig.borrow_mut().dpi = saved_dpi;
            return Err(PyErr::value_error(format!(
                "Format '{other}' is not supported (supported formats: png, svg)"
            )));
        }
    };
    fig.borrow_mut().dpi = saved_dpi;
    let bytes =
        bytes.map_err(|e| PyErr::runtime_error(format!("could not draw the figure: {e}")))?;
    let _ = rt;
    std::fs::write(&path, bytes)
        .map_err(|e| PyErr::new("OSError", format!("could not write '{path}': {e}")))?;
    Ok(Value::None)
}

/// The largest subplot grid (rows x columns) a figure holds.
const MAX_SUBPLOTS: i64 = 10_000;

/// `add_subplot(nrows, ncols, index)` / `add_subplot(221)` / `subplot(...)`.
pub fn add_subplot(fig: &Rc<RefCell<FigureData>>, a: Args) -> PyResult<Value> {
    let (r, c, i) = match a.pos.as_slice() {
        [] => (1, 1, 1),
        [Value::Int(n)] if (111..=999).contains(n) => (n / 100, (n / 10) % 10, n % 10),
        [r, c, i] => (r.as_index()?, c.as_index()?, i.as_index()?),
        _ => {
            return Err(PyErr::value_error(
                "subplot() takes (nrows, ncols, index) or a three-digit number such as 211",
            ))
        }
    };
    // One Axes per grid cell is kept, so the grid is bounded (matplotlib's is too, in
    // practice: a figure of a million subplots cannot be drawn).
    let cells = r
        .checked_mul(c)
        .filter(|&n| (1..=MAX_SUBPLOTS).contains(&n));
    if r < 1 || c < 1 || cells.is_none() {
        return Err(PyErr::value_error(format!(
            "nbcuda draws at most {MAX_SUBPLOTS} subplots in one figure; got a grid of {r} x {c}"
        )));
    }
    if i < 1 || i > r * c {
        return Err(PyErr::value_error(format!(
            "num must be an integer with 1 <= num <= {}, not {i}",
            r * c
        )));
    }
    let mut f = fig.borrow_mut();
    if f.rows as i64 != r || f.cols as i64 != c || f.axes.len() != (r * c) as usize {
        f.rows = r as usize;
        f.cols = c as usize;
        f.axes.resize_with((r * c) as usize, Default::default); // bounded: <= MAX_SUBPLOTS
    }
    f.current = (i - 1) as usize;
    let ax = f.axes[f.current].clone();
    drop(f);
    Ok(AxesObj::value(fig, &ax, (i - 1) as usize))
}

fn size_args(figsize: &Option<Value>, dpi: &Option<Value>) -> PyResult<((f64, f64), f64)> {
    let size = match figsize {
        None | Some(Value::None) => DEFAULT_SIZE,
        Some(v) => pair(v)?,
    };
    let dpi = opt_f64(dpi)?.unwrap_or(DEFAULT_DPI);
    if !(size.0 > 0.0 && size.1 > 0.0 && dpi > 0.0)
        || size.0 * dpi > 8000.0
        || size.1 * dpi > 8000.0
    {
        return Err(PyErr::value_error(format!(
            "figure size must be positive and at most 8000 pixels a side; got figsize=({}, {}) at dpi={dpi}",
            size.0, size.1
        )));
    }
    Ok((size, dpi))
}

/// Register `plt.<name>` as the same-named call on the current axes.
fn on_current_axes(m: &Module, name: &'static str, method: &'static str, sig: &str, doc: &str) {
    // The Axes method binds the arguments by name itself.
    m.def_shown(Function, name, "*args, **kwargs", sig, doc, move |rt, b| {
        let ax = gca(rt);
        axes_call(rt, &ax, method, b.forward())
    });
}

pub fn module() -> Rc<Module> {
    let m = Module::new(
        "matplotlib.pyplot",
        "Charts drawn with plotters, shown inline.",
    );
    for (name, sig, doc) in [
        (
            "plot",
            "plot([x], y, [fmt], *, label=None, color=None, linewidth=None, ...)",
            "Plot y against x as lines and/or markers.",
        ),
        (
            "semilogy",
            "semilogy([x], y, [fmt], ...)",
            "Plot with a log-scale y axis.",
        ),
        (
            "semilogx",
            "semilogx([x], y, [fmt], ...)",
            "Plot with a log-scale x axis.",
        ),
        (
            "loglog",
            "loglog([x], y, [fmt], ...)",
            "Plot with log scales on both axes.",
        ),
        (
            "scatter",
            "scatter(x, y, s=None, c=None, marker='o', alpha=None, label=None)",
            "A scatter plot.",
        ),
        (
            "bar",
            "bar(x, height, width=0.8, color=None, label=None)",
            "A bar chart; x may be category names.",
        ),
        (
            "hist",
            "hist(x, bins=10, range=None, density=False)",
            "A histogram; returns (counts, edges, patches).",
        ),
        (
            "imshow",
            "imshow(X, cmap='viridis', vmin=None, vmax=None)",
            "Show a 2-D array as an image.",
        ),
        ("legend", "legend()", "Show the labels of the current axes."),
        (
            "grid",
            "grid(visible=None)",
            "Turn the grid of the current axes on or off.",
        ),
    ] {
        on_current_axes(&m, name, name, sig, doc);
    }
    for (name, method, sig) in [
        ("title", "set_title", "title(label)"),
        ("xlabel", "set_xlabel", "xlabel(xlabel)"),
        ("ylabel", "set_ylabel", "ylabel(ylabel)"),
        ("xlim", "xlim", "xlim(*args, **kwargs)"),
        ("ylim", "ylim", "ylim(*args, **kwargs)"),
        ("xscale", "xscale", "xscale(value)"),
        ("yscale", "yscale", "yscale(value)"),
        ("cla", "cla", "cla()"),
    ] {
        on_current_axes(
            &m,
            name,
            method,
            sig,
            "As the Axes method of the same name, on the current axes.",
        );
    }
    m.def(
        Function,
        "figure",
        "num=None, figsize=None, dpi=None, *, facecolor=None, edgecolor=None, frameon=True, clear=False",
        "Create a new figure and make it current.",
        |rt, b| {
            if let Some(Value::Int(n)) = &b[0] {
                let st = state(rt);
                if let Some(i) = st
                    .figures
                    .iter()
                    .position(|f| f.borrow().number as i64 == *n)
                {
                    st.current = Some(i);
                    return Ok(FigureObj::value(&st.figures[i]));
                }
            }
            let (size, dpi) = size_args(&b[1], &b[2])?;
            let fig = new_figure(rt, size, dpi);
            Ok(FigureObj::value(&fig))
        },
    );
    // matplotlib passes figsize= and dpi= on to the figure (`**fig_kw`); they are
    // declared here so other figure keywords raise TypeError rather than being ignored.
    m.def_shown(
        Function,
        "subplots",
        "nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True, width_ratios=None, \
         height_ratios=None, subplot_kw=None, gridspec_kw=None, figsize=None, dpi=None, \
         constrained_layout=None, layout=None",
        "subplots(nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True, \
         width_ratios=None, height_ratios=None, subplot_kw=None, gridspec_kw=None, **fig_kw)",
        "A figure and a grid of axes: returns (fig, ax).",
        |rt, b| {
            let rows = b[0]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(1);
            let cols = b[1]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(1);
            if !(1..=20).contains(&rows) || !(1..=20).contains(&cols) {
                return Err(PyErr::value_error(format!(
                    "Number of rows and columns must be between 1 and 20, not {rows} and {cols}"
                )));
            }
            let (size, dpi) = size_args(&b[9], &b[10])?;
            let fig = new_figure(rt, size, dpi);
            let axes: Vec<Ax> = (0..rows * cols)
                .map(|_| Rc::new(RefCell::new(AxesData::default())))
                .collect();
            {
                let mut f = fig.borrow_mut();
                f.rows = rows as usize;
                f.cols = cols as usize;
                f.axes = axes.clone();
                f.current = 0;
            }
            let items: Vec<Value> = axes
                .iter()
                .enumerate()
                .map(|(i, ax)| AxesObj::value(&fig, ax, i))
                .collect();
            let squeeze = !matches!(b[4], Some(Value::Bool(false)));
            let ax_value = if squeeze && rows * cols == 1 {
                items[0].clone()
            } else {
                let shape = if squeeze && (rows == 1 || cols == 1) {
                    vec![(rows * cols) as usize]
                } else {
                    vec![rows as usize, cols as usize]
                };
                Value::object(AxesGrid {
                    fig: fig.clone(),
                    shape,
                    items,
                })
            };
            Ok(Value::tuple(vec![FigureObj::value(&fig), ax_value]))
        },
    );
    m.def_shown(
        Function,
        "subplot",
        "*args, **kwargs",
        "subplot(nrows, ncols, index)",
        "Make a grid position of the current figure the current axes.",
        |rt, b| {
            let fig = gcf(rt);
            add_subplot(&fig, b.forward())
        },
    );
    m.def(Function, "gcf", "", "The current figure.", |rt, _| {
        let f = gcf(rt);
        Ok(FigureObj::value(&f))
    });
    m.def(Function, "gca", "", "The current axes.", |rt, _| {
        let fig = gcf(rt);
        let ax = figure_gca(&fig);
        let i = fig.borrow().current;
        Ok(AxesObj::value(&fig, &ax, i))
    });
    m.def_shown(
        Function,
        "colorbar",
        "mappable=None, cax=None, ax=None, **kwargs",
        "colorbar(mappable=None)",
        "A colour scale next to the current image.",
        |rt, _| {
            let fig = gcf(rt);
            let ax = image_axes(&fig);
            crate::pyplot::axes::colorbar(&ax)
        },
    );
    m.def_shown(
        Function,
        "suptitle",
        "t, *, fontsize=None, y=None",
        "suptitle(t, **kwargs)",
        "A title above all axes of the current figure.",
        |rt, b| {
            // invariant: `t` is required, so bind() raised TypeError if it was missing
            let t = rt.to_str(b[0].as_ref().expect("required"))?;
            gcf(rt).borrow_mut().suptitle = Some(t.clone());
            Ok(crate::pyplot::objects::text("0.5", "0.98", &t))
        },
    );
    m.def(
        Function,
        "show",
        "*, block=None",
        "Show every open figure now (and close them).",
        |rt, _| {
            flush_figures(rt)?;
            Ok(Value::None)
        },
    );
    m.def_shown(
        Function,
        "savefig",
        "*args, **kwargs",
        "savefig(fname, dpi=None, format=None)",
        "Write the current figure to a PNG or SVG file.",
        |rt, b| {
            let fig = gcf(rt);
            savefig(rt, &fig, b.forward())
        },
    );
    m.def(
        Function,
        "close",
        "fig=None",
        "Close the current figure, a given one, or 'all'.",
        |rt, b| {
            let st = state(rt);
            match &b[0] {
                Some(Value::Str(s)) if &**s == "all" => st.figures.clear(),
                None | Some(Value::None) => {
                    if let Some(i) = st.current {
                        st.figures.remove(i);
                    }
                }
                Some(v) => {
                    let target = match v {
                        Value::Int(n) => Some(*n as u32),
                        Value::Object(o) => o
                            .as_any()
                            .downcast_ref::<FigureObj>()
                            .map(|f| f.fig.borrow().number),
                        _ => None,
                    };
                    let n = target.ok_or_else(|| {
                        PyErr::type_error("close() takes a Figure, a figure number or 'all'")
                    })?;
                    st.figures.retain(|f| f.borrow().number != n);
                }
            }
            st.current = if st.figures.is_empty() {
                None
            } else {
                Some(st.figures.len() - 1)
            };
            Ok(Value::None)
        },
    );
    m.def(Function, "clf", "", "Clear the current figure.", |rt, _| {
        let fig = gcf(rt);
        let mut f = fig.borrow_mut();
        f.axes.clear();
        f.rows = 1;
        f.cols = 1;
        f.suptitle = None;
        Ok(Value::None)
    });
    for (name, sig) in [
        (
            "tight_layout",
            "*, pad=1.08, h_pad=None, w_pad=None, rect=None",
        ),
        ("ion", ""),
        ("ioff", ""),
        ("draw", ""),
    ] {
        m.def(
            Function,
            name,
            sig,
            "Accepted for compatibility; layout is automatic.",
            |_, _| Ok(Value::None),
        );
    }
    Rc::new(m)
}
