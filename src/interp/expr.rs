//! Expression evaluation.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

use crate::arrays::index::SliceValue;
use crate::arrays::operator::BinOp;
use crate::arrays::operator::UnaryOp;
use crate::interp::attrs::get_attr;
use crate::interp::frame::Ctx;
use crate::interp::ops;
use crate::interp::params;
use crate::interp::repr::{format_value, repr, to_str};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Value};

/// Interpreter-wide state kept in the runtime.
#[derive(Default)]
pub struct InterpState {
    pub builtins: HashMap<String, Value>,
    /// The class objects `type(v)` made for types without a builtin, by (module, name):
    /// one object per class, so `type(a) is type(b)` holds as in CPython.
    pub classes: HashMap<(String, String), Value>,
    /// Reply payloads of the running cell (`obj?` pages).
    pub payload: Vec<serde_json::Value>,
    /// The exceptions except blocks are handling, innermost last (`sys.exc_info()`).
    pub handled: Vec<crate::py::error::PyErr>,
}

/// The most `sys.setrecursionlimit` accepts. Native stack grows on the heap as calls nest
/// (see [`enter_frame`]), so this bounds memory (a few kilobytes per call), not safety.
pub const MAX_RECURSION_LIMIT: usize = 100_000;
/// Native stack a Python call must find free, else it continues on a new heap segment of
/// `STACK_SEGMENT` bytes. One call takes about 6 KiB; an expression nested as deep as the
/// parser allows (`nesting.rs`) takes well under this.
const STACK_RED_ZONE: usize = 1 << 20;
const STACK_SEGMENT: usize = 32 << 20;

/// Run one Python frame's `body`: RecursionError past the recursion limit, and never a
/// native stack overflow, whatever the thread's stack size (a test harness thread has 2 MiB).
pub fn enter_frame<T>(
    rt: &mut Runtime,
    body: impl FnOnce(&mut Runtime) -> PyResult<T>,
) -> PyResult<T> {
    rt.call_depth += 1;
    let result = if rt.call_depth > rt.recursion_limit {
        Err(PyErr::new(
            "RecursionError",
            "maximum recursion depth exceeded",
        ))
    } else {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || body(rt))
    };
    rt.call_depth -= 1;
    result
}

pub fn eval(rt: &mut Runtime, ctx: &mut Ctx, e: &Expr) -> PyResult<Value> {
    eval_inner(rt, ctx, e).map_err(|err| ctx.locate(err, e.range()))
}

/// `xs.append(v)` on a list and `s.add(v)` on a set, without building the bound method
/// first: the method calls in most loops that fill a collection. None when the call is
/// anything else (it then goes through the bound method, with its argument checks).
fn direct_collection_add(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    base: &Value,
    a: &ast::ExprAttribute,
    call: &ast::Arguments,
) -> PyResult<Option<Value>> {
    let plain_one_arg = call.args.len() == 1
        && call.keywords.is_empty()
        && !matches!(call.args[0], Expr::Starred(_));
    match (base, a.attr.as_str()) {
        (Value::List(items), "append") if plain_one_arg => {
            let v = eval(rt, ctx, &call.args[0])?;
            items.borrow_mut().push(v);
            Ok(Some(Value::None))
        }
        (Value::Set(set), "add") if plain_one_arg => {
            let v = eval(rt, ctx, &call.args[0])?;
            crate::interp::sets::add(rt, set, v)?;
            Ok(Some(Value::None))
        }
        _ => Ok(None),
    }
}

fn name_error(name: &str) -> PyErr {
    PyErr::name_error(format!("name '{name}' is not defined"))
}

pub fn lookup_name(rt: &mut Runtime, ctx: &Ctx, name: &str) -> PyResult<Value> {
    if let Some(v) = ctx.lookup(name) {
        return Ok(v);
    }
    if ctx.is_static_local(name) {
        return Err(PyErr::new(
            "UnboundLocalError",
            format!(
                "cannot access local variable '{name}' where it is not associated with a value"
            ),
        ));
    }
    rt.state::<InterpState>()
        .builtins
        .get(name)
        .cloned()
        .ok_or_else(|| name_error(name))
}

