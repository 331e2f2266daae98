//! Elementwise operations with NumPy 2 semantics: type promotion (NEP 50: Python scalars
//! are "weak"), broadcasting, `out=`, and typed loops split across cores for big arrays.

use std::borrow::Cow;

use rayon::prelude::*;

use crate::arrays::typed::{fresh_slice_mut, load, store, Elem};
use crate::arrays::{DType, NdArray};
use crate::language::{BinOp, PyErr, PyResult};
use crate::with_dtype;

/// Work below this many elements stays on one core (thread hand-off costs more).
const PAR_MIN: usize = 1 << 16;

/// One side of an elementwise operation.
#[derive(Clone)]
pub enum Operand {
    Arr(NdArray),
    /// Python scalars adapt to the array's dtype (NEP 50).
    PyInt(i64),
    PyFloat(f64),
    PyBool(bool),
}

impl Operand {
    pub fn shape(&self) -> &[usize] {
        match self {
            Operand::Arr(a) => &a.shape,
            _ => &[],
        }
    }
}

pub fn alloc_error(shape: &[usize], dtype: DType) -> PyErr {
    let n: usize = shape.iter().product();
    let bytes = n as f64 * dtype.itemsize() as f64;
    let (v, u) = [
        ("TiB", 1u64 << 40),
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
    ]
    .iter()
    .find(|(_, s)| bytes >= *s as f64)
    .map(|(u, s)| (bytes / *s as f64, *u))
    .unwrap_or((bytes, "B"));
    PyErr::memory_error(format!(
        "Unable to allocate {v:.3} {u} for an array with shape {} and data type {}",
        shape_repr(shape),
        dtype.name()
    ))
    .with_hint("use a smaller array, or a smaller dtype such as float32")
}

pub fn shape_repr(shape: &[usize]) -> String {
    match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub fn new_array(shape: &[usize], dtype: DType) -> PyResult<NdArray> {
    NdArray::zeros(shape, dtype).map_err(|_| alloc_error(shape, dtype))
}

/// NumPy's promotion of two array dtypes.
pub fn promote(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    let rank = |d: DType| match d {
        Bool => 0,
        I8 | U8 => 1,
        I16 | U16 => 2,
        I32 | U32 => 3,
        I64 | U64 => 4,
        F32 => 5,
        F64 => 6,
    };
    match (a, b) {
        (Bool, x) | (x, Bool) => x,
        (F64, _) | (_, F64) => F64,
        (F32, x) | (x, F32) => {
            if rank(x) <= 2 {
                F32
            } else {
                F64
            }
        }
        _ => {
            // Both integers.
            if a.is_signed() == b.is_signed() {
                if rank(a) >= rank(b) {
                    a
                } else {
                    b
                }
            } else {
                let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
                if rank(s) > rank(u) {
                    s
                } else {
                    match u {
                        U8 => I16,
                        U16 => I32,
                        U32 => I64,
                        _ => F64,
                    }
                }
            }
        }
    }
}

/// The dtype an operation computes in, from its operands (NEP 50 weak Python scalars).
pub fn result_dtype(a: &Operand, b: &Operand) -> DType {
    let weak = |arr: DType, s: &Operand| match s {
        Operand::PyBool(_) => arr,
        Operand::PyInt(_) => {
            if arr == DType::Bool {
                DType::I64
            } else {
                arr
            }
        }
        Operand::PyFloat(_) => {
            if arr.is_float() {
                arr
            } else {
                DType::F64
            }
        }
        Operand::Arr(_) => unreachable!("strong operand"),
    };
    match (a, b) {
        (Operand::Arr(x), Operand::Arr(y)) => promote(x.dtype, y.dtype),
        (Operand::Arr(x), s) | (s, Operand::Arr(x)) => weak(x.dtype, s),
        (Operand::PyFloat(_), _) | (_, Operand::PyFloat(_)) => DType::F64,
        (Operand::PyInt(_), _) | (_, Operand::PyInt(_)) => DType::I64,
        _ => DType::Bool,
    }
}

pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> PyResult<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let y = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return Err(PyErr::value_error(format!(
                "operands could not be broadcast together with shapes {} {} ",
                shape_repr(a),
                shape_repr(b)
            )));
        };
    }
    Ok(out)
}

