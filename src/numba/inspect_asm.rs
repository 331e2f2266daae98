//! The compiler's view of NVRTC: `inspect_asm()` and the NVRTC tests compile through the
//! same wrapper and options as the CUDA device ([`crate::gpu::nvrtc`]), so the
//! compile the tests verify is the one a launch performs.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::dtype::DType;
use crate::gpu::nvrtc as wrapper;
use crate::kernel::codegen::cuda_source;
use crate::kernel::types::{Signature, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::numba_types::signatures_from;
use crate::numba::vectorize::{build_kernel, InKind};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::value::Dict;
use crate::py::value::Value;

pub use wrapper::{default_arch, missing_nvrtc_message, Compiled, DEFAULT_ARCH};

/// True when NVRTC can be loaded.
pub fn available() -> bool {
    wrapper::nvrtc_available().is_ok()
}

/// Compile CUDA C for `arch` (e.g. `compute_80`) with the device's options.
pub fn compile(source: &str, arch: &str) -> Result<Compiled, String> {
    wrapper::compile_ptx(source, "nbcuda_kernel.cu", arch)
}

/// The error `inspect_asm()` and friends raise when NVRTC is missing or a compile fails.
pub fn nvrtc_error(message: String) -> PyErr {
    let missing = message == missing_nvrtc_message();
    let e = PyErr::new("RuntimeError", message);
    if missing {
        e.with_hint("pip install nvidia-cuda-nvrtc-cu12 (or install the CUDA toolkit), then restart the kernel.")
    } else {
        e
    }
}

/// PTX of a compiled kernel for `inspect_asm()`: for the GPU in use, or for
/// [`DEFAULT_ARCH`] on the CPU device.
pub fn ptx_of(kernel: &CompiledKernel) -> PyResult<String> {
    compile(&cuda_source(kernel), &default_arch())
        .map(|c| c.ptx)
        .map_err(nvrtc_error)
}

/// The dtypes of a scalar-only signature, or a TypeError naming what `what` supports.
fn scalar_signature(sig: &Signature, what: &str) -> PyResult<(Vec<DType>, Option<DType>)> {
    let mut args = Vec::new();
    for t in &sig.args {
        match t {
            Ty::Scalar(d) => args.push(*d),
            other => {
                return Err(PyErr::type_error(format!(
                    "inspect_asm() on {what} supports scalar signatures; {sig} takes {other}"
                )))
            }
        }
    }
    let ret = match &sig.ret {
        None => None,
        Some(Ty::Scalar(d)) => Some(*d),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "inspect_asm() on {what} supports scalar return types; {sig} returns {other}"
            )))
        }
    };
    Ok((args, ret))
}

/// What `inspect_asm()`/`inspect_cuda()` show for a function that is only ever inlined
/// (a device function, a `@vectorize` ufunc): for each declared signature, the function
/// inlined into the element-wise kernel nbcuda launches for it over 1-D arrays, keyed by
/// the signature's argument types.
pub fn inlined_entries(
    func: &Rc<Function>,
    sigs: &[Signature],
    what: &str,
) -> PyResult<Vec<(Vec<Ty>, Arc<CompiledKernel>)>> {
    if sigs.is_empty() {
        return Err(PyErr::type_error(format!(
            "{what} '{}' has no signature to inspect",
            func.name
        ))
        .with_hint("Declare one, e.g. @cuda.jit('float32(float32)', device=True)."));
    }
    let mut out = Vec::new();
    for sig in sigs {
        let (args, ret) = scalar_signature(sig, what)?;
        let ins: Vec<InKind> = args.iter().map(|d| InKind::Array(*d)).collect();
        let k = build_kernel(func, &ins, &args, ret, 1)?;
        out.push((sig.args.clone(), Arc::new(k)));
    }
    Ok(out)
}

/// `inspect_asm()`/`inspect_cuda()`: one entry's text when `signature` is given, else a
/// dict keyed by signature (as Numba does).
pub fn inspect(
    entries: &[(Vec<Ty>, Arc<CompiledKernel>)],
    asm: bool,
    signature: Option<&Value>,
) -> PyResult<Value> {
    let render = |c: &CompiledKernel| -> PyResult<Value> {
        Ok(Value::str(&if asm { ptx_of(c)? } else { cuda_source(c) }))
    };
    match signature {
        Some(sig) if !sig.is_none() => {
            let want = signatures_from(sig)?
                .into_iter()
                .next()
                .map(|s| s.args)
                .unwrap_or_default();
            match entries.iter().find(|(t, _)| *t == want) {
                Some((_, c)) => render(c),
                None => Err(PyErr::key_error(
                    "no compiled specialisation has this signature",
                )),
            }
        }
        _ => {
            let mut d = Dict::default();
            for (t, c) in entries {
                let key: Vec<Value> = t.iter().map(|x| Value::str(&x.to_string())).collect();
                d.push(Value::tuple(key), render(c)?);
            }
            Ok(Value::Dict(Rc::new(RefCell::new(d))))
        }
    }
}
