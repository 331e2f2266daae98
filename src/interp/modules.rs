//! The import system and the small standard modules: `math`, `time`, `sys`.

use std::any::Any;
use std::rc::Rc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::runtime::StreamName;
use crate::py::value::{Args, Module, Object, Value};

/// Import a module by dotted name through the session's registry (see
/// [`crate::py::registry`]): the engine decides what exists.
pub fn import(rt: &mut Runtime, name: &str) -> PyResult<Rc<Module>> {
    crate::py::registry::import(rt, name)
}

/// Register the interpreter's own modules (`math`, `time`, `sys`, `warnings`, `IPython`,
/// `IPython.display`, `textwrap`, `operator`, `functools`, `itertools`, `re`, `types`, `dataclasses`,
/// `collections`, `string`, `copy`, `json`, `random`, `pathlib`) under their import names.
pub fn stdlib_builders() -> [(&'static str, crate::py::registry::ModuleBuilder); 22] {
    [
        ("dataclasses", |_| Ok(crate::interp::dataclasses::module())),
        ("types", |_| Ok(crate::interp::objects::types_module())),
        ("math", |_| Ok(math_module())),
        ("time", |_| Ok(time_module())),
        ("sys", |_| Ok(sys_module())),
        ("platform", |_| Ok(platform_module())),
        ("IPython", |rt| {
            let m = Module::new("IPython", "IPython's display API, as nbcuda provides it.");
            m.set("display", Value::Module(import(rt, "IPython.display")?));
            Ok(Rc::new(m))
        }),
        ("IPython.display", |_| Ok(crate::interp::ipython::module())),
        ("warnings", |_| Ok(warnings_module())),
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
        ("collections", |_| {
            Ok(crate::interp::collections_module::module())
        }),
        (
            "string",
            |_| Ok(crate::interp::lib_modules::string_module()),
        ),
        ("copy", |_| Ok(crate::interp::lib_modules::copy_module())),
        ("json", |_| Ok(crate::interp::json_module::module())),
        ("random", |_| Ok(crate::interp::random_module::module())),
        ("pathlib", |_| Ok(crate::interp::pathlib_module::module())),
    ]
}

type UnaryF = fn(f64) -> f64;
type BinaryF = fn(f64, f64) -> f64;

fn math_module() -> Rc<Module> {
    let m = Module::new(
        "math",
        "Mathematical functions on Python floats (also usable inside kernels).",
    );
    m.set("pi", Value::Float(std::f64::consts::PI));
    m.set("e", Value::Float(std::f64::consts::E));
    m.set("tau", Value::Float(std::f64::consts::TAU));
    m.set("inf", Value::Float(f64::INFINITY));
    m.set("nan", Value::Float(f64::NAN));
    let unary: &[(&str, UnaryF)] = &[
        ("sin", f64::sin),
        ("cos", f64::cos),
        ("tan", f64::tan),
        ("asin", f64::asin),
        ("acos", f64::acos),
        ("atan", f64::atan),
        ("sinh", f64::sinh),
        ("cosh", f64::cosh),
        ("tanh", f64::tanh),
        ("asinh", f64::asinh),
        ("acosh", f64::acosh),
        ("atanh", f64::atanh),
        ("exp", f64::exp),
        ("expm1", f64::exp_m1),
        ("exp2", f64::exp2),
        ("log2", f64::log2),
        ("log10", f64::log10),
        ("log1p", f64::ln_1p),
        ("sqrt", f64::sqrt),
        ("cbrt", f64::cbrt),
        ("fabs", f64::abs),
        ("erf", erf),
        ("erfc", |x| 1.0 - erf(x)),
        ("gamma", gamma),
        ("lgamma", |x| gamma(x).abs().ln()),
        ("degrees", f64::to_degrees),
        ("radians", f64::to_radians),
        ("cbrt", f64::cbrt),
    ];
    for &(name, f) in unary {
        m.func(
            name,
            &format!("{name}(x, /)"),
            &format!("math.{name} of x, as a float."),
            move |_, a| {
                let x = one(&a, name)?;
                let r = f(x);
                if r.is_nan() && !x.is_nan() {
                    return Err(PyErr::value_error("math domain error"));
                }
                Ok(Value::Float(r))
            },
        );
    }
    m.func(
        "log",
        "log(x[, base])",
        "Natural logarithm of x, or logarithm to the given base.",
        |_, a| {
            let x = one(&a, "log")?;
            if x <= 0.0 {
                return Err(PyErr::value_error("math domain error"));
            }
            Ok(Value::Float(match a.pos.get(1) {
                Some(b) => x.ln() / b.as_f64()?.ln(),
                None => x.ln(),
            }))
        },
    );
    m.func(
        "floor",
        "floor(x, /)",
        "The largest integer <= x, as an int.",
        |_, a| to_int_checked(one(&a, "floor")?.floor()),
    );
    m.func(
        "ceil",
        "ceil(x, /)",
        "The smallest integer >= x, as an int.",
        |_, a| to_int_checked(one(&a, "ceil")?.ceil()),
    );
    m.func(
        "trunc",
        "trunc(x, /)",
        "x truncated toward zero, as an int.",
        |_, a| to_int_checked(one(&a, "trunc")?.trunc()),
    );
    let binary: &[(&str, BinaryF)] = &[
        ("atan2", f64::atan2),
        ("hypot", f64::hypot),
        ("copysign", f64::copysign),
        ("fmod", |a, b| a % b),
        ("pow", f64::powf),
    ];
    for &(name, f) in binary {
        m.func(
            name,
            &format!("{name}(x, y, /)"),
            &format!("math.{name} of x and y, as a float."),
            move |_, a| {
                let [x, y] = a.pos.as_slice() else {
                    return Err(PyErr::type_error(format!(
                        "{name} expected 2 arguments, got {}",
                        a.pos.len()
                    )));
                };
                Ok(Value::Float(f(x.as_f64()?, y.as_f64()?)))
            },
        );
    }
    for (name, f) in [
        ("isnan", f64::is_nan as fn(f64) -> bool),
        ("isinf", f64::is_infinite),
        ("isfinite", f64::is_finite),
    ] {
        m.func(
            name,
            &format!("{name}(x, /)"),
            &format!("Whether x is {}.", &name[2..]),
            move |_, a| Ok(Value::Bool(f(one(&a, name)?))),
        );
    }
    m.func(
        "isclose",
        "isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)",
        "Whether a and b are close.",
        |_, a| {
            let [x, y] = &a.pos[..] else {
                return Err(PyErr::type_error("isclose expected 2 arguments"));
            };
            let (x, y) = (x.as_f64()?, y.as_f64()?);
            let rel = a
                .kwarg("rel_tol")
                .map(|v| v.as_f64())
                .transpose()?
                .unwrap_or(1e-9);
            let abs = a
                .kwarg("abs_tol")
                .map(|v| v.as_f64())
                .transpose()?
                .unwrap_or(0.0);
            Ok(Value::Bool(
                x == y || (x - y).abs() <= (rel * x.abs().max(y.abs())).max(abs),
            ))
        },
    );
    m.func("factorial", "factorial(n, /)", "n!", |_, a| {
        let n = a.pos.first().unwrap_or(&Value::None).as_index()?;
        if n < 0 {
            return Err(PyErr::value_error(
                "factorial() not defined for negative values",
            ));
        }
        (1..=n)
            .try_fold(1i64, |acc, k| acc.checked_mul(k))
            .map(Value::Int)
            .ok_or_else(|| PyErr::overflow("factorial too large for nbcuda's 64-bit int"))
    });
    m.func("gcd", "gcd(a, b)", "Greatest common divisor.", |_, a| {
        let mut x = a.pos.first().unwrap_or(&Value::Int(0)).as_index()?.abs();
        let mut y = a.pos.get(1).unwrap_or(&Value::Int(0)).as_index()?.abs();
        while y != 0 {
            (x, y) = (y, x % y);
        }
        Ok(Value::Int(x))
    });
    m.func(
        "prod",
        "prod(iterable, /, *, start=1)",
        "The product of the items.",
        |rt, a| {
            let mut acc = Value::Int(1);
            for v in crate::interp::ops::iterate(rt, a.pos.first().unwrap_or(&Value::None))? {
                acc =
                    crate::interp::ops::binary(rt, crate::arrays::operator::BinOp::Mul, &acc, &v)?;
            }
            Ok(acc)
        },
    );
    Rc::new(m)
}

fn one(a: &Args, name: &str) -> PyResult<f64> {
    match a.pos.as_slice() {
        [x] => x.as_f64(),
        _ => Err(PyErr::type_error(format!(
            "math.{name}() takes exactly one argument ({} given)",
            a.pos.len()
        ))),
    }
}

fn to_int_checked(x: f64) -> PyResult<Value> {
    if x.is_nan() {
        return Err(PyErr::value_error("cannot convert float NaN to integer"));
    }
    if x.abs() >= 9.2e18 {
        return Err(PyErr::overflow("cannot convert float infinity to integer"));
    }
    Ok(Value::Int(x as i64))
}

/// The error function (Abramowitz–Stegun 7.1.26 refined with a series near 0 for accuracy).
pub fn erf(x: f64) -> f64 {
    if x.abs() < 2.0 {
        // Maclaurin series: converges quickly for |x| < 2.
        let mut sum = x;
        let mut term = x;
        let x2 = x * x;
        for n in 1..60 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // Continued fraction for erfc at larger |x|.
    let ax = x.abs();
    let mut f = 0.0;
    for k in (1..60).rev() {
        f = (k as f64 / 2.0) / (ax + f);
    }
    let erfc = (-ax * ax).exp() / (std::f64::consts::PI.sqrt() * (ax + f));
    if x > 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// The gamma function (Lanczos approximation, g = 7).
pub fn gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        std::f64::consts::PI / ((std::f64::consts::PI * x).sin() * gamma(1.0 - x))
    } else {
        let x = x - 1.0;
        let mut a = G[0];
        let t = x + 7.5;
        for (i, g) in G.iter().enumerate().skip(1) {
            a += g / (x + i as f64);
        }
        (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
    }
}

fn time_module() -> Rc<Module> {
    let m = Module::new("time", "Clocks and sleeping.");
    m.func(
        "sleep",
        "sleep(seconds, /)",
        "Pause the cell for the given seconds; an interrupt stops it at once.",
        |rt, a| {
            let secs = a.pos.first().unwrap_or(&Value::Int(0)).as_f64()?;
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
    m.func(
        "perf_counter",
        "perf_counter()",
        "A monotonic clock in seconds, for timing.",
        |_, _| Ok(Value::Float(clock_seconds())),
    );
    m.func(
        "monotonic",
        "monotonic()",
        "A monotonic clock in seconds.",
        |_, _| Ok(Value::Float(clock_seconds())),
    );
    m.func("time", "time()", "Seconds since the Unix epoch.", |_, _| {
        Ok(Value::Float(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0),
        ))
    });
    m.func(
        "perf_counter_ns",
        "perf_counter_ns()",
        "perf_counter in integer nanoseconds.",
        |_, _| Ok(Value::Int((clock_seconds() * 1e9) as i64)),
    );
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
            "name" => Some(Value::str(if which == StreamName::Stdout {
                "<stdout>"
            } else {
                "<stderr>"
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
    m.func(
        "machine",
        "machine()",
        "The processor architecture, e.g. 'x86_64'.",
        |_, _| Ok(Value::str(std::env::consts::ARCH)),
    );
    m.func(
        "system",
        "system()",
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
    m.func(
        "python_version",
        "python_version()",
        "The Python version nbcuda follows.",
        |_, _| Ok(Value::str("3.11.0")),
    );
    m.func(
        "python_implementation",
        "python_implementation()",
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
    m.set("maxsize", Value::Int(i64::MAX));
    m.set("implementation", Value::str("nbcuda"));
    m.func(
        "getrecursionlimit",
        "getrecursionlimit()",
        "The maximum call depth.",
        |rt, a| {
            a.bind("getrecursionlimit", &[])?;
            let limit = rt
                .state::<crate::interp::expr::InterpState>()
                .recursion_limit();
            Ok(Value::Int(limit as i64))
        },
    );
    m.func(
        "setrecursionlimit",
        "setrecursionlimit(limit)",
        "Set the maximum call depth (at most 100000 in nbcuda).",
        |rt, a| {
            let b = a.bind("setrecursionlimit", &["limit"])?;
            let v = b[0].clone().unwrap_or(Value::None);
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
            rt.state::<crate::interp::expr::InterpState>()
                .recursion_limit = Some(n as usize);
            Ok(Value::None)
        },
    );
    Rc::new(m)
}

fn warnings_module() -> Rc<Module> {
    let m = Module::new("warnings", "Warnings shown on stderr.");
    m.func(
        "warn",
        "warn(message, category=UserWarning)",
        "Show a warning on stderr.",
        |rt, a| {
            let msg = crate::interp::repr::to_str(rt, a.pos.first().unwrap_or(&Value::None))?;
            let cat = match a.pos.get(1).or(a.kwarg("category")) {
                Some(c) => match &crate::interp::attrs::get_attr(rt, c, "__name__")? {
                    Value::Str(s) => s.to_string(),
                    _ => "UserWarning".into(),
                },
                None => "UserWarning".into(),
            };
            let origin = format!("Cell In[{}]", rt.execution_count);
            rt.warn(&cat, &msg, &origin);
            Ok(Value::None)
        },
    );
    m.func(
        "filterwarnings",
        "filterwarnings(action, ...)",
        "Accepted; nbcuda shows each warning once per cell.",
        |_, _| Ok(Value::None),
    );
    m.func(
        "simplefilter",
        "simplefilter(action, ...)",
        "Accepted; nbcuda shows each warning once per cell.",
        |_, _| Ok(Value::None),
    );
    Rc::new(m)
}
