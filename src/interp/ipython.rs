//! `IPython.display`: display, update_display, clear_output and the rich objects (HTML,
//! Markdown, JSON, Image) with the MIME bundles IPython sends.

use std::any::Any;
use std::rc::Rc;

use base64::Engine as _;
use serde_json::{Map, Value as Json};

use crate::interp::repr::pretty;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
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

/// `display(*objs, display_id=None, clear=False)`.
pub fn display_builtin(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let id = match a.kwarg("display_id") {
        None | Some(Value::None) | Some(Value::Bool(false)) => None,
        Some(Value::Bool(true)) => Some(new_display_id()),
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(other) => Some(crate::interp::repr::to_str(rt, other)?),
    };
    if matches!(a.kwarg("clear"), Some(Value::Bool(true))) {
        rt.frontend.clear_output(true);
    }
    for obj in &a.pos {
        let (data, md) = bundle(rt, obj)?;
        rt.frontend.display(data, md, id.as_deref(), false);
    }
    Ok(match id {
        Some(id) => Value::object(DisplayHandle { id }),
        None => Value::None,
    })
}

fn text_arg(rt: &mut Runtime, a: &Args, fname: &str) -> PyResult<String> {
    match a.pos.first().or(a.kwarg("data")) {
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(other) => crate::interp::repr::to_str(rt, other),
        None => Err(PyErr::type_error(format!(
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
fn user_metadata(rt: &mut Runtime, a: &Args, md: &mut Map<String, Json>) -> PyResult<()> {
    match a.kwarg("metadata") {
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
    m.func(
        "display",
        "display(*objs, display_id=None)",
        "Show objects as rich output; display_id=True returns a handle whose update() replaces it.",
        display_builtin,
    );
    m.func(
        "update_display",
        "update_display(obj, *, display_id)",
        "Replace the output shown with the given display_id.",
        |rt, a| {
            let obj = a.pos.first().cloned().unwrap_or(Value::None);
            let id = match a.kwarg("display_id") {
                Some(Value::Str(s)) => s.to_string(),
                _ => return Err(PyErr::type_error("update_display() needs display_id=")),
            };
            let (data, md) = bundle(rt, &obj)?;
            rt.frontend.display(data, md, Some(&id), true);
            Ok(Value::None)
        },
    );
    m.func(
        "clear_output",
        "clear_output(wait=False)",
        "Clear the cell's output; with wait=True, only when new output arrives.",
        |rt, a| {
            let wait = match a.pos.first().or(a.kwarg("wait")) {
                Some(v) => crate::interp::ops::truthy(rt, v)?,
                None => false,
            };
            rt.frontend.clear_output(wait);
            Ok(Value::None)
        },
    );
    m.func(
        "HTML",
        "HTML(data)",
        "HTML shown as rich output.",
        |rt, a| {
            let s = text_arg(rt, &a, "HTML")?;
            Ok(rich(
                "HTML",
                "text/html",
                Json::String(s),
                "<IPython.core.display.HTML object>".into(),
            ))
        },
    );
    m.func(
        "Markdown",
        "Markdown(data)",
        "Markdown shown as rich output.",
        |rt, a| {
            let s = text_arg(rt, &a, "Markdown")?;
            Ok(rich(
                "Markdown",
                "text/markdown",
                Json::String(s),
                "<IPython.core.display.Markdown object>".into(),
            ))
        },
    );
    m.func(
        "Latex",
        "Latex(data)",
        "LaTeX shown as rich output.",
        |rt, a| {
            let s = text_arg(rt, &a, "Latex")?;
            Ok(rich(
                "Latex",
                "text/latex",
                Json::String(s),
                "<IPython.core.display.Latex object>".into(),
            ))
        },
    );
    m.func(
        "JSON",
        "JSON(data=None, expanded=False, root='root', metadata=None)",
        "A JSON tree shown as rich output; expanded= opens every level, root= names the top.",
        |rt, a| {
            let v = a
                .pos
                .first()
                .or(a.kwarg("data"))
                .cloned()
                .unwrap_or(Value::None);
            let json = to_json(rt, &v)?;
            let expanded = match a.kwarg("expanded") {
                Some(e) => crate::interp::ops::truthy(rt, e)?,
                None => false,
            };
            let root = match a.kwarg("root") {
                Some(r) => crate::interp::repr::to_str(rt, r)?,
                None => "root".into(),
            };
            let mut md = Map::new();
            md.insert("expanded".into(), Json::Bool(expanded));
            md.insert("root".into(), Json::String(root));
            user_metadata(rt, &a, &mut md)?;
            Ok(rich_md(
                "JSON",
                "application/json",
                json,
                "<IPython.core.display.JSON object>".into(),
                md,
            ))
        },
    );
    m.func(
        "Image",
        "Image(data=None, filename=None, format='png', width=None, height=None, metadata=None)",
        "A PNG image from bytes or a file; width= and height= set its displayed size.",
        |rt, a| {
            let bytes: Vec<u8> = match (a.pos.first().or(a.kwarg("data")), a.kwarg("filename")) {
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
            for key in ["width", "height"] {
                match a.kwarg(key) {
                    None | Some(Value::None) => {}
                    Some(v) => {
                        md.insert(key.into(), to_json(rt, v)?);
                    }
                }
            }
            user_metadata(rt, &a, &mut md)?;
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
