//! Reductions with a binary device function: `cuda.reduce(binop)` / `cuda.Reduce`, and
//! `ufunc.reduce`.
//!
//! `cuda.reduce` runs on the device, on the caller's stream, as two launches compiled from
//! the user's function: a block-wide tree reduction ([`partial_kernel`]: each thread folds a
//! grid-stride slice, then the block combines pairs in shared memory) that leaves one value
//! per block, and a one-thread pass ([`fold_kernel`]) that folds those partial values into
//! `init` and writes the result into a device array. `ufunc.reduce` on host data folds on
//! the host with the same [`fold_kernel`].

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp};
use crate::arrays::NdArray;
use crate::device::api::{self, Transfer};
use crate::kernel::abi::{KernelArg, LaunchConfig};
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, ArrayDecl, BarrierKind, Op, Special, Stmt};
use crate::kernel::types::{Layout, Signature, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::dispatch::{as_function, device_function, CudaKernel};
use crate::numba::frontend::{FnCtx, FnKind, Val};
use crate::numba::launch::host_arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style;
use crate::py::value::{Args, Module, Object, Value};

/// `out[0] = f(...f(f(init, a[0]), a[1])..., a[n-1])` for `n = size` elements.
pub fn fold_kernel(func: &Rc<Function>, dt: DType, with_init: bool) -> PyResult<CompiledKernel> {
    let params = vec![
        Ty::Array {
            dtype: dt,
            ndim: 1,
            layout: Layout::A,
        },
        Ty::Array {
            dtype: dt,
            ndim: 1,
            layout: Layout::A,
        },
        Ty::Scalar(DType::I64),
        Ty::Scalar(dt),
    ];
    let mut b = Builder::new(&format!("reduce_{}", func.name), params);
    let mut cx = FnCtx::new(func.clone(), FnKind::Kernel, 0);
    use ruff_text_size::Ranged;
    let range = func.def.range();
    cx.set_loc(&mut b, func.def.name.range);
    let arr = ArrRef::Param(0);
    let n = b.emit(DType::I64, Op::Param(2));
    let acc = b.new_reg(dt);
    let start = if with_init {
        let init = b.emit(dt, Op::Param(3));
        b.emit_to(acc, Op::Copy(init));
        b.konst(Scalar::I64(0))
    } else {
        let zero = b.konst(Scalar::I64(0));
        let first = b.emit(dt, Op::Load(arr, vec![zero]));
        b.emit_to(acc, Op::Copy(first));
        b.konst(Scalar::I64(1))
    };
    let mut call = |b: &mut Builder, x: u32, y: u32| binop(b, &mut cx, func, range, x, y);
    fold_range(&mut b, &mut call, arr, acc, start, n, dt)?;
    let zero = b.konst(Scalar::I64(0));
    b.emit_void(Op::Store(ArrRef::Param(1), vec![zero], acc));
    Ok(CompiledKernel::from_ir(b.finish()))
}

/// `func(x, y)` inlined at the builder's position: the reduction's binary operation.
fn binop(
    b: &mut Builder,
    cx: &mut FnCtx,
    func: &Rc<Function>,
    range: ruff_text_size::TextRange,
    x: u32,
    y: u32,
) -> PyResult<u32> {
    let args = vec![Val::Reg(x), Val::Reg(y)];
    match crate::numba::frontend::inline::inline_call(b, cx, func.clone(), args, Vec::new(), range)?
    {
        Val::Reg(r) => Ok(r),
        _ => Err(cx.typing("a reduction function must return a number", range)),
    }
}

/// `acc = f(...f(acc, src[from])..., src[to - 1])`.
fn fold_range(
    b: &mut Builder,
    call: &mut impl FnMut(&mut Builder, u32, u32) -> PyResult<u32>,
    src: ArrRef,
    acc: u32,
    from: u32,
    to: u32,
    dt: DType,
) -> PyResult<()> {
    let j = b.new_reg(DType::I64);
    b.emit_to(j, Op::Copy(from));
    let id = b.new_loop_id();
    b.begin();
    let more = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, j, to));
    b.push(Stmt::If(more, vec![], vec![Stmt::Break(id)]));
    let x = b.emit(dt, Op::Load(src, vec![j]));
    let r = call(b, acc, x)?;
    b.assign(acc, r);
    let one = b.konst(Scalar::I64(1));
    let nj = b.emit(DType::I64, Op::Bin(Arith::Add, j, one));
    b.emit_to(j, Op::Copy(nj));
    let body = b.end();
    b.push(Stmt::Loop {
        id,
        body,
        latch: vec![],
    });
    Ok(())
}

