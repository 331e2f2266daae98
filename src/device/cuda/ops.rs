//! The bodies of the CUDA device's queued operations: copies (cuMemcpy when both sides are
//! dense, the built-in copy/cast kernels for strided device regions, host staging
//! otherwise), fills (the built-in fill kernel) and launches of generated kernels. Each
//! runs on its stream's worker and returns when the GPU has finished it.

use std::sync::{Arc, Mutex};

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::{DType, Scalar};
use crate::device::copy;
use crate::kernel::abi::Storage;
use crate::kernel::abi::{
    fault_site, out_of_bounds_message, ArgMem, ArrayArg, KernelArg, LaunchConfig,
};
use crate::kernel::codegen::{FAULT_MAX_AXES, FAULT_WORDS};
use crate::kernel::printbuf;
use crate::kernel::CompiledKernel;

use crate::device::cuda::builtin_kernels;
use crate::device::cuda::mem::run_staged;
use crate::device::cuda::pinned;
use crate::gpu::driver::{CudaDevice, CudaError, Dims};
use crate::gpu::launch_args::{ArrayDesc, LaunchArg};
use crate::gpu::memory::CudaMem;

/// Where an operand's bytes live.
enum Place {
    Device(Arc<CudaMem>),
    Host(Arc<Buffer>),
}

fn place(mem: &ArgMem) -> Place {
    match mem {
        ArgMem::Host(b) => Place::Host(b.clone()),
        ArgMem::Device(a) => match &a.storage {
            Storage::Cpu(b) => Place::Host(b.clone()),
            Storage::Cuda(m) => Place::Device(m.clone()),
        },
    }
}

/// Byte offset of the lowest address a region touches.
fn low(r: &ArrayArg) -> usize {
    let (lo, _) = copy::extent(&r.shape, &r.strides, r.dtype.itemsize());
    (r.offset as isize + lo) as usize
}

fn dense_pair(src: &ArrayArg, dst: &ArrayArg) -> bool {
    let isz = src.dtype.itemsize();
    let c = |r: &ArrayArg| crate::arrays::contiguous(&r.shape, &r.strides, isz, true);
    let f = |r: &ArrayArg| crate::arrays::contiguous(&r.shape, &r.strides, isz, false);
    src.dtype == dst.dtype && src.shape == dst.shape && ((c(src) && c(dst)) || (f(src) && f(dst)))
}

/// Launch a built-in kernel over `n` elements with a grid-stride loop.
fn builtin(
    dev: &CudaDevice,
    module: &str,
    entry: &str,
    n: usize,
    stream: u64,
    args: &[LaunchArg],
) -> Result<(), String> {
    let source =
        builtin_kernels::source(module).ok_or_else(|| format!("no built-in module {module}"))?;
    let m = dev.load_module(&source)?;
    let blocks = n.div_ceil(256).clamp(1, 65_535) as u32;
    let dims = Dims {
        grid: [blocks, 1, 1],
        block: [256, 1, 1],
        shared_bytes: 0,
    };
    dev.launch(&m, entry, dims, stream, args)
        .and_then(|()| dev.stream_synchronize(stream))
        .map_err(|e| format!("CudaAPIError: {e}"))
}

