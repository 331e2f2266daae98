//! Fast paths for CuPy's most common work: same-dtype arithmetic and float ufuncs over
//! C-contiguous arrays (and scalars). Work is split into chunks run in parallel; each
//! chunk is copied out of the buffer, computed in native precision (float32 stays float32,
//! as on the GPU) and copied back, so no unsafe code is needed here.

use std::sync::Arc;

use rayon::prelude::*;

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::DType;
use crate::arrays::operator::BinOp;
use crate::cupy::elementwise::Operand;
use crate::device::DeviceView;

const CHUNK: usize = 16 * 1024;

/// A contiguous source: memory at a byte offset, or one value.
#[derive(Clone)]
pub enum Src {
    Mem(Arc<Buffer>, usize),
    Const(f64, i64),
}

fn c_contig(v: &DeviceView) -> bool {
    crate::arrays::contiguous(&v.shape, &v.strides, v.dtype.itemsize(), true)
}

/// A fast source for an operand of an operation producing `shape` in `dtype`, if any.
pub fn source(op: &Operand, shape: &[usize], dtype: DType) -> Option<Src> {
    match op {
        Operand::Arr(v) if v.dtype == dtype && v.shape == shape && c_contig(v) => {
            let buf = crate::device::copy::buffer_of(&crate::kernel::abi::ArgMem::Device(
                v.alloc.clone(),
            ));
            Some(Src::Mem(buf, v.offset))
        }
        Operand::Arr(_) => None,
        Operand::Py(s) | Operand::Np(s) => Some(Src::Const(s.as_f64(), s.as_i64())),
    }
}

macro_rules! typed {
    ($t:ty, $n:expr) => {
        impl Elem for $t {
            const SIZE: usize = $n;
            fn load(b: &[u8]) -> Self {
                // invariant: callers pass chunks_exact(SIZE) slices (reduce_all_job checks the dtype first)
                <$t>::from_le_bytes(b.try_into().expect("element bytes"))
            }
            fn store(self, b: &mut [u8]) {
                b.copy_from_slice(&self.to_le_bytes())
            }
        }
    };
}

trait Elem: Copy + Send + Sync + 'static {
    const SIZE: usize;
    fn load(b: &[u8]) -> Self;
    fn store(self, b: &mut [u8]);
}
typed!(f32, 4);
typed!(f64, 8);
typed!(i32, 4);
typed!(i64, 8);

fn load_chunk<T: Elem>(src: &Src, start: usize, len: usize, konst: T) -> Vec<T> {
    match src {
        Src::Const(..) => vec![konst; len], // bounded: one chunk (<= CHUNK)
        Src::Mem(buf, off) => {
            let mut bytes = vec![0u8; len * T::SIZE]; // bounded: one chunk (<= CHUNK)
            buf.read(off + start * T::SIZE, &mut bytes);
            bytes.chunks_exact(T::SIZE).map(T::load).collect()
        }
    }
}

fn run<T: Elem>(
    a: Src,
    b: Option<Src>,
    out: (Arc<Buffer>, usize),
    n: usize,
    konst: impl Fn(&Src) -> T + Sync,
    f: impl Fn(T, T) -> T + Sync,
) {
    (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
        let start = c * CHUNK;
        let len = CHUNK.min(n - start);
        let xa = load_chunk(&a, start, len, konst(&a));
        let xb = match &b {
            Some(b) => load_chunk(b, start, len, konst(b)),
            None => xa.clone(),
        };
        let mut bytes = vec![0u8; len * T::SIZE]; // bounded: one chunk (<= CHUNK)
        for ((x, y), o) in xa.iter().zip(&xb).zip(bytes.chunks_exact_mut(T::SIZE)) {
            f(*x, *y).store(o);
        }
        out.0.write(out.1 + start * T::SIZE, &bytes);
    });
}

