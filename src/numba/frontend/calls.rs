//! AST → IR for calls: builtins, `math.*`/`np.*`, casts, the `cuda.*` intrinsics (grid,
//! shared/local/const arrays, barriers, fences, atomics), xoroshiro128p draws and `print`.
//! Calls of device functions are inlined by `inline.rs`.

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Unary};
use crate::kernel::builder::Builder;
use crate::kernel::ir::{BarrierKind, FenceScope, MathFn, Op, Reg, RngKind, Special, Stmt};
use crate::kernel::types::{self, numba_name};
use crate::numba::frontend::expr::{describe, expr, scalar, to_bool};
use crate::numba::frontend::views::ArrView;
use crate::numba::frontend::{FnCtx, Val};
use crate::py::error::PyResult;
use crate::py::function::Function;
use crate::py::value::Value;

pub fn call(b: &mut Builder, cx: &mut FnCtx, c: &ast::ExprCall) -> PyResult<Val> {
    // `n.bit_count()` on an integer (Python 3.10+): the number of set bits.
    if let Expr::Attribute(at) = &*c.func {
        if at.attr.as_str() == "bit_count" && c.arguments.is_empty() {
            if let Val::Reg(x) = expr(b, cx, &at.value)? {
                let t = b.ty(x);
                if t.is_integer() && t != DType::Bool {
                    // Python counts the bits of abs(n).
                    let x = if t.is_signed() {
                        b.emit(t, Op::Un(Unary::Abs, x))
                    } else {
                        x
                    };
                    return Ok(Val::Reg(b.emit(t, Op::Un(Unary::Popc, x))));
                }
            }
        }
    }
    // `arr.reshape(shape)`: arrays have no bound methods as values, so the call is
    // recognised here.
    if let Expr::Attribute(at) = &*c.func {
        if at.attr.as_str() == "reshape" && c.arguments.keywords.is_empty() {
            if let Some(view) = ArrView::of(&expr(b, cx, &at.value)?) {
                let mut args = Vec::new();
                for a in c.arguments.args.iter() {
                    args.push(expr(b, cx, a)?);
                }
                return crate::numba::frontend::views::reshape(b, cx, view, args, c.range);
            }
        }
    }
    let callee = expr(b, cx, &c.func)?;
    let range = c.range;
    // Shape/dtype arguments of array constructors are compile-time constants.
    if let Val::Path(p) = &callee {
        if p == "cuda.shared.array" || p == "cuda.local.array" {
            return crate::numba::frontend::arrays::array_ctor(b, cx, p == "cuda.shared.array", c);
        }
    }
    let mut args = Vec::new();
    for a in c.arguments.args.iter() {
        if matches!(a, Expr::Starred(_)) {
            return Err(cx.unsupported("*args in calls", a.range()));
        }
        args.push(expr(b, cx, a)?);
    }
    let mut kwargs = Vec::new();
    for k in c.arguments.keywords.iter() {
        let Some(name) = &k.arg else {
            return Err(cx.unsupported("**kwargs in calls", k.range));
        };
        kwargs.push((name.id.to_string(), expr(b, cx, &k.value)?));
    }
    match callee {
        Val::Path(p) => path_call(b, cx, &p, args, kwargs, c),
        Val::Global(g) => {
            if let Some(d) = crate::numba::numba_types::dtype_of_value(&g) {
                return cast_call(b, cx, d, args, range);
            }
            if let Some(f) = crate::numba::dispatch::device_function(&g) {
                let sigs = crate::numba::dispatch::device_signatures(&g);
                let (args, ret) =
                    crate::numba::frontend::inline::coerce_to_signature(b, &sigs, args);
                let v = crate::numba::frontend::inline::inline_call(b, cx, f, args, kwargs, range)?;
                return Ok(match (v, ret) {
                    (Val::Reg(r), Some(t)) => Val::Reg(b.cast(r, t)),
                    (v, _) => v,
                });
            }
            if g.downcast::<crate::numba::njit::NjitFunction>().is_some() {
                return Err(cx.typing(
                    format!(
                        "Untyped global name '{}': using cpu function on device but its compilation is disabled: it was declared with a signature, so Numba compiled it for the CPU only; drop the signature or use @cuda.jit(device=True)",
                        c.func.as_ref().as_name_expr().map(|n| n.id.as_str()).unwrap_or("?")
                    ),
                    range,
                ));
            }
            if g.downcast::<crate::numba::dispatch::CudaKernel>().is_some() {
                return Err(cx.typing(
                    "a @cuda.jit kernel cannot be called from GPU code; declare the callee with @cuda.jit(device=True)",
                    range,
                ));
            }
            if g.downcast::<Function>().is_some() {
                return Err(cx.typing(
                    format!(
                        "Untyped global name '{}': cannot determine Numba type of <class 'function'>; decorate it with @cuda.jit(device=True) to call it from a kernel",
                        c.func.as_ref().as_name_expr().map(|n| n.id.as_str()).unwrap_or("?")
                    ),
                    range,
                ));
            }
            Err(cx.typing(
                format!(
                    "cannot call a value of type {} in compiled code",
                    g.type_name()
                ),
                range,
            ))
        }
        other => Err(cx.typing(
            format!("'{}' is not callable in compiled code", describe(b, &other)),
            range,
        )),
    }
}

