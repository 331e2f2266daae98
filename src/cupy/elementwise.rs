//! CuPy's device work on the CPU device: broadcasting elementwise operations, ufuncs and
//! reductions, queued on a stream like kernels and recorded in the ledger as launches.
//! (Own typed loops over f64/i64; values are cast to the result dtype when stored.)

use std::sync::Arc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::BinOp;
use crate::device::backend::Record;
use crate::device::copy::{buffer_of, region_of};
use crate::device::ledger::LedgerKind;
use crate::device::state::device;
use crate::device::{api, DeviceView};
use crate::kernel::abi::ArrayArg;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;

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

/// An input prepared for the worker: memory, offset and strides broadcast to the output.
#[derive(Clone)]
pub(crate) enum Input {
    Mem(ArrayArg),
    Const(f64, i64),
}

fn prepare(op: &Operand, shape: &[usize]) -> PyResult<Input> {
    Ok(match op {
        Operand::Arr(v) => {
            let strides = crate::numba_cuda::view_index::broadcast_to(&v.shape, &v.strides, shape)?;
            Input::Mem(ArrayArg {
                shape: shape.to_vec(),
                strides,
                ..region_of(v)
            })
        }
        Operand::Py(s) | Operand::Np(s) => Input::Const(s.as_f64(), s.as_i64()),
    })
}

