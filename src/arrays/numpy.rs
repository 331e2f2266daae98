//! The `numpy` module (`import numpy as np`): dtypes as callable type objects, constants,
//! creation, ufuncs and reductions as functions, comparisons, `np.testing`, `np.random`.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::ops::{self, Operand};
use crate::arrays::pyapi::{dtype_from_value, scalar_array, to_ndarray};
use crate::arrays::{create, reduce, typed, ufuncs, DType, NdArray, Scalar};
use crate::language::{Args, BinOp, Module, Object, PyErr, PyResult, Runtime, Value};

/// `np.float32` and friends: usable as dtypes and callable to make scalars or cast arrays.
pub struct NpType(pub DType);

impl Object for NpType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let n = if self.0 == DType::Bool {
            "bool"
        } else {
            self.0.name()
        };
        Ok(format!("<class 'numpy.{n}'>"))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "dtype" => Some(Value::DType(self.0)),
            "__name__" => Some(Value::str(self.0.name())),
            _ => None,
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let b = args.bind(self.0.name(), &["x="])?;
        match &b[0] {
            None => Ok(Value::Scalar(Scalar::I64(0).cast(self.0))),
            Some(Value::Str(s)) => {
                let f: f64 = s.trim().parse().map_err(|_| {
                    PyErr::value_error(format!(
                        "could not convert string to {}: '{s}'",
                        self.0.name()
                    ))
                })?;
                Ok(Value::Scalar(Scalar::F64(f).cast(self.0)))
            }
            Some(v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Scalar(_))) => {
                let s = match v {
                    Value::Int(i) => Scalar::I64(*i),
                    Value::Float(f) => Scalar::F64(*f),
                    Value::Bool(x) => Scalar::Bool(*x),
                    Value::Scalar(s) => *s,
                    _ => unreachable!("matched above"),
                };
                Ok(Value::Scalar(s.cast(self.0)))
            }
            Some(other) => {
                let a = to_ndarray(rt, other)?;
                Ok(Value::Array(ops::cast(&a, self.0)?))
            }
        }
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(match other {
            Value::DType(d) => *d == self.0,
            Value::Object(o) => o
                .as_any()
                .downcast_ref::<NpType>()
                .is_some_and(|t| t.0 == self.0),
            _ => false,
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn operand(rt: &mut Runtime, v: &Value) -> PyResult<Operand> {
    Ok(match v {
        Value::Int(i) => Operand::PyInt(*i),
        Value::Float(f) => Operand::PyFloat(*f),
        Value::Bool(b) => Operand::PyBool(*b),
        Value::Scalar(s) => Operand::Arr(scalar_array(*s)?),
        other => Operand::Arr(to_ndarray(rt, other)?),
    })
}

/// Scalars in → NumPy scalar out, as NumPy's ufuncs do.
fn result(r: NdArray, all_scalar: bool) -> Value {
    if all_scalar && r.ndim() == 0 {
        Value::Scalar(typed::scalar_at(&r, 0))
    } else {
        Value::Array(r)
    }
}

fn is_scalarish(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Scalar(_)
    )
}

fn out_arg(args: &Args) -> PyResult<Option<NdArray>> {
    match args.kwarg("out") {
        None | Some(Value::None) => Ok(None),
        Some(Value::Array(a)) => Ok(Some(a.clone())),
        Some(Value::Tuple(t)) if t.len() == 1 => match &t[0] {
            Value::Array(a) => Ok(Some(a.clone())),
            _ => Err(PyErr::type_error("return arrays must be of ArrayType")),
        },
        Some(_) => Err(PyErr::type_error("return arrays must be of ArrayType")),
    }
}

const BINARY_OPS: &[(&str, BinOp)] = &[
    ("add", BinOp::Add),
    ("subtract", BinOp::Sub),
    ("multiply", BinOp::Mul),
    ("divide", BinOp::Div),
    ("true_divide", BinOp::Div),
    ("floor_divide", BinOp::FloorDiv),
    ("power", BinOp::Pow),
    ("mod", BinOp::Mod),
    ("remainder", BinOp::Mod),
    ("equal", BinOp::Eq),
    ("not_equal", BinOp::Ne),
    ("less", BinOp::Lt),
    ("less_equal", BinOp::Le),
    ("greater", BinOp::Gt),
    ("greater_equal", BinOp::Ge),
    ("bitwise_and", BinOp::BitAnd),
    ("bitwise_or", BinOp::BitOr),
    ("bitwise_xor", BinOp::BitXor),
    ("logical_and", BinOp::BitAnd),
    ("logical_or", BinOp::BitOr),
];

fn close(
    rt: &mut Runtime,
    a: &Value,
    b: &Value,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> PyResult<(NdArray, Vec<bool>)> {
    let (x, y) = (to_ndarray(rt, a)?, to_ndarray(rt, b)?);
    let shape = ops::broadcast_shapes(&x.shape, &y.shape)?;
    let (xv, yv) = (
        typed::load::<f64>(&x, &shape),
        typed::load::<f64>(&y, &shape),
    );
    let v: Vec<bool> = xv
        .iter()
        .zip(yv.iter())
        .map(|(&p, &q)| {
            if p.is_nan() || q.is_nan() {
                equal_nan && p.is_nan() && q.is_nan()
            } else if p.is_infinite() || q.is_infinite() {
                p == q
            } else {
                (p - q).abs() <= atol + rtol * q.abs()
            }
        })
        .collect();
    let bytes: Vec<u8> = v.iter().map(|&b| b as u8).collect();
    Ok((ops::array_from(&shape, DType::Bool, &bytes)?, v))
}

fn tol(b: &Option<Value>, default: f64) -> PyResult<f64> {
    match b {
        None | Some(Value::None) => Ok(default),
        Some(v) => v.as_f64(),
    }
}

fn testing() -> Rc<Module> {
    let m = Module::new("numpy.testing", "Assertions on arrays.");
    m.func("assert_allclose", "assert_allclose(actual, desired, rtol=1e-07, atol=0)", "AssertionError unless every element is close.", |rt, a| {
        let b = a.bind("assert_allclose", &["actual", "desired", "rtol=", "atol=", "equal_nan=", "err_msg=", "verbose="])?;
        let (actual, desired) = (b[0].clone().expect("required"), b[1].clone().expect("required"));
        let (rtol, atol) = (tol(&b[2], 1e-7)?, tol(&b[3], 0.0)?);
        let (x, y) = (to_ndarray(rt, &actual)?, to_ndarray(rt, &desired)?);
        if ops::broadcast_shapes(&x.shape, &y.shape).is_err() {
            return Err(PyErr::new("AssertionError", format!(
                "\nNot equal to tolerance rtol={rtol}, atol={atol}\n\n(shapes {}, {} mismatch)",
                ops::shape_repr(&x.shape), ops::shape_repr(&y.shape)
            )));
        }
        let (_, ok) = close(rt, &actual, &desired, rtol, atol, !matches!(b[4], Some(Value::Bool(false))))?;
        let bad = ok.iter().filter(|v| !**v).count();
        if bad > 0 {
            let shape = ops::broadcast_shapes(&x.shape, &y.shape)?;
            let (xv, yv) = (typed::load::<f64>(&x, &shape), typed::load::<f64>(&y, &shape));
            let max_abs = xv.iter().zip(yv.iter()).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
            let max_rel = xv.iter().zip(yv.iter()).filter(|(_, q)| **q != 0.0).map(|(p, q)| ((p - q) / q).abs()).fold(0.0, f64::max);
            return Err(PyErr::new("AssertionError", format!(
                "\nNot equal to tolerance rtol={rtol}, atol={atol}\n\nMismatched elements: {bad} / {} ({:.3}%)\nMax absolute difference among violations: {max_abs}\nMax relative difference among violations: {max_rel}",
                ok.len(), 100.0 * bad as f64 / ok.len().max(1) as f64
            )));
        }
        Ok(Value::None)
    });
    m.func(
        "assert_array_equal",
        "assert_array_equal(x, y)",
        "AssertionError unless shapes and elements are equal.",
        |rt, a| {
            let b = a.bind(
                "assert_array_equal",
                &["x", "y", "err_msg=", "verbose=", "strict="],
            )?;
            let (x, y) = (
                to_ndarray(rt, b[0].as_ref().expect("required"))?,
                to_ndarray(rt, b[1].as_ref().expect("required"))?,
            );
            let same_shape = ops::broadcast_shapes(&x.shape, &y.shape).is_ok();
            let equal = same_shape && {
                let shape = ops::broadcast_shapes(&x.shape, &y.shape)?;
                let (xv, yv) = (
                    typed::load::<f64>(&x, &shape),
                    typed::load::<f64>(&y, &shape),
                );
                xv.iter()
                    .zip(yv.iter())
                    .all(|(p, q)| p == q || (p.is_nan() && q.is_nan()))
            };
            if !equal {
                return Err(PyErr::new("AssertionError", "\nArrays are not equal"));
            }
            Ok(Value::None)
        },
    );
    Rc::new(m)
}

pub fn module() -> Rc<Module> {
    let m = Module::new("numpy", "NumPy host arrays (nbcuda's implementation).");
    for d in DType::ALL {
        m.set(d.name(), Value::object(NpType(d)));
    }
    for (alias, d) in [
        ("bool_", DType::Bool),
        ("int_", DType::I64),
        ("intp", DType::I64),
        ("uint", DType::U64),
        ("double", DType::F64),
        ("single", DType::F32),
        ("float_", DType::F64),
    ] {
        m.set(alias, Value::object(NpType(d)));
    }
    m.set("pi", Value::Float(std::f64::consts::PI));
    m.set("e", Value::Float(std::f64::consts::E));
    m.set("nan", Value::Float(f64::NAN));
    m.set("inf", Value::Float(f64::INFINITY));
    m.set("newaxis", Value::None);
    m.set("__version__", Value::str("2.3.5"));
    m.func("dtype", "dtype(obj)", "A dtype object.", |rt, a| {
        let b = a.bind("dtype", &["dtype"])?;
        Ok(Value::DType(dtype_from_value(
            rt,
            b[0].as_ref().expect("required"),
        )?))
    });
    create::register(&m);
    for &(name, op) in BINARY_OPS {
        m.func(
            name,
            &format!("{name}(x1, x2, /, out=None)"),
            "Elementwise, with broadcasting, as NumPy's ufunc.",
            move |rt, a| {
                let b = a.bind(name, &["x1", "x2", "out=", "dtype=", "where="])?;
                let (x, y) = (
                    b[0].clone().expect("required"),
                    b[1].clone().expect("required"),
                );
                let scalars = is_scalarish(&x) && is_scalarish(&y);
                let (p, q) = (operand(rt, &x)?, operand(rt, &y)?);
                let out = out_arg(&a)?;
                let logical = name.starts_with("logical");
                let r = if logical {
                    let to_bool = |o: Operand| -> PyResult<Operand> {
                        Ok(match o {
                            Operand::Arr(arr) => Operand::Arr(ops::cast(&arr, DType::Bool)?),
                            Operand::PyInt(i) => Operand::PyBool(i != 0),
                            Operand::PyFloat(f) => Operand::PyBool(f != 0.0),
                            other => other,
                        })
                    };
                    ops::binary(op, &to_bool(p)?, &to_bool(q)?, out.as_ref())?
                } else {
                    ops::binary(op, &p, &q, out.as_ref())?
                };
                Ok(result(r, scalars && out.is_none()))
            },
        );
    }
    for name in [
        "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "fmod", "copysign",
    ] {
        m.func(
            name,
            &format!("{name}(x1, x2, /, out=None)"),
            "Elementwise, with broadcasting, as NumPy's ufunc.",
            move |rt, a| {
                let b = a.bind(name, &["x1", "x2", "out="])?;
                let (x, y) = (
                    b[0].clone().expect("required"),
                    b[1].clone().expect("required"),
                );
                let scalars = is_scalarish(&x) && is_scalarish(&y);
                let r = ufuncs::binary_fn(name, &operand(rt, &x)?, &operand(rt, &y)?)?;
                if let Some(o) = out_arg(&a)? {
                    ops::copy_into(&o, &r)?;
                    return Ok(Value::Array(o));
                }
                Ok(result(r, scalars))
            },
        );
    }
    for &name in ufuncs::FLOAT_UNARY.iter().chain(ufuncs::OTHER_UNARY) {
        m.func(
            name,
            &format!("{name}(x, /, out=None)"),
            "Elementwise, as NumPy's ufunc.",
            move |rt, a| {
                let b = a.bind(name, &["x", "out=", "dtype="])?;
                let x = b[0].clone().expect("required");
                let r = ufuncs::unary(name, &to_ndarray(rt, &x)?)?;
                if let Some(o) = out_arg(&a)? {
                    ops::copy_into(&o, &r)?;
                    return Ok(Value::Array(o));
                }
                Ok(result(r, is_scalarish(&x)))
            },
        );
    }
    for name in [
        "sum", "mean", "min", "max", "amin", "amax", "std", "var", "prod", "argmin", "argmax",
        "any", "all",
    ] {
        let method = name.trim_start_matches('a').to_string();
        let method = if name == "any" || name == "all" || name.starts_with("arg") {
            name.to_string()
        } else {
            method
        };
        m.func(
            name,
            &format!("{name}(a, axis=None)"),
            "A reduction, as NumPy's function of the same name.",
            move |rt, a| {
                let b = a.bind(
                    name,
                    &["a", "axis=", "dtype=", "out=", "keepdims=", "ddof="],
                )?;
                let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
                let axis = match &b[1] {
                    None | Some(Value::None) => None,
                    Some(v) => Some(v.as_index()? as isize),
                };
                let ddof = b[5]
                    .as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0) as usize;
                reduce::reduce(&method, &arr, axis, ddof)
            },
        );
    }
    m.func(
        "cumsum",
        "cumsum(a, axis=None)",
        "Cumulative sum.",
        |rt, a| {
            let b = a.bind("cumsum", &["a", "axis=", "dtype="])?;
            let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
            let axis = b[1]
                .as_ref()
                .filter(|v| !v.is_none())
                .map(|v| v.as_index())
                .transpose()?;
            Ok(Value::Array(reduce::cumsum(
                &arr,
                axis.map(|x| x as isize),
            )?))
        },
    );
    m.func(
        "where",
        "where(condition, [x, y])",
        "Elements of x where condition holds, else of y.",
        |rt, a| {
            let b = a.bind("where", &["condition", "x=", "y="])?;
            let c = ops::cast(
                &to_ndarray(rt, b[0].as_ref().expect("required"))?,
                DType::Bool,
            )?;
            match (&b[1], &b[2]) {
                (Some(x), Some(y)) => Ok(Value::Array(ufuncs::where3(
                    &c,
                    &operand(rt, x)?,
                    &operand(rt, y)?,
                )?)),
                (None, None) => {
                    let mask = typed::load::<u8>(&c, &c.shape);
                    let idx: Vec<i64> = mask
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| **v != 0)
                        .map(|(i, _)| i as i64)
                        .collect();
                    Ok(Value::tuple(vec![Value::Array(ops::array_from(
                        &[idx.len()],
                        DType::I64,
                        &idx,
                    )?)]))
                }
                _ => Err(PyErr::value_error(
                    "either both or neither of x and y should be given",
                )),
            }
        },
    );
    m.func(
        "clip",
        "clip(a, a_min, a_max)",
        "Limit values to [a_min, a_max].",
        |rt, a| {
            let b = a.bind("clip", &["a", "a_min", "a_max"])?;
            let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
            ufuncs::clip(rt, &arr, b[1].clone(), b[2].clone())
        },
    );
    for name in ["round", "around"] {
        m.func(
            name,
            &format!("{name}(a, decimals=0)"),
            "Round half to even.",
            |rt, a| {
                let b = a.bind("round", &["a", "decimals="])?;
                let x = b[0].clone().expect("required");
                let d = b[1]
                    .as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0);
                Ok(result(
                    ufuncs::round(&to_ndarray(rt, &x)?, d)?,
                    is_scalarish(&x),
                ))
            },
        );
    }
    m.func(
        "reshape",
        "reshape(a, newshape)",
        "A reshaped view or copy.",
        |rt, a| {
            let b = a.bind("reshape", &["a", "newshape", "order="])?;
            let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
            let dims = match b[1].as_ref().expect("required") {
                Value::Tuple(t) => t.to_vec(),
                Value::List(l) => l.borrow().clone(),
                d => vec![d.clone()],
            };
            Ok(Value::Array(crate::arrays::pyapi::reshape(
                &arr, &dims, false,
            )?))
        },
    );
    m.func("ravel", "ravel(a)", "A flattened view or copy.", |rt, a| {
        let b = a.bind("ravel", &["a"])?;
        let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
        Ok(Value::Array(crate::arrays::pyapi::reshape(
            &arr,
            &[Value::Int(-1)],
            false,
        )?))
    });
    m.func(
        "transpose",
        "transpose(a)",
        "The transposed view.",
        |rt, a| {
            let b = a.bind("transpose", &["a"])?;
            Ok(Value::Array(crate::arrays::pyapi::transpose(&to_ndarray(
                rt,
                b[0].as_ref().expect("required"),
            )?)))
        },
    );
    m.func(
        "isclose",
        "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)",
        "Elementwise closeness.",
        |rt, a| {
            let b = a.bind("isclose", &["a", "b", "rtol=", "atol=", "equal_nan="])?;
            let (r, _) = close(
                rt,
                b[0].as_ref().expect("required"),
                b[1].as_ref().expect("required"),
                tol(&b[2], 1e-5)?,
                tol(&b[3], 1e-8)?,
                matches!(b[4], Some(Value::Bool(true))),
            )?;
            Ok(Value::Array(r))
        },
    );
    m.func(
        "allclose",
        "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)",
        "Whether every element is close.",
        |rt, a| {
            let b = a.bind("allclose", &["a", "b", "rtol=", "atol=", "equal_nan="])?;
            let (_, v) = close(
                rt,
                b[0].as_ref().expect("required"),
                b[1].as_ref().expect("required"),
                tol(&b[2], 1e-5)?,
                tol(&b[3], 1e-8)?,
                matches!(b[4], Some(Value::Bool(true))),
            )?;
            Ok(Value::Bool(v.iter().all(|x| *x)))
        },
    );
    m.func(
        "array_equal",
        "array_equal(a1, a2)",
        "Same shape and same elements.",
        |rt, a| {
            let b = a.bind("array_equal", &["a1", "a2", "equal_nan="])?;
            let (x, y) = (
                to_ndarray(rt, b[0].as_ref().expect("required"))?,
                to_ndarray(rt, b[1].as_ref().expect("required"))?,
            );
            if x.shape != y.shape {
                return Ok(Value::Bool(false));
            }
            let (xv, yv) = (
                typed::load::<f64>(&x, &x.shape),
                typed::load::<f64>(&y, &y.shape),
            );
            Ok(Value::Bool(xv.iter().zip(yv.iter()).all(|(p, q)| p == q)))
        },
    );
    m.func("shape", "shape(a)", "The shape of an array.", |rt, a| {
        let b = a.bind("shape", &["a"])?;
        let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
        Ok(Value::tuple(
            arr.shape.iter().map(|&d| Value::Int(d as i64)).collect(),
        ))
    });
    m.set("random", Value::Module(crate::arrays::random::module()));
    m.set("testing", Value::Module(testing()));
    Rc::new(m)
}