pub fn nargs(cx: &FnCtx, name: &str, args: &[Val], n: usize, range: TextRange) -> PyResult<()> {
    if args.len() != n {
        return Err(cx.typing(
            format!(
                "{name}() takes {n} argument(s) but {} were given",
                args.len()
            ),
            range,
        ));
    }
    Ok(())
}

fn cast_call(
    b: &mut Builder,
    cx: &FnCtx,
    d: DType,
    args: Vec<Val>,
    range: TextRange,
) -> PyResult<Val> {
    nargs(cx, numba_name(d), &args, 1, range)?;
    let r = scalar(b, cx, args.into_iter().next().unwrap_or(Val::None), range)?;
    if d == DType::Bool {
        return Ok(Val::Reg(to_bool(b, r)));
    }
    Ok(Val::Reg(b.cast(r, d)))
}

fn math_call(
    b: &mut Builder,
    cx: &FnCtx,
    f: MathFn,
    p: &str,
    args: Vec<Val>,
    range: TextRange,
) -> PyResult<Val> {
    nargs(cx, p, &args, f.arity(), range)?;
    let mut regs = Vec::new();
    for a in args {
        regs.push(scalar(b, cx, a, range)?);
    }
    let t = regs
        .iter()
        .fold(None, |acc: Option<DType>, r| {
            Some(match acc {
                None => b.ty(*r),
                Some(a) => types::promote(a, b.ty(*r)),
            })
        })
        .unwrap_or(DType::F64);
    if f.is_predicate() && !t.is_float() {
        // Integers are never NaN or infinite.
        return Ok(Val::Reg(
            b.konst(Scalar::Bool(matches!(f, MathFn::IsFinite))),
        ));
    }
    if matches!(f, MathFn::Fabs) && p.starts_with("np.") && !t.is_float() {
        let x = b.cast(regs[0], t);
        return Ok(Val::Reg(b.emit(t, Op::Un(Unary::Abs, x))));
    }
    let ft = types::math_float(t);
    let xs: Vec<Reg> = regs.iter().map(|r| b.cast(*r, ft)).collect();
    if f.is_predicate() {
        return Ok(Val::Reg(b.emit(DType::Bool, Op::Math(f, xs))));
    }
    let r = b.emit(ft, Op::Math(f, xs));
    // Python's math.floor/ceil/trunc return integers; NumPy's return floats.
    if p.starts_with("math.") && matches!(f, MathFn::Floor | MathFn::Ceil | MathFn::Trunc) {
        return Ok(Val::Reg(b.cast(r, DType::I64)));
    }
    Ok(Val::Reg(r))
}

/// `math.modf(x)`: (fractional part, integral part), both with the sign of x; infinities
/// split into (±0.0, ±inf), as in Python.
fn modf(b: &mut Builder, x: Reg) -> Val {
    let t = types::math_float(b.ty(x));
    let x = b.cast(x, t);
    let whole = b.emit(t, Op::Math(MathFn::Trunc, vec![x]));
    let diff = b.emit(t, Op::Bin(Arith::Sub, x, whole));
    let inf = b.emit(DType::Bool, Op::Math(MathFn::IsInf, vec![x]));
    let zero = b.konst(Scalar::F64(0.0));
    let zero = b.cast(zero, t);
    let frac = b.emit(t, Op::Select(inf, zero, diff));
    let frac = b.emit(t, Op::Math(MathFn::Copysign, vec![frac, x]));
    Val::Tuple(vec![Val::Reg(frac), Val::Reg(whole)])
}

