//! NumPy's binary ufuncs as objects (`np.add`, `np.maximum`, ...): calling one is the
//! element-wise function, and its methods are NumPy's `reduce`, `accumulate` and `outer`.
//! Reductions that NumPy defines as `sum`, `prod`, `max`, `min`, `all`, `any` and the
//! cumulative `cumsum`/`cumprod` go through those (same dtype rules); every other ufunc
//! folds its operation along the axis, as NumPy's generic loop does.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::operator::{Arith, Reduce};
use crate::arrays::ufunc::{binary_ufunc, Ufunc2};
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_ndarray};
use crate::py::ndarray_methods::reduction_method;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

pub struct NpUfunc {
    pub name: &'static str,
    pub kind: Ufunc2,
    /// The element-wise function itself (what calling the ufunc does).
    pub func: Value,
}

/// The NumPy function that is this ufunc's reduction (`np.add.reduce` is `np.sum`).
fn reduction_of(k: Ufunc2) -> Option<Reduce> {
    Some(match k {
        Ufunc2::Arith(Arith::Add) => Reduce::Sum,
        Ufunc2::Arith(Arith::Mul) => Reduce::Prod,
        Ufunc2::Arith(Arith::Max) => Reduce::Max,
        Ufunc2::Arith(Arith::Min) => Reduce::Min,
        Ufunc2::LogicalAnd => Reduce::All,
        Ufunc2::LogicalOr => Reduce::Any,
        _ => return None,
    })
}

fn identity(k: Ufunc2) -> Value {
    match k {
        Ufunc2::Arith(Arith::Add | Arith::Sub | Arith::BitOr | Arith::BitXor) => Value::Int(0),
        Ufunc2::Arith(Arith::Mul) => Value::Int(1),
        Ufunc2::Arith(Arith::BitAnd) => Value::Int(-1),
        Ufunc2::LogicalAnd => Value::Bool(true),
        Ufunc2::LogicalOr | Ufunc2::LogicalXor => Value::Bool(false),
        _ => Value::None,
    }
}

/// `a[..., i, ...]` along `axis`: a view without that axis.
fn take(a: &NdArray, axis: usize, i: usize) -> NdArray {
    let mut v = a.clone();
    v.offset = (a.offset as isize + a.strides[axis] * i as isize) as usize;
    v.shape.remove(axis);
    v.strides.remove(axis);
    v
}

/// A normalised axis of `ndim`, NumPy's AxisError (a ValueError) otherwise.
fn norm_axis(axis: i64, ndim: usize) -> PyResult<usize> {
    let n = ndim as i64;
    let k = if axis < 0 { axis + n } else { axis };
    if k < 0 || k >= n.max(1) {
        return Err(PyErr::new(
            "AxisError",
            format!("axis {axis} is out of bounds for array of dimension {ndim}"),
        ));
    }
    Ok(k as usize)
}

impl NpUfunc {
    fn input(&self, rt: &mut Runtime, v: &Value, dtype: &Option<Value>) -> PyResult<NdArray> {
        let a = to_ndarray(rt, v)?;
        match dtype.as_ref().filter(|d| !d.is_none()) {
            Some(d) => {
                let d = dtype_from_value(rt, d)?;
                Ok(crate::arrays::elem::cast(&a, d)?)
            }
            None => Ok(a),
        }
    }

    fn reduce(&self, rt: &mut Runtime, args: Args) -> PyResult<Value> {
        let b = args.bind(
            "reduce",
            &[
                "array",
                "axis=",
                "dtype=",
                "out=",
                "keepdims=",
                "initial=",
                "where=",
            ],
        )?;
        for (i, what) in [(3, "out"), (5, "initial"), (6, "where")] {
            if b[i].as_ref().is_some_and(|v| !v.is_none()) {
                return Err(PyErr::not_implemented(format!(
                    "{}.reduce({what}=...) is not supported by nbcuda",
                    self.name
                )));
            }
        }
        let keepdims = rt.flag(b[4].as_ref())?;
        let mut a = self.input(rt, b[0].as_ref().unwrap_or(&Value::None), &b[2])?;
        let axis = match &b[1] {
            None => Some(0),
            Some(Value::None) => None,
            Some(v) => Some(v.as_index()?),
        };
        if let Some(r) = reduction_of(self.kind) {
            let ax = axis.map(Value::Int).unwrap_or(Value::None);
            let kw = vec![
                ("axis".into(), ax),
                ("keepdims".into(), Value::Bool(keepdims)),
            ];
            return reduction_method(rt, &a, r, Args { pos: vec![], kw });
        }
        let axis = match axis {
            Some(k) => norm_axis(k, a.ndim())?,
            None => {
                a = crate::arrays::elem::contiguous_copy(&a)?;
                a.strides = vec![a.dtype.itemsize() as isize];
                a.shape = vec![a.size()];
                0
            }
        };
        if a.ndim() == 0 {
            return Err(PyErr::value_error(format!(
                "reduce: cannot reduce a 0-d array with {}",
                self.name
            )));
        }
        let n = a.shape[axis];
        if n == 0 {
            return Err(PyErr::value_error(format!(
                "zero-size array to reduction operation {} which has no identity",
                self.name
            )));
        }
        let mut acc = take(&a, axis, 0);
        for i in 1..n {
            rt.check_interrupt()?;
            acc = binary_ufunc(self.kind, &acc, &take(&a, axis, i), None)?;
        }
        if keepdims {
            acc.shape.insert(axis, 1);
            acc.strides.insert(axis, 0);
        }
        Ok(crate::py::ndarray_attrs::wrap_result(acc))
    }

