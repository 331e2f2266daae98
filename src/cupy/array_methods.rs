//! The method table of `cupy.ndarray`: name, signature, doc and body once each (via
//! `py::methods`), for lookup, `dir()`, completion, `?` and binding by name. Signatures are
//! CuPy 13's (`cupy/_core/core.pyx`); CuPy's methods are Cython, so their argument errors
//! are Cython's. The reductions take the module functions' parameters less `a`.

use std::rc::Rc;

use crate::arrays::operator::Reduce;
use crate::cupy::elementwise as ops;
use crate::cupy::ndarray::{host_copy, item, wrap, CupyArray};
use crate::cupy::{reduction, MAX_FN, SUM_FN, VAR_FN};
use crate::numba_cuda::view_index::parse_shape;
use crate::numba_cuda::{hostconv, viewops};
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{Bound, MethodFn, MethodSpec, MethodTable, Style};
use crate::py::runtime::Runtime;
use crate::py::signature::after_first;
use crate::py::value::{Args, Value};

pub static METHODS: MethodTable<Rc<CupyArray>> = MethodTable {
    owner: "ndarray",
    methods: &SPECS,
};

const fn m(
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
    call: MethodFn<Rc<CupyArray>>,
) -> MethodSpec<Rc<CupyArray>> {
    MethodSpec::styled(Style::Cython, name, sig, doc, call)
}

const SUM_SIG: &str = after_first(SUM_FN);
const MAX_SIG: &str = after_first(MAX_FN);
const VAR_SIG: &str = after_first(VAR_FN);

static SPECS: [MethodSpec<Rc<CupyArray>>; 28] = [
    m(
        "__array__",
        "dtype=None, copy=None",
        "Refused: CuPy never converts to a NumPy array implicitly; .get() copies to the host.",
        |_, _, _| {
            Err(PyErr::type_error("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array explicitly."))
        },
    ),
    m(
        "__float__",
        "",
        "The single element as a Python float (waits for the device).",
        |c, rt, _| Ok(Value::Float(item(rt, &c.view)?.as_f64()?)),
    ),
    m(
        "__index__",
        "",
        "The single integer element as a Python int (waits for the device).",
        |c, rt, _| match item(rt, &c.view)? {
            Value::Float(_) => Err(PyErr::type_error(
                "only integer scalar arrays can be converted to a scalar index",
            )),
            v => int_of(v),
        },
    ),
    m(
        "__int__",
        "",
        "The single element as a Python int, truncated toward zero (waits for the device).",
        |c, rt, _| int_of(item(rt, &c.view)?),
    ),
    m(
        "all",
        MAX_SIG,
        "True where every element (along axis) is non-zero, computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::All, b),
    ),
    m(
        "any",
        MAX_SIG,
        "True where some element (along axis) is non-zero, computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Any, b),
    ),
    m(
        "argmax",
        SUM_SIG,
        "The index of the largest element (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::ArgMax, b),
    ),
    m(
        "argmin",
        SUM_SIG,
        "The index of the smallest element (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::ArgMin, b),
    ),
    m(
        "astype",
        "dtype, order='K', casting=None, subok=None, copy=True",
        "A device copy converted to dtype.",
        |c, rt, b| {
            let dt = crate::py::ndarray_attrs::dtype_from_value(rt, &b.value(0))?;
            Ok(wrap(ops::cast_copy(rt, &c.view, dt)?))
        },
    ),
    m("copy", "order='C'", "A new device copy.", |c, rt, _| {
        Ok(wrap(ops::cast_copy(rt, &c.view, c.view.dtype)?))
    }),
    m(
        "cumsum",
        "axis=None, dtype=None, out=None",
        "Running sums along axis (of the flattened array by default), as cupy.cumsum.",
        |c, rt, b| {
            forward(
                c,
                rt,
                "cumsum",
                b.slots
                    .into_iter()
                    .map(|v| v.unwrap_or(Value::None))
                    .collect(),
            )
        },
    ),
    m(
        "fill",
        "value",
        "Set every element to value, queued on the array's stream.",
        |c, rt, b| fill(c, rt, &b.value(0)),
    ),
    m(
        "flatten",
        "order='C'",
        "A 1-D copy of the array.",
        |c, rt, _| {
            let copy = ops::cast_copy(rt, &c.view, c.view.dtype)?;
            Ok(wrap(viewops::ravel(&copy, 'C')?))
        },
    ),
    m(
        "get",
        "stream=None, order='C', out=None, blocking=True",
        "Copy to the host: a NumPy array.",
        |c, rt, _| Ok(Value::Array(Box::new(host_copy(rt, &c.view, "get")?))),
    ),
    m(
        "item",
        "",
        "The single element as a Python number (waits for the device).",
        |c, rt, _| item(rt, &c.view),
    ),
    m(
        "max",
        MAX_SIG,
        "The largest element (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Max, b),
    ),
    m(
        "mean",
        SUM_SIG,
        "The arithmetic mean (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Mean, b),
    ),
    m(
        "min",
        MAX_SIG,
        "The smallest element (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Min, b),
    ),
    m(
        "prod",
        SUM_SIG,
        "The product of the elements (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Prod, b),
    ),
    m(
        "ravel",
        "order='C'",
        "A 1-D view of the array (a copy when it is not contiguous).",
        |c, rt, _| {
            let base = match viewops::ravel(&c.view, 'C') {
                Ok(v) => return Ok(wrap(v)),
                Err(_) => ops::cast_copy(rt, &c.view, c.view.dtype)?,
            };
            Ok(wrap(viewops::ravel(&base, 'C')?))
        },
    ),
    m(
        "reshape",
        "*shape, order='C'",
        "A view with a new shape (a copy if needed).",
        |c, rt, b| reshape(c, rt, &b.rest),
    ),
    m(
        "squeeze",
        "axis=None",
        "The array without its length-1 axes (or only those given), as a view.",
        |c, rt, b| forward(c, rt, "squeeze", vec![b.value(0)]),
    ),
    m(
        "std",
        VAR_SIG,
        "The standard deviation (along axis, dividing by n - ddof), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Std, b),
    ),
    m(
        "sum",
        SUM_SIG,
        "The sum of the elements (along axis), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Sum, b),
    ),
    m(
        "swapaxes",
        "axis1, axis2",
        "A view with the two axes exchanged.",
        |c, rt, b| forward(c, rt, "swapaxes", vec![b.value(0), b.value(1)]),
    ),
    m(
        "tolist",
        "",
        "The elements as a Python list (or number, for a 0-d array).",
        |c, rt, _| tolist(c, rt),
    ),
    m(
        "transpose",
        "*axes",
        "A view with the axes reversed, or permuted as given (as a tuple or as separate integers).",
        |c, rt, b| {
            let axes = match b.rest.as_slice() {
                [] => vec![],
                [one] => vec![one.clone()],
                many => vec![Value::tuple(many.to_vec())],
            };
            forward(c, rt, "transpose", axes)
        },
    ),
    m(
        "var",
        VAR_SIG,
        "The variance (along axis, dividing by n - ddof), computed on the device.",
        |c, rt, b| reduce(c, rt, Reduce::Var, b),
    ),
];

