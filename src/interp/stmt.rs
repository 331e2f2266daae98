//! Statement execution.

use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::interp::expr::{binop_of, call_value, eval, lookup_name};
use crate::interp::frame::{Ctx, Flow};
use crate::interp::objects::{ExceptionType, ExceptionValue, RangeObj};
use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::{Declarations, Function};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

pub fn exec_block(rt: &mut Runtime, ctx: &mut Ctx, body: &[Stmt]) -> PyResult<Flow> {
    for s in body {
        match exec_stmt(rt, ctx, s)? {
            Flow::Normal => {}
            other => return Ok(other),
        }
    }
    Ok(Flow::Normal)
}

/// The `global` / `nonlocal` declarations of a function body, collected when it is defined.
pub fn collect_declarations(body: &[Stmt], d: &mut Declarations) {
    for s in body {
        match s {
            Stmt::Global(g) => d
                .global
                .extend(g.names.iter().map(|n| Rc::from(n.id.as_str()))),
            Stmt::Nonlocal(n) => d
                .nonlocal
                .extend(n.names.iter().map(|n| Rc::from(n.id.as_str()))),
            Stmt::If(i) => {
                collect_declarations(&i.body, d);
                for c in &i.elif_else_clauses {
                    collect_declarations(&c.body, d);
                }
            }
            Stmt::For(f) => collect_declarations(&f.body, d),
            Stmt::While(w) => collect_declarations(&w.body, d),
            Stmt::With(w) => collect_declarations(&w.body, d),
            Stmt::Try(t) => collect_declarations(&t.body, d),
            _ => {}
        }
    }
}

pub fn exec_stmt(rt: &mut Runtime, ctx: &mut Ctx, s: &Stmt) -> PyResult<Flow> {
    exec_inner(rt, ctx, s).map_err(|e| ctx.locate(e, s.range()))
}

fn unsupported(what: &str) -> PyErr {
    PyErr::not_implemented(format!(
        "{what} are not supported in nbcuda's Python subset"
    ))
}

