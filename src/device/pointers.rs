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
}

pub fn base_ptr(alloc: &Allocation) -> usize {
    match &alloc.storage {
        Storage::Cpu(b) => b.as_ptr() as usize,
        Storage::Cuda(m) => m.ptr as usize,
    }
}

pub fn register_alloc(rt: &mut Runtime, alloc: &Arc<Allocation>) {
    let reg = rt.state::<PtrRegistry>();
    if reg.allocs.len() > 256 {
        reg.allocs.retain(|_, w| w.strong_count() > 0);
    }
    if alloc.bytes > 0 {
        reg.allocs.insert(base_ptr(alloc), Arc::downgrade(alloc));
    }
}

/// The allocation containing `ptr`, and the offset of `ptr` in it.
pub fn resolve_ptr(rt: &mut Runtime, ptr: usize) -> Option<(Arc<Allocation>, usize)> {
    let reg = rt.state::<PtrRegistry>();
    let (base, w) = reg.allocs.range(..=ptr).next_back()?;
    let a = w.upgrade()?;
    (ptr < base + a.bytes.max(1)).then(|| (a.clone(), ptr - base))
}