/// The job for `a <op> b` when both sources are fast and the dtype and op are covered.
pub fn binary_job(
    op: BinOp,
    dtype: DType,
    a: Src,
    b: Src,
    out: &DeviceView,
) -> Option<Box<dyn FnOnce() + Send>> {
    let n = out.size();
    let dst = (
        crate::device::copy::buffer_of(&crate::kernel::abi::ArgMem::Device(out.alloc.clone())),
        out.offset,
    );
    macro_rules! float_job {
        ($t:ty) => {{
            let f: fn($t, $t) -> $t = match op {
                BinOp::Add => |x, y| x + y,
                BinOp::Sub => |x, y| x - y,
                BinOp::Mul => |x, y| x * y,
                BinOp::Div => |x, y| x / y,
                BinOp::Pow => |x, y| x.powf(y),
                _ => return None,
            };
            Some(Box::new(move || {
                run::<$t>(
                    a,
                    Some(b),
                    dst,
                    n,
                    |s| match s {
                        Src::Const(f, _) => *f as $t,
                        _ => 0.0,
                    },
                    f,
                )
            }) as Box<dyn FnOnce() + Send>)
        }};
    }
    macro_rules! int_job {
        ($t:ty) => {{
            let f: fn($t, $t) -> $t = match op {
                BinOp::Add => |x, y| x.wrapping_add(y),
                BinOp::Sub => |x, y| x.wrapping_sub(y),
                BinOp::Mul => |x, y| x.wrapping_mul(y),
                _ => return None,
            };
            Some(Box::new(move || {
                run::<$t>(
                    a,
                    Some(b),
                    dst,
                    n,
                    |s| match s {
                        Src::Const(_, i) => *i as $t,
                        _ => 0,
                    },
                    f,
                )
            }) as Box<dyn FnOnce() + Send>)
        }};
    }
    match dtype {
        DType::F32 => float_job!(f32),
        DType::F64 => float_job!(f64),
        DType::I32 => int_job!(i32),
        DType::I64 => int_job!(i64),
        _ => None,
    }
}

/// The job for a float ufunc over a C-contiguous float array (same dtype out).
pub fn unary_job(name: &str, a: &DeviceView, out: &DeviceView) -> Option<Box<dyn FnOnce() + Send>> {
    if !c_contig(a) || a.dtype != out.dtype {
        return None;
    }
    let src = source(&Operand::Arr(a.clone()), &a.shape, a.dtype)?;
    let n = out.size();
    let dst = (
        crate::device::copy::buffer_of(&crate::kernel::abi::ArgMem::Device(out.alloc.clone())),
        out.offset,
    );
    macro_rules! job {
        ($t:ty) => {{
            let f: fn($t, $t) -> $t = match name {
                "sin" => |x, _| x.sin(),
                "cos" => |x, _| x.cos(),
                "tan" => |x, _| x.tan(),
                "exp" => |x, _| x.exp(),
                "log" => |x, _| x.ln(),
                "log10" => |x, _| x.log10(),
                "log2" => |x, _| x.log2(),
                "sqrt" => |x, _| x.sqrt(),
                "abs" | "absolute" | "fabs" => |x, _| x.abs(),
                "negative" => |x, _| -x,
                "square" => |x, _| x * x,
                "tanh" => |x, _| x.tanh(),
                "floor" => |x, _| x.floor(),
                "ceil" => |x, _| x.ceil(),
                _ => return None,
            };
            Some(Box::new(move || run::<$t>(src, None, dst, n, |_| 0.0, f))
                as Box<dyn FnOnce() + Send>)
        }};
    }
    match a.dtype {
        DType::F32 => job!(f32),
        DType::F64 => job!(f64),
        _ => None,
    }
}

/// Partial results of one chunk of a whole-array reduction.
#[derive(Clone, Copy)]
struct Partial {
    sum_f: f64,
    sum_i: i64,
    min: f64,
    max: f64,
    nan: bool,
}

