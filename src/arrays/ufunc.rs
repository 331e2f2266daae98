//! Elementwise operations on whole arrays: type resolution, broadcasting, `out=`, and the
//! dispatch from an operation name to a monomorphised kernel.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{
    as_slice, broadcast_shapes, broadcast_to, copy_into, first_scalar, new_array_for_overwrite,
    read_vec, shape_str, Elem, B8,
};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::kernels::{map, zip_pair, Bcast, ElemArith, Flt, Pair, Src};
use crate::arrays::operator::BinOp;
use crate::arrays::operator::{Arith, Cmp, MathFn, Ufunc1, Unary};
use crate::arrays::promote::{float_of, promote};
use crate::arrays::NdArray;
use crate::with_dtype;

/// A binary ufunc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ufunc2 {
    Arith(Arith),
    Cmp(Cmp),
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    /// `arctan2`, `hypot`, `fmod`, `copysign` and `nextafter`: the kernels' two-argument
    /// math functions.
    Math(MathFn),
    /// NumPy's `fmax`/`fmin`: the other operand where one is NaN.
    Fmax,
    Fmin,
}

impl Ufunc2 {
    pub fn from_binop(op: BinOp) -> ArrayResult<Ufunc2> {
        if let Some(a) = op.arith() {
            return Ok(Ufunc2::Arith(a));
        }
        if let Some(c) = op.cmp() {
            return Ok(Ufunc2::Cmp(c));
        }
        Err(ArrayError::not_implemented(
            "the @ operator (matmul) is not supported by nbcuda's arrays; use np.dot",
        ))
    }

    /// The ufunc's `__name__`, which NumPy's messages use: its first entry in
    /// [`BINARY_NAMES`].
    pub fn name(self) -> &'static str {
        BINARY_NAMES
            .iter()
            .find(|(_, u)| *u == self)
            .map_or("ufunc", |(n, _)| *n)
    }

    pub fn from_name(name: &str) -> Option<Ufunc2> {
        BINARY_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, u)| *u)
    }

    fn is_compare(self) -> bool {
        matches!(
            self,
            Ufunc2::Cmp(Cmp::Eq)
                | Ufunc2::Cmp(Cmp::Ne)
                | Ufunc2::Cmp(Cmp::Lt)
                | Ufunc2::Cmp(Cmp::Le)
                | Ufunc2::Cmp(Cmp::Gt)
                | Ufunc2::Cmp(Cmp::Ge)
        )
    }
}

fn no_loop(name: &str) -> ArrayError {
    ArrayError::type_error(format!(
        "ufunc '{name}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''"
    ))
}

/// The binary ufuncs by the names NumPy binds them to, for NumPy's and CuPy's modules: each
/// ufunc's own name first, then the aliases that are the same object
/// (`np.mod is np.remainder`).
pub const BINARY_NAMES: &[(&str, Ufunc2)] = &[
    ("add", Ufunc2::Arith(Arith::Add)),
    ("subtract", Ufunc2::Arith(Arith::Sub)),
    ("multiply", Ufunc2::Arith(Arith::Mul)),
    ("divide", Ufunc2::Arith(Arith::Div)),
    ("true_divide", Ufunc2::Arith(Arith::Div)),
    ("floor_divide", Ufunc2::Arith(Arith::FloorDiv)),
    ("power", Ufunc2::Arith(Arith::Pow)),
    ("remainder", Ufunc2::Arith(Arith::Mod)),
    ("mod", Ufunc2::Arith(Arith::Mod)),
    ("maximum", Ufunc2::Arith(Arith::Max)),
    ("minimum", Ufunc2::Arith(Arith::Min)),
    ("fmax", Ufunc2::Fmax),
    ("fmin", Ufunc2::Fmin),
    ("equal", Ufunc2::Cmp(Cmp::Eq)),
    ("not_equal", Ufunc2::Cmp(Cmp::Ne)),
    ("less", Ufunc2::Cmp(Cmp::Lt)),
    ("less_equal", Ufunc2::Cmp(Cmp::Le)),
    ("greater", Ufunc2::Cmp(Cmp::Gt)),
    ("greater_equal", Ufunc2::Cmp(Cmp::Ge)),
    ("bitwise_and", Ufunc2::Arith(Arith::BitAnd)),
    ("bitwise_or", Ufunc2::Arith(Arith::BitOr)),
    ("bitwise_xor", Ufunc2::Arith(Arith::BitXor)),
    ("left_shift", Ufunc2::Arith(Arith::LShift)),
    ("right_shift", Ufunc2::Arith(Arith::RShift)),
    ("logical_and", Ufunc2::LogicalAnd),
    ("logical_or", Ufunc2::LogicalOr),
    ("logical_xor", Ufunc2::LogicalXor),
    ("arctan2", Ufunc2::Math(MathFn::Atan2)),
    ("hypot", Ufunc2::Math(MathFn::Hypot)),
    ("fmod", Ufunc2::Math(MathFn::Fmod)),
    ("copysign", Ufunc2::Math(MathFn::Copysign)),
    ("nextafter", Ufunc2::Math(MathFn::Nextafter)),
];