fn exec_inner(rt: &mut Runtime, ctx: &mut Ctx, s: &Stmt) -> PyResult<Flow> {
    match s {
        Stmt::Expr(e) => {
            eval(rt, ctx, &e.value)?;
        }
        Stmt::Assign(a) => {
            let v = eval(rt, ctx, &a.value)?;
            if let Some((last, rest)) = a.targets.split_last() {
                for t in rest {
                    assign_target(rt, ctx, t, v.clone())?;
                }
                assign_target(rt, ctx, last, v)?;
            }
        }
        Stmt::AnnAssign(a) => {
            if let (crate::interp::frame::ScopeKind::ClassBody { .. }, Expr::Name(n)) =
                (&ctx.kind, &*a.target)
            {
                record_annotation(rt, ctx, n.id.as_str(), &a.annotation)?;
            }
            if let Some(value) = &a.value {
                let v = eval(rt, ctx, value)?;
                assign_target(rt, ctx, &a.target, v)?;
            }
        }
        Stmt::AugAssign(a) => aug_assign(rt, ctx, a)?,
        Stmt::If(i) => {
            let t = eval(rt, ctx, &i.test)?;
            if ops::truthy(rt, &t)? {
                return exec_block(rt, ctx, &i.body);
            }
            for clause in &i.elif_else_clauses {
                let take = match &clause.test {
                    Some(test) => {
                        let t = eval(rt, ctx, test)?;
                        ops::truthy(rt, &t)?
                    }
                    None => true,
                };
                if take {
                    return exec_block(rt, ctx, &clause.body);
                }
            }
        }
        Stmt::For(_) | Stmt::While(_) if ctx.locals.is_none() => {
            if let Some(flow) = crate::interp::slots::run_module_loop(rt, ctx, s) {
                return flow;
            }
            return match s {
                Stmt::For(f) => exec_for(rt, ctx, f),
                Stmt::While(w) => exec_while(rt, ctx, w),
                _ => Ok(Flow::Normal),
            };
        }
        Stmt::For(f) => return exec_for(rt, ctx, f),
        Stmt::While(w) => return exec_while(rt, ctx, w),
        Stmt::Break(_) => return Ok(Flow::Break),
        Stmt::Continue(_) => return Ok(Flow::Continue),
        Stmt::Pass(_) => {}
        Stmt::Return(r) => {
            if ctx.locals.is_none() {
                return Err(PyErr::new("SyntaxError", "'return' outside function"));
            }
            let v = match &r.value {
                Some(e) => eval(rt, ctx, e)?,
                None => Value::None,
            };
            return Ok(Flow::Return(v));
        }
        Stmt::FunctionDef(f) => {
            if f.is_async {
                return Err(unsupported("async functions"));
            }
            let func = make_function(rt, ctx, Rc::new(f.clone()))?;
            let mut v = Value::Object(Rc::new(func));
            for d in f.decorator_list.iter().rev() {
                let dec = eval(rt, ctx, &d.expression)?;
                v = call_value(rt, &dec, Args::new(vec![v]))
                    .map_err(|e| ctx.locate(e, d.range()))?;
            }
            ctx.assign(f.name.as_str(), v);
        }
        Stmt::Delete(d) => {
            for t in &d.targets {
                match t {
                    Expr::Name(n) => {
                        if !ctx.delete(n.id.as_str()) {
                            if ctx.is_static_local(n.id.as_str()) {
                                return Err(crate::interp::slots::unbound(n.id.as_str()));
                            }
                            return Err(PyErr::name_error(format!(
                                "name '{}' is not defined",
                                n.id
                            )));
                        }
                    }
                    Expr::Subscript(sub) => {
                        let base = eval(rt, ctx, &sub.value)?;
                        let key = eval(rt, ctx, &sub.slice)?;
                        ops::del_item(rt, &base, &key)?;
                    }
                    Expr::Attribute(a) => {
                        let base = eval(rt, ctx, &a.value)?;
                        crate::interp::attrs::del_attr(rt, &base, a.attr.as_str())?;
                    }
                    Expr::Tuple(_) | Expr::List(_) => {
                        return Err(PyErr::not_implemented(
                            "deleting a tuple or list of targets is not supported in nbcuda: \
                             write one del per name",
                        ))
                    }
                    _ => return Err(PyErr::new("SyntaxError", "cannot delete expression")),
                }
            }
        }
        Stmt::Global(g) => ctx
            .declared_global
            .extend(g.names.iter().map(|n| Rc::from(n.id.as_str()))),
        Stmt::Nonlocal(n) => ctx
            .declared_nonlocal
            .extend(n.names.iter().map(|n| Rc::from(n.id.as_str()))),
        Stmt::Import(i) => {
            for alias in &i.names {
                let full = alias.name.as_str();
                let module = crate::interp::modules::import(rt, full)?;
                match &alias.asname {
                    Some(asname) => ctx.assign(asname.as_str(), Value::Module(module)),
                    None => {
                        let top = full.split('.').next().unwrap_or(full);
                        let top_mod = crate::interp::modules::import(rt, top)?;
                        ctx.assign(top, Value::Module(top_mod));
                    }
                }
            }
        }
        Stmt::ImportFrom(i) => {
            let given = i.module.as_ref().map(|m| m.as_str()).unwrap_or("");
            let name = crate::interp::imports::absolute_name(ctx, i.level, given)?;
            let module = crate::interp::modules::import(rt, &name)?;
            for alias in &i.names {
                let attr = alias.name.as_str();
                if attr == "*" {
                    crate::interp::imports::star_import(rt, ctx, &module)?;
                    continue;
                }
                let v = crate::interp::imports::import_attr(rt, &module, attr)?;
                ctx.assign(alias.asname.as_ref().map(|a| a.as_str()).unwrap_or(attr), v);
            }
        }
        Stmt::With(w) => return exec_with(rt, ctx, w, 0),
        Stmt::Try(t) => return exec_try(rt, ctx, t),
        Stmt::Raise(r) => {
            let err = match &r.exc {
                None => ctx
                    .handling
                    .last()
                    .cloned()
                    .ok_or_else(|| PyErr::runtime_error("No active exception to reraise"))?,
                Some(e) => {
                    let v = eval(rt, ctx, e)?;
                    let mut err = to_exception(rt, &v)?;
                    if let Some(c) = &r.cause {
                        let cause = eval(rt, ctx, c)?;
                        crate::interp::objects::set_cause(rt, &mut err, &cause)?;
                    }
                    err
                }
            };
            return Err(err);
        }
        Stmt::Assert(a) => {
            let t = eval(rt, ctx, &a.test)?;
            if !ops::truthy(rt, &t)? {
                let msg = match &a.msg {
                    Some(m) => {
                        let v = eval(rt, ctx, m)?;
                        crate::interp::repr::to_str(rt, &v)?
                    }
                    None => String::new(),
                };
                return Err(PyErr::new("AssertionError", msg));
            }
        }
        Stmt::IpyEscapeCommand(c) => {
            crate::interp::magics::run_escape(rt, ctx, c.kind, &c.value, false)?;
        }
        Stmt::ClassDef(c) => crate::interp::classes::exec_class(rt, ctx, c)?,
        Stmt::Match(m) => return crate::interp::matching::exec_match(rt, ctx, m),
        Stmt::TypeAlias(_) => return Err(unsupported("type aliases")),
    }
    Ok(Flow::Normal)
}

