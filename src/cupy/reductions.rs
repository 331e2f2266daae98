//! CuPy reductions (sum, mean, min, max, std, argmax, ...) over all elements or one axis,
//! queued as device work like the elementwise operations.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::cupy::elementwise::{for_each, queue, stream_of, Input, Operand};
use crate::device::copy::{buffer_of, region_of};
use crate::device::{api, DeviceView};
use crate::kernel::abi::ArrayArg;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;

/// Reductions over all elements or one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    Sum,
    Prod,
    Mean,
    Min,
    Max,
    Std,
    Var,
    ArgMax,
    ArgMin,
    Any,
    All,
}

impl Reduce {
    pub fn parse(name: &str) -> Option<Reduce> {
        Some(match name {
            "sum" => Reduce::Sum,
            "prod" => Reduce::Prod,
            "mean" => Reduce::Mean,
            "min" | "amin" => Reduce::Min,
            "max" | "amax" => Reduce::Max,
            "std" => Reduce::Std,
            "var" => Reduce::Var,
            "argmax" => Reduce::ArgMax,
            "argmin" => Reduce::ArgMin,
            "any" => Reduce::Any,
            "all" => Reduce::All,
            _ => return None,
        })
    }
    fn out_dtype(self, d: DType) -> DType {
        match self {
            Reduce::Sum | Reduce::Prod => {
                if d.is_float() {
                    d
                } else if d == DType::Bool || d.is_signed() {
                    DType::I64
                } else {
                    DType::U64
                }
            }
            Reduce::Mean | Reduce::Std | Reduce::Var => {
                if d.is_float() {
                    d
                } else {
                    DType::F64
                }
            }
            Reduce::Min | Reduce::Max => d,
            Reduce::ArgMax | Reduce::ArgMin => DType::I64,
            Reduce::Any | Reduce::All => DType::Bool,
        }
    }
}

fn reduce_values(kind: Reduce, xs: &[f64], ints: Option<&[i64]>) -> Scalar {
    let n = xs.len();
    match kind {
        Reduce::Sum => match ints {
            Some(v) => Scalar::I64(v.iter().fold(0i64, |a, &b| a.wrapping_add(b))),
            None => Scalar::F64(pairwise_sum(xs)),
        },
        Reduce::Prod => match ints {
            Some(v) => Scalar::I64(v.iter().fold(1i64, |a, &b| a.wrapping_mul(b))),
            None => Scalar::F64(xs.iter().product()),
        },
        Reduce::Mean => Scalar::F64(pairwise_sum(xs) / n as f64),
        Reduce::Var | Reduce::Std => {
            let m = pairwise_sum(xs) / n as f64;
            let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
            Scalar::F64(if kind == Reduce::Std { v.sqrt() } else { v })
        }
        Reduce::Min | Reduce::Max => {
            if let Some(v) = ints {
                let it = v.iter().copied();
                Scalar::I64(
                    if kind == Reduce::Min {
                        it.min()
                    } else {
                        it.max()
                    }
                    .unwrap_or(0),
                )
            } else {
                let mut best = xs[0];
                for &x in xs {
                    if x.is_nan() || best.is_nan() {
                        best = f64::NAN;
                    } else if (kind == Reduce::Min && x < best) || (kind == Reduce::Max && x > best)
                    {
                        best = x;
                    }
                }
                Scalar::F64(best)
            }
        }
        Reduce::ArgMax | Reduce::ArgMin => {
            let mut bi = 0usize;
            for (i, &x) in xs.iter().enumerate() {
                if x.is_nan() {
                    bi = i;
                    break;
                }
                if (kind == Reduce::ArgMax && x > xs[bi]) || (kind == Reduce::ArgMin && x < xs[bi])
                {
                    bi = i;
                }
            }
            Scalar::I64(bi as i64)
        }
        Reduce::Any => Scalar::Bool(xs.iter().any(|&x| x != 0.0)),
        Reduce::All => Scalar::Bool(xs.iter().all(|&x| x != 0.0)),
    }
}

/// NumPy-like pairwise summation (keeps float32 sums close to NumPy's).
fn pairwise_sum(xs: &[f64]) -> f64 {
    if xs.len() <= 128 {
        xs.iter().sum()
    } else {
        let mid = xs.len() / 2;
        pairwise_sum(&xs[..mid]) + pairwise_sum(&xs[mid..])
    }
}