fn op_of(op: ast::Operator) -> BinOp {
    use ast::Operator as O;
    match op {
        O::Add => BinOp::Add,
        O::Sub => BinOp::Sub,
        O::Mult => BinOp::Mul,
        O::MatMult => BinOp::MatMul,
        O::Div => BinOp::Div,
        O::Mod => BinOp::Mod,
        O::Pow => BinOp::Pow,
        O::LShift => BinOp::LShift,
        O::RShift => BinOp::RShift,
        O::BitOr => BinOp::BitOr,
        O::BitXor => BinOp::BitXor,
        O::BitAnd => BinOp::BitAnd,
        O::FloorDiv => BinOp::FloorDiv,
    }
}

pub fn binop_of(op: ast::Operator) -> BinOp {
    op_of(op)
}

/// The value of a literal (numbers, strings, bytes, True/False/None, `...`); None for
/// any other expression.
pub fn literal(e: &Expr) -> Option<PyResult<Value>> {
    Some(Ok(match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => match i.as_i64() {
                Some(v) => Value::Int(v),
                None => return Some(crate::interp::bigint::parse_literal(&i.to_string())),
            },
            ast::Number::Float(f) => Value::Float(*f),
            ast::Number::Complex { real, imag } => Value::Complex(*real, *imag),
        },
        Expr::StringLiteral(s) => Value::str(s.value.to_str()),
        Expr::BytesLiteral(b) => Value::Bytes(b.value.bytes().collect::<Vec<u8>>().into()),
        Expr::BooleanLiteral(b) => Value::Bool(b.value),
        Expr::NoneLiteral(_) => Value::None,
        Expr::EllipsisLiteral(_) => Value::Ellipsis,
        _ => return None,
    }))
}

