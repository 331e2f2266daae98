//! Set operations on 1-D arrays: `np.isin`, `np.in1d`, `np.union1d`, `np.intersect1d`
//! (with `return_indices`), `np.setdiff1d` and `np.setxor1d`, built on `np.unique` and
//! binary search in the sorted distinct values, compared in the promoted dtype.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{cast, from_vec, read_vec};
use crate::arrays::sort::order;
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::numpy::sorting::{unique, UniqueWants};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::ndarray_shape::ravel;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};
use crate::with_dtype;

fn array(v: Value) -> PyResult<NdArray> {
    match &v {
        Value::Array(a) => Ok(a.as_ref().clone()),
        _ => Err(PyErr::internal("np.unique gave no array")),
    }
}

/// The sorted distinct values of `x`, flattened.
fn uniq(x: &NdArray) -> PyResult<NdArray> {
    array(unique(
        x,
        &UniqueWants {
            index: false,
            inverse: false,
            counts: false,
            equal_nan: true,
        },
    )?)
}

/// The sorted distinct values of `x` with the index of each one's first occurrence.
fn uniq_first(x: &NdArray) -> PyResult<(NdArray, Vec<i64>)> {
    let r = unique(
        x,
        &UniqueWants {
            index: true,
            inverse: false,
            counts: false,
            equal_nan: true,
        },
    )?;
    match &r {
        Value::Tuple(t) if t.len() == 2 => {
            let idx = read_vec::<i64>(&array(t[1].clone())?);
            Ok((array(t[0].clone())?, idx))
        }
        _ => Err(PyErr::internal("np.unique gave no indices")),
    }
}

/// For each element of `a`, the position of an equal element in the sorted `sorted_b`
/// (NaN equals nothing, as `==` in NumPy), comparing in the dtype both promote to.
fn positions(a: &NdArray, sorted_b: &NdArray) -> PyResult<Vec<Option<usize>>> {
    let d = crate::arrays::promote::promote(a.dtype, sorted_b.dtype);
    let (a, b) = (cast(a, d)?, cast(sorted_b, d)?);
    let stop = crate::arrays::interrupt::flag();
    let out = with_dtype!(d, T => {
        let av = read_vec::<T>(&a);
        let bv = read_vec::<T>(&b);
        #[allow(clippy::eq_op)]
        av.iter()
            .map(|x| {
                if crate::arrays::interrupt::pending(&stop) || x != x {
                    return None;
                }
                bv.binary_search_by(|y| order(y, x)).ok()
            })
            .collect::<Vec<_>>()
    });
    crate::arrays::interrupt::check()?;
    Ok(out)
}

/// The elements of the 1-D `a` where `keep` holds.
fn select(a: &NdArray, keep: &[bool]) -> PyResult<NdArray> {
    Ok(with_dtype!(a.dtype, T => {
        let v: Vec<T> = read_vec::<T>(a)
            .into_iter()
            .zip(keep)
            .filter_map(|(x, k)| k.then_some(x))
            .collect();
        from_vec(&[v.len()], &v)?
    }))
}

fn in_set(rt: &mut Runtime, b: &[Option<Value>], flatten: bool) -> PyResult<Value> {
    let a = to_ndarray(rt, arg(b, 0))?;
    let t = uniq(&to_ndarray(rt, arg(b, 1))?)?;
    let invert = rt.truthy(arg(b, 3))?;
    let found: Vec<bool> = positions(&a, &t)?
        .iter()
        .map(|p| p.is_some() != invert)
        .collect();
    let shape = if flatten {
        vec![a.size()]
    } else {
        a.shape.clone()
    };
    Ok(Value::Array(Box::new(cast(
        &from_vec(&shape, &found.iter().map(|&f| f as u8).collect::<Vec<u8>>())?,
        DType::Bool,
    )?)))
}

