//! The executor's one window onto raw memory: element loads, stores and atomics at byte
//! offsets of a buffer.
//!
//! Every access is checked here, so no caller can reach memory outside the buffer: single
//! accesses check their element, runs check their first and last element once (every
//! element in between then lies inside, since a run is linear), which keeps the
//! vectorised paths at one check per run rather than one per lane.
//!
//! Kernel threads on different blocks (rayon workers) touch the same buffers, as GPU
//! threads do. Every access therefore goes through std atomics (Relaxed for plain loads
//! and stores, which compile to ordinary moves) so racy kernels are racy in the CUDA sense
//! without being undefined behaviour in Rust. The one exception is runs of arrays that
//! the launch proved private to each thread (`*_run_exclusive`): no other thread can touch
//! those elements, so plain accesses are race-free and let the compiler vectorise.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

use crate::arrays::dtype::DType;

/// True when the CPU has AVX2 and FMA: the executor's lane loops then run in versions
/// compiled for them (the binary itself targets baseline x86-64).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// True when the CPU has AVX-512 F, VL and DQ (and AVX2 and FMA): math-bound loops then
/// run in versions compiled for 512-bit vectors.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && has_avx2()
}

/// Order this thread's non-temporal stores before anything it does next (the end of a
/// launch is then visible to whoever waits for it).
pub fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86-64 CPU; a fence has no other effect.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

/// Bytes of the last-level cache (32 MiB when the system does not say): the size above
/// which a launch's arrays stream through memory rather than staying in cache.
pub fn cache_bytes() -> usize {
    static SIZE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *SIZE.get_or_init(|| {
        (0..5)
            .rev()
            .find_map(|i| {
                let t = std::fs::read_to_string(format!(
                    "/sys/devices/system/cpu/cpu0/cache/index{i}/size"
                ))
                .ok()?;
                let t = t.trim();
                let (num, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit())?);
                let scale = match unit {
                    "K" => 1 << 10,
                    "M" => 1 << 20,
                    _ => return None,
                };
                num.parse::<usize>().ok().map(|v| v * scale)
            })
            .unwrap_or(32 << 20)
    })
}