/// `round(x, ndigits)` as Numba compiles it (CPython's pre-3.x float algorithm): scale by
/// a power of ten, round half to even, scale back; NaN, infinities and scalings that
/// overflow give `x` back. Integers round to themselves for ndigits >= 0 and to a
/// multiple of 10**-ndigits otherwise (computed in float64, as the result type is int).
fn round_ndigits(b: &mut Builder, x: Reg, nd: Reg) -> Reg {
    use crate::arrays::operator::Cmp;
    let int_in = !b.ty(x).is_float();
    // Numba's implementation scales by float64 powers of ten, so float32 values are
    // rounded in float64 too (round(np.float32(0.3425), 3) is 0.343, not 0.342).
    let t = DType::F64;
    let xf = b.cast(x, t);
    let nd = b.cast(nd, DType::I64);
    let c = |b: &mut Builder, v: f64| {
        let k = b.konst(Scalar::F64(v));
        b.cast(k, t)
    };
    let zero = b.konst(Scalar::I64(0));
    let neg = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, nd, zero));
    // ndigits >= 0: x * 10**e1 * pow2, splitting 10**ndigits past 1e22 so neither overflows.
    let nd_pos = b.emit(DType::I64, Op::Select(neg, zero, nd));
    let k22 = b.konst(Scalar::I64(22));
    let big = b.emit(DType::Bool, Op::Cmp(Cmp::Gt, nd_pos, k22));
    let less22 = b.emit(DType::I64, Op::Bin(Arith::Sub, nd_pos, k22));
    let e1 = b.emit(DType::I64, Op::Select(big, less22, nd_pos));
    let ten = c(b, 10.0);
    let e1f = b.cast(e1, t);
    let pow1 = b.emit(t, Op::Bin(Arith::Pow, ten, e1f));
    let (p22, one) = (c(b, 1e22), c(b, 1.0));
    let pow2 = b.emit(t, Op::Select(big, p22, one));
    let y1 = b.emit(t, Op::Bin(Arith::Mul, xf, pow1));
    let y_pos = b.emit(t, Op::Bin(Arith::Mul, y1, pow2));
    // ndigits < 0: x / 10**-ndigits.
    let minus = b.emit(DType::I64, Op::Bin(Arith::Sub, zero, nd));
    let e_neg = b.emit(DType::I64, Op::Select(neg, minus, zero));
    let e_negf = b.cast(e_neg, t);
    let pown = b.emit(t, Op::Bin(Arith::Pow, ten, e_negf));
    let y_neg = b.emit(t, Op::Bin(Arith::Div, xf, pown));
    let y = b.emit(t, Op::Select(neg, y_neg, y_pos));
    let z = b.emit(t, Op::Math(MathFn::Round, vec![y]));
    let z1 = b.emit(t, Op::Bin(Arith::Div, z, pow2));
    let back_pos = b.emit(t, Op::Bin(Arith::Div, z1, pow1));
    let back_neg = b.emit(t, Op::Bin(Arith::Mul, z, pown));
    let r = b.emit(t, Op::Select(neg, back_neg, back_pos));
    let overflow = b.emit(DType::Bool, Op::Math(MathFn::IsInf, vec![y_pos]));
    let no = b.konst(Scalar::Bool(false));
    let keep_big = b.emit(DType::Bool, Op::Select(neg, no, overflow));
    let r = b.emit(t, Op::Select(keep_big, xf, r));
    let nan = b.emit(DType::Bool, Op::Math(MathFn::IsNan, vec![xf]));
    let r = b.emit(t, Op::Select(nan, xf, r));
    let inf = b.emit(DType::Bool, Op::Math(MathFn::IsInf, vec![xf]));
    let r = b.emit(t, Op::Select(inf, xf, r));
    if int_in {
        let xi = b.cast(x, DType::I64);
        let ri = b.cast(r, DType::I64);
        return b.emit(DType::I64, Op::Select(neg, ri, xi));
    }
    // The result has the argument's type, as in Numba's typing of round(float32, int).
    let xt = b.ty(x);
    b.cast(r, xt)
}

