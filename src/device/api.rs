//! The host-side device API used by the kernel dispatchers, CuPy and display: views of
//! device arrays, allocation, transfers, launches and synchronisation on the current device.

use std::sync::Arc;

use crate::arrays::dtype::DType;
use crate::arrays::NdArray;
use crate::device::backend::Record;
use crate::device::copy::{host_region, region_of};
use crate::device::cpu_streams::Ticket;
use crate::device::ledger::LedgerKind;
use crate::device::state::{self, device};
use crate::device::{DeviceView, StreamId};
use crate::kernel::abi::{ArgMem, ArrayArg, FaultKind, KernelArg, KernelFault, LaunchConfig};
use crate::kernel::CompiledKernel;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;

/// Why a transfer happens, for the ledger and the implicit-copy warning.
#[derive(Clone, Debug)]
pub struct Transfer {
    /// False when nbcuda copies on the user's behalf (a host array passed to a kernel).
    pub explicit: bool,
    /// The call that caused it: `to_device`, `copy_to_host`, `add_ufunc`.
    pub call: String,
}

impl Transfer {
    pub fn explicit(call: &str) -> Transfer {
        Transfer {
            explicit: true,
            call: call.to_string(),
        }
    }
    pub fn implicit(call: &str) -> Transfer {
        Transfer {
            explicit: false,
            call: call.to_string(),
        }
    }
}

/// Allocate uninitialised device memory (`cuda.device_array`): CudaAPIError when the
/// device is out of memory.
pub fn alloc(
    rt: &mut Runtime,
    shape: &[usize],
    dtype: DType,
    stream: StreamId,
) -> PyResult<DeviceView> {
    // Kernels, CuPy and the device loops know the real dtypes from bool to float64 only:
    // every device array starts here, so complex and float16 data are refused before any of
    // them sees it.
    if dtype.is_complex() {
        return Err(PyErr::type_error(format!(
            "nbcuda's devices do not support complex arrays (dtype {}); CuPy arrays and kernel arguments must be real",
            dtype.name()
        )));
    }
    if dtype.is_host_only() {
        return Err(PyErr::type_error(format!(
            "nbcuda's devices do not support {} arrays; convert with .astype(np.float32) first",
            dtype.name()
        )));
    }
    let size = checked_nbytes(shape, dtype)?;
    let (_, capacity) = device(rt)?.backend().memory_info();
    if crate::device::deferred_frees::flush_due(capacity) {
        synchronize(rt)?;
    }
    let alloc = match device(rt)?.backend().alloc(size) {
        Ok(a) => a,
        // Queued launches and copies hold their arrays until they run; a result dropped by
        // the host (`%timeit f(d)` without a synchronize) is freed only then. Numba flushes
        // its pending frees and retries in the same spot (`_attempt_allocation`).
        Err(full) => {
            synchronize(rt)?;
            device(rt)?.backend().alloc(size).map_err(|_| full)?
        }
    };
    crate::device::pointers::register_alloc(rt, &alloc);
    Ok(DeviceView {
        alloc,
        offset: 0,
        shape: shape.to_vec(),
        strides: NdArray::c_strides(shape, dtype.itemsize()),
        dtype,
        stream,
    })
}

/// Bytes of a C-contiguous array of `shape`, or ValueError when that does not fit in memory
/// addresses (checked before any stride arithmetic).
pub fn checked_nbytes(shape: &[usize], dtype: DType) -> PyResult<usize> {
    shape
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .and_then(|n| n.checked_mul(dtype.itemsize()))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| {
            PyErr::value_error(format!(
                "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size (shape {})",
                shape_str(shape)
            ))
        })
}

fn check_same_shape(a: &[usize], b: &[usize]) -> PyResult<()> {
    if a != b {
        return Err(PyErr::value_error(format!(
            "incompatible shape: {} vs. {}",
            shape_str(a),
            shape_str(b)
        )));
    }
    Ok(())
}

/// A shape as Python prints a tuple: `(5,)`, `(2, 3)`.
pub fn shape_str(s: &[usize]) -> String {
    crate::arrays::elem::shape_str(s)
}

