//! `@vectorize`: element-wise functions compiled into a 1-D kernel over the broadcast
//! output (`i = cuda.grid(1); out[idx(i)] = f(in0[idx(i)], ...)`), for `target='cuda'`
//! (through the device) and `'cpu'`/`'parallel'` (on host arrays directly).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::device::api::{self, Transfer};
use crate::device::DeviceView;
use crate::kernel::abi::{ArgMem, ArrayArg, KernelArg, LaunchConfig};
use crate::kernel::types::{self, Signature, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::compile::typeof_scalar;
use crate::numba::dispatch::as_function;
use crate::numba::launch::{host_arg, run_on_host};
use crate::numba::numba_types::signatures_from;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::signature::Style;
use crate::py::value::{Args, Module, Object, Value};

use crate::numba::vectorize_kernel::{bstrides, Kernels};
pub use crate::numba::vectorize_kernel::{build_kernel, InKind};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    Cuda,
    Cpu,
    Parallel,
}

type CacheKey = (Vec<InKind>, Vec<DType>, usize);

pub struct UFunc {
    pub func: Rc<Function>,
    pub sigs: Vec<Signature>,
    pub target: Target,
    cache: RefCell<Vec<(CacheKey, Arc<CompiledKernel>)>>,
}

const NO_MATCH: &str = "No matching version.  GPU ufunc requires array arguments to have the exact types.  This behaves like regular ufunc with casting='no'.";

enum Input {
    Scalar(Scalar, bool),
    Host(NdArray),
    Device(DeviceView),
}

impl UFunc {
    fn name(&self) -> &str {
        &self.func.name
    }

    fn kernel(
        &self,
        ins: &[InKind],
        arg_tys: &[DType],
        ret: Option<DType>,
        ndim: usize,
    ) -> PyResult<Arc<CompiledKernel>> {
        let key: CacheKey = (ins.to_vec(), arg_tys.to_vec(), ndim);
        if let Some((_, k)) = self.cache.borrow().iter().find(|(k, _)| *k == key) {
            return Ok(k.clone());
        }
        let k = Arc::new(build_kernel(&self.func, ins, arg_tys, ret, ndim)?);
        self.cache.borrow_mut().push((key, k.clone()));
        Ok(k)
    }

    /// Pick the signature: exact dtypes for CUDA, NumPy's safe casting for CPU targets.
    fn select(&self, inputs: &[Input]) -> PyResult<(Vec<DType>, Option<DType>)> {
        let dts: Vec<(DType, bool)> = inputs
            .iter()
            .map(|i| match i {
                Input::Scalar(s, py) => (s.dtype(), *py),
                Input::Host(a) => (a.dtype, false),
                Input::Device(v) => (v.dtype, false),
            })
            .collect();
        if self.sigs.is_empty() {
            if self.target == Target::Cuda {
                return Err(PyErr::type_error("CUDA @vectorize needs explicit signatures, e.g. @vectorize(['float32(float32, float32)'], target='cuda')"));
            }
            return Ok((dts.iter().map(|d| d.0).collect(), None));
        }
        let scalar_dt = |t: &Ty| match t {
            Ty::Scalar(d) => Some(*d),
            _ => None,
        };
        let pick = |s: &Signature| {
            let args = s
                .args
                .iter()
                .map(|t| scalar_dt(t).unwrap_or(DType::F64))
                .collect();
            (args, s.ret.as_ref().and_then(scalar_dt))
        };
        let arity = |s: &&Signature| s.args.len() == inputs.len();
        if self.target == Target::Cuda {
            // Numba's CUDA ufuncs: exact types, Python scalars typed as NumPy would
            // (int64, float64, bool); failing that, a Python scalar matches any loop, and
            // more than one such loop is ambiguous.
            let exact: Vec<&Signature> = self
                .sigs
                .iter()
                .filter(arity)
                .filter(|s| {
                    s.args
                        .iter()
                        .zip(&dts)
                        .all(|(t, (d, _))| scalar_dt(t) == Some(*d))
                })
                .collect();
            let matches = if exact.is_empty() {
                self.sigs
                    .iter()
                    .filter(arity)
                    .filter(|s| {
                        s.args
                            .iter()
                            .zip(&dts)
                            .all(|(t, (d, py))| scalar_dt(t).is_some_and(|sd| *py || sd == *d))
                    })
                    .collect()
            } else {
                exact
            };
            return match matches.as_slice() {
                [one] => Ok(pick(one)),
                [] => Err(PyErr::type_error(NO_MATCH)),
                _ => Err(PyErr::type_error(
                    "Failed to resolve ufunc due to ambiguous signature. Too many untyped scalars. Use numpy dtype object to type tag.",
                )),
            };
        }
        for s in self.sigs.iter().filter(arity) {
            // NumPy's weak Python scalars: an int fits any numeric loop, a float only an
            // inexact one.
            let ok = s
                .args
                .iter()
                .zip(&dts)
                .all(|(t, (d, py))| match scalar_dt(t) {
                    Some(sd) if *py => !d.is_float() || sd.is_float(),
                    Some(sd) => types::promote(*d, sd) == sd,
                    None => false,
                });
            if ok {
                return Ok(pick(s));
            }
        }
        if self.target == Target::Cuda {
            Err(PyErr::type_error(NO_MATCH))
        } else {
            let names: Vec<&str> = dts.iter().map(|d| d.0.name()).collect();
            Err(PyErr::type_error(format!(
                "ufunc '{}' not supported for the input types ({}), and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                self.name(),
                names.join(", ")
            )))
        }
    }