fn const_arg(b: &Builder, cx: &FnCtx, v: &Val, what: &str, range: TextRange) -> PyResult<i64> {
    if let Val::Reg(r) = v {
        if let Some(Scalar::I64(x)) = defining_const(b, *r) {
            return Ok(x);
        }
    }
    // Numba's typing raises RequireLiteralValue here; keep its name for people searching.
    Err(cx.typing(
        format!("RequireLiteralValue: {what} must be an integer constant"),
        range,
    ))
}

/// The constant a register was defined with, if its definition is a `Const`.
fn defining_const(b: &Builder, r: Reg) -> Option<Scalar> {
    fn find(stmts: &[Stmt], r: Reg) -> Option<Scalar> {
        for s in stmts {
            match s {
                Stmt::Inst(i) if i.dst == Some(r) => {
                    return match &i.op {
                        Op::Const(s) => Some(*s),
                        _ => None,
                    }
                }
                Stmt::If(_, t, e) => {
                    if let Some(x) = find(t, r).or_else(|| find(e, r)) {
                        return Some(x);
                    }
                }
                Stmt::Loop { body, latch, .. } => {
                    if let Some(x) = find(body, r).or_else(|| find(latch, r)) {
                        return Some(x);
                    }
                }
                _ => {}
            }
        }
        None
    }
    b.open_blocks().iter().find_map(|blk| find(blk, r))
}

