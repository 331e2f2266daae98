//! NumPy indexing: basic indexing (ints, slices with any step, `None`, `...`) gives views;
//! advanced indexing (integer arrays, boolean masks) gathers or scatters through a list of
//! element offsets.

use crate::arrays::alloc;
use crate::arrays::dtype::DType;
use crate::arrays::elem::{broadcast_shapes, broadcast_to, read_scalar_at, read_vec};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::NdArray;
use crate::with_dtype;

/// A Python `slice(start, stop, step)`.
#[derive(Clone, Debug, PartialEq)]
pub struct SliceValue {
    pub start: Option<i64>,
    pub stop: Option<i64>,
    pub step: Option<i64>,
}

impl SliceValue {
    /// Python's `slice.indices(len)`: normalised (start, stop, step), step != 0.
    pub fn indices(&self, len: usize) -> ArrayResult<(isize, isize, isize)> {
        let len = len as isize;
        let step = self.step.unwrap_or(1) as isize;
        if step == 0 {
            return Err(ArrayError::value_error("slice step cannot be zero"));
        }
        let (lower, upper) = if step < 0 { (-1, len - 1) } else { (0, len) };
        let clamp = |v: Option<i64>, default: isize| -> isize {
            match v {
                None => default,
                Some(v) => {
                    let v = v as isize;
                    if v < 0 {
                        (v + len).max(lower)
                    } else {
                        v.min(upper)
                    }
                }
            }
        };
        let start = clamp(self.start, if step < 0 { upper } else { lower });
        let stop = clamp(self.stop, if step < 0 { lower } else { upper });
        Ok((start, stop, step))
    }

    /// Number of elements selected from a sequence of `len` items.
    pub fn len_for(&self, len: usize) -> ArrayResult<usize> {
        let (start, stop, step) = self.indices(len)?;
        Ok(if step > 0 {
            if stop > start {
                ((stop - start - 1) / step + 1) as usize
            } else {
                0
            }
        } else if start > stop {
            ((start - stop - 1) / (-step) + 1) as usize
        } else {
            0
        })
    }
}

/// One component of an index key.
pub enum Idx {
    Int(i64),
    Slice(SliceValue),
    NewAxis,
    Ellipsis,
    /// An integer or boolean array.
    Array(NdArray),
}

/// Where an indexing operation lands: a view, or element offsets into the buffer.
pub enum Target {
    View(NdArray),
    Gather {
        shape: Vec<usize>,
        offsets: Vec<usize>,
    },
}

fn consumed(i: &Idx) -> usize {
    match i {
        Idx::Int(_) | Idx::Slice(_) => 1,
        Idx::Array(a) if a.dtype == DType::Bool => a.ndim().max(1),
        Idx::Array(_) => 1,
        _ => 0,
    }
}

fn check_int(i: i64, len: usize, axis: usize) -> ArrayResult<usize> {
    let n = len as i64;
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(ArrayError::index_error(format!(
            "index {i} is out of bounds for axis {axis} with size {len}"
        )));
    }
    Ok(j as usize)
}

/// Relative byte offsets of every element of a (shape, strides) layout, C order; a
/// MemoryError for the huge axes an empty array may have.
fn rel_offsets(shape: &[usize], strides: &[isize]) -> ArrayResult<Vec<isize>> {
    let mut out = vec![0isize];
    for (d, s) in shape.iter().zip(strides) {
        let mut next = alloc::vec_with_capacity(out.len().saturating_mul(*d), "an index")?;
        for &o in &out {
            for i in 0..*d {
                next.push(o + i as isize * s);
            }
        }
        out = next;
    }
    Ok(out)
}

