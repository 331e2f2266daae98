//! Calls in compiled bodies: arguments as the walker's `eval_args` evaluates them,
//! `xs.append(v)` and `s.add(v)` without building the bound method, and method lookups
//! located at the attribute as the walker locates them. A plain call of a compiled
//! function (the call in a loop) fills the callee's slots from its arguments directly:
//! nothing is built for the call, neither an argument vector nor a slot vector. A call
//! site keeps the module-level function it found last with the stamp of the globals it
//! found it in ([`crate::py::function::Names::stamp`]): while the stamp holds, the name
//! still means that function, and when any global changes the name is looked up again, so
//! rebinding it takes effect at once.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use crate::interp::attrs::get_attr;
use crate::interp::expr::enter_frame;
use crate::interp::slots::{run_frame, share, with_slots, Code, Compiler, Frame, Place};
use crate::interp::slots_expr::{
    expr, free_cached, global_cached, invoke, opnd, seq, Opnd, Seq, E,
};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::{Function, NameCache};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

enum Keyword {
    Named(Rc<str>, E),
    /// `**mapping`.
    Splat(E),
}

struct Arguments {
    pos: Seq,
    kw: Vec<Keyword>,
}

impl Arguments {
    fn eval(&self, rt: &mut Runtime, fr: &mut Frame<'_>) -> PyResult<Args> {
        let pos = self.pos.eval(rt, fr)?;
        let mut kw = Vec::with_capacity(self.kw.len());
        for k in &self.kw {
            match k {
                Keyword::Named(name, e) => {
                    let v = e(rt, fr)?;
                    kw.push((name.clone(), v));
                }
                Keyword::Splat(e) => {
                    let v = e(rt, fr)?;
                    let Some(d) = crate::interp::collections_dicts::dict_of(&v) else {
                        return Err(PyErr::type_error(format!(
                            "argument after ** must be a mapping, not {}",
                            v.type_name()
                        )));
                    };
                    for (k, v) in d.borrow().iter() {
                        let Value::Str(s) = k else {
                            return Err(PyErr::type_error("keywords must be strings"));
                        };
                        kw.push((s.clone(), v.clone()));
                    }
                }
            }
        }
        Ok(Args { pos, kw })
    }
}

fn arguments(c: &mut Compiler, a: &ast::Arguments) -> Option<Arguments> {
    let pos = seq(c, &a.args)?;
    let mut kw = Vec::with_capacity(a.keywords.len());
    for k in a.keywords.iter() {
        let v = expr(c, &k.value)?;
        kw.push(match &k.arg {
            Some(name) => Keyword::Named(Rc::from(name.as_str()), v),
            None => Keyword::Splat(v),
        });
    }
    Some(Arguments { pos, kw })
}

/// Compile a call.
pub fn call(c: &mut Compiler, call: &ast::ExprCall) -> Option<E> {
    match &*call.func {
        Expr::Attribute(a) => method_call(c, call, a),
        func => {
            let plain = call.arguments.keywords.is_empty()
                && !call.arguments.args.iter().any(|a| a.is_starred_expr());
            match plain {
                true => plain_call(c, call, func),
                false => general_call(c, call, func),
            }
        }
    }
}

/// `obj.name(...)`.
fn method_call(c: &mut Compiler, call: &ast::ExprCall, a: &ast::ExprAttribute) -> Option<E> {
    let one_arg = matches!(&call.arguments.args[..], [x] if !x.is_starred_expr())
        && call.arguments.keywords.is_empty();
    if one_arg && matches!(a.attr.as_str(), "append" | "add") {
        return adding_call(c, call, a);
    }
    let range = call.range();
    let args = arguments(c, &call.arguments)?;
    let base = expr(c, &a.value)?;
    let attr: Rc<str> = Rc::from(a.attr.as_str());
    let attr_range = a.range();
    Some(Box::new(move |rt, fr| {
        let r = (|| -> PyResult<Value> {
            let b = base(rt, fr)?;
            let f = get_attr(rt, &b, &attr).map_err(|e| fr.locate(e, attr_range))?;
            let args = args.eval(rt, fr)?;
            invoke(rt, fr, &f, args)
        })();
        r.map_err(|e| fr.locate(e, range))
    }))
}