/// (compute dtype, result dtype) for a binary ufunc on these input dtypes.
pub fn resolve2(k: Ufunc2, a: DType, b: DType) -> ArrayResult<(DType, DType)> {
    let ct = promote(a, b);
    if ct.is_complex() {
        return match k {
            Ufunc2::Arith(
                Arith::Add | Arith::Sub | Arith::Mul | Arith::Div | Arith::Pow | Arith::Max | Arith::Min,
            )
            | Ufunc2::Fmax
            | Ufunc2::Fmin => Ok((ct, ct)),
            Ufunc2::Cmp(_) | Ufunc2::LogicalAnd | Ufunc2::LogicalOr | Ufunc2::LogicalXor => {
                Ok((ct, DType::Bool))
            }
            _ => Err(ArrayError::type_error(format!(
                "ufunc '{}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                k.name()
            ))),
        };
    }
    Ok(match k {
        Ufunc2::Arith(Arith::Div)
        | Ufunc2::Math(MathFn::Atan2 | MathFn::Hypot | MathFn::Copysign | MathFn::Nextafter) => {
            let f = if k == Ufunc2::Arith(Arith::Div) && !ct.is_float() {
                DType::F64
            } else {
                float_of(ct)
            };
            (f, f)
        }
        Ufunc2::Arith(Arith::Sub) if ct == DType::Bool => {
            return Err(ArrayError::type_error(
                "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.",
            ))
        }
        Ufunc2::Arith(Arith::FloorDiv) | Ufunc2::Arith(Arith::Mod) | Ufunc2::Arith(Arith::Pow) | Ufunc2::Math(MathFn::Fmod) if ct == DType::Bool => {
            (DType::I8, DType::I8)
        }
        Ufunc2::Arith(Arith::BitAnd) | Ufunc2::Arith(Arith::BitOr) | Ufunc2::Arith(Arith::BitXor) | Ufunc2::Arith(Arith::LShift) | Ufunc2::Arith(Arith::RShift) => {
            if ct.is_float() || (ct == DType::Bool && matches!(k, Ufunc2::Arith(Arith::LShift) | Ufunc2::Arith(Arith::RShift))) {
                return Err(no_loop(k.name()));
            }
            (ct, ct)
        }
        Ufunc2::LogicalAnd | Ufunc2::LogicalOr | Ufunc2::LogicalXor => (DType::Bool, DType::Bool),
        _ if k.is_compare() => (ct, DType::Bool),
        _ => (ct, ct),
    })
}

/// A kernel operand: borrowed contiguous data, an owned converted copy, or one value.
enum Opnd<'a, T> {
    Borrowed(&'a [T]),
    Owned(Vec<T>),
    One(T),
}

