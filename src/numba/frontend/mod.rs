//! The kernel front end: Python function bodies (ruff AST) lowered to the typed IR with
//! Numba's typing rules.
//!
//! | file | holds |
//! |---|---|
//! | `arrays.rs` | AST → IR for array constructs of the kernel API: `cuda.shared.array`, `cuda.local.array`, `cuda.const.array_like` (compile-time shapes and data) and `cuda.atomic.*`. |
//! | `calls.rs` | AST → IR for calls: builtins, `math.*`/`np.*`, casts, the `cuda.*` intrinsics (grid, shared/local/const arrays, barriers, fences, atomics), xoroshiro128p draws and inlined device functions. |
//! | `expr.rs` | AST → IR for expressions: literals, names, attributes, indexing, operators with Numba's typing rules, comparisons, boolean operators and conditional expressions. |
//! | `inline.rs` | Device function calls: the callee's body lowered in place (a one-shot loop that `return` breaks), arguments bound to parameters, recursion refused past 16 levels. |
//! | `names.rs` | Name resolution: the function's variables, then captured globals and closures as compile-time values, then the builtins kernels type (Numba's "Untyped global name" for the other Python builtins). |
//! | `printing.rs` | `print()` in compiled code: each argument's pieces as Python shows them, and CUDA's 32-item limit (Numba's warning and the raw format string past it). |
//! | `views.rs` | Array views in compiled code: basic slicing (`a[i:j:k]`, `a[i, :]`), partial indexing (`a[i]` of a 2-D array) and `arr.reshape(shape)`. |
//!
//! `mod.rs`:
//! AST → IR: statements, variables and the fixpoint that settles variable types
//! (Numba unifies every assignment of a variable, so `s = 0; s += x[i]` with float32 `x`
//! makes `s` float64).

pub mod arrays;
pub mod calls;
pub mod expr;
pub mod inline;
pub mod names;
pub mod printing;
pub mod views;

pub use names::global_val;

use std::collections::HashMap;
use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt as AStmt};
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::Cmp;
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, Op, Reg, Stmt};
use crate::kernel::types::{self, Ty};
use crate::py::error::Frame;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::value::{Module, Value};

/// A compile-time value of the front end.
#[derive(Clone)]
pub enum Val {
    Reg(Reg),
    Tuple(Vec<Val>),
    Array(ArrRef, DType, usize),
    /// A sub-array from partial indexing (`a[i]`), slicing or reshape (see [`views`]).
    View(Box<views::ArrView>),
    /// A dotted name of the kernel API (`cuda.threadIdx`, `math.sin`, `np.float32`,
    /// `builtin.range`, `random.xoroshiro128p_uniform_float32`).
    Path(String),
    Module(Rc<Module>),
    /// A host value seen at compile time (dispatchers, type objects, host arrays).
    Global(Value),
    Str(String),
    None,
}

/// What kind of function is being lowered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum FnKind {
    /// A `@cuda.jit` kernel: must return None.
    Kernel,
    /// An inlined device function (or ufunc body): `return` breaks out of this loop.
    Inline(u32),
    /// A host-compiled (`@njit`) function: `return v` stores v and exits.
    Host,
}

pub struct FnCtx {
    pub func: Rc<Function>,
    pub vars: HashMap<String, Val>,
    pub types: HashMap<String, DType>,
    pub changed: bool,
    pub kind: FnKind,
    pub loops: Vec<u32>,
    pub depth: usize,
    /// Field names of parameters passed as namedtuples: `p.x` reads the item named x.
    pub fields: HashMap<String, Vec<String>>,
    /// Compiled with `debug=True`: `raise` and division by zero raise on the host.
    pub debug: bool,
}

pub const RET: &str = "$ret";

impl FnCtx {
    pub fn new(func: Rc<Function>, kind: FnKind, depth: usize) -> FnCtx {
        FnCtx {
            func,
            vars: HashMap::new(),
            types: HashMap::new(),
            changed: false,
            kind,
            loops: Vec::new(),
            depth,
            fields: HashMap::new(),
            debug: false,
        }
    }

