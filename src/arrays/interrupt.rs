//! Interrupts inside long array operations. The kernels take no runtime, so the session's
//! interrupt flag is registered per interpreter thread; an operation reads it once and hands
//! it to its worker threads, which stop taking chunks once it is set. The operation then
//! raises KeyboardInterrupt instead of returning a half-computed result.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::arrays::error::{ArrayError, ArrayResult};

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Make `flag` the interrupt flag that array operations started on this thread watch.
pub fn watch(flag: Arc<AtomicBool>) {
    crate::arrays::memory_guard::register(&flag);
    FLAG.with(|f| *f.borrow_mut() = Some(flag));
}

/// The flag array operations on this thread watch (None on threads that never registered
/// one, such as device stream workers, whose work is never interrupted midway).
pub fn flag() -> Option<Arc<AtomicBool>> {
    FLAG.with(|f| f.borrow().clone())
}

/// Whether an interrupt is pending on `flag` (checked per chunk by the kernels).
#[inline]
pub fn pending(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// KeyboardInterrupt when an interrupt arrived, consuming the request as
/// `Runtime::check_interrupt` does.
pub fn check() -> ArrayResult<()> {
    match flag() {
        Some(f) if f.swap(false, Ordering::SeqCst) => Err(stopped()),
        _ => Ok(()),
    }
}

/// The error for an interrupt just consumed: MemoryError when the memory guard raised it.
pub fn stopped() -> ArrayError {
    match crate::arrays::memory_guard::take_pressure() {
        Some(m) => ArrayError::memory_error(m),
        None => ArrayError::keyboard_interrupt(),
    }
}
