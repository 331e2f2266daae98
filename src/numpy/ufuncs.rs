//! The ufuncs and reductions of the `numpy` module (`np.add`, `np.sin`, `np.round`,
//! `np.sum`, ...): argument handling around the kernels of [`crate::arrays::ufunc`] and
//! [`crate::arrays::reduce`].

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{
    broadcast_to, cast, copy_into, new_array, read_vec, shape_str, write_slice, B8,
};
use crate::arrays::operator::{Arith, MathFn, Reduce, Ufunc1};
use crate::arrays::ufunc::{binary_ufunc, elementwise_unary, output_cast_error, same_kind, Ufunc2};
use crate::arrays::NdArray;
use crate::numpy::funcs::{arg, out_arg};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, operands, to_ndarray, wrap_result};
use crate::py::ndarray_methods::{reduction_function, reduction_function_sig};
use crate::py::runtime::Runtime;
use crate::py::signature::Params;
use crate::py::signature::Style::{Function, NumpyC};
use crate::py::value::{Module, Value};
use crate::with_dtype;

use crate::arrays::ufunc::BINARY_NAMES as BINARY;

/// `np.add(x, y, out=None)` etc.: Python numbers are weak operands.
pub fn call_binary(
    rt: &mut Runtime,
    k: Ufunc2,
    x: &Value,
    y: &Value,
    out: Option<NdArray>,
) -> PyResult<Value> {
    let (a, b) = match operands(rt, x, y)? {
        Some(p) => p,
        None => (to_ndarray(rt, x)?, to_ndarray(rt, y)?),
    };
    let r = binary_ufunc(k, &a, &b, out.as_ref())?;
    Ok(if out.is_some() {
        Value::Array(Box::new(r))
    } else {
        wrap_result(r)
    })
}

/// The keyword arguments every ufunc takes: `out=`, `dtype=`, `where=`, `casting=`.
struct UfuncKw {
    out: Option<NdArray>,
    dtype: Option<DType>,
    /// The `where=` mask; None for the default `where=True`.
    mask: Option<NdArray>,
    /// `casting='unsafe'`: results are written into `out` whatever their dtype.
    unsafe_cast: bool,
}

impl UfuncKw {
    fn parse(
        rt: &mut Runtime,
        out: &Option<Value>,
        dtype: &Option<Value>,
        mask: &Option<Value>,
        casting: &Option<Value>,
    ) -> PyResult<UfuncKw> {
        let dtype = match dtype {
            None | Some(Value::None) => None,
            Some(d) => Some(dtype_from_value(rt, d)?),
        };
        let mask = match mask {
            None | Some(Value::Bool(true)) => None,
            Some(v) => {
                let m = to_ndarray(rt, v)?;
                if m.dtype != DType::Bool {
                    return Err(PyErr::type_error(format!(
                        "Cannot cast array data from dtype('{}') to dtype('bool') according to the rule 'safe'",
                        m.dtype.name()
                    ))
                    .with_hint("Pass a boolean mask, e.g. where=(x > 0)."));
                }
                Some(m)
            }
        };
        let unsafe_cast = match casting.as_ref().and_then(|v| v.as_str()) {
            None | Some("same_kind") => false,
            Some("unsafe") => true,
            Some(other) => {
                return Err(PyErr::not_implemented(format!(
                    "casting='{other}' is not supported by nbcuda's ufuncs"
                ))
                .with_hint("Use casting='same_kind' (the default) or casting='unsafe'."))
            }
        };
        Ok(UfuncKw {
            out: out_arg(out)?,
            dtype,
            mask,
            unsafe_cast,
        })
    }

    /// With `dtype=`, the inputs are cast to it so the loop computes in that dtype.
    fn cast_input(&self, name: &str, i: usize, x: &NdArray) -> PyResult<NdArray> {
        let Some(dt) = self.dtype else {
            return Ok(x.clone());
        };
        if x.dtype == dt {
            return Ok(x.clone());
        }
        if !self.unsafe_cast && !same_kind(x.dtype, dt) {
            return Err(PyErr::new(
                "UFuncTypeError",
                format!(
                    "Cannot cast ufunc '{name}' input {i} from dtype('{}') to dtype('{}') with casting rule 'same_kind'",
                    x.dtype.name(),
                    dt.name()
                ),
            )
            .with_hint("Pick a dtype= of the inputs' kind, or pass casting='unsafe'."));
        }
        Ok(cast(x, dt)?)
    }

