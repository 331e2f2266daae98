//! Calls in compiled bodies: arguments as the walker's `eval_args` evaluates them,
//! `xs.append(v)` and `s.add(v)` without building the bound method, and method lookups
//! located at the attribute as the walker locates them.

use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

use crate::interp::attrs::get_attr;
use crate::interp::expr::enter_frame;
use crate::interp::slots::{call_slots, run_frame, Code, Compiler, Frame};
use crate::interp::slots_expr::{expr, invoke, seq, Seq, E};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

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
    let range = call.range();
    let args = arguments(c, &call.arguments)?;
    let locate = move |fr: &Frame<'_>, e: PyErr| fr.locate(e, range);
    Some(match &*call.func {
        Expr::Attribute(a) => {
            let base = expr(c, &a.value)?;
            let attr: Rc<str> = Rc::from(a.attr.as_str());
            let attr_range = a.range();
            let one_arg = args.pos.single() && args.kw.is_empty();
            let adds = one_arg && matches!(&*attr, "append" | "add");
            Box::new(move |rt, fr| {
                let r = (|| -> PyResult<Value> {
                    let b = base(rt, fr)?;
                    if let (true, Some(arg)) = (adds, args.pos.plain().and_then(|mut a| a.next())) {
                        match (&b, &*attr) {
                            (Value::List(items), "append") => {
                                let v = arg(rt, fr)?;
                                items.borrow_mut().push(v);
                                return Ok(Value::None);
                            }
                            (Value::Set(set), "add") => {
                                let v = arg(rt, fr)?;
                                crate::interp::sets::add(rt, set, v)?;
                                return Ok(Value::None);
                            }
                            _ => {}
                        }
                    }
                    let f = get_attr(rt, &b, &attr).map_err(|e| fr.locate(e, attr_range))?;
                    let args = args.eval(rt, fr)?;
                    invoke(rt, fr, &f, args)
                })();
                r.map_err(|e| locate(fr, e))
            })
        }
        func => {
            let f = expr(c, func)?;
            let plain =
                (args.kw.is_empty() && args.pos.plain().is_some()).then_some(args.pos.count());
            Box::new(move |rt, fr| {
                let r = (|| -> PyResult<Value> {
                    let f = f(rt, fr)?;
                    if let Some((func, code)) = plain.and_then(|n| compiled_callee(&f, n)) {
                        // A compiled function taking exactly these plain arguments: they go
                        // straight into its slots, as CPython's vectorcall skips the tuple.
                        let mut slots = call_slots(code);
                        for (slot, a) in
                            slots.iter_mut().zip(args.pos.plain().into_iter().flatten())
                        {
                            *slot = Some(a(rt, fr)?);
                        }
                        rt.check_interrupt()?;
                        return enter_frame(rt, |rt| run_frame(rt, func, code, &mut slots));
                    }
                    let args = args.eval(rt, fr)?;
                    invoke(rt, fr, &f, args)
                })();
                r.map_err(|e| locate(fr, e))
            })
        }
    })
}

/// `f` as a compiled Python function whose parameters are exactly `n` plain positional ones.
fn compiled_callee(f: &Value, n: usize) -> Option<(&Function, &Code)> {
    let Value::Object(o) = f else {
        return None;
    };
    let func = o.as_any().downcast_ref::<Function>()?;
    let code = crate::interp::slots::code_of(func)?;
    (code.positional == Some(n)).then_some((func, code))
}
