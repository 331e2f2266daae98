//! Expressions compiled to closures over a [`Frame`]'s slots, each with the walker's
//! semantics (`expr.rs`): the same `ops` functions, errors located at the same node. A
//! `None` from [`expr`] means "not compiled": the whole body then runs on the walker.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::index::SliceValue;
use crate::arrays::operator::{BinOp, UnaryOp};
use crate::interp::attrs::get_attr;
use crate::interp::expr::{binop_of, call_value, InterpState};
use crate::interp::ops;
use crate::interp::slots::{share, unbound, Compiler, Frame, Place};
use crate::interp::slots_stmt::{target, T};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::NameCache;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Value};

pub type E = Box<dyn Fn(&mut Runtime, &mut Frame<'_>) -> PyResult<Value>>;

/// A node whose errors are located at `range`, as the walker's `eval` locates them.
fn at(
    range: TextRange,
    f: impl Fn(&mut Runtime, &mut Frame<'_>) -> PyResult<Value> + 'static,
) -> E {
    Box::new(move |rt, fr| f(rt, fr).map_err(|e| fr.locate(e, range)))
}

fn constant(v: Value) -> E {
    Box::new(move |_, _| Ok(v.clone()))
}

/// A name not bound in the body: enclosing scopes, module globals, builtins.
pub fn free(rt: &mut Runtime, fr: &Frame<'_>, name: &str) -> PyResult<Value> {
    free_cached(rt, fr, name, &NameCache::default())
}

/// [`free`] from a site that remembers where the name lies in the globals.
pub fn free_cached(
    rt: &mut Runtime,
    fr: &Frame<'_>,
    name: &str,
    cache: &NameCache,
) -> PyResult<Value> {
    for s in fr.enclosing {
        if let Some(v) = s.borrow().get(name) {
            return Ok(share(v));
        }
    }
    global_cached(rt, fr, name, cache)
}

pub fn global(rt: &mut Runtime, fr: &Frame<'_>, name: &str) -> PyResult<Value> {
    global_cached(rt, fr, name, &NameCache::default())
}

/// [`global`] from a site that remembers where the name lies in the globals.
pub fn global_cached(
    rt: &mut Runtime,
    fr: &Frame<'_>,
    name: &str,
    cache: &NameCache,
) -> PyResult<Value> {
    if let Some(v) = fr.globals.borrow().get_cached(name, cache) {
        return Ok(share(v));
    }
    builtin(rt, name)
}

fn builtin(rt: &mut Runtime, name: &str) -> PyResult<Value> {
    rt.state::<InterpState>()
        .builtins
        .get(name)
        .cloned()
        .ok_or_else(|| PyErr::name_error(format!("name '{name}' is not defined")))
}

/// Reading a name.
pub fn load(c: &Compiler, name: &str, range: TextRange) -> E {
    match c.place(name) {
        Place::Slot(i) => {
            let name: Rc<str> = Rc::from(name);
            at(range, move |_, fr| match &fr.slots[i] {
                Some(v) => Ok(v.clone()),
                None => Err(unbound(&name)),
            })
        }
        Place::Global(name) => {
            let cache = NameCache::default();
            at(range, move |rt, fr| global_cached(rt, fr, &name, &cache))
        }
        Place::Free(name) => {
            let cache = NameCache::default();
            at(range, move |rt, fr| free_cached(rt, fr, &name, &cache))
        }
    }
}

/// An operand read without a call: a local slot or a constant (borrowed where it lies),
/// or any other expression (evaluated).
pub enum Opnd {
    Slot(usize, Rc<str>, TextRange),
    Const(Value),
    Expr(E),
}

pub fn opnd(c: &mut Compiler, e: &Expr) -> Option<Opnd> {
    if let Some(v) = literal(e) {
        return Some(Opnd::Const(v));
    }
    if let Expr::Name(n) = e {
        if let Place::Slot(i) = c.place(n.id.as_str()) {
            return Some(Opnd::Slot(i, Rc::from(n.id.as_str()), n.range));
        }
    }
    Some(Opnd::Expr(expr(c, e)?))
}

impl Opnd {
    /// Whether [`Opnd::peek`] reads it (it runs no code).
    pub fn is_plain(&self) -> bool {
        !matches!(self, Opnd::Expr(_))
    }

    /// The value of a plain operand, borrowed; an unbound slot raises as the walker's
    /// name lookup does, located at the name.
    #[inline]
    pub fn peek<'f>(&'f self, fr: &'f Frame<'_>) -> PyResult<&'f Value> {
        match self {
            Opnd::Slot(i, name, range) => fr.slots[*i]
                .as_ref()
                .ok_or_else(|| fr.locate(unbound(name), *range)),
            Opnd::Const(v) => Ok(v),
            Opnd::Expr(_) => Err(PyErr::runtime_error("internal: a computed operand peeked")),
        }
    }

    #[inline]
    pub fn get(&self, rt: &mut Runtime, fr: &mut Frame<'_>) -> PyResult<Value> {
        match self {
            Opnd::Expr(e) => e(rt, fr),
            plain => plain.peek(fr).cloned(),
        }
    }
}

