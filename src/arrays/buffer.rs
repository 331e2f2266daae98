//! Raw, shared, fallibly-allocated memory: the storage of host arrays and of the embedded
//! CPU device's memory.
//!
//! A buffer is shared between the interpreter thread, device stream workers and kernel
//! worker threads, like device memory is shared between a GPU's threads: concurrent access
//! is ordered by the device's streams and events, not by Rust borrows. This module is the
//! one place outside the cudarc boundary that touches raw memory; everything above it uses
//! the safe accessors.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::any::Any;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Recently freed large allocations, reused by [`Buffer::for_overwrite`]: NumPy's results
/// come from malloc, which hands back warm pages freed a moment ago, while a fresh zeroed
/// allocation costs a page fault per 4 KiB. Entries are (alloc_len, base address).
static POOL: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());
/// Only allocations at least this large are pooled.
const POOL_MIN: usize = 1 << 20;
/// At most this many bytes are held back in the pool.
const POOL_MAX_BYTES: usize = 256 << 20;
const POOL_MAX_ENTRIES: usize = 8;

/// Memory could not be allocated.
#[derive(Clone, Copy, Debug)]
pub struct AllocError {
    pub bytes: usize,
}

/// 64-byte aligned, zero-initialised bytes.
pub struct Buffer {
    ptr: NonNull<u8>,
    len: usize,
    /// The allocation `ptr` lies in (`ptr` is rounded up to 64 bytes inside it). Allocating
    /// with the allocator's natural alignment lets large zeroed buffers come from calloc's
    /// already-zero pages instead of an explicit memset pass over the whole buffer.
    base: NonNull<u8>,
    alloc_len: usize,
    /// For memory allocated elsewhere (page-locked host memory of the CUDA driver): the
    /// owner that frees it when dropped. None for this module's own allocations.
    foreign: Option<Box<dyn Any + Send + Sync>>,
    /// `a.flags.writeable = False`: NumPy keeps the flag per view; nbcuda keeps it for the
    /// memory, so every view of it (also views made earlier) becomes read-only.
    readonly: AtomicBool,
}

// SAFETY: a Buffer owns its allocation; access from several threads is raw-pointer access
// ordered by the device's stream/event discipline (the CUDA memory model), exactly like
// device memory shared by GPU threads.
unsafe impl Send for Buffer {}
// SAFETY: see `Send` above; `&Buffer` only hands out raw pointers and copies.
unsafe impl Sync for Buffer {}

const ALIGN: usize = 64;
/// The system allocator's natural alignment (calloc path).
const BASE_ALIGN: usize = 16;

impl Buffer {
    /// Allocate `len` zeroed bytes, or fail without aborting.
    pub fn zeroed(len: usize) -> Result<Buffer, AllocError> {
        if len == 0 {
            return Ok(Buffer {
                readonly: AtomicBool::new(false),
                ptr: NonNull::dangling(),
                len: 0,
                base: NonNull::dangling(),
                alloc_len: 0,
                foreign: None,
            });
        }
        let alloc_len = len.checked_add(ALIGN).ok_or(AllocError { bytes: len })?;
        let raw = if alloc_len >= HUGE_MIN {
            map_huge(alloc_len)
        } else {
            let layout = Layout::from_size_align(alloc_len, BASE_ALIGN)
                .map_err(|_| AllocError { bytes: len })?;
            // SAFETY: layout has non-zero size (checked above).
            unsafe { alloc_zeroed(layout) }
        };
        let Some(base) = NonNull::new(raw) else {
            return Err(AllocError { bytes: len });
        };
        let pad = (ALIGN - (raw as usize % ALIGN)) % ALIGN;
        // SAFETY: pad < ALIGN, so ptr..ptr+len lies inside the alloc_len = len + ALIGN bytes.
        let ptr = unsafe { NonNull::new_unchecked(raw.add(pad)) };
        Ok(Buffer {
            readonly: AtomicBool::new(false),
            ptr,
            len,
            base,
            alloc_len,
            foreign: None,
        })
    }

