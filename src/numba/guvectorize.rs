//! `@guvectorize` (basic): generalized ufuncs with a layout such as `'(n),(n)->(n)'` or
//! `'(n)->()'`. One thread per element of a single loop dimension; each thread calls the
//! function on row views of the arguments. Every target runs on the executor over host
//! arrays: device arrays are copied to the host and back around the run (so a CUDA gufunc
//! on device arrays returns device arrays), and several loop dimensions are folded into
//! one.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::Cmp;
use crate::arrays::NdArray;
use crate::kernel::abi::{KernelArg, LaunchConfig};
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, Op, Special, Stmt};
use crate::kernel::types::{self, Layout, Signature, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::compile::typeof_scalar;
use crate::numba::dispatch::as_function;
use crate::numba::frontend::{FnCtx, FnKind, Val};
use crate::numba::launch::{host_arg, run_on_host};
use crate::numba::numba_types::signatures_from;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::signature::Style;
use crate::py::value::{Args, Module, Object, Value};

/// Core dimension names of each input and output: `'(n),(n)->()'`.
/// Core dimension names of each argument.
pub type CoreDims = Vec<Vec<String>>;

pub fn parse_layout(s: &str) -> PyResult<(CoreDims, CoreDims)> {
    let bad = || {
        PyErr::value_error(format!(
            "bad gufunc layout {s:?}: expected e.g. '(n),(n)->(n)'"
        ))
    };
    let (ins, outs) = s.split_once("->").ok_or_else(bad)?;
    let groups = |t: &str| -> PyResult<CoreDims> {
        let mut out = Vec::new();
        let mut rest = t.trim();
        while !rest.is_empty() {
            let r = rest.strip_prefix('(').ok_or_else(bad)?;
            let close = r.find(')').ok_or_else(bad)?;
            let names = r[..close]
                .split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect();
            out.push(names);
            rest = r[close + 1..].trim().trim_start_matches(',').trim();
        }
        Ok(out)
    };
    Ok((groups(ins)?, groups(outs)?))
}

pub struct GUFunc {
    pub func: Rc<Function>,
    pub sigs: Vec<Signature>,
    pub ins: Vec<Vec<String>>,
    pub outs: Vec<Vec<String>>,
    /// Built for `target='cuda'`: signatures are chosen as Numba's CUDA gufuncs choose them.
    pub cuda: bool,
}

/// The kernel: thread `i` calls `func(arg0[i], arg1[i], ...)` on row views (or the whole
/// arrays when there is no loop dimension).
pub fn build(
    func: &Rc<Function>,
    params: &[Ty],
    looped: bool,
    n_loop_arg: usize,
) -> PyResult<CompiledKernel> {
    let mut b = Builder::new(&func.name, params.to_vec());
    let mut cx = FnCtx::new(func.clone(), FnKind::Kernel, 0);
    use ruff_text_size::Ranged;
    let range = func.def.range();
    cx.set_loc(&mut b, func.def.name.range);
    let i = b.emit(DType::I64, Op::Special(Special::GlobalId(0)));
    let n = if looped {
        b.emit(DType::I64, Op::Dim(ArrRef::Param(n_loop_arg as u32), 0))
    } else {
        b.konst(Scalar::I64(1))
    };
    let cond = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, i, n));
    b.begin();
    let mut vals = Vec::new();
    for (j, t) in params.iter().enumerate() {
        vals.push(match t {
            Ty::Scalar(d) => Val::Reg(b.emit(*d, Op::Param(j as u32))),
            Ty::Array { dtype, ndim, .. } if looped => crate::numba::frontend::views::ArrView::row(
                ArrRef::Param(j as u32),
                *dtype,
                *ndim,
                i,
            )
            .into_val(),
            Ty::Array { dtype, ndim, .. } => Val::Array(ArrRef::Param(j as u32), *dtype, *ndim),
            Ty::Void => Val::None,
        });
    }
    crate::numba::frontend::inline::inline_call(
        &mut b,
        &mut cx,
        func.clone(),
        vals,
        Vec::new(),
        range,
    )?;
    let body = b.end();
    b.push(Stmt::If(cond, body, vec![]));
    Ok(CompiledKernel::from_ir(b.finish()))
}

