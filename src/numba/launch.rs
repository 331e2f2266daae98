//! Launching a `@cuda.jit` kernel from host code: argument classification (device arrays
//! by reference, host arrays copied in and back, `cuda.In/Out/InOut`, scalars by value),
//! specialisation, and the launch through the devices API. Also `create_xoroshiro128p_states`.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::device::api::{self, Transfer};
use crate::device::DeviceView;
use crate::kernel::abi::{ArgMem, ArrayArg, KernelArg, LaunchConfig};
use crate::kernel::types::Ty;
use crate::kernel::CompiledKernel;
use crate::numba::compile::{accepts, array_ty, ndarray_ty, typeof_scalar};
use crate::numba::dispatch::{CudaKernel, HostArg};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value};

pub struct LaunchRequest<'a> {
    pub kernel: &'a CudaKernel,
    pub config: LaunchConfig,
    pub stream: &'a Value,
    pub args: Args,
}

/// One kernel argument after classification.
pub enum Prep {
    Device(DeviceView),
    Host {
        arr: NdArray,
        copy_in: bool,
        copy_out: bool,
    },
    Scalar(Scalar),
}

pub fn classify(rt: &mut Runtime, i: usize, v: &Value) -> PyResult<Prep> {
    if let Some(h) = v.downcast::<HostArg>() {
        if let Value::Array(a) = &h.array {
            return Ok(Prep::Host {
                arr: a.as_ref().clone(),
                copy_in: h.copy_in,
                copy_out: h.copy_out,
            });
        }
    }
    if let Value::Array(a) = v {
        // Mapped and managed host memory is device-accessible: used in place, as Numba
        // does, not copied in and back.
        if let Some(view) = crate::numba_cuda::interop::view_of(rt, v)? {
            return Ok(Prep::Device(view));
        }
        return Ok(Prep::Host {
            arr: a.as_ref().clone(),
            copy_in: true,
            copy_out: true,
        });
    }
    if let Some(s) = typeof_scalar(v) {
        return Ok(Prep::Scalar(s));
    }
    if let Some(view) = crate::numba_cuda::interop::view_of(rt, v)? {
        return Ok(Prep::Device(view));
    }
    Err(PyErr::type_error(format!(
        "kernel argument {i} of type '{}' is not supported: pass device arrays, NumPy arrays or numbers",
        v.type_name()
    )))
}

/// Classify argument `i`, a tuple (recursively) into one entry per item: kernels take
/// tuples as consecutive flat parameters (see [`crate::numba::compile::ArgShape`]).
fn flatten(
    rt: &mut Runtime,
    i: usize,
    v: &Value,
    preps: &mut Vec<Prep>,
    depth: usize,
) -> PyResult<crate::numba::compile::ArgShape> {
    use crate::numba::compile::ArgShape;
    match v {
        Value::Tuple(items) => {
            if depth >= 32 || preps.len() + items.len() > 256 {
                return Err(PyErr::type_error(format!(
                    "kernel argument {i}: tuples nested deeper than 32 levels or with more than 256 items in all are not supported (pass an array)"
                )));
            }
            let mut shapes = Vec::with_capacity(items.len());
            for x in items.iter() {
                shapes.push(flatten(rt, i, x, preps, depth + 1)?);
            }
            Ok(ArgShape::Tuple(shapes))
        }
        Value::Object(o) => match o.named_tuple() {
            Some((fields, items)) => match flatten(rt, i, &Value::tuple(items), preps, depth)? {
                ArgShape::Tuple(shapes) => Ok(ArgShape::Named(fields, shapes)),
                other => Ok(other),
            },
            None => {
                preps.push(classify(rt, i, v)?);
                Ok(ArgShape::Leaf)
            }
        },
        _ => {
            preps.push(classify(rt, i, v)?);
            Ok(ArgShape::Leaf)
        }
    }
}

/// A kernel declared with a single signature is launched by Numba without matching the
/// arguments against it: an array's memory is read as the declared dtype. nbcuda does the
/// same where that is safe — arrays of the declared rank whose items have the declared
/// size — and returns the declared types; None leaves the usual "No matching definition".
fn reinterpret_for(declared: &[Ty], preps: &mut [Prep]) -> Option<Vec<Ty>> {
    if declared.len() != preps.len() {
        return None;
    }
    for (p, t) in preps.iter().zip(declared) {
        let got = match (p, t) {
            (Prep::Scalar(_), Ty::Scalar(_)) => t.clone(),
            (_, Ty::Array { dtype, .. }) => match prep_ty(p) {
                Ty::Array {
                    dtype: d,
                    ndim,
                    layout,
                } if d.itemsize() == dtype.itemsize() => Ty::Array {
                    dtype: *dtype,
                    ndim,
                    layout,
                },
                _ => return None,
            },
            _ => return None,
        };
        if !accepts(t, &got) {
            return None;
        }
    }
    for (p, t) in preps.iter_mut().zip(declared) {
        match (p, t) {
            (Prep::Scalar(s), Ty::Scalar(d)) => *s = s.cast(*d),
            (Prep::Device(v), Ty::Array { dtype, .. }) => v.dtype = *dtype,
            (Prep::Host { arr, .. }, Ty::Array { dtype, .. }) => {
                // Same buffer, same item size: the copy back writes the kernel's bytes.
                arr.dtype = *dtype
            }
            _ => {}
        }
    }
    Some(declared.to_vec())
}

