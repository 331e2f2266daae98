//! AST → IR for expressions: literals, names, attributes, indexing, operators with Numba's
//! typing rules, comparisons, boolean operators and conditional expressions.

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp, Unary};
use crate::kernel::builder::Builder;
use crate::kernel::ir::{Op, Reg, Special, Stmt};
use crate::kernel::types::{self, numba_name};
use crate::numba::frontend::views::{has_slice, slice_items, ArrView, Item};
use crate::numba::frontend::{global_val, FnCtx, Val};

pub fn describe(b: &Builder, v: &Val) -> String {
    match v {
        Val::Reg(r) => numba_name(b.ty(*r)).to_string(),
        Val::Tuple(items) => format!(
            "UniTuple({})",
            items
                .iter()
                .map(|i| describe(b, i))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Val::Array(_, d, n) => format!("array({}, {}d, A)", numba_name(*d), n),
        Val::View(v) => format!("array({}, {}d, A)", numba_name(v.dtype), v.ndim()),
        Val::Path(p) => format!("Module/function({p})"),
        Val::Module(m) => format!("Module({})", m.name),
        Val::Global(g) => format!("Global({})", g.type_name()),
        Val::Str(_) => "unicode_type".into(),
        Val::None => "none".into(),
    }
}

/// A scalar register from a value, or a TypingError naming what was found.
pub fn scalar(
    b: &mut Builder,
    cx: &FnCtx,
    v: Val,
    range: TextRange,
) -> crate::py::error::PyResult<Reg> {
    match v {
        Val::Reg(r) => Ok(r),
        Val::Path(p) => match constant_path(&p) {
            Some(x) => Ok(b.konst(Scalar::F64(x))),
            None => Err(cx.typing(
                format!("expected a number, got {}", describe(b, &Val::Path(p))),
                range,
            )),
        },
        other => Err(cx.typing(
            format!("expected a number, got {}", describe(b, &other)),
            range,
        )),
    }
}

fn constant_path(p: &str) -> Option<f64> {
    Some(match p {
        "math.pi" | "np.pi" => std::f64::consts::PI,
        "math.e" | "np.e" => std::f64::consts::E,
        "math.tau" => std::f64::consts::TAU,
        "math.inf" | "np.inf" => f64::INFINITY,
        "math.nan" | "np.nan" => f64::NAN,
        _ => return None,
    })
}

/// Evaluate a condition to a boolean register.
pub fn truth(b: &mut Builder, cx: &mut FnCtx, e: &Expr) -> crate::py::error::PyResult<Reg> {
    let v = expr(b, cx, e)?;
    let r = scalar(b, cx, v, e.range())?;
    Ok(to_bool(b, r))
}

pub fn to_bool(b: &mut Builder, r: Reg) -> Reg {
    if b.ty(r) == DType::Bool {
        return r;
    }
    let zero = b.konst(Scalar::I64(0));
    let zero = b.cast(zero, b.ty(r));
    b.emit(DType::Bool, Op::Cmp(Cmp::Ne, r, zero))
}

pub fn expr(b: &mut Builder, cx: &mut FnCtx, e: &Expr) -> crate::py::error::PyResult<Val> {
    Ok(match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => match (i.as_i64(), i.as_u64()) {
                (Some(v), _) => Val::Reg(b.konst(Scalar::I64(v))),
                // Numba types literals above int64's range as uint64.
                (None, Some(v)) => Val::Reg(b.konst(Scalar::U64(v))),
                _ => return Err(cx.typing("integer literal too large for uint64", e.range())),
            },
            ast::Number::Float(f) => Val::Reg(b.konst(Scalar::F64(*f))),
            ast::Number::Complex { .. } => return Err(cx.unsupported("complex numbers", e.range())),
        },
        Expr::BooleanLiteral(x) => Val::Reg(b.konst(Scalar::Bool(x.value))),
        Expr::NoneLiteral(_) => Val::None,
        Expr::StringLiteral(s) => Val::Str(s.value.to_str().to_string()),
        Expr::Name(n) => cx.lookup(b, n.id.as_str(), e.range())?,
        Expr::Attribute(a) => {
            if let Some(v) = named_field(cx, &a.value, a.attr.id.as_str()) {
                return Ok(v);
            }
            let base = expr(b, cx, &a.value)?;
            attribute(b, cx, base, a.attr.id.as_str(), e.range())?
        }
        Expr::Subscript(s) => {
            let base = expr(b, cx, &s.value)?;
            match base {
                Val::Array(..) | Val::View(..) => {
                    // invariant: matched Val::Array or Val::View just above
                    let view = ArrView::of(&base).expect("an array value");
                    if has_slice(&s.slice) {
                        let items = slice_items(b, cx, &s.slice)?;
                        view.subscript(b, cx, items, s.slice.range())?.into_val()
                    } else {
                        let nd = view.ndim();
                        let idx = index_regs_partial(b, cx, &s.slice, nd, true)?;
                        if idx.len() < nd {
                            let items = idx.into_iter().map(Item::Index).collect();
                            view.subscript(b, cx, items, s.slice.range())?.into_val()
                        } else {
                            let dt = view.dtype;
                            let (a, idx) = view.element(b, idx);
                            Val::Reg(b.emit(dt, Op::Load(a, idx)))
                        }
                    }
                }
                Val::Tuple(items) => {
                    let i = const_int(cx, &s.slice)?;
                    let n = items.len() as i64;
                    let j = if i < 0 { i + n } else { i };
                    if j < 0 || j >= n {
                        return Err(cx.typing(
                            format!("tuple index {i} out of range for a tuple of {n}"),
                            e.range(),
                        ));
                    }
                    items[j as usize].clone()
                }
                Val::Global(crate::py::value::Value::Array(ref host)) => {
                    let (a, dt, nd) =
                        crate::numba::frontend::arrays::const_array(b, cx, host, e.range())?;
                    let _ = a;
                    let idx = index_regs(b, cx, &s.slice, nd)?;
                    Val::Reg(b.emit(dt, Op::Load(a, idx)))
                }
                Val::Path(p) if p.starts_with("numba.") || p.starts_with("np.") => {
                    return Err(cx.typing(
                        format!("array type {p}[...] cannot be used inside a compiled function"),
                        e.range(),
                    ))
                }
                other => {
                    return Err(cx.typing(
                        format!("'{}' is not subscriptable", describe(b, &other)),
                        e.range(),
                    ))
                }
            }
        }
        Expr::Tuple(t) => {
            let mut items = Vec::new();
            for x in t.elts.iter() {
                items.push(expr(b, cx, x)?);
            }
            Val::Tuple(items)
        }
        Expr::BinOp(bo) => {
            let l = expr(b, cx, &bo.left)?;
            let r = expr(b, cx, &bo.right)?;
            binop(b, cx, bo.op, l, r, e.range())?
        }
        Expr::UnaryOp(u) => {
            let v = expr(b, cx, &u.operand)?;
            let r = scalar(b, cx, v, u.operand.range())?;
            let t = b.ty(r);
            match u.op {
                ast::UnaryOp::Not => {
                    let x = to_bool(b, r);
                    Val::Reg(b.emit(DType::Bool, Op::Un(Unary::Not, x)))
                }
                ast::UnaryOp::UAdd => Val::Reg(r),
                ast::UnaryOp::USub => {
                    let rt = if t == DType::Bool {
                        DType::I64
                    } else {
                        types::arith(t, t)
                    };
                    let x = b.cast(r, rt);
                    Val::Reg(b.emit(rt, Op::Un(Unary::Neg, x)))
                }
                ast::UnaryOp::Invert => {
                    if t.is_float() {
                        return Err(cx.typing("bad operand type for unary ~: float", e.range()));
                    }
                    let rt = if t == DType::Bool {
                        DType::Bool
                    } else {
                        types::arith(t, t)
                    };
                    let x = b.cast(r, rt);
                    Val::Reg(b.emit(rt, Op::Un(Unary::Invert, x)))
                }
            }
        }
        Expr::Compare(c) => {
            let mut left = expr(b, cx, &c.left)?;
            let mut result: Option<Reg> = None;
            for (op, right_e) in c.ops.iter().zip(c.comparators.iter()) {
                let right = expr(b, cx, right_e)?;
                let r = compare(b, cx, *op, left, right.clone(), e.range())?;
                result = Some(match result {
                    None => r,
                    Some(prev) => b.emit(DType::Bool, Op::Bin(Arith::BitAnd, prev, r)),
                });
                left = right;
            }
            // invariant: the parser gives every comparison at least one operator
            Val::Reg(result.expect("a comparison has at least one operator"))
        }
        Expr::BoolOp(bo) => {
            // Short-circuit: the right operand runs only for lanes that need it, so
            // `i < n and a[i] > 0` never reads out of bounds.
            let res = b.new_reg(DType::Bool);
            let first = truth(b, cx, &bo.values[0])?;
            b.emit_to(res, Op::Copy(first));
            boolop_rest(b, cx, bo.op, res, &bo.values[1..])?;
            Val::Reg(res)
        }
        Expr::If(i) => {
            let c = truth(b, cx, &i.test)?;
            b.begin();
            let tv = expr(b, cx, &i.body)?;
            let tr = scalar(b, cx, tv, i.body.range())?;
            let mut then = b.end();
            b.begin();
            let ev = expr(b, cx, &i.orelse)?;
            let er = scalar(b, cx, ev, i.orelse.range())?;
            let mut els = b.end();
            let t = types::unify(b.ty(tr), b.ty(er));
            let res = b.new_reg(t);
            b.begin();
            b.assign(res, tr);
            then.extend(b.end());
            b.begin();
            b.assign(res, er);
            els.extend(b.end());
            b.push(Stmt::If(c, then, els));
            Val::Reg(res)
        }
        Expr::Call(call) => crate::numba::frontend::calls::call(b, cx, call)?,
        Expr::List(_) | Expr::ListComp(_) => {
            return Err(cx.unsupported("lists in a compiled function", e.range()))
        }
        Expr::Dict(_) | Expr::DictComp(_) => {
            return Err(cx.unsupported("dicts in a compiled function", e.range()))
        }
        Expr::Lambda(_) => return Err(cx.unsupported("lambda", e.range())),
        Expr::Generator(_) | Expr::SetComp(_) | Expr::Set(_) => {
            return Err(cx.unsupported("sets and generators", e.range()))
        }
        Expr::FString(_) => return Err(cx.unsupported("f-strings", e.range())),
        Expr::Slice(_) => {
            return Err(cx.unsupported("array slicing in a compiled function", e.range()))
        }
        _ => return Err(cx.unsupported("this expression", e.range())),
    })
}

