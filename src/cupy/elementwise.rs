//! CuPy's device work: broadcasting elementwise operations, ufuncs and reductions, queued
//! on a stream like kernels and recorded in the ledger as launches. The work itself is host
//! NumPy's engine ([`crate::arrays::ufunc`], [`crate::arrays::reduce`]) run over the device
//! memory, so CuPy computes what NumPy computes: the same type resolution (NEP 50 for
//! Python numbers), loops, rounding and errors.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{cast, new_array, scalar_array};
use crate::arrays::error::{ArrayError, ArrayErrorKind};
use crate::arrays::operator::{BinOp, Ufunc1};
use crate::arrays::ufunc::{binary_into, elementwise_unary, resolve2, Ufunc2};
use crate::arrays::NdArray;
use crate::device::backend::Record;
use crate::device::copy::{buffer_of, region_of};
use crate::device::ledger::LedgerKind;
use crate::device::state::device;
use crate::device::{api, DeviceView};
use crate::kernel::abi::{ArrayArg, KernelFault};
use crate::py::error::{PyErr, PyResult};
use crate::py::promote::weak_dtype;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// One operand of an elementwise operation.
#[derive(Clone)]
pub enum Operand {
    Arr(DeviceView),
    /// A Python number (weakly typed, NEP 50).
    Py(Scalar),
    /// A NumPy scalar (strongly typed).
    Np(Scalar),
}

impl Operand {
    fn shape(&self) -> &[usize] {
        match self {
            Operand::Arr(v) => &v.shape,
            _ => &[],
        }
    }
}

/// NumPy's `promote_types`: one definition, shared with host arrays.
pub use crate::arrays::promote::promote;

/// Result dtype of combining operands (NEP 50: Python numbers adapt to arrays).
pub fn result_dtype(ops: &[Operand]) -> DType {
    let strong: Vec<DType> = ops
        .iter()
        .filter_map(|o| match o {
            Operand::Arr(v) => Some(v.dtype),
            Operand::Np(s) => Some(s.dtype()),
            Operand::Py(_) => None,
        })
        .collect();
    let mut dt = strong.iter().copied().reduce(promote).unwrap_or(DType::F64);
    for o in ops {
        if let Operand::Py(s) = o {
            match s.dtype() {
                DType::F64 if !dt.is_float() => dt = DType::F64,
                DType::I64 if dt == DType::Bool => dt = DType::I64,
                _ => {}
            }
        }
    }
    dt
}

/// Broadcast shapes NumPy-style.
pub fn broadcast_shapes(shapes: &[&[usize]]) -> PyResult<Vec<usize>> {
    let nd = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; nd]; // bounded: one per dimension of the shapes
    for s in shapes {
        let lead = nd - s.len();
        for (i, &n) in s.iter().enumerate() {
            let o = &mut out[lead + i];
            if *o == 1 {
                *o = n;
            } else if n != 1 && n != *o {
                return Err(PyErr::value_error(format!(
                    "operands could not be broadcast together with shapes {}",
                    shapes
                        .iter()
                        .map(|s| api::shape_str(s))
                        .collect::<Vec<_>>()
                        .join(" ")
                )));
            }
        }
    }
    Ok(out)
}

/// CuPy's current stream (`with cp.cuda.Stream():` blocks push onto it).
#[derive(Default)]
pub struct CupyStreams {
    pub stack: Vec<u64>,
}

pub fn current_stream(rt: &mut Runtime) -> u64 {
    rt.state::<CupyStreams>().stack.last().copied().unwrap_or(0)
}

/// Operations run on the current stream, else on the first operand's stream.
pub(crate) fn stream_of(rt: &mut Runtime, ops: &[Operand]) -> u64 {
    let cur = current_stream(rt);
    if cur != 0 {
        return cur;
    }
    ops.iter()
        .find_map(|o| match o {
            Operand::Arr(v) if v.stream != 0 => Some(v.stream),
            _ => None,
        })
        .unwrap_or(0)
}

/// A Python number operand as the value it came from, for NEP 50's weak typing.
fn python_value(s: Scalar) -> Value {
    crate::py::value::scalar_to_python(s)
}