/// Copy `src` to `dst` (equal shapes; dtypes may differ) on `stream`.
pub fn copy(dev: &CudaDevice, src: &ArrayArg, dst: &ArrayArg, stream: u64) -> Result<(), String> {
    let n: usize = dst.shape.iter().product();
    if n == 0 {
        return Ok(());
    }
    let api = |e: CudaError| format!("CudaAPIError: {e}");
    let (sp, dp) = (place(&src.mem), place(&dst.mem));
    if dense_pair(src, dst) {
        let len = n * src.dtype.itemsize();
        let (so, dof) = (low(src), low(dst));
        match (&sp, &dp) {
            (Place::Host(s), Place::Device(d)) => {
                return dev
                    .htod(d.ptr + dof as u64, s.typed::<u8>(so, len), stream)
                    .map_err(api)
            }
            (Place::Device(s), Place::Host(d)) => {
                return dev
                    .dtoh(d.typed_mut::<u8>(dof, len), s.ptr + so as u64, stream)
                    .map_err(api)
            }
            (Place::Device(s), Place::Device(d)) => {
                let (from, to) = (s.ptr + so as u64, d.ptr + dof as u64);
                if from == to {
                    return Ok(());
                }
                // cuMemcpy requires disjoint ranges; overlapping ones take the staged path.
                if from + len as u64 <= to || to + len as u64 <= from {
                    return dev.dtod(to, from, len, stream).map_err(api);
                }
            }
            (Place::Host(_), Place::Host(_)) => {
                copy::copy_region(src, dst);
                return Ok(());
            }
        }
    }
    if let (Place::Device(s), Place::Device(d)) = (&sp, &dp) {
        let sd = ArrayDesc::new(s.ptr + src.offset as u64, &src.shape, &src.strides);
        let dd = ArrayDesc::new(d.ptr + dst.offset as u64, &dst.shape, &dst.strides);
        if let (Some(sd), Some(dd)) = (sd, dd) {
            let args = [LaunchArg::Array(sd), LaunchArg::Array(dd)];
            if src.dtype != dst.dtype {
                let entry = format!(
                    "nb_cast_{}_{}",
                    builtin_kernels::dtype_suffix(src.dtype),
                    builtin_kernels::dtype_suffix(dst.dtype)
                );
                return builtin(dev, "cast", &entry, n, stream, &args);
            }
            // Overlapping strided regions of one allocation could race between threads.
            if !Arc::ptr_eq(s, d) {
                let entry = format!("nb_copy_b{}", src.dtype.itemsize());
                return builtin(dev, "copy", &entry, n, stream, &args);
            }
        }
    }
    let (src, dst) = (src.clone(), dst.clone());
    run_staged(stream, Vec::new(), move || copy::copy_region(&src, &dst)).map_err(api)
}

/// The kernel parameter for one scalar, in the C type the kernel declares for `d`.
fn scalar_arg(v: Scalar, d: DType) -> LaunchArg {
    match v.cast(d) {
        Scalar::Bool(b) => LaunchArg::Bool(b),
        Scalar::I8(x) => LaunchArg::I8(x),
        Scalar::I16(x) => LaunchArg::I16(x),
        Scalar::I32(x) => LaunchArg::I32(x),
        Scalar::I64(x) => LaunchArg::I64(x),
        Scalar::U8(x) => LaunchArg::U8(x),
        Scalar::U16(x) => LaunchArg::U16(x),
        Scalar::U32(x) => LaunchArg::U32(x),
        Scalar::U64(x) => LaunchArg::U64(x),
        Scalar::F32(x) => LaunchArg::F32(x),
        Scalar::F64(x) => LaunchArg::F64(x),
        // Complex and float16 arrays never reach a device (transfers refuse them).
        Scalar::C64(x, _) => LaunchArg::F32(x),
        Scalar::F16(x) => LaunchArg::F32(x.to_f32()),
        Scalar::C128(x, _) => LaunchArg::F64(x),
    }
}

/// Fill `dst` with `value` on `stream`.
pub fn fill(dev: &CudaDevice, dst: &ArrayArg, value: Scalar, stream: u64) -> Result<(), String> {
    let n: usize = dst.shape.iter().product();
    if n == 0 {
        return Ok(());
    }
    if let Place::Device(d) = place(&dst.mem) {
        if let Some(desc) = ArrayDesc::new(d.ptr + dst.offset as u64, &dst.shape, &dst.strides) {
            let entry = format!("nb_fill_{}", builtin_kernels::dtype_suffix(dst.dtype));
            let args = [LaunchArg::Array(desc), scalar_arg(value, dst.dtype)];
            return builtin(dev, "fill", &entry, n, stream, &args);
        }
    }
    let dst = dst.clone();
    run_staged(stream, Vec::new(), move || copy::fill_region(&dst, value))
        .map_err(|e| format!("CudaAPIError: {e}"))
}