    /// A Numba-style error located at `range` of this function's source.
    pub fn err(&self, ename: &str, msg: impl Into<String>, range: TextRange) -> PyErr {
        PyErr::new(ename, msg.into()).at(Frame {
            origin: self.func.origin.to_string(),
            source: self.func.source.clone(),
            start: range.start().to_usize(),
            end: range.end().to_usize(),
            function: self.func.name.to_string(),
        })
    }
    pub fn typing(&self, msg: impl Into<String>, range: TextRange) -> PyErr {
        self.err(
            "TypingError",
            format!(
                "Failed in cuda mode pipeline (step: nopython frontend)\n{}",
                msg.into()
            ),
            range,
        )
    }
    pub fn unsupported(&self, what: &str, range: TextRange) -> PyErr {
        self.err(
            "UnsupportedError",
            format!("Use of unsupported construct in a compiled function: {what}"),
            range,
        )
    }

    pub fn set_loc(&self, b: &mut Builder, range: TextRange) {
        b.set_loc(&self.func.name, &self.func.source, range.start().to_usize());
    }

    /// Bind `name` to `v`, converting scalars to the variable's unified type.
    pub fn assign_name(&mut self, b: &mut Builder, name: &str, v: Val) {
        // A rebound name no longer holds the namedtuple argument.
        self.fields.remove(name);
        match v {
            Val::Reg(r) => {
                let vt = b.ty(r);
                let t = match self.types.get(name) {
                    Some(&old) => {
                        let u = types::unify(old, vt);
                        if u != old {
                            self.changed = true;
                        }
                        u
                    }
                    None => vt,
                };
                self.types.insert(name.to_string(), t);
                let dst = match self.vars.get(name) {
                    Some(Val::Reg(d)) if b.ty(*d) == t => *d,
                    _ => {
                        let d = b.new_reg(t);
                        self.vars.insert(name.to_string(), Val::Reg(d));
                        d
                    }
                };
                b.assign(dst, r);
            }
            Val::Tuple(items) => {
                let existing = matches!(self.vars.get(name), Some(Val::Tuple(old)) if old.len() == items.len());
                if !existing {
                    self.vars.remove(name);
                }
                let mut out = Vec::new();
                for (i, it) in items.into_iter().enumerate() {
                    let key = format!("{name}.{i}");
                    if existing {
                        if let Some(Val::Tuple(old)) = self.vars.get(name) {
                            if let Val::Reg(r) = &old[i] {
                                self.vars.insert(key.clone(), Val::Reg(*r));
                            }
                        }
                    } else {
                        self.vars.remove(&key);
                    }
                    self.assign_name(b, &key, it);
                    out.push(self.vars.get(&key).cloned().unwrap_or(Val::None));
                }
                self.vars.insert(name.to_string(), Val::Tuple(out));
            }
            other => {
                self.vars.insert(name.to_string(), other);
            }
        }
    }
}

/// Lower a whole function body with the type fixpoint: lowering is repeated until no
/// variable's unified type changes (bounded; later passes only widen types).
pub fn lower_body(b: &mut Builder, cx: &mut FnCtx, body: &[AStmt]) -> PyResult<()> {
    let vars0 = cx.vars.clone();
    for _ in 0..6 {
        let snapshot = b.clone();
        cx.changed = false;
        cx.vars = vars0.clone();
        lower_block(b, cx, body)?;
        if !cx.changed {
            return Ok(());
        }
        *b = snapshot;
    }
    cx.vars = vars0;
    lower_block(b, cx, body)
}

pub fn lower_block(b: &mut Builder, cx: &mut FnCtx, body: &[AStmt]) -> PyResult<()> {
    for s in body {
        lower_stmt(b, cx, s)?;
    }
    Ok(())
}