    fn call_impl(&self, rt: &mut Runtime, args: Args) -> PyResult<Value> {
        let nin = self.func.param_names().len();
        let mut out_v = None;
        let mut stream_v = None;
        for (k, v) in &args.kw {
            match &**k {
                "out" => out_v = Some(v.clone()),
                "stream" => stream_v = Some(v.clone()),
                other => {
                    return Err(PyErr::type_error(format!(
                        "{}() got an unexpected keyword argument '{other}'",
                        self.name()
                    )))
                }
            }
        }
        let mut pos = args.pos.clone();
        if pos.len() == nin + 1 && out_v.is_none() {
            out_v = pos.pop();
        }
        if pos.len() != nin {
            return Err(PyErr::type_error(format!(
                "{}() takes {nin} positional arguments but {} were given",
                self.name(),
                pos.len()
            )));
        }
        let stream = crate::numba_cuda::stream_objects::parse_stream(rt, stream_v.as_ref())?;
        let mut inputs = Vec::new();
        for v in &pos {
            inputs.push(match v {
                Value::Int(_) | Value::Float(_) | Value::Bool(_) => Input::Scalar(typeof_scalar(v).unwrap_or(Scalar::I64(0)), true),
                Value::Scalar(s) => Input::Scalar(*s, false),
                Value::Array(a) => Input::Host(a.as_ref().clone()),
                other => match crate::numba_cuda::interop::view_of(rt, other)? {
                    Some(view) if self.target == Target::Cuda => Input::Device(view),
                    Some(_) => {
                        return Err(PyErr::type_error(format!(
                            "{}() runs on the host (target='{}') but got a device array; copy it with .copy_to_host() or use target='cuda'",
                            self.name(),
                            if self.target == Target::Cpu { "cpu" } else { "parallel" }
                        )))
                    }
                    None => Input::Host(crate::py::ndarray_attrs::to_ndarray(rt, other)?),
                },
            });
        }
        let (arg_tys, ret) = self.select(&inputs)?;
        // The kernels know no float16: such inputs are cast on the host to the chosen
        // signature's type first, as NumPy's ufunc loops cast their inputs.
        for (i, t) in inputs.iter_mut().zip(&arg_tys) {
            match i {
                Input::Host(a) if a.dtype.is_host_only() => *a = crate::arrays::elem::cast(a, *t)?,
                Input::Scalar(s, false) if s.dtype().is_host_only() => *s = s.cast(*t),
                _ => {}
            }
        }
        let all_scalar = inputs.iter().all(|i| matches!(i, Input::Scalar(..)));
        let shapes: Vec<Vec<usize>> = inputs
            .iter()
            .filter_map(|i| match i {
                Input::Host(a) => Some(a.shape.clone()),
                Input::Device(v) => Some(v.shape.clone()),
                Input::Scalar(..) => None,
            })
            .collect();
        let views: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        let mut shape = crate::arrays::elem::broadcast_shapes(&views)?;
        if shape.is_empty() {
            shape = vec![1];
        }
        // The executors address at most 3 axes: more run over the elements in C order,
        // every operand made C-contiguous over the full shape.
        let high = shape.len() > 3;
        if high {
            flat_operands(rt, &mut inputs, out_v.as_ref(), &shape)?;
        }
        let ins: Vec<InKind> = inputs
            .iter()
            .zip(&arg_tys)
            .map(|(i, t)| match i {
                // Python numbers are converted to the signature's type on the host.
                Input::Scalar(_, true) => InKind::Scalar(*t),
                Input::Scalar(s, false) => InKind::Scalar(s.dtype()),
                Input::Host(a) => InKind::Array(a.dtype),
                Input::Device(v) => InKind::Array(v.dtype),
            })
            .collect();
        let k = Kernels {
            nd: self.kernel(&ins, &arg_tys, ret, if high { 1 } else { shape.len() })?,
            flat: if shape.len() > 1 {
                Some(self.kernel(&ins, &arg_tys, ret, 1)?)
            } else {
                None
            },
        };
        let out_dt = match k.nd.ir.params.last() {
            Some(Ty::Array { dtype, .. }) => *dtype,
            _ => DType::F64,
        };
        let n: usize = shape.iter().product();
        let block = 256.min(n.max(1)) as u32;
        let config = LaunchConfig {
            grid: [n.div_ceil(block as usize).max(1) as u32, 1, 1],
            block: [block, 1, 1],
            dynamic_shared_bytes: 0,
        };
        let scal = |i: &Input, t: &InKind| -> KernelArg {
            match (i, t) {
                (Input::Scalar(s, _), InKind::Scalar(d)) => KernelArg::Scalar(s.cast(*d)),
                _ => KernelArg::Scalar(Scalar::I64(0)),
            }
        };
        let any_device = inputs.iter().any(|i| matches!(i, Input::Device(_)))
            || out_v
                .as_ref()
                .is_some_and(|o| !matches!(o, Value::Array(_)));
        if self.target == Target::Cuda {
            match self.run_device(
                rt,
                &k,
                &inputs,
                &ins,
                &shape,
                out_dt,
                out_v.as_ref(),
                stream,
                config,
                any_device,
            )? {
                Some(v) => return Ok(v),
                None if any_device => {
                    return Err(PyErr::not_implemented("device arrays need the devices API"))
                }
                None => {}
            }
        }
        // Host execution.
        let out =
            match &out_v {
                Some(Value::Array(o)) => {
                    if o.shape != shape || o.dtype != out_dt {
                        return Err(PyErr::value_error(format!(
                            "out must have shape {:?} and dtype {}, got {:?} {}",
                            shape,
                            out_dt.name(),
                            o.shape,
                            o.dtype.name()
                        )));
                    }
                    o.clone()
                }
                Some(other) => {
                    return Err(PyErr::type_error(format!(
                        "out must be an array, got {}",
                        other.type_name()
                    )))
                }
                None => Box::new(NdArray::zeros(&shape, out_dt).map_err(|e| {
                    PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes))
                })?),
            };
        let mut kargs = Vec::new();
        for (i, t) in inputs.iter().zip(&ins) {
            kargs.push(match i {
                Input::Host(a) => {
                    let mut v = a.clone();
                    v.strides = bstrides(&a.shape, &a.strides, &shape);
                    v.shape = shape.clone();
                    host_arg(&v)
                }
                _ => scal(i, t),
            });
        }
        kargs.push(host_arg(&out));
        if n > 0 {
            let k = k.pick(&mut kargs);
            run_on_host(rt, &k, &config, &kargs)?;
        }
        if all_scalar && self.target != Target::Cuda && out_v.is_none() {
            let bits = out.to_f64_vec()[0];
            return Ok(Value::Scalar(Scalar::F64(bits).cast(out_dt)));
        }
        Ok(Value::Array(out))
    }

    #[allow(clippy::too_many_arguments)]
    fn run_device(
        &self,
        rt: &mut Runtime,
        k: &Kernels,
        inputs: &[Input],
        ins: &[InKind],
        shape: &[usize],
        out_dt: DType,
        out_v: Option<&Value>,
        stream: u64,
        config: LaunchConfig,
        any_device: bool,
    ) -> PyResult<Option<Value>> {
        let why = || Transfer {
            explicit: false,
            call: self.name().to_string(),
        };
        let dev_arg = |v: &DeviceView| -> KernelArg {
            KernelArg::Array(ArrayArg {
                mem: ArgMem::Device(v.alloc.clone()),
                offset: v.offset,
                shape: shape.to_vec(),
                strides: bstrides(&v.shape, &v.strides, shape),
                dtype: v.dtype,
            })
        };
        let mut kargs = Vec::new();
        for (i, t) in inputs.iter().zip(ins) {
            match i {
                Input::Device(v) => kargs.push(dev_arg(v)),
                Input::Host(a) => {
                    let view = api::alloc(rt, &a.shape, a.dtype, stream)?;
                    api::htod(rt, a, &view, stream, why())?;
                    kargs.push(dev_arg(&view));
                }
                Input::Scalar(s, _) => kargs.push(KernelArg::Scalar(match t {
                    InKind::Scalar(d) => s.cast(*d),
                    _ => *s,
                })),
            }
        }
        let (out_view, host_out) = match out_v {
            Some(Value::Array(o)) => {
                let v = api::alloc(rt, &o.shape, o.dtype, stream)?;
                (v, Some(o.clone()))
            }
            Some(other) => match crate::numba_cuda::interop::view_of(rt, other)? {
                Some(v) => (v, None),
                None => {
                    return Err(PyErr::type_error(format!(
                        "out must be an array, got {}",
                        other.type_name()
                    )))
                }
            },
            None => {
                let v = api::alloc(rt, shape, out_dt, stream)?;
                (v, None)
            }
        };
        if out_view.shape != shape || out_view.dtype != out_dt {
            return Err(PyErr::value_error(format!(
                "out must have shape {:?} and dtype {}, got {:?} {}",
                shape,
                out_dt.name(),
                out_view.shape,
                out_view.dtype.name()
            )));
        }
        kargs.push(out_view.kernel_arg());
        let n: usize = shape.iter().product();
        if n > 0 {
            let k = k.pick(&mut kargs);
            api::launch(rt, k, config, kargs, stream)?;
        }
        if any_device {
            if let Some(o) = host_out {
                api::dtoh(rt, &out_view, &o, stream, why())?;
                return Ok(Some(Value::Array(o)));
            }
            return Ok(Some(crate::numba_cuda::devicearray::DeviceNDArray::value(
                out_view,
            )));
        }
        let o =
            match host_out {
                Some(o) => o,
                None => Box::new(NdArray::zeros(shape, out_dt).map_err(|e| {
                    PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes))
                })?),
            };
        api::dtoh(rt, &out_view, &o, 0, why())?;
        Ok(Some(Value::Array(o)))
    }
}