/// Whether a host array is page-locked (pinned, mapped or managed). As on CUDA, copies on a
/// stream are asynchronous only for such memory; with ordinary (pageable) memory the call
/// returns once the copy is done, which is why the tutorials pin memory for overlap.
pub fn page_locked(rt: &mut Runtime, a: &NdArray) -> bool {
    state::host_kind(rt, &a.buf).is_some()
}

/// Copy a host array into a device view of the same shape (asynchronous on a stream when
/// the host memory is page-locked).
pub fn htod(
    rt: &mut Runtime,
    src: &NdArray,
    dst: &DeviceView,
    stream: StreamId,
    why: Transfer,
) -> PyResult<()> {
    check_same_shape(&src.shape, &dst.shape)?;
    state::check_not_freed(rt, dst.alloc.id)?;
    let rec = Record {
        kind: LedgerKind::HtoD,
        label: why.call,
        explicit: why.explicit,
    };
    let t = device(rt)?
        .backend()
        .copy(host_region(src), region_of(dst), stream, rec);
    if stream == 0 || !page_locked(rt, src) {
        wait(rt, vec![t])?;
    }
    Ok(())
}

/// Copy a device view into a host array of the same shape; waits for completion unless a
/// stream is given and the host memory is page-locked, as CUDA does.
pub fn dtoh(
    rt: &mut Runtime,
    src: &DeviceView,
    dst: &NdArray,
    stream: StreamId,
    why: Transfer,
) -> PyResult<()> {
    check_same_shape(&src.shape, &dst.shape)?;
    state::check_not_freed(rt, src.alloc.id)?;
    let rec = Record {
        kind: LedgerKind::DtoH,
        label: why.call,
        explicit: why.explicit,
    };
    let t = device(rt)?
        .backend()
        .copy(region_of(src), host_region(dst), stream, rec);
    if stream == 0 || !page_locked(rt, dst) {
        wait(rt, vec![t])?;
    }
    Ok(())
}

/// Copy between two device views of the same shape (async on `stream`).
pub fn dtod(
    rt: &mut Runtime,
    src: &DeviceView,
    dst: &DeviceView,
    stream: StreamId,
    why: Transfer,
) -> PyResult<()> {
    check_same_shape(&src.shape, &dst.shape)?;
    state::check_not_freed(rt, src.alloc.id)?;
    state::check_not_freed(rt, dst.alloc.id)?;
    let rec = Record {
        kind: LedgerKind::DtoD,
        label: why.call,
        explicit: why.explicit,
    };
    device(rt)?
        .backend()
        .copy(region_of(src), region_of(dst), stream, rec);
    Ok(())
}

/// Queue a kernel launch on `stream` and return at once.
pub fn launch(
    rt: &mut Runtime,
    kernel: Arc<CompiledKernel>,
    config: LaunchConfig,
    args: Vec<KernelArg>,
    stream: StreamId,
) -> PyResult<()> {
    crate::kernel::check_launch(&kernel, &config).map_err(|f| {
        fault_error(f).with_hint(
            "Use at most 1024 threads per block and 48 KiB of shared memory per block (static arrays plus the 4th launch-configuration element).",
        )
    })?;
    // Views and `__cuda_array_interface__` wrappers made before a `.free()` share the
    // freed allocation; the kernel must not run on it.
    for a in &args {
        if let KernelArg::Array(ArrayArg {
            mem: ArgMem::Device(alloc),
            ..
        }) = a
        {
            state::check_not_freed(rt, alloc.id)?;
        }
    }
    device(rt)?.backend().launch(kernel, config, args, stream);
    Ok(())
}

/// Wait for `tickets` (watching for interrupts), then surface kernel output and faults.
pub fn wait(rt: &mut Runtime, tickets: Vec<Ticket>) -> PyResult<()> {
    for t in tickets {
        if !t.wait_interruptible(&rt.interrupt) {
            // KeyboardInterrupt leaves the device idle, not still busy with what it waited for.
            cancel(rt);
            rt.check_interrupt()?;
        }
    }
    surface_pending(rt)
}

/// After an interrupt: drop the work queued on every stream and stop running kernels
/// (on the CUDA device a kernel already on the GPU runs to its end).
pub fn cancel(rt: &mut Runtime) {
    if rt.state::<state::DeviceState>().device.is_none() {
        return;
    }
    let idle = match device(rt) {
        Ok(d) => d.backend().cancel(),
        Err(_) => true,
    };
    if !idle {
        // Say why later device cells may wait, instead of leaving a silent stall.
        rt.eprint(
            "Interrupted, but a kernel already running on the GPU cannot be stopped: it runs to its end in the background. Host code and new allocations work as usual; work queued behind it, or cuda.synchronize(), waits for it. Interrupt again, or restart the kernel to end it.\n",
        );
    }
}