/// Contiguous parts a thread's slice is folded in (see [`partial_kernel`]); a power of two.
const QUARTERS: usize = 4;

/// Threads per block of the partial reduction (a power of two: the tree halves it).
const BLOCK: usize = 256;
/// At most this many blocks, so the final one-thread pass folds at most this many values.
pub const MAX_BLOCKS: usize = 256;
/// [`MAX_BLOCKS`] on the CPU device. It runs a block's threads one after another, so each
/// block's tree is eight barrier regions looped over 256 threads: at 256 blocks the trees
/// cost about as much as folding 5M values. 32 blocks still give each core several.
pub const MAX_BLOCKS_CPU: usize = 32;

/// `dst[blockIdx.x]` = the block's fold of `src[i]` for `i < n`, each thread folding the
/// contiguous slice `[gid * per, min(gid * per + per, n))` (params: src, dst, n, per,
/// threads = ceil(n / per)). Contiguous slices rather than a grid-stride walk because on the
/// CPU device a thread runs its whole loop before the next thread starts: a grid-stride
/// thread would touch a new cache line at every step. Threads past `threads` hold no value;
/// the tree only combines slots below the block's count of valid threads, so no identity
/// element is needed. [`Reduce::queue`] launches exactly `ceil(threads / BLOCK)` blocks, so
/// every block holds at least one value.
pub fn partial_kernel(func: &Rc<Function>, dt: DType) -> PyResult<CompiledKernel> {
    partial_kernel_for(func, dt, Layout::A)
}