    /// `len` bytes whose contents the caller overwrites completely before reading: a
    /// recently freed allocation of the same size when one is pooled (its old bytes are
    /// initialised memory, so no read can see undefined values), else a zeroed one.
    pub fn for_overwrite(len: usize) -> Result<Buffer, AllocError> {
        let alloc_len = len.checked_add(ALIGN).ok_or(AllocError { bytes: len })?;
        if alloc_len >= POOL_MIN {
            let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = pool.iter().position(|&(l, _)| l == alloc_len) {
                let (_, addr) = pool.swap_remove(i);
                let raw = addr as *mut u8;
                let pad = (ALIGN - (addr % ALIGN)) % ALIGN;
                // SAFETY: `addr` is the non-null base of a live allocation of `alloc_len`
                // bytes that Drop handed to the pool instead of freeing; removing it from
                // the pool gives this Buffer sole ownership. pad < ALIGN keeps ptr..ptr+len
                // inside it, exactly as in `zeroed`.
                let (base, ptr) = unsafe {
                    (
                        NonNull::new_unchecked(raw),
                        NonNull::new_unchecked(raw.add(pad)),
                    )
                };
                return Ok(Buffer {
                    readonly: AtomicBool::new(false),
                    ptr,
                    len,
                    base,
                    alloc_len,
                    foreign: None,
                });
            }
        }
        Buffer::zeroed(len)
    }

    /// A buffer over `len` bytes at `ptr` that were allocated elsewhere; `owner` frees them
    /// when it is dropped, which happens when the buffer is (never through the pool).
    ///
    /// # Safety
    /// `ptr` must point to `len` initialised bytes, readable and writable, aligned to 64
    /// bytes, that stay valid and are not freed by anyone else until `owner` is dropped.
    pub unsafe fn from_foreign(
        ptr: NonNull<u8>,
        len: usize,
        owner: Box<dyn Any + Send + Sync>,
    ) -> Buffer {
        assert!(
            (ptr.as_ptr() as usize).is_multiple_of(ALIGN),
            "foreign memory must be 64-byte aligned"
        );
        Buffer {
            readonly: AtomicBool::new(false),
            ptr,
            len,
            base: ptr,
            alloc_len: 0,
            foreign: Some(owner),
        }
    }

    /// The owner of a foreign buffer (see [`Buffer::from_foreign`]), if it is a `T`.
    pub fn foreign<T: Any>(&self) -> Option<&T> {
        self.foreign.as_ref()?.downcast_ref::<T>()
    }

    /// Whether Python code may write this memory (`ndarray.flags.writeable`).
    pub fn is_readonly(&self) -> bool {
        self.readonly.load(Ordering::Relaxed)
    }
    pub fn set_readonly(&self, readonly: bool) {
        self.readonly.store(readonly, Ordering::Relaxed);
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Base pointer. Reads and writes through it must stay within `len()` bytes.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Copy `dst.len()` bytes out, starting at `offset`. Panics when out of range (callers
    /// check ranges first and raise Python errors).
    pub fn read(&self, offset: usize, dst: &mut [u8]) {
        // Nothing to move: views of empty arrays may sit past the end of their buffer.
        if dst.is_empty() {
            return;
        }
        assert!(offset.checked_add(dst.len()).is_some_and(|e| e <= self.len));
        // SAFETY: the range was checked to lie inside the allocation; dst is a distinct
        // Rust slice so the regions cannot overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.ptr.as_ptr().add(offset),
                dst.as_mut_ptr(),
                dst.len(),
            )
        }
    }

