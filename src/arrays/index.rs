//! NumPy indexing: integers, slices (views, negative steps too), `None`/`np.newaxis`,
//! `...`, boolean masks and integer arrays (copies), for reading and assignment.

use crate::arrays::ops::{copy_into, new_array, shape_repr};
use crate::arrays::typed::{offsets, scalar_at, store};
use crate::arrays::{DType, NdArray};
use crate::language::{PyErr, PyResult, Value};

enum Item {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    NewAxis,
    Ellipsis,
}

/// An advanced index (copying): positions along the first axis, or a full boolean mask.
enum Advanced {
    Ints(Vec<i64>),
    Mask(NdArray),
}

fn split_key(key: &Value) -> Vec<Value> {
    match key {
        Value::Tuple(t) => t.to_vec(),
        k => vec![k.clone()],
    }
}

fn advanced_of(key: &Value) -> PyResult<Option<Advanced>> {
    match key {
        Value::Array(a) if a.dtype == DType::Bool => Ok(Some(Advanced::Mask(a.clone()))),
        Value::Array(a) if a.dtype.is_integer() => {
            let v = crate::arrays::typed::load::<i64>(a, &a.shape).into_owned();
            Ok(Some(Advanced::Ints(v)))
        }
        Value::Array(_) => Err(PyErr::index_error(
            "arrays used as indices must be of integer (or boolean) type",
        )),
        Value::List(l) => {
            let items = l.borrow();
            if !items.is_empty() && items.iter().all(|v| matches!(v, Value::Bool(_))) {
                let v: Vec<u8> = items
                    .iter()
                    .map(|b| matches!(b, Value::Bool(true)) as u8)
                    .collect();
                let m = crate::arrays::ops::array_from(&[v.len()], DType::Bool, &v)?;
                return Ok(Some(Advanced::Mask(m)));
            }
            let ints = items
                .iter()
                .map(|v| v.as_index())
                .collect::<PyResult<Vec<i64>>>()
                .map_err(|_| PyErr::index_error("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices"))?;
            Ok(Some(Advanced::Ints(ints)))
        }
        _ => Ok(None),
    }
}

fn item_of(v: &Value) -> PyResult<Item> {
    Ok(match v {
        Value::None => Item::NewAxis,
        Value::Ellipsis => Item::Ellipsis,
        Value::Slice(s) => Item::Slice(s.start, s.stop, s.step),
        Value::Int(_) | Value::Bool(_) | Value::Scalar(_) => Item::Int(v.as_index().map_err(|_| {
            PyErr::index_error("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices")
        })?),
        _ => {
            return Err(PyErr::index_error(
                "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices",
            ))
        }
    })
}

fn slice_bounds(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: usize,
) -> PyResult<(isize, usize, isize)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(PyErr::value_error("slice step cannot be zero"));
    }
    let len = len as i64;
    let clamp = |v: i64, lo: i64, hi: i64| v.max(lo).min(hi);
    let norm = |v: i64| if v < 0 { v + len } else { v };
    let (s, e) = if step > 0 {
        (
            start.map_or(0, |v| clamp(norm(v), 0, len)),
            stop.map_or(len, |v| clamp(norm(v), 0, len)),
        )
    } else {
        (
            start.map_or(len - 1, |v| clamp(norm(v), -1, len - 1)),
            stop.map_or(-1, |v| clamp(norm(v), -1, len - 1)),
        )
    };
    let count = if step > 0 {
        if e > s {
            (e - s + step - 1) / step
        } else {
            0
        }
    } else if s > e {
        (s - e + (-step) - 1) / (-step)
    } else {
        0
    };
    Ok((s as isize, count as usize, step as isize))
}

