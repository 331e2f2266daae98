//! Live device allocations by base address, so a raw pointer (from a
//! `__cuda_array_interface__`) resolves back to the allocation that holds it and CuPy,
//! Numba and foreign objects share memory.

use std::collections::BTreeMap;
use std::sync::{Arc, Weak};

use crate::kernel::abi::{Allocation, Storage};
use crate::py::runtime::Runtime;

/// Live device allocations by base address, to resolve CAI pointers.
#[derive(Default)]
pub struct PtrRegistry {
    allocs: BTreeMap<usize, Weak<Allocation>>,
    /// Sweep dropped entries once the map reaches this size: twice what was live after the
    /// last sweep, so the sweeps cost O(1) per registration however many arrays live.
    sweep_at: usize,
    /// Entries the sweeps have looked at, in total (their cost).
    swept: usize,
}

impl PtrRegistry {
    fn insert(&mut self, base: usize, alloc: &Arc<Allocation>) {
        if self.allocs.len() >= self.sweep_at.max(256) {
            self.swept += self.allocs.len();
            self.allocs.retain(|_, w| w.strong_count() > 0);
            self.sweep_at = 2 * self.allocs.len();
        }
        self.allocs.insert(base, Arc::downgrade(alloc));
    }
}

pub fn base_ptr(alloc: &Allocation) -> usize {
    match &alloc.storage {
        Storage::Cpu(b) => b.as_ptr() as usize,
        Storage::Cuda(m) => m.ptr as usize,
    }
}

pub fn register_alloc(rt: &mut Runtime, alloc: &Arc<Allocation>) {
    if alloc.bytes > 0 {
        rt.state::<PtrRegistry>().insert(base_ptr(alloc), alloc);
    }
}

/// The allocation containing `ptr`, and the offset of `ptr` in it.
pub fn resolve_ptr(rt: &mut Runtime, ptr: usize) -> Option<(Arc<Allocation>, usize)> {
    let reg = rt.state::<PtrRegistry>();
    let (base, w) = reg.allocs.range(..=ptr).next_back()?;
    let a = w.upgrade()?;
    (ptr < base + a.bytes.max(1)).then(|| (a.clone(), ptr - base))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alloc(id: u64) -> Arc<Allocation> {
        Arc::new(Allocation {
            id,
            bytes: 8,
            storage: Storage::Cpu(Arc::new(crate::arrays::buffer::Buffer::zeroed(8).unwrap())),
            release: |_, _| true,
        })
    }

    #[test]
    fn registering_costs_the_same_however_many_arrays_live() {
        // 20,000 live allocations, then 20,000 short-lived ones: the sweeps look at a
        // bounded number of entries per registration (a sweep on every registration past
        // 256 entries made this quadratic: 16,000 live arrays took seconds).
        let mut reg = PtrRegistry::default();
        let live: Vec<_> = (0..20_000).map(alloc).collect();
        for (i, a) in live.iter().enumerate() {
            reg.insert(i * 16, a);
        }
        for i in 0..20_000 {
            let a = alloc(i);
            reg.insert((1 << 40) | ((i as usize) * 16), &a);
        }
        assert!(
            reg.swept <= 4 * 40_000,
            "sweeps looked at {} entries",
            reg.swept
        );
        assert!(reg.allocs.len() < 2 * 20_000 + 256);
        assert_eq!(
            reg.allocs.values().filter(|w| w.strong_count() > 0).count(),
            live.len()
        );
    }
}