/// Host memory a kernel reads or writes that the device cannot address (host arrays passed
/// directly, pinned arrays, arrays mapped with `cuda.mapped(...)` rather than allocated by
/// `cuda.mapped_array`): copied to a temporary device buffer for the launch and back after.
struct Staged {
    host: Arc<Buffer>,
    ptr: u64,
}

/// The device address a kernel uses for an array argument's memory: device memory and
/// mapped page-locked memory in place, anything else through a staged copy.
fn arg_base(
    dev: &CudaDevice,
    mem: &ArgMem,
    stream: u64,
    staged: &mut Vec<Staged>,
) -> Result<u64, CudaError> {
    match place(mem) {
        Place::Device(m) => Ok(m.ptr),
        Place::Host(host) => {
            if let Some(ptr) = pinned::mapped_device_ptr(&host) {
                return Ok(ptr);
            }
            let ptr = dev.alloc(host.len())?;
            staged.push(Staged {
                host: host.clone(),
                ptr,
            });
            dev.htod(ptr, host.typed::<u8>(0, host.len()), stream)?;
            Ok(ptr)
        }
    }
}

/// Mapped page-locked fault areas (layout: [`FAULT_WORDS`]), one per launch in flight and
/// reused: a kernel writes its first out-of-bounds access there and the host reads it after
/// the launch without a copy.
#[derive(Clone, Default)]
pub struct FaultAreas(Arc<Mutex<Vec<Buffer>>>);

impl FaultAreas {
    /// A cleared area and the device address kernels write it through.
    fn take(&self, dev: &Arc<CudaDevice>) -> Result<(Buffer, u64), CudaError> {
        let idle = self.0.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let buf = match idle {
            Some(b) => b,
            None => pinned::alloc(dev, FAULT_WORDS * 8, true)?,
        };
        // The previous launch using this area finished (its stream was synchronised), so
        // nothing on the device writes it now.
        buf.typed_mut::<u64>(0, FAULT_WORDS).fill(0);
        match pinned::mapped_device_ptr(&buf) {
            Some(ptr) => Ok((buf, ptr)),
            None => Err(CudaError {
                code: 1,
                call: "cuMemHostGetDevicePointer".into(),
                name: "CUDA_ERROR_INVALID_VALUE".into(),
            }),
        }
    }

    fn give(&self, buf: Buffer) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(buf);
    }
}

/// The IndexError message of a finished launch's fault area (its [`FAULT_WORDS`] words), if
/// a thread faulted.
pub fn index_fault(kernel: &CompiledKernel, w: &[u64]) -> Option<(String, String)> {
    if w.len() < FAULT_WORDS || w[0] == 0 {
        return None;
    }
    if w[0] == 2 {
        // A debug kernel's `raise`: word 1 numbers the site.
        let site = crate::kernel::ir::raise_sites(&kernel.ir)
            .get(w[1] as usize)
            .cloned();
        return Some(
            site.unwrap_or_else(|| ("RuntimeError".into(), "a kernel raised an exception".into())),
        );
    }
    let nd = (w[2] as usize).min(FAULT_MAX_AXES);
    let index: Vec<i64> = w[3..3 + nd].iter().map(|x| *x as i64).collect();
    let shape: Vec<i64> = w[11..11 + nd].iter().map(|x| *x as i64).collect();
    let coords = |k: usize| [w[k] as u32, w[k + 1] as u32, w[k + 2] as u32];
    let loc = kernel
        .ir
        .locs
        .get(w[1] as usize)
        .cloned()
        .unwrap_or_default();
    let site = fault_site(&kernel.name, &loc, coords(19), coords(22));
    Some((
        "IndexError".into(),
        out_of_bounds_message(&index, &shape, &site),
    ))
}

/// What a finished launch reports: the text its `print()` calls produced and, when a
/// thread indexed outside an array, the IndexError message.
pub struct Launched {
    pub printed: String,
    /// The exception class and message of a fault (IndexError, or a debug kernel's raise).
    pub index_fault: Option<(String, String)>,
}