    fn accumulate(&self, rt: &mut Runtime, args: Args) -> PyResult<Value> {
        let b = args.bind("accumulate", &["array", "axis=", "dtype=", "out="])?;
        if b[3].as_ref().is_some_and(|v| !v.is_none()) {
            return Err(PyErr::not_implemented(format!(
                "{}.accumulate(out=...) is not supported by nbcuda",
                self.name
            )));
        }
        let a = self.input(rt, b[0].as_ref().unwrap_or(&Value::None), &b[2])?;
        let axis = match &b[1] {
            Some(v) if !v.is_none() => v.as_index()?,
            _ => 0,
        };
        let cumulative = match self.kind {
            Ufunc2::Arith(Arith::Add) => Some(Reduce::CumSum),
            Ufunc2::Arith(Arith::Mul) => Some(Reduce::CumProd),
            _ => None,
        };
        if let Some(r) = cumulative {
            let kw = vec![("axis".into(), Value::Int(axis))];
            return reduction_method(rt, &a, r, Args { pos: vec![], kw });
        }
        if a.ndim() == 0 {
            return Err(PyErr::value_error("cannot accumulate on a scalar"));
        }
        let axis = norm_axis(axis, a.ndim())?;
        let out = crate::arrays::elem::new_array(&a.shape, a.dtype)?;
        let mut acc: Option<NdArray> = None;
        for i in 0..a.shape[axis] {
            rt.check_interrupt()?;
            let x = take(&a, axis, i);
            let next = match &acc {
                None => x,
                Some(prev) => binary_ufunc(self.kind, prev, &x, None)?,
            };
            let dst = take(&out, axis, i);
            crate::arrays::elem::copy_into(&dst, &crate::arrays::elem::cast(&next, out.dtype)?)?;
            acc = Some(next);
        }
        Ok(Value::Array(Box::new(out)))
    }

    fn outer(&self, rt: &mut Runtime, args: Args) -> PyResult<Value> {
        let b = args.bind("outer", &["A", "B"])?;
        let x = to_ndarray(rt, b[0].as_ref().unwrap_or(&Value::None))?;
        let y = to_ndarray(rt, b[1].as_ref().unwrap_or(&Value::None))?;
        // A's axes first, then B's: A viewed with B.ndim trailing length-1 axes.
        let mut xv = x.clone();
        for _ in 0..y.ndim() {
            xv.shape.push(1);
            xv.strides.push(0);
        }
        rt.call(
            &self.func,
            Args::new(vec![Value::Array(Box::new(xv)), Value::Array(Box::new(y))]),
        )
    }
}

impl Object for NpUfunc {
    fn type_name(&self) -> String {
        "ufunc".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<ufunc '{}'>", self.name))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        rt.call(&self.func, args)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        type M = fn(&NpUfunc, &mut Runtime, Args) -> PyResult<Value>;
        let method = |sig: &str, doc: &str, f: M| {
            Some(Value::method(
                &self,
                &format!("ufunc.{name}"),
                sig,
                doc,
                move |u, rt, args| f(u, rt, args),
            ))
        };
        Ok(match name {
            "reduce" => method(
                "reduce(array, axis=0, dtype=None, out=None, keepdims=False)",
                "Reduce the array's dimension `axis` by applying the ufunc along it.",
                NpUfunc::reduce,
            ),
            "accumulate" => method(
                "accumulate(array, axis=0, dtype=None, out=None)",
                "The running result of applying the ufunc along `axis`.",
                NpUfunc::accumulate,
            ),
            "outer" => method(
                "outer(A, B)",
                "The ufunc applied to every pair (a, b) of A's and B's elements.",
                NpUfunc::outer,
            ),
            "__name__" => Some(Value::str(self.name)),
            "nin" => Some(Value::Int(2)),
            "nout" => Some(Value::Int(1)),
            "nargs" => Some(Value::Int(3)),
            "identity" => Some(identity(self.kind)),
            "__doc__" => Some(Value::str(&format!(
                "{}(x1, x2, /, out=None, *, where=True, casting='same_kind', dtype=None)",
                self.name
            ))),
            _ => None,
        })
    }
    fn doc(&self) -> Option<(String, String)> {
        Some((
            format!("{}(x1, x2, /, out=None, *, where=True, casting='same_kind', dtype=None)", self.name),
            format!("NumPy's {} ufunc, elementwise with broadcasting; methods reduce, accumulate, outer.", self.name),
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