fn eval_inner(rt: &mut Runtime, ctx: &mut Ctx, e: &Expr) -> PyResult<Value> {
    if let Some(v) = literal(e) {
        return v;
    }
    Ok(match e {
        Expr::FString(f) => Value::str(&fstring(rt, ctx, f)?),
        Expr::Name(n) => lookup_name(rt, ctx, n.id.as_str())?,
        Expr::Attribute(a) => {
            let base = eval(rt, ctx, &a.value)?;
            get_attr(rt, &base, a.attr.as_str())?
        }
        Expr::Subscript(s) => {
            let base = eval(rt, ctx, &s.value)?;
            let key = eval(rt, ctx, &s.slice)?;
            ops::get_item(rt, &base, &key)?
        }
        Expr::Slice(s) => {
            let mut part = |x: &Option<Box<Expr>>| -> PyResult<Option<i64>> {
                match x {
                    None => Ok(None),
                    Some(x) => match eval(rt, ctx, x)? {
                        Value::None => Ok(None),
                        v => Ok(Some(v.as_index().map_err(|_| {
                            PyErr::type_error("slice indices must be integers or None or have an __index__ method")
                        })?)),
                    },
                }
            };
            let (start, stop, step) = (part(&s.lower)?, part(&s.upper)?, part(&s.step)?);
            Value::Slice(Rc::new(SliceValue { start, stop, step }))
        }
        Expr::BinOp(b) => {
            let l = eval(rt, ctx, &b.left)?;
            let r = eval(rt, ctx, &b.right)?;
            ops::binary(rt, op_of(b.op), &l, &r)?
        }
        Expr::UnaryOp(u) => {
            let v = eval(rt, ctx, &u.operand)?;
            match u.op {
                ast::UnaryOp::Not => Value::Bool(!ops::truthy(rt, &v)?),
                ast::UnaryOp::USub => ops::unary(rt, UnaryOp::Neg, &v)?,
                ast::UnaryOp::UAdd => ops::unary(rt, UnaryOp::Pos, &v)?,
                ast::UnaryOp::Invert => ops::unary(rt, UnaryOp::Invert, &v)?,
            }
        }
        Expr::BoolOp(b) => {
            let mut last = Value::None;
            for (i, v) in b.values.iter().enumerate() {
                last = eval(rt, ctx, v)?;
                let t = ops::truthy(rt, &last)?;
                let stop = match b.op {
                    ast::BoolOp::And => !t,
                    ast::BoolOp::Or => t,
                };
                if stop || i + 1 == b.values.len() {
                    break;
                }
            }
            last
        }
        Expr::Compare(c) => {
            let mut left = eval(rt, ctx, &c.left)?;
            let mut result = Value::Bool(true);
            for (op, right_e) in c.ops.iter().zip(c.comparators.iter()) {
                let right = eval(rt, ctx, right_e)?;
                let r = match op {
                    ast::CmpOp::Eq => ops::compare(rt, BinOp::Eq, &left, &right)?,
                    ast::CmpOp::NotEq => ops::compare(rt, BinOp::Ne, &left, &right)?,
                    ast::CmpOp::Lt => ops::compare(rt, BinOp::Lt, &left, &right)?,
                    ast::CmpOp::LtE => ops::compare(rt, BinOp::Le, &left, &right)?,
                    ast::CmpOp::Gt => ops::compare(rt, BinOp::Gt, &left, &right)?,
                    ast::CmpOp::GtE => ops::compare(rt, BinOp::Ge, &left, &right)?,
                    ast::CmpOp::Is => Value::Bool(ops::is_same(&left, &right)),
                    ast::CmpOp::IsNot => Value::Bool(!ops::is_same(&left, &right)),
                    ast::CmpOp::In => Value::Bool(ops::contains(rt, &right, &left)?),
                    ast::CmpOp::NotIn => Value::Bool(!ops::contains(rt, &right, &left)?),
                };
                if c.ops.len() == 1 {
                    return Ok(r);
                }
                if !ops::truthy(rt, &r)? {
                    return Ok(r);
                }
                result = r;
                left = right;
            }
            result
        }
        Expr::If(i) => {
            let t = eval(rt, ctx, &i.test)?;
            if ops::truthy(rt, &t)? {
                eval(rt, ctx, &i.body)?
            } else {
                eval(rt, ctx, &i.orelse)?
            }
        }
        Expr::Call(c) => {
            let f = match &*c.func {
                Expr::Attribute(a) => {
                    let base = eval(rt, ctx, &a.value)?;
                    if let Some(done) = direct_collection_add(rt, ctx, &base, a, &c.arguments)? {
                        return Ok(done);
                    }
                    get_attr(rt, &base, a.attr.as_str()).map_err(|e| ctx.locate(e, a.range))?
                }
                func => eval(rt, ctx, func)?,
            };
            let args = eval_args(rt, ctx, &c.arguments)?;
            match crate::interp::dynamic::is_frame_builtin(&f) {
                Some(name) => crate::interp::dynamic::call(rt, ctx, name, args)?,
                None => call_value(rt, &f, args)?,
            }
        }
        Expr::Tuple(t) => Value::tuple(eval_seq(rt, ctx, &t.elts)?),
        Expr::List(l) => Value::list(eval_seq(rt, ctx, &l.elts)?),
        Expr::Set(s) => {
            let items = eval_seq(rt, ctx, &s.elts)?;
            crate::interp::sets::from_items(rt, items)?
        }
        Expr::Dict(d) => {
            let mut dict = Dict::default();
            for item in &d.items {
                // CPython's order: a key, then its value.
                let k = match &item.key {
                    Some(k) => Some(eval(rt, ctx, k)?),
                    None => None,
                };
                let v = eval(rt, ctx, &item.value)?;
                match k {
                    Some(k) => ops::dict_set(rt, &mut dict, k, v)?,
                    None => match crate::interp::collections_dicts::dict_of(&v) {
                        Some(other) => {
                            for (k, v) in other.borrow().items() {
                                ops::dict_set(rt, &mut dict, k, v)?;
                            }
                        }
                        None => {
                            let other = &v;
                            return Err(PyErr::type_error(format!(
                                "'{}' object is not a mapping",
                                other.type_name()
                            )))
                        }
                    },
                }
            }
            Value::Dict(Rc::new(RefCell::new(dict)))
        }
        Expr::ListComp(l) => Value::list(comprehension(
            rt,
            ctx,
            &l.generators,
            &mut |rt, c, out| {
                out.push(eval(rt, c, &l.elt)?);
                Ok(())
            },
        )?),
        Expr::Generator(g) => crate::interp::generators::from_expression(rt, ctx, g)?,
        Expr::SetComp(s) => {
            let items = comprehension(rt, ctx, &s.generators, &mut |rt, c, out| {
                out.push(eval(rt, c, &s.elt)?);
                Ok(())
            })?;
            crate::interp::sets::from_items(rt, items)?
        }
        Expr::DictComp(d) => {
            // Keys and values alternate in `flat`.
            let flat = comprehension(rt, ctx, &d.generators, &mut |rt, c, out| {
                let k = eval(rt, c, &d.key)?;
                let v = eval(rt, c, &d.value)?;
                out.push(k);
                out.push(v);
                Ok(())
            })?;
            let mut dict = Dict::default();
            let mut flat = flat.into_iter();
            while let (Some(k), Some(v)) = (flat.next(), flat.next()) {
                ops::dict_set(rt, &mut dict, k, v)?;
            }
            Value::Dict(Rc::new(RefCell::new(dict)))
        }
        Expr::Lambda(l) => make_lambda(rt, ctx, l)?,
        Expr::Named(n) => {
            let v = eval(rt, ctx, &n.value)?;
            crate::interp::stmt::assign_target(rt, ctx, &n.target, v.clone())?;
            v
        }
        Expr::Starred(_) => {
            return Err(PyErr::new(
                "SyntaxError",
                "can't use starred expression here",
            ))
        }
        Expr::IpyEscapeCommand(c) => {
            crate::interp::magics::run_escape(rt, ctx, c.kind, &c.value, true)?
        }
        Expr::Await(_) => {
            return Err(PyErr::not_implemented(
                "await (async code) is not supported in nbcuda",
            ))
        }
        Expr::Yield(_) | Expr::YieldFrom(_) if ctx.locals.is_none() => {
            return Err(PyErr::new("SyntaxError", "'yield' outside function"))
        }
        Expr::Yield(_) | Expr::YieldFrom(_) => {
            return Err(PyErr::not_implemented(
                "this use of yield is not supported in nbcuda: write `yield x`, `x = yield y` or `yield from it` as a statement of its own",
            ))
        }
        Expr::TString(_) => {
            return Err(PyErr::not_implemented(
                "template strings are not supported in nbcuda",
            ))
        }
        // Literals returned above.
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => Value::None,
    })
}