/// [`partial_kernel`] with the input's layout: `Layout::C` for a contiguous input, whose
/// element offsets native code then computes without a stride.
pub fn partial_kernel_for(
    func: &Rc<Function>,
    dt: DType,
    input: Layout,
) -> PyResult<CompiledKernel> {
    let arr = |dtype, layout| Ty::Array {
        dtype,
        ndim: 1,
        layout,
    };
    let params = vec![
        arr(dt, input),
        arr(dt, Layout::A),
        Ty::Scalar(DType::I64),
        Ty::Scalar(DType::I64),
        Ty::Scalar(DType::I64),
    ];
    let mut b = Builder::new(&format!("reduce_partial_{}", func.name), params);
    let mut cx = FnCtx::new(func.clone(), FnKind::Kernel, 0);
    use ruff_text_size::Ranged;
    let range = func.def.range();
    cx.set_loc(&mut b, func.def.name.range);
    b.k.shared.push(ArrayDecl {
        dtype: dt,
        shape: vec![BLOCK],
        dynamic: false,
        data: Vec::new(),
    });
    b.k.uses_block = true;
    let (src, shared) = (ArrRef::Param(0), ArrRef::Shared(0));
    let n = b.emit(DType::I64, Op::Param(2));
    let per = b.emit(DType::I64, Op::Param(3));
    let threads = b.emit(DType::I64, Op::Param(4));
    let special = |b: &mut Builder, s| {
        let r = b.emit(DType::I32, Op::Special(s));
        b.cast(r, DType::I64)
    };
    let tid = special(&mut b, Special::Tid(0));
    let bid = special(&mut b, Special::Ctaid(0));
    let bdim = b.konst(Scalar::I64(BLOCK as i64));
    let base = b.emit(DType::I64, Op::Bin(Arith::Mul, bid, bdim));
    let gi = b.emit(DType::I64, Op::Bin(Arith::Add, base, tid));
    let lo = b.emit(DType::I64, Op::Bin(Arith::Mul, gi, per));
    let past = b.emit(DType::I64, Op::Bin(Arith::Add, lo, per));
    let hi = b.emit(DType::I64, Op::Bin(Arith::Min, past, n));
    let mut call = |b: &mut Builder, x: u32, y: u32| binop(b, &mut cx, func, range, x, y);
    // Each valid thread folds its slice into `acc`: a slice of at least QUARTERS values
    // as that many contiguous parts, each into its own accumulator, combined in order at
    // the end (only associativity is assumed, as by the tree below). One accumulator would
    // chain every step of the thread on the one before.
    let acc = b.new_reg(dt);
    let zero = b.konst(Scalar::I64(0).cast(dt));
    b.emit_to(acc, Op::Copy(zero));
    let valid = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, gi, threads));
    b.begin();
    let count = b.emit(DType::I64, Op::Bin(Arith::Sub, hi, lo));
    // Defined before the branches, which both read it.
    let one = b.konst(Scalar::I64(1));
    let parts = b.konst(Scalar::I64(QUARTERS as i64));
    let split = b.emit(DType::Bool, Op::Cmp(Cmp::Ge, count, parts));
    b.begin();
    // count // QUARTERS for count >= QUARTERS > 0, as a shift: native code divides by a
    // call, which every value live in the thread's loop would have to survive.
    let shift = b.konst(Scalar::I64(QUARTERS.trailing_zeros() as i64));
    let q = b.emit(DType::I64, Op::Bin(Arith::RShift, count, shift));
    let mut starts = Vec::new();
    let mut accs = Vec::new();
    for k in 0..QUARTERS {
        let kk = b.konst(Scalar::I64(k as i64));
        let off = b.emit(DType::I64, Op::Bin(Arith::Mul, q, kk));
        let at = b.emit(DType::I64, Op::Bin(Arith::Add, lo, off));
        let a = b.new_reg(dt);
        let first = b.emit(dt, Op::Load(src, vec![at]));
        b.emit_to(a, Op::Copy(first));
        starts.push(at);
        accs.push(a);
    }
    // Step t = 1..q of every part, then the last part's remainder. One running index
    // (the first part's) and the others a multiple of q past it: fewer values live
    // through the loop than one index per part, so native code keeps them in registers.
    let at = b.new_reg(DType::I64);
    let second = b.emit(DType::I64, Op::Bin(Arith::Add, lo, one));
    b.emit_to(at, Op::Copy(second));
    let id = b.new_loop_id();
    b.begin();
    let more = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, at, starts[1]));
    b.push(Stmt::If(more, vec![], vec![Stmt::Break(id)]));
    let mut here = at;
    for (k, acc_k) in accs.iter().enumerate() {
        if k > 0 {
            here = b.emit(DType::I64, Op::Bin(Arith::Add, here, q));
        }
        let x = b.emit(dt, Op::Load(src, vec![here]));
        let r = call(&mut b, *acc_k, x)?;
        b.assign(*acc_k, r);
    }
    let next = b.emit(DType::I64, Op::Bin(Arith::Add, at, one));
    b.emit_to(at, Op::Copy(next));
    let body = b.end();
    b.push(Stmt::Loop {
        id,
        body,
        latch: vec![],
    });
    let last = accs[QUARTERS - 1];
    let tail = b.emit(DType::I64, Op::Bin(Arith::Add, starts[QUARTERS - 1], q));
    fold_range(&mut b, &mut call, src, last, tail, hi, dt)?;
    let left = call(&mut b, accs[0], accs[1])?;
    let right = call(&mut b, accs[2], accs[3])?;
    let r = call(&mut b, left, right)?;
    b.assign(acc, r);
    let quartered = b.end();
    b.begin();
    let first = b.emit(dt, Op::Load(src, vec![lo]));
    b.emit_to(acc, Op::Copy(first));
    let next = b.emit(DType::I64, Op::Bin(Arith::Add, lo, one));
    fold_range(&mut b, &mut call, src, acc, next, hi, dt)?;
    let short = b.end();
    b.push(Stmt::If(split, quartered, short));
    let then = b.end();
    b.push(Stmt::If(valid, then, vec![]));
    b.emit_void(Op::Store(shared, vec![tid], acc));
    // Valid threads of this block are a prefix of length min(BLOCK, threads - base).
    let left = b.emit(DType::I64, Op::Bin(Arith::Sub, threads, base));
    let count = b.emit(DType::I64, Op::Bin(Arith::Min, left, bdim));
    let mut half = BLOCK / 2;
    while half >= 1 {
        b.emit_void(Op::Barrier(BarrierKind::Plain, None));
        let h = b.konst(Scalar::I64(half as i64));
        let partner = b.emit(DType::I64, Op::Bin(Arith::Add, tid, h));
        let low = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, tid, h));
        let has = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, partner, count));
        let both = b.emit(DType::Bool, Op::Bin(Arith::BitAnd, low, has));
        b.begin();
        let mine = b.emit(dt, Op::Load(shared, vec![tid]));
        let theirs = b.emit(dt, Op::Load(shared, vec![partner]));
        let r = call(&mut b, mine, theirs)?;
        let r = b.cast(r, dt);
        b.emit_void(Op::Store(shared, vec![tid], r));
        let then = b.end();
        b.push(Stmt::If(both, then, vec![]));
        half /= 2;
    }
    let z = b.konst(Scalar::I64(0));
    let lead = b.emit(DType::Bool, Op::Cmp(Cmp::Eq, tid, z));
    b.begin();
    let total = b.emit(dt, Op::Load(shared, vec![z]));
    b.emit_void(Op::Store(ArrRef::Param(1), vec![bid], total));
    let then = b.end();
    b.push(Stmt::If(lead, then, vec![]));
    Ok(CompiledKernel::from_ir(b.finish()))
}