/// Turn a raised value into an exception.
pub fn to_exception(rt: &mut Runtime, v: &Value) -> PyResult<PyErr> {
    if let Some(err) = crate::interp::classes::raised(rt, v)? {
        return Ok(err);
    }
    if let Some(t) = v.downcast::<ExceptionType>() {
        return Ok(PyErr::new(&t.name, ""));
    }
    if let Some(e) = v.downcast::<ExceptionValue>() {
        let mut err = e.err.clone();
        err.frames.clear();
        let obj = err.obj_mut();
        obj.instance = Some(v.clone());
        obj.chain = e.chain.borrow().clone();
        return Ok(err);
    }
    Err(PyErr::type_error(
        "exceptions must derive from BaseException",
    ))
}

fn exec_while(rt: &mut Runtime, ctx: &mut Ctx, w: &ast::StmtWhile) -> PyResult<Flow> {
    loop {
        rt.check_interrupt()?;
        let t = eval(rt, ctx, &w.test)?;
        if !ops::truthy(rt, &t)? {
            return exec_block(rt, ctx, &w.orelse);
        }
        match exec_block(rt, ctx, &w.body)? {
            Flow::Break => return Ok(Flow::Normal),
            Flow::Return(v) => return Ok(Flow::Return(v)),
            _ => {}
        }
    }
}

/// A `for` loop over items pulled one at a time (None: exhausted), with its `else`.
fn for_each_pulled(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    f: &ast::StmtFor,
    pull: &mut dyn FnMut(&mut Runtime) -> PyResult<Option<Value>>,
) -> PyResult<Flow> {
    while let Some(item) = pull(rt)? {
        rt.check_interrupt()?;
        assign_target(rt, ctx, &f.target, item)?;
        match exec_block(rt, ctx, &f.body)? {
            Flow::Break => return Ok(Flow::Normal),
            Flow::Return(v) => return Ok(Flow::Return(v)),
            _ => {}
        }
    }
    exec_block(rt, ctx, &f.orelse)
}
fn exec_for(rt: &mut Runtime, ctx: &mut Ctx, f: &ast::StmtFor) -> PyResult<Flow> {
    if f.is_async {
        return Err(unsupported("async for loops"));
    }
    let iterable = eval(rt, ctx, &f.iter)?;
    // Ranges iterate lazily so `for i in range(10**9)` needs no memory.
    if let Some(r) = iterable.downcast::<RangeObj>() {
        for k in 0..r.len() {
            rt.check_interrupt()?;
            assign_target(rt, ctx, &f.target, Value::Int(r.get(k)))?;
            match exec_block(rt, ctx, &f.body)? {
                Flow::Break => return Ok(Flow::Normal),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                _ => {}
            }
        }
        return exec_block(rt, ctx, &f.orelse);
    }
    // Generators and native lazy iterators (`itertools.count()`) run one item at a time,
    // so infinite ones work.
    if let Some(g) = crate::interp::generators::as_generator(&iterable) {
        return for_each_pulled(rt, ctx, f, &mut |rt| g.next_value(rt));
    }
    if let Some(it) = crate::interp::iterators::as_lazy(&iterable) {
        return for_each_pulled(rt, ctx, f, &mut |rt| it.next_item(rt));
    }
    let items = ops::iterate(rt, &iterable)?;
    let size = container_size(&iterable);
    for item in items {
        rt.check_interrupt()?;
        assign_target(rt, ctx, &f.target, item)?;
        match exec_block(rt, ctx, &f.body)? {
            Flow::Break => return Ok(Flow::Normal),
            Flow::Return(v) => return Ok(Flow::Return(v)),
            _ => {}
        }
        check_size(&iterable, size)?;
    }
    exec_block(rt, ctx, &f.orelse)
}