/// A node computing `f(l, r)`: plain operands borrowed where they lie, others evaluated
/// left to right.
fn pair(
    range: TextRange,
    l: Opnd,
    r: Opnd,
    f: impl Fn(&mut Runtime, &Value, &Value) -> PyResult<Value> + 'static,
) -> E {
    if l.is_plain() && r.is_plain() {
        return at(range, move |rt, fr| f(rt, l.peek(fr)?, r.peek(fr)?));
    }
    at(range, move |rt, fr| {
        let a = l.get(rt, fr)?;
        let b = r.get(rt, fr)?;
        f(rt, &a, &b)
    })
}

/// `a op b` with the int and float cases that need no dispatch done inline; everything
/// else (and every overflow) through `ops::binary`.
fn arith(rt: &mut Runtime, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => {
            let r = match op {
                BinOp::Add => x.checked_add(*y),
                BinOp::Sub => x.checked_sub(*y),
                BinOp::Mul => x.checked_mul(*y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Value::Int(r));
            }
        }
        (Value::Float(x), Value::Float(y)) => match op {
            BinOp::Add => return Ok(Value::Float(x + y)),
            BinOp::Sub => return Ok(Value::Float(x - y)),
            BinOp::Mul => return Ok(Value::Float(x * y)),
            _ => {}
        },
        _ => {}
    }
    ops::binary(rt, op, a, b)
}

/// `cur op= rhs`, with [`arith`]'s shortcut for ints and floats (which `ops::inplace`
/// computes as `cur op rhs`).
pub fn inplace(rt: &mut Runtime, op: BinOp, cur: &Value, rhs: &Value) -> PyResult<Value> {
    if matches!(
        (cur, rhs),
        (Value::Int(_), Value::Int(_)) | (Value::Float(_), Value::Float(_))
    ) {
        return arith(rt, op, cur, rhs);
    }
    ops::inplace(rt, op, cur, rhs)
}

fn compare(rt: &mut Runtime, op: ast::CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
    use ast::CmpOp as C;
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        let r = match op {
            C::Eq => Some(x == y),
            C::NotEq => Some(x != y),
            C::Lt => Some(x < y),
            C::LtE => Some(x <= y),
            C::Gt => Some(x > y),
            C::GtE => Some(x >= y),
            _ => None,
        };
        if let Some(r) = r {
            return Ok(Value::Bool(r));
        }
    }
    Ok(match op {
        C::Eq => ops::compare(rt, BinOp::Eq, a, b)?,
        C::NotEq => ops::compare(rt, BinOp::Ne, a, b)?,
        C::Lt => ops::compare(rt, BinOp::Lt, a, b)?,
        C::LtE => ops::compare(rt, BinOp::Le, a, b)?,
        C::Gt => ops::compare(rt, BinOp::Gt, a, b)?,
        C::GtE => ops::compare(rt, BinOp::Ge, a, b)?,
        C::Is => Value::Bool(ops::is_same(a, b)),
        C::IsNot => Value::Bool(!ops::is_same(a, b)),
        C::In => Value::Bool(ops::contains(rt, b, a)?),
        C::NotIn => Value::Bool(!ops::contains(rt, b, a)?),
    })
}

/// A literal's value; a literal whose value is an error (an int too long to parse) stays
/// with the walker, which raises it.
fn literal(e: &Expr) -> Option<Value> {
    crate::interp::expr::literal(e)?.ok()
}