fn lower_stmt(b: &mut Builder, cx: &mut FnCtx, s: &AStmt) -> PyResult<()> {
    use crate::numba::frontend::expr::{expr, truth};
    cx.set_loc(b, s.range());
    match s {
        AStmt::Expr(e) => {
            if matches!(&*e.value, Expr::StringLiteral(_)) {
                return Ok(()); // docstring
            }
            expr(b, cx, &e.value)?;
        }
        AStmt::Pass(_) => {}
        AStmt::Assign(a) => {
            let v = expr(b, cx, &a.value)?;
            for t in &a.targets {
                assign_target(b, cx, t, v.clone())?;
            }
        }
        AStmt::AnnAssign(a) => {
            if let Some(value) = &a.value {
                let v = expr(b, cx, value)?;
                assign_target(b, cx, &a.target, v)?;
            }
        }
        AStmt::AugAssign(a) => {
            let cur = expr(b, cx, &a.target)?;
            let rhs = expr(b, cx, &a.value)?;
            let v = crate::numba::frontend::expr::binop(b, cx, a.op, cur, rhs, a.range)?;
            assign_target(b, cx, &a.target, v)?;
        }
        AStmt::If(i) => {
            let c = truth(b, cx, &i.test)?;
            b.begin();
            lower_block(b, cx, &i.body)?;
            let then = b.end();
            b.begin();
            lower_elifs(b, cx, &i.elif_else_clauses)?;
            let els = b.end();
            b.push(Stmt::If(c, then, els));
        }
        AStmt::While(w) => {
            if !w.orelse.is_empty() {
                return Err(cx.unsupported("while ... else", w.range));
            }
            let id = b.new_loop_id();
            b.begin();
            let c = truth(b, cx, &w.test)?;
            b.push(Stmt::If(c, vec![], vec![Stmt::Break(id)]));
            cx.loops.push(id);
            lower_block(b, cx, &w.body)?;
            cx.loops.pop();
            let body = b.end();
            b.push(Stmt::Loop {
                id,
                body,
                latch: vec![],
            });
        }
        AStmt::For(f) => lower_for(b, cx, f)?,
        AStmt::Break(r) => match cx.loops.last() {
            Some(&id) => b.push(Stmt::Break(id)),
            None => return Err(cx.err("SyntaxError", "'break' outside loop", r.range)),
        },
        AStmt::Continue(r) => match cx.loops.last() {
            Some(&id) => b.push(Stmt::Continue(id)),
            None => return Err(cx.err("SyntaxError", "'continue' not properly in loop", r.range)),
        },
        AStmt::Return(r) => {
            let v = match &r.value {
                Some(e) => expr(b, cx, e)?,
                None => Val::None,
            };
            match cx.kind {
                FnKind::Kernel => {
                    if !matches!(v, Val::None) {
                        return Err(cx.typing(
                            "No conversion from the returned value to none: a @cuda.jit kernel cannot return a value; write results into an array argument instead",
                            r.range,
                        ));
                    }
                    b.push(Stmt::Exit);
                }
                FnKind::Inline(id) => {
                    if !matches!(v, Val::None) {
                        cx.assign_name(b, RET, v);
                    }
                    b.push(Stmt::Break(id));
                }
                FnKind::Host => {
                    if !matches!(v, Val::None) {
                        cx.assign_name(b, RET, v);
                    }
                    b.push(Stmt::Exit);
                }
            }
        }
        AStmt::FunctionDef(_) => {
            return Err(cx.unsupported("nested function definitions", s.range()))
        }
        AStmt::ClassDef(_) => return Err(cx.unsupported("class definitions", s.range())),
        AStmt::Try(_) => return Err(cx.unsupported("try/except", s.range())),
        AStmt::With(_) => return Err(cx.unsupported("with statements", s.range())),
        AStmt::Raise(r) if cx.debug => {
            let (ename, message) = raised(b, cx, r)?;
            b.emit_void(Op::Raise { ename, message });
            b.push(Stmt::Exit);
        }
        AStmt::Raise(_) | AStmt::Assert(_) => {
            // Numba ignores raise/assert in kernels unless debug=True.
        }
        AStmt::Import(_) | AStmt::ImportFrom(_) => {
            return Err(cx.unsupported("import inside a compiled function", s.range()))
        }
        AStmt::Global(_) | AStmt::Nonlocal(_) => {
            return Err(cx.unsupported("global/nonlocal declarations", s.range()))
        }
        AStmt::Delete(_) => return Err(cx.unsupported("del", s.range())),
        _ => return Err(cx.unsupported("this statement", s.range())),
    }
    Ok(())
}