fn path_call(
    b: &mut Builder,
    cx: &mut FnCtx,
    p: &str,
    args: Vec<Val>,
    kwargs: Vec<(String, Val)>,
    c: &ast::ExprCall,
) -> PyResult<Val> {
    let range = c.range;
    if !kwargs.is_empty() && !p.starts_with("cuda.") {
        return Err(cx.typing(
            format!("{p}() does not take keyword arguments in compiled code"),
            range,
        ));
    }
    let scal = |b: &mut Builder, cx: &FnCtx, v: Val| scalar(b, cx, v, range);
    if let Some(name) = p.strip_prefix("operator.") {
        return operator_call(b, cx, name, args, range);
    }
    let bit_op = match p {
        "cuda.popc" => Some(Unary::Popc),
        "cuda.clz" => Some(Unary::Clz),
        "cuda.ffs" => Some(Unary::Ffs),
        "cuda.brev" => Some(Unary::Brev),
        _ => None,
    };
    if let Some(op) = bit_op {
        nargs(cx, p, &args, 1, range)?;
        let x = scal(b, cx, args.into_iter().next().unwrap_or(Val::None))?;
        let t = b.ty(x);
        if !t.is_integer() || t == DType::Bool {
            return Err(cx.typing(
                format!("No implementation of {p}() for {}", numba_name(t)),
                range,
            ));
        }
        // Numba's signatures: brev takes uint32 or uint64, ffs gives uint32, popc and clz
        // keep the type.
        return Ok(Val::Reg(match op {
            Unary::Brev => {
                let u = if t.itemsize() <= 4 {
                    DType::U32
                } else {
                    DType::U64
                };
                let x = b.cast(x, u);
                b.emit(u, Op::Un(op, x))
            }
            Unary::Ffs => {
                let r = b.emit(t, Op::Un(op, x));
                b.cast(r, DType::U32)
            }
            _ => b.emit(t, Op::Un(op, x)),
        }));
    }
    // cuda.cbrt is math.cbrt.
    let p = if p == "cuda.cbrt" { "math.cbrt" } else { p };
    match p {
        "builtin.range" => Err(cx.unsupported("range() outside a for loop", range)),
        "builtin.len" => {
            nargs(cx, "len", &args, 1, range)?;
            match &args[0] {
                Val::Array(..) | Val::View(..) => {
                    // invariant: matched Val::Array or Val::View just above
                    let view = ArrView::of(&args[0]).expect("an array");
                    if view.ndim() == 0 {
                        return Err(cx.typing("len() of unsized object", range));
                    }
                    Ok(Val::Reg(view.extent(b, 0)))
                }
                Val::Tuple(t) => Ok(Val::Reg(b.konst(Scalar::I64(t.len() as i64)))),
                other => Err(cx.typing(format!("len() of {}", describe(b, other)), range)),
            }
        }
        "builtin.min" | "builtin.max" => {
            let items = match args.as_slice() {
                [Val::Tuple(t)] => t.clone(),
                _ => args,
            };
            if items.len() < 2 {
                return Err(cx.typing(
                    format!(
                        "{}() of a single value is not supported; pass two or more numbers",
                        &p[8..]
                    ),
                    range,
                ));
            }
            let mut regs = Vec::new();
            for it in items {
                regs.push(scal(b, cx, it)?);
            }
            let t = regs
                .iter()
                .skip(1)
                .fold(b.ty(regs[0]), |a, r| types::promote(a, b.ty(*r)));
            let op = if p == "builtin.min" {
                Arith::Min
            } else {
                Arith::Max
            };
            let mut acc = b.cast(regs[0], t);
            for r in &regs[1..] {
                let x = b.cast(*r, t);
                acc = b.emit(t, Op::Bin(op, acc, x));
            }
            Ok(Val::Reg(acc))
        }
        "builtin.abs" => {
            nargs(cx, "abs", &args, 1, range)?;
            let r = scal(b, cx, args.into_iter().next().unwrap_or(Val::None))?;
            let t = if b.ty(r) == DType::Bool {
                DType::I64
            } else {
                b.ty(r)
            };
            let x = b.cast(r, t);
            Ok(Val::Reg(b.emit(t, Op::Un(Unary::Abs, x))))
        }
        "builtin.int" => cast_call(b, cx, DType::I64, args, range),
        "builtin.float" => cast_call(b, cx, DType::F64, args, range),
        "builtin.bool" => cast_call(b, cx, DType::Bool, args, range),
        "builtin.round" => {
            if args.len() == 2 {
                let mut it = args.into_iter();
                let x = scal(b, cx, it.next().unwrap_or(Val::None))?;
                let nd = scal(b, cx, it.next().unwrap_or(Val::None))?;
                return Ok(Val::Reg(round_ndigits(b, x, nd)));
            }
            if args.len() != 1 {
                return Err(cx.typing("round() takes 1 or 2 arguments", range));
            }
            let r = scal(b, cx, args.into_iter().next().unwrap_or(Val::None))?;
            if !b.ty(r).is_float() {
                return Ok(Val::Reg(b.cast(r, DType::I64)));
            }
            let t = b.ty(r);
            let x = b.emit(t, Op::Math(MathFn::Round, vec![r]));
            Ok(Val::Reg(b.cast(x, DType::I64)))
        }
        "builtin.pow" => {
            nargs(cx, "pow", &args, 2, range)?;
            let mut it = args.into_iter();
            let (x, y) = (
                it.next().unwrap_or(Val::None),
                it.next().unwrap_or(Val::None),
            );
            crate::numba::frontend::expr::binop(b, cx, ast::Operator::Pow, x, y, range)
        }
        "builtin.print" => crate::numba::frontend::printing::lower_print(b, cx, args, range),
        "cuda.grid" | "cuda.gridsize" => {
            nargs(cx, p, &args, 1, range)?;
            let n = const_arg(b, cx, &args[0], "the argument of cuda.grid()", range)?;
            if !(1..=3).contains(&n) {
                return Err(cx.typing(format!("{p}() argument must be 1, 2 or 3, got {n}"), range));
            }
            let mut items = Vec::new();
            for d in 0..n as u8 {
                let r = if p == "cuda.grid" {
                    b.emit(DType::I64, Op::Special(Special::GlobalId(d)))
                } else {
                    let n = b.emit(DType::I32, Op::Special(Special::Ntid(d)));
                    let g = b.emit(DType::I32, Op::Special(Special::Nctaid(d)));
                    let (n, g) = (b.cast(n, DType::I64), b.cast(g, DType::I64));
                    b.emit(DType::I64, Op::Bin(Arith::Mul, n, g))
                };
                items.push(Val::Reg(r));
            }
            Ok(if n == 1 {
                items.pop().unwrap_or(Val::None)
            } else {
                Val::Tuple(items)
            })
        }
        "cuda.syncthreads" => {
            nargs(cx, p, &args, 0, range)?;
            b.k.uses_block = true;
            b.emit_void(Op::Barrier(BarrierKind::Plain, None));
            Ok(Val::None)
        }
        "cuda.syncthreads_count" | "cuda.syncthreads_and" | "cuda.syncthreads_or" => {
            nargs(cx, p, &args, 1, range)?;
            b.k.uses_block = true;
            let r = scal(b, cx, args.into_iter().next().unwrap_or(Val::None))?;
            let bl = to_bool(b, r);
            let pr = b.cast(bl, DType::I32);
            let kind = match p {
                "cuda.syncthreads_count" => BarrierKind::Count,
                "cuda.syncthreads_and" => BarrierKind::And,
                _ => BarrierKind::Or,
            };
            Ok(Val::Reg(b.emit(DType::I32, Op::Barrier(kind, Some(pr)))))
        }
        "cuda.threadfence"
        | "cuda.threadfence_block"
        | "cuda.threadfence_system"
        | "cuda.syncwarp" => {
            let scope = match p {
                "cuda.threadfence_block" => FenceScope::Block,
                "cuda.threadfence_system" => FenceScope::System,
                "cuda.syncwarp" => FenceScope::Warp,
                _ => FenceScope::Device,
            };
            b.emit_void(Op::Fence(scope));
            Ok(Val::None)
        }
        "cuda.const.array_like" => {
            nargs(cx, p, &args, 1, range)?;
            match &args[0] {
                Val::Global(Value::Array(host)) => {
                    let (a, d, n) =
                        crate::numba::frontend::arrays::const_array(b, cx, host, range)?;
                    Ok(Val::Array(a, d, n))
                }
                Val::Array(..) => Ok(args[0].clone()),
                other => Err(cx.typing(
                    format!(
                        "cuda.const.array_like() needs a host array known at compile time, got {}",
                        describe(b, other)
                    ),
                    range,
                )),
            }
        }
        _ if p.starts_with("cuda.atomic.") => {
            crate::numba::frontend::arrays::atomic(b, cx, &p[12..], args, range)
        }
        _ if p.starts_with("random.xoroshiro128p_") => {
            let kind = match &p[21..] {
                "uniform_float32" => RngKind::UniformF32,
                "uniform_float64" => RngKind::UniformF64,
                "normal_float32" => RngKind::NormalF32,
                "normal_float64" => RngKind::NormalF64,
                other => {
                    return Err(cx.typing(
                        format!("unknown random function xoroshiro128p_{other}"),
                        range,
                    ))
                }
            };
            nargs(cx, p, &args, 2, range)?;
            let mut it = args.into_iter();
            let states = it.next().unwrap_or(Val::None);
            let Val::Array(a, DType::U64, 2) = states else {
                return Err(cx.typing(
                    "the first argument must be the states array from create_xoroshiro128p_states()",
                    range,
                ));
            };
            let i = scal(b, cx, it.next().unwrap_or(Val::None))?;
            let i = b.cast(i, DType::I64);
            let t = match kind {
                RngKind::UniformF32 | RngKind::NormalF32 => DType::F32,
                _ => DType::F64,
            };
            Ok(Val::Reg(b.emit(t, Op::Rng(kind, a, i))))
        }
        _ => {
            let name = p.rsplit('.').next().unwrap_or(p);
            if p.starts_with("np.") || p.starts_with("numba.") {
                if let Ok(d) = types::parse_dtype(name) {
                    return cast_call(b, cx, d, args, range);
                }
            }
            if p == "math.remainder" {
                return math_call(b, cx, MathFn::Remainder, p, args, range);
            }
            if p == "math.modf" {
                nargs(cx, p, &args, 1, range)?;
                let r = scal(b, cx, args.into_iter().next().unwrap_or(Val::None))?;
                return Ok(modf(b, r));
            }
            if p == "cuda.selp" {
                // selp(pred, a, b): a branch-free select, `a if pred else b`.
                nargs(cx, p, &args, 3, range)?;
                let mut regs = Vec::new();
                for a in args {
                    regs.push(scal(b, cx, a)?);
                }
                let c = crate::numba::frontend::expr::to_bool(b, regs[0]);
                let t = types::promote(b.ty(regs[1]), b.ty(regs[2]));
                let (x, y) = (b.cast(regs[1], t), b.cast(regs[2], t));
                return Ok(Val::Reg(b.emit(t, Op::Select(c, x, y))));
            }
            if p == "cuda.fma" {
                nargs(cx, p, &args, 3, range)?;
                let mut regs = Vec::new();
                for a in args {
                    regs.push(scal(b, cx, a)?);
                }
                let t = regs
                    .iter()
                    .fold(DType::F32, |acc, r| types::promote(acc, b.ty(*r)));
                let t = types::math_float(t);
                let xs: Vec<Reg> = regs.iter().map(|r| b.cast(*r, t)).collect();
                // a * b + c: NVRTC contracts it to one fma instruction on the GPU; the CPU
                // executor rounds the product first (a last-bit difference at most).
                let m = b.emit(t, Op::Bin(Arith::Mul, xs[0], xs[1]));
                return Ok(Val::Reg(b.emit(t, Op::Bin(Arith::Add, m, xs[2]))));
            }
            if p.starts_with("math.") || p.starts_with("np.") {
                if let Some(f) = MathFn::from_name(name) {
                    return math_call(b, cx, f, p, args, range);
                }
                if name == "abs" || name == "absolute" {
                    return path_call(b, cx, "builtin.abs", args, kwargs, c);
                }
                if name == "radians" || name == "degrees" {
                    nargs(cx, p, &args, 1, range)?;
                    let r = scal(b, cx, args.into_iter().next().unwrap_or(Val::None))?;
                    let t = types::math_float(b.ty(r));
                    let x = b.cast(r, t);
                    let k = if name == "radians" {
                        std::f64::consts::PI / 180.0
                    } else {
                        180.0 / std::f64::consts::PI
                    };
                    let kk = b.konst(Scalar::F64(k));
                    let kk = b.cast(kk, t);
                    return Ok(Val::Reg(b.emit(t, Op::Bin(Arith::Mul, x, kk))));
                }
            }
            Err(cx.typing(
                format!("Unknown function {p}() in compiled code (not in nbcuda's kernel subset)"),
                range,
            ))
        }
    }
}

