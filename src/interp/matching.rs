//! `match` statements (PEP 634), run by the walker: the subject is evaluated once, each
//! `case` pattern is tried in order, and the names a pattern captures are bound only when the
//! whole pattern matched (then the guard runs, as in CPython, with the captures visible).
//!
//! What counts as a sequence or a mapping follows CPython's flags for the types nbcuda has:
//! `list`, `tuple`, `range` and `deque` are sequences (`str` and `bytes` never are), `dict`
//! and its subclasses are mappings. Class patterns read `__match_args__` for positional
//! sub-patterns, and the builtin types that CPython lets match themselves (`int(x)`,
//! `str(s)`, …) do so here.

use ruff_python_ast::{self as ast, Pattern, Singleton};
use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::attrs::get_attr;
use crate::interp::compare::py_eq;
use crate::interp::expr::eval;
use crate::interp::frame::{Ctx, Flow};
use crate::interp::ops;
use crate::interp::stmt::exec_block;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Value, BUILTIN_CLASSES};

/// The builtin classes whose single positional sub-pattern matches the subject itself.
const SELF_MATCHING: [&str; 11] = [
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

type Captures = Vec<(String, Value)>;

pub fn exec_match(rt: &mut Runtime, ctx: &mut Ctx, m: &ast::StmtMatch) -> PyResult<Flow> {
    let subject = eval(rt, ctx, &m.subject)?;
    for case in &m.cases {
        let mut caps = Captures::new();
        if !matches(rt, ctx, &case.pattern, &subject, &mut caps)? {
            continue;
        }
        for (name, v) in caps {
            ctx.assign(&name, v);
        }
        if let Some(g) = &case.guard {
            let t = eval(rt, ctx, g)?;
            if !ops::truthy(rt, &t)? {
                continue;
            }
        }
        return exec_block(rt, ctx, &case.body);
    }
    Ok(Flow::Normal)
}

fn matches(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    p: &Pattern,
    v: &Value,
    caps: &mut Captures,
) -> PyResult<bool> {
    match p {
        Pattern::MatchValue(mv) => {
            let want = eval(rt, ctx, &mv.value)?;
            py_eq(rt, v, &want)
        }
        Pattern::MatchSingleton(s) => Ok(match s.value {
            Singleton::None => matches!(v, Value::None),
            Singleton::True => matches!(v, Value::Bool(true)),
            Singleton::False => matches!(v, Value::Bool(false)),
        }),
        Pattern::MatchAs(a) => {
            if let Some(inner) = &a.pattern {
                if !matches(rt, ctx, inner, v, caps)? {
                    return Ok(false);
                }
            }
            if let Some(name) = &a.name {
                caps.push((name.id.to_string(), v.clone()));
            }
            Ok(true)
        }
        Pattern::MatchOr(o) => {
            for alt in &o.patterns {
                let mut sub = Captures::new();
                if matches(rt, ctx, alt, v, &mut sub)? {
                    caps.extend(sub);
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Pattern::MatchSequence(s) => match_sequence(rt, ctx, &s.patterns, v, caps),
        Pattern::MatchMapping(mm) => match_mapping(rt, ctx, mm, v, caps),
        Pattern::MatchClass(c) => match_class(rt, ctx, c, v, caps),
        // A star pattern only appears inside a sequence pattern, which handles it.
        Pattern::MatchStar(_) => Err(PyErr::new(
            "SyntaxError",
            "can't use starred expression here",
        )),
    }
}

/// The items of a subject that sequence patterns accept, or None when it is not one.
fn sequence_items(rt: &mut Runtime, v: &Value) -> PyResult<Option<Vec<Value>>> {
    match v {
        Value::List(l) => Ok(Some(l.borrow().clone())),
        Value::Tuple(t) => Ok(Some(t.to_vec())),
        Value::Object(o) if matches!(o.type_name().as_str(), "range" | "deque") => {
            Ok(Some(ops::iterate(rt, v)?))
        }
        Value::Object(o) => Ok(o.named_tuple().map(|(_, items)| items)),
        _ => Ok(None),
    }
}

fn match_sequence(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    pats: &[Pattern],
    v: &Value,
    caps: &mut Captures,
) -> PyResult<bool> {
    let Some(items) = sequence_items(rt, v)? else {
        return Ok(false);
    };
    let star = pats.iter().position(|p| matches!(p, Pattern::MatchStar(_)));
    let Some(star) = star else {
        if items.len() != pats.len() {
            return Ok(false);
        }
        for (p, item) in pats.iter().zip(&items) {
            if !matches(rt, ctx, p, item, caps)? {
                return Ok(false);
            }
        }
        return Ok(true);
    };
    let after = pats.len() - star - 1;
    if items.len() < star + after {
        return Ok(false);
    }
    for (p, item) in pats[..star].iter().zip(&items) {
        if !matches(rt, ctx, p, item, caps)? {
            return Ok(false);
        }
    }
    let tail_start = items.len() - after;
    for (p, item) in pats[star + 1..].iter().zip(&items[tail_start..]) {
        if !matches(rt, ctx, p, item, caps)? {
            return Ok(false);
        }
    }
    if let Pattern::MatchStar(s) = &pats[star] {
        if let Some(name) = &s.name {
            let rest = items[star..tail_start].to_vec();
            caps.push((name.id.to_string(), Value::list(rest)));
        }
    }
    Ok(true)
}

fn match_mapping(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    mm: &ast::PatternMatchMapping,
    v: &Value,
    caps: &mut Captures,
) -> PyResult<bool> {
    let Value::Dict(d) = v else {
        return Ok(false);
    };
    let mut used = Vec::with_capacity(mm.keys.len());
    for (k, p) in mm.keys.iter().zip(&mm.patterns) {
        let key = eval(rt, ctx, k)?;
        let mut repeated = false;
        for u in &used {
            repeated = repeated || py_eq(rt, u, &key)?;
        }
        if repeated {
            // CPython's compiler rejects repeated literal keys; repeated values reached
            // through names are only found when the pattern runs.
            let literal = !matches!(k, ast::Expr::Attribute(_) | ast::Expr::Name(_));
            let kind = if literal { "SyntaxError" } else { "ValueError" };
            return Err(PyErr::new(
                kind,
                format!(
                    "mapping pattern checks duplicate key ({})",
                    crate::interp::repr::repr(rt, &key)?
                ),
            ));
        }
        let slot = crate::interp::subscript::dict_find(rt, d, &key)?;
        let found = slot.and_then(|s| d.borrow().entry_at(s).map(|(_, v)| v.clone()));
        let Some(item) = found else {
            return Ok(false);
        };
        if !matches(rt, ctx, p, &item, caps)? {
            return Ok(false);
        }
        used.push(key);
    }
    if let Some(rest) = &mm.rest {
        let mut left = Dict::default();
        let entries = d.borrow().items();
        for (k, val) in entries {
            let mut taken = false;
            for u in &used {
                if py_eq(rt, &k, u)? {
                    taken = true;
                    break;
                }
            }
            if !taken {
                left.push(k, val);
            }
        }
        caps.push((
            rest.id.to_string(),
            Value::Dict(Rc::new(RefCell::new(left))),
        ));
    }
    Ok(true)
}

fn match_class(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    c: &ast::PatternMatchClass,
    v: &Value,
    caps: &mut Captures,
) -> PyResult<bool> {
    let cls = eval(rt, ctx, &c.cls)?;
    if !is_class(&cls) {
        return Err(PyErr::type_error(
            "called match pattern must be a class".to_string(),
        ));
    }
    if !crate::interp::builtins::isinstance(rt, v, &cls)? {
        return Ok(false);
    }
    let positional = &c.arguments.patterns;
    let mut seen: Vec<String> = Vec::new();
    if !positional.is_empty() {
        let self_matching =
            matches!(&cls, Value::Builtin(b) if SELF_MATCHING.contains(&b.name.as_str()));
        if self_matching {
            if positional.len() > 1 {
                return Err(PyErr::type_error(format!(
                    "{}() accepts 1 positional sub-pattern ({} given)",
                    class_name(rt, &cls)?,
                    positional.len()
                )));
            }
            if !matches(rt, ctx, &positional[0], v, caps)? {
                return Ok(false);
            }
        } else {
            let names = match_args(rt, &cls)?;
            if positional.len() > names.len() {
                return Err(PyErr::type_error(format!(
                    "{}() accepts {} positional sub-pattern{} ({} given)",
                    class_name(rt, &cls)?,
                    names.len(),
                    if names.len() == 1 { "" } else { "s" },
                    positional.len()
                )));
            }
            for (p, name) in positional.iter().zip(names) {
                if !match_attr(rt, ctx, p, v, &name, caps)? {
                    return Ok(false);
                }
                seen.push(name);
            }
        }
    }
    for kw in &c.arguments.keywords {
        let name = kw.attr.id.to_string();
        if seen.contains(&name) {
            return Err(PyErr::type_error(format!(
                "{}() got multiple sub-patterns for attribute '{}'",
                class_name(rt, &cls)?,
                name
            )));
        }
        if !match_attr(rt, ctx, &kw.pattern, v, &name, caps)? {
            return Ok(false);
        }
        seen.push(name);
    }
    Ok(true)
}

/// Matches one attribute of the subject; a missing attribute is no match, not an error.
fn match_attr(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    p: &Pattern,
    v: &Value,
    name: &str,
    caps: &mut Captures,
) -> PyResult<bool> {
    match get_attr(rt, v, name) {
        Ok(a) => matches(rt, ctx, p, &a, caps),
        Err(e) if e.is_instance(crate::py::exceptions::ExcClass::AttributeError) => Ok(false),
        Err(e) => Err(e),
    }
}

fn match_args(rt: &mut Runtime, cls: &Value) -> PyResult<Vec<String>> {
    let args = match get_attr(rt, cls, "__match_args__") {
        Ok(a) => a,
        Err(e) if e.is_instance(crate::py::exceptions::ExcClass::AttributeError) => {
            return Ok(Vec::new())
        }
        Err(e) => return Err(e),
    };
    let Value::Tuple(t) = &args else {
        return Err(PyErr::type_error(format!(
            "{}.__match_args__ must be a tuple (got {})",
            class_name(rt, cls)?,
            args.type_name()
        )));
    };
    t.iter()
        .map(|n| match n {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(PyErr::type_error(format!(
                "__match_args__ elements must be strings (got {})",
                other.type_name()
            ))),
        })
        .collect()
}

fn is_class(v: &Value) -> bool {
    crate::interp::classes::as_class(v).is_some()
        || matches!(v, Value::Builtin(b) if BUILTIN_CLASSES.contains(&b.name.as_str()))
        || v.downcast::<crate::interp::objects::ExceptionType>()
            .is_some()
}

fn class_name(rt: &mut Runtime, cls: &Value) -> PyResult<String> {
    let n = get_attr(rt, cls, "__name__")?;
    crate::interp::repr::to_str(rt, &n)
}
