//! Device memory of the CUDA device, and the host staging that lets work written as Rust
//! closures over host buffers run on it.
//!
//! Most CuPy operations (and copies the built-in kernels cannot express, such as strided
//! copies of more than three dimensions or between host and device) are Rust closures that
//! read and write `Buffer`s through [`crate::device::copy::buffer_of`]. On the CUDA device
//! `buffer_of` hands out a host mirror of the allocation instead: the stream worker copies
//! every allocation the closure touches to its mirror before the closure runs and copies
//! back each mirror whose bytes changed. That is slow (two PCIe crossings) but exact, and
//! it keeps one implementation of every operation. Mirrors handed out on the host thread
//! while a closure is being built are staged by the next `run` on that thread.

use std::cell::RefCell;
use std::sync::Arc;

use crate::arrays::buffer::Buffer;

use crate::gpu::driver::CudaError;
use crate::gpu::memory::CudaMem;

impl CudaMem {
    /// The host mirror (made on first use). A mirror that cannot be allocated is a
    /// panic, which the stream worker turns into an InternalError at the next sync.
    fn mirror(&self) -> Arc<Buffer> {
        self.mirror
            .get_or_init(|| {
                Arc::new(Buffer::zeroed(self.bytes).unwrap_or_else(|e| {
                    panic!(
                        "no host memory for a {}-byte staging copy of device memory",
                        e.bytes
                    )
                }))
            })
            .clone()
    }
}

#[derive(Default)]
struct Stage {
    /// Inside a staged run on this (worker) thread: its stream.
    active: Option<u64>,
    /// Staged allocations and the hash of their mirror when staged in.
    entries: Vec<(Arc<CudaMem>, u64)>,
    /// Mirrors handed out on this (host) thread, for the next `run`.
    prepared: Vec<Arc<CudaMem>>,
}

thread_local! {
    static STAGE: RefCell<Stage> = RefCell::new(Stage::default());
}

/// A cheap content hash: a mirror is copied back only when its bytes changed, so inputs
/// of an operation cost one crossing, not two.
fn digest(buf: &Buffer) -> u64 {
    let words = buf.len() / 8;
    let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ buf.len() as u64;
    for &w in buf.typed::<u64>(0, words) {
        h = (h ^ w).wrapping_mul(0x100_0000_01b3).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    buf.read(words * 8, &mut tail[..buf.len() - words * 8]);
    (h ^ u64::from_le_bytes(tail)).wrapping_mul(0x100_0000_01b3)
}

fn stage_in(stage: &mut Stage, mem: &Arc<CudaMem>, stream: u64) -> Result<(), CudaError> {
    if stage.entries.iter().any(|(m, _)| Arc::ptr_eq(m, mem)) {
        return Ok(());
    }
    let mirror = mem.mirror();
    if mem.bytes > 0 {
        mem.dev
            .dtoh(mirror.typed_mut::<u8>(0, mem.bytes), mem.ptr, stream)?;
    }
    stage.entries.push((mem.clone(), digest(&mirror)));
    Ok(())
}

/// The host buffer standing for `mem` (see the module docs).
pub fn host_mirror(mem: &Arc<CudaMem>) -> Arc<Buffer> {
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        match s.active {
            Some(stream) => {
                if let Err(e) = stage_in(&mut s, mem, stream) {
                    panic!("staging device memory to the host failed: CudaAPIError {e}");
                }
            }
            None => {
                if !s.prepared.iter().any(|m| Arc::ptr_eq(m, mem)) {
                    s.prepared.push(mem.clone());
                }
            }
        }
        mem.mirror()
    })
}

/// The allocations whose mirrors this thread handed out since the last call.
pub fn take_prepared() -> Vec<Arc<CudaMem>> {
    STAGE.with(|s| std::mem::take(&mut s.borrow_mut().prepared))
}

/// Leaves the staged state even when the closure panics.
struct Active;

impl Drop for Active {
    fn drop(&mut self) {
        STAGE.with(|s| {
            let mut s = s.borrow_mut();
            s.active = None;
            s.entries.clear();
        });
    }
}

/// Run `work` on host mirrors of `prepared` and of every allocation it reaches through
/// `buffer_of`, then copy changed mirrors back. Called on the stream worker of `stream`.
pub fn run_staged(
    stream: u64,
    prepared: Vec<Arc<CudaMem>>,
    work: impl FnOnce(),
) -> Result<(), CudaError> {
    let _active = Active;
    STAGE.with(|s| -> Result<(), CudaError> {
        let mut s = s.borrow_mut();
        s.active = Some(stream);
        for m in &prepared {
            stage_in(&mut s, m, stream)?;
        }
        Ok(())
    })?;
    work();
    let staged = STAGE.with(|s| std::mem::take(&mut s.borrow_mut().entries));
    for (mem, before) in staged {
        let mirror = mem.mirror();
        if mem.bytes > 0 && digest(&mirror) != before {
            mem.dev
                .htod(mem.ptr, mirror.typed::<u8>(0, mem.bytes), stream)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_sees_a_change_in_any_byte() {
        // 8 words and a 3-byte tail: the write-back decision must see both parts.
        let b = Buffer::zeroed(67).unwrap();
        let before = digest(&b);
        for at in [0, 31, 63, 64, 66] {
            b.write(at, &[1]);
            assert_ne!(digest(&b), before, "byte {at}");
            b.write(at, &[0]);
            assert_eq!(digest(&b), before, "byte {at} restored");
        }
    }
}