    /// Copy `src` in at `offset`. Panics when out of range.
    pub fn write(&self, offset: usize, src: &[u8]) {
        // Nothing to move: views of empty arrays may sit past the end of their buffer.
        if src.is_empty() {
            return;
        }
        assert!(offset.checked_add(src.len()).is_some_and(|e| e <= self.len));
        // SAFETY: the range was checked to lie inside the allocation; src is a distinct
        // Rust slice so the regions cannot overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.as_ptr().add(offset), src.len())
        }
    }

    /// Copy `len` bytes from `src[src_off..]` into `self[dst_off..]` (regions may be the
    /// same buffer; overlap is handled).
    pub fn copy_from(&self, dst_off: usize, src: &Buffer, src_off: usize, len: usize) {
        // Nothing to move: views of empty arrays may sit past the end of their buffer.
        if len == 0 {
            return;
        }
        assert!(dst_off.checked_add(len).is_some_and(|e| e <= self.len));
        assert!(src_off.checked_add(len).is_some_and(|e| e <= src.len));
        // SAFETY: both ranges were checked against their allocations; `copy` allows overlap.
        unsafe {
            std::ptr::copy(
                src.ptr.as_ptr().add(src_off),
                self.ptr.as_ptr().add(dst_off),
                len,
            )
        }
    }

    /// Fill `len` bytes at `offset` with `byte`.
    pub fn fill(&self, offset: usize, len: usize, byte: u8) {
        // Nothing to move: views of empty arrays may sit past the end of their buffer.
        if len == 0 {
            return;
        }
        assert!(offset.checked_add(len).is_some_and(|e| e <= self.len));
        // SAFETY: the range was checked to lie inside the allocation.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr().add(offset), byte, len) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.foreign.is_some() {
            // Dropping the field after this returns runs the owner's deallocator.
            return;
        }
        if self.alloc_len >= POOL_MIN {
            let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
            let held: usize = pool.iter().map(|&(l, _)| l).sum();
            if pool.len() < POOL_MAX_ENTRIES && held + self.alloc_len <= POOL_MAX_BYTES {
                pool.push((self.alloc_len, self.base.as_ptr() as usize));
                return;
            }
        }
        if self.alloc_len >= HUGE_MIN {
            unmap_huge(self.base.as_ptr(), self.alloc_len);
        } else if self.alloc_len != 0 {
            // invariant: the same size and alignment made a valid layout when allocating
            let layout = Layout::from_size_align(self.alloc_len, BASE_ALIGN)
                .expect("layout was valid at allocation");
            // SAFETY: base was allocated by `alloc_zeroed` with this exact layout.
            unsafe { dealloc(self.base.as_ptr(), layout) }
        }
    }
}

/// Allocations at least this large are mapped directly with transparent huge pages. With
/// 4 KiB pages, streaming through arrays of tens of MB is dominated by TLB misses (costly
/// under virtualisation); NumPy asks for huge pages for the same reason.
const HUGE_MIN: usize = 4 << 20;

fn huge_map_len(alloc_len: usize) -> usize {
    alloc_len.next_multiple_of(4096)
}

/// Zeroed, page-aligned memory of `alloc_len` bytes from an anonymous mapping advised to use
/// huge pages; null when it cannot be mapped.
#[cfg(target_os = "linux")]
fn map_huge(alloc_len: usize) -> *mut u8 {
    let len = huge_map_len(alloc_len);
    // SAFETY: an anonymous private mapping of `len` bytes at an address of the kernel's
    // choosing; it aliases nothing. The result is checked against MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    // SAFETY: advice on the mapping just created; a failure only means small pages.
    unsafe { libc::madvise(p, len, libc::MADV_HUGEPAGE) };
    p as *mut u8
}

/// Unmap memory from [`map_huge`].
#[cfg(target_os = "linux")]
fn unmap_huge(base: *mut u8, alloc_len: usize) {
    // SAFETY: `base` is the start of a mapping of exactly this length made by `map_huge`,
    // owned by the buffer being dropped.
    unsafe { libc::munmap(base as *mut libc::c_void, huge_map_len(alloc_len)) };
}