impl GUFunc {
    /// The loop for these input dtypes (`None`: a Python scalar). NumPy's gufuncs take the
    /// first signature every input casts to safely. Numba's CUDA gufuncs take an exact match,
    /// else the first signature whose types cast safely *to the inputs'* (the direction
    /// Numba's `_search_matching_signature` uses, so float64 data reaches a float32 loop).
    fn pick_signature(&self, in_dt: &[Option<DType>]) -> Option<&Signature> {
        let nargs = self.ins.len() + self.outs.len();
        let fits = |s: &&Signature, rule: &dyn Fn(DType, DType) -> bool| {
            s.args.len() == nargs
                && s.args.iter().zip(in_dt).all(|(t, d)| match (t, d) {
                    (Ty::Array { dtype, .. } | Ty::Scalar(dtype), Some(d)) => rule(*d, *dtype),
                    (Ty::Scalar(_), None) => true,
                    _ => false,
                })
        };
        if !self.cuda {
            return self
                .sigs
                .iter()
                .find(|s| fits(s, &|d, t| types::promote(d, t) == t));
        }
        self.sigs
            .iter()
            .find(|s| fits(s, &|d, t| d == t))
            .or_else(|| {
                self.sigs
                    .iter()
                    .find(|s| fits(s, &|d, t| types::promote(t, d) == d))
            })
    }

    /// What surrounds the executor run: device arrays are copied to the host and the
    /// outputs copied back (returned as device arrays when any argument was one, as
    /// Numba's CUDA gufuncs do), and several loop dimensions are folded into one.
    fn call_outer(&self, rt: &mut Runtime, args: Args) -> PyResult<Value> {
        let (nin, nout) = (self.ins.len(), self.outs.len());
        let stream_v = args.kwarg("stream").cloned();
        let stream = crate::numba_cuda::stream_objects::parse_stream(rt, stream_v.as_ref())?;
        let mut pos = args.pos.clone();
        let mut kw = Vec::new();
        if args.kwarg("out").is_some() && pos.len() > nin {
            return Err(PyErr::value_error(
                "cannot specify argument 'out' as both positional and keyword",
            ));
        }
        for (k, v) in &args.kw {
            match (&**k, v) {
                ("out", Value::Tuple(t)) => pos.extend(t.iter().cloned()),
                ("out", other) => pos.push(other.clone()),
                ("stream", _) => {}
                _ => kw.push((k.clone(), v.clone())),
            }
        }
        if pos.len() != nin && pos.len() != nin + nout {
            let n = pos.len();
            return Err(PyErr::type_error(format!(
                "gufunc accepts {nin} positional arguments (for inputs) or {} positional arguments (for inputs and outputs). Got {n} positional argument{}.",
                nin + nout,
                if n == 1 { "" } else { "s" }
            )));
        }
        let mut on_device = false;
        let mut device_outs: Vec<Option<Value>> = Vec::new();
        let mut device_ins = vec![false; nin]; // bounded: one flag per declared input
        for (i, v) in pos.iter_mut().enumerate() {
            let view = crate::numba_cuda::interop::view_of(rt, v)?;
            if i >= nin {
                device_outs.push(view.as_ref().map(|_| v.clone()));
            }
            if let Some(view) = view {
                on_device = true;
                if i < nin {
                    device_ins[i] = true;
                }
                *v = crate::numba_cuda::devicearray::copy_to_host(
                    rt,
                    &view,
                    None,
                    stream_v.as_ref(),
                )?;
            }
        }
        // Loop dimensions beyond the first are folded into it.
        let mut outer: Option<Vec<usize>> = None;
        for (j, v) in pos.iter_mut().enumerate() {
            let core = if j < nin {
                self.ins[j].len()
            } else {
                self.outs[j - nin].len()
            };
            let Value::Array(a) = &*v else { continue };
            if a.ndim() <= core + 1 {
                continue;
            }
            let o = a.shape[..a.ndim() - core].to_vec();
            let mut shape = vec![o.iter().product::<usize>() as isize];
            shape.extend(a.shape[a.ndim() - core..].iter().map(|&d| d as isize));
            let folded = crate::py::ndarray_shape::reshape(a, &shape)?;
            if j >= nin && !std::sync::Arc::ptr_eq(&folded.buf, &a.buf) {
                return Err(PyErr::not_implemented(
                    "nbcuda's gufuncs need C-contiguous output arrays when there are several loop dimensions",
                ));
            }
            outer = Some(o);
            *v = Value::Array(Box::new(folded));
        }
        let r = self.call_impl(rt, Args { pos, kw }, &device_ins)?;
        let mut results = match r {
            Value::Tuple(ref t) if nout > 1 => t.to_vec(),
            other => vec![other],
        };
        for (k, res) in results.iter_mut().enumerate() {
            if let (Some(o), Value::Array(a)) = (&outer, &*res) {
                if a.ndim() >= 1 {
                    let mut shape: Vec<isize> = o.iter().map(|&d| d as isize).collect();
                    shape.extend(a.shape[1..].iter().map(|&d| d as isize));
                    *res = Value::Array(Box::new(crate::py::ndarray_shape::reshape(a, &shape)?));
                }
            }
            if on_device {
                *res = match device_outs.get(k).cloned().flatten() {
                    Some(d) => {
                        if let Some(view) = crate::numba_cuda::interop::view_of(rt, &d)? {
                            crate::numba_cuda::devicearray::copy_to_device(
                                rt,
                                &view,
                                res,
                                stream_v.as_ref(),
                            )?;
                        }
                        d
                    }
                    None => crate::numba_cuda::to_device(rt, res, stream, true, None)?,
                };
            }
        }
        Ok(if results.len() == 1 {
            results.pop().unwrap_or(Value::None)
        } else {
            Value::tuple(results)
        })
    }