/// Compile an expression; None when it uses something only the walker runs.
pub fn expr(c: &mut Compiler, e: &Expr) -> Option<E> {
    if let Some(v) = literal(e) {
        return Some(constant(v));
    }
    let range = e.range();
    Some(match e {
        Expr::Name(n) => load(c, n.id.as_str(), range),
        Expr::Attribute(a) => {
            let base = expr(c, &a.value)?;
            let attr: Rc<str> = Rc::from(a.attr.as_str());
            at(range, move |rt, fr| {
                let b = base(rt, fr)?;
                get_attr(rt, &b, &attr)
            })
        }
        Expr::Subscript(s) => {
            let (base, key) = (opnd(c, &s.value)?, opnd(c, &s.slice)?);
            pair(range, base, key, ops::get_item)
        }
        Expr::Slice(s) => {
            let mut part = |x: &Option<Box<Expr>>| -> Option<Option<E>> {
                match x {
                    None => Some(None),
                    Some(x) => Some(Some(expr(c, x)?)),
                }
            };
            let (lo, hi, step) = (part(&s.lower)?, part(&s.upper)?, part(&s.step)?);
            at(range, move |rt, fr| {
                let mut index = |p: &Option<E>| -> PyResult<Option<i64>> {
                    match p {
                        None => Ok(None),
                        Some(p) => match p(rt, fr)? {
                            Value::None => Ok(None),
                            v => Ok(Some(v.as_index().map_err(|_| {
                                PyErr::type_error("slice indices must be integers or None or have an __index__ method")
                            })?)),
                        },
                    }
                };
                let (start, stop, step) = (index(&lo)?, index(&hi)?, index(&step)?);
                Ok(Value::Slice(Rc::new(SliceValue { start, stop, step })))
            })
        }
        Expr::BinOp(b) => {
            let (l, r, op) = (opnd(c, &b.left)?, opnd(c, &b.right)?, binop_of(b.op));
            pair(range, l, r, move |rt, a, b| arith(rt, op, a, b))
        }
        Expr::UnaryOp(u) => {
            let v = expr(c, &u.operand)?;
            let op = u.op;
            at(range, move |rt, fr| {
                let v = v(rt, fr)?;
                match op {
                    ast::UnaryOp::Not => Ok(Value::Bool(!ops::truthy(rt, &v)?)),
                    ast::UnaryOp::USub => ops::unary(rt, UnaryOp::Neg, &v),
                    ast::UnaryOp::UAdd => ops::unary(rt, UnaryOp::Pos, &v),
                    ast::UnaryOp::Invert => ops::unary(rt, UnaryOp::Invert, &v),
                }
            })
        }
        Expr::BoolOp(b) => {
            let values = exprs(c, &b.values)?;
            let and = matches!(b.op, ast::BoolOp::And);
            at(range, move |rt, fr| {
                let mut last = Value::None;
                for (i, v) in values.iter().enumerate() {
                    last = v(rt, fr)?;
                    if i + 1 == values.len() || ops::truthy(rt, &last)? != and {
                        break;
                    }
                }
                Ok(last)
            })
        }
        Expr::Compare(cmp) if cmp.ops.len() == 1 => {
            let (l, r) = (opnd(c, &cmp.left)?, opnd(c, &cmp.comparators[0])?);
            let op = cmp.ops[0];
            pair(range, l, r, move |rt, a, b| compare(rt, op, a, b))
        }
        Expr::Compare(cmp) => {
            let left = expr(c, &cmp.left)?;
            let rights = exprs(c, &cmp.comparators)?;
            let ops_: Vec<ast::CmpOp> = cmp.ops.to_vec();
            at(range, move |rt, fr| {
                let mut left_v = left(rt, fr)?;
                let mut result = Value::Bool(true);
                for (op, right) in ops_.iter().zip(&rights) {
                    let right_v = right(rt, fr)?;
                    let r = compare(rt, *op, &left_v, &right_v)?;
                    if !ops::truthy(rt, &r)? {
                        return Ok(r);
                    }
                    result = r;
                    left_v = right_v;
                }
                Ok(result)
            })
        }
        Expr::If(i) => {
            let (test, body, orelse) = (expr(c, &i.test)?, expr(c, &i.body)?, expr(c, &i.orelse)?);
            at(range, move |rt, fr| {
                let t = test(rt, fr)?;
                if ops::truthy(rt, &t)? {
                    body(rt, fr)
                } else {
                    orelse(rt, fr)
                }
            })
        }
        Expr::Call(call) => crate::interp::slots_call::call(c, call)?,
        Expr::Generator(g) => {
            let g = crate::interp::slots_genexpr::genexpr(c, g)?;
            at(range, move |rt, fr| g(rt, fr))
        }
        Expr::FString(f) => {
            let source = c.source.clone();
            let f = crate::interp::slots_fstring::fstring(c, f, &source)?;
            at(range, move |rt, fr| f(rt, fr))
        }
        Expr::Tuple(t) => {
            let items = seq(c, &t.elts)?;
            at(range, move |rt, fr| Ok(Value::tuple(items.eval(rt, fr)?)))
        }
        Expr::List(l) => {
            let items = seq(c, &l.elts)?;
            at(range, move |rt, fr| Ok(Value::list(items.eval(rt, fr)?)))
        }
        Expr::Set(s) => {
            let items = seq(c, &s.elts)?;
            at(range, move |rt, fr| {
                let items = items.eval(rt, fr)?;
                crate::interp::sets::from_items(rt, items)
            })
        }
        Expr::Dict(d) => {
            let mut items = Vec::new();
            for item in &d.items {
                // `**mapping` entries stay with the walker.
                let key = expr(c, item.key.as_ref()?)?;
                items.push((key, expr(c, &item.value)?));
            }
            at(range, move |rt, fr| {
                let mut dict = Dict::default();
                for (k, v) in &items {
                    // CPython's order: the key, then its value.
                    let k = k(rt, fr)?;
                    let v = v(rt, fr)?;
                    ops::dict_set(rt, &mut dict, k, v)?;
                }
                Ok(Value::Dict(Rc::new(RefCell::new(dict))))
            })
        }
        Expr::ListComp(l) => {
            let (levels, elt) = comprehension(c, &l.generators, std::slice::from_ref(&*l.elt))?;
            at(range, move |rt, fr| {
                Ok(Value::list(levels.run(rt, fr, &elt)?))
            })
        }
        Expr::SetComp(s) => {
            let (levels, elt) = comprehension(c, &s.generators, std::slice::from_ref(&*s.elt))?;
            at(range, move |rt, fr| {
                let items = levels.run(rt, fr, &elt)?;
                crate::interp::sets::from_items(rt, items)
            })
        }
        Expr::DictComp(d) => {
            let parts = [(*d.key).clone(), (*d.value).clone()];
            let (levels, kv) = comprehension(c, &d.generators, &parts)?;
            at(range, move |rt, fr| {
                // Keys and values alternate.
                let flat = levels.run(rt, fr, &kv)?;
                let mut dict = Dict::default();
                let mut flat = flat.into_iter();
                while let (Some(k), Some(v)) = (flat.next(), flat.next()) {
                    ops::dict_set(rt, &mut dict, k, v)?;
                }
                Ok(Value::Dict(Rc::new(RefCell::new(dict))))
            })
        }
        Expr::Named(n) if c.comprehension_depth == 0 => {
            let Expr::Name(name) = &*n.target else {
                return None;
            };
            let value = expr(c, &n.value)?;
            let bind = crate::interp::slots_stmt::store(c, name.id.as_str());
            at(range, move |rt, fr| {
                let v = value(rt, fr)?;
                bind(rt, fr, v.clone())?;
                Ok(v)
            })
        }
        _ => return None,
    })
}