/// Queue a reduction over all elements (`axis=None`) or along one axis.
pub fn reduce(
    rt: &mut Runtime,
    kind: Reduce,
    a: &DeviceView,
    axis: Option<i64>,
) -> PyResult<DeviceView> {
    let nd = a.shape.len() as i64;
    let axis = match axis {
        None => None,
        Some(ax) => {
            let x = if ax < 0 { ax + nd } else { ax };
            if x < 0 || x >= nd {
                return Err(PyErr::new(
                    "AxisError",
                    format!("axis {ax} is out of bounds for array of dimension {nd}"),
                ));
            }
            Some(x as usize)
        }
    };
    let empty = a.size() == 0;
    if empty
        && matches!(
            kind,
            Reduce::Min | Reduce::Max | Reduce::ArgMax | Reduce::ArgMin
        )
    {
        return Err(PyErr::value_error(format!(
            "zero-size array to reduction operation {} which has no identity",
            format!("{kind:?}").to_lowercase()
        )));
    }
    let out_dtype = kind.out_dtype(a.dtype);
    let out_shape: Vec<usize> = match axis {
        None => vec![],
        Some(ax) => a
            .shape
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != ax)
            .map(|(_, &n)| n)
            .collect(),
    };
    let stream = stream_of(rt, &[Operand::Arr(a.clone())]);
    let out = api::alloc(rt, &out_shape, out_dtype, stream)?;
    if axis.is_none() {
        if let Some(job) = crate::cupy::fast::reduce_all_job(kind, a, &out) {
            let name = format!("cupy_{kind:?}").to_lowercase();
            queue(rt, stream, &name, a.size() * a.dtype.itemsize(), job);
            return Ok(out);
        }
    }
    let src = region_of(a);
    let dst = region_of(&out);
    let int_acc = !a.dtype.is_float() && !matches!(kind, Reduce::Mean | Reduce::Std | Reduce::Var);
    queue(
        rt,
        stream,
        &format!("cupy_{kind:?}").to_lowercase(),
        a.size() * a.dtype.itemsize(),
        move || {
            let ob = buffer_of(&dst.mem);
            // Move the reduced axis last, then reduce each contiguous run of it.
            let (outer_shape, outer_strides, len, step) = match axis {
                None => {
                    let host = gather(&src);
                    let ints: Option<Vec<i64>> =
                        int_acc.then(|| host.iter().map(|s| s.as_i64()).collect());
                    let xs: Vec<f64> = host.iter().map(|s| s.as_f64()).collect();
                    let r = reduce_values(kind, &xs, ints.as_deref());
                    ob.write(dst.offset, &r.cast(out_dtype).to_bytes());
                    return;
                }
                Some(ax) => {
                    let os: Vec<usize> = src
                        .shape
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != ax)
                        .map(|(_, &n)| n)
                        .collect();
                    let ost: Vec<isize> = src
                        .strides
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != ax)
                        .map(|(_, &s)| s)
                        .collect();
                    (os, ost, src.shape[ax], src.strides[ax])
                }
            };
            let lane = ArrayArg {
                mem: src.mem.clone(),
                offset: 0,
                shape: vec![len],
                strides: vec![step],
                dtype: src.dtype,
            };
            let outer = ArrayArg {
                mem: src.mem.clone(),
                offset: src.offset,
                shape: outer_shape.clone(),
                strides: outer_strides,
                dtype: src.dtype,
            };
            for_each(&outer_shape, &[Input::Mem(outer)], &dst, |offs, oo| {
                let l = ArrayArg {
                    offset: offs[0],
                    ..lane.clone()
                };
                let host = gather(&l);
                let ints: Option<Vec<i64>> =
                    int_acc.then(|| host.iter().map(|s| s.as_i64()).collect());
                let xs: Vec<f64> = host.iter().map(|s| s.as_f64()).collect();
                let r = if xs.is_empty() && matches!(kind, Reduce::Mean | Reduce::Std | Reduce::Var)
                {
                    Scalar::F64(f64::NAN)
                } else {
                    reduce_values(kind, &xs, ints.as_deref())
                };
                ob.write(oo, &r.cast(out_dtype).to_bytes());
            });
        },
    );
    Ok(out)
}

/// All elements of a region in C order.
fn gather(r: &ArrayArg) -> Vec<Scalar> {
    // invariant: a live array's shape, whose byte size fits; only an exhausted host fails, which aborts the Vec below alike
    let host = NdArray::zeros(&r.shape, r.dtype).expect("host scratch");
    crate::device::copy::copy_region(r, &crate::device::copy::host_region(&host));
    let isz = r.dtype.itemsize();
    let mut out = Vec::with_capacity(host.size()); // bounded: one per element of `host`
    let mut tmp = [0u8; 8];
    for i in 0..host.size() {
        host.buf.read(i * isz, &mut tmp[..isz]);
        out.push(Scalar::from_bytes(r.dtype, &tmp[..isz]));
    }
    out
}