    /// The executor run over host arrays: `call_outer` has already taken `out=` and
    /// `stream=` into the positional arguments and checked their number.
    fn call_impl(&self, rt: &mut Runtime, args: Args, device_ins: &[bool]) -> PyResult<Value> {
        let nin = self.ins.len();
        let name = self.func.name.clone();
        if let Some((other, _)) = args.kw.iter().find(|(k, _)| &**k != "axis") {
            return Err(PyErr::type_error(format!(
                "{name}() got an unexpected keyword argument '{other}'"
            )));
        }
        let mut pos = args.pos;
        // Sequences (lists, tuples, namedtuples) are arrays to a gufunc, as to NumPy.
        for v in pos.iter_mut().take(nin) {
            let sequence = match v {
                Value::List(_) | Value::Tuple(_) => true,
                Value::Object(o) => o.named_tuple().is_some(),
                _ => false,
            };
            if sequence {
                *v = Value::Array(Box::new(crate::py::ndarray_attrs::to_ndarray(rt, v)?));
            }
        }
        // Pick the signature by the inputs' dtypes.
        let in_dt: Vec<Option<DType>> = pos[..nin]
            .iter()
            .map(|v| match v {
                Value::Array(a) => Some(a.dtype),
                _ => None,
            })
            .collect();
        let sig = self.pick_signature(&in_dt).cloned().ok_or_else(|| {
            PyErr::type_error(format!("{name}(): no signature matches the input types"))
        })?;
        // Numba's CUDA gufuncs cast host inputs to the chosen signature; device arrays
        // have no `astype` there, so a signature reached by casting is refused for them.
        for (j, v) in pos[..nin].iter_mut().enumerate() {
            let (Ty::Array { dtype, .. }, Value::Array(a)) = (&sig.args[j], &*v) else {
                continue;
            };
            if a.dtype == *dtype || !self.cuda {
                continue;
            }
            if device_ins.get(j).copied().unwrap_or(false) {
                return Err(PyErr::type_error(
                    "compatible signature is possible by casting but <class 'numba.cuda.cudadrv.devicearray.DeviceNDArray'> does not support .astype()",
                ));
            }
            let cast = crate::arrays::elem::cast(a, *dtype).map_err(PyErr::from)?;
            *v = Value::Array(Box::new(cast));
        }
        let mut dims: Vec<(String, usize)> = Vec::new();
        let mut loop_len: Option<usize> = None;
        let mut kargs = Vec::new();
        let mut params = Vec::new();
        for (j, v) in pos[..nin].iter().enumerate() {
            let core = &self.ins[j];
            match (&sig.args[j], v) {
                (Ty::Scalar(d), _) => {
                    let s = typeof_scalar(v).ok_or_else(|| {
                        PyErr::type_error(format!("{name}(): input {j} must be a number"))
                    })?;
                    kargs.push(KernelArg::Scalar(s.cast(*d)));
                    params.push(Ty::Scalar(*d));
                }
                (Ty::Array { dtype, ndim, .. }, Value::Array(a)) => {
                    if a.dtype != *dtype {
                        return Err(PyErr::type_error(format!(
                            "{name}(): input {j} must be {} (got {})",
                            dtype.name(),
                            a.dtype.name()
                        )));
                    }
                    if *ndim != core.len() || a.ndim() < core.len() || a.ndim() > core.len() + 1 {
                        return Err(PyErr::not_implemented(format!("{name}(): nbcuda's guvectorize supports one loop dimension; input {j} has shape {:?}", a.shape)));
                    }
                    let outer = a.ndim() - core.len();
                    if outer == 1 {
                        match loop_len {
                            Some(l) if l != a.shape[0] => {
                                return Err(PyErr::value_error(format!(
                                    "{name}(): loop dimensions differ ({l} vs {})",
                                    a.shape[0]
                                )))
                            }
                            _ => loop_len = Some(a.shape[0]),
                        }
                    }
                    for (k, sym) in core.iter().enumerate() {
                        let size = a.shape[outer + k];
                        match dims.iter().find(|(s, _)| s == sym) {
                            Some((_, d)) if *d != size => {
                                return Err(PyErr::value_error(format!(
                                    "{name}(): core dimension '{sym}' is {d} and {size}"
                                )))
                            }
                            Some(_) => {}
                            None => dims.push((sym.clone(), size)),
                        }
                    }
                    params.push(Ty::Array {
                        dtype: a.dtype,
                        ndim: a.ndim(),
                        layout: Layout::A,
                    });
                    kargs.push(host_arg(a));
                }
                (_, other) => {
                    return Err(PyErr::type_error(format!(
                        "{name}(): input {j} must be an array, got {}",
                        other.type_name()
                    )))
                }
            }
        }
        let looped = loop_len.is_some();
        // Inputs without the loop dimension are broadcast along it.
        if looped {
            for (j, p) in params.iter_mut().enumerate() {
                if let (Ty::Array { ndim, .. }, KernelArg::Array(a)) = (&mut *p, &mut kargs[j]) {
                    if *ndim == self.ins[j].len() {
                        a.shape.insert(0, loop_len.unwrap_or(1));
                        a.strides.insert(0, 0);
                        *ndim += 1;
                    }
                }
            }
        }
        let mut outs = Vec::new();
        for (o, core) in self.outs.iter().enumerate() {
            let Ty::Array { dtype, ndim, .. } = sig.args[nin + o] else {
                return Err(PyErr::type_error(format!(
                    "{name}(): outputs must be arrays in the signature"
                )));
            };
            let mut core_shape = Vec::new();
            for sym in core {
                let d = dims
                    .iter()
                    .find(|(s, _)| s == sym)
                    .map(|x| x.1)
                    .ok_or_else(|| {
                        PyErr::value_error(format!(
                            "{name}(): output dimension '{sym}' is not set by any input"
                        ))
                    })?;
                core_shape.push(d);
            }
            // A scalar core `()` is seen by the function as a 1-element array.
            while core_shape.len() < ndim {
                core_shape.push(1);
            }
            let mut shape: Vec<usize> = loop_len.into_iter().collect();
            shape.extend(&core_shape);
            let arr = match pos.get(nin + o) {
                Some(Value::Array(a)) => {
                    let visible: Vec<usize> =
                        loop_len
                            .into_iter()
                            .chain(core.iter().map(|s| {
                                dims.iter().find(|(x, _)| x == s).map(|x| x.1).unwrap_or(1)
                            }))
                            .collect();
                    if a.shape != visible || a.dtype != dtype {
                        return Err(PyErr::value_error(format!(
                            "{name}(): output {o} must have shape {visible:?} and dtype {}",
                            dtype.name()
                        )));
                    }
                    let mut v = a.as_ref().clone();
                    v.strides = NdArray::c_strides(&shape, dtype.itemsize());
                    v.shape = shape.clone();
                    if !a.is_c_contiguous() {
                        return Err(PyErr::value_error(format!(
                            "{name}(): output {o} must be C-contiguous"
                        )));
                    }
                    (v, Some(a.as_ref().clone()))
                }
                Some(other) => {
                    return Err(PyErr::type_error(format!(
                        "{name}(): output {o} must be a host array, got {}",
                        other.type_name()
                    )))
                }
                None => (
                    NdArray::zeros(&shape, dtype).map_err(|e| {
                        PyErr::memory_error(format!("cannot allocate {} bytes", e.bytes))
                    })?,
                    None,
                ),
            };
            params.push(Ty::Array {
                dtype,
                ndim: shape.len(),
                layout: Layout::A,
            });
            kargs.push(host_arg(&arr.0));
            outs.push((arr, core.len()));
        }
        let n_loop_arg = params
            .iter()
            .position(|p| matches!(p, Ty::Array { .. }))
            .unwrap_or(0);
        let k = build(&self.func, &params, looped, n_loop_arg)?;
        let n = loop_len.unwrap_or(1);
        if n > 0 {
            let block = 256.min(n) as u32;
            let config = LaunchConfig {
                grid: [n.div_ceil(block as usize) as u32, 1, 1],
                block: [block, 1, 1],
                dynamic_shared_bytes: 0,
            };
            run_on_host(rt, &k, &config, &kargs)?;
        }
        let mut results = Vec::new();
        for ((arr, given), core_len) in outs {
            results.push(match given {
                Some(a) => Value::Array(Box::new(a)),
                None => {
                    let mut a = arr;
                    let keep = loop_len.iter().count() + core_len;
                    a.shape.truncate(keep);
                    a.strides.truncate(keep);
                    if a.shape.is_empty() {
                        let mut bytes = [0u8; 8];
                        a.buf.read(0, &mut bytes[..a.dtype.itemsize()]);
                        Value::Scalar(Scalar::from_bytes(a.dtype, &bytes))
                    } else {
                        Value::Array(Box::new(a))
                    }
                }
            });
        }
        Ok(if results.len() == 1 {
            results.pop().unwrap_or(Value::None)
        } else {
            Value::tuple(results)
        })
    }
}

