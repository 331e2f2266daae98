//! AST → IR for array constructs of the kernel API: `cuda.shared.array`,
//! `cuda.local.array`, `cuda.const.array_like` (compile-time shapes and data) and
//! `cuda.atomic.*`.

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, ArrayDecl, AtomicOp, Op};
use crate::kernel::types::numba_name;
use crate::numba::frontend::calls::nargs;
use crate::numba::frontend::expr::{dtype_of, expr, scalar};
use crate::numba::frontend::views::ArrView;
use crate::numba::frontend::{FnCtx, Val};
use crate::py::error::PyResult;
use crate::py::value::Value;

pub fn atomic(
    b: &mut Builder,
    cx: &mut FnCtx,
    name: &str,
    args: Vec<Val>,
    range: TextRange,
) -> PyResult<Val> {
    let op = match name {
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "max" => AtomicOp::Max,
        "min" => AtomicOp::Min,
        "nanmax" => AtomicOp::NanMax,
        "nanmin" => AtomicOp::NanMin,
        "and_" => AtomicOp::And,
        "or_" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "exch" => AtomicOp::Exch,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        "cas" | "compare_and_swap" => AtomicOp::Cas,
        other => {
            return Err(cx.typing(
                format!("Unknown attribute '{other}' of module cuda.atomic"),
                range,
            ))
        }
    };
    let want = if name == "compare_and_swap" {
        3
    } else if op == AtomicOp::Cas {
        4
    } else {
        3
    };
    nargs(cx, &format!("cuda.atomic.{name}"), &args, want, range)?;
    let mut it = args.into_iter();
    let first = it.next().unwrap_or(Val::None);
    let Some(view) = ArrView::of(&first) else {
        return Err(cx.typing(
            format!("cuda.atomic.{name}() needs an array as first argument"),
            range,
        ));
    };
    let (dt, nd) = (view.dtype, view.ndim());
    let mut idx = Vec::new();
    if name == "compare_and_swap" {
        if nd != 1 {
            return Err(cx.typing("compare_and_swap needs a 1-dimensional array", range));
        }
        idx.push(b.konst(Scalar::I64(0)));
    } else {
        let iv = it.next().unwrap_or(Val::None);
        let items = match iv {
            Val::Tuple(t) => t,
            other => vec![other],
        };
        if items.len() != nd {
            return Err(cx.typing(
                format!(
                    "cuda.atomic.{name}(): an index of {} value(s) for a {nd}-dimensional array",
                    items.len()
                ),
                range,
            ));
        }
        for x in items {
            let r = scalar(b, cx, x, range)?;
            idx.push(b.cast(r, DType::I64));
        }
    }
    let ok = match op {
        AtomicOp::Add | AtomicOp::Sub | AtomicOp::Max | AtomicOp::Min | AtomicOp::Exch => {
            matches!(
                dt,
                DType::I32 | DType::U32 | DType::I64 | DType::U64 | DType::F32 | DType::F64
            )
        }
        AtomicOp::NanMax | AtomicOp::NanMin => {
            dt.is_float() || matches!(dt, DType::I32 | DType::U32 | DType::I64 | DType::U64)
        }
        AtomicOp::And | AtomicOp::Or | AtomicOp::Xor | AtomicOp::Cas => {
            matches!(dt, DType::I32 | DType::U32 | DType::I64 | DType::U64)
        }
        AtomicOp::Inc | AtomicOp::Dec => matches!(dt, DType::U32 | DType::U64),
    };
    if !ok {
        return Err(cx.typing(
            format!(
                "No implementation of cuda.atomic.{name} for array({}, {nd}d)",
                numba_name(dt)
            ),
            range,
        ));
    }
    let mut vals = Vec::new();
    for v in it {
        let r = scalar(b, cx, v, range)?;
        vals.push(b.cast(r, dt));
    }
    let (a, idx) = view.element(b, idx);
    Ok(Val::Reg(b.emit(dt, Op::Atomic(op, a, idx, vals))))
}

