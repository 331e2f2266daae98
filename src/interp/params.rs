//! Binding a call's arguments to a Python function's parameters, as CPython does:
//! positional-only, positional-or-keyword, `*args`, keyword-only and `**kwargs`, defaults,
//! and CPython's TypeError wording for missing, extra and repeated arguments.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast as ast;

use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::value::{Args, Dict, Value};

/// The first parameter's name, as `Function::param_names` orders them.
pub(crate) fn first_param(f: &Function) -> Option<&str> {
    let p = &f.def.parameters;
    let first = p.posonlyargs.first().or(p.args.first());
    match first {
        Some(a) => Some(a.parameter.name.id.as_str()),
        None => p
            .vararg
            .as_deref()
            .or_else(|| p.kwonlyargs.first().map(|a| &a.parameter))
            .or(p.kwarg.as_deref())
            .map(|a| a.name.id.as_str()),
    }
}

/// A parameter's name as its scope's key: shared with the function's own set of local
/// names, so binding arguments allocates no names.
fn key(f: &Function, name: &str) -> Rc<str> {
    f.local_names
        .get(name)
        .cloned()
        .unwrap_or_else(|| Rc::from(name))
}

pub(crate) fn bind_params(
    f: &Function,
    args: Args,
    locals: &mut crate::py::function::Names,
) -> PyResult<()> {
    let p = &f.def.parameters;
    // The common call: exactly the positional parameters, nothing else to decide.
    if args.kw.is_empty()
        && p.vararg.is_none()
        && p.kwarg.is_none()
        && p.kwonlyargs.is_empty()
        && args.pos.len() == p.posonlyargs.len() + p.args.len()
    {
        let params = p.posonlyargs.iter().chain(p.args.iter());
        for (param, v) in params.zip(args.pos) {
            locals.insert(key(f, &param.parameter.name.id), v);
        }
        return Ok(());
    }
    let positional: Vec<&ast::ParameterWithDefault> =
        p.posonlyargs.iter().chain(p.args.iter()).collect();
    let n_pos = positional.len();
    let mut pos = args.pos.into_iter();
    for param in positional.iter() {
        match pos.next() {
            Some(v) => {
                locals.insert(key(f, &param.parameter.name.id), v);
            }
            None => break,
        }
    }
    let extra: Vec<Value> = pos.collect();
    let n_extra = extra.len();
    if let Some(va) = &p.vararg {
        locals.insert(key(f, &va.name.id), Value::tuple(extra));
    }
    let mut kwargs = Dict::default();
    for (k, v) in args.kw {
        let is_pos = positional
            .iter()
            .position(|pp| pp.parameter.name.id.as_str() == &*k);
        let is_kwonly = p
            .kwonlyargs
            .iter()
            .any(|pp| pp.parameter.name.id.as_str() == &*k);
        if let Some(i) = is_pos {
            if i < p.posonlyargs.len() {
                return Err(PyErr::type_error(format!(
                    "{}() got some positional-only arguments passed as keyword arguments: '{k}'",
                    f.qualname
                )));
            }
        }
        if is_pos.is_some() || is_kwonly {
            if locals.contains_key(&*k) {
                return Err(PyErr::type_error(format!(
                    "{}() got multiple values for argument '{k}'",
                    f.qualname
                )));
            }
            locals.insert(key(f, &k), v);
        } else if p.kwarg.is_some() {
            kwargs.insert_str(&k, v);
        } else {
            return Err(PyErr::type_error(format!(
                "{}() got an unexpected keyword argument '{k}'",
                f.qualname
            )));
        }
    }
    if let Some(kw) = &p.kwarg {
        locals.insert(
            key(f, &kw.name.id),
            Value::Dict(Rc::new(RefCell::new(kwargs))),
        );
    }
    // CPython reports excess positional arguments after the keyword errors.
    if p.vararg.is_none() && n_extra > 0 {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        let n_defaults = f.defaults.len().min(n_pos);
        let takes = if n_defaults > 0 {
            format!(
                "from {} to {n_pos} positional arguments",
                n_pos - n_defaults
            )
        } else {
            format!("{n_pos} positional argument{}", s(n_pos))
        };
        let given = n_pos + n_extra;
        let kwonly_given = p
            .kwonlyargs
            .iter()
            .filter(|a| locals.contains_key(a.parameter.name.id.as_str()))
            .count();
        let given = if kwonly_given > 0 {
            format!(
                "{given} positional argument{} (and {kwonly_given} keyword-only argument{}) were",
                s(given),
                s(kwonly_given)
            )
        } else if given == 1 {
            "1 was".to_string()
        } else {
            format!("{given} were")
        };
        return Err(PyErr::type_error(format!(
            "{}() takes {takes} but {given} given",
            f.qualname
        )));
    }
    let first_default = n_pos - f.defaults.len().min(n_pos);
    let mut missing = Vec::new();
    for (i, param) in positional.iter().enumerate() {
        let name = param.parameter.name.id.as_str();
        if !locals.contains_key(name) {
            if i >= first_default {
                locals.insert(key(f, name), f.defaults[i - first_default].clone());
            } else {
                missing.push(format!("'{name}'"));
            }
        }
    }
    if !missing.is_empty() {
        return Err(missing_error(f, "positional", &missing));
    }
    for param in &p.kwonlyargs {
        let name = param.parameter.name.id.as_str();
        if !locals.contains_key(name) {
            match f.kw_defaults.iter().find(|(k, _)| k == name) {
                Some((_, v)) => {
                    locals.insert(key(f, name), v.clone());
                }
                None => missing.push(format!("'{name}'")),
            }
        }
    }
    if !missing.is_empty() {
        return Err(missing_error(f, "keyword-only", &missing));
    }
    Ok(())
}

/// `f() missing 3 required positional arguments: 'a', 'b', and 'c'`, as CPython lists them.
fn missing_error(f: &Function, kind: &str, names: &[String]) -> PyErr {
    let list = match names {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
        [] => String::new(),
    };
    PyErr::type_error(format!(
        "{}() missing {} required {kind} argument{}: {list}",
        f.qualname,
        names.len(),
        if names.len() == 1 { "" } else { "s" },
    ))
}
