//! Reductions (sum, mean, min, max, std, var, prod, argmin, argmax, any, all, cumsum) over
//! the whole array or one axis, with NumPy's result types and its pairwise float
//! summation, so float32 results match NumPy's to the last bit.

use crate::arrays::ops::{array_from, new_array};
use crate::arrays::typed::{load, Elem};
use crate::arrays::{DType, NdArray, Scalar};
use crate::language::{PyErr, PyResult, Value};

/// Rows in a reduction: output elements (one for a full reduction).
fn row_count(values: usize, len: usize, shape: &Option<Vec<usize>>) -> usize {
    values
        .checked_div(len)
        .unwrap_or_else(|| shape.as_ref().map_or(1, |s| s.iter().product()))
}

/// NumPy's pairwise summation (blocks of 128, eight accumulators), in the element type.
fn pairwise<T: Elem + std::ops::Add<Output = T>>(x: &[T]) -> T {
    let n = x.len();
    if n < 8 {
        let mut r = T::default();
        for &v in x {
            r = r + v;
        }
        return r;
    }
    if n <= 128 {
        let mut r = [x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]];
        let mut i = 8;
        while i < n - n % 8 {
            for k in 0..8 {
                r[k] = r[k] + x[i + k];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res = res + x[i];
            i += 1;
        }
        return res;
    }
    let mut n2 = n / 2;
    n2 -= n2 % 8;
    pairwise(&x[..n2]) + pairwise(&x[n2..])
}

/// The dtype `sum`/`prod`/`cumsum` produce.
fn sum_dtype(d: DType) -> DType {
    match d {
        DType::Bool | DType::I8 | DType::I16 | DType::I32 | DType::I64 => DType::I64,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 => DType::U64,
        f => f,
    }
}

/// The array with `axis` moved last (a view), and the output shape.
fn axis_last(a: &NdArray, axis: usize) -> (NdArray, Vec<usize>) {
    let mut v = a.clone();
    let s = v.shape.remove(axis);
    let st = v.strides.remove(axis);
    let out_shape = v.shape.clone();
    v.shape.push(s);
    v.strides.push(st);
    (v, out_shape)
}

fn norm_axis(axis: isize, ndim: usize) -> PyResult<usize> {
    let a = if axis < 0 { axis + ndim as isize } else { axis };
    if a < 0 || a as usize >= ndim.max(1) || ndim == 0 {
        return Err(PyErr::new(
            "AxisError",
            format!("axis {axis} is out of bounds for array of dimension {ndim}"),
        ));
    }
    Ok(a as usize)
}

/// Rows to reduce: all elements as one row (axis None), or one row per output element.
fn rows<T: Elem>(
    a: &NdArray,
    axis: Option<isize>,
) -> PyResult<(Vec<T>, usize, Option<Vec<usize>>)> {
    match axis {
        None => {
            let v = load::<T>(a, &a.shape).into_owned();
            let n = v.len();
            Ok((v, n, None))
        }
        Some(ax) => {
            let ax = norm_axis(ax, a.ndim())?;
            let (view, out_shape) = axis_last(a, ax);
            let len = a.shape[ax];
            Ok((
                load::<T>(&view, &view.shape).into_owned(),
                len,
                Some(out_shape),
            ))
        }
    }
}

fn finish(values: Vec<Scalar>, shape: Option<Vec<usize>>, dtype: DType) -> PyResult<Value> {
    match shape {
        None => Ok(Value::Scalar(values[0])),
        Some(shape) => {
            let out = new_array(&shape, dtype)?;
            let v: Vec<f64> = values.iter().map(|s| s.as_f64()).collect();
            if dtype.is_float() {
                crate::arrays::typed::store(&out, &v);
            } else {
                let iv: Vec<i64> = values.iter().map(|s| s.as_i64()).collect();
                crate::arrays::typed::store(&out, &iv);
            }
            Ok(Value::Array(out))
        }
    }
}