impl<T: Elem> Opnd<'_, T> {
    fn of<'a>(a: &'a NdArray, shape: &[usize]) -> ArrayResult<Opnd<'a, T>> {
        if a.size() == 1 {
            return Ok(Opnd::One(T::from_scalar(first_scalar(a))));
        }
        if a.shape == shape {
            if let Some(s) = as_slice::<T>(a) {
                return Ok(Opnd::Borrowed(s));
            }
        }
        Ok(Opnd::Owned(read_vec::<T>(&broadcast_to(a, shape)?)))
    }
    fn src(&self) -> Src<'_, T> {
        match self {
            Opnd::Borrowed(s) => Src::Run(s),
            Opnd::Owned(v) => Src::Run(v),
            Opnd::One(v) => Src::One(*v),
        }
    }
}

/// Whether `a` is broadcast to `shape` (of `n` elements) along more than leading axes,
/// with rows long enough that reading it in place beats expanding it first.
fn broadcasts(a: &NdArray, n: usize, shape: &[usize]) -> bool {
    a.size() != 1 && a.size() != n && shape.last().is_some_and(|&l| l >= 32)
}

/// `a` as a broadcast operand over `shape` in the computing type `T`, borrowed when it
/// already is contiguous in it.
fn bcast_of<'a, T: Elem>(a: &'a NdArray, shape: &[usize]) -> Bcast<'a, T> {
    if a.size() == 1 {
        return Bcast::One(T::from_scalar(first_scalar(a)));
    }
    // Element strides of `a` in C order, aligned to the result's trailing axes; 0 where `a`
    // has length 1 (or no axis at all) and the result does not.
    let pad = shape.len() - a.shape.len();
    let mut strides = vec![0; shape.len()]; // bounded: one per axis
    let mut st = 1;
    for d in (0..a.shape.len()).rev() {
        if a.shape[d] != 1 {
            strides[pad + d] = st;
        }
        st *= a.shape[d];
    }
    match as_slice::<T>(a) {
        Some(s) => Bcast::Strided(s, strides),
        None => Bcast::Owned(read_vec::<T>(a), strides),
    }
}

fn arith_kernel<T: ElemArith>(k: Ufunc2, p: &Pair<T>, out: &mut [T]) {
    match k {
        Ufunc2::Arith(Arith::Add) => zip_pair(p, out, T::add),
        Ufunc2::Arith(Arith::Sub) => zip_pair(p, out, T::sub),
        Ufunc2::Arith(Arith::Mul) => zip_pair(p, out, T::mul),
        Ufunc2::Arith(Arith::FloorDiv) => zip_pair(p, out, T::floordiv),
        Ufunc2::Arith(Arith::Mod) => zip_pair(p, out, T::rem),
        Ufunc2::Arith(Arith::Pow) => zip_pair(p, out, T::pow),
        Ufunc2::Arith(Arith::Max) => zip_pair(p, out, T::maxn),
        Ufunc2::Arith(Arith::Min) => zip_pair(p, out, T::minn),
        Ufunc2::Fmax => zip_pair(p, out, |x: T, y: T| {
            if y.is_nan() {
                x
            } else if x.is_nan() {
                y
            } else {
                x.maxn(y)
            }
        }),
        Ufunc2::Fmin => zip_pair(p, out, |x: T, y: T| {
            if y.is_nan() {
                x
            } else if x.is_nan() {
                y
            } else {
                x.minn(y)
            }
        }),
        Ufunc2::Arith(Arith::BitAnd) => zip_pair(p, out, T::band),
        Ufunc2::Arith(Arith::BitOr) => zip_pair(p, out, T::bor),
        Ufunc2::Arith(Arith::BitXor) => zip_pair(p, out, T::bxor),
        Ufunc2::Arith(Arith::LShift) => zip_pair(p, out, T::shl),
        Ufunc2::Arith(Arith::RShift) => zip_pair(p, out, T::shr),
        Ufunc2::Arith(Arith::Div) => zip_pair(p, out, T::tdiv),
        Ufunc2::Math(MathFn::Atan2) => zip_pair(p, out, T::atan2),
        Ufunc2::Math(MathFn::Hypot) => zip_pair(p, out, T::hypot),
        Ufunc2::Math(MathFn::Fmod) => zip_pair(p, out, T::fmod),
        Ufunc2::Math(MathFn::Copysign) => zip_pair(p, out, T::copysign),
        Ufunc2::Math(MathFn::Nextafter) => zip_pair(p, out, T::nextafter),
        _ => unreachable!("not an arithmetic ufunc"),
    }
}