/// The size of a dict or set being looped over: the loop iterates a snapshot, and CPython
/// raises RuntimeError when the body adds or removes entries, so the loop compares sizes.
pub(crate) fn container_size(v: &Value) -> Option<usize> {
    match v {
        Value::Dict(d) => Some(d.borrow().len()),
        Value::Set(s) => Some(s.borrow().len()),
        _ => None,
    }
}

/// CPython's RuntimeError when a dict or set looped over changed size (`size` is
/// [`container_size`] before the loop).
pub(crate) fn check_size(iterable: &Value, size: Option<usize>) -> PyResult<()> {
    if size.is_some() && container_size(iterable) != size {
        return Err(PyErr::runtime_error(if matches!(iterable, Value::Set(_)) {
            "Set changed size during iteration"
        } else {
            "dictionary changed size during iteration"
        }));
    }
    Ok(())
}

fn exec_with(rt: &mut Runtime, ctx: &mut Ctx, w: &ast::StmtWith, i: usize) -> PyResult<Flow> {
    if w.is_async {
        return Err(unsupported("async with statements"));
    }
    if i == w.items.len() {
        return exec_block(rt, ctx, &w.body);
    }
    let item = &w.items[i];
    let manager = eval(rt, ctx, &item.context_expr)?;
    let obj = context_manager(&manager)?;
    let entered = obj.clone().enter(rt)?;
    if let Some(target) = &item.optional_vars {
        assign_target(rt, ctx, target, entered)?;
    }
    let result = exec_with(rt, ctx, w, i + 1);
    exit_with(rt, obj, result)
}

/// The object a `with` statement enters, or CPython's TypeError.
pub(crate) fn context_manager(manager: &Value) -> PyResult<&Rc<dyn crate::py::value::Object>> {
    match manager {
        Value::Object(obj) => Ok(obj),
        other => Err(PyErr::type_error(format!(
            "'{}' object does not support the context manager protocol",
            other.type_name()
        ))),
    }
}

/// Leave a `with` block: `__exit__` learns of the body's error and may swallow it.
pub(crate) fn exit_with(
    rt: &mut Runtime,
    obj: &Rc<dyn crate::py::value::Object>,
    result: PyResult<Flow>,
) -> PyResult<Flow> {
    match result {
        Ok(flow) => {
            obj.exit(rt, None)?;
            Ok(flow)
        }
        Err(e) => {
            if obj.exit(rt, Some(&e))? {
                Ok(Flow::Normal)
            } else {
                Err(e)
            }
        }
    }
}

/// Whether the `except` clause's class (or tuple of classes) `ty` catches `err`.
pub fn handler_matches(rt: &mut Runtime, ctx: &mut Ctx, err: &PyErr, ty: &Expr) -> PyResult<bool> {
    let v = eval(rt, ctx, ty)?;
    catches(err, &v)
}

/// Whether an `except` clause's class (or tuple of classes) `v` catches `err`.
pub fn catches(err: &PyErr, v: &Value) -> PyResult<bool> {
    let classes = match v {
        Value::Tuple(t) => t.to_vec(),
        other => vec![other.clone()],
    };
    for c in classes {
        match crate::interp::class_tools::error_matches(err, &c) {
            Some(true) => return Ok(true),
            Some(false) => {}
            None => {
                return Err(PyErr::type_error(
                    "catching classes that do not inherit from BaseException is not allowed",
                ))
            }
        }
    }
    Ok(false)
}

fn exec_try(rt: &mut Runtime, ctx: &mut Ctx, t: &ast::StmtTry) -> PyResult<Flow> {
    if t.is_star {
        return Err(unsupported("except* clauses"));
    }
    let body = exec_block(rt, ctx, &t.body);
    let outcome = match body {
        Ok(flow) => match flow {
            Flow::Normal => exec_block(rt, ctx, &t.orelse),
            other => Ok(other),
        },
        Err(err) => {
            let mut handled = None;
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                let matches = match &h.type_ {
                    None => true,
                    Some(ty) => handler_matches(rt, ctx, &err, ty)?,
                };
                if matches {
                    let (err, value) = crate::interp::objects::caught(err.clone());
                    if let Some(name) = &h.name {
                        ctx.assign(name.as_str(), value);
                    }
                    ctx.handling.push(err.clone());
                    let r = crate::interp::traceback_module::handling(rt, &err, |rt| {
                        exec_block(rt, ctx, &h.body)
                    })
                    .map_err(|e| crate::interp::objects::chain_context(e, &err));
                    ctx.handling.pop();
                    handled = Some(r);
                    break;
                }
            }
            handled.unwrap_or(Err(err))
        }
    };
    if !t.finalbody.is_empty() {
        match exec_block(rt, ctx, &t.finalbody)? {
            Flow::Normal => {}
            other => return Ok(other),
        }
    }
    outcome
}

