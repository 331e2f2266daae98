//! The executor's one window onto raw memory: element loads, stores and atomics at byte
//! offsets of a buffer that the caller has already range-checked.
//!
//! Kernel threads on different blocks (rayon workers) touch the same buffers, as GPU
//! threads do. Every access therefore goes through std atomics (Relaxed for plain loads
//! and stores, which compile to ordinary moves) so racy kernels are racy in the CUDA sense
//! without being undefined behaviour in Rust.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

use crate::arrays::DType;

/// A raw view of memory shared with other threads: base pointer and length in bytes.
#[derive(Clone, Copy)]
pub struct RawMem {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: RawMem is only a pointer and a length; the memory it points to outlives the
// launch (the launch holds the Arc<Buffer>/Arc<Allocation>/kernel data) and every access
// below is atomic, so sharing it across worker threads cannot cause data races.
unsafe impl Send for RawMem {}
// SAFETY: see `Send`.
unsafe impl Sync for RawMem {}

impl RawMem {
    /// # Safety
    /// `ptr..ptr+len` must stay allocated for as long as this RawMem is used, and be
    /// aligned to 8 bytes (Buffer allocations are 64-byte aligned).
    pub unsafe fn new(ptr: *mut u8, len: usize) -> RawMem {
        RawMem { ptr, len }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// True when an element of `size` bytes at `off` lies inside and is naturally aligned.
    #[inline(always)]
    pub fn fits(&self, off: isize, size: usize) -> bool {
        off >= 0
            && (off as usize)
                .checked_add(size)
                .is_some_and(|e| e <= self.len)
            && (self.ptr as usize + off as usize) & (size - 1) == 0
    }

    /// Load an element as canonical register bits (integers sign/zero-extended to 64
    /// bits, f32 in the low 32 bits). The caller checked `fits(off, itemsize)`.
    #[inline(always)]
    pub fn load(&self, off: isize, dt: DType) -> u64 {
        debug_assert!(self.fits(off, dt.itemsize()));
        // SAFETY: `fits` was checked by the caller: in range and naturally aligned, so the
        // atomic types can be created over this address (`from_ptr` requirements).
        unsafe {
            let p = self.ptr.add(off as usize);
            match dt {
                DType::Bool => (AtomicU8::from_ptr(p).load(Ordering::Relaxed) != 0) as u64,
                DType::U8 => AtomicU8::from_ptr(p).load(Ordering::Relaxed) as u64,
                DType::I8 => AtomicU8::from_ptr(p).load(Ordering::Relaxed) as i8 as i64 as u64,
                DType::U16 => AtomicU16::from_ptr(p as *mut u16).load(Ordering::Relaxed) as u64,
                DType::I16 => {
                    AtomicU16::from_ptr(p as *mut u16).load(Ordering::Relaxed) as i16 as i64 as u64
                }
                DType::U32 | DType::F32 => {
                    AtomicU32::from_ptr(p as *mut u32).load(Ordering::Relaxed) as u64
                }
                DType::I32 => {
                    AtomicU32::from_ptr(p as *mut u32).load(Ordering::Relaxed) as i32 as i64 as u64
                }
                DType::I64 | DType::U64 | DType::F64 => {
                    AtomicU64::from_ptr(p as *mut u64).load(Ordering::Relaxed)
                }
            }
        }
    }

    /// Store canonical register bits as an element. The caller checked `fits`.
    #[inline(always)]
    pub fn store(&self, off: isize, dt: DType, v: u64) {
        debug_assert!(self.fits(off, dt.itemsize()));
        // SAFETY: as in `load`: in range and aligned (checked by the caller).
        unsafe {
            let p = self.ptr.add(off as usize);
            match dt.itemsize() {
                1 => AtomicU8::from_ptr(p).store(v as u8, Ordering::Relaxed),
                2 => AtomicU16::from_ptr(p as *mut u16).store(v as u16, Ordering::Relaxed),
                4 => AtomicU32::from_ptr(p as *mut u32).store(v as u32, Ordering::Relaxed),
                _ => AtomicU64::from_ptr(p as *mut u64).store(v, Ordering::Relaxed),
            }
        }
    }

    /// Load `out.len()` elements starting at `off`, `stride` bytes apart. The caller
    /// checked that the first and last element fit and that `stride` is a multiple of the
    /// item size (so every element in between fits and is aligned).
    pub fn load_run(&self, off: isize, stride: isize, dt: DType, out: &mut [u64]) {
        // SAFETY (all arms): each address lies between the checked first and last
        // elements and is aligned (stride is a multiple of the item size).
        unsafe {
            let base = self.ptr.offset(off);
            match dt {
                DType::F32 | DType::U32 => {
                    for (k, o) in out.iter_mut().enumerate() {
                        let p = base.offset(k as isize * stride) as *mut u32;
                        *o = AtomicU32::from_ptr(p).load(Ordering::Relaxed) as u64;
                    }
                }
                DType::I32 => {
                    for (k, o) in out.iter_mut().enumerate() {
                        let p = base.offset(k as isize * stride) as *mut u32;
                        *o = AtomicU32::from_ptr(p).load(Ordering::Relaxed) as i32 as i64 as u64;
                    }
                }
                DType::F64 | DType::I64 | DType::U64 => {
                    for (k, o) in out.iter_mut().enumerate() {
                        let p = base.offset(k as isize * stride) as *mut u64;
                        *o = AtomicU64::from_ptr(p).load(Ordering::Relaxed);
                    }
                }
                _ => {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = self.load(off + k as isize * stride, dt);
                    }
                }
            }
        }
    }