/// An operand loaded as `T` for a loop: a slice of the broadcast shape or a constant.
enum Src<'a, T: Elem> {
    Slice(Cow<'a, [T]>),
    Const(T),
}

fn source<'a, T: Elem>(op: &'a Operand, shape: &[usize]) -> Src<'a, T> {
    match op {
        Operand::Arr(a)
            if a.size() == 1 && a.ndim() <= shape.len() && shape.iter().product::<usize>() > 1 =>
        {
            Src::Const(load::<T>(a, &a.shape)[0])
        }
        Operand::Arr(a) => Src::Slice(load::<T>(a, shape)),
        Operand::PyInt(i) => Src::Const(T::from_i64(*i)),
        Operand::PyFloat(f) => Src::Const(T::from_f64(*f)),
        Operand::PyBool(b) => Src::Const(T::from_i64(*b as i64)),
    }
}

/// out[i] = f(a[i], b[i]) over typed slices, in parallel chunks for big arrays.
fn zip_map<T: Elem, R: Elem>(a: &Src<T>, b: &Src<T>, out: &mut [R], f: impl Fn(T, T) -> R + Sync) {
    let n = out.len();
    let run = |start: usize, chunk: &mut [R]| match (a, b) {
        (Src::Slice(x), Src::Slice(y)) => {
            for ((o, &p), &q) in chunk.iter_mut().zip(&x[start..]).zip(&y[start..]) {
                *o = f(p, q);
            }
        }
        (Src::Slice(x), Src::Const(c)) => {
            for (o, &p) in chunk.iter_mut().zip(&x[start..]) {
                *o = f(p, *c);
            }
        }
        (Src::Const(c), Src::Slice(y)) => {
            for (o, &q) in chunk.iter_mut().zip(&y[start..]) {
                *o = f(*c, q);
            }
        }
        (Src::Const(c), Src::Const(d)) => chunk.iter_mut().for_each(|o| *o = f(*c, *d)),
    };
    if n >= PAR_MIN {
        let chunk = n
            .div_ceil(rayon::current_num_threads() * 4)
            .max(PAR_MIN / 4);
        out.par_chunks_mut(chunk)
            .enumerate()
            .for_each(|(i, c)| run(i * chunk, c));
    } else {
        run(0, out);
    }
}

/// Map a unary function over a typed source into a typed output.
pub fn map_unary<T: Elem, R: Elem>(src: &[T], out: &mut [R], f: impl Fn(T) -> R + Sync) {
    if src.len() >= PAR_MIN {
        let chunk = src
            .len()
            .div_ceil(rayon::current_num_threads() * 4)
            .max(PAR_MIN / 4);
        out.par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .for_each(|(o, s)| o.iter_mut().zip(s).for_each(|(o, &x)| *o = f(x)));
    } else {
        out.iter_mut().zip(src).for_each(|(o, &x)| *o = f(x));
    }
}