/// A raw view of memory shared with other threads: base pointer and length in bytes.
#[derive(Clone, Copy)]
pub struct RawMem {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: RawMem is only a pointer and a length; the memory it points to outlives the
// launch (the launch holds the Arc<Buffer>/Arc<Allocation>/kernel data) and every access
// below is atomic, or plain only where the caller proved the elements private to one
// thread, so sharing it across worker threads cannot cause data races.
unsafe impl Send for RawMem {}
// SAFETY: see `Send`.
unsafe impl Sync for RawMem {}

/// A run of `count` elements of one dtype, `stride` bytes apart, whose every element was
/// proved in range and aligned by [`RawMem::run`].
#[derive(Clone, Copy, Debug)]
pub struct Run {
    off: isize,
    stride: isize,
    count: usize,
    dt: DType,
}

impl RawMem {
    /// # Safety
    /// `ptr..ptr+len` must stay allocated (and not be mutated other than through atomics
    /// or other `RawMem`s) for as long as this RawMem or a copy of it is used.
    pub unsafe fn new(ptr: *mut u8, len: usize) -> RawMem {
        RawMem { ptr, len }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// True when the two views share any byte.
    pub fn overlaps(&self, other: &RawMem) -> bool {
        let (a0, b0) = (self.ptr as usize, other.ptr as usize);
        a0 < b0.wrapping_add(other.len) && b0 < a0.wrapping_add(self.len)
    }

    /// True when an element of `size` bytes (1, 2, 4 or 8) at `off` lies inside and is
    /// naturally aligned.
    #[inline(always)]
    pub fn fits(&self, off: isize, size: usize) -> bool {
        size.is_power_of_two()
            && size <= 8
            && off >= 0
            && (off as usize)
                .checked_add(size)
                .is_some_and(|e| e <= self.len)
            && (self.ptr as usize).wrapping_add(off as usize) & (size - 1) == 0
    }

    /// Prove a run of `count` elements starting at `off`, `stride` bytes apart: the first
    /// and last element fit and the stride keeps alignment, so every element between them
    /// fits too. None when any element would fall outside or be misaligned.
    #[inline]
    pub fn run(&self, off: isize, stride: isize, count: usize, dt: DType) -> Option<Run> {
        let isz = dt.itemsize();
        if count == 0 {
            return Some(Run {
                off: 0,
                stride: 0,
                count: 0,
                dt,
            });
        }
        if stride % isz as isize != 0 {
            return None;
        }
        let last = isize::try_from(count - 1)
            .ok()?
            .checked_mul(stride)?
            .checked_add(off)?;
        (self.fits(off, isz) && self.fits(last, isz)).then_some(Run {
            off,
            stride,
            count,
            dt,
        })
    }

    /// Load an element as canonical register bits (integers sign/zero-extended to 64
    /// bits, f32 in the low 32 bits); None when it does not fit.
    #[inline(always)]
    pub fn load(&self, off: isize, dt: DType) -> Option<u64> {
        if !self.fits(off, dt.itemsize()) {
            return None;
        }
        // SAFETY: `fits` just proved the element in range and naturally aligned.
        Some(unsafe { self.load_at(self.ptr.add(off as usize), dt) })
    }

    /// # Safety
    /// `p` must point at an element of `dt` inside this memory, naturally aligned.
    #[inline(always)]
    unsafe fn load_at(&self, p: *mut u8, dt: DType) -> u64 {
        // SAFETY: the caller guarantees `p` in range and aligned, which is what the
        // atomic types' `from_ptr` requires; all access to this memory is atomic.
        unsafe {
            match dt {
                DType::Bool => (AtomicU8::from_ptr(p).load(Ordering::Relaxed) != 0) as u64,
                DType::U8 => AtomicU8::from_ptr(p).load(Ordering::Relaxed) as u64,
                DType::I8 => AtomicU8::from_ptr(p).load(Ordering::Relaxed) as i8 as i64 as u64,
                DType::U16 | DType::F16 => {
                    AtomicU16::from_ptr(p as *mut u16).load(Ordering::Relaxed) as u64
                }
                DType::I16 => {
                    AtomicU16::from_ptr(p as *mut u16).load(Ordering::Relaxed) as i16 as i64 as u64
                }
                DType::U32 | DType::F32 => {
                    AtomicU32::from_ptr(p as *mut u32).load(Ordering::Relaxed) as u64
                }
                DType::I32 => {
                    AtomicU32::from_ptr(p as *mut u32).load(Ordering::Relaxed) as i32 as i64 as u64
                }
                // Complex arrays never reach a device; a complex64 loads as its 8 bytes and
                // a complex128 as its real part.
                DType::I64 | DType::U64 | DType::F64 | DType::C64 | DType::C128 => {
                    AtomicU64::from_ptr(p as *mut u64).load(Ordering::Relaxed)
                }
            }
        }
    }

    /// # Safety
    /// As for [`RawMem::load_at`].
    #[inline(always)]
    unsafe fn store_at(&self, p: *mut u8, dt: DType, v: u64) {
        // SAFETY: the caller guarantees `p` in range and aligned for `dt`.
        unsafe {
            match dt.itemsize() {
                1 => AtomicU8::from_ptr(p).store(v as u8, Ordering::Relaxed),
                2 => AtomicU16::from_ptr(p as *mut u16).store(v as u16, Ordering::Relaxed),
                4 => AtomicU32::from_ptr(p as *mut u32).store(v as u32, Ordering::Relaxed),
                _ => AtomicU64::from_ptr(p as *mut u64).store(v, Ordering::Relaxed),
            }
        }
    }

    /// Store canonical register bits as an element; false (nothing written) when it does
    /// not fit.
    #[inline(always)]
    #[must_use]
    pub fn store(&self, off: isize, dt: DType, v: u64) -> bool {
        if !self.fits(off, dt.itemsize()) {
            return false;
        }
        // SAFETY: `fits` just proved the element in range and naturally aligned.
        unsafe { self.store_at(self.ptr.add(off as usize), dt, v) };
        true
    }

    /// Load a proved run into `out` (`out.len()` must equal the run's count; a shorter
    /// `out` loads only its length, which stays inside the run).
    pub fn load_run(&self, run: Run, out: &mut [u64]) {
        let n = out.len().min(run.count);
        let out = &mut out[..n];
        let base = self.ptr.wrapping_offset(run.off);
        let at = |k: usize| base.wrapping_offset(k as isize * run.stride);
        match run.dt {
            DType::F32 | DType::U32 => {
                for (k, o) in out.iter_mut().enumerate() {
                    // SAFETY: element k < count of a run proved by `RawMem::run` (first
                    // and last in range, stride a multiple of the item size).
                    *o = unsafe { AtomicU32::from_ptr(at(k) as *mut u32) }.load(Ordering::Relaxed)
                        as u64;
                }
            }
            DType::I32 => {
                for (k, o) in out.iter_mut().enumerate() {
                    // SAFETY: as above, element k of a proved run.
                    *o = unsafe { AtomicU32::from_ptr(at(k) as *mut u32) }.load(Ordering::Relaxed)
                        as i32 as i64 as u64;
                }
            }
            DType::F64 | DType::I64 | DType::U64 => {
                for (k, o) in out.iter_mut().enumerate() {
                    // SAFETY: as above, element k of a proved run.
                    *o = unsafe { AtomicU64::from_ptr(at(k) as *mut u64) }.load(Ordering::Relaxed);
                }
            }
            dt => {
                for (k, o) in out.iter_mut().enumerate() {
                    // SAFETY: as above, element k of a proved run.
                    *o = unsafe { self.load_at(at(k), dt) };
                }
            }
        }
    }

    /// [`RawMem::load_run`] for a unit-stride run of elements no other thread touches
    /// during the launch: plain loads, which the compiler vectorises.
    ///
    /// # Safety
    /// No other thread may write the run's elements while this runs (the executor proves
    /// this for arrays every thread reaches only at its own global id).
    pub unsafe fn load_run_exclusive(&self, run: Run, out: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: AVX2 is present (checked just above); the caller's guarantee
            // passes through.
            return unsafe { self.load_run_exclusive_avx2(run, out) };
        }
        // SAFETY: the caller's guarantee passes through.
        unsafe { self.load_run_exclusive_generic(run, out) }
    }