    /// Store a run of elements (same preconditions as [`RawMem::load_run`]).
    pub fn store_run(&self, off: isize, stride: isize, dt: DType, vals: &[u64]) {
        // SAFETY (all arms): as in `load_run`.
        unsafe {
            let base = self.ptr.offset(off);
            match dt.itemsize() {
                4 => {
                    for (k, v) in vals.iter().enumerate() {
                        let p = base.offset(k as isize * stride) as *mut u32;
                        AtomicU32::from_ptr(p).store(*v as u32, Ordering::Relaxed);
                    }
                }
                8 => {
                    for (k, v) in vals.iter().enumerate() {
                        let p = base.offset(k as isize * stride) as *mut u64;
                        AtomicU64::from_ptr(p).store(*v, Ordering::Relaxed);
                    }
                }
                _ => {
                    for (k, v) in vals.iter().enumerate() {
                        self.store(off + k as isize * stride, dt, *v);
                    }
                }
            }
        }
    }

    /// Atomic read-modify-write of a 4- or 8-byte element: `f(old)` gives the new value
    /// (None leaves memory unchanged). Returns the old canonical bits.
    #[inline]
    pub fn rmw(&self, off: isize, dt: DType, f: impl Fn(u64) -> Option<u64>) -> u64 {
        debug_assert!(self.fits(off, dt.itemsize()));
        let canon = |raw: u64| -> u64 {
            match dt {
                DType::I32 => raw as u32 as i32 as i64 as u64,
                _ => raw,
            }
        };
        // SAFETY: in range and aligned (checked by the caller); 4/8-byte dtypes only
        // (the front end restricts atomics to int32/uint32/int64/uint64/float32/float64).
        unsafe {
            let p = self.ptr.add(off as usize);
            if dt.itemsize() == 4 {
                let a = AtomicU32::from_ptr(p as *mut u32);
                let mut cur = a.load(Ordering::Relaxed);
                loop {
                    let Some(new) = f(canon(cur as u64)) else {
                        return canon(cur as u64);
                    };
                    match a.compare_exchange_weak(
                        cur,
                        new as u32,
                        Ordering::AcqRel,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => return canon(cur as u64),
                        Err(x) => cur = x,
                    }
                }
            } else {
                let a = AtomicU64::from_ptr(p as *mut u64);
                let mut cur = a.load(Ordering::Relaxed);
                loop {
                    let Some(new) = f(cur) else {
                        return cur;
                    };
                    match a.compare_exchange_weak(cur, new, Ordering::AcqRel, Ordering::Relaxed) {
                        Ok(_) => return cur,
                        Err(x) => cur = x,
                    }
                }
            }
        }
    }
}
