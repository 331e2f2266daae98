//! `np.vectorize` and `np.frompyfunc`: a Python function called once per element of the
//! broadcast inputs, as NumPy does it (a loop in the interpreter, not a compiled kernel).
//! Without `otypes`, the output dtype is that of the first result, so later results are
//! cast to it, as in NumPy.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::dtype::DType;
use crate::arrays::elem::{broadcast_shapes, broadcast_to, for_each_offset, read_scalar_at};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_ndarray, to_ndarray_dtype};
use crate::py::ndarray_shape::reshape;
use crate::py::promote::python_dtype;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Object, Value};

/// A vectorized Python function.
struct Vectorized {
    func: Value,
    /// Output dtypes (`otypes`); empty: from the first result. `None` entries: objects
    /// (`frompyfunc`), kept as the values the function returned.
    otypes: Vec<Option<DType>>,
    nin: Option<usize>,
    name: String,
}

fn dtype_of_result(v: &Value) -> DType {
    match v {
        Value::Scalar(s) => s.dtype(),
        Value::Array(a) => a.dtype,
        other => python_dtype(other).unwrap_or(DType::F64),
    }
}

impl Vectorized {
    fn apply(&self, rt: &mut Runtime, args: Args) -> PyResult<Value> {
        if !args.kw.is_empty() {
            return Err(PyErr::type_error(format!(
                "{}: keyword arguments are not supported by nbcuda's np.vectorize",
                self.name
            )));
        }
        if let Some(n) = self.nin {
            if args.pos.len() != n {
                return Err(PyErr::value_error(format!(
                    "invalid number of arguments: {} expects {n}, got {}",
                    self.name,
                    args.pos.len()
                )));
            }
        }
        let arrays = args
            .pos
            .iter()
            .map(|v| to_ndarray(rt, v))
            .collect::<PyResult<Vec<_>>>()?;
        let shapes: Vec<&[usize]> = arrays.iter().map(|a| a.shape.as_slice()).collect();
        let shape = broadcast_shapes(&shapes)?;
        let n: usize = shape.iter().product();
        let mut offsets = Vec::new();
        let mut views = Vec::new();
        for a in &arrays {
            let b = broadcast_to(a, &shape)?;
            // The broadcast may be far larger than any input: a checked allocation.
            let mut offs = crate::arrays::alloc::vec_with_capacity(n, "np.vectorize offsets")?;
            for_each_offset(&b, |o| offs.push(o));
            offsets.push(offs);
            views.push(b);
        }
        let mut results: Vec<Vec<Value>> = Vec::new();
        let mut nout = None;
        for i in 0..n {
            rt.check_interrupt()?;
            let call_args: Vec<Value> = views
                .iter()
                .zip(&offsets)
                .map(|(v, o)| Value::Scalar(read_scalar_at(v, o[i])))
                .collect();
            let r = rt.call(&self.func, Args::new(call_args))?;
            let outs = match (&r, self.otypes.len()) {
                (Value::Tuple(t), k) if k != 1 => t.to_vec(),
                _ => vec![r],
            };
            let k = *nout.get_or_insert(outs.len());
            if outs.len() != k {
                return Err(PyErr::value_error(format!(
                    "{}: the function returned {} values for one element and {k} for another",
                    self.name,
                    outs.len()
                )));
            }
            if results.is_empty() {
                // bounded: k is the length of a tuple the function returned.
                results = vec![Vec::new(); k];
            }
            for (slot, v) in results.iter_mut().zip(outs) {
                slot.push(v);
            }
        }
        if n == 0 && self.otypes.is_empty() {
            return Err(PyErr::value_error(
                "cannot call `vectorize` on size 0 inputs unless `otypes` is set",
            ));
        }
        let k = nout.unwrap_or(self.otypes.len().max(1));
        // bounded: k outputs, each already held in `results`.
        let mut outs = Vec::with_capacity(k);
        for j in 0..k {
            let items = results.get(j).cloned().unwrap_or_default();
            let dtype = match self.otypes.get(j) {
                Some(d) => *d,
                None => Some(items.first().map(dtype_of_result).unwrap_or(DType::F64)),
            };
            let out = match dtype {
                Some(d) => {
                    let flat = to_ndarray_dtype(rt, &Value::list(items), Some(d))?;
                    let dims: Vec<isize> = shape.iter().map(|&x| x as isize).collect();
                    Value::Array(Box::new(reshape(&flat, &dims)?))
                }
                // Object outputs: nbcuda has no object arrays; give the values.
                None if shape.is_empty() => items.into_iter().next().unwrap_or(Value::None),
                None => Value::list(items),
            };
            outs.push(out);
        }
        Ok(if k == 1 {
            outs.pop().unwrap_or(Value::None)
        } else {
            Value::tuple(outs)
        })
    }
}

