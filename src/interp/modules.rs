//! The import system and the small standard modules: `time`, `sys` (`math` is in
//! `math_module.rs`).

use std::any::Any;
use std::rc::Rc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::runtime::StreamName;
use crate::py::signature::Style::{Clinic, Function};
use crate::py::value::{Module, Object, Value};

/// Import a module by dotted name: what the engine registered (see
/// [`crate::py::registry`]), else a module written in Python (see [`crate::interp::imports`]).
pub fn import(rt: &mut Runtime, name: &str) -> PyResult<Rc<Module>> {
    crate::interp::imports::import(rt, name)
}

/// Register the interpreter's own modules (`math`, `time`, `sys`, `warnings`, `IPython`,
/// `IPython.display`, `textwrap`, `operator`, `functools`, `itertools`, `re`, `types`, `dataclasses`,
/// `collections`, `string`, `copy`, `json`, `random`, `pathlib`, `traceback`) under their
/// import names.
pub fn stdlib_builders() -> [(&'static str, crate::py::registry::ModuleBuilder); 26] {
    [
        ("dataclasses", |_| Ok(crate::interp::dataclasses::module())),
        ("types", |_| Ok(crate::interp::objects::types_module())),
        ("math", |_| Ok(crate::interp::math_module::module())),
        ("cmath", |_| Ok(crate::interp::complex::cmath_module())),
        ("time", |_| Ok(time_module())),
        ("sys", |_| Ok(sys_module())),
        ("platform", |_| Ok(platform_module())),
        ("IPython", |rt| {
            let m = Module::new("IPython", "IPython's display API, as nbcuda provides it.");
            m.set("display", Value::Module(import(rt, "IPython.display")?));
            Ok(Rc::new(m))
        }),
        ("IPython.display", |_| Ok(crate::interp::ipython::module())),
        ("warnings", |_| Ok(crate::interp::warnings_module::module())),
        ("traceback", |_| {
            Ok(crate::interp::traceback_module::module())
        }),
        ("textwrap", |_| {
            Ok(crate::interp::text_modules::textwrap_module())
        }),
        ("operator", |_| {
            Ok(crate::interp::func_modules::operator_module())
        }),
        ("functools", |_| {
            Ok(crate::interp::func_modules::functools_module())
        }),
        ("itertools", |_| {
            Ok(crate::interp::func_modules::itertools_module())
        }),
        ("re", |_| Ok(crate::interp::re_module::module())),
        ("os", crate::interp::os_module::module),
        ("os.path", |_| Ok(crate::interp::os_module::path_module())),
        ("collections", |rt| {
            // The abstract classes and ChainMap are Python code (pylib), as in CPython.
            let m = crate::interp::collections_module::module();
            let abc = import(rt, "_collections_abc")?;
            m.set("abc", Value::Module(abc.clone()));
            // collections' own types register with the abstract classes here, since the
            // abstract classes cannot import collections while it is being built.
            if let Some(register) = abc.get("_register_collections") {
                let args = crate::py::value::Args::new(vec![Value::Module(m.clone())]);
                crate::interp::expr::call_value(rt, &register, args)?;
            }
            let chain = import(rt, "_collections_chainmap")?;
            m.set("ChainMap", chain.get("ChainMap").unwrap_or(Value::None));
            Ok(m)
        }),
        (
            "string",
            |_| Ok(crate::interp::lib_modules::string_module()),
        ),
        ("copy", |_| Ok(crate::interp::lib_modules::copy_module())),
        ("json", |_| Ok(crate::interp::json_module::module())),
        ("_hashlib", |_| Ok(crate::interp::hashlib_module::module())),
        ("random", |_| Ok(crate::interp::random_module::module())),
        ("pathlib", |_| Ok(crate::interp::pathlib_module::module())),
        ("importlib", |_| {
            Ok(crate::interp::imports::importlib_module())
        }),
    ]
}

fn time_module() -> Rc<Module> {
    let m = Module::new("time", "Clocks and sleeping.");
    m.def(
        Clinic,
        "sleep",
        "seconds, /",
        "Pause the cell for the given seconds; an interrupt stops it at once.",
        |rt, b| {
            // CPython takes a float as it is and anything else as an integer.
            let secs = match b.value(0) {
                v @ (Value::Float(_) | Value::Int(_) | Value::Bool(_) | Value::Scalar(_)) => {
                    v.as_f64()?
                }
                v => {
                    return Err(PyErr::type_error(format!(
                        "'{}' object cannot be interpreted as an integer",
                        v.type_name()
                    )))
                }
            };
            if secs < 0.0 {
                return Err(PyErr::value_error("sleep length must be non-negative"));
            }
            let end = Instant::now() + Duration::from_secs_f64(secs.min(1e9));
            loop {
                rt.check_interrupt()?;
                let now = Instant::now();
                if now >= end {
                    break;
                }
                std::thread::sleep((end - now).min(Duration::from_millis(10)));
            }
            Ok(Value::None)
        },
    );
    m.def(
        Clinic,
        "perf_counter",
        "",
        "A monotonic clock in seconds, for timing.",
        |_, _| Ok(Value::Float(clock_seconds())),
    );
    m.def(
        Clinic,
        "monotonic",
        "",
        "A monotonic clock in seconds.",
        |_, _| Ok(Value::Float(clock_seconds())),
    );
    m.def(
        Clinic,
        "time",
        "",
        "Seconds since the Unix epoch.",
        |_, _| {
            Ok(Value::Float(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map(|d| d.as_secs_f64())
                    .unwrap_or(0.0),
            ))
        },
    );
    m.def(
        Clinic,
        "perf_counter_ns",
        "",
        "perf_counter in integer nanoseconds.",
        |_, _| Ok(Value::Int((clock_seconds() * 1e9) as i64)),
    );
    crate::interp::time_calendar::register(&m);
    Rc::new(m)
}

/// Seconds on a process-wide monotonic clock.
pub fn clock_seconds() -> f64 {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// `sys.stdout` / `sys.stderr`.
pub struct StdStream(pub StreamName);

impl Object for StdStream {
    fn type_name(&self) -> String {
        "OutStream".into()
    }
    fn module_name(&self) -> String {
        "ipykernel.iostream".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let which = self.0;
        Ok(match name {
            "write" => Some(Value::builtin(
                "write",
                "write(text)",
                "Write text to the stream.",
                move |rt, a| {
                    let text =
                        crate::interp::repr::to_str(rt, a.pos.first().unwrap_or(&Value::None))?;
                    rt.frontend.stream(which, &text);
                    Ok(Value::Int(text.chars().count() as i64))
                },
            )),
            "flush" => Some(Value::builtin(
                "flush",
                "flush()",
                "Output is already sent as it is written.",
                |_, _| Ok(Value::None),
            )),
            "encoding" => Some(Value::str("UTF-8")),
            // ipykernel's streams are named so (a terminal's are "<stdout>", "<stderr>").
            "name" => Some(Value::str(if which == StreamName::Stdout {
                "stdout"
            } else {
                "stderr"
            })),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `platform`: the machine nbcuda runs on, for code that picks a path by it (Numba's
/// tests skip pinned-memory checks on some architectures).
fn platform_module() -> Rc<Module> {
    let m = Module::new("platform", "The machine and operating system.");
    m.def(
        Function,
        "machine",
        "",
        "The processor architecture, e.g. 'x86_64'.",
        |_, _| Ok(Value::str(std::env::consts::ARCH)),
    );
    m.def(
        Function,
        "system",
        "",
        "The operating system's name, e.g. 'Linux'.",
        |_, _| {
            Ok(Value::str(match std::env::consts::OS {
                "linux" => "Linux",
                "macos" => "Darwin",
                "windows" => "Windows",
                other => other,
            }))
        },
    );
    m.def(
        Function,
        "python_version",
        "",
        "The Python version nbcuda follows.",
        |_, _| Ok(Value::str("3.11.0")),
    );
    m.def(
        Function,
        "python_implementation",
        "",
        "Which Python this is.",
        |_, _| Ok(Value::str("nbcuda")),
    );
    Rc::new(m)
}

fn sys_module() -> Rc<Module> {
    let m = Module::new("sys", "Interpreter information and the output streams.");
    m.set("stdout", Value::object(StdStream(StreamName::Stdout)));
    m.set("stderr", Value::object(StdStream(StreamName::Stderr)));
    m.set(
        "version",
        Value::str(&format!(
            "3.11 (nbcuda {} Python subset)",
            env!("CARGO_PKG_VERSION")
        )),
    );
    m.set(
        "version_info",
        Value::tuple(vec![Value::Int(3), Value::Int(11), Value::Int(0)]),
    );
    m.set("platform", Value::str(std::env::consts::OS));
    // ipykernel's argv names its launcher; nbcuda has no script, so its own name.
    m.set("argv", Value::list(vec![Value::str("nbcuda")]));
    // '' is the current folder: `import helpers` finds the notebook's helpers.py.
    m.set("path", Value::list(vec![Value::str("")]));
    m.set("maxsize", Value::Int(i64::MAX));
    m.set("float_info", crate::interp::struct_seq::float_info());
    m.set("int_info", crate::interp::struct_seq::int_info());
    m.set("hash_info", crate::interp::struct_seq::hash_info());
    m.set("implementation", Value::str("nbcuda"));
    m.def(
        Clinic,
        "exc_info",
        "",
        "The exception being handled: (type, value, traceback), or three Nones.",
        |rt, _| crate::interp::traceback_module::exc_info(rt),
    );
    m.def(
        Clinic,
        "getrecursionlimit",
        "",
        "The maximum call depth.",
        |rt, _| Ok(Value::Int(rt.recursion_limit as i64)),
    );
    m.def(
        Clinic,
        "setrecursionlimit",
        "new_limit, /",
        "Set the maximum call depth (at most 100000 in nbcuda).",
        |rt, b| {
            let v = b.value(0);
            if !matches!(v, Value::Int(_) | Value::Bool(_)) {
                return Err(PyErr::type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    v.type_name()
                )));
            }
            let n = v.as_index()?;
            if n < 1 {
                return Err(PyErr::value_error(
                    "recursion limit must be greater or equal than 1",
                ));
            }
            let max = crate::interp::expr::MAX_RECURSION_LIMIT;
            if n as u64 > max as u64 {
                return Err(PyErr::value_error(format!(
                    "nbcuda's recursion limit is at most {max}"
                )));
            }
            rt.recursion_limit = n as usize;
            Ok(Value::None)
        },
    );
    Rc::new(m)
}
