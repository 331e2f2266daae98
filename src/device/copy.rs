//! Strided copies between buffers (host arrays and CPU device memory are both `Buffer`s):
//! one parallel chunked memcpy when both sides share a contiguous layout, a row-wise copy
//! otherwise, and an element-wise cast when dtypes differ.

use std::sync::Arc;

use rayon::prelude::*;

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::{DType, Scalar};
use crate::device::DeviceView;
use crate::kernel::abi::Storage;
use crate::kernel::abi::{ArgMem, ArrayArg};

/// Below this many bytes a single memcpy beats splitting the work.
const PARALLEL_MIN: usize = 4 << 20;
const CHUNK: usize = 1 << 20;

/// The buffer behind an operand: CPU device memory itself, or for GPU memory its host
/// mirror, staged around the operation (see [`crate::device::cuda::mem`]).
pub fn buffer_of(mem: &ArgMem) -> Arc<Buffer> {
    match mem {
        ArgMem::Host(b) => b.clone(),
        ArgMem::Device(a) => match &a.storage {
            Storage::Cpu(b) => b.clone(),
            Storage::Cuda(m) => crate::device::cuda::mem::host_mirror(m),
        },
    }
}

/// The bytes a strided layout touches, relative to its element 0: (lowest, one past highest).
pub fn extent(shape: &[usize], strides: &[isize], itemsize: usize) -> (isize, isize) {
    if shape.contains(&0) {
        return (0, 0);
    }
    let (mut lo, mut hi) = (0isize, itemsize as isize);
    // Saturating: absurd user strides give an absurd extent that bounds checks reject.
    for (&n, &s) in shape.iter().zip(strides) {
        let span = (n as isize).saturating_sub(1).saturating_mul(s);
        if span < 0 {
            lo = lo.saturating_add(span);
        } else {
            hi = hi.saturating_add(span);
        }
    }
    (lo, hi)
}

/// A region (view) as a copy operand.
pub fn region_of(view: &DeviceView) -> ArrayArg {
    ArrayArg {
        mem: ArgMem::Device(view.alloc.clone()),
        offset: view.offset,
        shape: view.shape.clone(),
        strides: view.strides.clone(),
        dtype: view.dtype,
    }
}

pub fn host_region(a: &crate::arrays::NdArray) -> ArrayArg {
    ArrayArg {
        mem: ArgMem::Host(a.buf.clone()),
        offset: a.offset,
        shape: a.shape.clone(),
        strides: a.strides.clone(),
        dtype: a.dtype,
    }
}

fn same_dense_layout(src: &ArrayArg, dst: &ArrayArg) -> bool {
    let isz = src.dtype.itemsize();
    let c = |r: &ArrayArg| crate::arrays::contiguous(&r.shape, &r.strides, isz, true);
    let f = |r: &ArrayArg| crate::arrays::contiguous(&r.shape, &r.strides, isz, false);
    (c(src) && c(dst)) || (f(src) && f(dst))
}

/// memcpy of `len` bytes, split across threads when large.
pub fn bulk_copy(dst: &Buffer, dst_off: usize, src: &Buffer, src_off: usize, len: usize) {
    if len < PARALLEL_MIN {
        dst.copy_from(dst_off, src, src_off, len);
        return;
    }
    let chunks = len.div_ceil(CHUNK);
    (0..chunks).into_par_iter().for_each(|i| {
        let start = i * CHUNK;
        let n = CHUNK.min(len - start);
        dst.copy_from(dst_off + start, src, src_off + start, n);
    });
}

/// Copy `src` into `dst` element by element in C order. Shapes must be equal (the caller
/// checks and raises); `src` may have zero strides (broadcast); dtypes may differ (cast).
pub fn copy_region(src: &ArrayArg, dst: &ArrayArg) {
    let n: usize = dst.shape.iter().product();
    if n == 0 {
        return;
    }
    let sb = buffer_of(&src.mem);
    let db = buffer_of(&dst.mem);
    if src.dtype == dst.dtype && src.shape == dst.shape && same_dense_layout(src, dst) {
        let isz = src.dtype.itemsize();
        let (slo, _) = extent(&src.shape, &src.strides, isz);
        let (dlo, _) = extent(&dst.shape, &dst.strides, isz);
        bulk_copy(
            &db,
            (dst.offset as isize + dlo) as usize,
            &sb,
            (src.offset as isize + slo) as usize,
            n * isz,
        );
        return;
    }
    strided_copy(&sb, src, &db, dst);
}

fn strided_copy(sb: &Buffer, src: &ArrayArg, db: &Buffer, dst: &ArrayArg) {
    let nd = dst.shape.len();
    let (si, di) = (src.dtype.itemsize(), dst.dtype.itemsize());
    // 0-d: one element.
    let inner = if nd == 0 { 1 } else { dst.shape[nd - 1] };
    let (ss, ds) = if nd == 0 {
        (0, 0)
    } else {
        (src.strides[nd - 1], dst.strides[nd - 1])
    };
    let outer = &dst.shape[..nd.saturating_sub(1)];
    let same = src.dtype == dst.dtype;
    let mut tmp = [0u8; 8];
    for_each_row(outer, |idx| {
        let mut so = src.offset as isize;
        let mut dof = dst.offset as isize;
        for (ax, &i) in idx.iter().enumerate() {
            so += i as isize * src.strides[ax];
            dof += i as isize * dst.strides[ax];
        }
        if same && ss == si as isize && ds == di as isize {
            db.copy_from(dof as usize, sb, so as usize, inner * si);
        } else {
            for k in 0..inner as isize {
                let s_at = (so + k * ss) as usize;
                let d_at = (dof + k * ds) as usize;
                if same {
                    db.copy_from(d_at, sb, s_at, si);
                } else {
                    sb.read(s_at, &mut tmp[..si]);
                    let v = Scalar::from_bytes(src.dtype, &tmp[..si]).cast(dst.dtype);
                    db.write(d_at, &v.to_bytes());
                }
            }
        }
    });
}

