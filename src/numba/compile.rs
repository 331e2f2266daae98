//! Compiling a user function for one argument-type specialisation, and typing host
//! arguments the way Numba's `typeof` does.

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, Kernel};
use crate::kernel::types::{Layout, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::frontend::{bind_params, lower_body, FnCtx, FnKind, Val, RET};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::value::Value;

/// Lower `func` for parameter types `params`. `host` compiles an `@njit` body (may return
/// a value); otherwise a `@cuda.jit` kernel (must return None).
pub fn compile_function(
    func: &Rc<Function>,
    params: &[Ty],
    host: bool,
) -> PyResult<CompiledKernel> {
    compile_grouped(func, params, &vec![ArgShape::Leaf; params.len()], host)
}

/// How a Python argument maps onto the kernel's flat parameters: one parameter, or a tuple
/// whose items (recursively) take consecutive parameters. Kernels receive tuples this way,
/// so the devices only ever see scalars and arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgShape {
    Leaf,
    Tuple(Vec<ArgShape>),
    /// A namedtuple: its field names and items.
    Named(Vec<String>, Vec<ArgShape>),
}

impl ArgShape {
    /// The number of flat parameters this argument takes.
    pub fn leaves(&self) -> usize {
        match self {
            ArgShape::Leaf => 1,
            ArgShape::Tuple(items) | ArgShape::Named(_, items) => {
                items.iter().map(ArgShape::leaves).sum()
            }
        }
    }
}

/// [`compile_function`] for arguments that may be tuples (`groups`, one per Python
/// parameter) over the flat parameter types `params`.
pub fn compile_grouped(
    func: &Rc<Function>,
    params: &[Ty],
    groups: &[ArgShape],
    host: bool,
) -> PyResult<CompiledKernel> {
    compile_opts(func, params, groups, host, false)
}

/// [`compile_grouped`] with `debug` (`@cuda.jit(debug=True)`): `raise` and division by
/// zero then raise on the host, as Numba's Python error model does.
pub fn compile_opts(
    func: &Rc<Function>,
    params: &[Ty],
    groups: &[ArgShape],
    host: bool,
    debug: bool,
) -> PyResult<CompiledKernel> {
    let names = func.param_names();
    if names.len() != groups.len() {
        return Err(PyErr::type_error(format!(
            "{}() takes {} positional arguments but {} were given",
            func.name,
            names.len(),
            groups.len()
        )));
    }
    if groups.iter().map(ArgShape::leaves).sum::<usize>() != params.len() {
        return Err(PyErr::internal(
            "argument groups do not cover the parameters",
        ));
    }
    let mut b = Builder::new(&func.name, params.to_vec());
    let kind = if host { FnKind::Host } else { FnKind::Kernel };
    let mut cx = FnCtx::new(func.clone(), kind, 0);
    cx.debug = debug;
    bind_params(&mut b, &mut cx, params, groups)?;
    lower_body(&mut b, &mut cx, &func.def.body)?;
    if host {
        match cx.vars.get(RET) {
            Some(Val::Reg(r)) => b.k.ret = Some(*r),
            Some(Val::Tuple(_)) => {
                return Err(PyErr::not_implemented(format!(
                    "{}: returning tuples from @njit functions is not supported by nbcuda; return one number or write into an array",
                    func.name
                )))
            }
            _ => {}
        }
    }
    let typemap = typemap(&b, &cx);
    let mut k = CompiledKernel::from_ir(b.finish());
    k.typemap = typemap;
    Ok(k)
}

/// The Numba type of every named variable at the end of lowering (sorted by name), as
/// Numba's type annotation reports it: scalars by their unified type, arrays (parameters,
/// shared, local and constant arrays) as C-layout array types.
fn typemap(b: &Builder, cx: &FnCtx) -> Vec<(String, Ty)> {
    let mut out: Vec<(String, Ty)> = cx
        .vars
        .iter()
        .filter(|(name, _)| !name.starts_with('$'))
        .filter_map(|(name, v)| {
            let ty = match v {
                Val::Reg(r) => Ty::Scalar(cx.types.get(name).copied().unwrap_or(b.ty(*r))),
                Val::Array(ArrRef::Param(i), _, _) => b.k.params.get(*i as usize)?.clone(),
                Val::Array(_, dtype, ndim) => Ty::Array {
                    dtype: *dtype,
                    ndim: *ndim,
                    layout: Layout::C,
                },
                _ => return None,
            };
            Some((name.clone(), ty))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Numba's type for a host argument value (arrays by dtype/ndim/layout, Python numbers as
/// int64/float64/boolean (uint64 past int64), NumPy scalars by dtype).
pub fn typeof_scalar(v: &Value) -> Option<Scalar> {
    Some(match v {
        Value::Int(i) => Scalar::I64(*i),
        // Numba types ints past int64 as uint64 (`typeof(2**63)`); beyond, none.
        Value::BigInt(b) => Scalar::U64(num_traits::ToPrimitive::to_u64(&**b)?),
        Value::Float(f) => Scalar::F64(*f),
        Value::Bool(b) => Scalar::Bool(*b),
        // Kernels know the real dtypes from bool to float64: a float16 or complex scalar is
        // an argument type they do not support.
        Value::Scalar(s) if !s.dtype().is_host_only() => *s,
        _ => return None,
    })
}

pub fn array_ty(dtype: DType, shape: &[usize], strides: &[isize]) -> Ty {
    let c = crate::arrays::contiguous(shape, strides, dtype.itemsize(), true);
    Ty::Array {
        dtype,
        ndim: shape.len(),
        layout: if c { Layout::C } else { Layout::A },
    }
}

pub fn ndarray_ty(a: &NdArray) -> Ty {
    array_ty(a.dtype, &a.shape, &a.strides)
}

/// Does a compiled specialisation accept this argument type? Layout A accepts C arrays.
pub fn accepts(param: &Ty, arg: &Ty) -> bool {
    match (param, arg) {
        (
            Ty::Array {
                dtype: d1,
                ndim: n1,
                layout: l1,
            },
            Ty::Array {
                dtype: d2,
                ndim: n2,
                layout: l2,
            },
        ) => d1 == d2 && n1 == n2 && (*l1 == Layout::A || l1 == l2),
        (a, b) => a == b,
    }
}

/// IR of a compiled kernel in text form (for tests and `inspect_types`).
pub fn ir_text(k: &Kernel) -> String {
    crate::kernel::ir::print_kernel(k)
}