pub fn prep_ty(p: &Prep) -> Ty {
    match p {
        Prep::Device(v) => array_ty(v.dtype, &v.shape, &v.strides),
        Prep::Host { arr, .. } => ndarray_ty(arr),
        Prep::Scalar(s) => Ty::Scalar(s.dtype()),
    }
}

pub fn host_arg(a: &NdArray) -> KernelArg {
    KernelArg::Array(ArrayArg {
        mem: ArgMem::Host(a.buf.clone()),
        offset: a.offset,
        shape: a.shape.clone(),
        strides: a.strides.clone(),
        dtype: a.dtype,
    })
}

/// Run on host memory directly (used while no device API is available, and by the cpu
/// targets). Kernel output is printed at once; faults become Python exceptions.
pub fn run_on_host(
    rt: &mut Runtime,
    k: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
) -> PyResult<()> {
    match crate::kernel::execute_on_cpu_cancellable(
        k,
        config,
        args,
        crate::kernel::abi::Cancel::Interrupt(rt.interrupt.clone()),
    ) {
        Ok(out) => {
            if !out.printed.is_empty() {
                rt.print(&out.printed);
            }
            Ok(())
        }
        Err(f) => Err(crate::device::api::host_fault_error(rt, f)),
    }
}

pub fn launch_kernel(rt: &mut Runtime, req: LaunchRequest) -> PyResult<()> {
    if let Some((k, _)) = req.args.kw.first() {
        return Err(PyErr::type_error(format!(
            "kernels take positional arguments only, got keyword '{k}'"
        )));
    }
    let stream = crate::numba_cuda::stream_objects::parse_stream(rt, Some(req.stream))?;
    let mut preps = Vec::new();
    let mut groups = Vec::new();
    for (i, v) in req.args.pos.iter().enumerate() {
        groups.push(flatten(rt, i, v, &mut preps, 0)?);
    }
    let mut tys: Vec<Ty> = preps.iter().map(prep_ty).collect();
    // With eager signatures, numbers are converted to the declared scalar types.
    if !req.kernel.sigs.is_empty() {
        let sig = req.kernel.sigs.iter().find(|s| {
            s.args.len() == tys.len()
                && s.args.iter().zip(&tys).all(|(p, a)| match (p, a) {
                    (Ty::Scalar(_), Ty::Scalar(_)) => true,
                    _ => accepts(p, a),
                })
        });
        if let Some(sig) = sig {
            for (p, t) in preps.iter_mut().zip(sig.args.iter()) {
                if let (Prep::Scalar(s), Ty::Scalar(d)) = (&*p, t) {
                    *p = Prep::Scalar(s.cast(*d));
                }
            }
            tys = sig.args.clone();
        } else if req.kernel.specialized {
            tys = reinterpret_for(&req.kernel.sigs[0].args, &mut preps).unwrap_or(tys);
        }
    }
    let compiled_before = req.kernel.cache.borrow().len() + req.kernel.grouped.borrow().len();
    let kernel = req.kernel.specialize_grouped(&tys, &groups)?;
    if req.kernel.cache.borrow().len() + req.kernel.grouped.borrow().len() != compiled_before {
        let origin = def_line(&req.kernel.func);
        for (category, message) in &kernel.ir.warnings {
            rt.warn(category, message, &origin)?;
        }
    }
    // Before any implicit copy is queued: a launch CUDA refuses moves no data.
    crate::kernel::check_launch(&kernel, &req.config).map_err(crate::device::api::fault_error)?;
    let name = req.kernel.func.name.clone();
    if req.config.blocks() < MIN_GRID_SIZE && config_flag(rt, "CUDA_LOW_OCCUPANCY_WARNINGS") {
        rt.warn(
            "NumbaPerformanceWarning",
            &format!(
                "Grid size {} will likely result in GPU under-utilization due to low occupancy.",
                req.config.blocks()
            ),
            &def_line(&req.kernel.func),
        )?;
    }
    if preps.iter().any(|p| matches!(p, Prep::Host { .. }))
        && config_flag(rt, "CUDA_WARN_ON_IMPLICIT_COPY")
    {
        // Python's warning filter shows a warning once per location; the location is the
        // kernel's `def` line, so each kernel warns once per cell.
        rt.warn(
            "NumbaPerformanceWarning",
            "Host array used in CUDA kernel will incur copy overhead to/from device.",
            &def_line(&req.kernel.func),
        )?;
    }
    let why = || Transfer {
        explicit: false,
        call: name.to_string(),
    };
    // Copy host arrays in, launch, copy back.
    let mut kargs = Vec::new();
    let mut copies: Vec<(DeviceView, NdArray)> = Vec::new();
    for p in &preps {
        match p {
            Prep::Device(v) => kargs.push(v.kernel_arg()),
            Prep::Scalar(s) => kargs.push(KernelArg::Scalar(*s)),
            Prep::Host {
                arr,
                copy_in,
                copy_out,
            } => {
                let view = api::alloc(rt, &arr.shape, arr.dtype, stream)?;
                if *copy_in {
                    api::htod(rt, arr, &view, stream, why())?;
                }
                kargs.push(view.kernel_arg());
                if *copy_out {
                    copies.push((view, arr.clone()));
                }
            }
        }
    }
    api::launch(rt, kernel.clone(), req.config, kargs, stream)?;
    if req.kernel.debug {
        // Numba checks a debug kernel's exception flag right after the launch, so the
        // raise happens at the call, not at a later synchronising one.
        api::stream_synchronize(rt, stream)?;
    }
    for (view, arr) in copies {
        api::dtoh(rt, &view, &arr, 0, why())?;
    }
    Ok(())
}