pub fn eval_seq(rt: &mut Runtime, ctx: &mut Ctx, elts: &[Expr]) -> PyResult<Vec<Value>> {
    let mut out = Vec::with_capacity(elts.len());
    for e in elts {
        if let Expr::Starred(s) = e {
            let v = eval(rt, ctx, &s.value)?;
            out.extend(ops::iterate(rt, &v)?);
        } else {
            out.push(eval(rt, ctx, e)?);
        }
    }
    Ok(out)
}

pub fn eval_args(rt: &mut Runtime, ctx: &mut Ctx, a: &ast::Arguments) -> PyResult<Args> {
    let pos = eval_seq(rt, ctx, &a.args)?;
    let mut kw = Vec::new();
    for k in a.keywords.iter() {
        let v = eval(rt, ctx, &k.value)?;
        match &k.arg {
            Some(name) => kw.push((Rc::from(name.as_str()), v)),
            None => match crate::interp::collections_dicts::dict_of(&v) {
                Some(d) => {
                    for (k, v) in d.borrow().iter() {
                        let Value::Str(s) = k else {
                            return Err(PyErr::type_error("keywords must be strings"));
                        };
                        kw.push((s.clone(), v.clone()));
                    }
                }
                None => {
                    let other = &v;
                    return Err(PyErr::type_error(format!(
                        "argument after ** must be a mapping, not {}",
                        other.type_name()
                    )));
                }
            },
        }
    }
    Ok(Args { pos, kw })
}

