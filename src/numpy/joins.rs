//! Joining and splitting beyond `concatenate`/`stack`: `column_stack`, `row_stack`,
//! `dstack`, `atleast_1d/2d/3d`, `split`/`array_split`/`hsplit`/`vsplit`/`dsplit`,
//! `append`, `broadcast_arrays`. Pieces are views; joins are one `concatenate`.

use crate::arrays::elem::{broadcast_shapes, broadcast_to};
use crate::arrays::NdArray;
use crate::numpy::funcs::{arg, concatenate, expand};
use crate::numpy::shape::{slice_ax, view};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::ndarray_shape::ravel;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// `np.atleast_1d/2d/3d` of one array, by NumPy's placement of the new axes.
pub fn atleast(a: &NdArray, nd: usize) -> NdArray {
    let mut r = view(a);
    match (nd, a.ndim()) {
        (_, k) if k >= nd => {}
        (1, _) => r = expand(&r, 0),
        (2, 0) => r = expand(&expand(&r, 0), 0),
        (2, _) => r = expand(&r, 0),
        (3, 0) => r = expand(&expand(&expand(&r, 0), 0), 0),
        (3, 1) => r = expand(&expand(&r, 0), 2),
        _ => r = expand(&r, 2),
    }
    r
}

fn arrays(rt: &mut Runtime, v: &Value) -> PyResult<Vec<NdArray>> {
    let items = rt.iterate(v)?;
    items.iter().map(|x| to_ndarray(rt, x)).collect()
}

fn arr(a: NdArray) -> Value {
    Value::Array(Box::new(a))
}

/// The pieces of `a` along `ax` between the division points (clipped as slices are).
fn pieces(a: &NdArray, ax: usize, cuts: &[i64]) -> Vec<Value> {
    let n = a.shape[ax] as i64;
    let clip = |i: i64| -> usize { (if i < 0 { i + n } else { i }).clamp(0, n) as usize };
    cuts.windows(2)
        .map(|w| {
            let (s, e) = (clip(w[0]), clip(w[1]));
            let len = e.saturating_sub(s);
            arr(slice_ax(a, ax, if len > 0 { s } else { 0 }, len, 1))
        })
        .collect()
}

/// `np.array_split` (`equal`: `np.split`, which refuses unequal sections).
fn split(rt: &mut Runtime, a: &NdArray, how: &Value, axis: isize, equal: bool) -> PyResult<Value> {
    // NumPy reads `ary.shape[axis]` first: a bad axis is the tuple's IndexError.
    let nd = a.ndim() as isize;
    if axis >= nd || axis < -nd {
        return Err(PyErr::index_error("tuple index out of range"));
    }
    let ax = axis.rem_euclid(nd.max(1)) as usize;
    let n = a.shape[ax] as i64;
    let cuts: Vec<i64> = match how {
        Value::List(_) | Value::Tuple(_) | Value::Array(_) => {
            let idx = rt.iterate(how)?;
            let mut c = vec![0i64];
            for v in idx {
                c.push(v.as_index()?);
            }
            c.push(n);
            c
        }
        v => {
            let k = v.as_index()?;
            if k <= 0 {
                return Err(PyErr::value_error("number sections must be larger than 0."));
            }
            if equal && n % k != 0 {
                return Err(PyErr::value_error(
                    "array split does not result in an equal division",
                ));
            }
            let (each, extra) = (n / k, n % k);
            let mut c = crate::arrays::alloc::vec_with_capacity(k as usize + 1, "a list")?;
            let mut at = 0i64;
            c.push(0);
            for i in 0..k {
                at += each + i64::from(i < extra);
                c.push(at);
            }
            c
        }
    };
    Ok(Value::list(pieces(a, ax, &cuts)))
}

