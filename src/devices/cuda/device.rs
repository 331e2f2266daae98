//! The CUDA device on cudarc: allocations, copies on streams, events, NVRTC-compiled
//! modules (cached by source hash and compute capability) and launches.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{
    CudaContext, CudaEvent, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr,
    DriverError, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::abi::LaunchArg;
use super::nvrtc;

/// A CUDA driver error, worded as Numba's `CudaAPIError`:
/// `[2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CudaError {
    pub code: u32,
    pub call: String,
    pub name: String,
}

impl std::fmt::Display for CudaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[{}] Call to {} results in {}",
            self.code, self.call, self.name
        )
    }
}

fn api(call: &str) -> impl Fn(DriverError) -> CudaError + '_ {
    move |e| CudaError {
        code: e.0 as u32,
        call: call.to_string(),
        name: e
            .error_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|_| format!("{:?}", e.0)),
    }
}

/// What `cuda.gpus`, `cuda.detect()` and the banner show.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: i32,
    pub total_memory: usize,
    pub pci_bus_id: i32,
}

/// One device allocation; the memory is released when this is dropped.
pub struct CudaBuffer {
    slice: CudaSlice<u8>,
}

impl CudaBuffer {
    pub fn len(&self) -> usize {
        self.slice.len()
    }
    pub fn is_empty(&self) -> bool {
        self.slice.is_empty()
    }
}

/// Loaded modules by (source hash, compute capability).
type ModuleCache = Mutex<HashMap<(u64, (i32, i32)), Arc<CudaModule>>>;

/// Grid, block and dynamic shared memory of one launch.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
}

pub struct CudaDevice {
    ctx: Arc<CudaContext>,
    streams: Mutex<HashMap<u64, Arc<CudaStream>>>,
    modules: ModuleCache,
    info: DeviceInfo,
}