/// The exception class name and message of `raise E` / `raise E(msg)` in a kernel: the
/// message must be known when compiling (a literal or a global), as Numba requires.
fn raised(b: &mut Builder, cx: &mut FnCtx, r: &ast::StmtRaise) -> PyResult<(String, String)> {
    let Some(exc) = &r.exc else {
        return Err(cx.unsupported("a bare raise", r.range()));
    };
    let (class, arg) = match &**exc {
        Expr::Call(c) => (&*c.func, c.arguments.args.first()),
        other => (other, None),
    };
    let Expr::Name(n) = class else {
        return Err(cx.unsupported("raising this expression", r.range()));
    };
    let message = match arg {
        None => String::new(),
        Some(a) => match &crate::numba::frontend::expr::expr(b, cx, a)? {
            Val::Str(s) => s.clone(),
            Val::Global(Value::Str(s)) => s.to_string(),
            Val::Global(Value::Int(i)) => i.to_string(),
            _ => {
                return Err(cx.typing(
                    "the message of an exception raised in a kernel must be a constant",
                    a.range(),
                ))
            }
        },
    };
    Ok((n.id.as_str().to_string(), message))
}

fn lower_elifs(b: &mut Builder, cx: &mut FnCtx, clauses: &[ast::ElifElseClause]) -> PyResult<()> {
    use crate::numba::frontend::expr::truth;
    let Some((first, rest)) = clauses.split_first() else {
        return Ok(());
    };
    match &first.test {
        None => lower_block(b, cx, &first.body),
        Some(t) => {
            cx.set_loc(b, t.range());
            let c = truth(b, cx, t)?;
            b.begin();
            lower_block(b, cx, &first.body)?;
            let then = b.end();
            b.begin();
            lower_elifs(b, cx, rest)?;
            let els = b.end();
            b.push(Stmt::If(c, then, els));
            Ok(())
        }
    }
}

fn lower_for(b: &mut Builder, cx: &mut FnCtx, f: &ast::StmtFor) -> PyResult<()> {
    use crate::numba::frontend::expr::{expr, scalar};
    if !f.orelse.is_empty() {
        return Err(cx.unsupported("for ... else", f.range));
    }
    let call = match &*f.iter {
        Expr::Call(call) => Some(call),
        _ => None,
    };
    let callee = match call {
        Some(call) => expr(b, cx, &call.func)?,
        None => Val::None,
    };
    let is_range = matches!(&callee, Val::Path(p) if p == "builtin.range" || p == "numba.prange");
    let Some(call) = call.filter(|_| is_range) else {
        return lower_for_array(b, cx, f);
    };
    if !call.arguments.keywords.is_empty() {
        return Err(cx.unsupported("for loops over anything but range(...)", f.iter.range()));
    }
    let mut parts = Vec::new();
    for a in call.arguments.args.iter() {
        let v = expr(b, cx, a)?;
        let r = scalar(b, cx, v, a.range())?;
        if !(b.ty(r).is_integer() || b.ty(r) == DType::Bool) {
            return Err(cx.typing(
                format!(
                    "range() arguments must be integers, got {}",
                    types::numba_name(b.ty(r))
                ),
                a.range(),
            ));
        }
        parts.push(r);
    }
    let it = match parts.len() {
        1 => DType::I64,
        2 | 3 => parts
            .iter()
            .fold(DType::I64, |acc, r| types::arith(acc, b.ty(*r))),
        _ => {
            return Err(cx.typing(
                format!("range expected 1 to 3 arguments, got {}", parts.len()),
                f.iter.range(),
            ))
        }
    };
    let it = if it.is_float() { DType::I64 } else { it };
    let (start, stop, step) = match parts.len() {
        1 => (
            b.konst(Scalar::I64(0)).pipe_cast(b, it),
            b.cast(parts[0], it),
            None,
        ),
        2 => (b.cast(parts[0], it), b.cast(parts[1], it), None),
        _ => (
            b.cast(parts[0], it),
            b.cast(parts[1], it),
            Some(b.cast(parts[2], it)),
        ),
    };
    // A prange loop of a top-level host function whose iterations are independent gets a
    // private copy of its bound, so a parallel run can give each chunk its own bound.
    let parallel = matches!(&callee, Val::Path(p) if p == "numba.prange")
        && matches!(cx.kind, FnKind::Host)
        && cx.depth == 0
        && crate::kernel::exec::prange::independent(&cx.func.clone().def.body, f);
    let stop = if parallel {
        let own = b.new_reg(it);
        b.emit_to(own, Op::Copy(stop));
        own
    } else {
        stop
    };
    let ctr = b.new_reg(it);
    b.emit_to(ctr, Op::Copy(start));
    let cond = |b: &mut Builder| match step {
        None => b.emit(DType::Bool, Op::Cmp(Cmp::Lt, ctr, stop)),
        Some(st) => {
            let zero = b.konst(Scalar::I64(0));
            let zero = b.cast(zero, it);
            let pos = b.emit(DType::Bool, Op::Cmp(Cmp::Gt, st, zero));
            let lt = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, ctr, stop));
            let gt = b.emit(DType::Bool, Op::Cmp(Cmp::Gt, ctr, stop));
            b.emit(DType::Bool, Op::Select(pos, lt, gt))
        }
    };
    let id = counted_loop(b, cx, f, ctr, step, cond, |_, _| Ok(Val::Reg(ctr)))?;
    if parallel {
        b.k.par_loops.push(crate::kernel::ir::ParLoop {
            id,
            ctr,
            stop,
            step,
        });
    }
    Ok(())
}

