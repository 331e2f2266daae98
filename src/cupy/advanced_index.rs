//! CuPy's advanced indexing: boolean masks (`x[x > 0]`, `x[mask] = 0`) and integer index
//! arrays along the first axis (`x[idx]`). Like CuPy, a boolean selection first reads how
//! many elements it selects, so it waits for the mask.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::cupy::elementwise::{queue, stream_of, Operand};
use crate::device::api::{self, Transfer};
use crate::device::copy::{buffer_of, copy_region, region_of};
use crate::device::DeviceView;
use crate::kernel::abi::ArrayArg;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// The index array behind a key, if it is an array (CuPy or NumPy) rather than a basic index.
pub fn index_array(rt: &mut Runtime, key: &Value) -> PyResult<Option<NdArray>> {
    match key {
        Value::Array(a) => Ok(Some(a.as_ref().clone())),
        Value::List(_) => Ok(Some(crate::numba_cuda::hostconv::host_array(rt, key)?)),
        Value::Object(_) => match crate::numba_cuda::interop::view_of(rt, key)? {
            Some(v) => Ok(Some(api::to_host(
                rt,
                &v,
                Transfer::explicit("cupy index"),
            )?)),
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

fn flat_bools(a: &NdArray) -> Vec<bool> {
    a.to_f64_vec().into_iter().map(|x| x != 0.0).collect()
}

/// `x[mask]` (mask of x's shape) or `x[idx]` (integer indices along axis 0).
pub fn getitem(rt: &mut Runtime, v: &DeviceView, idx: &NdArray) -> PyResult<DeviceView> {
    let stream = stream_of(rt, &[Operand::Arr(v.clone())]);
    if idx.dtype == DType::Bool {
        if idx.shape != v.shape {
            return Err(PyErr::index_error(format!(
                "boolean index shape {} does not match the array shape {}",
                api::shape_str(&idx.shape),
                api::shape_str(&v.shape)
            )));
        }
        let mask = flat_bools(idx);
        let count = mask.iter().filter(|&&b| b).count();
        let out = api::alloc(rt, &[count], v.dtype, stream)?;
        let src = region_of(v);
        let dst = region_of(&out);
        let isz = v.dtype.itemsize();
        queue(rt, stream, "cupy_compress", count * isz, move || {
            // Gather the elements in C order, then keep the selected ones.
            // invariant: a live array's shape, whose byte size fits; only an exhausted host fails
            let host = NdArray::zeros(&src.shape, src.dtype).expect("scratch for a live array");
            copy_region(&src, &crate::device::copy::host_region(&host));
            // bounded: selected elements of an existing array
            let mut bytes = Vec::with_capacity(count * isz);
            let mut tmp = vec![0u8; isz]; // bounded: one element
            for (i, keep) in mask.iter().enumerate() {
                if *keep {
                    host.buf.read(i * isz, &mut tmp);
                    bytes.extend_from_slice(&tmp);
                }
            }
            buffer_of(&dst.mem).write(dst.offset, &bytes);
        });
        return Ok(out);
    }
    if idx.dtype.is_float() {
        return Err(PyErr::index_error(
            "arrays used as indices must be of integer (or boolean) type",
        ));
    }
    let Some(&len0) = v.shape.first() else {
        return Err(PyErr::index_error(
            "too many indices for array: array is 0-dimensional",
        ));
    };
    let mut rows = Vec::with_capacity(idx.size()); // bounded: one per element of the index array
    for x in idx.to_f64_vec() {
        let i = x as i64;
        let j = if i < 0 { i + len0 as i64 } else { i };
        if j < 0 || j >= len0 as i64 {
            return Err(PyErr::index_error(format!(
                "index {i} is out of bounds for axis 0 with size {len0}"
            )));
        }
        rows.push(j as usize);
    }
    let mut shape = idx.shape.clone();
    shape.extend_from_slice(&v.shape[1..]);
    let out = api::alloc(rt, &shape, v.dtype, stream)?;
    let row_shape = v.shape[1..].to_vec();
    let row_elems: usize = row_shape.iter().product();
    let isz = v.dtype.itemsize();
    let src = region_of(v);
    let dst = region_of(&out);
    queue(rt, stream, "cupy_take", out.size() * isz, move || {
        for (k, &r) in rows.iter().enumerate() {
            let s = ArrayArg {
                offset: (src.offset as isize + r as isize * src.strides[0]) as usize,
                shape: row_shape.clone(),
                strides: src.strides[1..].to_vec(),
                ..src.clone()
            };
            let d = ArrayArg {
                offset: dst.offset + k * row_elems * isz,
                shape: row_shape.clone(),
                strides: NdArray::c_strides(&row_shape, isz),
                ..dst.clone()
            };
            copy_region(&s, &d);
        }
    });
    Ok(out)
}

/// `x[mask] = value` for a scalar value.
pub fn setitem_mask(
    rt: &mut Runtime,
    v: &DeviceView,
    mask: &NdArray,
    value: &Value,
) -> PyResult<()> {
    if mask.dtype != DType::Bool || mask.shape != v.shape {
        return Err(PyErr::not_implemented(
            "assignment with an index array needs a boolean mask of the array's shape",
        ));
    }
    let val: Scalar = match value {
        Value::Int(i) => Scalar::I64(*i),
        Value::Float(f) => Scalar::F64(*f),
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Scalar(s) => *s,
        _ => {
            return Err(PyErr::not_implemented(
                "masked assignment of arrays; assign a scalar (x[mask] = 0) or use cp.where",
            ))
        }
    };
    let stream = stream_of(rt, &[Operand::Arr(v.clone())]);
    let keep = flat_bools(mask);
    let dst = region_of(v);
    let bytes = val.cast(v.dtype).to_bytes();
    queue(
        rt,
        stream,
        "cupy_masked_fill",
        v.size() * v.dtype.itemsize(),
        move || {
            let b = buffer_of(&dst.mem);
            let nd = dst.shape.len();
            let mut idx = vec![0usize; nd]; // bounded: one entry per dimension
            for k in &keep {
                if *k {
                    let mut off = dst.offset as isize;
                    for (ax, &i) in idx.iter().enumerate() {
                        off += i as isize * dst.strides[ax];
                    }
                    b.write(off as usize, &bytes);
                }
                for ax in (0..nd).rev() {
                    idx[ax] += 1;
                    if idx[ax] < dst.shape[ax] {
                        break;
                    }
                    idx[ax] = 0;
                }
            }
        },
    );
    Ok(())
}
