//! `@cuda.jit` dispatchers: kernels (lazily specialised per argument types, launched with
//! `kernel[grid, block, stream, shared]`), device functions, `cuda.In/Out/InOut`, and the
//! decorator plumbing shared by `jit`, `njit` and `vectorize`.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::kernel::abi::LaunchConfig;
use crate::kernel::types::{Signature, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::launch::{launch_kernel, LaunchRequest};
use crate::numba::numba_types::signatures_from;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style;
use crate::py::value::{Args, Module, Object, Value};

/// A user function behind a decorator value, if it is one.
pub fn as_function(v: &Value) -> Option<Rc<Function>> {
    match v {
        Value::Object(o) => {
            let any: Rc<dyn Any> = o.clone();
            any.downcast::<Function>().ok()
        }
        _ => None,
    }
}

/// A `@cuda.jit` kernel or device function.
pub struct CudaKernel {
    pub func: Rc<Function>,
    pub device: bool,
    pub sigs: Vec<Signature>,
    /// Declared with one signature rather than a list: Numba then launches that one
    /// compiled kernel whatever the arguments are (see `launch::reinterpret_for`).
    pub specialized: bool,
    /// `debug=True`: `raise` and division by zero raise on the host.
    pub debug: bool,
    pub cache: RefCell<Vec<(Vec<Ty>, Arc<CompiledKernel>)>>,
    /// Specialisations for launches with tuple arguments: flat types and tuple shapes.
    pub grouped: RefCell<Vec<GroupedEntry>>,
}

/// A specialisation for tuple arguments: flat parameter types, the arguments' shapes, the
/// kernel.
pub type GroupedEntry = (
    Vec<Ty>,
    Vec<crate::numba::compile::ArgShape>,
    Arc<CompiledKernel>,
);

/// The signatures a device function was declared with (`@cuda.jit('int32(int32)',
/// device=True)`); empty for lazily typed ones.
pub fn device_signatures(v: &Value) -> Vec<Signature> {
    v.downcast::<CudaKernel>()
        .filter(|k| k.device)
        .map(|k| k.sigs.clone())
        .unwrap_or_default()
}

/// The function a device-callable value inlines (device functions and `@njit` functions).
pub fn device_function(v: &Value) -> Option<Rc<Function>> {
    if let Some(k) = v.downcast::<CudaKernel>() {
        if k.device {
            return Some(k.func.clone());
        }
    }
    v.downcast::<crate::numba::njit::NjitFunction>()
        .filter(|n| !n.eager)
        .map(|n| n.func.clone())
}

impl CudaKernel {
    pub fn new(func: Rc<Function>, device: bool, sigs: Vec<Signature>) -> PyResult<CudaKernel> {
        let k = CudaKernel {
            func,
            device,
            sigs,
            specialized: false,
            debug: false,
            cache: RefCell::new(Vec::new()),
            grouped: RefCell::new(Vec::new()),
        };
        if !device {
            // Eager signatures compile at decoration time, as Numba does.
            for s in k.sigs.clone() {
                if let Some(r) = &s.ret {
                    if *r != Ty::Void {
                        return Err(PyErr::new(
                            "TypingError",
                            format!("Failed in cuda mode pipeline: kernel {} must return void, its signature says {r}", k.func.name),
                        ));
                    }
                }
                let c = Arc::new(k.compile(&s.args)?);
                k.cache.borrow_mut().push((s.args.clone(), c));
            }
        }
        Ok(k)
    }

    /// `@cuda.jit(debug=True, ...)` with its signatures (compiled at once, as Numba does).
    pub fn with_debug(
        func: Rc<Function>,
        device: bool,
        sigs: Vec<Signature>,
        debug: bool,
    ) -> PyResult<CudaKernel> {
        let mut k = CudaKernel::new(func, device, Vec::new())?;
        k.debug = debug;
        k.sigs = sigs;
        if !device {
            for s in k.sigs.clone() {
                let c = Arc::new(k.compile(&s.args)?);
                k.cache.borrow_mut().push((s.args.clone(), c));
            }
        }
        Ok(k)
    }

    fn compile(&self, tys: &[Ty]) -> PyResult<CompiledKernel> {
        let groups = vec![crate::numba::compile::ArgShape::Leaf; tys.len()];
        crate::numba::compile::compile_opts(&self.func, tys, &groups, false, self.debug)
    }

    /// The compiled kernel for arguments that may be tuples: `tys` are the flat parameter
    /// types, `groups` how the Python arguments map onto them (cached).
    pub fn specialize_grouped(
        &self,
        tys: &[Ty],
        groups: &[crate::numba::compile::ArgShape],
    ) -> PyResult<Arc<CompiledKernel>> {
        use crate::numba::compile::ArgShape;
        if groups.iter().all(|g| *g == ArgShape::Leaf) {
            return self.specialize(tys);
        }
        if !self.sigs.is_empty() {
            return Err(PyErr::type_error(format!(
                "{}: tuple arguments need a kernel compiled lazily (without a signature) in nbcuda",
                self.func.name
            )));
        }
        if let Some((_, _, k)) = self.grouped.borrow().iter().find(|(t, g, _)| {
            g == groups
                && t.len() == tys.len()
                && t.iter()
                    .zip(tys)
                    .all(|(p, a)| crate::numba::compile::accepts(p, a))
        }) {
            return Ok(k.clone());
        }
        let k = Arc::new(crate::numba::compile::compile_opts(
            &self.func, tys, groups, false, self.debug,
        )?);
        self.grouped
            .borrow_mut()
            .push((tys.to_vec(), groups.to_vec(), k.clone()));
        Ok(k)
    }

    /// The specialisations `inspect_*` and `compile_device` show: a kernel's compiled
    /// ones; a device function's declared signatures, or the one `signature` names.
    fn inspectable(
        &self,
        signature: Option<&Value>,
    ) -> PyResult<Vec<(Vec<Ty>, Arc<CompiledKernel>)>> {
        if !self.device {
            return Ok(self.cache.borrow().clone());
        }
        let sigs = match signature {
            Some(v) if !v.is_none() && self.sigs.is_empty() => signatures_from(v)?,
            _ => self.sigs.clone(),
        };
        crate::numba::inspect_asm::inlined_entries(&self.func, &sigs, "device function")
    }

    /// The compiled kernel for these argument types (cached).
    pub fn specialize(&self, tys: &[Ty]) -> PyResult<Arc<CompiledKernel>> {
        if let Some((_, k)) = self.cache.borrow().iter().find(|(t, _)| {
            t.len() == tys.len()
                && t.iter()
                    .zip(tys)
                    .all(|(p, a)| crate::numba::compile::accepts(p, a))
        }) {
            return Ok(k.clone());
        }
        if !self.sigs.is_empty() {
            let names: Vec<String> = self.sigs.iter().map(|s| s.to_string()).collect();
            let got: Vec<String> = tys.iter().map(|t| t.to_string()).collect();
            return Err(PyErr::type_error(format!(
                "No matching definition for argument type(s) {} (the kernel was compiled for {})",
                got.join(", "),
                names.join("; ")
            )));
        }
        let k = Arc::new(self.compile(tys)?);
        self.cache.borrow_mut().push((tys.to_vec(), k.clone()));
        Ok(k)
    }
}

fn dim3(v: &Value, what: &str) -> PyResult<[u32; 3]> {
    let items: Vec<Value> = match v {
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        other => vec![other.clone()],
    };
    if items.is_empty() || items.len() > 3 {
        return Err(PyErr::value_error(format!(
            "{what} must be an int or a tuple of 1 to 3 ints"
        )));
    }
    let mut out = [1u32; 3];
    for (i, it) in items.iter().enumerate() {
        let n = match it {
            Value::Int(_) | Value::Scalar(_) | Value::Bool(_) => it.as_index().map_err(|_| {
                PyErr::type_error(format!(
                    "{what} must be an int or a tuple of ints, got {}",
                    it.type_name()
                ))
            })?,
            other => {
                return Err(PyErr::type_error(format!(
                    "{what} must be an int or a tuple of ints, got {}",
                    other.type_name()
                )))
            }
        };
        if n < 0 || n > u32::MAX as i64 {
            return Err(PyErr::value_error(format!(
                "{what} dimension {n} is out of range"
            )));
        }
        out[i] = n as u32;
    }
    Ok(out)
}

/// `kernel[grid, block, stream, shared]`.
pub struct Configured {
    pub kernel: Rc<CudaKernel>,
    pub config: LaunchConfig,
    pub stream: Value,
    /// `forall(0)` launches nothing.
    pub empty: bool,
}

impl Object for Configured {
    fn type_name(&self) -> String {
        "_LaunchConfiguration".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.dispatcher".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        if self.empty {
            return Ok(Value::None);
        }
        launch_kernel(
            rt,
            LaunchRequest {
                kernel: &self.kernel,
                config: self.config,
                stream: &self.stream,
                args,
            },
        )?;
        Ok(Value::None)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Object for CudaKernel {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "CUDADispatcher".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.dispatcher".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<numba.cuda.dispatcher.CUDADispatcher object at {:#x}>",
            self as *const Self as usize
        ))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        if self.device {
            return Err(PyErr::runtime_error(format!(
                "Cannot compile a device function as a kernel: {} is a device function (device=True); only @cuda.jit kernels take [grid, block]",
                self.func.name
            )));
        }
        let items: Vec<Value> = match key {
            Value::Tuple(t) => t.to_vec(),
            other => vec![other.clone()],
        };
        if items.len() < 2 {
            return Err(PyErr::value_error(
                "must specify at least the griddim and blockdim",
            ));
        }
        if items.len() > 4 {
            return Err(PyErr::value_error(format!(
                "too many launch configuration items ({}): use [griddim, blockdim, stream, sharedmem]",
                items.len()
            )));
        }
        let grid = dim3(&items[0], "griddim")?;
        let block = dim3(&items[1], "blockdim")?;
        let stream = items.get(2).cloned().unwrap_or(Value::Int(0));
        let shared = match items.get(3) {
            Some(v) => {
                let n = v.as_index()?;
                if n < 0 {
                    return Err(PyErr::value_error("sharedmem must be non-negative"));
                }
                n as usize
            }
            None => 0,
        };
        Ok(Value::object(Configured {
            kernel: self,
            config: LaunchConfig {
                grid,
                block,
                dynamic_shared_bytes: shared,
            },
            stream,
            empty: false,
        }))
    }
    fn call(self: Rc<Self>, _args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        if self.device {
            return Err(PyErr::type_error(format!(
                "device function '{}' can only be called from a @cuda.jit kernel or another device function",
                self.func.name
            )));
        }
        Err(PyErr::value_error(
            "Kernel launch configuration was not specified. Use the syntax: kernel_function[blockspergrid, threadsperblock](arg0, ...)",
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "py_func" => Some(Value::Object(self.func.clone())),
            "__name__" => Some(Value::str(&self.func.name)),
            "__doc__" => Some(
                self.func
                    .doc
                    .clone()
                    .map(|d| Value::str(&d))
                    .unwrap_or(Value::None),
            ),
            "forall" => Some(Value::method(
                &self,
                "CUDADispatcher.forall",
                "forall(ntasks, tpb=0, stream=0, sharedmem=0)",
                "A 1-D launch covering ntasks threads.",
                |k, _rt, args| {
                    let a = args.bind("forall", &["ntasks", "tpb=", "stream=", "sharedmem="])?;
                    let n = a[0]
                        .as_ref()
                        .map(|v| v.as_index())
                        .transpose()?
                        .unwrap_or(0);
                    if n < 0 {
                        return Err(PyErr::value_error(format!(
                            "Can't create ForAll with negative task count: {n}"
                        )));
                    }
                    let tpb = a[1]
                        .as_ref()
                        .map(|v| v.as_index())
                        .transpose()?
                        .unwrap_or(0);
                    let tpb = if tpb <= 0 { 128.min(n.max(1)) } else { tpb };
                    let shared = a[3]
                        .as_ref()
                        .map(|v| v.as_index())
                        .transpose()?
                        .unwrap_or(0)
                        .max(0) as usize;
                    let grid = ((n + tpb - 1) / tpb).max(1);
                    Ok(Value::object(Configured {
                        kernel: k.clone(),
                        config: LaunchConfig {
                            grid: [grid as u32, 1, 1],
                            block: [tpb as u32, 1, 1],
                            dynamic_shared_bytes: shared,
                        },
                        stream: a[2].clone().unwrap_or(Value::Int(0)),
                        empty: n == 0,
                    }))
                },
            )),
            "inspect_cuda" | "inspect_asm" | "inspect_llvm" => {
                let asm = name == "inspect_asm";
                let llvm = name == "inspect_llvm";
                Some(Value::method(&self, "CUDADispatcher.inspect_asm", "inspect_asm(signature=None)", "The generated CUDA C (inspect_cuda) or PTX (inspect_asm), a dict keyed by signature when none is given. nbcuda generates CUDA C, not LLVM IR: inspect_llvm shows that CUDA C.", move |k, _rt, args| {
                    let a = args.bind("inspect_asm", &["signature="])?;
                    let entries = k.inspectable(a[0].as_ref())?;
                    let out = crate::numba::inspect_asm::inspect(&entries, asm, a[0].as_ref())?;
                    Ok(match (&out, llvm) {
                        (Value::Str(text), true) => Value::str(&format!(
                            "// nbcuda compiles kernels to CUDA C (through NVRTC), not LLVM IR: this is that CUDA C.\n{text}"
                        )),
                        _ => out,
                    })
                }))
            }
            "overloads" => Some(crate::numba::overloads::overloads(&self.cache.borrow())),
            "signatures" => Some(crate::numba::overloads::signatures(&self.cache.borrow())),
            "compile_device" => Some(Value::method(
                &self,
                "CUDADispatcher.compile_device",
                "compile_device(args, return_type=None)",
                "Compile a device function for the argument types `args`.",
                |k, _rt, args| {
                    let a = args.bind("compile_device", &["args", "return_type="])?;
                    if !k.device {
                        return Err(PyErr::runtime_error(format!(
                            "compile_device() compiles device functions; {} is a kernel",
                            k.func.name
                        )));
                    }
                    let entries = k.inspectable(a[0].as_ref())?;
                    let (args, kernel) = entries.into_iter().next().ok_or_else(|| {
                        PyErr::type_error("compile_device() needs the argument types")
                    })?;
                    Ok(Value::object(crate::numba::overloads::Overload {
                        args,
                        kernel,
                    }))
                },
            )),
            "inspect_sass" | "inspect_sass_cfg" => Some(Value::method(
                &self,
                "CUDADispatcher.inspect_sass",
                "inspect_sass(signature=None)",
                "SASS of a compiled kernel (needs nvdisasm and a GPU).",
                |k, _rt, _args| {
                    if k.device {
                        return Err(PyErr::runtime_error(
                            "Cannot inspect SASS of a device function",
                        ));
                    }
                    Err(PyErr::not_implemented(
                        "inspect_sass() needs NVIDIA's nvdisasm, which nbcuda does not ship; inspect_asm() shows the PTX and inspect_cuda() the generated CUDA C",
                    ))
                },
            )),
            "inspect_types" | "inspect_ir" => Some(Value::method(
                &self,
                "CUDADispatcher.inspect_types",
                "inspect_types()",
                "Print the typed IR of every compiled specialisation.",
                |k, rt, _args| {
                    let texts: Vec<String> = k
                        .cache
                        .borrow()
                        .iter()
                        .map(|(_, c)| crate::kernel::ir::print_kernel(&c.ir))
                        .collect();
                    for t in texts {
                        rt.print(&t);
                    }
                    Ok(Value::None)
                },
            )),
            _ => None,
        })
    }
    fn doc(&self) -> Option<(String, String)> {
        Some((
            format!("{}({})", self.func.name, self.func.param_names().join(", ")),
            self.func.doc.clone().unwrap_or_default(),
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `cuda.In(a)` / `cuda.Out(a)` / `cuda.InOut(a)`: which way a host array is copied.
pub struct HostArg {
    pub array: Value,
    pub copy_in: bool,
    pub copy_out: bool,
}

impl Object for HostArg {
    fn type_name(&self) -> String {
        match (self.copy_in, self.copy_out) {
            (true, false) => "In".into(),
            (false, true) => "Out".into(),
            _ => "InOut".into(),
        }
    }
    fn module_name(&self) -> String {
        "numba.cuda.args".into()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Options of `@cuda.jit(...)`.
fn jit_options(args: &Args, fname: &str) -> PyResult<(Vec<Signature>, bool)> {
    let mut sigs = Vec::new();
    if let Some(first) = args.pos.first() {
        if as_function(first).is_none() {
            sigs = signatures_from(first)?;
        }
    }
    if args.pos.len() > 1 {
        return Err(PyErr::type_error(format!(
            "{fname}() takes at most one positional argument (the signature)"
        )));
    }
    let mut device = false;
    for (k, v) in &args.kw {
        match &**k {
            "device" => device = matches!(v, Value::Bool(true)),
            "signature" | "sig" => sigs = signatures_from(v)?,
            "inline" | "debug" | "opt" | "lineinfo" | "cache" | "fastmath" | "link"
            | "max_registers" | "nopython" | "boundscheck" | "forceinline" | "parallel"
            | "nogil" | "error_model" => {}
            other => {
                return Err(PyErr::type_error(format!(
                    "{fname}() got an unexpected keyword argument '{other}'"
                )))
            }
        }
    }
    Ok((sigs, device))
}

fn cuda_jit(_rt: &mut Runtime, args: Args) -> PyResult<Value> {
    if let Some(f) = args.pos.first().and_then(as_function) {
        if args.pos.len() == 1 && args.kw.is_empty() {
            return Ok(Value::object(CudaKernel::new(f, false, Vec::new())?));
        }
    }
    let (sigs, device) = jit_options(&args, "jit")?;
    // `sigutils.is_signature`: a string, a tuple or a signature object, not a list.
    let sig_arg = args.pos.first().or_else(|| {
        args.kw
            .iter()
            .find(|(k, _)| matches!(&**k, "signature" | "sig"))
            .map(|(_, v)| v)
    });
    let specialized = sigs.len() == 1 && !matches!(sig_arg, Some(Value::List(_)));
    let debug = args
        .kw
        .iter()
        .any(|(k, v)| &**k == "debug" && matches!(v, Value::Bool(true)));
    Ok(Value::builtin(
        "numba.cuda.jit.<decorator>",
        "decorator(func)",
        "Compile func as a CUDA kernel or device function.",
        move |_rt, a| {
            let f = a.pos.first().and_then(as_function).ok_or_else(|| {
                PyErr::type_error("@cuda.jit(...) decorates a function defined with def")
            })?;
            let mut k = CudaKernel::with_debug(f, device, sigs.clone(), debug)?;
            k.specialized = specialized;
            Ok(Value::object(k))
        },
    ))
}

fn host_wrap(copy_in: bool, copy_out: bool) -> impl Fn(&mut Runtime, Bound) -> PyResult<Value> {
    move |_rt, args| {
        let array = args.value(0);
        if !matches!(array, Value::Array(_)) {
            return Err(PyErr::type_error(format!(
                "cuda.In/Out/InOut wrap a host ndarray, got {}",
                array.type_name()
            )));
        }
        Ok(Value::object(HostArg {
            array,
            copy_in,
            copy_out,
        }))
    }
}

pub fn register_cuda(cuda: &Module) {
    crate::numba::guvectorize::register(cuda, true);
    // `cuda_jit` sorts out the options itself, as Numba's does from `**kws`.
    cuda.def_shown(
        Style::Function,
        "jit",
        "func_or_sig=None, **kws",
        "jit(func_or_sig=None, device=False, inline=False, debug=None, opt=None, lineinfo=False, cache=False, fastmath=False)",
        "Compile a Python function into a CUDA kernel (or a device function with device=True).",
        |rt, b| cuda_jit(rt, b.forward_all()),
    );
    cuda.def(
        Style::Function,
        "In",
        "value",
        "Mark a host array as input only: copied to the device, not back.",
        host_wrap(true, false),
    );
    cuda.def(
        Style::Function,
        "Out",
        "value",
        "Mark a host array as output only: not copied in, copied back.",
        host_wrap(false, true),
    );
    cuda.def(
        Style::Function,
        "InOut",
        "value",
        "Mark a host array as copied to the device and back (the default).",
        host_wrap(true, true),
    );
    crate::numba::vectorize::register(cuda, true);
    crate::numba::cuda_reduce::register(cuda);
}

pub fn register_numba(m: &Module) {
    crate::numba::njit::register(m);
    crate::numba::vectorize::register(m, false);
    m.set(
        "prange",
        Value::builtin(
            "numba.prange",
            "prange(*args)",
            "range() that @njit(parallel=True) may run in parallel.",
            |rt, args| {
                let f = rt.builtin("range")?;
                rt.call(&f, args)
            },
        ),
    );
}

pub fn register_random(m: &Module) {
    crate::numba::launch::register_random(m);
}