/// `for v in arr:` as Numba lowers it: `v` takes `arr[0]`, `arr[1]`, ... along the first
/// axis (elements of a 1-D array, row views of an N-D one).
fn lower_for_array(b: &mut Builder, cx: &mut FnCtx, f: &ast::StmtFor) -> PyResult<()> {
    use crate::numba::frontend::views::{ArrView, Item};
    let it = crate::numba::frontend::expr::expr(b, cx, &f.iter)?;
    let Some(view) = ArrView::of(&it) else {
        let what = crate::numba::frontend::expr::describe(b, &it);
        return Err(cx.typing(
            format!("Invalid use of getiter with parameters ({what}): a compiled for loop iterates over range(...) or an array"),
            f.iter.range(),
        ));
    };
    if view.ndim() == 0 {
        return Err(cx.typing("iteration over a 0-d array", f.iter.range()));
    }
    let n = view.extent(b, 0);
    let ctr = b.new_reg(DType::I64);
    let zero = b.konst(Scalar::I64(0));
    b.emit_to(ctr, Op::Copy(zero));
    let cond = |b: &mut Builder| b.emit(DType::Bool, Op::Cmp(Cmp::Lt, ctr, n));
    let item = |b: &mut Builder, cx: &mut FnCtx| {
        Ok(if view.ndim() == 1 {
            let dt = view.dtype;
            let (a, idx) = view.element(b, vec![ctr]);
            Val::Reg(b.emit(dt, Op::Load(a, idx)))
        } else {
            view.subscript(b, cx, vec![Item::Index(ctr)], f.iter.range())?
                .into_val()
        })
    };
    counted_loop(b, cx, f, ctr, None, cond, item)?;
    Ok(())
}

/// The loop both `for` forms lower to: leave when `cond` (built at the top of every
/// iteration) is false, bind the target to `item`, run the body, then `ctr += step` (1
/// when None). Returns the loop's id.
fn counted_loop(
    b: &mut Builder,
    cx: &mut FnCtx,
    f: &ast::StmtFor,
    ctr: Reg,
    step: Option<Reg>,
    cond: impl FnOnce(&mut Builder) -> Reg,
    item: impl FnOnce(&mut Builder, &mut FnCtx) -> PyResult<Val>,
) -> PyResult<u32> {
    let it = b.ty(ctr);
    let id = b.new_loop_id();
    b.begin();
    let c = cond(b);
    b.push(Stmt::If(c, vec![], vec![Stmt::Break(id)]));
    let v = item(b, cx)?;
    assign_target(b, cx, &f.target, v)?;
    cx.loops.push(id);
    lower_block(b, cx, &f.body)?;
    cx.loops.pop();
    let body = b.end();
    cx.set_loc(b, f.range);
    b.begin();
    let one = match step {
        Some(st) => st,
        None => {
            let o = b.konst(Scalar::I64(1));
            b.cast(o, it)
        }
    };
    let next = b.emit(it, Op::Bin(crate::arrays::operator::Arith::Add, ctr, one));
    b.emit_to(ctr, Op::Copy(next));
    let latch = b.end();
    b.push(Stmt::Loop { id, body, latch });
    Ok(id)
}