fn bool_kernel<T: ElemArith>(k: Ufunc2, p: &Pair<T>, out: &mut [B8]) {
    let f = |c: bool| B8(c as u8);
    match k {
        Ufunc2::Cmp(Cmp::Eq) => zip_pair(p, out, |x, y| f(x == y)),
        Ufunc2::Cmp(Cmp::Ne) => zip_pair(p, out, |x, y| f(x != y)),
        Ufunc2::Cmp(Cmp::Lt) => zip_pair(p, out, |x, y| f(x < y)),
        Ufunc2::Cmp(Cmp::Le) => zip_pair(p, out, |x, y| f(x <= y)),
        Ufunc2::Cmp(Cmp::Gt) => zip_pair(p, out, |x, y| f(x > y)),
        Ufunc2::Cmp(Cmp::Ge) => zip_pair(p, out, |x, y| f(x >= y)),
        Ufunc2::LogicalAnd => zip_pair(p, out, |x, y| f(x.nonzero() && y.nonzero())),
        Ufunc2::LogicalOr => zip_pair(p, out, |x, y| f(x.nonzero() || y.nonzero())),
        Ufunc2::LogicalXor => zip_pair(p, out, |x, y| f(x.nonzero() != y.nonzero())),
        _ => unreachable!("not a comparison"),
    }
}

fn check_out(out: &NdArray, shape: &[usize]) -> ArrayResult<()> {
    if out.shape != shape {
        return Err(ArrayError::value_error(format!(
            "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
            shape_str(&out.shape),
            shape_str(shape)
        )));
    }
    Ok(())
}

/// Apply a binary ufunc with broadcasting; writes into `out` when given.
pub fn binary_ufunc(
    k: Ufunc2,
    a: &NdArray,
    b: &NdArray,
    out: Option<&NdArray>,
) -> ArrayResult<NdArray> {
    let shape = broadcast_shapes(&[&a.shape, &b.shape])?;
    if let Some(o) = out {
        check_out(o, &shape)?;
    }
    let (ct, rt) = resolve2(k, a.dtype, b.dtype)?;
    let res = new_array_for_overwrite(&shape, rt)?;
    compute2(k, ct, a, b, &res)?;
    finish(k.name(), res, out)
}

/// Apply a binary ufunc with broadcasting into `dst`, which must be C-contiguous, have the
/// broadcast shape and the result dtype of [`resolve2`], and share no memory with `a` or
/// `b` (a fresh array: device work writes its newly allocated output here directly).
pub fn binary_into(k: Ufunc2, a: &NdArray, b: &NdArray, dst: &NdArray) -> ArrayResult<()> {
    let shape = broadcast_shapes(&[&a.shape, &b.shape])?;
    let (ct, rt) = resolve2(k, a.dtype, b.dtype)?;
    let contiguous = crate::arrays::contiguous(&dst.shape, &dst.strides, rt.itemsize(), true);
    if dst.shape != shape || dst.dtype != rt || !contiguous {
        return Err(ArrayError::value_error(format!(
            "ufunc '{}' output must be a C-contiguous {} array of shape {}",
            k.name(),
            rt.name(),
            shape_str(&shape)
        )));
    }
    compute2(k, ct, a, b, dst)
}

/// The loop of a binary ufunc computing in `ct` into `res` (C-contiguous, the result dtype,
/// no memory shared with the inputs).
fn compute2(k: Ufunc2, ct: DType, a: &NdArray, b: &NdArray, res: &NdArray) -> ArrayResult<()> {
    let (shape, rt, n, off) = (&res.shape, res.dtype, res.size(), res.offset);
    let to_bool = rt == DType::Bool
        && (k.is_compare()
            || ct != DType::Bool
            || matches!(
                k,
                Ufunc2::LogicalAnd | Ufunc2::LogicalOr | Ufunc2::LogicalXor
            ));
    with_dtype!(ct, T => {
        let (xa, ya);
        let (xb, yb);
        let pair = if broadcasts(a, n, shape) || broadcasts(b, n, shape) {
            (xb, yb) = (bcast_of::<T>(a, shape), bcast_of::<T>(b, shape));
            Pair::Broadcast(&xb, &yb, shape)
        } else {
            (xa, ya) = (Opnd::<T>::of(a, shape)?, Opnd::<T>::of(b, shape)?);
            Pair::Flat(xa.src(), ya.src())
        };
        if to_bool {
            bool_kernel::<T>(k, &pair, res.buf.typed_mut::<B8>(off, n));
        } else {
            arith_kernel::<T>(k, &pair, res.buf.typed_mut::<T>(off, n));
        }
    });
    crate::arrays::interrupt::check()
}

