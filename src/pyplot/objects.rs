//! The Python-visible objects of `pyplot`: figures, axes (single and in grids) and the
//! small handles (`Line2D`, `Text`, ...) whose reprs match matplotlib's.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::{Map, Value as Json};

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};
use crate::pyplot::axes::{self, Ax};
use crate::pyplot::figure::FigureData;

thread_local! {
    static NEXT_ADDRESS: Cell<u64> = const { Cell::new(0x7f3a_1c2e_4000) };
}

/// An address-like id for reprs such as `<matplotlib.lines.Line2D at 0x7f…>`.
fn next_address() -> u64 {
    NEXT_ADDRESS.with(|a| {
        let v = a.get();
        a.set(v + 0x130);
        v
    })
}

/// Python's repr of a string.
pub fn py_str_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// An object that is only ever shown (a `Line2D`, a `Text`, a `BarContainer`).
pub struct Handle {
    repr: String,
    class: String,
}

impl Handle {
    pub fn text(repr: String) -> Handle {
        let class = repr
            .trim_start_matches('<')
            .split([' ', '('])
            .next()
            .unwrap_or("object")
            .rsplit('.')
            .next()
            .unwrap_or("object")
            .to_string();
        Handle { repr, class }
    }
}

impl Object for Handle {
    fn type_name(&self) -> String {
        self.class.clone()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.repr.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A matplotlib artist handle: `<matplotlib.lines.Line2D at 0x7f…>`.
pub fn artist(kind: &str) -> Value {
    Value::object(Handle::text(format!("<{kind} at {:#x}>", next_address())))
}

/// `Text(0.5, 1.0, 'title')`.
pub fn text(x: &str, y: &str, s: &str) -> Value {
    Value::object(Handle::text(format!("Text({x}, {y}, {})", py_str_repr(s))))
}

pub struct FigureObj {
    pub fig: Rc<RefCell<FigureData>>,
}

impl FigureObj {
    pub fn value(fig: &Rc<RefCell<FigureData>>) -> Value {
        Value::object(FigureObj { fig: fig.clone() })
    }
}

impl Object for FigureObj {
    fn type_name(&self) -> String {
        "Figure".into()
    }
    fn module_name(&self) -> String {
        "matplotlib.figure".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.fig.borrow().text_repr())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let fig = self.fig.clone();
        let q = |m: &str| format!("Figure.{m}");
        Ok(Some(match name {
            "suptitle" => Value::builtin(
                &q(name),
                "suptitle(t)",
                "Title above all axes.",
                move |rt, a| {
                    let b = a.bind("suptitle", &["t", "fontsize=", "y="])?;
                    // invariant: `t` is required, so bind() raised TypeError if it was missing
                    let t = rt.to_str(b[0].as_ref().expect("required"))?;
                    fig.borrow_mut().suptitle = Some(t.clone());
                    Ok(text("0.5", "0.98", &t))
                },
            ),
            "tight_layout" | "show" | "set_tight_layout" => {
                Value::builtin(&q(name), "()", "Accepted for compatibility.", |_, _| {
                    Ok(Value::None)
                })
            }
            "savefig" => Value::builtin(
                &q(name),
                "savefig(fname, dpi=None, format=None)",
                "Write the figure to a PNG or SVG file.",
                move |rt, a| crate::pyplot::savefig(rt, &fig, a),
            ),
            "axes" => Value::list(
                self.fig
                    .borrow()
                    .axes
                    .iter()
                    .enumerate()
                    .map(|(i, ax)| AxesObj::value(&self.fig, ax, i))
                    .collect(),
            ),
            "number" => Value::Int(self.fig.borrow().number as i64),
            "dpi" => Value::Float(self.fig.borrow().dpi),
            "set_size_inches" => Value::builtin(
                &q(name),
                "set_size_inches(w, h)",
                "Resize the figure.",
                move |_, a| {
                    let b = a.bind("set_size_inches", &["w", "h="])?;
                    let (w, h) = match (&b[0], &b[1]) {
                        (Some(w), Some(h)) => (w.as_f64()?, h.as_f64()?),
                        (Some(t), None) => crate::pyplot::data::pair(t)?,
                        _ => unreachable!("w is required"),
                    };
                    // figure()'s limit: the size decides how many pixels are drawn.
                    let size = Some(Value::tuple(vec![Value::Float(w), Value::Float(h)]));
                    let dpi = Some(Value::Float(fig.borrow().dpi));
                    crate::pyplot::size_args(&size, &dpi)?;
                    let mut f = fig.borrow_mut();
                    f.width_in = w;
                    f.height_in = h;
                    Ok(Value::None)
                },
            ),
            "add_subplot" => Value::builtin(
                &q(name),
                "add_subplot(nrows=1, ncols=1, index=1)",
                "Add axes in a grid position.",
                move |_, a| crate::pyplot::add_subplot(&fig, a),
            ),
            "gca" => {
                let ax = crate::pyplot::figure_gca(&self.fig);
                let i = self.fig.borrow().axes.len() - 1;
                Value::builtin(&q(name), "gca()", "The current axes.", move |_, _| {
                    Ok(AxesObj::value(&fig, &ax, i))
                })
            }
            "colorbar" => Value::builtin(
                &q(name),
                "colorbar(mappable=None, ax=None)",
                "A colour scale for an image.",
                move |_, _| {
                    let ax = crate::pyplot::image_axes(&fig);
                    axes::colorbar(&ax)
                },
            ),
            _ => return Ok(None),
        }))
    }
    fn dir(&self) -> Vec<String> {
        [
            "suptitle",
            "tight_layout",
            "savefig",
            "axes",
            "set_size_inches",
            "add_subplot",
            "gca",
            "colorbar",
            "number",
            "dpi",
            "show",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
    fn mime_bundle(&self, _rt: &mut Runtime) -> PyResult<Option<Map<String, Json>>> {
        Ok(Some(crate::pyplot::figure_bundle(&self.fig.borrow())?))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub struct AxesObj {
    pub fig: Rc<RefCell<FigureData>>,
    pub ax: Ax,
}

impl AxesObj {
    pub fn value(fig: &Rc<RefCell<FigureData>>, ax: &Ax, _index: usize) -> Value {
        Value::object(AxesObj {
            fig: fig.clone(),
            ax: ax.clone(),
        })
    }
}

/// matplotlib ≥ 3.8 shows axes as `<Axes: title={'center': 'T'}, xlabel='x', ylabel='y'>`.
fn axes_repr(ax: &Ax) -> String {
    let a = ax.borrow();
    let mut parts = Vec::new();
    if let Some(t) = &a.title {
        parts.push(format!("title={{'center': {}}}", py_str_repr(t)));
    }
    if let Some(x) = &a.xlabel {
        parts.push(format!("xlabel={}", py_str_repr(x)));
    }
    if let Some(y) = &a.ylabel {
        parts.push(format!("ylabel={}", py_str_repr(y)));
    }
    format!("<Axes: {}>", parts.join(", "))
}

const AXES_METHODS: &[&str] = &[
    "plot",
    "scatter",
    "bar",
    "hist",
    "imshow",
    "set_title",
    "set_xlabel",
    "set_ylabel",
    "set_xlim",
    "set_ylim",
    "get_xlim",
    "get_ylim",
    "set_xscale",
    "set_yscale",
    "legend",
    "grid",
    "semilogy",
    "semilogx",
    "loglog",
    "cla",
    "figure",
];

impl Object for AxesObj {
    fn type_name(&self) -> String {
        "Axes".into()
    }
    fn module_name(&self) -> String {
        "matplotlib.axes".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(axes_repr(&self.ax))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if name == "figure" {
            return Ok(Some(FigureObj::value(&self.fig)));
        }
        if !AXES_METHODS.contains(&name) {
            return Ok(None);
        }
        let ax = self.ax.clone();
        let n = name.to_string();
        Ok(Some(Value::builtin(
            &format!("Axes.{name}"),
            &format!("{name}(...)"),
            "Draw on these axes, as matplotlib's Axes method of the same name.",
            move |rt, a| axes_call(rt, &ax, &n, a),
        )))
    }
    fn dir(&self) -> Vec<String> {
        AXES_METHODS.iter().map(|s| s.to_string()).collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One Axes method (also used by `plt.*` on the current axes).
pub fn axes_call(rt: &mut Runtime, ax: &Ax, name: &str, a: Args) -> PyResult<Value> {
    match name {
        "plot" => axes::plot(rt, ax, a),
        "semilogy" | "semilogx" | "loglog" => {
            let r = axes::plot(rt, ax, a)?;
            let mut m = ax.borrow_mut();
            m.ylog |= name != "semilogx";
            m.xlog |= name != "semilogy";
            Ok(r)
        }
        "scatter" => axes::scatter(rt, ax, a),
        "bar" => axes::bar(rt, ax, a),
        "hist" => axes::hist(rt, ax, a),
        "imshow" => axes::imshow(rt, ax, a),
        "set_title" | "title" => axes::set_title(rt, ax, a, name),
        "set_xlabel" | "xlabel" => axes::set_xlabel(rt, ax, a, name),
        "set_ylabel" | "ylabel" => axes::set_ylabel(rt, ax, a, name),
        "set_xlim" | "get_xlim" | "xlim" => axes::lim(ax, a, true),
        "set_ylim" | "get_ylim" | "ylim" => axes::lim(ax, a, false),
        "set_xscale" | "xscale" => axes::set_scale(ax, a, true, name),
        "set_yscale" | "yscale" => axes::set_scale(ax, a, false, name),
        "legend" => axes::legend(rt, ax, a),
        "grid" => axes::grid(ax, a),
        "cla" => {
            *ax.borrow_mut() = Default::default();
            Ok(Value::None)
        }
        other => Err(PyErr::attribute_error(format!(
            "'Axes' object has no attribute '{other}'"
        ))),
    }
}

/// The array of axes `plt.subplots(2, 2)` returns: indexable as `ax[i]`, `ax[i, j]`, iterable,
/// with `.flat`/`.ravel()`/`.flatten()`, shown as NumPy shows an object array.
pub struct AxesGrid {
    pub fig: Rc<RefCell<FigureData>>,
    pub shape: Vec<usize>,
    pub items: Vec<Value>,
}

impl AxesGrid {
    fn row(&self, i: usize) -> Value {
        if self.shape.len() == 1 {
            return self.items[i].clone();
        }
        let c = self.shape[1];
        Value::object(AxesGrid {
            fig: self.fig.clone(),
            shape: vec![c],
            items: self.items[i * c..(i + 1) * c].to_vec(),
        })
    }
    fn index(&self, v: &Value, axis: usize) -> PyResult<usize> {
        let n = self.shape[axis];
        let i = v.as_index()?;
        let j = if i < 0 { i + n as i64 } else { i };
        if j < 0 || j >= n as i64 {
            return Err(PyErr::index_error(format!(
                "index {i} is out of bounds for axis {axis} with size {n}"
            )));
        }
        Ok(j as usize)
    }
}

impl Object for AxesGrid {
    fn type_name(&self) -> String {
        "ndarray".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let reprs: Vec<String> = self
            .items
            .iter()
            .map(|v| match v {
                Value::Object(o) => o
                    .as_any()
                    .downcast_ref::<AxesObj>()
                    .map(|a| axes_repr(&a.ax))
                    .unwrap_or_default(),
                _ => String::new(),
            })
            .collect();
        if self.shape.len() == 1 {
            return Ok(format!("array([{}], dtype=object)", reprs.join(", ")));
        }
        let c = self.shape[1];
        let rows: Vec<String> = reprs
            .chunks(c)
            .map(|r| format!("[{}]", r.join(", ")))
            .collect();
        Ok(format!(
            "array([{}], dtype=object)",
            rows.join(",\n       ")
        ))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        match key {
            Value::Tuple(t) if t.len() == 2 && self.shape.len() == 2 => {
                let i = self.index(&t[0], 0)?;
                let j = self.index(&t[1], 1)?;
                Ok(self.items[i * self.shape[1] + j].clone())
            }
            Value::Tuple(_) => Err(PyErr::index_error(format!(
                "too many indices for array: array is {}-dimensional",
                self.shape.len()
            ))),
            k => Ok(self.row(self.index(k, 0)?)),
        }
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some((0..self.shape[0]).map(|i| self.row(i)).collect()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.shape[0]))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let flat = Value::object(AxesGrid {
            fig: self.fig.clone(),
            shape: vec![self.items.len()],
            items: self.items.clone(),
        });
        Ok(Some(match name {
            "flat" => flat,
            "ravel" | "flatten" => Value::builtin(
                &format!("ndarray.{name}"),
                "()",
                "All axes in one row.",
                move |_, _| Ok(flat.clone()),
            ),
            "shape" => Value::tuple(self.shape.iter().map(|&d| Value::Int(d as i64)).collect()),
            "size" => Value::Int(self.items.len() as i64),
            _ => return Ok(None),
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