fn boolop_rest(
    b: &mut Builder,
    cx: &mut FnCtx,
    op: ast::BoolOp,
    res: Reg,
    rest: &[Expr],
) -> crate::py::error::PyResult<()> {
    let Some((first, more)) = rest.split_first() else {
        return Ok(());
    };
    b.begin();
    let r = truth(b, cx, first)?;
    b.emit_to(res, Op::Copy(r));
    boolop_rest(b, cx, op, res, more)?;
    let inner = b.end();
    match op {
        ast::BoolOp::And => b.push(Stmt::If(res, inner, vec![])),
        ast::BoolOp::Or => b.push(Stmt::If(res, vec![], inner)),
    }
    Ok(())
}

pub fn const_int(cx: &FnCtx, e: &Expr) -> crate::py::error::PyResult<i64> {
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i
                .as_i64()
                .ok_or_else(|| cx.typing("index too large", e.range())),
            _ => Err(cx.typing("tuple indices must be integer constants", e.range())),
        },
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub) => Ok(-const_int(cx, &u.operand)?),
        _ => Err(cx.typing(
            "tuple indices must be integer constants in compiled code",
            e.range(),
        )),
    }
}

/// Index registers (int64) for an `nd`-dimensional array access.
pub fn index_regs(
    b: &mut Builder,
    cx: &mut FnCtx,
    slice: &Expr,
    nd: usize,
) -> crate::py::error::PyResult<Vec<Reg>> {
    index_regs_partial(b, cx, slice, nd, false)
}