/// `operator.add(a, b)` and friends inside a kernel: the operator itself.
fn operator_call(
    b: &mut Builder,
    cx: &mut FnCtx,
    name: &str,
    args: Vec<Val>,
    range: TextRange,
) -> PyResult<Val> {
    use ast::{CmpOp as C, Operator as O};
    let bin = match name {
        "add" => Some(O::Add),
        "sub" => Some(O::Sub),
        "mul" => Some(O::Mult),
        "truediv" => Some(O::Div),
        "floordiv" => Some(O::FloorDiv),
        "mod" => Some(O::Mod),
        "pow" => Some(O::Pow),
        "lshift" => Some(O::LShift),
        "rshift" => Some(O::RShift),
        "and_" => Some(O::BitAnd),
        "or_" => Some(O::BitOr),
        "xor" => Some(O::BitXor),
        _ => None,
    };
    let cmp = match name {
        "eq" => Some(C::Eq),
        "ne" => Some(C::NotEq),
        "lt" => Some(C::Lt),
        "le" => Some(C::LtE),
        "gt" => Some(C::Gt),
        "ge" => Some(C::GtE),
        _ => None,
    };
    let unknown = || {
        cx.typing(
            format!("Unknown function operator.{name}() in compiled code (not in nbcuda's kernel subset)"),
            range,
        )
    };
    if bin.is_none() && cmp.is_none() {
        return Err(unknown());
    }
    let [l, r]: [Val; 2] = args.try_into().map_err(|a: Vec<Val>| {
        cx.typing(
            format!(
                "operator.{name}() takes 2 arguments but {} were given",
                a.len()
            ),
            range,
        )
    })?;
    match (bin, cmp) {
        (Some(op), _) => crate::numba::frontend::expr::binop(b, cx, op, l, r, range),
        (None, Some(op)) => Ok(Val::Reg(crate::numba::frontend::expr::compare(
            b, cx, op, l, r, range,
        )?)),
        (None, None) => Err(unknown()),
    }
}