/// Evaluates a comprehension's element(s) for the current bindings, pushing onto the output.
type ElemFn<'a> = dyn FnMut(&mut Runtime, &mut Ctx, &mut Vec<Value>) -> PyResult<()> + 'a;

fn comprehension(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    gens: &[ast::Comprehension],
    elem: &mut ElemFn<'_>,
) -> PyResult<Vec<Value>> {
    let mut inner = ctx.nested_scope();
    let mut out = Vec::new();
    comp_level(rt, &mut inner, gens, 0, elem, &mut out)?;
    Ok(out)
}

fn comp_level(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    gens: &[ast::Comprehension],
    i: usize,
    elem: &mut ElemFn<'_>,
    out: &mut Vec<Value>,
) -> PyResult<()> {
    if i == gens.len() {
        return elem(rt, ctx, out);
    }
    let g = &gens[i];
    let iterable = eval(rt, ctx, &g.iter)?;
    // A range is counted through rather than listed first (`[f(i) for i in range(10**8)]`).
    if let Some(r) = iterable.downcast::<crate::interp::objects::RangeObj>() {
        for k in 0..r.len() {
            comp_item(rt, ctx, gens, i, elem, out, Value::Int(r.get(k)))?;
        }
        return Ok(());
    }
    for item in ops::iterate(rt, &iterable)? {
        comp_item(rt, ctx, gens, i, elem, out, item)?;
    }
    Ok(())
}

/// One item of level `i`: bind it, apply the level's conditions, go on to the next level.
fn comp_item(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    gens: &[ast::Comprehension],
    i: usize,
    elem: &mut ElemFn<'_>,
    out: &mut Vec<Value>,
    item: Value,
) -> PyResult<()> {
    rt.check_interrupt()?;
    let g = &gens[i];
    crate::interp::stmt::assign_target(rt, ctx, &g.target, item)?;
    for cond in &g.ifs {
        let c = eval(rt, ctx, cond)?;
        if !ops::truthy(rt, &c)? {
            return Ok(());
        }
    }
    comp_level(rt, ctx, gens, i + 1, elem, out)
}

fn fstring(rt: &mut Runtime, ctx: &mut Ctx, f: &ast::ExprFString) -> PyResult<String> {
    let mut out = String::new();
    for part in f.value.iter() {
        match part {
            ast::FStringPart::Literal(l) => out.push_str(&l.value),
            ast::FStringPart::FString(fs) => interpolate(rt, ctx, &fs.elements, &mut out)?,
        }
    }
    Ok(out)
}

