//! What the engine plugs into a session's interpreter: every importable module under its
//! import name, and the magics that need the device or the charts (`%timeit_chart`,
//! `%ledger`, `%memory`, `%%timeline`). The interpreter finds them through
//! [`crate::py::registry`] and never imports the modules that build them.

use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::function::Scope;
use crate::py::registry::{self, ModuleBuilder};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// Whether `%ledger on` is active.
#[derive(Default)]
pub struct LedgerSetting {
    pub on: bool,
}

/// `numba.core.errors`: the exception classes Numba's users catch.
fn numba_errors() -> Rc<Module> {
    let m = Module::new(
        "numba.core.errors",
        "Numba's exception and warning classes.",
    );
    for name in [
        "NumbaError",
        "TypingError",
        "UnsupportedError",
        "NumbaWarning",
        "NumbaPerformanceWarning",
    ] {
        m.set(name, exception_class(name));
    }
    Rc::new(m)
}

/// `numba.config`: the switches nbcuda honours, read from `NUMBA_<NAME>` as Numba reads
/// them and assignable in a cell (`numba.config.CUDA_LOW_OCCUPANCY_WARNINGS = 0`).
fn numba_config() -> Rc<Module> {
    let m = Module::new("numba.config", "Numba's configuration switches.");
    for (name, default) in [
        ("CUDA_LOW_OCCUPANCY_WARNINGS", 1),
        ("CUDA_WARN_ON_IMPLICIT_COPY", 1),
        ("ENABLE_CUDASIM", 0),
    ] {
        let value = std::env::var(format!("NUMBA_{name}"))
            .ok()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .unwrap_or(default);
        m.set(name, Value::Int(value));
    }
    Rc::new(m)
}

fn exception_class(name: &str) -> Value {
    Value::object(crate::interp::objects::ExceptionType {
        name: name.to_string(),
    })
}

/// Fill the session's registries. The module order is the order an import error lists them.
pub fn install(rt: &mut Runtime) {
    let bindings: [(&'static str, ModuleBuilder); 13] = [
        ("numpy", |_| {
            let m = crate::numpy::module();
            if let Some(Value::Module(linalg)) = m.get("linalg").as_ref() {
                linalg.set("LinAlgError", exception_class("LinAlgError"));
            }
            let exceptions = Module::new("numpy.exceptions", "NumPy's exceptions and warnings.");
            for name in ["AxisError", "ComplexWarning"] {
                exceptions.set(name, exception_class(name));
            }
            m.set("exceptions", Value::Module(Rc::new(exceptions)));
            Ok(m)
        }),
        ("numba", |rt| {
            let m = crate::numba::numba_module();
            crate::numba_cuda::smart::register(&m);
            let cuda = registry::import(rt, "numba.cuda")?;
            m.set("cuda", Value::Module(cuda));
            m.set("types", Value::Module(registry::import(rt, "numba.types")?));
            // `import numba` binds its subpackages as Numba's own __init__ does.
            m.set("core", Value::Module(registry::import(rt, "numba.core")?));
            m.set("np", Value::Module(registry::import(rt, "numba.np")?));
            m.set(
                "config",
                Value::Module(registry::import(rt, "numba.config")?),
            );
            Ok(m)
        }),
        ("numba.types", |_| Ok(crate::numba::types_module())),
        ("numba.cuda", |rt| {
            let m = crate::numba_cuda::module();
            crate::numba::register_cuda_api(&m);
            // The driver's exception classes are interpreter objects, so they are set here.
            if let Some(Value::Module(pkg)) = m.get("cudadrv").as_ref() {
                if let Some(Value::Module(drv)) = pkg.get("driver").as_ref() {
                    for name in ["CudaAPIError", "CudaDriverError"] {
                        drv.set(name, exception_class(name));
                    }
                }
            }
            let random = registry::import(rt, "numba.cuda.random")?;
            m.set("random", Value::Module(random));
            Ok(m)
        }),
        ("numba.cuda.random", |_| {
            Ok(crate::numba::cuda_random_module())
        }),
        ("numba.core", |rt| {
            let m = Module::new(
                "numba.core",
                "Numba's core package (its errors and types modules).",
            );
            m.set(
                "errors",
                Value::Module(registry::import(rt, "numba.core.errors")?),
            );
            m.set("types", Value::Module(registry::import(rt, "numba.types")?));
            Ok(Rc::new(m))
        }),
        ("numba.core.errors", |_| Ok(numba_errors())),
        ("numba.config", |_| Ok(numba_config())),
        ("numba.np", |rt| {
            let m = Module::new("numba.np", "Numba's NumPy support package.");
            m.set(
                "numpy_support",
                Value::Module(registry::import(rt, "numba.np.numpy_support")?),
            );
            Ok(Rc::new(m))
        }),
        ("numba.np.numpy_support", |_| {
            let m = Module::new("numba.np.numpy_support", "NumPy dtypes and Numba types.");
            crate::numba::numba_types::register_from_dtype(&m);
            Ok(Rc::new(m))
        }),
        ("cupy", |_| Ok(crate::cupy::module())),
        ("matplotlib", |rt| {
            let m = Module::new("matplotlib", "Plotting, drawn by nbcuda with plotters.");
            m.set(
                "pyplot",
                Value::Module(registry::import(rt, "matplotlib.pyplot")?),
            );
            m.def(
                Function,
                "use",
                "backend, *, force=True",
                "Accepted for compatibility; nbcuda always draws inline.",
                |_, _| Ok(Value::None),
            );
            Ok(Rc::new(m))
        }),
        ("matplotlib.pyplot", |_| Ok(crate::pyplot::module())),
    ];
    let stdlib = crate::interp::modules::stdlib_builders();
    // numpy, numba..., cupy, then math, time, sys, then matplotlib..., IPython..., warnings.
    let (first, rest) = bindings.split_at(9);
    for (name, b) in first
        .iter()
        .chain(&stdlib[..3])
        .chain(rest)
        .chain(&stdlib[3..])
    {
        registry::register_module(rt, name, *b);
    }
    registry::register_line_magic(rt, "timeit_chart", |rt, _, _| {
        crate::engine::charts::timeit_chart(rt)?;
        Ok(Value::None)
    });
    registry::register_line_magic(rt, "ledger", ledger_magic);
    registry::register_line_magic(rt, "memory", memory_magic);
    registry::register_cell_magic_name(rt, "timeline");
}

fn ledger_magic(rt: &mut Runtime, args: &str, _: &Scope) -> PyResult<Value> {
    let on = match args {
        "on" => true,
        "off" => false,
        _ => return Err(PyErr::new("UsageError", "usage: %ledger on | %ledger off")),
    };
    rt.state::<LedgerSetting>().on = on;
    Ok(Value::None)
}

fn memory_magic(rt: &mut Runtime, _: &str, globals: &Scope) -> PyResult<Value> {
    let names: Vec<(String, Value)> = globals
        .borrow()
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let report = crate::numba_cuda::memory_report::memory_report(rt, &names);
    rt.print(&report);
    Ok(Value::None)
}