/// Call `row(index)` for every index of the `outer` axes, in C order (once for no axes).
fn for_each_row(outer: &[usize], mut row: impl FnMut(&[usize])) {
    let mut idx = vec![0usize; outer.len()]; // bounded: one entry per dimension
    for _ in 0..outer.iter().product::<usize>() {
        row(&idx);
        for ax in (0..idx.len()).rev() {
            idx[ax] += 1;
            if idx[ax] < outer[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
}

/// Fill a region with one value: memset or a repeated pattern when the region is dense,
/// typed strided stores row by row otherwise (a fill's order does not matter, so a row
/// with a negative stride is filled from its lowest address).
pub fn fill_region(dst: &ArrayArg, value: Scalar) {
    let bytes = value.cast(dst.dtype).to_bytes();
    let n: usize = dst.shape.iter().product();
    if n == 0 {
        return;
    }
    let db = buffer_of(&dst.mem);
    let isz = dst.dtype.itemsize();
    if crate::arrays::contiguous(&dst.shape, &dst.strides, isz, true)
        || crate::arrays::contiguous(&dst.shape, &dst.strides, isz, false)
    {
        let (lo, _) = extent(&dst.shape, &dst.strides, isz);
        fill_dense(&db, (dst.offset as isize + lo) as usize, n * isz, &bytes);
        return;
    }
    let nd = dst.shape.len();
    let (inner, step) = (dst.shape[nd - 1], dst.strides[nd - 1]);
    let outer = &dst.shape[..nd - 1];
    let typed = step % isz as isize == 0;
    for_each_row(outer, |idx| {
        let mut at = dst.offset as isize;
        for (ax, &i) in idx.iter().enumerate() {
            at += i as isize * dst.strides[ax];
        }
        if step < 0 {
            at += (inner as isize - 1) * step;
        }
        let at = at as usize;
        let stride = step.unsigned_abs();
        let aligned = typed && at.is_multiple_of(isz);
        match isz {
            1 => fill_row::<u8>(&db, at, inner, stride, &bytes),
            2 if aligned => fill_row::<u16>(&db, at, inner, stride / 2, &bytes),
            4 if aligned => fill_row::<u32>(&db, at, inner, stride / 4, &bytes),
            8 if aligned => fill_row::<u64>(&db, at, inner, stride / 8, &bytes),
            _ => (0..inner).for_each(|k| db.write(at + k * stride, &bytes)),
        }
    });
}

/// Elements a dense fill writes per pattern copy: large enough for memcpy speed, small
/// enough to stay in cache.
const PATTERN_BYTES: usize = 64 << 10;

/// Fill `len` bytes at `start` with copies of `elem` (len is a multiple of its size).
fn fill_dense(db: &Buffer, start: usize, len: usize, elem: &[u8]) {
    let uniform = elem.iter().all(|&b| b == elem[0]);
    let per = (PATTERN_BYTES / elem.len()).max(1);
    let pattern: Vec<u8> = if uniform {
        Vec::new()
    } else {
        elem.repeat(per) // bounded: PATTERN_BYTES (64 KiB)
    };
    let piece = if uniform { CHUNK } else { pattern.len() };
    let fill = |i: usize| {
        let off = i * piece;
        let n = piece.min(len - off);
        if uniform {
            db.fill(start + off, n, elem[0]);
        } else {
            db.write(start + off, &pattern[..n]);
        }
    };
    let pieces = len.div_ceil(piece);
    if len < PARALLEL_MIN {
        (0..pieces).for_each(fill);
    } else {
        (0..pieces).into_par_iter().for_each(fill);
    }
}

/// Store `elem` at `count` elements of `T` starting at byte `at`, `stride` elements apart.
fn fill_row<T: crate::arrays::buffer::Pod>(
    db: &Buffer,
    at: usize,
    count: usize,
    stride: usize,
    elem: &[u8],
) {
    let mut v = [0u8; 8];
    v[..elem.len()].copy_from_slice(elem);
    // SAFETY: `elem` is exactly one T (its dtype's bytes) and T is Pod, so any bytes are
    // a valid T; read_unaligned because `v` is a byte array.
    let value: T = unsafe { std::ptr::read_unaligned(v.as_ptr() as *const T) };
    if count == 0 {
        return;
    }
    let row = db.typed_mut::<T>(at, (count - 1) * stride + 1);
    for x in row.iter_mut().step_by(stride.max(1)) {
        *x = value;
    }
}

/// Read one element (on the host thread, after the device was synchronised).
pub fn read_scalar(mem: &ArgMem, at: usize, dtype: DType) -> Scalar {
    let mut tmp = [0u8; 8];
    if let ArgMem::Device(a) = mem {
        if let Storage::Cuda(m) = &a.storage {
            // A failed read reads as zero; the fault surfaces at the next sync.
            let _ = m
                .dev
                .dtoh(&mut tmp[..dtype.itemsize()], m.ptr + at as u64, 0);
            return Scalar::from_bytes(dtype, &tmp[..dtype.itemsize()]);
        }
    }
    let b = buffer_of(mem);
    b.read(at, &mut tmp[..dtype.itemsize()]);
    Scalar::from_bytes(dtype, &tmp[..dtype.itemsize()])
}