/// How [`partial_kernel`] splits `size > 0` values: elements per thread, threads holding a
/// value, and blocks (at most [`MAX_BLOCKS`], each with at least one valid thread).
pub fn split(size: usize) -> (usize, usize, usize) {
    split_into(size, MAX_BLOCKS)
}

/// [`split`] into at most `max_blocks` blocks.
pub fn split_into(size: usize, max_blocks: usize) -> (usize, usize, usize) {
    let per = size.div_ceil(BLOCK * max_blocks).max(1);
    let threads = size.div_ceil(per);
    (per, threads, threads.div_ceil(BLOCK))
}

/// A host copy of a reduction input (device arrays are copied back first).
fn host_input(rt: &mut Runtime, v: &Value, call: &str) -> PyResult<NdArray> {
    if let Value::Array(a) = v {
        return Ok(a.as_ref().clone());
    }
    if let Some(view) = crate::numba_cuda::interop::view_of(rt, v)? {
        let a = NdArray::zeros(&view.shape, view.dtype)
            .map_err(|e| PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes)))?;
        api::dtoh(
            rt,
            &view,
            &a,
            0,
            Transfer {
                explicit: false,
                call: call.into(),
            },
        )?;
        return Ok(a);
    }
    crate::py::ndarray_attrs::to_ndarray(rt, v)
}

fn fold(
    rt: &mut Runtime,
    func: &Rc<Function>,
    a: &NdArray,
    n: usize,
    init: Option<Scalar>,
) -> PyResult<Scalar> {
    let k = fold_kernel(func, a.dtype, init.is_some())?;
    let out = NdArray::zeros(&[1], a.dtype)
        .map_err(|e| PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes)))?;
    let args = vec![
        host_arg(a),
        host_arg(&out),
        KernelArg::Scalar(Scalar::I64(n as i64)),
        KernelArg::Scalar(init.unwrap_or(Scalar::I64(0)).cast(a.dtype)),
    ];
    let (_, printed) =
        crate::kernel::exec::run_single(&k.ir, &args).map_err(crate::device::api::fault_error)?;
    if !printed.printed.is_empty() {
        rt.print(&printed.printed);
    }
    let mut b = [0u8; 8];
    out.buf.read(0, &mut b[..a.dtype.itemsize()]);
    Ok(Scalar::from_bytes(a.dtype, &b))
}