/// Resolve `key` against `a`.
pub fn resolve(a: &NdArray, key: Vec<Idx>) -> ArrayResult<Target> {
    // Expand the ellipsis to full slices.
    let used: usize = key.iter().map(consumed).sum();
    let n_ell = key.iter().filter(|k| matches!(k, Idx::Ellipsis)).count();
    if n_ell > 1 {
        return Err(ArrayError::index_error(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    if used > a.ndim() {
        return Err(ArrayError::index_error(format!(
            "too many indices for array: array is {}-dimensional, but {} were indexed",
            a.ndim(),
            used
        )));
    }
    let full = || {
        Idx::Slice(SliceValue {
            start: None,
            stop: None,
            step: None,
        })
    };
    let mut keys = Vec::new();
    for k in key {
        if matches!(k, Idx::Ellipsis) {
            for _ in 0..a.ndim() - used {
                keys.push(full());
            }
        } else {
            keys.push(k);
        }
    }
    // Multi-dimensional boolean mask: the whole-array case.
    if keys.len() == 1 {
        if let Idx::Array(m) = &keys[0] {
            if m.dtype == DType::Bool && m.ndim() > 1 {
                return bool_mask_full(a, m);
            }
        }
    }
    // Arrays (and ints, when arrays are present) are advanced indices.
    let n_arr = keys.iter().filter(|k| matches!(k, Idx::Array(_))).count();
    if n_arr > 1
        || (n_arr == 1
            && keys
                .iter()
                .all(|k| matches!(k, Idx::Array(_) | Idx::Int(_)))
            && keys.len() > 1)
    {
        return multi_advanced(a, &keys);
    }
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    let mut offset = a.offset as isize;
    let mut ax = 0;
    let mut adv: Option<(usize, NdArray)> = None;
    for k in &keys {
        match k {
            Idx::Int(i) => {
                let j = check_int(*i, a.shape[ax], ax)?;
                offset += j as isize * a.strides[ax];
                ax += 1;
            }
            Idx::Slice(s) => {
                let (start, _, step) = s.indices(a.shape[ax])?;
                let len = s.len_for(a.shape[ax])?;
                if len > 0 {
                    offset += start * a.strides[ax];
                }
                shape.push(len);
                strides.push(a.strides[ax] * step);
                ax += 1;
            }
            Idx::NewAxis => {
                shape.push(1);
                strides.push(0);
            }
            Idx::Array(arr) => {
                adv = Some((shape.len(), arr.clone()));
                shape.push(a.shape[ax]);
                strides.push(a.strides[ax]);
                ax += 1;
            }
            Idx::Ellipsis => {}
        }
    }
    for i in ax..a.ndim() {
        shape.push(a.shape[i]);
        strides.push(a.strides[i]);
    }
    let view = NdArray {
        buf: a.buf.clone(),
        offset: offset.max(0) as usize,
        shape,
        strides,
        dtype: a.dtype,
        view: true,
    };
    let Some((k, idx)) = adv else {
        return Ok(Target::View(view));
    };
    // One advanced index at axis k of the view: it stays in place.
    let len = view.shape[k];
    let picks: Vec<usize> = if idx.dtype == DType::Bool {
        if idx.size() != len {
            return Err(ArrayError::index_error(format!(
                "boolean index did not match indexed array along axis {k}; size of axis is {len} but size of corresponding boolean axis is {}",
                idx.size()
            )));
        }
        read_vec::<i64>(&idx)
            .iter()
            .enumerate()
            .filter(|(_, &b)| b != 0)
            .map(|(i, _)| i)
            .collect()
    } else {
        int_picks(&idx, len, k)?
    };
    let idx_shape = if idx.dtype == DType::Bool {
        vec![picks.len()]
    } else {
        idx.shape.clone()
    };
    let pre = rel_offsets(&view.shape[..k], &view.strides[..k])?;
    let post = rel_offsets(&view.shape[k + 1..], &view.strides[k + 1..])?;
    let n = pre
        .len()
        .saturating_mul(picks.len())
        .saturating_mul(post.len());
    let mut offsets = alloc::vec_with_capacity(n, "an index")?;
    for &p in &pre {
        for &i in &picks {
            for &q in &post {
                offsets
                    .push((view.offset as isize + p + i as isize * view.strides[k] + q) as usize);
            }
        }
    }
    let mut shape = view.shape[..k].to_vec();
    shape.extend(idx_shape);
    shape.extend_from_slice(&view.shape[k + 1..]);
    Ok(Target::Gather { shape, offsets })
}

fn int_picks(idx: &NdArray, len: usize, axis: usize) -> ArrayResult<Vec<usize>> {
    if idx.dtype.is_float() {
        return Err(ArrayError::index_error(
            "arrays used as indices must be of integer (or boolean) type",
        ));
    }
    read_vec::<i64>(idx)
        .into_iter()
        .map(|i| check_int(i, len, axis))
        .collect()
}

fn bool_mask_full(a: &NdArray, m: &NdArray) -> ArrayResult<Target> {
    let k = m.ndim();
    if m.shape[..] != a.shape[..k] {
        return Err(ArrayError::index_error(format!(
            "boolean index did not match indexed array along axis 0; size of axis is {} but size of corresponding boolean axis is {}",
            a.shape[0], m.shape[0]
        )));
    }
    let mask = read_vec::<i64>(m);
    let outer = rel_offsets(&a.shape[..k], &a.strides[..k])?;
    let inner = rel_offsets(&a.shape[k..], &a.strides[k..])?;
    let mut offsets = Vec::new();
    let mut count = 0;
    for (o, &b) in outer.iter().zip(&mask) {
        if b != 0 {
            count += 1;
            for &q in &inner {
                offsets.push((a.offset as isize + o + q) as usize);
            }
        }
    }
    let mut shape = vec![count];
    shape.extend_from_slice(&a.shape[k..]);
    Ok(Target::Gather { shape, offsets })
}

/// `a[i_arr, j_arr, ...]`: integer arrays (and ints) broadcast together, one per axis.
fn multi_advanced(a: &NdArray, keys: &[Idx]) -> ArrayResult<Target> {
    let mut arrs = Vec::new();
    for (ax, k) in keys.iter().enumerate() {
        match k {
            Idx::Int(i) => arrs.push(crate::arrays::elem::scalar_array(crate::arrays::dtype::Scalar::I64(*i))),
            Idx::Array(x) if x.dtype != DType::Bool => arrs.push(x.clone()),
            _ => {
                return Err(ArrayError::not_implemented(format!(
                    "mixing slices or boolean masks with several index arrays (axis {ax}) is not supported by nbcuda; index in two steps"
                )))
            }
        }
    }
    let shapes: Vec<&[usize]> = arrs.iter().map(|x| &x.shape[..]).collect();
    let bshape = broadcast_shapes(&shapes).map_err(|_| {
        ArrayError::index_error(format!(
            "shape mismatch: indexing arrays could not be broadcast together with shapes {}",
            shapes
                .iter()
                .map(|s| crate::arrays::elem::shape_str(s))
                .collect::<Vec<_>>()
                .join(" ")
        ))
    })?;
    let cols: Vec<Vec<usize>> = arrs
        .iter()
        .enumerate()
        .map(|(ax, x)| int_picks(&broadcast_to(x, &bshape)?, a.shape[ax], ax))
        .collect::<ArrayResult<_>>()?;
    let k = keys.len();
    let post = rel_offsets(&a.shape[k..], &a.strides[k..])?;
    let n: usize = bshape.iter().product();
    let mut offsets = alloc::vec_with_capacity(n.saturating_mul(post.len()), "an index")?;
    for e in 0..n {
        let mut o = a.offset as isize;
        for (ax, c) in cols.iter().enumerate() {
            o += c[e] as isize * a.strides[ax];
        }
        for &q in &post {
            offsets.push((o + q) as usize);
        }
    }
    let mut shape = bshape;
    shape.extend_from_slice(&a.shape[k..]);
    Ok(Target::Gather { shape, offsets })
}

/// Copy the elements at `offsets` of `a` into a new array of `shape`.
pub fn gather(a: &NdArray, shape: &[usize], offsets: &[usize]) -> ArrayResult<NdArray> {
    let out = crate::arrays::elem::new_array(shape, a.dtype)?;
    with_dtype!(a.dtype, T => {
        let o = out.buf.typed_mut::<T>(0, offsets.len());
        for (d, &off) in o.iter_mut().zip(offsets) {
            *d = a.buf.typed::<T>(off, 1)[0];
        }
    });
    Ok(out)
}

/// Write `value` (broadcast to `shape`, cast to a's dtype) at `offsets`.
pub fn scatter(
    a: &NdArray,
    shape: &[usize],
    offsets: &[usize],
    value: &NdArray,
) -> ArrayResult<()> {
    let v = broadcast_to(value, shape).map_err(|_| {
        ArrayError::value_error(format!(
            "shape mismatch: value array of shape {} could not be broadcast to indexing result of shape {}",
            crate::arrays::elem::shape_str(&value.shape),
            crate::arrays::elem::shape_str(shape)
        ))
    })?;
    with_dtype!(a.dtype, T => {
        let vals = read_vec::<T>(&v);
        for (&off, x) in offsets.iter().zip(vals) {
            a.buf.typed_mut::<T>(off, 1)[0] = x;
        }
    });
    Ok(())
}

/// The element at a byte offset as a scalar (for integer indexing of every axis).
pub fn element(a: &NdArray, off: usize) -> crate::arrays::dtype::Scalar {
    read_scalar_at(a, off)
}

/// Refuse a view whose elements would not all sit at a multiple of their size (at most
/// 8): nbcuda's typed views need element alignment, where NumPy would hand out an
/// unaligned array. `offset` is the first element's byte offset in the buffer.
pub fn check_aligned(
    offset: usize,
    shape: &[usize],
    strides: &[isize],
    dtype: DType,
) -> ArrayResult<()> {
    let align = dtype.itemsize().clamp(1, 8);
    let misaligned = !offset.is_multiple_of(align)
        || shape
            .iter()
            .zip(strides)
            .any(|(&n, &st)| n > 1 && st % align as isize != 0);
    if misaligned && !shape.contains(&0) {
        return Err(ArrayError::not_implemented(format!(
            "this view would be unaligned for {}: nbcuda keeps every element at a multiple of its size (byte offset {offset}, strides {strides:?})",
            dtype.name()
        )));
    }
    Ok(())
}

/// The shape and strides of `view(dtype)` from an item of `old` bytes to one of `new`
/// bytes, by NumPy 2's rules: only the last axis changes, and it must be contiguous.
pub fn view_layout(
    shape: &[usize],
    strides: &[isize],
    old: usize,
    new: usize,
) -> ArrayResult<(Vec<usize>, Vec<isize>)> {
    let (mut shape, mut strides) = (shape.to_vec(), strides.to_vec());
    if old == new {
        return Ok((shape, strides));
    }
    let Some(last) = shape.len().checked_sub(1) else {
        return Err(ArrayError::value_error(
            "Changing the dtype of a 0d array is only supported if the itemsize is unchanged",
        ));
    };
    let size: usize = shape.iter().product();
    if shape[last] != 1 && size != 0 && strides[last] != old as isize {
        return Err(ArrayError::value_error(
            "To change to a dtype of a different size, the last axis must be contiguous",
        ));
    }
    if new < old {
        if new == 0 || !old.is_multiple_of(new) {
            return Err(ArrayError::value_error(
                "When changing to a smaller dtype, its size must be a divisor of the size of original dtype",
            ));
        }
        shape[last] = shape[last].saturating_mul(old / new);
    } else {
        let bytes = shape[last].saturating_mul(old);
        if !bytes.is_multiple_of(new) {
            return Err(ArrayError::value_error(
                "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.",
            ));
        }
        shape[last] = bytes / new;
    }
    strides[last] = new as isize;
    Ok((shape, strides))
}