/// Evaluate a compile-time constant shape: an int or a tuple of ints (literals, globals,
/// or names bound to constants, such as a literal argument of an inlined device function).
fn const_shape(b: &Builder, cx: &FnCtx, e: &Expr) -> PyResult<Vec<usize>> {
    fn not_constant(cx: &FnCtx, name: &str, e: &Expr) -> crate::py::error::PyErr {
        cx.typing(
            format!("array shape '{name}' must be a constant (a literal or a global int)"),
            e.range(),
        )
    }
    /// A local binding's constant ints: one for an int, several for a tuple.
    fn local(b: &Builder, v: &Val) -> Option<Vec<i64>> {
        match v {
            Val::Reg(r) => {
                let c = b.constant(*r)?;
                c.dtype().is_integer().then(|| vec![c.as_i64()])
            }
            Val::Tuple(items) => items
                .iter()
                .map(|x| match local(b, x)?.as_slice() {
                    [i] => Some(*i),
                    _ => None,
                })
                .collect(),
            Val::Global(Value::Int(i)) => Some(vec![*i]),
            Val::Global(Value::Tuple(t)) => t.iter().map(|v| v.as_index().ok()).collect(),
            _ => None,
        }
    }
    fn one(b: &Builder, cx: &FnCtx, e: &Expr) -> PyResult<i64> {
        match e {
            Expr::NumberLiteral(_) | Expr::UnaryOp(_) => {
                crate::numba::frontend::expr::const_int(cx, e)
            }
            Expr::Name(n) => {
                if let Some(v) = cx.vars.get(n.id.as_str()) {
                    return match local(b, v).as_deref() {
                        Some([i]) => Ok(*i),
                        _ => Err(not_constant(cx, n.id.as_str(), e)),
                    };
                }
                match cx.func.lookup(n.id.as_str()) {
                    Some(Value::Int(i)) => Ok(i),
                    _ => Err(not_constant(cx, n.id.as_str(), e)),
                }
            }
            Expr::BinOp(bo) => {
                let (l, r) = (one(b, cx, &bo.left)?, one(b, cx, &bo.right)?);
                match bo.op {
                    ast::Operator::Add => Ok(l + r),
                    ast::Operator::Sub => Ok(l - r),
                    ast::Operator::Mult => Ok(l * r),
                    ast::Operator::FloorDiv if r != 0 => Ok(l.div_euclid(r)),
                    _ => {
                        Err(cx.typing("unsupported constant expression in array shape", e.range()))
                    }
                }
            }
            _ => Err(cx.typing("array shapes must be constants", e.range())),
        }
    }
    let dims = match e {
        Expr::Tuple(t) => t
            .elts
            .iter()
            .map(|x| one(b, cx, x))
            .collect::<PyResult<Vec<_>>>()?,
        Expr::Name(n) if cx.vars.contains_key(n.id.as_str()) => {
            match cx.vars.get(n.id.as_str()).and_then(|v| local(b, v)) {
                Some(dims) => dims,
                None => return Err(not_constant(cx, n.id.as_str(), e)),
            }
        }
        Expr::Name(n) => match cx.func.lookup(n.id.as_str()) {
            Some(Value::Tuple(ref t)) => t
                .iter()
                .map(|v| {
                    v.as_index()
                        .map_err(|_| cx.typing("array shapes must be integers", e.range()))
                })
                .collect::<PyResult<Vec<_>>>()?,
            _ => vec![one(b, cx, e)?],
        },
        _ => vec![one(b, cx, e)?],
    };
    if dims.iter().any(|d| *d < 0) || dims.is_empty() || dims.len() > 3 {
        return Err(cx.typing(
            "array shapes need 1 to 3 non-negative dimensions",
            e.range(),
        ));
    }
    Ok(dims.into_iter().map(|d| d as usize).collect())
}

/// Numba's typing error for an array constructor whose shape is not a constant: the
/// signature it could not match, with the argument types in Numba's notation, then
/// nbcuda's reason.
fn no_implementation(
    b: &mut Builder,
    cx: &mut FnCtx,
    what: &str,
    shape: &Expr,
    dtype: &Expr,
    why: crate::py::error::PyErr,
) -> crate::py::error::PyErr {
    let shape_ty = match shape {
        // A list display is typed before it is evaluated: Numba shows its initial value.
        Expr::List(l) => {
            let items: Option<Vec<String>> = l
                .elts
                .iter()
                .map(|e| match e {
                    Expr::Name(n) => match cx.func.lookup(n.id.as_str()) {
                        Some(Value::Int(i)) => Some(i.to_string()),
                        _ => None,
                    },
                    Expr::NumberLiteral(_) => crate::numba::frontend::expr::const_int(cx, e)
                        .ok()
                        .map(|i| i.to_string()),
                    _ => None,
                })
                .collect();
            match items {
                Some(iv) => format!("list(int64)<iv=[{}]>", iv.join(", ")),
                None => "list(undefined)".to_string(),
            }
        }
        _ => match expr(b, cx, shape) {
            Ok(v) => numba_typeof(b, &v, false),
            Err(_) => return why,
        },
    };
    let dtype_ty = match expr(b, cx, dtype).ok().as_ref().and_then(dtype_of) {
        Some(d) => format!("class({})", numba_name(d)),
        None => "unknown".to_string(),
    };
    let function = what.trim_start_matches("cuda.");
    cx.typing(
        format!(
            "No implementation of function Function(<function {function}>) found for signature:\n \n >>> array(shape={shape_ty}, dtype={dtype_ty})\n \n{}",
            why.message
        ),
        shape.range(),
    )
}