impl Object for Vectorized {
    fn type_name(&self) -> String {
        "vectorize".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<numpy.vectorize object at {:#x}>",
            self as *const Self as usize
        ))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        self.apply(rt, args)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "pyfunc" => Some(self.func.clone()),
            "__name__" => Some(Value::str(&self.name)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn func_name(rt: &mut Runtime, f: &Value) -> String {
    let name = rt.builtin("getattr").and_then(|ga| {
        rt.call(
            &ga,
            Args::new(vec![
                f.clone(),
                Value::str("__name__"),
                Value::str("vectorized"),
            ]),
        )
    });
    match &name {
        Ok(Value::Str(s)) => s.to_string(),
        _ => "vectorized".into(),
    }
}

pub fn register(m: &Module) {
    m.def(
        Function,
        "vectorize",
        "pyfunc=<no value>, otypes=None, doc=None, excluded=None, cache=False, signature=None",
        "A function called once per element of its broadcast array arguments (a Python loop).",
        |rt, b| {
            for (i, what) in [(3, "excluded"), (5, "signature")] {
                if b[i].as_ref().is_some_and(|v| !v.is_none()) {
                    return Err(PyErr::not_implemented(format!(
                        "np.vectorize({what}=...) is not supported by nbcuda"
                    )));
                }
            }
            let mut otypes = Vec::new();
            if let Some(o) = b[1].as_ref().filter(|v| !v.is_none()) {
                let items = match o {
                    Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
                    other => rt.iterate(other)?,
                };
                for it in items {
                    otypes.push(Some(dtype_from_value(rt, &it)?));
                }
            }
            let make = move |rt: &mut Runtime, func: Value, otypes: Vec<Option<DType>>| {
                let name = func_name(rt, &func);
                Value::object(Vectorized {
                    func,
                    otypes,
                    nin: None,
                    name,
                })
            };
            match b[0].clone().filter(|v| !v.is_none()) {
                Some(f) => Ok(make(rt, f, otypes)),
                // `@np.vectorize(otypes=...)`: a decorator.
                None => Ok(Value::builtin(
                    "vectorize",
                    "vectorize(pyfunc)",
                    "Vectorize the decorated function.",
                    move |rt, a| {
                        let f =
                            a.pos.first().cloned().ok_or_else(|| {
                                PyErr::type_error("vectorize() missing the function")
                            })?;
                        Ok(make(rt, f, otypes.clone()))
                    },
                )),
            }
        },
    );
    m.def(
        crate::py::signature::Style::Clinic,
        "frompyfunc",
        "func, /, nin, nout, *, identity=None",
        "A ufunc-like callable from a Python function; nbcuda returns its results as values (it has no object arrays).",
        |rt, b| {
            let func = b[0].clone().unwrap_or(Value::None);
            let nin = b[1].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(1);
            let nout = b[2].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(1);
            // NumPy's limit on a ufunc's arguments (NPY_MAXARGS).
            if !(0..=64).contains(&nin) || !(1..=64).contains(&nout) || nin + nout > 64 {
                return Err(PyErr::value_error(
                    "frompyfunc: nin must be >= 0, nout >= 1, and nin + nout at most 64",
                ));
            }
            let name = func_name(rt, &func);
            Ok(Value::object(Vectorized {
                func,
                // bounded: nout <= 64, checked above.
                otypes: vec![None; nout as usize],
                nin: Some(nin as usize),
                name: format!("{name} (vectorized)"),
            }))
        },
    );
}