/// Make every array operand of a ufunc over more than 3 dimensions C-contiguous over the
/// full `shape` (host arrays by a copy), so the launch can view them all as 1-D.
fn flat_operands(
    rt: &mut Runtime,
    inputs: &mut [Input],
    out: Option<&Value>,
    shape: &[usize],
) -> PyResult<()> {
    let refuse = || {
        PyErr::not_implemented(
            "nbcuda ufuncs over more than 3 dimensions need C-contiguous device arrays (and out) of the full shape",
        )
    };
    let full_c = |sh: &[usize], st: &[isize], d: DType| {
        sh == shape && crate::arrays::contiguous(sh, st, d.itemsize(), true)
    };
    for i in inputs.iter_mut() {
        match i {
            Input::Host(a) if !full_c(&a.shape, &a.strides, a.dtype) => {
                let b = crate::arrays::elem::broadcast_to(a, shape)?;
                *a = crate::arrays::elem::contiguous_copy(&b)?;
            }
            Input::Device(v) if !full_c(&v.shape, &v.strides, v.dtype) => return Err(refuse()),
            _ => {}
        }
    }
    match out {
        None => Ok(()),
        Some(Value::Array(o)) if !full_c(&o.shape, &o.strides, o.dtype) => Err(refuse()),
        Some(Value::Array(_)) => Ok(()),
        Some(other) => match crate::numba_cuda::interop::view_of(rt, other)? {
            Some(v) if !full_c(&v.shape, &v.strides, v.dtype) => Err(refuse()),
            _ => Ok(()),
        },
    }
}