/// Where a kernel's warnings point: its `def` line, as `origin, line N`.
/// Numba warns about grids smaller than this (its heuristic: launches of fewer blocks
/// than a large GPU has multiprocessors leave it mostly idle).
const MIN_GRID_SIZE: usize = 128;

/// A switch of `numba.config` (which `NUMBA_<NAME>=0` turns off, as in Numba).
fn config_flag(rt: &mut Runtime, name: &str) -> bool {
    let Ok(config) = crate::py::registry::import(rt, "numba.config") else {
        return true;
    };
    match config.get(name) {
        Some(Value::Bool(b)) => b,
        Some(Value::Int(n)) => n != 0,
        _ => true,
    }
}

fn def_line(f: &crate::py::function::Function) -> String {
    let at = usize::from(ruff_text_size::Ranged::range(&*f.def).start()).min(f.source.len());
    let line = f.source[..at].matches('\n').count() + 1;
    format!("{}, line {line}", f.origin)
}

/// The states array for `n` generators as a host array of shape (n, 2), uint64.
pub fn states_array(n: usize, seed: u64, subsequence_start: u64) -> PyResult<NdArray> {
    crate::arrays::alloc::check(n, 16, "an array of random states")?;
    let arr = NdArray::zeros(&[n, 2], DType::U64).map_err(|e| {
        PyErr::memory_error(format!(
            "cannot allocate {} bytes for random states",
            e.bytes
        ))
    })?;
    // Millions of states (or a far subsequence) take seconds: watch for interrupts.
    let stop = crate::arrays::interrupt::flag();
    let done = crate::kernel::rng::for_each_state(n, seed, subsequence_start, |i, s| {
        if i != usize::MAX {
            arr.buf.write(i * 16, &s[0].to_le_bytes());
            arr.buf.write(i * 16 + 8, &s[1].to_le_bytes());
        }
        i % 65_536 != 65_535 || !crate::arrays::interrupt::pending(&stop)
    });
    if !done {
        crate::arrays::interrupt::check()?;
    }
    Ok(arr)
}

pub fn register_random(m: &Module) {
    m.def(
        Function,
        "create_xoroshiro128p_states",
        "n, seed, subsequence_start=0, stream=0",
        "A device array of n xoroshiro128+ generator states, each 2**64 steps apart, seeded like Numba's.",
        |rt, a| {
            let n = a[0].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(0);
            if n < 0 {
                return Err(PyErr::value_error("negative dimensions are not allowed"));
            }
            let seed = a[1].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(0) as u64;
            let sub = a[2].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(0);
            if sub < 0 {
                return Err(PyErr::value_error("subsequence_start must be non-negative"));
            }
            let stream = crate::numba_cuda::stream_objects::parse_stream(rt, a[3].as_ref())?;
            let host = states_array(n as usize, seed, sub as u64)?;
            let view = api::alloc(rt, &host.shape, DType::U64, stream)?;
            api::htod(rt, &host, &view, stream, Transfer { explicit: true, call: "create_xoroshiro128p_states".into() })?;
            Ok(crate::numba_cuda::device_records::DeviceRecords::value(
                view,
                &crate::py::records::XOROSHIRO128P,
            ))
        },
    );
}
