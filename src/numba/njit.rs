//! `@njit` / `@jit(nopython=True)` (and `parallel=True` with `prange`): the kernel front end
//! compiled for the host and run as one thread over host arrays by reference; with
//! `parallel=True`, independent `prange` loops are split across cores (see
//! [`crate::kernel::exec::prange`] for which loops qualify).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::dtype::DType;
use crate::kernel::abi::KernelArg;
use crate::kernel::exec::scalar_ops::{f32b, f64b};
use crate::kernel::types::Ty;
use crate::kernel::CompiledKernel;
use crate::numba::compile::{compile_function, ndarray_ty, typeof_scalar};
use crate::numba::dispatch::as_function;
use crate::numba::launch::host_arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style;
use crate::py::value::{Args, Module, Object, Value};

pub struct NjitFunction {
    pub func: Rc<Function>,
    cache: RefCell<Vec<(Vec<Ty>, Arc<CompiledKernel>)>>,
    /// `parallel=True`: run independent prange loops on all cores.
    pub parallel: bool,
    /// Declared with signatures (`@jit('(i4, i4)')`): compiled for the CPU only, so a
    /// kernel may not inline it (Numba's "compilation is disabled").
    pub eager: bool,
}

use crate::py::function::Function;

impl NjitFunction {
    pub fn new(func: Rc<Function>) -> NjitFunction {
        NjitFunction {
            func,
            cache: RefCell::new(Vec::new()),
            parallel: false,
            eager: false,
        }
    }

    fn specialize(&self, tys: &[Ty]) -> PyResult<Arc<CompiledKernel>> {
        if let Some((_, k)) = self.cache.borrow().iter().find(|(t, _)| t == tys) {
            return Ok(k.clone());
        }
        let k = Arc::new(compile_function(&self.func, tys, true)?);
        self.cache.borrow_mut().push((tys.to_vec(), k.clone()));
        Ok(k)
    }
}

impl Object for NjitFunction {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "CPUDispatcher".into()
    }
    fn module_name(&self) -> String {
        "numba.core.registry".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "CPUDispatcher(<function {} at {:#x}>)",
            self.func.name,
            Rc::as_ptr(&self.func) as usize
        ))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        if let Some((k, _)) = args.kw.first() {
            return Err(PyErr::type_error(format!(
                "{}() keyword arguments are not supported by nbcuda's @njit ('{k}')",
                self.func.name
            )));
        }
        let names = self.func.param_names();
        let mut tys = Vec::new();
        let mut kargs = Vec::new();
        for (i, v) in args.pos.iter().enumerate() {
            if let Value::Array(a) = v {
                if a.dtype.is_host_only() {
                    let pname = names.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
                    return Err(PyErr::type_error(format!(
                        "{}(): argument '{pname}' is a {} array, which nbcuda's @njit does not support (real dtypes from bool to float64 are); convert it with .astype() first",
                        self.func.name,
                        a.dtype.name()
                    )));
                }
                tys.push(ndarray_ty(a));
                kargs.push(host_arg(a));
            } else if let Some(s) = typeof_scalar(v) {
                tys.push(Ty::Scalar(s.dtype()));
                kargs.push(KernelArg::Scalar(s));
            } else if crate::numba_cuda::interop::view_of(rt, v)?.is_some() {
                let pname = names.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
                return Err(PyErr::type_error(format!(
                    "{}() got a device array for argument '{pname}': @njit functions run on the host. Copy it first with .copy_to_host(), or write the loop as a @cuda.jit kernel.",
                    self.func.name
                )));
            } else {
                return Err(PyErr::type_error(format!(
                    "{}(): argument {i} of type '{}' is not supported by nbcuda's @njit (arrays and numbers are)",
                    self.func.name,
                    v.type_name()
                )));
            }
        }
        let k = self.specialize(&tys)?;
        let cancel = crate::kernel::abi::Cancel::Interrupt(rt.interrupt.clone());
        let (ret, out) =
            match crate::kernel::exec::run_host(&k.ir, &kargs, self.parallel, Some(cancel)) {
                Ok(done) => done,
                Err(f) => return Err(crate::device::api::host_fault_error(rt, f)),
            };
        if !out.printed.is_empty() {
            rt.print(&out.printed);
        }
        Ok(match (ret, k.ir.ret) {
            (Some(bits), Some(r)) => match k.ir.regs[r as usize] {
                DType::F32 => Value::Float(f32b(bits) as f64),
                DType::F64 => Value::Float(f64b(bits)),
                DType::Bool => Value::Bool(bits != 0),
                _ => Value::Int(bits as i64),
            },
            _ => Value::None,
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "py_func" => Some(Value::Object(self.func.clone())),
            "__name__" => Some(Value::str(&self.func.name)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn njit_decorator(fname: &'static str) -> impl Fn(&mut Runtime, Args) -> PyResult<Value> {
    move |rt, args| {
        if let Some(f) = args.pos.first().and_then(as_function) {
            return Ok(Value::object(NjitFunction::new(f)));
        }
        let mut parallel = false;
        let mut eager = false;
        for (k, v) in &args.kw {
            match &**k {
                "parallel" => parallel = rt.truthy(v)?,
                "nopython" | "cache" | "fastmath" | "nogil" | "boundscheck" | "error_model"
                | "inline" | "forceobj" | "looplift" => {}
                "signature" => {
                    crate::numba::numba_types::signatures_from(v)?;
                    eager = true;
                }
                other => {
                    return Err(PyErr::type_error(format!(
                        "{fname}() got an unexpected keyword argument '{other}'"
                    )))
                }
            }
        }
        if let Some(sig) = args.pos.first() {
            crate::numba::numba_types::signatures_from(sig)?;
            eager = true;
        }
        Ok(Value::builtin(
            "numba.njit.<decorator>",
            "decorator(func)",
            "Compile func for the host.",
            move |_rt, a| {
                let f = a.pos.first().and_then(as_function).ok_or_else(|| {
                    PyErr::type_error("@njit decorates a function defined with def")
                })?;
                let mut nf = NjitFunction::new(f);
                nf.parallel = parallel;
                nf.eager = eager;
                Ok(Value::object(nf))
            },
        ))
    }
}

pub fn register(m: &Module) {
    // The decorators sort out their options themselves, as Numba's do from `**kws`.
    let njit = njit_decorator("njit");
    m.def_shown(
        Style::Function,
        "njit",
        "*args, **kws",
        "njit(signature=None, parallel=False, cache=False, fastmath=False)",
        "Compile a function for the host in nopython mode. With parallel=True, prange loops whose iterations share no scalar state (array writes only; no return or break out of the loop) run split across all cores; loops with scalar reductions run serially.",
        move |rt, b| njit(rt, b.forward()),
    );
    let jit = njit_decorator("jit");
    m.def_shown(
        Style::Function,
        "jit",
        "signature_or_function=None, **options",
        "jit(signature_or_function=None, nopython=True, parallel=False, cache=False)",
        "Compile a function for the host (nopython mode).",
        move |rt, b| jit(rt, b.forward_all()),
    );
}
