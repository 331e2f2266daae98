//! Reductions with a binary device function: `cuda.reduce(binop)` / `cuda.Reduce`, and
//! `ufunc.reduce`. The fold is compiled from the same IR (one thread folding the array).

use std::any::Any;
use std::rc::Rc;

use crate::arrays::{DType, NdArray, Scalar};
use crate::compiler::builder::Builder;
use crate::compiler::dispatch::{as_function, device_function, CudaKernel};
use crate::compiler::frontend::{FnCtx, FnKind, Val};
use crate::compiler::ir::{ArrRef, Bin, Cmp, Op, Stmt};
use crate::compiler::launch::host_arg;
use crate::compiler::types::{Layout, Signature, Ty};
use crate::compiler::{CompiledKernel, KernelArg};
use crate::devices::api::{self, Transfer};
use crate::language::function::Function;
use crate::language::{Args, Module, Object, PyErr, PyResult, Runtime, Value};

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
    let j = b.new_reg(DType::I64);
    b.emit_to(j, Op::Copy(start));
    let id = b.new_loop_id();
    b.begin();
    let c = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, j, n));
    b.push(Stmt::If(c, vec![], vec![Stmt::Break(id)]));
    let x = b.emit(dt, Op::Load(arr, vec![j]));
    let r = crate::compiler::frontend_calls::inline_call(
        &mut b,
        &mut cx,
        func.clone(),
        vec![Val::Reg(acc), Val::Reg(x)],
        Vec::new(),
        range,
    )?;
    let Val::Reg(r) = r else {
        return Err(cx.typing("a reduction function must return a number", range));
    };
    b.assign(acc, r);
    let one = b.konst(Scalar::I64(1));
    let nj = b.emit(DType::I64, Op::Bin(Bin::Add, j, one));
    b.emit_to(j, Op::Copy(nj));
    let body = b.end();
    b.push(Stmt::Loop {
        id,
        body,
        latch: vec![],
    });
    let zero = b.konst(Scalar::I64(0));
    b.emit_void(Op::Store(ArrRef::Param(1), vec![zero], acc));
    Ok(CompiledKernel::from_ir(b.finish()))
}

/// A host copy of a reduction input (device arrays are copied back first).
fn host_input(rt: &mut Runtime, v: &Value, call: &str) -> PyResult<NdArray> {
    if let Value::Array(a) = v {
        return Ok(a.clone());
    }
    if let Some(view) = api::device_view(rt, v)? {
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
    crate::arrays::pyapi::to_ndarray(rt, v)
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
    let (_, printed) = crate::compiler::exec::run_single(&k.ir, &args)
        .map_err(|f| PyErr::new(&f.ename, f.message))?;
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

/// `cuda.reduce(binop)`.
pub struct Reduce {
    pub func: Rc<Function>,
}

impl Object for Reduce {
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
        let arr = host_input(rt, a[0].as_ref().unwrap_or(&Value::None), &self.func.name)?;
        if arr.ndim() != 1 {
            return Err(PyErr::type_error("only support 1D array"));
        }
        let size = match &a[1] {
            Some(Value::None) | None => arr.size(),
            Some(v) => (v.as_index()?.max(0) as usize).min(arr.size()),
        };
        let init = match &a[3] {
            None | Some(Value::None) => Scalar::I64(0),
            Some(v) => crate::compiler::compile::typeof_scalar(v)
                .ok_or_else(|| PyErr::type_error("init must be a number"))?,
        };
        let result = if size == 0 {
            init.cast(arr.dtype)
        } else {
            fold(rt, &self.func, &arr, size, Some(init))?
        };
        match &a[2] {
            None | Some(Value::None) => Ok(Value::Scalar(result)),
            Some(res) => {
                let Some(mut view) = api::device_view(rt, res)? else {
                    return Err(PyErr::type_error("res must be a device array"));
                };
                let host = NdArray::zeros(&[1], view.dtype).map_err(|e| {
                    PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes))
                })?;
                host.buf.write(0, &result.cast(view.dtype).to_bytes());
                view.shape = vec![1];
                view.strides = vec![view.dtype.itemsize() as isize];
                let stream = api::parse_stream(rt, a[4].as_ref())?;
                api::htod(
                    rt,
                    &host,
                    &view,
                    stream,
                    Transfer {
                        explicit: false,
                        call: self.func.name.clone(),
                    },
                )?;
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

fn make_reduce(_rt: &mut Runtime, args: Args) -> PyResult<Value> {
    let a = args.bind("reduce", &["binop"])?;
    let v = a[0].clone().unwrap_or(Value::None);
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
    Ok(Value::object(Reduce { func }))
}

pub fn register(cuda: &Module) {
    let doc =
        "Build a reduction from a binary function: r(arr, size=None, res=None, init=0, stream=0).";
    cuda.func("reduce", "reduce(binop)", doc, make_reduce);
    cuda.func("Reduce", "Reduce(functor)", doc, make_reduce);
}