impl Object for UFunc {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        match self.target {
            Target::Cuda => "CUDAUFuncDispatcher".into(),
            _ => "DUFunc".into(),
        }
    }
    fn module_name(&self) -> String {
        match self.target {
            Target::Cuda => "numba.cuda.vectorizers".into(),
            _ => "numba.np.ufunc.dufunc".into(),
        }
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(match self.target {
            Target::Cuda => format!(
                "<numba.cuda.vectorizers.CUDAUFuncDispatcher object at {:#x}>",
                self as *const Self as usize
            ),
            _ => format!("<numba._DUFunc '{}'>", self.name()),
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        self.call_impl(rt, args)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" => Some(Value::str(self.name())),
            "nin" => Some(Value::Int(self.func.param_names().len() as i64)),
            "nout" => Some(Value::Int(1)),
            "reduce" => Some(Value::method(
                &self,
                "ufunc.reduce",
                "reduce(arr, stream=0)",
                "Reduce a 1-D array with this binary ufunc.",
                |u, rt, args| crate::numba::cuda_reduce::ufunc_reduce(rt, &u.func, &u.sigs, args),
            )),
            "inspect_asm" | "inspect_cuda" if self.target == Target::Cuda => {
                let asm = name == "inspect_asm";
                Some(Value::method(
                    &self,
                    "CUDAUFuncDispatcher.inspect_asm",
                    "inspect_asm(signature=None)",
                    "The generated CUDA C (inspect_cuda) or PTX (inspect_asm) of each signature.",
                    move |u, _rt, args| {
                        let a = args.bind("inspect_asm", &["signature="])?;
                        let entries = crate::numba::inspect_asm::inlined_entries(
                            &u.func, &u.sigs, "a ufunc",
                        )?;
                        crate::numba::inspect_asm::inspect(&entries, asm, a[0].as_ref())
                    },
                ))
            }
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn parse_target(v: &Value) -> PyResult<Target> {
    match v.as_str() {
        Some("cuda") | Some("gpu") => Ok(Target::Cuda),
        Some("cpu") => Ok(Target::Cpu),
        Some("parallel") => Ok(Target::Parallel),
        _ => Err(PyErr::value_error(format!(
            "Unsupported target: {v:?} (use 'cpu', 'parallel' or 'cuda')"
        ))),
    }
}

/// `vectorize(sigs, target=...)` as a decorator (or applied to a function directly).
fn vectorize(default: Target) -> impl Fn(&mut Runtime, Args) -> PyResult<Value> {
    move |_rt, args| {
        let make = |f: Rc<Function>, sigs: Vec<Signature>, target: Target| -> PyResult<Value> {
            let u = UFunc {
                func: f,
                sigs,
                target,
                cache: RefCell::new(Vec::new()),
            };
            if target == Target::Cuda && u.sigs.is_empty() {
                return Err(PyErr::type_error("CUDA @vectorize needs explicit signatures, e.g. @vectorize(['float32(float32, float32)'], target='cuda')"));
            }
            Ok(Value::object(u))
        };
        let mut target = default;
        let mut sigs = Vec::new();
        for (k, v) in &args.kw {
            match &**k {
                "target" => target = parse_target(v)?,
                "signatures" | "ftylist" => sigs = signatures_from(v)?,
                "identity" | "cache" | "nopython" | "fastmath" | "forceobj" => {}
                // Numba rejects unknown options with a KeyError listing them.
                other => {
                    return Err(PyErr::new(
                        "KeyError",
                        format!("Unrecognized options: {{'{other}'}}. vectorize() accepts target, signatures, identity, cache, nopython, fastmath and forceobj"),
                    ))
                }
            }
        }
        if let Some(first) = args.pos.first() {
            if let Some(f) = as_function(first) {
                return make(f, sigs, target);
            }
            sigs = signatures_from(first)?;
        }
        Ok(Value::builtin(
            "numba.vectorize.<decorator>",
            "decorator(func)",
            "Build a ufunc from a scalar function.",
            move |_rt, a| {
                let f = a.pos.first().and_then(as_function).ok_or_else(|| {
                    PyErr::type_error("@vectorize decorates a function defined with def")
                })?;
                make(f, sigs.clone(), target)
            },
        ))
    }
}

pub fn register(m: &Module, cuda: bool) {
    let doc =
        "Compile a scalar function into a NumPy-style ufunc (target 'cpu', 'parallel' or 'cuda').";
    // `vectorize` sorts out its options itself, as Numba's does from `**kws`.
    let (shown, target) = if cuda {
        ("vectorize(signatures, **kwargs)", Target::Cuda)
    } else {
        (
            "vectorize(signatures=None, target='cpu', identity=None, cache=False)",
            Target::Cpu,
        )
    };
    let f = vectorize(target);
    m.def_shown(
        Style::Function,
        "vectorize",
        "ftylist_or_function=(), **kws",
        shown,
        doc,
        move |rt, b| f(rt, b.forward_all()),
    );
    if !cuda {
        crate::numba::guvectorize::register(m, false);
    }
}