/// Compile each of `es`; None when any stays with the walker.
pub fn exprs(c: &mut Compiler, es: &[Expr]) -> Option<Vec<E>> {
    es.iter().map(|e| expr(c, e)).collect()
}

/// The items of a tuple, list or set display, or a call's positional arguments: starred
/// items are expanded.
pub struct Seq(Vec<(bool, E)>);

pub fn seq(c: &mut Compiler, elts: &[Expr]) -> Option<Seq> {
    let mut items = Vec::with_capacity(elts.len());
    for e in elts {
        match e {
            Expr::Starred(s) => items.push((true, expr(c, &s.value)?)),
            e => items.push((false, expr(c, e)?)),
        }
    }
    Some(Seq(items))
}

impl Seq {
    pub fn eval(&self, rt: &mut Runtime, fr: &mut Frame<'_>) -> PyResult<Vec<Value>> {
        let mut out = Vec::with_capacity(self.0.len());
        for (starred, e) in &self.0 {
            let v = e(rt, fr)?;
            if *starred {
                out.extend(ops::iterate(rt, &v)?);
            } else {
                out.push(v);
            }
        }
        Ok(out)
    }
}

/// One `for ... in ... if ...` level of a comprehension.
struct Level {
    iter: E,
    bind: T,
    conds: Vec<E>,
}