/// Register the joins and splits.
pub fn register(m: &Module) {
    m.def(
        Function,
        "column_stack",
        "tup",
        "Stack 1-D arrays as columns into a 2-D array.",
        |rt, b| {
            let xs: Vec<NdArray> = arrays(rt, arg(&b, 0))?
                .iter()
                .map(|x| {
                    if x.ndim() < 2 {
                        expand(&atleast(x, 1), 1)
                    } else {
                        x.clone()
                    }
                })
                .collect();
            Ok(arr(concatenate(&xs, Some(1))?))
        },
    );
    m.def(
        Function,
        "row_stack",
        "tup, *, dtype=None, casting='same_kind'",
        "Deprecated alias of vstack.",
        |rt, b| {
            let origin = format!("Cell In[{}]", rt.execution_count);
            rt.warn(
                "DeprecationWarning",
                "`row_stack` alias is deprecated. Use `np.vstack` directly.",
                &origin,
            )?;
            let xs: Vec<NdArray> = arrays(rt, arg(&b, 0))?
                .iter()
                .map(|x| atleast(x, 2))
                .collect();
            Ok(arr(concatenate(&xs, Some(0))?))
        },
    );
    m.def(
        Function,
        "dstack",
        "tup",
        "Stack arrays in sequence depth wise (along the third axis).",
        |rt, b| {
            let xs: Vec<NdArray> = arrays(rt, arg(&b, 0))?
                .iter()
                .map(|x| atleast(x, 3))
                .collect();
            Ok(arr(concatenate(&xs, Some(2))?))
        },
    );
    for (name, nd) in [("atleast_1d", 1usize), ("atleast_2d", 2), ("atleast_3d", 3)] {
        m.def(
            Function,
            name,
            "*arys",
            "View inputs as arrays with at least this many dimensions.",
            move |rt, b| {
                let mut out = Vec::new();
                for v in &b.rest {
                    out.push(arr(atleast(&to_ndarray(rt, v)?, nd)));
                }
                Ok(if out.len() == 1 {
                    out.remove(0)
                } else {
                    Value::tuple(out)
                })
            },
        );
    }
    for (name, equal) in [("split", true), ("array_split", false)] {
        m.def(
            Function,
            name,
            "ary, indices_or_sections, axis=0",
            "Split an array into sub-arrays (views).",
            move |rt, b| {
                let a = to_ndarray(rt, arg(&b, 0))?;
                let axis = match b.get(2) {
                    None | Some(Value::None) => 0,
                    Some(v) => v.as_index()? as isize,
                };
                split(rt, &a, arg(&b, 1), axis, equal)
            },
        );
    }
    for (name, min) in [("hsplit", 1usize), ("vsplit", 2), ("dsplit", 3)] {
        m.def(
            Function,
            name,
            "ary, indices_or_sections",
            "Split an array into sub-arrays along one axis.",
            move |rt, b| {
                let a = to_ndarray(rt, arg(&b, 0))?;
                if a.ndim() < min {
                    let what = if min == 1 {
                        "1 or more"
                    } else if min == 2 {
                        "2 or more"
                    } else {
                        "3 or more"
                    };
                    return Err(PyErr::value_error(format!(
                        "{name} only works on arrays of {what} dimensions"
                    )));
                }
                let axis = match name {
                    "hsplit" if a.ndim() > 1 => 1,
                    "dsplit" => 2,
                    _ => 0,
                };
                split(rt, &a, arg(&b, 1), axis, true)
            },
        );
    }
    m.def(
        Function,
        "append",
        "arr, values, axis=None",
        "Values appended to the end of an array (a copy).",
        |rt, b| {
            let a = to_ndarray(rt, arg(&b, 0))?;
            let v = to_ndarray(rt, arg(&b, 1))?;
            let r = match b.get(2) {
                None | Some(Value::None) => concatenate(&[ravel(&a)?, ravel(&v)?], Some(0))?,
                Some(ax) => concatenate(&[a, v], Some(ax.as_index()? as isize))?,
            };
            Ok(arr(r))
        },
    );
    m.def(
        Function,
        "broadcast_arrays",
        "*args, subok=False",
        "Broadcast any number of arrays against each other (views).",
        |rt, b| {
            let mut xs = Vec::new();
            for v in &b.rest {
                xs.push(to_ndarray(rt, v)?);
            }
            let shapes: Vec<&[usize]> = xs.iter().map(|x| x.shape.as_slice()).collect();
            let shape = broadcast_shapes(&shapes)?;
            let mut out = Vec::new();
            for x in &xs {
                out.push(arr(broadcast_to(x, &shape)?));
            }
            Ok(Value::tuple(out))
        },
    );
}
