//! Raw, shared, fallibly-allocated memory: the storage of host arrays and of the embedded
//! CPU device's memory.
//!
//! A buffer is shared between the interpreter thread, device stream workers and kernel
//! worker threads, like device memory is shared between a GPU's threads: concurrent access
//! is ordered by the device's streams and events, not by Rust borrows. This module is the
//! one place outside the cudarc boundary that touches raw memory; everything above it uses
//! the safe accessors.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ptr::NonNull;

/// Memory could not be allocated.
#[derive(Clone, Copy, Debug)]
pub struct AllocError {
    pub bytes: usize,
}

/// 64-byte aligned, zero-initialised bytes.
pub struct Buffer {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: a Buffer owns its allocation; access from several threads is raw-pointer access
// ordered by the device's stream/event discipline (the CUDA memory model), exactly like
// device memory shared by GPU threads.
unsafe impl Send for Buffer {}
// SAFETY: see `Send` above; `&Buffer` only hands out raw pointers and copies.
unsafe impl Sync for Buffer {}

const ALIGN: usize = 64;

impl Buffer {
    /// Allocate `len` zeroed bytes, or fail without aborting.
    pub fn zeroed(len: usize) -> Result<Buffer, AllocError> {
        if len == 0 {
            return Ok(Buffer {
                ptr: NonNull::dangling(),
                len: 0,
            });
        }
        let layout = Layout::from_size_align(len, ALIGN).map_err(|_| AllocError { bytes: len })?;
        // SAFETY: layout has non-zero size (checked above).
        let raw = unsafe { alloc_zeroed(layout) };
        match NonNull::new(raw) {
            Some(ptr) => Ok(Buffer { ptr, len }),
            None => Err(AllocError { bytes: len }),
        }
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
        assert!(offset.checked_add(len).is_some_and(|e| e <= self.len));
        // SAFETY: the range was checked to lie inside the allocation.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr().add(offset), byte, len) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.len != 0 {
            let layout =
                Layout::from_size_align(self.len, ALIGN).expect("layout was valid at allocation");
            // SAFETY: ptr was allocated by `alloc_zeroed` with this exact layout.
            unsafe { dealloc(self.ptr.as_ptr(), layout) }
        }
    }
}