trait PipeCast {
    fn pipe_cast(self, b: &mut Builder, t: DType) -> Reg;
}
impl PipeCast for Reg {
    fn pipe_cast(self, b: &mut Builder, t: DType) -> Reg {
        b.cast(self, t)
    }
}

pub fn assign_target(b: &mut Builder, cx: &mut FnCtx, t: &Expr, v: Val) -> PyResult<()> {
    use crate::numba::frontend::expr::{expr, index_regs, scalar};
    match t {
        Expr::Name(n) => {
            cx.assign_name(b, n.id.as_str(), v);
            Ok(())
        }
        Expr::Tuple(tt) => {
            let items = match v {
                Val::Tuple(items) => items,
                _ => return Err(cx.typing("cannot unpack a non-tuple value", t.range())),
            };
            if items.len() != tt.elts.len() {
                return Err(cx.typing(
                    format!(
                        "cannot unpack a tuple of {} values into {} targets",
                        items.len(),
                        tt.elts.len()
                    ),
                    t.range(),
                ));
            }
            for (e, it) in tt.elts.iter().zip(items) {
                assign_target(b, cx, e, it)?;
            }
            Ok(())
        }
        Expr::Subscript(s) => {
            let base = expr(b, cx, &s.value)?;
            let Some(view) = views::ArrView::of(&base) else {
                return Err(cx.typing(
                    "only arrays support item assignment in compiled code",
                    s.value.range(),
                ));
            };
            if matches!(view.base, ArrRef::Const(_)) {
                return Err(cx.typing("constant arrays are read-only", t.range()));
            }
            if views::has_slice(&s.slice) {
                return Err(cx.unsupported(
                    "slicing assignment in a kernel (a[i:j] = x); assign single elements, e.g. a[i] = x, or loop over the slice",
                    s.slice.range(),
                ));
            }
            let idx = index_regs(b, cx, &s.slice, view.ndim())?;
            let r = scalar(b, cx, v, t.range())?;
            let r = b.cast(r, view.dtype);
            let (a, idx) = view.element(b, idx);
            b.emit_void(Op::Store(a, idx, r));
            Ok(())
        }
        _ => Err(cx.unsupported("this assignment target", t.range())),
    }
}

/// Parameter types of a function as seen by the front end: each Python parameter takes
/// one flat parameter, or (a tuple argument) a tuple of values over consecutive ones.
pub fn bind_params(
    b: &mut Builder,
    cx: &mut FnCtx,
    params: &[Ty],
    groups: &[crate::numba::compile::ArgShape],
) -> PyResult<()> {
    use crate::numba::compile::ArgShape;
    fn leaf(b: &mut Builder, params: &[Ty], next: &mut usize) -> Val {
        let i = *next;
        *next += 1;
        match params.get(i) {
            Some(Ty::Scalar(d)) => Val::Reg(b.emit(*d, Op::Param(i as u32))),
            Some(Ty::Array { dtype, ndim, .. }) => {
                Val::Array(ArrRef::Param(i as u32), *dtype, *ndim)
            }
            _ => Val::None,
        }
    }
    fn group(b: &mut Builder, params: &[Ty], g: &ArgShape, next: &mut usize) -> Val {
        match g {
            ArgShape::Leaf => leaf(b, params, next),
            ArgShape::Tuple(items) | ArgShape::Named(_, items) => {
                Val::Tuple(items.iter().map(|x| group(b, params, x, next)).collect())
            }
        }
    }
    let names = cx.func.param_names();
    let mut next = 0usize;
    for (name, g) in names.iter().zip(groups) {
        if let (ArgShape::Leaf, Some(Ty::Scalar(d))) = (g, params.get(next)) {
            cx.types.insert(name.clone(), *d);
        }
        if let ArgShape::Named(fields, _) = g {
            cx.fields.insert(name.clone(), fields.clone());
        }
        let v = group(b, params, g, &mut next);
        if !matches!(v, Val::None) {
            cx.vars.insert(name.clone(), v);
        }
    }
    Ok(())
}