fn aug_assign(rt: &mut Runtime, ctx: &mut Ctx, a: &ast::StmtAugAssign) -> PyResult<()> {
    let op = binop_of(a.op);
    match &*a.target {
        Expr::Name(n) => {
            let cur = lookup_name(rt, ctx, n.id.as_str())?;
            let rhs = eval(rt, ctx, &a.value)?;
            let new = ops::inplace(rt, op, &cur, &rhs)?;
            ctx.assign(n.id.as_str(), new);
        }
        Expr::Subscript(s) => {
            let base = eval(rt, ctx, &s.value)?;
            let key = eval(rt, ctx, &s.slice)?;
            let cur = ops::get_item(rt, &base, &key)?;
            let rhs = eval(rt, ctx, &a.value)?;
            let new = ops::inplace(rt, op, &cur, &rhs)?;
            ops::set_item(rt, &base, &key, new)?;
        }
        Expr::Attribute(at) => {
            let base = eval(rt, ctx, &at.value)?;
            let cur = crate::interp::attrs::get_attr(rt, &base, at.attr.as_str())?;
            let rhs = eval(rt, ctx, &a.value)?;
            let new = ops::inplace(rt, op, &cur, &rhs)?;
            crate::interp::attrs::set_attr(rt, &base, at.attr.as_str(), new)?;
        }
        _ => {
            return Err(PyErr::new(
                "SyntaxError",
                "illegal expression for augmented assignment",
            ))
        }
    }
    Ok(())
}

/// Bind a value to an assignment target (names, tuples with a starred item, subscripts,
/// attributes).
pub fn assign_target(rt: &mut Runtime, ctx: &mut Ctx, target: &Expr, v: Value) -> PyResult<()> {
    match target {
        Expr::Name(n) => {
            ctx.assign(n.id.as_str(), v);
            Ok(())
        }
        Expr::Tuple(t) => unpack(rt, ctx, &t.elts, v),
        Expr::List(l) => unpack(rt, ctx, &l.elts, v),
        Expr::Subscript(s) => {
            let base = eval(rt, ctx, &s.value)?;
            let key = eval(rt, ctx, &s.slice)?;
            ops::set_item(rt, &base, &key, v)
        }
        Expr::Attribute(a) => {
            let base = eval(rt, ctx, &a.value)?;
            if let (Value::Array(arr), "shape", Expr::Name(n)) = (&base, a.attr.as_str(), &*a.value)
            {
                ctx.assign(n.id.as_str(), reshaped_in_place(arr, &v)?);
                return Ok(());
            }
            crate::interp::attrs::set_attr(rt, &base, a.attr.as_str(), v)
        }
        Expr::Starred(_) => Err(PyErr::new(
            "SyntaxError",
            "starred assignment target must be in a list or tuple",
        )),
        _ => Err(PyErr::new("SyntaxError", "cannot assign to expression")),
    }
}

/// `a.shape = (10, -1)`: a view of the same memory with the new shape, or NumPy's
/// AttributeError when that would need a copy. The caller rebinds the name (arrays are
/// values here, so other names bound to it keep the old shape).
pub(crate) fn reshaped_in_place(arr: &crate::arrays::NdArray, shape: &Value) -> PyResult<Value> {
    let shape = crate::py::ndarray_shape::shape_arg(shape)?;
    let new = crate::py::ndarray_shape::reshape(arr, &shape)?;
    if !std::sync::Arc::ptr_eq(&new.buf, &arr.buf) {
        return Err(PyErr::new(
            "AttributeError",
            "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape.",
        ));
    }
    Ok(Value::Array(Box::new(new)))
}