/// Index registers; with `partial`, fewer indices than dimensions are allowed (the result
/// is then a sub-array view).
pub fn index_regs_partial(
    b: &mut Builder,
    cx: &mut FnCtx,
    slice: &Expr,
    nd: usize,
    partial: bool,
) -> crate::py::error::PyResult<Vec<Reg>> {
    if has_slice(slice) {
        return Err(cx.unsupported(
            "array slicing here (index single elements, e.g. a[i, j])",
            slice.range(),
        ));
    }
    let v = expr(b, cx, slice)?;
    let items = match v {
        Val::Tuple(items) => items,
        other => vec![other],
    };
    if items.len() != nd && !(partial && !items.is_empty() && items.len() < nd) {
        return Err(cx.typing(
            format!(
                "cannot index a {nd}-dimensional array with {} indices{}",
                items.len(),
                if items.len() < nd {
                    " (assign to single elements, e.g. a[i, j] = x)"
                } else {
                    ""
                }
            ),
            slice.range(),
        ));
    }
    let mut out = Vec::new();
    for it in items {
        let r = scalar(b, cx, it, slice.range())?;
        let t = b.ty(r);
        if t.is_float() {
            return Err(cx.typing(
                format!("array indices must be integers, got {}", numba_name(t)),
                slice.range(),
            ));
        }
        out.push(b.cast(r, DType::I64));
    }
    Ok(out)
}