    /// Deliver a computed result: check it has the requested dtype, then write it into
    /// `out` (only where the mask is true) or return it.
    fn finish(&self, name: &str, r: NdArray) -> PyResult<Value> {
        if let Some(dt) = self.dtype {
            if r.dtype != dt && r.dtype != DType::Bool {
                return Err(PyErr::new(
                    "UFuncTypeError",
                    format!(
                        "ufunc '{name}' has no loop computing in dtype('{}'): its result is {}",
                        dt.name(),
                        r.dtype.name()
                    ),
                )
                .with_hint(format!("Use dtype={} or leave dtype= out.", r.dtype.name())));
            }
        }
        let Some(o) = &self.out else {
            let Some(m) = &self.mask else {
                return Ok(wrap_result(r));
            };
            // NumPy leaves the unselected elements of a fresh result uninitialised; nbcuda
            // gives zeros there.
            let fresh = new_array(&r.shape, r.dtype)?;
            masked_copy(&fresh, &r, m)?;
            return Ok(wrap_result(fresh));
        };
        if o.shape != r.shape {
            return Err(PyErr::value_error(format!(
                "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
                shape_str(&o.shape),
                shape_str(&r.shape)
            )));
        }
        if !self.unsafe_cast && !same_kind(r.dtype, o.dtype) {
            return Err(output_cast_error(name, r.dtype, o.dtype).into());
        }
        match &self.mask {
            None => copy_into(o, &r)?,
            Some(m) => masked_copy(o, &r, m)?,
        }
        Ok(Value::Array(Box::new(o.clone())))
    }
}

/// `dst[mask] = src[mask]` with `mask` broadcast to `dst`'s shape and `src` cast to its dtype.
fn masked_copy(dst: &NdArray, src: &NdArray, mask: &NdArray) -> PyResult<()> {
    let m = read_vec::<B8>(&broadcast_to(mask, &dst.shape)?);
    let src = cast(src, dst.dtype)?;
    with_dtype!(dst.dtype, T => {
        let mut d = read_vec::<T>(dst);
        let s = read_vec::<T>(&src);
        for ((d, s), m) in d.iter_mut().zip(&s).zip(&m) {
            if m.0 != 0 {
                *d = *s;
            }
        }
        write_slice(dst, &d);
    });
    Ok(())
}

pub(crate) fn ufuncs(m: &Module) {
    for &(alias, k) in BINARY {
        // An alias is the same ufunc object (`np.mod is np.remainder`); BINARY lists each
        // ufunc's own name first.
        let name = k.name();
        if let Some(same) = m.get(name).filter(|_| alias != name) {
            m.set(alias, same);
            continue;
        }
        let func = Value::builtin(
            &format!("numpy.{name}"),
            &format!("{name}(x1, x2, /, out=None, *, where=True, casting='same_kind', dtype=None)"),
            &format!("NumPy's {name} ufunc, elementwise with broadcasting."),
            move |rt, a| {
                let b = a.bind(name, &["x1", "x2", "out=", "dtype=", "where=", "casting="])?;
                let kw = UfuncKw::parse(rt, &b[2], &b[3], &b[4], &b[5])?;
                let (x, y) = match operands(rt, arg(&b, 0), arg(&b, 1))? {
                    Some(p) => p,
                    None => (to_ndarray(rt, arg(&b, 0))?, to_ndarray(rt, arg(&b, 1))?),
                };
                let (x, y) = (kw.cast_input(name, 0, &x)?, kw.cast_input(name, 1, &y)?);
                let r = binary_ufunc(k, &x, &y, None)?;
                kw.finish(name, r)
            },
        );
        m.set(
            alias,
            Value::object(crate::numpy::ufunc_object::NpUfunc {
                name,
                kind: k,
                func,
            }),
        );
    }
    for &(alias, f) in Ufunc1::NAMES {
        // An alias is the same ufunc in NumPy (`np.abs is np.absolute`), and its messages
        // name the ufunc; NAMES lists each ufunc's own name first.
        let name = f.name();
        if let Some(same) = m.get(name).filter(|_| alias != name) {
            m.set(alias, same);
            continue;
        }
        // `order=` and `subok=` are accepted: every result is a fresh C-ordered ndarray.
        m.def_shown(
            NumpyC,
            name,
            "x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True",
            &format!("{name}(x, /, out=None, *, where=True, casting='same_kind', dtype=None)"),
            &format!("NumPy's {name} ufunc, elementwise."),
            move |rt, b| {
                let kw = UfuncKw::parse(rt, &b[1], &b[5], &b[2], &b[3])?;
                let x = kw.cast_input(name, 0, &to_ndarray(rt, arg(&b, 0))?)?;
                let r = elementwise_unary(f, &x, None)?;
                kw.finish(name, r)
            },
        );
    }
    m.def_shown(
        Function,
        "clip",
        "a, a_min, a_max, out=None",
        "clip(a, a_min=<no value>, a_max=<no value>, out=None, *, min=<no value>, max=<no value>, **kwargs)",
        "Limit values to [a_min, a_max].",
        |rt, b| {
            let out = out_arg(&b[3])?;
            let mut v = arg(&b, 0).clone();
            if !arg(&b, 1).is_none() {
                v = call_binary(rt, Ufunc2::Arith(Arith::Max), &v, arg(&b, 1), None)?;
            }
            if !arg(&b, 2).is_none() {
                v = call_binary(rt, Ufunc2::Arith(Arith::Min), &v, arg(&b, 2), None)?;
            }
            if let Some(o) = out {
                copy_into(&o, &to_ndarray(rt, &v)?)?;
                return Ok(Value::Array(Box::new(o)));
            }
            Ok(v)
        },
    );
    for name in ["round", "around"] {
        m.def(
            Function,
            name,
            "a, decimals=0, out=None",
            "Round to the given number of decimals (half to even).",
            |rt, b| {
                let x = to_ndarray(rt, arg(&b, 0))?;
                let dec = b[1]
                    .as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0);
                let r = round(&x, dec)?;
                match out_arg(&b[2])? {
                    Some(o) => {
                        copy_into(&o, &r)?;
                        Ok(Value::Array(Box::new(o)))
                    }
                    None => Ok(wrap_result(r)),
                }
            },
        );
    }
}