fn unpack(rt: &mut Runtime, ctx: &mut Ctx, targets: &[Expr], v: Value) -> PyResult<()> {
    let items = ops::iterate(rt, &v)?;
    let star = targets.iter().position(|t| matches!(t, Expr::Starred(_)));
    match star {
        None => {
            if items.len() != targets.len() {
                return Err(PyErr::value_error(if items.len() > targets.len() {
                    format!("too many values to unpack (expected {})", targets.len())
                } else {
                    format!(
                        "not enough values to unpack (expected {}, got {})",
                        targets.len(),
                        items.len()
                    )
                }));
            }
            for (t, item) in targets.iter().zip(items) {
                assign_target(rt, ctx, t, item)?;
            }
        }
        Some(si) => {
            let after = targets.len() - si - 1;
            if items.len() < si + after {
                return Err(PyErr::value_error(format!(
                    "not enough values to unpack (expected at least {}, got {})",
                    si + after,
                    items.len()
                )));
            }
            for (t, item) in targets[..si].iter().zip(items.iter()) {
                assign_target(rt, ctx, t, item.clone())?;
            }
            let mid = items[si..items.len() - after].to_vec();
            if let Expr::Starred(s) = &targets[si] {
                assign_target(rt, ctx, &s.value, Value::list(mid))?;
            }
            for (t, item) in targets[si + 1..]
                .iter()
                .zip(items[items.len() - after..].iter())
            {
                assign_target(rt, ctx, t, item.clone())?;
            }
        }
    }
    Ok(())
}

/// Build a function object from a `def` in the current frame (defaults evaluated now).
pub fn make_function(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    def: Rc<ast::StmtFunctionDef>,
) -> PyResult<Function> {
    let p = &def.parameters;
    let mut defaults = Vec::new();
    for a in p.posonlyargs.iter().chain(p.args.iter()) {
        if let Some(d) = &a.default {
            defaults.push(eval(rt, ctx, d)?);
        }
    }
    let mut kw_defaults = Vec::new();
    for a in &p.kwonlyargs {
        if let Some(d) = &a.default {
            kw_defaults.push((a.parameter.name.id.to_string(), eval(rt, ctx, d)?));
        }
    }
    let mut enclosing = Vec::new();
    let class_body = match &ctx.kind {
        crate::interp::frame::ScopeKind::ClassBody { qualname } => Some(qualname.clone()),
        _ => None,
    };
    // A class namespace is not a closure scope for the methods defined in it.
    if let (Some(l), None) = (&ctx.locals, &class_body) {
        enclosing.push(l.clone());
    }
    enclosing.extend(ctx.enclosing.iter().cloned());
    let doc = match def.body.first() {
        Some(Stmt::Expr(e)) => match &*e.value {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        },
        _ => None,
    };
    let name = def.name.id.to_string();
    let is_generator = crate::interp::generators::is_generator_body(&def.body);
    let local_names = Rc::new(crate::interp::scopes::local_names(&def));
    let mut declared = Declarations::default();
    collect_declarations(&def.body, &mut declared);
    let qualname = if let Some(class) = class_body {
        format!("{class}.{name}")
    } else if ctx.locals.is_some() {
        format!("{}.<locals>.{}", ctx.fname, name)
    } else {
        name.clone()
    };
    Ok(Function {
        name: Rc::from(name),
        qualname,
        def,
        source: ctx.source.clone(),
        origin: ctx.origin.clone(),
        globals: ctx.globals.clone(),
        enclosing,
        defaults,
        kw_defaults,
        doc,
        class_cell: Default::default(),
        is_generator,
        local_names,
        declared: Rc::new(declared),
        attrs: Default::default(),
        compiled: Default::default(),
    })
}

/// A class body's `name: annotation` goes into the class's `__annotations__`, evaluated
/// as CPython does (typing.NamedTuple and get_type_hints read it). An annotation nbcuda
/// cannot evaluate is kept as its source text rather than failing the class statement.
fn record_annotation(rt: &mut Runtime, ctx: &mut Ctx, name: &str, ann: &Expr) -> PyResult<()> {
    let Some(locals) = ctx.locals.clone() else {
        return Ok(());
    };
    let value = match eval(rt, ctx, ann) {
        Ok(v) => v,
        Err(_) => Value::str(ctx.source.get(ann.range().to_std_range()).unwrap_or(name)),
    };
    let existing = locals.borrow().get("__annotations__").cloned();
    let dict = match &existing {
        Some(Value::Dict(d)) => d.clone(),
        _ => {
            let d = std::rc::Rc::new(std::cell::RefCell::new(crate::py::value::Dict::default()));
            locals
                .borrow_mut()
                .insert("__annotations__".into(), Value::Dict(d.clone()));
            d
        }
    };
    dict.borrow_mut().insert_str(name, value);
    Ok(())
}