fn py_floordiv_i(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn py_mod_i(a: i64, b: i64) -> i64 {
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

fn py_mod_f(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else {
        r
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

fn op_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "subtract",
        BinOp::Mul => "multiply",
        BinOp::Div => "divide",
        BinOp::FloorDiv => "floor_divide",
        BinOp::Mod => "remainder",
        BinOp::Pow => "power",
        BinOp::BitAnd => "bitwise_and",
        BinOp::BitOr => "bitwise_or",
        BinOp::BitXor => "bitwise_xor",
        BinOp::LShift => "left_shift",
        BinOp::RShift => "right_shift",
        _ => "operation",
    }
}

/// `a op b` elementwise, optionally into `out`.
pub fn binary(op: BinOp, a: &Operand, b: &Operand, out: Option<&NdArray>) -> PyResult<NdArray> {
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    let common = result_dtype(a, b);
    let cmp = is_comparison(op);
    let rdt = match op {
        _ if cmp => DType::Bool,
        BinOp::Div if !common.is_float() => DType::F64,
        BinOp::Sub if common == DType::Bool => {
            return Err(PyErr::type_error(
                "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.",
            ))
        }
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::LShift | BinOp::RShift if common.is_float() => {
            return Err(PyErr::type_error(format!(
                "ufunc '{}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                op_name(op)
            )))
        }
        BinOp::MatMul => return Err(PyErr::not_implemented("the @ operator (matmul) is not supported by nbcuda's NumPy")),
        _ => common,
    };
    if let BinOp::Pow = op {
        if common.is_integer() {
            if let Operand::PyInt(e) = b {
                if *e < 0 {
                    return Err(PyErr::value_error(
                        "Integers to negative integer powers are not allowed.",
                    ));
                }
            }
        }
    }
    let result = new_array(&shape, rdt)?;
    let compute = if cmp { common } else { rdt };
    // SAFETY: `result` was just allocated and is not shared.
    match compute {
        DType::F32 | DType::F64 => with_dtype!(compute, F => {
            let (x, y) = (source::<F>(a, &shape), source::<F>(b, &shape));
            if cmp {
                let o = unsafe { fresh_slice_mut::<u8>(&result) };
                let f = cmp_fn::<F>(op);
                zip_map(&x, &y, o, move |p, q| f(p, q) as u8);
            } else {
                let o = unsafe { fresh_slice_mut::<F>(&result) };
                match op {
                    BinOp::Add => zip_map(&x, &y, o, |p, q| p + q),
                    BinOp::Sub => zip_map(&x, &y, o, |p, q| p - q),
                    BinOp::Mul => zip_map(&x, &y, o, |p, q| p * q),
                    BinOp::Div => zip_map(&x, &y, o, |p, q| p / q),
                    BinOp::FloorDiv => zip_map(&x, &y, o, |p, q| F::from_f64((p.to_f64() / q.to_f64()).floor())),
                    BinOp::Mod => zip_map(&x, &y, o, |p, q| F::from_f64(py_mod_f(p.to_f64(), q.to_f64()))),
                    BinOp::Pow => zip_map(&x, &y, o, |p, q| F::from_f64(p.to_f64().powf(q.to_f64()))),
                    _ => unreachable!("checked above"),
                }
            }
        }),
        _ => {
            let (x, y) = (source::<i64>(a, &shape), source::<i64>(b, &shape));
            let big_unsigned = compute == DType::U64;
            if cmp {
                let o = unsafe { fresh_slice_mut::<u8>(&result) };
                let f = if big_unsigned {
                    cmp_u64(op)
                } else {
                    cmp_fn::<i64>(op)
                };
                zip_map(&x, &y, o, move |p, q| f(p, q) as u8);
            } else {
                let mut v = vec![0i64; result.size()];
                let bool_logic = compute == DType::Bool;
                match op {
                    BinOp::Add if bool_logic => {
                        zip_map(&x, &y, &mut v, |p, q| ((p | q) != 0) as i64)
                    }
                    BinOp::Mul if bool_logic => {
                        zip_map(&x, &y, &mut v, |p, q| ((p & q) != 0) as i64)
                    }
                    BinOp::Add => zip_map(&x, &y, &mut v, |p, q| p.wrapping_add(q)),
                    BinOp::Sub => zip_map(&x, &y, &mut v, |p, q| p.wrapping_sub(q)),
                    BinOp::Mul => zip_map(&x, &y, &mut v, |p, q| p.wrapping_mul(q)),
                    BinOp::FloorDiv => zip_map(&x, &y, &mut v, py_floordiv_i),
                    BinOp::Mod => zip_map(&x, &y, &mut v, py_mod_i),
                    BinOp::Pow => zip_map(&x, &y, &mut v, |p, q| {
                        p.wrapping_pow(q.clamp(0, u32::MAX as i64) as u32)
                    }),
                    BinOp::BitAnd => zip_map(&x, &y, &mut v, |p, q| p & q),
                    BinOp::BitOr => zip_map(&x, &y, &mut v, |p, q| p | q),
                    BinOp::BitXor => zip_map(&x, &y, &mut v, |p, q| p ^ q),
                    BinOp::LShift => zip_map(&x, &y, &mut v, |p, q| {
                        if (0..64).contains(&q) {
                            p << q
                        } else {
                            0
                        }
                    }),
                    BinOp::RShift => zip_map(&x, &y, &mut v, |p, q| {
                        if (0..64).contains(&q) {
                            p >> q
                        } else if p < 0 {
                            -1
                        } else {
                            0
                        }
                    }),
                    _ => unreachable!("checked above"),
                }
                store(&result, &v);
            }
        }
    }
    match out {
        Some(o) => {
            copy_into(o, &result)?;
            Ok(o.clone())
        }
        None => Ok(result),
    }
}

fn cmp_fn<T: Elem>(op: BinOp) -> fn(T, T) -> bool {
    match op {
        BinOp::Eq => |p, q| p == q,
        BinOp::Ne => |p, q| p != q,
        BinOp::Lt => |p, q| p < q,
        BinOp::Le => |p, q| p <= q,
        BinOp::Gt => |p, q| p > q,
        _ => |p, q| p >= q,
    }
}

fn cmp_u64(op: BinOp) -> fn(i64, i64) -> bool {
    match op {
        BinOp::Eq => |p, q| p == q,
        BinOp::Ne => |p, q| p != q,
        BinOp::Lt => |p, q| (p as u64) < (q as u64),
        BinOp::Le => |p, q| (p as u64) <= (q as u64),
        BinOp::Gt => |p, q| (p as u64) > (q as u64),
        _ => |p, q| (p as u64) >= (q as u64),
    }
}

/// `a.astype(dtype)`: a new C-contiguous array.
pub fn cast(a: &NdArray, to: DType) -> PyResult<NdArray> {
    let out = new_array(&a.shape, to)?;
    copy_into(&out, a)?;
    Ok(out)
}

/// Copy `src` into the view `dst` (broadcasting `src`), converting dtypes.
pub fn copy_into(dst: &NdArray, src: &NdArray) -> PyResult<()> {
    let shape = broadcast_shapes(&dst.shape, &src.shape)?;
    if shape != dst.shape {
        return Err(PyErr::value_error(format!(
            "could not broadcast input array from shape {} into shape {}",
            shape_repr(&src.shape),
            shape_repr(&dst.shape)
        )));
    }
    // Fast path: same dtype, both contiguous, same shape: one memcpy (in parallel chunks).
    if dst.dtype == src.dtype
        && src.shape == dst.shape
        && src.is_c_contiguous()
        && dst.is_c_contiguous()
    {
        let len = dst.nbytes();
        if std::ptr::eq(&*dst.buf, &*src.buf) && dst.offset == src.offset {
            return Ok(());
        }
        parallel_copy(dst, src, len);
        return Ok(());
    }
    if src.dtype == DType::Bool && dst.dtype != DType::Bool {
        let v = load::<u8>(src, &dst.shape);
        store(dst, &v);
    } else if dst.dtype == DType::Bool {
        let v = load::<f64>(src, &dst.shape);
        store(dst, &v);
    } else {
        with_dtype!(dst.dtype, D => {
            let v = load::<D>(src, &dst.shape);
            store(dst, &v);
        })
    }
    Ok(())
}

fn parallel_copy(dst: &NdArray, src: &NdArray, len: usize) {
    const CHUNK: usize = 1 << 20;
    if len < 4 * CHUNK {
        dst.buf.copy_from(dst.offset, &src.buf, src.offset, len);
        return;
    }
    (0..len.div_ceil(CHUNK)).into_par_iter().for_each(|k| {
        let start = k * CHUNK;
        let n = CHUNK.min(len - start);
        dst.buf
            .copy_from(dst.offset + start, &src.buf, src.offset + start, n);
    });
}

/// A C-contiguous copy.
pub fn contiguous_copy(a: &NdArray) -> PyResult<NdArray> {
    cast(a, a.dtype)
}

/// Convert a typed value vector to the right array (helper for callers).
pub fn array_from<T: Elem>(shape: &[usize], dtype: DType, v: &[T]) -> PyResult<NdArray> {
    crate::arrays::typed::from_vec(shape, dtype, v).map_err(|_| alloc_error(shape, dtype))
}

/// Elementwise conversion helper used by reductions and ufuncs.
pub fn to_vec<T: Elem>(a: &NdArray) -> Vec<T> {
    load::<T>(a, &a.shape).into_owned()
}