fn float_rows<F: Elem + std::ops::Add<Output = F>>(
    name: &str,
    a: &NdArray,
    axis: Option<isize>,
    ddof: usize,
) -> PyResult<Value> {
    let (v, len, shape) = rows::<F>(a, axis)?;
    let nrows = row_count(v.len(), len, &shape);
    let mut out = Vec::with_capacity(nrows);
    for r in 0..nrows {
        let row = if len == 0 {
            &[][..]
        } else {
            &v[r * len..(r + 1) * len]
        };
        let s = match name {
            "sum" => pairwise(row).to_scalar(),
            "prod" => row
                .iter()
                .fold(F::from_f64(1.0), |acc, &x| {
                    F::from_f64(acc.to_f64() * x.to_f64())
                })
                .to_scalar(),
            "mean" => F::from_f64(pairwise(row).to_f64() / len as f64).to_scalar(),
            "var" | "std" => {
                let mean = F::from_f64(pairwise(row).to_f64() / len as f64);
                let sq: Vec<F> = row
                    .iter()
                    .map(|&x| {
                        let d = F::from_f64(x.to_f64() - mean.to_f64());
                        F::from_f64(d.to_f64() * d.to_f64())
                    })
                    .collect();
                let var = F::from_f64(pairwise(&sq).to_f64() / (len as f64 - ddof as f64));
                if name == "std" {
                    F::from_f64(var.to_f64().sqrt()).to_scalar()
                } else {
                    var.to_scalar()
                }
            }
            _ => unreachable!("float reductions"),
        };
        out.push(s);
    }
    finish(out, shape, F::DTYPE)
}

/// A reduction by name; `ddof` for var/std.
pub fn reduce(name: &str, a: &NdArray, axis: Option<isize>, ddof: usize) -> PyResult<Value> {
    match name {
        "sum" | "prod" | "mean" | "var" | "std" => {
            let fdt = match (name, a.dtype) {
                ("sum" | "prod", d) if !d.is_float() => None,
                (_, DType::F32) => Some(DType::F32),
                _ => Some(DType::F64),
            };
            match fdt {
                Some(DType::F32) => float_rows::<f32>(name, a, axis, ddof),
                Some(_) => float_rows::<f64>(name, a, axis, ddof),
                None => {
                    let (v, len, shape) = rows::<i64>(a, axis)?;
                    let out_dt = sum_dtype(a.dtype);
                    let nrows = row_count(v.len(), len, &shape);
                    let out: Vec<Scalar> = (0..nrows)
                        .map(|r| {
                            let row = if len == 0 {
                                &[][..]
                            } else {
                                &v[r * len..(r + 1) * len]
                            };
                            let t = if name == "sum" {
                                row.iter().fold(0i64, |a, &b| a.wrapping_add(b))
                            } else {
                                row.iter().fold(1i64, |a, &b| a.wrapping_mul(b))
                            };
                            Scalar::I64(t).cast(out_dt)
                        })
                        .collect();
                    finish(out, shape, out_dt)
                }
            }
        }
        "min" | "max" | "argmin" | "argmax" => {
            let (v, len, shape) = rows::<f64>(a, axis)?;
            if len == 0 {
                let what = match name {
                    "min" => "minimum",
                    "max" => "maximum",
                    _ => name,
                };
                return Err(if name.starts_with("arg") {
                    PyErr::value_error(format!("attempt to get {name} of an empty sequence"))
                } else {
                    PyErr::value_error(format!(
                        "zero-size array to reduction operation {what} which has no identity"
                    ))
                });
            }
            let ints = if a.dtype.is_float() {
                None
            } else {
                Some(rows::<i64>(a, axis)?.0)
            };
            let want_max = name.ends_with("max");
            let mut out = Vec::new();
            for r in 0..v.len() / len {
                let row = &v[r * len..(r + 1) * len];
                let mut best = 0;
                for i in 1..len {
                    if row[best].is_nan() {
                        break;
                    }
                    let better = match &ints {
                        Some(iv) => {
                            let (x, y) = (iv[r * len + i], iv[r * len + best]);
                            if a.dtype == DType::U64 {
                                if want_max {
                                    (x as u64) > (y as u64)
                                } else {
                                    (x as u64) < (y as u64)
                                }
                            } else if want_max {
                                x > y
                            } else {
                                x < y
                            }
                        }
                        None => {
                            row[i].is_nan()
                                || if want_max {
                                    row[i] > row[best]
                                } else {
                                    row[i] < row[best]
                                }
                        }
                    };
                    if better {
                        best = i;
                    }
                }
                out.push(if name.starts_with("arg") {
                    Scalar::I64(best as i64)
                } else {
                    element(a, axis, r, len, best)
                });
            }
            let dt = if name.starts_with("arg") {
                DType::I64
            } else {
                a.dtype
            };
            finish(out, shape, dt)
        }
        "any" | "all" => {
            let (v, len, shape) = rows::<f64>(a, axis)?;
            let nrows = row_count(v.len(), len, &shape);
            let out: Vec<Scalar> = (0..nrows)
                .map(|r| {
                    let row = if len == 0 {
                        &[][..]
                    } else {
                        &v[r * len..(r + 1) * len]
                    };
                    Scalar::Bool(if name == "any" {
                        row.iter().any(|x| *x != 0.0)
                    } else {
                        row.iter().all(|x| *x != 0.0)
                    })
                })
                .collect();
            finish(out, shape, DType::Bool)
        }
        _ => Err(PyErr::not_implemented(format!("reduction '{name}'"))),
    }
}