/// `p.x` for a parameter passed as a namedtuple with a field x.
fn named_field(cx: &FnCtx, base: &Expr, attr: &str) -> Option<Val> {
    let Expr::Name(n) = base else { return None };
    let i = cx
        .fields
        .get(n.id.as_str())?
        .iter()
        .position(|f| f == attr)?;
    match cx.vars.get(n.id.as_str())? {
        Val::Tuple(items) => items.get(i).cloned(),
        _ => None,
    }
}

pub(crate) fn attribute(
    b: &mut Builder,
    cx: &mut FnCtx,
    base: Val,
    attr: &str,
    range: TextRange,
) -> crate::py::error::PyResult<Val> {
    Ok(match base {
        Val::Array(..) | Val::View(..) => {
            // invariant: matched Val::Array or Val::View just above
            let view = ArrView::of(&base).expect("an array value");
            let (dt, nd) = (view.dtype, view.ndim());
            match attr {
                "shape" => Val::Tuple(view.shape(b).into_iter().map(Val::Reg).collect()),
                "size" if nd == 0 => Val::Reg(b.konst(Scalar::I64(1))),
                "size" => {
                    let mut acc = view.extent(b, 0);
                    for d in 1..nd {
                        let x = view.extent(b, d);
                        acc = b.emit(DType::I64, Op::Bin(Arith::Mul, acc, x));
                    }
                    Val::Reg(acc)
                }
                "ndim" => Val::Reg(b.konst(Scalar::I64(nd as i64))),
                _ => {
                    return Err(cx.typing(
                        format!(
                            "Unknown attribute '{attr}' of type array({}, {nd}d, A)",
                            numba_name(dt)
                        ),
                        range,
                    ))
                }
            }
        }
        Val::Module(m) => {
            let prefix = match m.name.as_str() {
                "numba.cuda" => "cuda",
                "math" => "math",
                "numpy" => "np",
                "numba" => "numba",
                "numba.cuda.random" => "random",
                other => other,
            };
            if prefix == "numba" && attr == "cuda" {
                return Ok(Val::Path("cuda".into()));
            }
            // Dispatchers and host values stored in modules are looked up as globals.
            if !matches!(prefix, "cuda" | "math" | "np" | "numba" | "random") {
                match m.get(attr) {
                    Some(v) => return global_val(b, v),
                    None => {
                        return Err(cx.typing(
                            format!("Unknown attribute '{attr}' of module {}", m.name),
                            range,
                        ))
                    }
                }
            }
            Val::Path(format!("{prefix}.{attr}"))
        }
        Val::Path(p) => {
            let dim = |s: &str| match s {
                "x" => Some(0u8),
                "y" => Some(1),
                "z" => Some(2),
                _ => None,
            };
            let sreg = match p.as_str() {
                "cuda.threadIdx" => dim(attr).map(Special::Tid),
                "cuda.blockIdx" => dim(attr).map(Special::Ctaid),
                "cuda.blockDim" => dim(attr).map(Special::Ntid),
                "cuda.gridDim" => dim(attr).map(Special::Nctaid),
                _ => None,
            };
            if let Some(s) = sreg {
                return Ok(Val::Reg(b.emit(DType::I32, Op::Special(s))));
            }
            if matches!(
                p.as_str(),
                "cuda.threadIdx" | "cuda.blockIdx" | "cuda.blockDim" | "cuda.gridDim"
            ) {
                return Err(cx.typing(format!("Unknown attribute '{attr}' of {p}"), range));
            }
            Val::Path(format!("{p}.{attr}"))
        }
        other => {
            return Err(cx.typing(
                format!("Unknown attribute '{attr}' of type {}", describe(b, &other)),
                range,
            ));
        }
    })
    .map(|v| match v {
        Val::Path(ref p) if p == "cuda.laneid" => {
            Val::Reg(b.emit(DType::I32, Op::Special(Special::LaneId)))
        }
        Val::Path(ref p) if p == "cuda.warpsize" => {
            Val::Reg(b.emit(DType::I32, Op::Special(Special::WarpSize)))
        }
        other => other,
    })
}

