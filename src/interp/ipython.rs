//! `IPython.display`: display, update_display, clear_output and the rich objects (HTML,
//! Markdown, JSON, Image) with the MIME bundles IPython sends.

use std::any::Any;
use std::rc::Rc;

use base64::Engine as _;
use serde_json::{Map, Value as Json};

use crate::interp::repr::pretty;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::signature::{Bound, Params};
use crate::py::value::{Args, Module, Object, Value};

/// A rich display object: a fixed MIME bundle.
pub struct RichObj {
    pub class: &'static str,
    pub data: Map<String, Json>,
    pub metadata: Map<String, Json>,
}

impl Object for RichObj {
    fn type_name(&self) -> String {
        self.class.into()
    }
    fn module_name(&self) -> String {
        "IPython.core.display".into()
    }
    fn mime_bundle(&self, _rt: &mut Runtime) -> PyResult<Option<Map<String, Json>>> {
        Ok(Some(self.data.clone()))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "data" => self
                .data
                .values()
                .next()
                .and_then(|v| v.as_str())
                .map(Value::str),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The handle `display(obj, display_id=True)` returns.
pub struct DisplayHandle {
    pub id: String,
}

impl Object for DisplayHandle {
    fn type_name(&self) -> String {
        "DisplayHandle".into()
    }
    fn module_name(&self) -> String {
        "IPython.core.display_functions".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<DisplayHandle display_id={}>", self.id))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let id = self.id.clone();
        Ok(match name {
            "display_id" => Some(Value::str(&self.id)),
            "update" => Some(Value::builtin(
                "DisplayHandle.update",
                "update(obj)",
                "Replace the output shown under this handle.",
                move |rt, a| {
                    let obj = a.pos.first().cloned().unwrap_or(Value::None);
                    let (data, md) = bundle(rt, &obj)?;
                    rt.frontend.display(data, md, Some(&id), true);
                    Ok(Value::None)
                },
            )),
            "display" => Some(Value::builtin(
                "DisplayHandle.display",
                "display(obj)",
                "Show obj under this handle.",
                move |rt, a| {
                    let obj = a.pos.first().cloned().unwrap_or(Value::None);
                    let (data, md) = bundle(rt, &obj)?;
                    rt.frontend.display(data, md, Some(&id), false);
                    Ok(Value::None)
                },
            )),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The MIME bundle (data, metadata) for a value: `text/plain` from IPython's pretty printer
/// plus whatever richer types the object provides.
pub fn bundle(rt: &mut Runtime, v: &Value) -> PyResult<(Map<String, Json>, Map<String, Json>)> {
    let mut data = Map::new();
    if let Value::Object(o) = v {
        if let Some(rich) = o.mime_bundle(rt)? {
            data = rich;
        }
    }
    if !data.contains_key("text/plain") {
        data.insert("text/plain".into(), Json::String(pretty(rt, v)?));
    }
    let metadata = v
        .downcast::<RichObj>()
        .map(|r| r.metadata.clone())
        .unwrap_or_default();
    Ok((data, metadata))
}

fn new_display_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// IPython's `display` parameters; the builtin `display` and `IPython.display.display`
/// both bind them.
const DISPLAY_SIG: &str = "*objs, include=None, exclude=None, metadata=None, transient=None, \
     display_id=None, raw=False, clear=False, **kwargs";

/// The builtin `display`, bound as `IPython.display.display` is.
pub fn display_builtin(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    static PARAMS: std::sync::LazyLock<Params> =
        std::sync::LazyLock::new(|| Params::parse(DISPLAY_SIG));
    display(rt, PARAMS.bind(Function, "builtins", "display", a)?)
}

/// `display(*objs, display_id=None, clear=False)`: the other keywords are accepted and
/// have no effect on a notebook's output.
fn display(rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let id = match b.get(4) {
        None | Some(Value::None) | Some(Value::Bool(false)) => None,
        Some(Value::Bool(true)) => Some(new_display_id()),
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(other) => Some(crate::interp::repr::to_str(rt, other)?),
    };
    if rt.truthy(&b.value(6))? {
        rt.frontend.clear_output(true);
    }
    for obj in &b.rest {
        let (data, md) = bundle(rt, obj)?;
        rt.frontend.display(data, md, id.as_deref(), false);
    }
    Ok(match id {
        Some(id) => Value::object(DisplayHandle { id }),
        None => Value::None,
    })
}

/// The text of `HTML(data=None, url=None, filename=None, metadata=None)` and its kin:
/// `data`, else the contents of `filename`.
fn text_arg(rt: &mut Runtime, b: &Bound, fname: &str) -> PyResult<String> {
    match (b.get(0), b.get(2)) {
        (Some(Value::Str(s)), _) => Ok(s.to_string()),
        (Some(other), _) => crate::interp::repr::to_str(rt, other),
        (None, Some(Value::Str(path))) => std::fs::read_to_string(&**path)
            .map_err(|e| PyErr::new("FileNotFoundError", format!("{path}: {e}"))),
        _ => Err(PyErr::type_error(format!(
            "{fname}() needs the content as its first argument"
        ))),
    }
}

fn rich(class: &'static str, mime: &str, payload: Json, plain: String) -> Value {
    rich_md(class, mime, payload, plain, Map::new())
}

/// A rich object whose MIME type carries metadata (`{mime: md}` in the bundle, as IPython
/// sends it), when `md` is not empty.
fn rich_md(
    class: &'static str,
    mime: &str,
    payload: Json,
    plain: String,
    md: Map<String, Json>,
) -> Value {
    let mut data = Map::new();
    data.insert(mime.into(), payload);
    data.insert("text/plain".into(), Json::String(plain));
    let mut metadata = Map::new();
    if !md.is_empty() {
        metadata.insert(mime.into(), Json::Object(md));
    }
    Value::object(RichObj {
        class,
        data,
        metadata,
    })
}

/// The user's `metadata=` dict, merged over the object's own entries as IPython does.
fn user_metadata(
    rt: &mut Runtime,
    metadata: Option<&Value>,
    md: &mut Map<String, Json>,
) -> PyResult<()> {
    match metadata {
        None | Some(Value::None) => Ok(()),
        Some(v) => match to_json(rt, v)? {
            Json::Object(m) => {
                md.extend(m);
                Ok(())
            }
            _ => Err(PyErr::type_error("metadata= must be a dict")),
        },
    }
}

pub fn module() -> Rc<Module> {
    let m = Module::new("IPython.display", "Rich output in the notebook.");
    m.def_shown(
        Function,
        "display",
        DISPLAY_SIG,
        "display(*objs, display_id=None)",
        "Show objects as rich output; display_id=True returns a handle whose update() replaces it.",
        display,
    );
    m.def(
        Function,
        "update_display",
        "obj, *, display_id, **kwargs",
        "Replace the output shown with the given display_id.",
        |rt, b| {
            let obj = b.value(0);
            let id = match &b.value(1) {
                Value::Str(s) => s.to_string(),
                other => crate::interp::repr::to_str(rt, other)?,
            };
            let (data, md) = bundle(rt, &obj)?;
            rt.frontend.display(data, md, Some(&id), true);
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "clear_output",
        "wait=False",
        "Clear the cell's output; with wait=True, only when new output arrives.",
        |rt, b| {
            let wait = rt.truthy(&b.value(0))?;
            rt.frontend.clear_output(wait);
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "HTML",
        "data=None, url=None, filename=None, metadata=None",
        "HTML shown as rich output.",
        |rt, b| {
            let s = text_arg(rt, &b, "HTML")?;
            Ok(rich(
                "HTML",
                "text/html",
                Json::String(s),
                "<IPython.core.display.HTML object>".into(),
            ))
        },
    );
    m.def(
        Function,
        "Markdown",
        "data=None, url=None, filename=None, metadata=None",
        "Markdown shown as rich output.",
        |rt, b| {
            let s = text_arg(rt, &b, "Markdown")?;
            Ok(rich(
                "Markdown",
                "text/markdown",
                Json::String(s),
                "<IPython.core.display.Markdown object>".into(),
            ))
        },
    );
    m.def(
        Function,
        "Latex",
        "data=None, url=None, filename=None, metadata=None",
        "LaTeX shown as rich output.",
        |rt, b| {
            let s = text_arg(rt, &b, "Latex")?;
            Ok(rich(
                "Latex",
                "text/latex",
                Json::String(s),
                "<IPython.core.display.Latex object>".into(),
            ))
        },
    );
    m.def(
        Function,
        "JSON",
        "data=None, url=None, filename=None, expanded=False, metadata=None, root='root', **kwargs",
        "A JSON tree shown as rich output; expanded= opens every level, root= names the top.",
        |rt, b| {
            let json = to_json(rt, &b.value(0))?;
            let expanded = rt.truthy(&b.value(3))?;
            let root = crate::interp::repr::to_str(rt, &b.value(5))?;
            let mut md = Map::new();
            md.insert("expanded".into(), Json::Bool(expanded));
            md.insert("root".into(), Json::String(root));
            user_metadata(rt, b.get(4), &mut md)?;
            Ok(rich_md(
                "JSON",
                "application/json",
                json,
                "<IPython.core.display.JSON object>".into(),
                md,
            ))
        },
    );
    m.def(
        Function,
        "Image",
        "data=None, url=None, filename=None, format=None, embed=None, width=None, height=None, \
         retina=False, unconfined=False, metadata=None, alt=None",
        "A PNG image from bytes or a file; width= and height= set its displayed size.",
        |rt, b| {
            let bytes: Vec<u8> = match (b.get(0), b.get(2)) {
                (Some(Value::Bytes(b)), _) => b.to_vec(),
                (Some(Value::Str(path)), _) | (None, Some(Value::Str(path))) => {
                    std::fs::read(&**path)
                        .map_err(|e| PyErr::new("FileNotFoundError", format!("{path}: {e}")))?
                }
                _ => return Err(PyErr::type_error("Image() needs PNG bytes or filename=")),
            };
            if !bytes.starts_with(b"\x89PNG") {
                return Err(PyErr::value_error("Image() supports PNG data only")
                    .with_hint("Save the picture as PNG, or show it with plt.imshow."));
            }
            let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes);
            // IPython puts width/height (as given) in the image's metadata.
            let mut md = Map::new();
            for (key, i) in [("width", 5), ("height", 6)] {
                match b.get(i) {
                    None | Some(Value::None) => {}
                    Some(v) => {
                        md.insert(key.into(), to_json(rt, v)?);
                    }
                }
            }
            user_metadata(rt, b.get(9), &mut md)?;
            Ok(rich_md(
                "Image",
                "image/png",
                Json::String(b64),
                "<IPython.core.display.Image object>".into(),
                md,
            ))
        },
    );
    Rc::new(m)
}

/// A JSON value from Python data (dict/list/str/numbers/bool/None). A container met again
/// inside itself is Python's `json` ValueError "Circular reference detected"; nesting
/// deeper than the recursion limit is a RecursionError.
pub fn to_json(rt: &mut Runtime, v: &Value) -> PyResult<Json> {
    to_json_in(rt, v, &mut Vec::new())
}

fn to_json_in(rt: &mut Runtime, v: &Value, active: &mut Vec<usize>) -> PyResult<Json> {
    let key = match v {
        Value::List(l) => Rc::as_ptr(l) as *const () as usize,
        Value::Dict(d) => Rc::as_ptr(d) as *const () as usize,
        Value::Tuple(t) => Rc::as_ptr(t) as *const () as usize,
        _ => 0,
    };
    if key != 0 {
        if active.contains(&key) {
            return Err(PyErr::value_error("Circular reference detected"));
        }
        if active.len() >= 1000 {
            return Err(PyErr::new(
                "RecursionError",
                "maximum recursion depth exceeded while encoding a JSON object",
            ));
        }
    }
    active.push(key);
    let r = to_json_node(rt, v, active);
    active.pop();
    r
}

fn to_json_node(rt: &mut Runtime, v: &Value, active: &mut Vec<usize>) -> PyResult<Json> {
    Ok(match v {
        Value::None => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(Json::Number)
            .unwrap_or(Json::Null),
        Value::Str(s) => Json::String(s.to_string()),
        Value::List(_) | Value::Tuple(_) => Json::Array(
            crate::interp::ops::iterate(rt, v)?
                .iter()
                .map(|x| to_json_in(rt, x, active))
                .collect::<PyResult<_>>()?,
        ),
        Value::Dict(d) => {
            let mut m = Map::new();
            for (k, val) in d.borrow().items() {
                m.insert(
                    crate::interp::repr::to_str(rt, &k)?,
                    to_json_in(rt, &val, active)?,
                );
            }
            Json::Object(m)
        }
        other => Json::String(crate::interp::repr::repr(rt, other)?),
    })
}