/// NumPy's 'same_kind' casting rule: bool → unsigned → signed → float, never downwards in
/// kind (sizes may shrink within a kind).
pub fn same_kind(from: DType, to: DType) -> bool {
    let rank = |d: DType| match d {
        DType::Bool => 0,
        d if d.is_complex() => 4,
        d if d.is_float() => 3,
        d if !d.is_signed() => 1,
        _ => 2,
    };
    rank(from) <= rank(to)
}

/// The error NumPy raises when a ufunc result cannot be written into `out`.
pub fn output_cast_error(name: &str, from: DType, to: DType) -> ArrayError {
    ArrayError::ufunc_type_error(
        format!(
            "Cannot cast ufunc '{name}' output from dtype('{}') to dtype('{}') with casting rule 'same_kind'",
            from.name(),
            to.name()
        ),
    )
    .with_hint(format!(
        "Write into an array of dtype {} (or use a new array: x = x op y), or cast explicitly with .astype().",
        from.name()
    ))
}

fn finish(name: &str, res: NdArray, out: Option<&NdArray>) -> ArrayResult<NdArray> {
    match out {
        Some(o) => {
            if !same_kind(res.dtype, o.dtype) {
                return Err(output_cast_error(name, res.dtype, o.dtype));
            }
            copy_into(o, &res)?;
            Ok(o.clone())
        }
        None => Ok(res),
    }
}

/// `a op b` elementwise for the Python operators (shared with the devices part).
pub fn elementwise_binary(
    op: BinOp,
    a: &NdArray,
    b: &NdArray,
    out: Option<&NdArray>,
) -> ArrayResult<NdArray> {
    binary_ufunc(Ufunc2::from_binop(op)?, a, b, out)
}