/// `x.sum(...)` and the other reductions: the module function's computation, its options
/// read from this method's slots by name.
fn reduce(c: &Rc<CupyArray>, rt: &mut Runtime, kind: Reduce, b: Bound) -> PyResult<Value> {
    let name = kind.name();
    // invariant: each reduction entry above calls reduce with the Reduce of its own name.
    let params = METHODS.find(name).expect("a reduction method").params();
    reduction(
        rt,
        name,
        kind,
        &CupyArray::value(c.view.clone()),
        params,
        &b,
    )
}

/// The `cupy` function of this name with this array first, as CuPy's methods are.
fn forward(c: &Rc<CupyArray>, rt: &mut Runtime, name: &str, rest: Vec<Value>) -> PyResult<Value> {
    let f = crate::py::registry::import(rt, "cupy")?
        .get(name)
        .ok_or_else(|| PyErr::attribute_error(name.to_string()))?;
    let mut pos = vec![CupyArray::value(c.view.clone())];
    pos.extend(rest);
    rt.call(&f, Args { pos, kw: vec![] })
}

fn int_of(v: Value) -> PyResult<Value> {
    Ok(match v {
        Value::Float(f) => Value::Int(f.trunc() as i64),
        Value::Bool(b) => Value::Int(b as i64),
        other => other,
    })
}

fn fill(c: &Rc<CupyArray>, rt: &mut Runtime, val: &Value) -> PyResult<Value> {
    let s = hostconv::host_array(rt, val)?;
    let sc = crate::device::copy::read_scalar(
        &crate::kernel::abi::ArgMem::Host(s.buf.clone()),
        s.offset,
        s.dtype,
    );
    let dst = crate::device::copy::region_of(&c.view);
    ops::queue(
        rt,
        c.view.stream,
        "cupy_fill",
        c.view.size() * c.view.dtype.itemsize(),
        move || crate::device::copy::fill_region(&dst, sc),
    );
    Ok(Value::None)
}

fn reshape(c: &Rc<CupyArray>, rt: &mut Runtime, given: &[Value]) -> PyResult<Value> {
    let req: Vec<i64> = match given {
        [one @ (Value::Tuple(_) | Value::List(_))] => parse_shape(one)
            .map(|s| s.into_iter().map(|n| n as i64).collect())
            .or_else(|_| match one {
                Value::Tuple(t) => t.iter().map(|x| x.as_index()).collect(),
                _ => Err(PyErr::type_error("bad shape")),
            })?,
        items => items
            .iter()
            .map(|x| x.as_index())
            .collect::<PyResult<_>>()?,
    };
    let shape = viewops::resolve_shape(&req, c.view.size())?;
    match viewops::reshape(&c.view, shape.clone(), 'C') {
        Ok(v) => Ok(wrap(v)),
        Err(_) => {
            let cc = ops::cast_copy(rt, &c.view, c.view.dtype)?;
            Ok(wrap(viewops::reshape(&cc, shape, 'C')?))
        }
    }
}

/// As CuPy: the host copy's `tolist()`.
fn tolist(c: &Rc<CupyArray>, rt: &mut Runtime) -> PyResult<Value> {
    crate::py::ndarray_attrs::to_list(&host_copy(rt, &c.view, "tolist")?)
}