/// `ufunc.reduce(arr, stream=0)`.
pub fn ufunc_reduce(
    rt: &mut Runtime,
    func: &Rc<Function>,
    _sigs: &[Signature],
    args: Args,
) -> PyResult<Value> {
    let a = args.bind("reduce", &["arr", "stream="])?;
    let arr = host_input(rt, a[0].as_ref().unwrap_or(&Value::None), &func.name)?;
    if arr.ndim() != 1 {
        return Err(PyErr::type_error("only support 1D array"));
    }
    if arr.size() == 0 {
        return Err(PyErr::type_error("Reduction on an empty array."));
    }
    let s = fold(rt, func, &arr, arr.size(), None)?;
    Ok(Value::Scalar(s))
}

/// The block-wise partial reduction and the final fold, for one dtype.
type KernelPair = (Arc<CompiledKernel>, Arc<CompiledKernel>);

/// `cuda.reduce(binop)`.
pub struct Reduce {
    pub func: Rc<Function>,
    /// The partial and final kernels, compiled once per dtype and input layout.
    kernels: RefCell<HashMap<(DType, bool), KernelPair>>,
}

impl Reduce {
    fn kernels(&self, dt: DType, contiguous: bool) -> PyResult<KernelPair> {
        if let Some(k) = self.kernels.borrow().get(&(dt, contiguous)) {
            return Ok(k.clone());
        }
        let layout = if contiguous { Layout::C } else { Layout::A };
        let k = (
            Arc::new(partial_kernel_for(&self.func, dt, layout)?),
            Arc::new(fold_kernel(&self.func, dt, true)?),
        );
        self.kernels
            .borrow_mut()
            .insert((dt, contiguous), k.clone());
        Ok(k)
    }

    /// Queue the reduction of `input[..size]` into `out[0]` on `stream`.
    fn queue(
        &self,
        rt: &mut Runtime,
        input: &crate::device::DeviceView,
        size: usize,
        init: Scalar,
        out: &crate::device::DeviceView,
        stream: crate::device::StreamId,
    ) -> PyResult<()> {
        let dt = input.dtype;
        let contiguous = input.shape.len() == 1
            && (input.shape[0] <= 1 || input.strides[0] == dt.itemsize() as isize);
        let (partial, fold) = self.kernels(dt, contiguous)?;
        let one = |n: usize| LaunchConfig {
            grid: [n as u32, 1, 1],
            block: [1, 1, 1],
            dynamic_shared_bytes: 0,
        };
        // With nothing to reduce the final pass folds zero values: the result is `init`.
        let (values, count) = if size == 0 {
            (input.clone(), 0)
        } else {
            let cpu = matches!(
                crate::device::state::device(rt)?,
                crate::device::backend::Device::Cpu(_)
            );
            let (per, threads, blocks) =
                split_into(size, if cpu { MAX_BLOCKS_CPU } else { MAX_BLOCKS });
            let partials = api::alloc(rt, &[blocks], dt, stream)?;
            let config = LaunchConfig {
                block: [BLOCK as u32, 1, 1],
                ..one(blocks)
            };
            let args = vec![
                input.kernel_arg(),
                partials.kernel_arg(),
                KernelArg::Scalar(Scalar::I64(size as i64)),
                KernelArg::Scalar(Scalar::I64(per as i64)),
                KernelArg::Scalar(Scalar::I64(threads as i64)),
            ];
            api::launch(rt, partial, config, args, stream)?;
            (partials, blocks)
        };
        let args = vec![
            values.kernel_arg(),
            out.kernel_arg(),
            KernelArg::Scalar(Scalar::I64(count as i64)),
            KernelArg::Scalar(init.cast(dt)),
        ];
        api::launch(rt, fold, one(1), args, stream)
    }
}

