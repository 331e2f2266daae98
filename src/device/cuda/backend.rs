//! The CUDA device behind the [`Backend`] trait.
//!
//! Ordering reuses the CPU device's stream workers: each nbcuda stream has a worker thread
//! and a CUDA stream; a queued operation is issued on the CUDA stream by the worker, which
//! waits for it before taking the next. Tickets, events, the legacy default stream and the
//! ledger's timings therefore mean the same on both devices, and the host never blocks on
//! the GPU except where Numba's API does.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::arrays::dtype::Scalar;
use crate::device::backend::{Backend, DeviceWork, EventMark, Record};
use crate::device::cpu::{submit_timed, track_allocation, Shared};
use crate::device::cpu_streams::{StreamSet, Ticket};
use crate::device::ledger::{LedgerEvent, LedgerKind};
use crate::device::StreamId;
use crate::kernel::abi::{Allocation, Storage};
use crate::kernel::abi::{ArrayArg, KernelArg, KernelFault, LaunchConfig};
use crate::kernel::CompiledKernel;
use crate::py::error::{PyErr, PyResult};

use crate::device::cuda::mem::{run_staged, take_prepared};
use crate::device::cuda::ops;
use crate::gpu::driver::CudaDevice;
use crate::gpu::memory::CudaMem;

pub struct CudaBackend {
    pub shared: Arc<Shared>,
    pub dev: Arc<CudaDevice>,
    streams: StreamSet,
    faults: ops::FaultAreas,
}

impl CudaBackend {
    pub fn new(dev: Arc<CudaDevice>) -> CudaBackend {
        crate::gpu::nvrtc::set_device_arch(dev.info().compute_capability);
        let total = dev.info().total_memory;
        let shared = Shared::new(total);
        CudaBackend {
            streams: shared.stream_set(),
            shared,
            dev,
            faults: ops::FaultAreas::default(),
        }
    }

    fn event(&self, rec: &Record, stream: StreamId, bytes: usize) -> LedgerEvent {
        let mut ev = self.shared.event(rec.kind, stream, bytes, &rec.label);
        ev.explicit = rec.explicit;
        ev
    }

    /// Queue `op`; an error it returns becomes a fault raised at the next sync.
    fn submit(
        &mut self,
        stream: StreamId,
        ev: LedgerEvent,
        ename: &'static str,
        op: impl FnOnce() -> Result<(), String> + Send + 'static,
    ) -> Ticket {
        let shared = self.shared.clone();
        submit_timed(
            &mut self.streams,
            &self.shared,
            stream,
            ev,
            Box::new(move || {
                if let Err(msg) = op() {
                    shared.fault(ename, msg);
                }
            }),
        )
    }
}

/// The out-of-memory error, worded as on the CPU device.
fn oom(bytes: usize, free: usize, total: usize) -> PyErr {
    PyErr::new(
        "CudaAPIError",
        "[2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY",
    )
    .with_hint(format!(
        "The GPU cannot hold this array: requested {bytes} bytes, {free} bytes free of {total} bytes total. Free device arrays you no longer need (del d, or d.free()) or allocate smaller arrays."
    ))
}

impl CudaBackend {
    /// A device allocation, or the out-of-memory error worded as on the CPU device.
    fn try_alloc(&self, bytes: usize) -> PyResult<u64> {
        let (free, total) = self.memory_info();
        if bytes > free {
            return Err(oom(bytes, free, total));
        }
        match self.dev.alloc(bytes) {
            Ok(p) => Ok(p),
            Err(e) if e.name.contains("OUT_OF_MEMORY") => Err(oom(bytes, free, total)),
            Err(e) => Err(PyErr::new("CudaAPIError", e.to_string())),
        }
    }
}

impl Backend for CudaBackend {
    fn name(&self) -> String {
        self.dev.info().name.clone()
    }

    fn memory_info(&self) -> (usize, usize) {
        let total = self.dev.info().total_memory;
        self.dev.mem_info().unwrap_or((0, total))
    }

    fn attribute(&self, name: &str) -> Option<i64> {
        crate::gpu::attributes::attribute_by_name(&self.dev, name)
    }

    fn compute_capability(&self) -> (i64, i64) {
        let (a, b) = self.dev.info().compute_capability;
        (a as i64, b as i64)
    }