    /// # Safety
    /// As for [`RawMem::load_run_exclusive`], and the CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn load_run_exclusive_avx2(&self, run: Run, out: &mut [u64]) {
        // SAFETY: the caller's guarantee passes through.
        unsafe { self.load_run_exclusive_generic(run, out) }
    }

    /// # Safety
    /// As for [`RawMem::load_run_exclusive`].
    #[inline(always)]
    unsafe fn load_run_exclusive_generic(&self, run: Run, out: &mut [u64]) {
        let n = out.len().min(run.count);
        let out = &mut out[..n];
        let base = self.ptr.wrapping_offset(run.off);
        if run.stride != run.dt.itemsize() as isize {
            return self.load_run(run, out);
        }
        macro_rules! copy {
            ($t:ty, $conv:expr) => {{
                let src = base as *const $t;
                for (k, o) in out.iter_mut().enumerate() {
                    // SAFETY: element k of a proved run (in range, aligned); the caller
                    // guarantees no concurrent writer.
                    *o = $conv(unsafe { src.add(k).read() });
                }
            }};
        }
        match run.dt {
            DType::F32 | DType::U32 => copy!(u32, |v: u32| v as u64),
            DType::I32 => copy!(i32, |v: i32| v as i64 as u64),
            DType::F64 | DType::I64 | DType::U64 => copy!(u64, |v: u64| v),
            _ => self.load_run(run, out),
        }
    }