pub fn binop(
    b: &mut Builder,
    cx: &mut FnCtx,
    op: ast::Operator,
    l: Val,
    r: Val,
    range: TextRange,
) -> crate::py::error::PyResult<Val> {
    let (lv, rv) = (l.clone(), r.clone());
    let (Ok(x), Ok(y)) = (scalar(b, cx, l, range), scalar(b, cx, r, range)) else {
        return Err(cx.typing(
            format!(
                "No implementation of operator {} for ({}, {})",
                op.as_str(),
                describe(b, &lv),
                describe(b, &rv)
            ),
            range,
        ));
    };
    let (tx, ty) = (b.ty(x), b.ty(y));
    use ast::Operator as O;
    let (bin, rt) = match op {
        O::Add => (Arith::Add, types::arith(tx, ty)),
        O::Sub => (Arith::Sub, types::arith(tx, ty)),
        O::Mult => (Arith::Mul, types::arith(tx, ty)),
        O::Div => (Arith::Div, types::true_div(tx, ty)),
        O::FloorDiv => (Arith::FloorDiv, types::arith(tx, ty)),
        O::Mod => (Arith::Mod, types::arith(tx, ty)),
        O::Pow => (Arith::Pow, types::arith(tx, ty)),
        O::BitAnd | O::BitOr | O::BitXor | O::LShift | O::RShift => {
            if tx.is_float() || ty.is_float() {
                return Err(cx.typing(
                    format!(
                        "No implementation of operator {} for ({}, {})",
                        op.as_str(),
                        numba_name(tx),
                        numba_name(ty)
                    ),
                    range,
                ));
            }
            let b_op = match op {
                O::BitAnd => Arith::BitAnd,
                O::BitOr => Arith::BitOr,
                O::BitXor => Arith::BitXor,
                O::LShift => Arith::LShift,
                _ => Arith::RShift,
            };
            let t = if tx == DType::Bool
                && ty == DType::Bool
                && !matches!(b_op, Arith::LShift | Arith::RShift)
            {
                DType::Bool
            } else {
                types::arith(tx, ty)
            };
            (b_op, t)
        }
        O::MatMult => return Err(cx.unsupported("the @ operator", range)),
    };
    let xa = b.cast(x, rt);
    let ya = b.cast(y, rt);
    if cx.debug {
        zero_division_check(b, bin, tx, ty, ya);
    }
    Ok(Val::Reg(b.emit(rt, Op::Bin(bin, xa, ya))))
}