/// Visit every element index (C order) as byte offsets of each input and the output.
pub(crate) fn for_each(
    shape: &[usize],
    inputs: &[Input],
    out: &ArrayArg,
    mut f: impl FnMut(&[usize], usize),
) {
    let n: usize = shape.iter().product();
    let mut idx = vec![0usize; shape.len()];
    let mut offs = vec![0usize; inputs.len()];
    for _ in 0..n {
        for (k, inp) in inputs.iter().enumerate() {
            if let Input::Mem(a) = inp {
                let mut o = a.offset as isize;
                for (ax, &i) in idx.iter().enumerate() {
                    o += i as isize * a.strides[ax];
                }
                offs[k] = o as usize;
            }
        }
        let mut oo = out.offset as isize;
        for (ax, &i) in idx.iter().enumerate() {
            oo += i as isize * out.strides[ax];
        }
        f(&offs, oo as usize);
        for ax in (0..idx.len()).rev() {
            idx[ax] += 1;
            if idx[ax] < shape[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
}

fn read(
    inp: &Input,
    off: usize,
    bufs: &[Option<Arc<crate::arrays::buffer::Buffer>>],
    k: usize,
) -> Scalar {
    match inp {
        Input::Const(f, i) => {
            if f.fract() == 0.0 && (*f as i64) == *i {
                Scalar::I64(*i)
            } else {
                Scalar::F64(*f)
            }
        }
        Input::Mem(a) => {
            let mut tmp = [0u8; 8];
            let isz = a.dtype.itemsize();
            bufs[k]
                .as_ref()
                // invariant: the job fills a buffer for every Input::Mem
                .expect("buffer for memory input")
                .read(off, &mut tmp[..isz]);
            Scalar::from_bytes(a.dtype, &tmp[..isz])
        }
    }
}

fn py_floor_mod_i(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

/// Apply a binary operator to two numbers computed in `calc` (float or int domain).
fn binary(op: BinOp, a: Scalar, b: Scalar, float: bool) -> Scalar {
    if float {
        let (x, y) = (a.as_f64(), b.as_f64());
        return match op {
            BinOp::Add => Scalar::F64(x + y),
            BinOp::Sub => Scalar::F64(x - y),
            BinOp::Mul => Scalar::F64(x * y),
            BinOp::Div => Scalar::F64(x / y),
            BinOp::FloorDiv => Scalar::F64((x / y).floor()),
            BinOp::Mod => Scalar::F64({
                let r = x % y;
                if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                    r + y
                } else {
                    r
                }
            }),
            BinOp::Pow => Scalar::F64(x.powf(y)),
            BinOp::Eq => Scalar::Bool(x == y),
            BinOp::Ne => Scalar::Bool(x != y),
            BinOp::Lt => Scalar::Bool(x < y),
            BinOp::Le => Scalar::Bool(x <= y),
            BinOp::Gt => Scalar::Bool(x > y),
            BinOp::Ge => Scalar::Bool(x >= y),
            _ => Scalar::F64(f64::NAN),
        };
    }
    let (x, y) = (a.as_i64(), b.as_i64());
    match op {
        BinOp::Add => Scalar::I64(x.wrapping_add(y)),
        BinOp::Sub => Scalar::I64(x.wrapping_sub(y)),
        BinOp::Mul => Scalar::I64(x.wrapping_mul(y)),
        BinOp::Div => Scalar::F64(x as f64 / y as f64),
        BinOp::FloorDiv => Scalar::I64(if y == 0 {
            0
        } else {
            x.div_euclid(y)
                - if (x.rem_euclid(y) != 0) && y < 0 {
                    1
                } else {
                    0
                }
        }),
        BinOp::Mod => Scalar::I64(py_floor_mod_i(x, y)),
        BinOp::Pow => Scalar::I64(if y < 0 {
            0
        } else {
            x.wrapping_pow(y.min(u32::MAX as i64) as u32)
        }),
        BinOp::BitAnd => Scalar::I64(x & y),
        BinOp::BitOr => Scalar::I64(x | y),
        BinOp::BitXor => Scalar::I64(x ^ y),
        BinOp::LShift => Scalar::I64(x.wrapping_shl(y as u32)),
        BinOp::RShift => Scalar::I64(x.wrapping_shr(y as u32)),
        BinOp::Eq => Scalar::Bool(x == y),
        BinOp::Ne => Scalar::Bool(x != y),
        BinOp::Lt => Scalar::Bool(x < y),
        BinOp::Le => Scalar::Bool(x <= y),
        BinOp::Gt => Scalar::Bool(x > y),
        BinOp::Ge => Scalar::Bool(x >= y),
        BinOp::MatMul => Scalar::I64(0),
    }
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

/// Queue `out = a <op> b` (NumPy broadcasting and type rules); returns the new array.
pub fn binary_op(rt: &mut Runtime, op: BinOp, a: Operand, b: Operand) -> PyResult<DeviceView> {
    if op == BinOp::MatMul {
        return Err(PyErr::not_implemented(
            "matmul (@) on CuPy arrays is not supported by nbcuda",
        ));
    }
    let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
    let common = result_dtype(&[a.clone(), b.clone()]);
    let is_cmp = matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    );
    let bitwise = matches!(
        op,
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::LShift | BinOp::RShift
    );
    if bitwise && common.is_float() {
        return Err(PyErr::type_error(format!(
            "ufunc for {} is not supported for the input types (float)",
            op.symbol()
        )));
    }
    let out_dtype = if is_cmp {
        DType::Bool
    } else if op == BinOp::Div && !common.is_float() {
        DType::F64
    } else if common == DType::Bool && !bitwise {
        match op {
            BinOp::Add | BinOp::Mul => DType::Bool,
            _ => DType::I64,
        }
    } else {
        common
    };
    let float = common.is_float();
    let stream = stream_of(rt, &[a.clone(), b.clone()]);
    let out = api::alloc(rt, &shape, out_dtype, stream)?;
    let name = format!("cupy_{}", op_name(op));
    if out_dtype == common {
        let fast = (
            crate::cupy::fast::source(&a, &shape, common),
            crate::cupy::fast::source(&b, &shape, common),
        );
        if let (Some(fa), Some(fb)) = fast {
            if let Some(job) = crate::cupy::fast::binary_job(op, common, fa, fb, &out) {
                queue(rt, stream, &name, out.size() * out_dtype.itemsize(), job);
                return Ok(out);
            }
        }
    }
    queue_elementwise(rt, stream, &name, vec![a, b], out.clone(), move |v| {
        binary(op, v[0], v[1], float)
    })?;
    Ok(out)
}

/// Queue `out[i] = f(operands[i]...)` with NumPy broadcasting of the operands to
/// `out`'s shape; `f` gets each operand's element (Python numbers as given) and its result
/// is cast to `out`'s dtype.
pub fn queue_elementwise(
    rt: &mut Runtime,
    stream: u64,
    name: &str,
    operands: Vec<Operand>,
    out: DeviceView,
    f: impl Fn(&[Scalar]) -> Scalar + Send + 'static,
) -> PyResult<()> {
    let shape = out.shape.clone();
    let inputs = operands
        .iter()
        .map(|o| prepare(o, &shape))
        .collect::<PyResult<Vec<_>>>()?;
    let out_dtype = out.dtype;
    let dst = region_of(&out);
    queue(
        rt,
        stream,
        name,
        out.size() * out_dtype.itemsize(),
        move || {
            let bufs: Vec<Option<Arc<crate::arrays::buffer::Buffer>>> = inputs
                .iter()
                .map(|i| match i {
                    Input::Mem(a) => Some(buffer_of(&a.mem)),
                    Input::Const(..) => None,
                })
                .collect();
            let ob = buffer_of(&dst.mem);
            let mut vals = vec![Scalar::I64(0); inputs.len()];
            for_each(&dst.shape.clone(), &inputs, &dst, |offs, oo| {
                for (k, v) in vals.iter_mut().enumerate() {
                    *v = read(&inputs[k], offs[k], &bufs, k);
                }
                ob.write(oo, &f(&vals).cast(out_dtype).to_bytes());
            });
        },
    );
    Ok(())
}

fn op_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "subtract",
        BinOp::Mul => "multiply",
        BinOp::Div => "true_divide",
        BinOp::FloorDiv => "floor_divide",
        BinOp::Mod => "remainder",
        BinOp::Pow => "power",
        BinOp::Eq => "equal",
        BinOp::Ne => "not_equal",
        BinOp::Lt => "less",
        BinOp::Le => "less_equal",
        BinOp::Gt => "greater",
        BinOp::Ge => "greater_equal",
        BinOp::BitAnd => "bitwise_and",
        BinOp::BitOr => "bitwise_or",
        BinOp::BitXor => "bitwise_xor",
        BinOp::LShift => "left_shift",
        BinOp::RShift => "right_shift",
        BinOp::MatMul => "matmul",
    }
}

/// Queue a piece of CuPy device work recorded as a kernel launch.
pub fn queue(
    rt: &mut Runtime,
    stream: u64,
    name: &str,
    bytes: usize,
    work: impl FnOnce() + Send + 'static,
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

/// The unary ufuncs CuPy provides here.
pub const UNARY: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sqrt",
    "cbrt",
    "abs",
    "absolute",
    "negative",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "square",
    "sign",
    "fabs",
    "reciprocal",
];

fn unary_f(name: &str, x: f64) -> f64 {
    match name {
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "arcsin" => x.asin(),
        "arccos" => x.acos(),
        "arctan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "expm1" => x.exp_m1(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        "log1p" => x.ln_1p(),
        "sqrt" => x.sqrt(),
        "cbrt" => x.cbrt(),
        "abs" | "absolute" | "fabs" => x.abs(),
        "negative" => -x,
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "trunc" => x.trunc(),
        "rint" => x.round_ties_even(),
        "square" => x * x,
        "sign" => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        "reciprocal" => 1.0 / x,
        _ => f64::NAN,
    }
}

/// Queue a unary ufunc over a view.
pub fn unary(rt: &mut Runtime, name: &str, a: &DeviceView) -> PyResult<DeviceView> {
    let keeps_int = matches!(name, "abs" | "absolute" | "negative" | "square" | "sign");
    let out_dtype = if a.dtype.is_float() || (keeps_int && a.dtype != DType::Bool) {
        a.dtype
    } else if a.dtype.itemsize() <= 2 {
        DType::F32
    } else {
        DType::F64
    };
    let stream = stream_of(rt, &[Operand::Arr(a.clone())]);
    let out = api::alloc(rt, &a.shape, out_dtype, stream)?;
    if let Some(job) = crate::cupy::fast::unary_job(name, a, &out) {
        let bytes = out.size() * out_dtype.itemsize();
        queue(rt, stream, &format!("cupy_{name}"), bytes, job);
        return Ok(out);
    }
    let inputs = vec![prepare(&Operand::Arr(a.clone()), &a.shape)?];
    let dst = region_of(&out);
    let fname = name.to_string();
    let int_path = keeps_int && !a.dtype.is_float();
    queue(
        rt,
        stream,
        &format!("cupy_{name}"),
        out.size() * out_dtype.itemsize(),
        move || {
            let bufs = vec![Some(buffer_of(&match &inputs[0] {
                Input::Mem(m) => m.mem.clone(),
                Input::Const(..) => unreachable!(),
            }))];
            let ob = buffer_of(&dst.mem);
            for_each(&dst.shape.clone(), &inputs, &dst, |offs, oo| {
                let x = read(&inputs[0], offs[0], &bufs, 0);
                let r = if int_path {
                    let i = x.as_i64();
                    Scalar::I64(match fname.as_str() {
                        "abs" | "absolute" => i.wrapping_abs(),
                        "negative" => i.wrapping_neg(),
                        "square" => i.wrapping_mul(i),
                        _ => i.signum(),
                    })
                } else {
                    Scalar::F64(unary_f(&fname, x.as_f64()))
                };
                ob.write(oo, &r.cast(out_dtype).to_bytes());
            });
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