    /// [`RawMem::store_run`] for a unit-stride run no other thread touches.
    ///
    /// # Safety
    /// As for [`RawMem::load_run_exclusive`]: no other thread may read or write the run's
    /// elements while this runs.
    pub unsafe fn store_run_exclusive(&self, run: Run, vals: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: AVX2 is present (checked just above); the caller's guarantee
            // passes through.
            return unsafe { self.store_run_exclusive_avx2(run, vals) };
        }
        // SAFETY: the caller's guarantee passes through.
        unsafe { self.store_run_exclusive_generic(run, vals) }
    }

    /// # Safety
    /// As for [`RawMem::store_run_exclusive`], and the CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn store_run_exclusive_avx2(&self, run: Run, vals: &[u64]) {
        // SAFETY: the caller's guarantee passes through.
        unsafe { self.store_run_exclusive_generic(run, vals) }
    }

    /// # Safety
    /// As for [`RawMem::store_run_exclusive`].
    #[inline(always)]
    unsafe fn store_run_exclusive_generic(&self, run: Run, vals: &[u64]) {
        let vals = &vals[..vals.len().min(run.count)];
        let base = self.ptr.wrapping_offset(run.off);
        if run.stride != run.dt.itemsize() as isize {
            return self.store_run(run, vals);
        }
        macro_rules! copy {
            ($t:ty) => {{
                let dst = base as *mut $t;
                for (k, v) in vals.iter().enumerate() {
                    // SAFETY: as in `load_run_exclusive`.
                    unsafe { dst.add(k).write(*v as $t) };
                }
            }};
        }
        match run.dt.itemsize() {
            4 => copy!(u32),
            8 => copy!(u64),
            _ => self.store_run(run, vals),
        }
    }

    /// The address of byte `off`; reading or writing through it needs a proved run.
    pub fn ptr_at(&self, off: isize) -> *mut u8 {
        self.ptr.wrapping_offset(off)
    }

    /// Copy a proved run into `out` as values of its own type `T` (at most the run's
    /// count of them).
    ///
    /// # Safety
    /// `T` must be the native type of the run's dtype, and no other thread may write the
    /// run's elements while this runs.
    pub unsafe fn read_run_exclusive<T: Copy>(&self, run: Run, out: &mut [T]) {
        assert_eq!(size_of::<T>(), run.dt.itemsize());
        let n = out.len().min(run.count);
        let base = self.ptr.wrapping_offset(run.off) as *const T;
        if run.stride == size_of::<T>() as isize {
            // SAFETY: the run's n elements are in range and aligned (proved by `run`), the
            // caller excludes concurrent writers, and `out` is a distinct Rust slice.
            unsafe { std::ptr::copy_nonoverlapping(base, out.as_mut_ptr(), n) };
            return;
        }
        for (k, o) in out[..n].iter_mut().enumerate() {
            // SAFETY: element k of a proved run; the caller excludes concurrent writers.
            *o = unsafe { base.byte_offset(k as isize * run.stride).read() };
        }
    }

    /// Copy `vals` (values of the run's own type `T`) into a proved run. `vals` may be
    /// the run itself read in place: the contiguous copy is a memmove.
    ///
    /// # Safety
    /// `T` must be the native type of the run's dtype, and no other thread may read or
    /// write the run's elements while this runs.
    pub unsafe fn write_run_exclusive<T: Copy>(&self, run: Run, vals: &[T]) {
        assert_eq!(size_of::<T>(), run.dt.itemsize());
        let n = vals.len().min(run.count);
        let base = self.ptr.wrapping_offset(run.off) as *mut T;
        if run.stride == size_of::<T>() as isize {
            // SAFETY: the run's n elements are in range and aligned, and no other thread
            // touches them (the caller's guarantee); `copy` allows overlap.
            unsafe { std::ptr::copy(vals.as_ptr(), base, n) };
            return;
        }
        for (k, v) in vals[..n].iter().enumerate() {
            // SAFETY: element k of a proved run, private to this thread.
            unsafe { base.byte_offset(k as isize * run.stride).write(*v) };
        }
    }

    /// [`RawMem::write_run_exclusive`] with non-temporal stores where the run is
    /// contiguous: the written lines go to memory without first being read into the
    /// cache, which saves a third of the memory traffic of a large element-wise launch.
    /// Call [`store_fence`] before the launch completes.
    ///
    /// # Safety
    /// As for [`RawMem::write_run_exclusive`], and `vals` must not overlap the run.
    pub unsafe fn stream_run_exclusive<T: Copy>(&self, run: Run, vals: &[T]) {
        #[cfg(target_arch = "x86_64")]
        if run.stride == size_of::<T>() as isize {
            use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
            assert_eq!(size_of::<T>(), run.dt.itemsize());
            let bytes = vals.len().min(run.count) * size_of::<T>();
            let dst = self.ptr.wrapping_offset(run.off);
            let src = vals.as_ptr() as *const u8;
            let head = dst.align_offset(16).min(bytes);
            let body = head + (bytes - head) / 16 * 16;
            // SAFETY: the run's `bytes` bytes are in range (proved by `run`), private to
            // this thread (the caller's guarantee) and disjoint from `vals`; the streamed
            // part starts at a 16-byte aligned address, as `_mm_stream_si128` requires,
            // and SSE2 is part of every x86-64 CPU.
            unsafe {
                std::ptr::copy_nonoverlapping(src, dst, head);
                let mut k = head;
                while k < body {
                    let v = _mm_loadu_si128(src.add(k) as *const __m128i);
                    _mm_stream_si128(dst.add(k) as *mut __m128i, v);
                    k += 16;
                }
                std::ptr::copy_nonoverlapping(src.add(body), dst.add(body), bytes - body);
            }
            return;
        }
        // SAFETY: the caller's guarantee passes through.
        unsafe { self.write_run_exclusive(run, vals) }
    }

    /// Store `vals` into a proved run (at most the run's count of them).
    pub fn store_run(&self, run: Run, vals: &[u64]) {
        let vals = &vals[..vals.len().min(run.count)];
        let base = self.ptr.wrapping_offset(run.off);
        let at = |k: usize| base.wrapping_offset(k as isize * run.stride);
        match run.dt.itemsize() {
            4 => {
                for (k, v) in vals.iter().enumerate() {
                    // SAFETY: element k < count of a run proved by `RawMem::run`.
                    unsafe { AtomicU32::from_ptr(at(k) as *mut u32) }
                        .store(*v as u32, Ordering::Relaxed);
                }
            }
            8 => {
                for (k, v) in vals.iter().enumerate() {
                    // SAFETY: element k < count of a run proved by `RawMem::run`.
                    unsafe { AtomicU64::from_ptr(at(k) as *mut u64) }.store(*v, Ordering::Relaxed);
                }
            }
            _ => {
                for (k, v) in vals.iter().enumerate() {
                    // SAFETY: element k < count of a run proved by `RawMem::run`.
                    unsafe { self.store_at(at(k), run.dt, *v) };
                }
            }
        }
    }

    /// Atomic read-modify-write of a 4- or 8-byte element: `f(old)` gives the new value
    /// (None leaves memory unchanged). Returns the old canonical bits, or None when the
    /// element does not fit or its dtype is not 4 or 8 bytes wide.
    #[inline]
    pub fn rmw(&self, off: isize, dt: DType, f: impl Fn(u64) -> Option<u64>) -> Option<u64> {
        let isz = dt.itemsize();
        if !(isz == 4 || isz == 8) || !self.fits(off, isz) {
            return None;
        }
        let canon = |raw: u64| -> u64 {
            match dt {
                DType::I32 => raw as u32 as i32 as i64 as u64,
                _ => raw,
            }
        };
        // SAFETY: `fits` just proved the element in range and aligned for its 4 or 8
        // bytes (checked above), as `from_ptr` requires.
        let p = unsafe { self.ptr.add(off as usize) };
        if isz == 4 {
            // SAFETY: see above.
            let a = unsafe { AtomicU32::from_ptr(p as *mut u32) };
            let mut cur = a.load(Ordering::Relaxed);
            loop {
                let Some(new) = f(canon(cur as u64)) else {
                    return Some(canon(cur as u64));
                };
                match a.compare_exchange_weak(cur, new as u32, Ordering::AcqRel, Ordering::Relaxed)
                {
                    Ok(_) => return Some(canon(cur as u64)),
                    Err(x) => cur = x,
                }
            }
        } else {
            // SAFETY: see above.
            let a = unsafe { AtomicU64::from_ptr(p as *mut u64) };
            let mut cur = a.load(Ordering::Relaxed);
            loop {
                let Some(new) = f(cur) else {
                    return Some(cur);
                };
                match a.compare_exchange_weak(cur, new, Ordering::AcqRel, Ordering::Relaxed) {
                    Ok(_) => return Some(cur),
                    Err(x) => cur = x,
                }
            }
        }
    }
}