/// A unary ufunc (`np.sin`, `np.negative`, `np.isnan` ...) over a whole array.
pub fn elementwise_unary(op: Ufunc1, a: &NdArray, out: Option<&NdArray>) -> ArrayResult<NdArray> {
    use MathFn as M;
    use Ufunc1::*;
    let name = op.name();
    if let Some(o) = out {
        check_out(o, &a.shape)?;
    }
    let dt = a.dtype;
    let n = a.size();
    if dt == DType::Bool {
        match op {
            // NumPy has no bool loops for these; the int8 ones take them.
            Square | Conjugate | Reciprocal => {
                return elementwise_unary(op, &crate::arrays::elem::cast(a, DType::I8)?, out)
            }
            Positive | Sign => {
                return Err(ArrayError::ufunc_type_error(format!(
                    "ufunc '{name}' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'> -> None"
                )))
            }
            _ => {}
        }
    }
    let complex_own = dt.is_complex()
        && !matches!(
            op,
            Math(M::IsNan | M::IsInf | M::IsFinite)
                | Op(Unary::Not | Unary::Neg)
                | Positive
                | Square
                | Sign
        );
    let res = match op {
        Op(Unary::Abs) if dt.is_complex() => crate::arrays::complex::complex_part(a, f64::hypot)?,
        _ if complex_own => crate::arrays::complex::complex_unary(op, a)?,
        Math(M::IsNan | M::IsInf | M::IsFinite) | Op(Unary::Not) | Signbit => {
            let res = new_array_for_overwrite(&a.shape, DType::Bool)?;
            let o = res.buf.typed_mut::<B8>(0, n);
            with_dtype!(dt, T => {
                let v = Opnd::<T>::of(a, &a.shape)?;
                let x = match v.src() { Src::Run(r) => r.to_vec(), Src::One(x) => crate::arrays::alloc::vec_filled(x, n, "an array")? };
                let f = |c: bool| B8(c as u8);
                match op {
                    Math(M::IsNan) => map(&x, o, |x: T| f(x.is_nan())),
                    Math(M::IsInf) => map(&x, o, |x: T| f(x.is_inf())),
                    Math(M::IsFinite) => map(&x, o, |x: T| f(!x.is_nan() && !x.is_inf())),
                    Signbit => map(&x, o, |x: T| f(x.to_f64().is_sign_negative())),
                    _ => map(&x, o, |x: T| f(!x.nonzero())),
                }
            });
            res
        }
        Op(Unary::Neg | Unary::Abs | Unary::Invert) | Positive | Square | Sign => {
            if dt == DType::Bool && op == Op(Unary::Neg) {
                return Err(ArrayError::type_error(
                    "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.",
                ));
            }
            if dt.is_float() && op == Op(Unary::Invert) {
                return Err(ArrayError::type_error(
                    "ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                ));
            }
            let res = new_array_for_overwrite(&a.shape, dt)?;
            with_dtype!(dt, T => {
                let x = read_vec::<T>(a);
                let o = res.buf.typed_mut::<T>(0, n);
                match op {
                    // Qualified: inside with_dtype! `T` is a concrete type, and its
                    // inherent `abs` (which panics on i64::MIN in debug builds) would win
                    // over NumPy's wrapping one.
                    Op(Unary::Neg) => map(&x, o, <T as ElemArith>::neg),
                    Positive => map(&x, o, |x| x),
                    Op(Unary::Abs) => map(&x, o, <T as ElemArith>::abs),
                    Square => map(&x, o, |x: T| x.mul(x)),
                    Sign => map(&x, o, <T as ElemArith>::sign),
                    _ => map(&x, o, T::not),
                }
            });
            res
        }
        // NumPy's integer loop computes `1.0 / x` and converts it back: 1 and -1 stay, other
        // values truncate to 0, and 1/0's infinity converts as the C cast does on x86-64
        // (the minimum of int32 and int64; its low bits, 0, for narrower types).
        Reciprocal if dt.is_integer() => {
            let res = new_array_for_overwrite(&a.shape, dt)?;
            with_dtype!(dt, T => {
                let x = read_vec::<T>(a);
                let zero = T::from_i128(match dt {
                    DType::I32 => i32::MIN as i128,
                    DType::I64 => i64::MIN as i128,
                    _ => 0,
                });
                map(&x, res.buf.typed_mut::<T>(0, n), |x: T| match x.to_f64() {
                    1.0 => x,
                    -1.0 => x,
                    0.0 => zero,
                    _ => T::from_i128(0),
                });
            });
            res
        }
        // The conjugate of a real number is itself, in its own dtype.
        Conjugate => crate::arrays::elem::contiguous_copy(a)?,
        // NumPy 2.3 keeps integer and bool dtypes for floor/ceil/trunc.
        Math(M::Floor | M::Ceil | M::Trunc) if !dt.is_float() => {
            crate::arrays::elem::contiguous_copy(a)?
        }
        _ => {
            let ft = float_of(dt);
            let res = new_array_for_overwrite(&a.shape, ft)?;
            macro_rules! go {
                ($F:ty) => {{
                    let apply = <$F as Default>::default().apply(op).ok_or_else(|| {
                        ArrayError::attribute_error(format!(
                            "module 'numpy' has no attribute '{name}'"
                        ))
                    })?;
                    let x = match as_slice::<$F>(a) {
                        Some(s) => std::borrow::Cow::Borrowed(s),
                        None => std::borrow::Cow::Owned(read_vec::<$F>(a)),
                    };
                    map(&x, res.buf.typed_mut::<$F>(0, n), apply);
                }};
            }
            match ft {
                DType::F16 => go!(::half::f16),
                DType::F32 => go!(f32),
                _ => go!(f64),
            }
            res
        }
    };
    crate::arrays::interrupt::check()?;
    finish(name, res, out)
}