/// A value's Numba type as Numba's error messages write it; `literal`: integer constants
/// inside a tuple are `Literal[int](n)`.
fn numba_typeof(b: &Builder, v: &Val, literal: bool) -> String {
    let array = |dtype: DType, ndim: usize, layout: &str| {
        format!("array({}, {ndim}d, {layout})", numba_name(dtype))
    };
    match v {
        Val::Reg(r) => match b.constant(*r) {
            Some(c) if literal && c.dtype().is_integer() => format!("Literal[int]({})", c.as_i64()),
            _ => numba_name(b.ty(*r)).to_string(),
        },
        Val::Tuple(items) => {
            let parts: Vec<String> = items.iter().map(|x| numba_typeof(b, x, true)).collect();
            match parts.first() {
                Some(first)
                    if !first.starts_with("Literal") && parts.iter().all(|p| p == first) =>
                {
                    format!("UniTuple({first} x {})", parts.len())
                }
                _ => format!("Tuple({})", parts.join(", ")),
            }
        }
        Val::Array(ArrRef::Param(j), dtype, ndim) => match b.k.params.get(*j as usize) {
            Some(crate::kernel::types::Ty::Array { layout, .. }) => array(
                *dtype,
                *ndim,
                match layout {
                    crate::kernel::types::Layout::C => "C",
                    crate::kernel::types::Layout::A => "A",
                },
            ),
            _ => array(*dtype, *ndim, "A"),
        },
        Val::Array(_, dtype, ndim) => array(*dtype, *ndim, "C"),
        Val::View(view) => array(view.dtype, view.ndim(), "A"),
        Val::Global(Value::Int(i)) if literal => format!("Literal[int]({i})"),
        Val::Global(Value::Int(_)) => "int64".to_string(),
        Val::Global(Value::Float(_)) => "float64".to_string(),
        Val::Str(_) => "unicode_type".to_string(),
        Val::None => "none".to_string(),
        _ => "pyobject".to_string(),
    }
}

pub fn array_ctor(
    b: &mut Builder,
    cx: &mut FnCtx,
    shared: bool,
    c: &ast::ExprCall,
) -> PyResult<Val> {
    let range = c.range;
    let what = if shared {
        "cuda.shared.array"
    } else {
        "cuda.local.array"
    };
    let mut shape_e = c.arguments.args.first();
    let mut dtype_e = c.arguments.args.get(1);
    for k in c.arguments.keywords.iter() {
        match k.arg.as_ref().map(|a| a.id.as_str()) {
            Some("shape") => shape_e = Some(&k.value),
            Some("dtype") => dtype_e = Some(&k.value),
            _ => return Err(cx.typing(format!("{what}() takes shape and dtype"), k.range)),
        }
    }
    let (Some(se), Some(de)) = (shape_e, dtype_e) else {
        return Err(cx.typing(format!("{what}() missing shape or dtype"), range));
    };
    let shape = match const_shape(b, cx, se) {
        Ok(shape) => shape,
        Err(why) => return Err(no_implementation(b, cx, what, se, de, why)),
    };
    let dv = expr(b, cx, de)?;
    let dtype = dtype_of(&dv).ok_or_else(|| {
        let msg = match &dv {
            Val::Str(s) => format!("Invalid NumPy dtype specified: '{s}' ({what}() needs a NumPy dtype name such as 'float32')"),
            _ => format!("{what}(): dtype must be a NumPy or Numba type such as np.float32"),
        };
        cx.typing(msg, de.range())
    })?;
    let dynamic = shared && shape == [0];
    let decl = ArrayDecl {
        dtype,
        shape: shape.clone(),
        dynamic,
        data: Vec::new(),
    };
    let nd = shape.len();
    if shared {
        b.k.uses_block = true;
        b.k.shared.push(decl);
        Ok(Val::Array(
            ArrRef::Shared((b.k.shared.len() - 1) as u32),
            dtype,
            nd,
        ))
    } else {
        b.k.local.push(decl);
        Ok(Val::Array(
            ArrRef::Local((b.k.local.len() - 1) as u32),
            dtype,
            nd,
        ))
    }
}

/// A host array captured at compile time becomes a constant array of the kernel.
pub fn const_array(
    b: &mut Builder,
    cx: &FnCtx,
    host: &NdArray,
    range: TextRange,
) -> PyResult<(ArrRef, DType, usize)> {
    if host.ndim() == 0 || host.ndim() > 3 {
        return Err(cx.typing("constant arrays need 1 to 3 dimensions", range));
    }
    let isz = host.dtype.itemsize();
    let n = host.size();
    let mut data = vec![0u8; n * isz]; // bounded: bytes of an existing array
    let mut idx = vec![0usize; host.ndim()]; // bounded: ndim <= 3
    for k in 0..n {
        let mut off = host.offset as isize;
        for (d, &i) in idx.iter().enumerate() {
            off += i as isize * host.strides[d];
        }
        host.buf
            .read(off as usize, &mut data[k * isz..(k + 1) * isz]);
        for ax in (0..idx.len()).rev() {
            idx[ax] += 1;
            if idx[ax] < host.shape[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
    b.k.consts.push(ArrayDecl {
        dtype: host.dtype,
        shape: host.shape.clone(),
        dynamic: false,
        data,
    });
    Ok((
        ArrRef::Const((b.k.consts.len() - 1) as u32),
        host.dtype,
        host.ndim(),
    ))
}