#[cfg(not(target_os = "linux"))]
fn map_huge(alloc_len: usize) -> *mut u8 {
    match Layout::from_size_align(alloc_len, BASE_ALIGN) {
        // SAFETY: non-zero size (alloc_len >= HUGE_MIN).
        Ok(layout) => unsafe { alloc_zeroed(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

#[cfg(not(target_os = "linux"))]
fn unmap_huge(base: *mut u8, alloc_len: usize) {
    // invariant: the same size and alignment made a valid layout in map_huge
    let layout = Layout::from_size_align(alloc_len, BASE_ALIGN).expect("valid at allocation");
    // SAFETY: allocated by `map_huge` with this exact layout.
    unsafe { dealloc(base, layout) }
}

/// Plain element types that may be viewed directly in a buffer: every bit pattern is a valid
/// value, no padding, no drop glue.
///
/// # Safety
/// Implement only for primitive integer and float types.
pub unsafe trait Pod: Copy + Send + Sync + 'static {}
// SAFETY: primitive numbers: any bit pattern is valid.
unsafe impl Pod for u8 {}
// SAFETY: as above.
unsafe impl Pod for i8 {}
// SAFETY: as above.
unsafe impl Pod for u16 {}
// SAFETY: as above.
unsafe impl Pod for i16 {}
// SAFETY: as above.
unsafe impl Pod for u32 {}
// SAFETY: as above.
unsafe impl Pod for i32 {}
// SAFETY: as above.
unsafe impl Pod for u64 {}
// SAFETY: as above.
unsafe impl Pod for i64 {}
// SAFETY: as above.
unsafe impl Pod for f32 {}
// SAFETY: as above.
unsafe impl Pod for f64 {}

impl Buffer {
    fn check_typed<T: Pod>(&self, offset: usize, len: usize) {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|b| b.checked_add(offset));
        assert!(
            bytes.is_some_and(|e| e <= self.len),
            "typed range outside buffer"
        );
        assert!(
            offset.is_multiple_of(std::mem::align_of::<T>()),
            "misaligned typed view"
        );
    }

    /// `len` elements of `T` starting at byte `offset`, as a shared slice. Panics when out of
    /// range or misaligned (array views always keep element alignment).
    pub fn typed<T: Pod>(&self, offset: usize, len: usize) -> &[T] {
        if len == 0 {
            return &[];
        }
        self.check_typed::<T>(offset, len);
        // SAFETY: range and alignment checked above; T is Pod so any bytes are a valid T.
        // Concurrent writers are ordered by the stream discipline described at the top.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr().add(offset) as *const T, len) }
    }

    /// Check that `n` elements of `T` at `offset + k * stride` all lie inside the buffer,
    /// aligned; panics otherwise (array views always keep element alignment).
    fn check_strided<T: Pod>(&self, offset: usize, stride: isize, n: usize) {
        let size = std::mem::size_of::<T>();
        let last = (n as isize - 1)
            .checked_mul(stride)
            .and_then(|d| (offset as isize).checked_add(d));
        let (lo, hi) = match last {
            Some(l) => (l.min(offset as isize), l.max(offset as isize)),
            None => (-1, -1),
        };
        assert!(
            lo >= 0
                && (hi as usize)
                    .checked_add(size)
                    .is_some_and(|e| e <= self.len),
            "typed range outside buffer"
        );
        assert!(
            offset.is_multiple_of(std::mem::align_of::<T>())
                && stride
                    .unsigned_abs()
                    .is_multiple_of(std::mem::align_of::<T>()),
            "misaligned typed view"
        );
    }

    /// Append the `n` elements of `T` at byte `offset + k * stride` (k = 0..n) to `out`:
    /// one row of a strided view, checked once rather than per element.
    pub fn read_row<T: Pod>(&self, offset: usize, stride: isize, n: usize, out: &mut Vec<T>) {
        if n == 0 {
            return;
        }
        self.check_strided::<T>(offset, stride, n);
        let base = self.ptr.as_ptr();
        for k in 0..n {
            let at = offset as isize + k as isize * stride;
            // SAFETY: check_strided proved every `at` of this row in range and aligned; T is
            // Pod. Concurrent writers are ordered by the stream discipline at the top.
            out.push(unsafe { std::ptr::read(base.offset(at) as *const T) });
        }
    }

    /// Write `data` to the elements of `T` at byte `offset + k * stride`, checked once.
    /// Callers use it only on memory no live slice covers, as with [`Buffer::typed_mut`].
    pub fn write_row<T: Pod>(&self, offset: usize, stride: isize, data: &[T]) {
        if data.is_empty() {
            return;
        }
        self.check_strided::<T>(offset, stride, data.len());
        let base = self.ptr.as_ptr();
        for (k, v) in data.iter().enumerate() {
            let at = offset as isize + k as isize * stride;
            // SAFETY: as in read_row; exclusive use of these elements is the caller's
            // contract (see the doc comment).
            unsafe { std::ptr::write(base.offset(at) as *mut T, *v) };
        }
    }

    /// Mutable typed view. Callers use it only on memory no other live slice covers (freshly
    /// allocated results, or destinations written after the sources were copied out).
    #[allow(clippy::mut_from_ref)]
    pub fn typed_mut<T: Pod>(&self, offset: usize, len: usize) -> &mut [T] {
        if len == 0 {
            return &mut [];
        }
        self.check_typed::<T>(offset, len);
        // SAFETY: range and alignment checked above; T is Pod. Exclusive use of the range is
        // the caller's contract (see the doc comment).
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr().add(offset) as *mut T, len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A test deallocator: owns 64-byte aligned memory from the global allocator and counts
    /// how often it frees it.
    struct Counted {
        base: *mut u8,
        layout: Layout,
        frees: Arc<AtomicUsize>,
    }

    // SAFETY: the test owner only holds the address of memory it alone frees.
    unsafe impl Send for Counted {}
    // SAFETY: as above; it has no interior state besides the atomic counter.
    unsafe impl Sync for Counted {}

    impl Drop for Counted {
        fn drop(&mut self) {
            self.frees.fetch_add(1, Ordering::SeqCst);
            // SAFETY: `base` was allocated in `foreign_buffer` with `layout`, freed only here.
            unsafe { dealloc(self.base, self.layout) }
        }
    }

    #[test]
    fn rows_are_read_and_written_with_any_stride_and_checked_once() {
        let b = Buffer::zeroed(64).unwrap();
        b.write_row::<f64>(56, -16, &[1.0, 2.0, 3.0, 4.0]);
        let mut out = Vec::new();
        b.read_row::<f64>(0, 8, 8, &mut out);
        assert_eq!(out, [0.0, 4.0, 0.0, 3.0, 0.0, 2.0, 0.0, 1.0]);
        let b = std::panic::AssertUnwindSafe(b);
        let past_end = std::panic::catch_unwind(|| {
            let mut v = Vec::new();
            b.read_row::<f64>(8, 8, 8, &mut v);
        });
        assert!(
            past_end.is_err(),
            "the row's last element lies past the buffer"
        );
        let before_start = std::panic::catch_unwind(|| b.write_row::<f64>(8, -16, &[1.0, 2.0]));
        assert!(
            before_start.is_err(),
            "a negative stride must not reach below offset 0"
        );
    }

    fn foreign_buffer(len: usize) -> (Buffer, Arc<AtomicUsize>, usize) {
        let layout = Layout::from_size_align(len, ALIGN).unwrap();
        // SAFETY: len > 0 in every test.
        let base = unsafe { alloc_zeroed(layout) };
        let frees = Arc::new(AtomicUsize::new(0));
        let owner = Counted {
            base,
            layout,
            frees: frees.clone(),
        };
        // SAFETY: `base` is `len` zeroed, 64-byte aligned bytes that only `owner` frees.
        let buf =
            unsafe { Buffer::from_foreign(NonNull::new(base).unwrap(), len, Box::new(owner)) };
        (buf, frees, base as usize)
    }

    #[test]
    fn foreign_memory_is_used_in_place_and_freed_once_by_its_owner() {
        let (buf, frees, base) = foreign_buffer(256);
        assert_eq!(buf.as_ptr() as usize, base);
        buf.write(8, &[1, 2, 3]);
        buf.typed_mut::<u64>(64, 1)[0] = 0xdead_beef;
        let mut out = [0u8; 3];
        buf.read(8, &mut out);
        assert_eq!(out, [1, 2, 3]);
        // SAFETY: reading the owner's memory directly, while the buffer keeps it alive.
        assert_eq!(unsafe { *((base + 64) as *const u64) }, 0xdead_beef);
        let shared = Arc::new(buf);
        let other = shared.clone();
        drop(shared);
        assert_eq!(frees.load(Ordering::SeqCst), 0, "freed while referenced");
        drop(other);
        assert_eq!(frees.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn large_foreign_buffers_bypass_the_pool() {
        let (buf, frees, base) = foreign_buffer(POOL_MIN * 2);
        drop(buf);
        assert_eq!(frees.load(Ordering::SeqCst), 1);
        let pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        assert!(
            pool.iter().all(|&(_, a)| a != base),
            "freed memory was pooled"
        );
    }

    #[test]
    fn the_owner_is_reachable_by_type() {
        let (buf, _, base) = foreign_buffer(64);
        assert_eq!(
            buf.foreign::<Counted>().map(|c| c.base as usize),
            Some(base)
        );
        assert!(buf.foreign::<String>().is_none());
        assert!(Buffer::zeroed(64).unwrap().foreign::<Counted>().is_none());
    }
}