/// `xs.append(v)` or `s.add(v)`: on a list or set, the item is added without building the
/// bound method; when both are locals or constants, nothing is cloned but the item.
fn adding_call(c: &mut Compiler, call: &ast::ExprCall, a: &ast::ExprAttribute) -> Option<E> {
    let range = call.range();
    let base = opnd(c, &a.value)?;
    let arg = opnd(c, &call.arguments.args[0])?;
    let append = a.attr.as_str() == "append";
    let attr: Rc<str> = Rc::from(a.attr.as_str());
    let attr_range = a.range();
    Some(Box::new(move |rt, fr| {
        let r = (|| -> PyResult<Value> {
            if base.is_plain() && arg.is_plain() {
                match (base.peek(fr)?, append) {
                    (Value::List(items), true) => {
                        let v = arg.peek(fr)?.clone();
                        items.borrow_mut().push(v);
                        return Ok(Value::None);
                    }
                    (Value::Set(set), false) => {
                        let v = arg.peek(fr)?.clone();
                        crate::interp::sets::add(rt, set, v)?;
                        return Ok(Value::None);
                    }
                    _ => {}
                }
            }
            let b = base.get(rt, fr)?;
            match (&b, append) {
                (Value::List(items), true) => {
                    let v = arg.get(rt, fr)?;
                    items.borrow_mut().push(v);
                    return Ok(Value::None);
                }
                (Value::Set(set), false) => {
                    let v = arg.get(rt, fr)?;
                    crate::interp::sets::add(rt, set, v)?;
                    return Ok(Value::None);
                }
                _ => {}
            }
            let f = get_attr(rt, &b, &attr).map_err(|e| fr.locate(e, attr_range))?;
            let v = arg.get(rt, fr)?;
            invoke(rt, fr, &f, Args::new(vec![v]))
        })();
        r.map_err(|e| fr.locate(e, range))
    }))
}

/// A call with keyword or starred arguments.
fn general_call(c: &mut Compiler, call: &ast::ExprCall, func: &Expr) -> Option<E> {
    let range = call.range();
    let args = arguments(c, &call.arguments)?;
    let f = expr(c, func)?;
    Some(Box::new(move |rt, fr| {
        let r = (|| -> PyResult<Value> {
            let f = f(rt, fr)?;
            let args = args.eval(rt, fr)?;
            invoke(rt, fr, &f, args)
        })();
        r.map_err(|e| fr.locate(e, range))
    }))
}

/// What a plain call calls: a name outside the body is looked up in place (the call of a
/// module-level function in a loop), anything else evaluated.
enum Callee {
    Free(Rc<str>, TextRange, NameCache),
    Global(Rc<str>, TextRange, NameCache),
    Expr(E),
}

impl Callee {
    /// The object a name outside the body holds, found where [`free`] or [`global`] would
    /// find it, shared without copying a whole `Value`; None for any other callee.
    fn object(&self, fr: &Frame<'_>) -> Option<Rc<dyn Object>> {
        let (name, enclosing, cache) = match self {
            Callee::Free(name, _, cache) => (name, fr.enclosing, cache),
            Callee::Global(name, _, cache) => (name, &[][..], cache),
            Callee::Expr(_) => return None,
        };
        let object = |v: &Value| match v {
            Value::Object(o) => Some(o.clone()),
            _ => None,
        };
        for s in enclosing {
            if let Some(v) = s.borrow().get(&**name) {
                return object(v);
            }
        }
        fr.globals.borrow().get_cached(name, cache).and_then(object)
    }

    /// The stamp of the one table the name is looked up in, when that is the globals (no
    /// enclosing scope comes first); None when a call site cannot keep what it found.
    fn stamp(&self, fr: &Frame<'_>) -> Option<u64> {
        match self {
            Callee::Free(..) if !fr.enclosing.is_empty() => None,
            Callee::Free(..) | Callee::Global(..) => Some(fr.globals.borrow().stamp()),
            Callee::Expr(_) => None,
        }
    }

    fn get(&self, rt: &mut Runtime, fr: &mut Frame<'_>) -> PyResult<Value> {
        match self {
            Callee::Free(name, range, cache) => {
                free_cached(rt, fr, name, cache).map_err(|e| fr.locate(e, *range))
            }
            Callee::Global(name, range, cache) => {
                global_cached(rt, fr, name, cache).map_err(|e| fr.locate(e, *range))
            }
            Callee::Expr(e) => e(rt, fr),
        }
    }
}