impl CudaDevice {
    /// Open device `ordinal`. The caller has already checked that libcuda is present.
    pub fn open(ordinal: usize) -> Result<CudaDevice, CudaError> {
        let ctx = CudaContext::new(ordinal).map_err(api("cuCtxCreate"))?;
        // nbcuda orders work the way CUDA and Numba do (streams, events, synchronize); the
        // per-slice event tracking of cudarc would add ordering a Numba user does not expect.
        // SAFETY: called before any allocation or stream exists in this context.
        unsafe { ctx.disable_event_tracking() };
        let attr = |a| ctx.attribute(a).map_err(api("cuDeviceGetAttribute"));
        let info = DeviceInfo {
            name: ctx.name().map_err(api("cuDeviceGetName"))?,
            compute_capability: ctx
                .compute_capability()
                .map_err(api("cuDeviceGetAttribute"))?,
            multiprocessors: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            total_memory: ctx.total_mem().map_err(api("cuDeviceTotalMem"))?,
            pci_bus_id: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
        };
        let mut streams = HashMap::new();
        streams.insert(0, ctx.default_stream());
        Ok(CudaDevice {
            ctx,
            streams: Mutex::new(streams),
            modules: Mutex::new(HashMap::new()),
            info,
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// (free, total) bytes.
    pub fn mem_info(&self) -> Result<(usize, usize), CudaError> {
        self.ctx.mem_get_info().map_err(api("cuMemGetInfo"))
    }

    /// The stream with this id, created on first use (0 is the legacy default stream).
    pub fn stream(&self, id: u64) -> Result<Arc<CudaStream>, CudaError> {
        let mut streams = self.streams.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = streams.get(&id) {
            return Ok(s.clone());
        }
        let s = self.ctx.new_stream().map_err(api("cuStreamCreate"))?;
        streams.insert(id, s.clone());
        Ok(s)
    }

    pub fn alloc(&self, bytes: usize) -> Result<CudaBuffer, CudaError> {
        let stream = self.stream(0)?;
        let slice = stream
            .alloc_zeros::<u8>(bytes.max(1))
            .map_err(api("cuMemAlloc"))?;
        Ok(CudaBuffer { slice })
    }

    /// Device address of byte `offset` in `buf` (for array descriptors).
    pub fn address(&self, buf: &CudaBuffer, offset: usize) -> Result<u64, CudaError> {
        let stream = self.stream(0)?;
        let (ptr, _sync) = buf.slice.device_ptr(&stream);
        Ok(ptr + offset as u64)
    }

    pub fn htod(
        &self,
        src: &[u8],
        dst: &mut CudaBuffer,
        offset: usize,
        stream: u64,
    ) -> Result<(), CudaError> {
        let s = self.stream(stream)?;
        let mut view = dst.slice.slice_mut(offset..offset + src.len());
        s.memcpy_htod(src, &mut view)
            .map_err(api("cuMemcpyHtoDAsync"))
    }

    pub fn dtoh(
        &self,
        src: &CudaBuffer,
        offset: usize,
        dst: &mut [u8],
        stream: u64,
    ) -> Result<(), CudaError> {
        let s = self.stream(stream)?;
        let view = src.slice.slice(offset..offset + dst.len());
        s.memcpy_dtoh(&view, dst).map_err(api("cuMemcpyDtoHAsync"))
    }

    pub fn dtod(
        &self,
        src: &CudaBuffer,
        src_off: usize,
        dst: &mut CudaBuffer,
        dst_off: usize,
        len: usize,
        stream: u64,
    ) -> Result<(), CudaError> {
        let s = self.stream(stream)?;
        let view = src.slice.slice(src_off..src_off + len);
        let mut out = dst.slice.slice_mut(dst_off..dst_off + len);
        s.memcpy_dtod(&view, &mut out)
            .map_err(api("cuMemcpyDtoDAsync"))
    }

    pub fn synchronize(&self) -> Result<(), CudaError> {
        self.ctx.synchronize().map_err(api("cuCtxSynchronize"))
    }

    pub fn stream_synchronize(&self, stream: u64) -> Result<(), CudaError> {
        self.stream(stream)?
            .synchronize()
            .map_err(api("cuStreamSynchronize"))
    }

    /// Record a timing event on `stream`.
    pub fn record_event(&self, stream: u64) -> Result<CudaEvent, CudaError> {
        let ev = self
            .ctx
            .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(api("cuEventCreate"))?;
        let s = self.stream(stream)?;
        ev.record(&s).map_err(api("cuEventRecord"))?;
        Ok(ev)
    }

    /// Compile (through NVRTC, for this device's compute capability) and load a module,
    /// or return the cached one for the same source.
    pub fn load_module(&self, source: &str) -> Result<Arc<CudaModule>, String> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        source.hash(&mut h);
        let key = (h.finish(), self.info.compute_capability);
        let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = modules.get(&key) {
            return Ok(m.clone());
        }
        let arch = nvrtc::arch_for(self.info.compute_capability);
        let compiled = nvrtc::compile_ptx(source, "nbcuda_module.cu", &arch)?;
        let module = self
            .ctx
            .load_module(Ptx::from_src(compiled.ptx))
            .map_err(|e| api("cuModuleLoadData")(e).to_string())?;
        modules.insert(key, module.clone());
        Ok(module)
    }

    /// Launch `entry` of `module` asynchronously on `stream`.
    pub fn launch(
        &self,
        module: &Arc<CudaModule>,
        entry: &str,
        dims: Dims,
        stream: u64,
        args: &[LaunchArg],
    ) -> Result<(), CudaError> {
        let f: CudaFunction = module
            .load_function(entry)
            .map_err(api("cuModuleGetFunction"))?;
        let s = self.stream(stream)?;
        let mut b = s.launch_builder(&f);
        for a in args {
            match a {
                LaunchArg::Array(d) => b.arg(d),
                LaunchArg::Ptr(p) | LaunchArg::U64(p) => b.arg(p),
                LaunchArg::I32(v) => b.arg(v),
                LaunchArg::I64(v) => b.arg(v),
                LaunchArg::F32(v) => b.arg(v),
                LaunchArg::F64(v) => b.arg(v),
                LaunchArg::Bool(v) => b.arg(v),
            };
        }
        let cfg = LaunchConfig {
            grid_dim: (dims.grid[0], dims.grid[1], dims.grid[2]),
            block_dim: (dims.block[0], dims.block[1], dims.block[2]),
            shared_mem_bytes: dims.shared_bytes,
        };
        // SAFETY: every kernel launched here is CUDA C that nbcuda generated (kernels/ or
        // the compiler's code generator) together with the argument list, so the number,
        // order and types of `args` match the kernel's parameters; array descriptors point
        // into live allocations that the caller keeps alive until the stream passes this
        // launch.
        unsafe { b.launch(cfg) }.map_err(api("cuLaunchKernel"))?;
        Ok(())
    }
}