/// Print kernel output collected so far and raise the first kernel fault.
pub fn surface_pending(rt: &mut Runtime) -> PyResult<()> {
    if rt.state::<state::DeviceState>().device.is_none() {
        return Ok(());
    }
    let (printed, faults) = device(rt)?.backend().take_pending();
    if !printed.is_empty() {
        rt.print(&printed);
    }
    match faults.into_iter().next() {
        Some(f) => Err(fault_error(f)),
        None => Ok(()),
    }
}

/// `cuda.synchronize()`: wait for all streams; raises pending kernel faults.
pub fn synchronize(rt: &mut Runtime) -> PyResult<()> {
    if rt.state::<state::DeviceState>().device.is_none() {
        return Ok(());
    }
    let tails = device(rt)?.backend().device_tails();
    wait(rt, tails)
}

/// The end of a cell: like `synchronize`, but streams an interrupt abandoned (a GPU
/// kernel that cannot be stopped) hold it up only when work was queued behind them since.
pub fn settle(rt: &mut Runtime) -> PyResult<()> {
    if rt.state::<state::DeviceState>().device.is_none() {
        return Ok(());
    }
    let tails = device(rt)?.backend().live_tails();
    wait(rt, tails)
}

/// Wait for one stream.
pub fn stream_synchronize(rt: &mut Runtime, stream: StreamId) -> PyResult<()> {
    if rt.state::<state::DeviceState>().device.is_none() {
        return Ok(());
    }
    let tail = device(rt)?.backend().stream_tail(stream);
    wait(rt, tail.into_iter().collect())
}

/// A host copy of a device view (synchronous on stream 0): same shape and dtype,
/// C-contiguous. Used by `np.asarray(d)`, CuPy's `get()` and the dispatchers.
pub fn to_host(rt: &mut Runtime, view: &DeviceView, why: Transfer) -> PyResult<NdArray> {
    let host = NdArray::zeros(&view.shape, view.dtype).map_err(|e| {
        PyErr::memory_error(format!(
            "Unable to allocate {} bytes for a host copy of a device array",
            e.bytes
        ))
    })?;
    dtoh(rt, view, &host, view.stream, why)?;
    if view.stream != 0 {
        stream_synchronize(rt, view.stream)?;
    }
    Ok(host)
}

/// Implicit transfer in for a dispatcher: a device copy of a host array (recorded as
/// implicit, for `call`).
pub fn implicit_to_device(
    rt: &mut Runtime,
    host: &NdArray,
    stream: StreamId,
    call: &str,
) -> PyResult<DeviceView> {
    let view = alloc(rt, &host.shape, host.dtype, stream)?;
    htod(rt, host, &view, stream, Transfer::implicit(call))?;
    Ok(view)
}

/// Implicit transfer out for a dispatcher: copy a device view back into a host array
/// (synchronously), recorded as implicit.
pub fn implicit_to_host(
    rt: &mut Runtime,
    view: &DeviceView,
    host: &NdArray,
    stream: StreamId,
    call: &str,
) -> PyResult<()> {
    dtoh(rt, view, host, stream, Transfer::implicit(call))?;
    stream_synchronize(rt, stream)
}

/// The Python exception a kernel fault raises in the cell.
pub fn fault_error(f: KernelFault) -> PyErr {
    match f.kind {
        FaultKind::Interrupted => crate::arrays::interrupt::stopped().into(),
        _ => PyErr::new(f.ename(), f.message.clone()),
    }
}

/// [`fault_error`] for a kernel run on the cell's own thread (`@njit`, host targets): an
/// interrupt's fault also consumes the pending interrupt request, so the next statement
/// does not see it again.
pub fn host_fault_error(rt: &mut Runtime, f: KernelFault) -> PyErr {
    if f.kind == FaultKind::Interrupted {
        return rt
            .check_interrupt()
            .err()
            .unwrap_or_else(PyErr::keyboard_interrupt);
    }
    fault_error(f)
}