/// Element `best` of row `r`, read back in the array's own dtype (exact for big ints).
fn element(a: &NdArray, axis: Option<isize>, r: usize, len: usize, best: usize) -> Scalar {
    let view = match axis {
        None => a.clone(),
        Some(ax) => axis_last(a, norm_axis(ax, a.ndim()).unwrap_or(0)).0,
    };
    let offs = crate::arrays::typed::offsets(&view, &view.shape);
    crate::arrays::typed::scalar_at(&view, offs[r * len + best])
}

/// `cumsum` (flattened when axis is None).
pub fn cumsum(a: &NdArray, axis: Option<isize>) -> PyResult<NdArray> {
    let dt = sum_dtype(a.dtype);
    match axis {
        None => {
            if dt.is_float() {
                let mut v = load::<f64>(a, &a.shape).into_owned();
                let f32_ = dt == DType::F32;
                let mut acc = 0.0f64;
                for x in v.iter_mut() {
                    acc = if f32_ {
                        (acc as f32 + *x as f32) as f64
                    } else {
                        acc + *x
                    };
                    *x = acc;
                }
                array_from(&[v.len()], dt, &v)
            } else {
                let mut v = load::<i64>(a, &a.shape).into_owned();
                let mut acc = 0i64;
                for x in v.iter_mut() {
                    acc = acc.wrapping_add(*x);
                    *x = acc;
                }
                array_from(&[v.len()], dt, &v)
            }
        }
        Some(ax) => {
            let ax = norm_axis(ax, a.ndim())?;
            let (view, _) = axis_last(a, ax);
            let len = a.shape[ax];
            let mut v = load::<f64>(&view, &view.shape).into_owned();
            for row in v.chunks_mut(len.max(1)) {
                let mut acc = 0.0;
                for x in row.iter_mut() {
                    acc += *x;
                    *x = acc;
                }
            }
            // Back to the original axis order.
            let moved = array_from(&view.shape, dt, &v)?;
            let mut perm: Vec<usize> = (0..a.ndim()).collect();
            perm.remove(ax);
            perm.push(ax);
            let mut inv = vec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                inv[p] = i;
            }
            let back = NdArray {
                shape: inv.iter().map(|&i| moved.shape[i]).collect(),
                strides: inv.iter().map(|&i| moved.strides[i]).collect(),
                ..moved
            };
            crate::arrays::ops::contiguous_copy(&back)
        }
    }
}
