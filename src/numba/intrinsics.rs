//! Host-side placeholders for names that only mean something inside a kernel
//! (`cuda.grid`, `cuda.threadIdx`, `cuda.shared.array`, `cuda.atomic.add`, the
//! xoroshiro128p draws). The front end recognises them by path; calling or reading them
//! from host code raises an error that says where they belong.

use std::any::Any;
use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Module, Object, Value};

pub struct Intrinsic {
    /// `cuda.grid`, `cuda.shared.array`, `random.xoroshiro128p_uniform_float32` ...
    pub path: String,
    /// Sub-names for namespaces (`shared` → `array`; `threadIdx` → `x y z`).
    pub children: &'static [&'static str],
}

impl Intrinsic {
    fn display(&self) -> String {
        match self.path.strip_prefix("random.") {
            Some(r) => format!("numba.cuda.random.{r}"),
            None => self.path.clone(),
        }
    }
}

fn only_in_kernels(what: &str) -> PyErr {
    PyErr::new(
        "RuntimeError",
        format!("{what} can only be used inside a @cuda.jit kernel or device function"),
    )
    .with_hint("Call it from a function decorated with @cuda.jit; on the host, use NumPy and the cuda memory API instead.")
}

impl Object for Intrinsic {
    fn type_name(&self) -> String {
        if self.children.is_empty() {
            "function".into()
        } else {
            "module".into()
        }
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<kernel intrinsic {}>", self.display()))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if self.children.contains(&name) {
            let path = format!("{}.{name}", self.path);
            if matches!(
                self.path.as_str(),
                "cuda.threadIdx" | "cuda.blockIdx" | "cuda.blockDim" | "cuda.gridDim"
            ) {
                return Err(only_in_kernels(&path));
            }
            return Ok(Some(Value::object(Intrinsic {
                path,
                children: &[],
            })));
        }
        if name == "__name__" {
            return Ok(Some(Value::str(self.path.rsplit('.').next().unwrap_or(""))));
        }
        Ok(None)
    }
    fn call(self: Rc<Self>, _args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        Err(only_in_kernels(&format!("{}()", self.display())))
    }
    fn dir(&self) -> Vec<String> {
        self.children.iter().map(|s| s.to_string()).collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

const XYZ: &[&str] = &["x", "y", "z"];
const ATOMICS: &[&str] = &[
    "add",
    "sub",
    "max",
    "min",
    "nanmax",
    "nanmin",
    "and_",
    "or_",
    "xor",
    "exch",
    "inc",
    "dec",
    "cas",
    "compare_and_swap",
];

/// Add the in-kernel names to `numba.cuda`.
pub fn register(cuda: &Module) {
    let leaf = |p: &str| {
        Value::object(Intrinsic {
            path: format!("cuda.{p}"),
            children: &[],
        })
    };
    for n in [
        "grid",
        "gridsize",
        "syncthreads",
        "syncthreads_count",
        "syncthreads_and",
        "syncthreads_or",
        "threadfence",
        "threadfence_block",
        "threadfence_system",
        "syncwarp",
        "laneid",
        "warpsize",
        "popc",
        "clz",
        "ffs",
        "brev",
        "cbrt",
    ] {
        cuda.set(n, leaf(n));
    }
    for n in ["threadIdx", "blockIdx", "blockDim", "gridDim"] {
        cuda.set(
            n,
            Value::object(Intrinsic {
                path: format!("cuda.{n}"),
                children: XYZ,
            }),
        );
    }
    cuda.set(
        "shared",
        Value::object(Intrinsic {
            path: "cuda.shared".into(),
            children: &["array"],
        }),
    );
    cuda.set(
        "local",
        Value::object(Intrinsic {
            path: "cuda.local".into(),
            children: &["array"],
        }),
    );
    cuda.set(
        "const",
        Value::object(Intrinsic {
            path: "cuda.const".into(),
            children: &["array_like"],
        }),
    );
    cuda.set(
        "atomic",
        Value::object(Intrinsic {
            path: "cuda.atomic".into(),
            children: ATOMICS,
        }),
    );
}

/// The draws of `numba.cuda.random`.
pub fn register_random(m: &Module) {
    for n in [
        "xoroshiro128p_uniform_float32",
        "xoroshiro128p_uniform_float64",
        "xoroshiro128p_normal_float32",
        "xoroshiro128p_normal_float64",
    ] {
        m.set(
            n,
            Value::object(Intrinsic {
                path: format!("random.{n}"),
                children: &[],
            }),
        );
    }
}