/// Under `debug=True` Numba uses Python's error model: a zero divisor raises
/// ZeroDivisionError (with Numba's message for each operator) instead of computing.
fn zero_division_check(b: &mut Builder, bin: Arith, tx: DType, ty: DType, divisor: Reg) {
    let ints = !tx.is_float() && !ty.is_float();
    let message = match bin {
        Arith::Div => "division by zero",
        Arith::FloorDiv if ints => "integer division by zero",
        Arith::FloorDiv => "division by zero",
        Arith::Mod if ints => "integer modulo by zero",
        Arith::Mod => "modulo by zero",
        _ => return,
    };
    let zero = b.konst(Scalar::I64(0));
    let zero = b.cast(zero, b.ty(divisor));
    let is_zero = b.emit(DType::Bool, Op::Cmp(Cmp::Eq, divisor, zero));
    b.begin();
    b.emit_void(Op::Raise {
        ename: "ZeroDivisionError".into(),
        message: message.into(),
    });
    b.push(crate::kernel::ir::Stmt::Exit);
    let raise = b.end();
    b.push(crate::kernel::ir::Stmt::If(is_zero, raise, Vec::new()));
}

pub fn compare(
    b: &mut Builder,
    cx: &mut FnCtx,
    op: ast::CmpOp,
    l: Val,
    r: Val,
    range: TextRange,
) -> crate::py::error::PyResult<Reg> {
    use ast::CmpOp as C;
    if matches!(op, C::Is | C::IsNot) {
        let same = matches!((&l, &r), (Val::None, Val::None));
        let v = if matches!(op, C::Is) { same } else { !same };
        return Ok(b.konst(Scalar::Bool(v)));
    }
    let x = scalar(b, cx, l, range)?;
    let y = scalar(b, cx, r, range)?;
    let t = types::promote(b.ty(x), b.ty(y));
    let (x, y) = (b.cast(x, t), b.cast(y, t));
    let c = match op {
        C::Eq => Cmp::Eq,
        C::NotEq => Cmp::Ne,
        C::Lt => Cmp::Lt,
        C::LtE => Cmp::Le,
        C::Gt => Cmp::Gt,
        C::GtE => Cmp::Ge,
        _ => return Err(cx.unsupported("'in' comparisons", range)),
    };
    Ok(b.emit(DType::Bool, Op::Cmp(c, x, y)))
}

/// Numba's dtype for a dtype-like compile-time value (`np.float32`, `numba.int32`,
/// `'float32'`, a dtype object).
pub fn dtype_of(v: &Val) -> Option<DType> {
    match v {
        Val::Path(p) => {
            let name = p.rsplit('.').next()?;
            if p.starts_with("np.") || p.starts_with("numba.") {
                crate::kernel::types::parse_dtype(name).ok()
            } else {
                None
            }
        }
        Val::Str(s) => crate::kernel::types::parse_dtype(s).ok(),
        Val::Global(g) => crate::numba::numba_types::dtype_of_value(g),
        _ => None,
    }
}