/// Generate, compile (cached) and launch `kernel` on `stream`; returns when it finished.
pub fn launch(
    dev: &Arc<CudaDevice>,
    kernel: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
    stream: u64,
    faults: &FaultAreas,
) -> Result<Launched, String> {
    let api = |e: CudaError| format!("CudaAPIError: {e}");
    let module = dev.load_module(&crate::kernel::codegen::cuda_source(kernel))?;
    let sites = printbuf::sites(&kernel.ir);
    let mut staged: Vec<Staged> = Vec::new();
    let mut print_buf: Option<u64> = None;
    let mut largs = Vec::with_capacity(args.len() + 2); // bounded: the kernel's arguments
    let mut fault_area: Option<Buffer> = None;
    let result = (|| -> Result<Launched, String> {
        for (i, a) in args.iter().enumerate() {
            match a {
                KernelArg::Scalar(s) => largs.push(scalar_arg(*s, s.dtype())),
                KernelArg::Array(arr) => {
                    let base = arg_base(dev, &arr.mem, stream, &mut staged).map_err(api)?;
                    let desc = ArrayDesc::left_aligned(
                        base + arr.offset as u64,
                        &arr.shape,
                        &arr.strides,
                    )
                    .ok_or_else(|| {
                        format!(
                            "argument {i} of {} has {} dimensions; the CUDA device passes at most 3",
                            kernel.name,
                            arr.shape.len()
                        )
                    })?;
                    largs.push(LaunchArg::Array(desc));
                }
            }
        }
        if !sites.is_empty() {
            let ptr = dev.take_print_buffer(PRINT_BUFFER_BYTES).map_err(api)?;
            print_buf = Some(ptr);
            dev.htod(ptr, &printbuf::header(printbuf::CAPACITY_WORDS), stream)
                .map_err(api)?;
            largs.push(LaunchArg::Ptr(ptr));
        }
        let (area, area_ptr) = faults.take(dev).map_err(api)?;
        fault_area = Some(area);
        largs.push(LaunchArg::Ptr(area_ptr));
        let dims = Dims {
            grid: config.grid,
            block: config.block,
            shared_bytes: config.dynamic_shared_bytes as u32,
        };
        let entry = crate::kernel::codegen::entry_name(kernel);
        dev.launch(&module, &entry, dims, stream, &largs)
            .and_then(|()| dev.stream_synchronize(stream))
            .map_err(api)?;
        for s in &staged {
            dev.dtoh(s.host.typed_mut::<u8>(0, s.host.len()), s.ptr, stream)
                .map_err(api)?;
        }
        let printed = match print_buf {
            Some(ptr) => read_printed(dev, ptr, stream, &kernel.name, &sites).map_err(api)?,
            None => String::new(),
        };
        let index_fault = fault_area
            .as_ref()
            .and_then(|a| index_fault(kernel, a.typed::<u64>(0, FAULT_WORDS)));
        Ok(Launched {
            printed,
            index_fault,
        })
    })();
    if let Some(a) = fault_area {
        faults.give(a);
    }
    for s in staged {
        dev.free(s.ptr);
    }
    if let Some(ptr) = print_buf {
        dev.give_print_buffer(ptr);
    }
    result
}

/// Bytes of one print buffer: the header and the record area.
const PRINT_BUFFER_BYTES: usize = (printbuf::HEADER_WORDS + printbuf::CAPACITY_WORDS) * 8;

/// The text of the records a finished launch left in its print buffer at `ptr`: the header
/// first, then only the part of the record area that was written.
fn read_printed(
    dev: &CudaDevice,
    ptr: u64,
    stream: u64,
    kernel_name: &str,
    sites: &[Vec<printbuf::Piece>],
) -> Result<String, CudaError> {
    let head = printbuf::HEADER_WORDS * 8;
    let mut bytes = vec![0u8; head]; // bounded: the fixed header
    dev.dtoh(&mut bytes, ptr, stream)?;
    let word = |i: usize| u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
    let used = word(0).min(printbuf::CAPACITY_WORDS as u64) as usize * 8;
    if used > 0 {
        bytes.resize(head + used, 0); // bounded: used <= CAPACITY_WORDS
        dev.dtoh(&mut bytes[head..], ptr + head as u64, stream)?;
    }
    Ok(printbuf::decode(kernel_name, sites, &bytes))
}