/// The distinct values of `a` that are (`want`) or are not in `b`.
fn filter_by(a: &NdArray, b: &NdArray, want: bool) -> PyResult<NdArray> {
    let ua = uniq(a)?;
    let ub = uniq(b)?;
    let keep: Vec<bool> = positions(&ua, &ub)?
        .iter()
        .map(|p| p.is_some() == want)
        .collect();
    select(&ua, &keep)
}

fn promoted(a: &NdArray, b: &NdArray) -> PyResult<(NdArray, NdArray)> {
    let d = crate::arrays::promote::promote(a.dtype, b.dtype);
    Ok((cast(&ravel(a)?, d)?, cast(&ravel(b)?, d)?))
}

fn intersect(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    let y = to_ndarray(rt, arg(b, 1))?;
    let (x, y) = promoted(&x, &y)?;
    if !rt.truthy(arg(b, 3))? {
        return Ok(Value::Array(Box::new(filter_by(&x, &y, true)?)));
    }
    let (ux, ix) = uniq_first(&x)?;
    let (uy, iy) = uniq_first(&y)?;
    let pos = positions(&ux, &uy)?;
    let keep: Vec<bool> = pos.iter().map(|p| p.is_some()).collect();
    let i1: Vec<i64> = pos
        .iter()
        .zip(&ix)
        .filter(|(p, _)| p.is_some())
        .map(|(_, i)| *i)
        .collect();
    let i2: Vec<i64> = pos.iter().flatten().map(|&p| iy[p]).collect();
    Ok(Value::tuple(vec![
        Value::Array(Box::new(select(&ux, &keep)?)),
        Value::Array(Box::new(from_vec(&[i1.len()], &i1)?)),
        Value::Array(Box::new(from_vec(&[i2.len()], &i2)?)),
    ]))
}

/// Register the set operations.
pub fn register(m: &Module) {
    m.def(
        Function,
        "isin",
        "element, test_elements, assume_unique=False, invert=False, *, kind=None",
        "Whether each element is in `test_elements`, shaped as `element`.",
        |rt, b| in_set(rt, &b.slots, false),
    );
    m.def(
        Function,
        "in1d",
        "ar1, ar2, assume_unique=False, invert=False, *, kind=None",
        "Whether each element of the flattened `ar1` is in `ar2`.",
        |rt, b| in_set(rt, &b.slots, true),
    );
    m.def(
        Function,
        "union1d",
        "ar1, ar2",
        "The sorted distinct values in either array.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b.slots, 0))?;
            let y = to_ndarray(rt, arg(&b.slots, 1))?;
            let (x, y) = promoted(&x, &y)?;
            let both = crate::numpy::funcs::concatenate(&[x, y], Some(0))?;
            Ok(Value::Array(Box::new(uniq(&both)?)))
        },
    );
    m.def(
        Function,
        "intersect1d",
        "ar1, ar2, assume_unique=False, return_indices=False",
        "The sorted distinct values in both arrays (with their first indices when asked).",
        |rt, b| intersect(rt, &b.slots),
    );
    m.def(
        Function,
        "setdiff1d",
        "ar1, ar2, assume_unique=False",
        "The sorted distinct values of `ar1` not in `ar2`.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b.slots, 0))?;
            let y = to_ndarray(rt, arg(&b.slots, 1))?;
            Ok(Value::Array(Box::new(filter_by(
                &ravel(&x)?,
                &ravel(&y)?,
                false,
            )?)))
        },
    );
    m.def(
        Function,
        "setxor1d",
        "ar1, ar2, assume_unique=False",
        "The sorted distinct values in exactly one of the arrays.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b.slots, 0))?;
            let y = to_ndarray(rt, arg(&b.slots, 1))?;
            let (x, y) = promoted(&x, &y)?;
            let only_x = filter_by(&x, &y, false)?;
            let only_y = filter_by(&y, &x, false)?;
            let both = crate::numpy::funcs::concatenate(&[only_x, only_y], Some(0))?;
            Ok(Value::Array(Box::new(uniq(&both)?)))
        },
    );
}