    fn alloc(&mut self, bytes: usize) -> PyResult<Arc<Allocation>> {
        let flag = crate::arrays::interrupt::flag();
        let stop = || crate::arrays::interrupt::pending(&flag);
        let interrupted = || {
            if let Some(f) = &flag {
                f.store(false, Ordering::SeqCst);
            }
            PyErr::from(crate::arrays::interrupt::stopped())
        };
        let api_err = |e: crate::gpu::driver::CudaError| PyErr::new("CudaAPIError", e.to_string());
        let ptr = match self.try_alloc(bytes) {
            // Memory the host released may still be on its way back (frees run on their own
            // thread, see gpu::driver): wait for it before calling the device full.
            Err(full) if self.dev.frees_pending() > 0 => {
                if !self.dev.wait_for_frees(&stop).map_err(api_err)? {
                    return Err(interrupted());
                }
                self.try_alloc(bytes).map_err(|_| full)?
            }
            r => r?,
        };
        let mem = CudaMem::new(self.dev.clone(), ptr, bytes);
        // Zeroed like the CPU device's memory, so that both devices print the same values
        // for a never-written device_array. An interrupt while the GPU is busy with a kernel
        // that never ends drops `mem`, whose free then waits on the free thread.
        if !self.dev.zero(ptr, bytes.max(1), &stop).map_err(api_err)? {
            return Err(interrupted());
        }
        self.shared.used.fetch_add(bytes, Ordering::SeqCst);
        let id = track_allocation(&self.shared, bytes);
        Ok(Arc::new(Allocation {
            id,
            bytes,
            storage: Storage::Cuda(Arc::new(mem)),
            release: crate::device::cpu::release_allocation,
        }))
    }

    fn create_stream(&mut self) -> StreamId {
        self.streams.create()
    }

    fn destroy_stream(&mut self, stream: StreamId) {
        // The CUDA stream goes last on its own worker, after the work that uses it.
        let dev = self.dev.clone();
        self.streams
            .retire(stream, Some(Box::new(move || dev.forget_stream(stream))))
    }

    fn copy(&mut self, src: ArrayArg, dst: ArrayArg, stream: StreamId, rec: Record) -> Ticket {
        let bytes = dst.shape.iter().product::<usize>() * dst.dtype.itemsize();
        let ev = self.event(&rec, stream, bytes);
        let dev = self.dev.clone();
        self.submit(stream, ev, "CudaAPIError", move || {
            ops::copy(&dev, &src, &dst, stream)
        })
    }

    fn fill(&mut self, dst: ArrayArg, value: Scalar, stream: StreamId, rec: Record) -> Ticket {
        let bytes = dst.shape.iter().product::<usize>() * dst.dtype.itemsize();
        let ev = self.event(&rec, stream, bytes);
        let dev = self.dev.clone();
        self.submit(stream, ev, "CudaAPIError", move || {
            ops::fill(&dev, &dst, value, stream)
        })
    }

    fn launch(
        &mut self,
        kernel: Arc<CompiledKernel>,
        config: LaunchConfig,
        args: Vec<KernelArg>,
        stream: StreamId,
    ) -> Ticket {
        crate::device::backend::note_launch(&kernel);
        let mut ev = self
            .shared
            .event(LedgerKind::Kernel, stream, 0, &kernel.name);
        ev.grid = config.grid;
        ev.block = config.block;
        let dev = self.dev.clone();
        let shared = self.shared.clone();
        let faults = self.faults.clone();
        self.submit(stream, ev, "CudaAPIError", move || {
            let done = ops::launch(&dev, &kernel, &config, &args, stream, &faults)?;
            // Shown at the next synchronising call, as on the CPU device.
            if !done.printed.is_empty() {
                shared
                    .pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .printed
                    .push_str(&done.printed);
            }
            if let Some((ename, msg)) = done.index_fault {
                shared.fault(&ename, msg);
            }
            Ok(())
        })
    }

    fn run(&mut self, stream: StreamId, rec: Record, bytes: usize, work: DeviceWork) -> Ticket {
        let ev = self.event(&rec, stream, bytes);
        // Operations written as closures over host buffers run on host mirrors of the
        // device memory they touch (see `mem`).
        let prepared = take_prepared();
        let shared = self.shared.clone();
        self.submit(stream, ev, "CudaAPIError", move || {
            let mut failed = None;
            run_staged(stream, prepared, || failed = work().err()).map_err(|e| e.to_string())?;
            if let Some(fault) = failed {
                shared.push_fault(fault);
            }
            Ok(())
        })
    }

    fn record_event(&mut self, stream: StreamId) -> EventMark {
        // Every earlier operation on this stream's worker waited for the GPU, so the
        // worker reaching the event is the moment it completes.
        self.streams.record_event(stream)
    }

    fn wait_event(&mut self, stream: StreamId, mark: &EventMark) {
        self.streams.wait_event(stream, mark)
    }

    fn stream_tail(&mut self, stream: StreamId) -> Option<Ticket> {
        self.streams.tail(stream)
    }

    fn device_tails(&mut self) -> Vec<Ticket> {
        self.streams.all_tails()
    }

    fn live_tails(&mut self) -> Vec<Ticket> {
        self.streams.live_tails()
    }

    fn take_pending(&mut self) -> (String, Vec<KernelFault>) {
        self.shared.take_pending()
    }

    fn cancel(&mut self) -> bool {
        // Operations not yet handed to the driver are dropped; a kernel already running on
        // the GPU cannot be stopped and runs to its end, so this does not wait for it.
        let idle = self.streams.cancel(Duration::from_millis(100));
        if !idle {
            let running = self.streams.all_tails();
            self.dev
                .hold_frees_until(Box::new(move || running.iter().all(|t| t.done())));
        }
        self.shared.forget_interrupted();
        idle
    }
}