impl Object for Reduce {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "Reduce".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.kernels.reduction".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let a = args.bind(
            "Reduce.__call__",
            &["arr", "size=", "res=", "init=", "stream="],
        )?;
        let stream = crate::numba_cuda::stream_objects::parse_stream(rt, a[4].as_ref())?;
        let arg = a[0].clone().unwrap_or(Value::None);
        let name = self.func.name.clone();
        // Host data is copied in (as Numba does); device data is reduced where it is.
        let input = match crate::numba_cuda::interop::view_of(rt, &arg)? {
            Some(v) => v,
            None => {
                let host = crate::py::ndarray_attrs::to_ndarray(rt, &arg)?;
                if host.ndim() != 1 {
                    return Err(PyErr::type_error("only support 1D array"));
                }
                api::implicit_to_device(rt, &host, stream, &name)?
            }
        };
        if input.shape.len() != 1 {
            return Err(PyErr::type_error("only support 1D array"));
        }
        let dt = input.dtype;
        let size = match &a[1] {
            Some(Value::None) | None => input.size(),
            Some(v) => (v.as_index()?.max(0) as usize).min(input.size()),
        };
        let init = match &a[3] {
            None | Some(Value::None) => Scalar::I64(0),
            Some(v) => crate::numba::compile::typeof_scalar(v)
                .ok_or_else(|| PyErr::type_error("init must be a number"))?,
        };
        match &a[2] {
            None | Some(Value::None) => {
                let out = api::alloc(rt, &[1], dt, stream)?;
                self.queue(rt, &input, size, init, &out, stream)?;
                let host = NdArray::zeros(&[1], dt).map_err(|e| {
                    PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes))
                })?;
                api::implicit_to_host(rt, &out, &host, stream, &name)?;
                let mut b = [0u8; 8];
                host.buf.read(0, &mut b[..dt.itemsize()]);
                Ok(Value::Scalar(Scalar::from_bytes(dt, &b)))
            }
            Some(res) => {
                let Some(mut view) = crate::numba_cuda::interop::view_of(rt, res)? else {
                    return Err(PyErr::type_error("res must be a device array")
                        .with_hint("Pass an array made by cuda.device_array(1, dtype=...)."));
                };
                if view.dtype != dt || view.size() == 0 {
                    return Err(PyErr::type_error(format!(
                        "res must be a non-empty device array of dtype {}, got dtype {} with {} elements",
                        dt.name(),
                        view.dtype.name(),
                        view.size()
                    )));
                }
                view.shape = vec![1];
                view.strides = vec![dt.itemsize() as isize];
                self.queue(rt, &input, size, init, &view, stream)?;
                Ok(Value::None)
            }
        }
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" => Some(Value::str(&self.func.name)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn make_reduce(_rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let v = b.value(0);
    let func = as_function(&v)
        .or_else(|| device_function(&v))
        .or_else(|| v.downcast::<CudaKernel>().map(|k| k.func.clone()))
        .ok_or_else(|| {
            PyErr::type_error(format!(
                "cuda.reduce needs a binary function, got {}",
                v.type_name()
            ))
        })?;
    if func.param_names().len() != 2 {
        return Err(PyErr::type_error(format!(
            "the reduction function {} must take exactly 2 arguments",
            func.name
        )));
    }
    Ok(Value::object(Reduce {
        func,
        kernels: RefCell::new(HashMap::new()),
    }))
}

pub fn register(cuda: &Module) {
    let doc =
        "Build a reduction from a binary function: r(arr, size=None, res=None, init=0, stream=0).";
    cuda.def(Style::Function, "reduce", "functor", doc, make_reduce);
    cuda.def(Style::Function, "Reduce", "functor", doc, make_reduce);
}