impl Object for GUFunc {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "GUFunc".into()
    }
    fn module_name(&self) -> String {
        "numba.np.ufunc.gufunc".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        self.call_outer(rt, args)
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

fn guvectorize(args: Args, default_cuda: bool) -> PyResult<Value> {
    let a = args.clone();
    let mut cuda = default_cuda;
    let mut sigs_v = a.pos.first().cloned();
    let mut layout_v = a.pos.get(1).cloned();
    let mut unknown = Vec::new();
    for (k, v) in &a.kw {
        match &**k {
            "signatures" | "ftylist" => sigs_v = Some(v.clone()),
            "layout" | "signature" => layout_v = Some(v.clone()),
            "nopython" if matches!(v, Value::Bool(false)) => {
                return Err(PyErr::type_error("nopython flag must be True"))
            }
            "target" => {
                cuda = match v.as_str() {
                    Some("cuda") => true,
                    Some("cpu" | "parallel") => false,
                    _ => {
                        return Err(PyErr::value_error(format!(
                            "Unsupported target: {}",
                            v.as_str().unwrap_or("(not a string)")
                        )))
                    }
                }
            }
            "nopython" | "cache" | "fastmath" | "identity" | "writable_args" => {}
            other => unknown.push(format!("'{other}'")),
        }
    }
    if !unknown.is_empty() {
        return Err(PyErr::type_error(format!(
            "The following target options are not supported: {}",
            unknown.join(", ")
        )));
    }
    let sigs = signatures_from(&sigs_v.ok_or_else(|| {
        PyErr::type_error("guvectorize() needs signatures, e.g. ['(float32[:], float32[:])']")
    })?)?;
    let layout = layout_v
        .as_ref()
        .and_then(|v| v.as_str().map(str::to_string))
        .ok_or_else(|| {
            PyErr::type_error("guvectorize() needs a layout string such as '(n)->()'")
        })?;
    let (ins, outs) = parse_layout(&layout)?;
    for s in &sigs {
        if let Some(ret) = s.ret.as_ref().filter(|r| **r != Ty::Void) {
            return Err(PyErr::type_error(format!(
                "guvectorized functions cannot return values: signature {s} specifies {} return type",
                ret
            )));
        }
        if s.args.len() != ins.len() + outs.len() {
            return Err(PyErr::type_error(format!(
                "signature {s} has {} arguments but the layout {layout:?} has {}",
                s.args.len(),
                ins.len() + outs.len()
            )));
        }
    }
    Ok(Value::builtin(
        "numba.guvectorize.<decorator>",
        "decorator(func)",
        "Build a generalized ufunc.",
        move |_rt, a| {
            let f = a.pos.first().and_then(as_function).ok_or_else(|| {
                PyErr::type_error("@guvectorize decorates a function defined with def")
            })?;
            Ok(Value::object(GUFunc {
                func: f,
                sigs: sigs.clone(),
                ins: ins.clone(),
                outs: outs.clone(),
                cuda,
            }))
        },
    ))
}

/// `numba.guvectorize`, and `numba.cuda.guvectorize` (the same decorator; its gufuncs take
/// device arrays too).
pub fn register(m: &Module, default_cuda: bool) {
    // `guvectorize` sorts out its arguments itself, as Numba's does from `*args, **kwargs`.
    m.def_shown(
        Style::Function,
        "guvectorize",
        "*args, **kwargs",
        if default_cuda {
            "guvectorize(signatures, layout, target='cuda')"
        } else {
            "guvectorize(signatures, layout, target='cpu')"
        },
        "Build a generalized ufunc from a function over core arrays.",
        move |_rt, b| guvectorize(b.forward(), default_cuda),
    );
}