/// A call with only plain positional arguments, each read where it lies when it is a
/// local or a constant.
fn plain_call(c: &mut Compiler, call: &ast::ExprCall, func: &Expr) -> Option<E> {
    let range = call.range();
    let callee = match func {
        Expr::Name(n) => match c.place(n.id.as_str()) {
            Place::Free(name) => Callee::Free(name, n.range, NameCache::default()),
            Place::Global(name) => Callee::Global(name, n.range, NameCache::default()),
            Place::Slot(_) => Callee::Expr(expr(c, func)?),
        },
        _ => Callee::Expr(expr(c, func)?),
    };
    let args = call
        .arguments
        .args
        .iter()
        .map(|a| opnd(c, a))
        .collect::<Option<Vec<Opnd>>>()?;
    let kept: RefCell<Option<Kept>> = RefCell::new(None);
    Some(Box::new(move |rt, fr| {
        let r = (|| -> PyResult<Value> {
            let stamp = callee.stamp(fr);
            let hit = stamp.and_then(|s| kept.borrow().as_ref().and_then(|k| k.get(s)));
            if let Some((func, code)) = hit {
                return call_compiled(rt, fr, &func, &code, &args);
            }
            let f = match callee.object(fr) {
                Some(o) => {
                    if let Some((func, code)) = compiled_function(&o, args.len()) {
                        if let Some(stamp) = stamp {
                            *kept.borrow_mut() = Kept::of(stamp, &o);
                        }
                        return call_compiled(rt, fr, func, code, &args);
                    }
                    Value::Object(o)
                }
                None => callee.get(rt, fr)?,
            };
            if let Some((func, code)) = compiled_callee(&f, args.len()) {
                return call_compiled(rt, fr, func, code, &args);
            }
            let mut pos = Vec::with_capacity(args.len());
            for a in &args {
                pos.push(a.get(rt, fr)?);
            }
            invoke(rt, fr, &f, Args::new(pos))
        })();
        r.map_err(|e| fr.locate(e, range))
    }))
}

/// The compiled function a call site found by name, and the stamp of the globals then.
/// Weak: a recursive function keeping itself would never be freed.
struct Kept {
    stamp: u64,
    func: Weak<Function>,
    code: Weak<Code>,
}

impl Kept {
    fn of(stamp: u64, o: &Rc<dyn Object>) -> Option<Kept> {
        let any: Rc<dyn std::any::Any> = o.clone();
        let func = any.downcast::<Function>().ok()?;
        let code = crate::interp::slots::shared_code_of(&func)?;
        Some(Kept {
            stamp,
            func: Rc::downgrade(&func),
            code: Rc::downgrade(&code),
        })
    }

    /// The function, while the globals still have the stamp it was found under (they then
    /// still hold it, so it is alive); held strongly for the call, which may rebind it.
    fn get(&self, stamp: u64) -> Option<(Rc<Function>, Rc<Code>)> {
        if self.stamp != stamp {
            return None;
        }
        Some((self.func.upgrade()?, self.code.upgrade()?))
    }
}

/// Call a compiled function taking exactly these plain arguments: they go straight into
/// its slots, as CPython's vectorcall skips the tuple.
fn call_compiled(
    rt: &mut Runtime,
    fr: &mut Frame<'_>,
    func: &Function,
    code: &Code,
    args: &[Opnd],
) -> PyResult<Value> {
    with_slots(code, |slots| {
        for (slot, a) in slots.iter_mut().zip(args) {
            *slot = Some(match a {
                Opnd::Expr(e) => e(rt, fr)?,
                plain => share(plain.peek(fr)?),
            });
        }
        rt.check_interrupt()?;
        enter_frame(rt, |rt| run_frame(rt, func, code, slots))
    })
}

/// `f` as a compiled Python function whose parameters are exactly `n` plain positional ones.
fn compiled_callee(f: &Value, n: usize) -> Option<(&Function, &Code)> {
    match f {
        Value::Object(o) => compiled_function(o, n),
        _ => None,
    }
}

fn compiled_function(o: &Rc<dyn Object>, n: usize) -> Option<(&Function, &Code)> {
    let func = o.as_any().downcast_ref::<Function>()?;
    let code = crate::interp::slots::code_of(func)?;
    (code.positional == Some(n)).then_some((func, code))
}