fn interpolate(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    elements: &ast::InterpolatedStringElements,
    out: &mut String,
) -> PyResult<()> {
    for el in elements.iter() {
        match el {
            ast::InterpolatedStringElement::Literal(l) => out.push_str(&l.value),
            ast::InterpolatedStringElement::Interpolation(i) => {
                let v = eval(rt, ctx, &i.expression)?;
                if let Some(d) = &i.debug_text {
                    let src = &ctx.source[i.expression.range().start().to_usize()
                        ..i.expression.range().end().to_usize()];
                    out.push_str(&d.leading);
                    out.push_str(src);
                    out.push_str(&d.trailing);
                }
                let mut spec = String::new();
                if let Some(fs) = &i.format_spec {
                    interpolate(rt, ctx, &fs.elements, &mut spec)?;
                }
                let v = match i.conversion {
                    ast::ConversionFlag::Repr => Value::str(&repr(rt, &v)?),
                    ast::ConversionFlag::Str => Value::str(&to_str(rt, &v)?),
                    ast::ConversionFlag::Ascii => Value::str(&repr(rt, &v)?),
                    ast::ConversionFlag::None if i.debug_text.is_some() && spec.is_empty() => {
                        Value::str(&repr(rt, &v)?)
                    }
                    ast::ConversionFlag::None => v,
                };
                out.push_str(&format_value(rt, &v, &spec)?);
            }
        }
    }
    Ok(())
}

fn make_lambda(rt: &mut Runtime, ctx: &mut Ctx, l: &ast::ExprLambda) -> PyResult<Value> {
    let range = l.range();
    let def = ast::StmtFunctionDef {
        node_index: Default::default(),
        range,
        is_async: false,
        decorator_list: vec![],
        name: ast::Identifier::new("<lambda>", range),
        type_params: None,
        parameters: l.parameters.clone().unwrap_or_default(),
        returns: None,
        body: vec![ast::Stmt::Return(ast::StmtReturn {
            node_index: Default::default(),
            range: l.body.range(),
            value: Some(l.body.clone()),
        })],
    };
    let f = crate::interp::stmt::make_function(rt, ctx, Rc::new(def))?;
    Ok(Value::Object(Rc::new(f)))
}

/// Call any callable value.
pub fn call_value(rt: &mut Runtime, f: &Value, args: Args) -> PyResult<Value> {
    rt.check_interrupt()?;
    match f {
        Value::Builtin(b) => (b.f)(rt, args),
        Value::Object(o) => {
            if let Some(func) = o.as_any().downcast_ref::<Function>() {
                call_function(rt, func, args)
            } else {
                o.clone().call(args, rt)
            }
        }
        other => Err(PyErr::type_error(format!(
            "'{}' object is not callable",
            other.type_name()
        ))),
    }
}

/// Bind arguments to a user function's parameters and run its body.
pub fn call_function(rt: &mut Runtime, f: &Function, args: Args) -> PyResult<Value> {
    enter_frame(rt, |rt| call_function_inner(rt, f, args))
}

fn call_function_inner(rt: &mut Runtime, f: &Function, args: Args) -> PyResult<Value> {
    if let Some(code) = crate::interp::slots::code_of(f) {
        return crate::interp::slots::run_call(rt, f, code, args);
    }
    // Sized for every local up front: the body binds them one by one, and growing the
    // table on the way costs more than the call itself for small functions.
    let names = crate::py::function::Names::with_capacity(f.local_names.len());
    let locals: crate::py::function::Scope = Rc::new(RefCell::new(names));
    params::bind_params(f, args, &mut locals.borrow_mut())?;
    // Only methods need their class and first parameter (for zero-argument super()).
    let kind = crate::interp::slots::method_kind(f).unwrap_or_default();
    let mut ctx = Ctx {
        locals: Some(locals),
        globals: f.globals.clone(),
        enclosing: f.enclosing.clone(),
        declared_global: f.declared.global.clone(),
        declared_nonlocal: f.declared.nonlocal.clone(),
        static_locals: Some(f.local_names.clone()),
        source: f.source.clone(),
        origin: f.origin.clone(),
        fname: f.name.clone(),
        handling: Vec::new(),
        kind,
    };
    if f.is_generator {
        return Ok(crate::interp::generators::from_function(
            ctx,
            &f.def.body,
            &f.name,
            &f.qualname,
        ));
    }
    match crate::interp::stmt::exec_block(rt, &mut ctx, &f.def.body)? {
        crate::interp::frame::Flow::Return(v) => Ok(v),
        _ => Ok(Value::None),
    }
}