pub struct Levels {
    levels: Vec<Level>,
    /// The hidden slots of the comprehension's variables, cleared when it ends (CPython's
    /// comprehension frame lets go of them).
    hidden: Vec<usize>,
}

/// Compile a comprehension's levels and its element expressions, its variables in hidden
/// slots so they neither leak nor clash with the body's names.
fn comprehension(
    c: &mut Compiler,
    gens: &[ast::Comprehension],
    elts: &[Expr],
) -> Option<(Levels, Vec<E>)> {
    c.comprehension_depth += 1;
    let out = comprehension_inner(c, gens, elts);
    c.comprehension_depth -= 1;
    out
}

fn comprehension_inner(
    c: &mut Compiler,
    gens: &[ast::Comprehension],
    elts: &[Expr],
) -> Option<(Levels, Vec<E>)> {
    let mut levels = Vec::new();
    let mut hidden = Vec::new();
    let mut pushed = 0;
    let result = (|| {
        for g in gens {
            if g.is_async {
                return None;
            }
            let iter = expr(c, &g.iter)?;
            let mut names = Vec::new();
            target_names(&g.target, &mut names)?;
            for n in names {
                hidden.push(c.push_hidden(n));
                pushed += 1;
            }
            let bind = target(c, &g.target)?;
            let conds = exprs(c, &g.ifs)?;
            levels.push(Level { iter, bind, conds });
        }
        exprs(c, elts)
    })();
    c.pop_hidden(pushed);
    Some((Levels { levels, hidden }, result?))
}

/// The names a comprehension target binds; None for targets other than names and
/// (nested) tuples or lists of names.
pub fn target_names<'e>(t: &'e Expr, out: &mut Vec<&'e str>) -> Option<()> {
    match t {
        Expr::Name(n) => out.push(n.id.as_str()),
        Expr::Tuple(t) => t.elts.iter().try_for_each(|e| target_names(e, out))?,
        Expr::List(l) => l.elts.iter().try_for_each(|e| target_names(e, out))?,
        Expr::Starred(s) => target_names(&s.value, out)?,
        _ => return None,
    }
    Some(())
}

impl Levels {
    fn run(&self, rt: &mut Runtime, fr: &mut Frame<'_>, elts: &[E]) -> PyResult<Vec<Value>> {
        let mut out = Vec::new();
        let r = self.level(rt, fr, 0, elts, &mut out);
        for i in &self.hidden {
            fr.slots[*i] = None;
        }
        r.map(|_| out)
    }

    fn level(
        &self,
        rt: &mut Runtime,
        fr: &mut Frame<'_>,
        i: usize,
        elts: &[E],
        out: &mut Vec<Value>,
    ) -> PyResult<()> {
        let Some(l) = self.levels.get(i) else {
            for e in elts {
                out.push(e(rt, fr)?);
            }
            return Ok(());
        };
        let iterable = (l.iter)(rt, fr)?;
        // As the walker: a range is counted through, not listed first.
        if let Some(r) = iterable.downcast::<crate::interp::objects::RangeObj>() {
            for k in 0..r.len() {
                self.item(rt, fr, i, elts, out, Value::Int(r.get(k)))?;
            }
            return Ok(());
        }
        for item in ops::iterate(rt, &iterable)? {
            self.item(rt, fr, i, elts, out, item)?;
        }
        Ok(())
    }

    fn item(
        &self,
        rt: &mut Runtime,
        fr: &mut Frame<'_>,
        i: usize,
        elts: &[E],
        out: &mut Vec<Value>,
        item: Value,
    ) -> PyResult<()> {
        rt.check_interrupt()?;
        let l = &self.levels[i];
        (l.bind)(rt, fr, item)?;
        for cond in &l.conds {
            let v = cond(rt, fr)?;
            if !ops::truthy(rt, &v)? {
                return Ok(());
            }
        }
        self.level(rt, fr, i + 1, elts, out)
    }
}

/// Call a value the walker's way (`call_value`), except the builtins that need the calling
/// frame, which get a snapshot of it.
pub fn invoke(rt: &mut Runtime, fr: &Frame<'_>, f: &Value, args: Args) -> PyResult<Value> {
    match crate::interp::dynamic::is_frame_builtin(f) {
        Some(name) => {
            let mut ctx = fr.snapshot();
            crate::interp::dynamic::call(rt, &mut ctx, name, args)
        }
        None => call_value(rt, f, args),
    }
}
