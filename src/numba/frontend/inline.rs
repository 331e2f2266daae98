//! Device function calls in compiled code: the callee's body is lowered in place inside a
//! one-shot loop that `return` breaks, with the arguments bound to its parameters.

use std::rc::Rc;

use ruff_python_ast::Expr;
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::dtype::DType;
use crate::kernel::builder::Builder;
use crate::kernel::ir::Stmt;
use crate::kernel::types::{Signature, Ty};
use crate::numba::frontend::expr::expr;
use crate::numba::frontend::{lower_body, FnCtx, FnKind, Val, RET};
use crate::py::error::PyResult;
use crate::py::function::Function;

const MAX_INLINE_DEPTH: usize = 16;

fn count_returns(body: &[ruff_python_ast::Stmt]) -> usize {
    use ruff_python_ast::Stmt as S;
    body.iter()
        .map(|s| match s {
            S::Return(_) => 1,
            S::If(i) => {
                count_returns(&i.body)
                    + i.elif_else_clauses
                        .iter()
                        .map(|c| count_returns(&c.body))
                        .sum::<usize>()
            }
            S::For(x) => count_returns(&x.body) + count_returns(&x.orelse),
            S::While(x) => count_returns(&x.body) + count_returns(&x.orelse),
            S::With(x) => count_returns(&x.body),
            S::Try(x) => count_returns(&x.body) + 1,
            _ => 0,
        })
        .sum()
}

/// Names a function body assigns (including loop targets).
fn assigned_names(body: &[ruff_python_ast::Stmt], out: &mut std::collections::HashSet<String>) {
    use ruff_python_ast::Stmt as S;
    fn target(e: &Expr, out: &mut std::collections::HashSet<String>) {
        match e {
            Expr::Name(n) => {
                out.insert(n.id.to_string());
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|x| target(x, out)),
            Expr::List(t) => t.elts.iter().for_each(|x| target(x, out)),
            Expr::Starred(s) => target(&s.value, out),
            _ => {}
        }
    }
    for s in body {
        match s {
            S::Assign(a) => a.targets.iter().for_each(|t| target(t, out)),
            S::AugAssign(a) => target(&a.target, out),
            S::AnnAssign(a) => target(&a.target, out),
            S::For(f) => {
                target(&f.target, out);
                assigned_names(&f.body, out);
                assigned_names(&f.orelse, out);
            }
            S::While(w) => {
                assigned_names(&w.body, out);
                assigned_names(&w.orelse, out);
            }
            S::If(i) => {
                assigned_names(&i.body, out);
                for c in &i.elif_else_clauses {
                    assigned_names(&c.body, out);
                }
            }
            S::With(w) => assigned_names(&w.body, out),
            S::Try(t) => assigned_names(&t.body, out),
            S::FunctionDef(f) => {
                out.insert(f.name.id.to_string());
            }
            _ => {}
        }
    }
}

/// Inline a device function: its body runs inside a one-shot loop that `return` breaks.
/// Numba types a call to a device function declared with signatures by that signature:
/// scalar arguments convert to its parameter types and the result to its return type
/// (`rgba(float32, ...)` of an `int32(int32, ...)` function computes in int32). The
/// signature whose scalar types equal the arguments' wins, else the first of the right
/// arity; none (lazy device functions): the arguments as they are.
pub fn coerce_to_signature(
    b: &mut Builder,
    sigs: &[Signature],
    args: Vec<Val>,
) -> (Vec<Val>, Option<DType>) {
    let arity: Vec<&Signature> = sigs.iter().filter(|s| s.args.len() == args.len()).collect();
    let exact = arity.iter().find(|s| {
        s.args.iter().zip(&args).all(|(t, a)| match (t, a) {
            (Ty::Scalar(d), Val::Reg(r)) => b.ty(*r) == *d,
            _ => true,
        })
    });
    let Some(sig) = exact.or(arity.first()) else {
        return (args, None);
    };
    let args = sig
        .args
        .iter()
        .zip(args)
        .map(|(t, a)| match (t, a) {
            (Ty::Scalar(d), Val::Reg(r)) => Val::Reg(b.cast(r, *d)),
            (_, a) => a,
        })
        .collect();
    let ret = match &sig.ret {
        Some(Ty::Scalar(d)) => Some(*d),
        _ => None,
    };
    (args, ret)
}

pub fn inline_call(
    b: &mut Builder,
    cx: &mut FnCtx,
    f: Rc<Function>,
    args: Vec<Val>,
    kwargs: Vec<(String, Val)>,
    range: TextRange,
) -> PyResult<Val> {
    if cx.depth >= MAX_INLINE_DEPTH {
        return Err(cx.typing(
            format!(
                "recursive device function calls are not supported ({} calls deep)",
                cx.depth
            ),
            range,
        ));
    }
    let names = f.param_names();
    let mut bound: Vec<Option<Val>> = vec![None; names.len()];
    if args.len() > names.len() {
        return Err(cx.typing(
            format!(
                "{}() takes {} arguments but {} were given",
                f.name,
                names.len(),
                args.len()
            ),
            range,
        ));
    }
    for (i, a) in args.into_iter().enumerate() {
        bound[i] = Some(a);
    }
    for (k, v) in kwargs {
        match names.iter().position(|n| *n == k) {
            Some(i) => bound[i] = Some(v),
            None => {
                return Err(cx.typing(
                    format!("{}() got an unexpected keyword argument '{k}'", f.name),
                    range,
                ))
            }
        }
    }
    let nd = f.defaults.len();
    for (i, slot) in bound.iter_mut().enumerate() {
        if slot.is_none() {
            let di = i as isize - (names.len() - nd) as isize;
            if di >= 0 {
                *slot = Some(crate::numba::frontend::global_val(
                    b,
                    f.defaults[di as usize].clone(),
                )?);
            } else {
                return Err(cx.typing(
                    format!("{}() missing argument '{}'", f.name, names[i]),
                    range,
                ));
            }
        }
    }
    let id = b.new_loop_id();
    let mut sub = FnCtx::new(f.clone(), FnKind::Inline(id), cx.depth + 1);
    sub.debug = cx.debug;
    let mut assigned = std::collections::HashSet::new();
    assigned_names(&f.def.body, &mut assigned);
    let bind = |b: &mut Builder, sub: &mut FnCtx, bound: Vec<Option<Val>>| {
        for (n, v) in names.iter().zip(bound) {
            let v = v.unwrap_or(Val::None);
            if assigned.contains(n.as_str()) {
                sub.assign_name(b, n, v);
            } else {
                // Never reassigned: the callee reads the caller's value directly.
                sub.vars.insert(n.clone(), v);
            }
        }
    };
    // A body whose only `return` is its last statement needs no exit loop: its value is
    // the returned expression itself.
    let body = &f.def.body;
    if let Some((ruff_python_ast::Stmt::Return(last), rest)) = body.split_last() {
        if count_returns(rest) == 0 {
            bind(b, &mut sub, bound);
            lower_body(b, &mut sub, rest)?;
            return match &last.value {
                Some(e) => {
                    sub.set_loc(b, e.range());
                    expr(b, &mut sub, e)
                }
                None => Ok(Val::None),
            };
        }
    }
    b.begin();
    bind(b, &mut sub, bound);
    lower_body(b, &mut sub, &f.def.body)?;
    let mut body = b.end();
    if !matches!(body.last(), Some(Stmt::Break(x)) if *x == id) {
        body.push(Stmt::Break(id));
    }
    b.push(Stmt::Loop {
        id,
        body,
        latch: vec![],
    });
    Ok(sub.vars.get(RET).cloned().unwrap_or(Val::None))
}