/// The dtype each operand takes part in type resolution with: an array's or NumPy
/// scalar's own; a Python number's by NEP 50, next to the strong operand (OverflowError for
/// an int the other's integer dtype cannot hold, as NumPy 2 raises).
fn operand_dtypes(a: &Operand, b: &Operand) -> PyResult<(DType, DType)> {
    let strong = |o: &Operand| match o {
        Operand::Arr(v) => Some(v.dtype),
        Operand::Np(s) => Some(s.dtype()),
        Operand::Py(_) => None,
    };
    let one = |o: &Operand, other: Option<DType>| -> PyResult<DType> {
        Ok(match (o, other) {
            (Operand::Py(s), Some(d)) => weak_dtype(&python_value(*s), d)?,
            (Operand::Py(s), None) => s.dtype(),
            (o, _) => strong(o).unwrap_or(DType::F64),
        })
    };
    Ok((one(a, strong(b))?, one(b, strong(a))?))
}

/// The host array an operand is while queued work runs: device memory (CPU device memory
/// itself, or a CUDA allocation's host mirror staged around the work) as a view, or a
/// number as a 0-d array of the dtype type resolution gave it.
pub(crate) enum Host {
    Mem(ArrayArg),
    Num(Scalar),
}

impl Host {
    pub(crate) fn of(o: &Operand, dtype: DType) -> Host {
        match o {
            Operand::Arr(v) => Host::Mem(region_of(v)),
            Operand::Py(s) | Operand::Np(s) => Host::Num(s.cast(dtype)),
        }
    }
    /// Only inside queued work: the memory is read where it is then.
    pub(crate) fn array(&self) -> NdArray {
        match self {
            Host::Mem(r) => host_view(r),
            Host::Num(s) => scalar_array(*s),
        }
    }
}

/// A region of device memory as a host array view (inside queued work only).
pub(crate) fn host_view(r: &ArrayArg) -> NdArray {
    NdArray {
        buf: buffer_of(&r.mem),
        offset: r.offset,
        shape: r.shape.clone(),
        strides: r.strides.clone(),
        dtype: r.dtype,
        view: true,
    }
}

/// The fault a failed piece of device work reports at the next synchronising call.
pub(crate) fn fault(e: ArrayError) -> KernelFault {
    match e.kind {
        ArrayErrorKind::KeyboardInterrupt => KernelFault::interrupted(),
        kind => KernelFault::raise(kind.python_name(), e.message),
    }
}

/// Refuse a result dtype the devices cannot hold (float16 and complex stay on the host).
pub(crate) fn device_dtype(d: DType) -> PyResult<DType> {
    if d.is_host_only() {
        return Err(PyErr::type_error(format!(
            "nbcuda's devices do not support {} arrays",
            d.name()
        ))
        .with_hint("Convert with .astype(np.float32) first."));
    }
    Ok(d)
}

/// Queue the binary ufunc `k` over two operands, with NumPy's broadcasting and type rules
/// (one engine with host NumPy: [`crate::arrays::ufunc`]); returns the new array.
pub fn binary_ufunc(rt: &mut Runtime, k: Ufunc2, a: Operand, b: Operand) -> PyResult<DeviceView> {
    let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
    let (da, db) = operand_dtypes(&a, &b)?;
    let (_, out_dtype) = resolve2(k, da, db)?;
    let out_dtype = device_dtype(out_dtype)?;
    let stream = stream_of(rt, &[a.clone(), b.clone()]);
    let out = api::alloc(rt, &shape, out_dtype, stream)?;
    let (x, y, dst) = (Host::of(&a, da), Host::of(&b, db), region_of(&out));
    let bytes = out.size() * out_dtype.itemsize();
    queue_fallible(
        rt,
        stream,
        &format!("cupy_{}", k.name()),
        bytes,
        move || binary_into(k, &x.array(), &y.array(), &host_view(&dst)).map_err(fault),
    );
    Ok(out)
}

/// Queue `out = a <op> b` for a Python operator.
pub fn binary_op(rt: &mut Runtime, op: BinOp, a: Operand, b: Operand) -> PyResult<DeviceView> {
    binary_ufunc(rt, Ufunc2::from_binop(op)?, a, b)
}

/// Queue a piece of CuPy device work recorded as a kernel launch.
pub fn queue(
    rt: &mut Runtime,
    stream: u64,
    name: &str,
    bytes: usize,
    work: impl FnOnce() + Send + 'static,
) {
    queue_fallible(rt, stream, name, bytes, move || {
        work();
        Ok(())
    })
}