/// Apply basic indexing; Ok(view, all_ints_full) — the flag says the result is one element.
fn basic_view(a: &NdArray, items: &[Item]) -> PyResult<(NdArray, bool)> {
    let consumed = items
        .iter()
        .filter(|i| matches!(i, Item::Int(_) | Item::Slice(..)))
        .count();
    if consumed > a.ndim() {
        return Err(PyErr::index_error(format!(
            "too many indices for array: array is {}-dimensional, but {} were indexed",
            a.ndim(),
            consumed
        )));
    }
    let ellipses = items.iter().filter(|i| matches!(i, Item::Ellipsis)).count();
    if ellipses > 1 {
        return Err(PyErr::index_error(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    let mut offset = a.offset as isize;
    let (mut shape, mut strides) = (Vec::new(), Vec::new());
    let mut axis = 0;
    let mut ints = 0;
    for it in items {
        match it {
            Item::Int(i) => {
                let n = a.shape[axis] as i64;
                let j = if *i < 0 { i + n } else { *i };
                if j < 0 || j >= n {
                    return Err(PyErr::index_error(format!(
                        "index {i} is out of bounds for axis {axis} with size {n}"
                    )));
                }
                offset += j as isize * a.strides[axis];
                axis += 1;
                ints += 1;
            }
            Item::Slice(s, e, st) => {
                let (start, count, step) = slice_bounds(*s, *e, *st, a.shape[axis])?;
                if count > 0 {
                    offset += start * a.strides[axis];
                }
                shape.push(count);
                strides.push(a.strides[axis] * step);
                axis += 1;
            }
            Item::NewAxis => {
                shape.push(1);
                strides.push(0);
            }
            Item::Ellipsis => {
                let rest = a.ndim() - consumed;
                for _ in 0..rest {
                    shape.push(a.shape[axis]);
                    strides.push(a.strides[axis]);
                    axis += 1;
                }
            }
        }
    }
    while axis < a.ndim() {
        shape.push(a.shape[axis]);
        strides.push(a.strides[axis]);
        axis += 1;
    }
    let scalar = ints == a.ndim() && shape.is_empty();
    Ok((
        NdArray {
            buf: a.buf.clone(),
            offset: offset.max(0) as usize,
            shape,
            strides,
            dtype: a.dtype,
        },
        scalar,
    ))
}

/// Byte offsets selected by an advanced index, and the selection's shape.
fn advanced_offsets(a: &NdArray, adv: &Advanced) -> PyResult<(Vec<isize>, Vec<usize>)> {
    match adv {
        Advanced::Mask(m) => {
            if m.shape != a.shape[..m.ndim().min(a.ndim())] || m.ndim() > a.ndim() {
                return Err(PyErr::index_error(format!(
                    "boolean index did not match indexed array along axis 0; size of axis is {} but size of corresponding boolean axis is {}",
                    a.shape.first().copied().unwrap_or(0),
                    m.shape.first().copied().unwrap_or(0)
                )));
            }
            let mask = crate::arrays::typed::load::<u8>(m, &m.shape);
            let inner: Vec<usize> = a.shape[m.ndim()..].to_vec();
            let sub = NdArray {
                shape: a.shape[..m.ndim()].to_vec(),
                strides: a.strides[..m.ndim()].to_vec(),
                ..a.clone()
            };
            let outer = offsets(&sub, &sub.shape);
            let inner_view = NdArray {
                offset: 0,
                shape: inner.clone(),
                strides: a.strides[m.ndim()..].to_vec(),
                ..a.clone()
            };
            let inner_offs = offsets(&inner_view, &inner);
            let mut out = Vec::new();
            let mut count = 0;
            for (k, &o) in outer.iter().enumerate() {
                if mask[k] != 0 {
                    count += 1;
                    out.extend(inner_offs.iter().map(|&i| o + i));
                }
            }
            let mut shape = vec![count];
            shape.extend(inner);
            Ok((out, shape))
        }
        Advanced::Ints(ix) => {
            if a.ndim() == 0 {
                return Err(PyErr::index_error(
                    "too many indices for array: array is 0-dimensional, but 1 were indexed",
                ));
            }
            let n = a.shape[0] as i64;
            let inner: Vec<usize> = a.shape[1..].to_vec();
            let inner_view = NdArray {
                offset: 0,
                shape: inner.clone(),
                strides: a.strides[1..].to_vec(),
                ..a.clone()
            };
            let inner_offs = offsets(&inner_view, &inner);
            let mut out = Vec::new();
            for &i in ix {
                let j = if i < 0 { i + n } else { i };
                if j < 0 || j >= n {
                    return Err(PyErr::index_error(format!(
                        "index {i} is out of bounds for axis 0 with size {n}"
                    )));
                }
                let base = a.offset as isize + j as isize * a.strides[0];
                out.extend(inner_offs.iter().map(|&o| base + o));
            }
            let mut shape = vec![ix.len()];
            shape.extend(inner);
            Ok((out, shape))
        }
    }
}

/// `a[key]`.
pub fn getitem(a: &NdArray, key: &Value) -> PyResult<Value> {
    if let Some(adv) = advanced_of(key)? {
        let (offs, shape) = advanced_offsets(a, &adv)?;
        let out = new_array(&shape, a.dtype)?;
        let isz = a.dtype.itemsize();
        let mut tmp = [0u8; 8];
        for (k, &o) in offs.iter().enumerate() {
            a.buf.read(o as usize, &mut tmp[..isz]);
            out.buf.write(k * isz, &tmp[..isz]);
        }
        return Ok(Value::Array(out));
    }
    let items = split_key(key)
        .iter()
        .map(item_of)
        .collect::<PyResult<Vec<_>>>()?;
    let (view, scalar) = basic_view(a, &items)?;
    if scalar {
        return Ok(Value::Scalar(scalar_at(&view, view.offset as isize)));
    }
    Ok(Value::Array(view))
}

/// `a[key] = value` (value already converted to an array, broadcast as NumPy does).
pub fn setitem(a: &NdArray, key: &Value, value: &NdArray) -> PyResult<()> {
    if let Some(adv) = advanced_of(key)? {
        let (offs, shape) = advanced_offsets(a, &adv)?;
        let flat = NdArray {
            offset: 0,
            ..new_array(&shape, a.dtype)?
        };
        copy_into(&flat, value).map_err(|_| {
            PyErr::value_error(format!(
                "NumPy boolean array indexing assignment cannot assign {} input values to the {} output values where the mask is true",
                value.size(),
                offs.len()
            ))
        })?;
        let isz = a.dtype.itemsize();
        let mut tmp = [0u8; 8];
        for (k, &o) in offs.iter().enumerate() {
            flat.buf.read(k * isz, &mut tmp[..isz]);
            a.buf.write(o as usize, &tmp[..isz]);
        }
        return Ok(());
    }
    let items = split_key(key)
        .iter()
        .map(item_of)
        .collect::<PyResult<Vec<_>>>()?;
    let (view, _) = basic_view(a, &items)?;
    copy_into(&view, value).map_err(|e| {
        if e.is("ValueError") {
            PyErr::value_error(format!(
                "could not broadcast input array from shape {} into shape {}",
                shape_repr(&value.shape),
                shape_repr(&view.shape)
            ))
        } else {
            e
        }
    })
}

/// Fill a view with one f64 value (used by `fill` and scalar assignment fast paths).
pub fn fill(a: &NdArray, v: f64) {
    let n = a.size();
    store(a, &vec![v; n]);
}