const RINT: Ufunc1 = Ufunc1::Math(MathFn::Round);

/// `np.round(x, decimals)` as NumPy computes it: scale, round half to even, unscale.
pub fn round(x: &NdArray, dec: i64) -> PyResult<NdArray> {
    if !x.dtype.is_float() {
        return Ok(crate::arrays::elem::contiguous_copy(x)?);
    }
    if dec == 0 {
        return Ok(elementwise_unary(RINT, x, None)?);
    }
    let f = crate::arrays::elem::scalar_array(
        Scalar::F64(10f64.powi(dec.unsigned_abs() as i32)).cast(x.dtype),
    );
    let (m, d) = if dec > 0 {
        (Ufunc2::Arith(Arith::Mul), Ufunc2::Arith(Arith::Div))
    } else {
        (Ufunc2::Arith(Arith::Div), Ufunc2::Arith(Arith::Mul))
    };
    let y = binary_ufunc(m, x, &f, None)?;
    let y = elementwise_unary(RINT, &y, None)?;
    Ok(binary_ufunc(d, &y, &f, None)?)
}

/// `np.nanmin` / `np.nanmax`: NaNs are ignored (replaced by the other extreme before the
/// reduction); a slice of NaNs only gives NaN with NumPy's RuntimeWarning.
fn nan_extreme(rt: &mut Runtime, name: &str, b: &[Option<Value>]) -> PyResult<Value> {
    let x = to_ndarray(rt, b[0].as_ref().unwrap_or(&Value::None))?;
    let axis = crate::py::ndarray_shape::axis_arg(b[1].as_ref())?;
    let op = if name == "nanmin" {
        Reduce::Min
    } else {
        Reduce::Max
    };
    if !x.dtype.is_float() {
        return Ok(crate::arrays::reduce::reduce(op, &x, axis)?.into());
    }
    let fill = if op == Reduce::Min {
        f64::INFINITY
    } else {
        f64::NEG_INFINITY
    };
    let vals = x.to_f64_vec();
    let seen: Vec<f64> = vals
        .iter()
        .map(|v| if v.is_nan() { 0.0 } else { 1.0 })
        .collect();
    let cleaned: Vec<f64> = vals
        .iter()
        .map(|v| if v.is_nan() { fill } else { *v })
        .collect();
    let y =
        crate::arrays::elem::cast(&crate::arrays::elem::from_vec(&x.shape, &cleaned)?, x.dtype)?;
    let mask = crate::arrays::elem::from_vec(&x.shape, &seen)?;
    let r = crate::arrays::reduce::reduce(op, &y, axis)?;
    let any = crate::arrays::reduce::reduce(Reduce::Any, &mask, axis)?;
    let warn = |rt: &mut Runtime| {
        let origin = format!("Cell In[{}]", rt.execution_count);
        rt.warn("RuntimeWarning", "All-NaN slice encountered", &origin)
    };
    use crate::arrays::reduce::Reduced;
    Ok(match (r, any) {
        (Reduced::Scalar(v), Reduced::Scalar(found)) => {
            if found.as_f64() == 0.0 {
                warn(rt)?;
                Value::Scalar(Scalar::F64(f64::NAN).cast(x.dtype))
            } else {
                Value::Scalar(v)
            }
        }
        (Reduced::Array(v), Reduced::Array(found)) => {
            let mut out = v.to_f64_vec();
            let found = found.to_f64_vec();
            if found.contains(&0.0) {
                warn(rt)?;
            }
            for (o, f) in out.iter_mut().zip(&found) {
                if *f == 0.0 {
                    *o = f64::NAN;
                }
            }
            let arr = crate::arrays::elem::from_vec(&v.shape, &out)?;
            Value::Array(Box::new(crate::arrays::elem::cast(&arr, x.dtype)?))
        }
        (r, _) => r.into(),
    })
}

pub(crate) fn reductions(m: &Module) {
    for name in ["nanmin", "nanmax"] {
        m.def(
            Function,
            name,
            "a, axis=None",
            &format!("NumPy's {name}: the {} ignoring NaNs.", &name[3..]),
            move |rt, b| nan_extreme(rt, name, &b),
        );
    }
    for &(name, kind) in Reduce::NAMES {
        let sig = reduction_function_sig(kind);
        let names: Vec<&'static str> = Params::parse(sig).names().map(|(n, _)| n).collect();
        m.def(
            Function,
            name,
            sig,
            &format!("NumPy's {name} over all elements or one axis."),
            move |rt, b| {
                let x = to_ndarray(rt, &b.value(0))?;
                reduction_function(rt, &x, kind, &names, b)
            },
        );
    }
}
