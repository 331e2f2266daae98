//! Numba's pending deallocations: device memory whose Python owner is gone while queued
//! work still uses it. Numba flushes them once there are more than 10 or they exceed 20% of
//! device memory, and on a GPU that flush (`cuMemFree`) waits for the device; so a loop
//! such as `%timeit add_ufunc(x_device, y_device)` never runs more than a few launches
//! ahead of the device. nbcuda keeps the same count and waits for queued work at the next
//! allocation once it is due.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::kernel::abi::Allocation;

/// Numba's `CUDA_DEALLOCS_COUNT`.
const MAX_PENDING_COUNT: usize = 10;
/// Numba's `CUDA_DEALLOCS_RATIO`, as a divisor of the device's capacity.
const MAX_PENDING_FRACTION: usize = 5;

static PENDING_COUNT: AtomicUsize = AtomicUsize::new(0);
static PENDING_BYTES: AtomicUsize = AtomicUsize::new(0);

/// A Python owner of `alloc` went away; if something else (queued work, another view) still
/// holds the memory, it is pending.
pub fn owner_dropped(alloc: &Arc<Allocation>) {
    if Arc::strong_count(alloc) > 1 && alloc.bytes > 0 {
        PENDING_COUNT.fetch_add(1, Ordering::Relaxed);
        PENDING_BYTES.fetch_add(alloc.bytes, Ordering::Relaxed);
    }
}

/// Whether the pending frees are due to be flushed on a device of `capacity` bytes; a due
/// flush is taken (the counts start again) by this call.
pub fn flush_due(capacity: usize) -> bool {
    let count = PENDING_COUNT.load(Ordering::Relaxed);
    let bytes = PENDING_BYTES.load(Ordering::Relaxed);
    let due = count > MAX_PENDING_COUNT || bytes > capacity / MAX_PENDING_FRACTION;
    if due {
        PENDING_COUNT.store(0, Ordering::Relaxed);
        PENDING_BYTES.store(0, Ordering::Relaxed);
    }
    due
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrays::buffer::Buffer;
    use crate::kernel::abi::Storage;

    fn alloc(bytes: usize) -> Arc<Allocation> {
        Arc::new(Allocation {
            id: 0,
            bytes,
            storage: Storage::Cpu(Arc::new(Buffer::zeroed(bytes).unwrap())),
            release: |_, _| false,
        })
    }

    #[test]
    fn a_flush_is_due_after_eleven_pending_frees_or_a_fifth_of_the_device() {
        let held = alloc(100);
        let queued = held.clone();
        flush_due(usize::MAX);
        for _ in 0..10 {
            owner_dropped(&held);
        }
        assert!(!flush_due(1 << 30), "ten pending frees are not yet due");
        owner_dropped(&held);
        assert!(flush_due(1 << 30), "the eleventh is");
        assert!(!flush_due(1 << 30), "a flush starts the count again");
        owner_dropped(&held);
        assert!(
            flush_due(400),
            "100 bytes pending is more than a fifth of 400"
        );
        drop(queued);
        owner_dropped(&held);
        assert!(
            !flush_due(400),
            "memory nothing else holds is freed, not pending"
        );
    }
}