fn partial_of(xs: impl Iterator<Item = (f64, i64)>) -> Partial {
    let mut p = Partial {
        sum_f: 0.0,
        sum_i: 0,
        min: f64::INFINITY,
        max: f64::NEG_INFINITY,
        nan: false,
    };
    for (f, i) in xs {
        p.sum_f += f;
        p.sum_i = p.sum_i.wrapping_add(i);
        if f.is_nan() {
            p.nan = true;
        }
        if f < p.min {
            p.min = f;
        }
        if f > p.max {
            p.max = f;
        }
    }
    p
}

/// Whole-array sum/mean/min/max of a C-contiguous array, in parallel chunks. Returns the
/// job, which writes one element of `out`.
pub fn reduce_all_job(
    kind: crate::cupy::reductions::Reduce,
    a: &DeviceView,
    out: &DeviceView,
) -> Option<Box<dyn FnOnce() + Send>> {
    use crate::cupy::reductions::Reduce;
    if !matches!(kind, Reduce::Sum | Reduce::Mean | Reduce::Min | Reduce::Max)
        || !c_contig(a)
        || a.size() == 0
        || !matches!(a.dtype, DType::F32 | DType::F64 | DType::I32 | DType::I64)
        // Integer extremes stay exact on the general path (f64 cannot hold every i64).
        || (!a.dtype.is_float() && matches!(kind, Reduce::Min | Reduce::Max))
    {
        return None;
    }
    let src = source(&Operand::Arr(a.clone()), &a.shape, a.dtype)?;
    let Src::Mem(buf, off) = src else { return None };
    let n = a.size();
    let dtype = a.dtype;
    let out_dtype = out.dtype;
    let dst = (
        crate::device::copy::buffer_of(&crate::kernel::abi::ArgMem::Device(out.alloc.clone())),
        out.offset,
    );
    Some(Box::new(move || {
        let isz = dtype.itemsize();
        let parts: Vec<Partial> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let start = c * CHUNK;
                let len = CHUNK.min(n - start);
                let mut bytes = vec![0u8; len * isz]; // bounded: one chunk (<= CHUNK)
                buf.read(off + start * isz, &mut bytes);
                let it = bytes.chunks_exact(isz);
                match dtype {
                    DType::F32 => partial_of(it.map(|b| (f32::load(b) as f64, 0))),
                    DType::F64 => partial_of(it.map(|b| (f64::load(b), 0))),
                    DType::I32 => partial_of(it.map(|b| {
                        let v = i32::load(b) as i64;
                        (v as f64, v)
                    })),
                    _ => partial_of(it.map(|b| {
                        let v = i64::load(b);
                        (v as f64, v)
                    })),
                }
            })
            .collect();
        let total = partial_of(std::iter::empty());
        let p = parts.iter().fold(total, |acc, p| Partial {
            sum_f: acc.sum_f + p.sum_f,
            sum_i: acc.sum_i.wrapping_add(p.sum_i),
            min: acc.min.min(p.min),
            max: acc.max.max(p.max),
            nan: acc.nan || p.nan,
        });
        let int = !dtype.is_float();
        let r = match kind {
            Reduce::Sum if int => crate::arrays::dtype::Scalar::I64(p.sum_i),
            Reduce::Sum => crate::arrays::dtype::Scalar::F64(p.sum_f),
            Reduce::Mean => crate::arrays::dtype::Scalar::F64(p.sum_f / n as f64),
            Reduce::Min if p.nan => crate::arrays::dtype::Scalar::F64(f64::NAN),
            Reduce::Max if p.nan => crate::arrays::dtype::Scalar::F64(f64::NAN),
            Reduce::Min => crate::arrays::dtype::Scalar::F64(p.min),
            _ => crate::arrays::dtype::Scalar::F64(p.max),
        };
        dst.0.write(dst.1, &r.cast(out_dtype).to_bytes());
    }))
}