/// [`queue`] for work that can fail (a host allocation, an interrupt): its fault is raised
/// at the next synchronising call, as a kernel's is.
pub fn queue_fallible(
    rt: &mut Runtime,
    stream: u64,
    name: &str,
    bytes: usize,
    work: impl FnOnce() -> Result<(), KernelFault> + Send + 'static,
) {
    if let Ok(dev) = device(rt) {
        dev.backend().run(
            stream,
            Record {
                kind: LedgerKind::Kernel,
                label: name.to_string(),
                explicit: true,
            },
            bytes,
            Box::new(work),
        );
    }
}

/// Queue a unary ufunc over a view (one engine with host NumPy:
/// [`crate::arrays::ufunc::elementwise_unary`]). Where NumPy would give float16 (float
/// ufuncs of bool, int8 and uint8), the devices compute in float32, as they hold no float16.
pub fn unary(rt: &mut Runtime, f: Ufunc1, a: &DeviceView) -> PyResult<DeviceView> {
    // The result dtype and NumPy's errors, from the same function on no elements.
    let probe = |d: DType| elementwise_unary(f, &new_array(&[0], d)?, None);
    let mut in_dtype = a.dtype;
    let mut out_dtype = probe(in_dtype)?.dtype;
    if out_dtype == DType::F16 {
        in_dtype = DType::F32;
        out_dtype = probe(in_dtype)?.dtype;
    }
    let out_dtype = device_dtype(out_dtype)?;
    let stream = stream_of(rt, &[Operand::Arr(a.clone())]);
    let out = api::alloc(rt, &a.shape, out_dtype, stream)?;
    let (src, dst) = (region_of(a), region_of(&out));
    let bytes = out.size() * out_dtype.itemsize();
    queue_fallible(
        rt,
        stream,
        &format!("cupy_{}", f.name()),
        bytes,
        move || {
            let x = host_view(&src);
            let x = if x.dtype == in_dtype {
                x
            } else {
                cast(&x, in_dtype).map_err(fault)?
            };
            elementwise_unary(f, &x, Some(&host_view(&dst)))
                .map(drop)
                .map_err(fault)
        },
    );
    Ok(out)
}

/// Queue a cast copy (`astype`, `copy`) into a new C-contiguous array.
pub fn cast_copy(rt: &mut Runtime, a: &DeviceView, dtype: DType) -> PyResult<DeviceView> {
    let stream = stream_of(rt, &[Operand::Arr(a.clone())]);
    let out = api::alloc(rt, &a.shape, dtype, stream)?;
    let src = region_of(a);
    let dst = region_of(&out);
    queue(
        rt,
        stream,
        "cupy_copy",
        out.size() * dtype.itemsize(),
        move || crate::device::copy::copy_region(&src, &dst),
    );
    Ok(out)
}

/// Queue a fill of a new array with one value.
pub fn full(
    rt: &mut Runtime,
    shape: &[usize],
    dtype: DType,
    value: Scalar,
) -> PyResult<DeviceView> {
    let stream = current_stream(rt);
    let out = api::alloc(rt, shape, dtype, stream)?;
    let dst = region_of(&out);
    // A byte-pattern fill is a memset on CUDA (cp.zeros); other values need a kernel.
    let bytes = value.cast(dtype).to_bytes();
    let memset = bytes.iter().all(|&b| b == bytes[0]);
    let rec = Record {
        kind: if memset {
            LedgerKind::Memset
        } else {
            LedgerKind::Kernel
        },
        label: "cupy_fill".into(),
        explicit: true,
    };
    device(rt)?.backend().fill(dst, value, stream, rec);
    Ok(out)
}

/// Queue `arange` into a new array.
pub fn arange(
    rt: &mut Runtime,
    start: f64,
    step: f64,
    n: usize,
    dtype: DType,
) -> PyResult<DeviceView> {
    let stream = current_stream(rt);
    let out = api::alloc(rt, &[n], dtype, stream)?;
    let dst = region_of(&out);
    queue(rt, stream, "cupy_arange", n * dtype.itemsize(), move || {
        let b = buffer_of(&dst.mem);
        let isz = dtype.itemsize();
        for i in 0..n {
            let v = start + i as f64 * step;
            let s = if dtype.is_float() {
                Scalar::F64(v)
            } else {
                Scalar::I64(v as i64)
            };
            b.write(dst.offset + i * isz, &s.cast(dtype).to_bytes());
        }
    });
    Ok(out)
}
