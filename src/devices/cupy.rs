//! CuPy arrays on nbcuda's devices: `cupy.ndarray` and the `cupy` module's creation,
//! transfer, elementwise, ufunc and reduction functions.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::{DType, Scalar};
use crate::devices::api::{self, Transfer};
use crate::devices::cupy_ops::{self as ops, Operand, Reduce};
use crate::devices::devicearray::{arg, flags_dict, ints, istrides};
use crate::devices::index::{basic_index, parse_shape, Indexed, Layout};
use crate::devices::{hostconv, viewops, DeviceView};
use crate::language::{Args, BinOp, Module, Object, PyErr, PyResult, Runtime, UnaryOp, Value};

/// `cupy.ndarray`.
pub struct CupyArray {
    pub view: DeviceView,
}

impl CupyArray {
    pub fn value(view: DeviceView) -> Value {
        Value::object(CupyArray { view })
    }
}

fn wrap(v: DeviceView) -> Value {
    CupyArray::value(v)
}

/// An operand for CuPy arithmetic; host NumPy arrays are refused as CuPy does.
fn operand(rt: &mut Runtime, v: &Value) -> PyResult<Option<Operand>> {
    Ok(Some(match v {
        Value::Bool(b) => Operand::Py(Scalar::Bool(*b)),
        Value::Int(i) => Operand::Py(Scalar::I64(*i)),
        Value::Float(f) => Operand::Py(Scalar::F64(*f)),
        Value::Scalar(s) => Operand::Np(*s),
        Value::Array(_) => {
            return Err(PyErr::type_error(
                "Unsupported type <class 'numpy.ndarray'>",
            )
            .with_hint("CuPy does not mix host and device arrays implicitly: move it with cp.asarray(host_array) first."))
        }
        other => match api::device_view(rt, other)? {
            Some(v) => Operand::Arr(v),
            None => return Ok(None),
        },
    }))
}

/// A synchronous host copy of a CuPy array.
fn host_copy(rt: &mut Runtime, v: &DeviceView, call: &str) -> PyResult<crate::arrays::NdArray> {
    api::to_host(rt, v, Transfer::explicit(call))
}

fn reduce_method(
    rt: &mut Runtime,
    v: &DeviceView,
    kind: Reduce,
    a: &Args,
    name: &str,
) -> PyResult<Value> {
    let b = a.bind(name, &["axis=", "dtype=", "out=", "keepdims="])?;
    let axis = match arg(&b, 0) {
        None | Some(Value::None) => None,
        Some(x) => Some(x.as_index()?),
    };
    Ok(wrap(ops::reduce(rt, kind, v, axis)?))
}

/// The elements of a 0-d (or size-1) array as a Python number.
fn item(rt: &mut Runtime, v: &DeviceView) -> PyResult<Value> {
    if v.size() != 1 {
        return Err(PyErr::value_error(
            "can only convert an array of size 1 to a Python scalar",
        ));
    }
    let h = host_copy(rt, v, "item")?;
    let s = crate::devices::copy::read_scalar(
        &crate::compiler::ArgMem::Host(h.buf.clone()),
        h.offset,
        h.dtype,
    );
    Ok(if s.dtype().is_float() {
        Value::Float(s.as_f64())
    } else if s.dtype() == DType::Bool {
        Value::Bool(s.as_i64() != 0)
    } else {
        Value::Int(s.as_i64())
    })
}

impl Object for CupyArray {
    fn type_name(&self) -> String {
        "ndarray".into()
    }
    fn module_name(&self) -> String {
        "cupy".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let h = host_copy(rt, &self.view, "repr")?;
        Ok(crate::arrays::pyapi::array_repr(&h))
    }
    fn str(&self, rt: &mut Runtime) -> PyResult<String> {
        let h = host_copy(rt, &self.view, "str")?;
        Ok(crate::arrays::pyapi::array_str(&h))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let v = &self.view;
        if let Some(kind) = Reduce::parse(name) {
            let nm = name.to_string();
            return Ok(Some(Value::method(
                &self,
                &format!("ndarray.{name}"),
                &format!("{name}(axis=None)"),
                "A reduction computed on the device; returns a CuPy array (0-d for axis=None).",
                move |c, rt, a| reduce_method(rt, &c.view, kind, &a, &nm),
            )));
        }
        Ok(Some(match name {
            "shape" => ints(&v.shape),
            "strides" => istrides(&v.strides),
            "dtype" => Value::DType(v.dtype),
            "size" => Value::Int(v.size() as i64),
            "ndim" => Value::Int(v.shape.len() as i64),
            "itemsize" => Value::Int(v.dtype.itemsize() as i64),
            "nbytes" => Value::Int((v.size() * v.dtype.itemsize()) as i64),
            "flags" => flags_dict(v),
            "__cuda_array_interface__" => crate::devices::interop::cupy_cai(v),
            "data" => Value::Int((crate::devices::interop::base_ptr(&v.alloc) + v.offset) as i64),
            "T" => wrap(DeviceView {
                shape: v.shape.iter().rev().copied().collect(),
                strides: v.strides.iter().rev().copied().collect(),
                ..v.clone()
            }),
            "get" => Value::method(
                &self,
                "ndarray.get",
                "get(stream=None)",
                "Copy to the host: a NumPy array.",
                |c, rt, a| {
                    let b = a.bind("get", &["stream=", "order=", "out="])?;
                    let _ = arg(&b, 0);
                    Ok(Value::Array(host_copy(rt, &c.view, "get")?))
                },
            ),
            "copy" => Value::method(
                &self,
                "ndarray.copy",
                "copy()",
                "A new device copy.",
                |c, rt, _| Ok(wrap(ops::cast_copy(rt, &c.view, c.view.dtype)?)),
            ),
            "astype" => Value::method(
                &self,
                "ndarray.astype",
                "astype(dtype)",
                "A device copy converted to dtype.",
                |c, rt, a| {
                    let b = a.bind("astype", &["dtype", "copy="])?;
                    let dt = crate::arrays::pyapi::dtype_from_value(
                        rt,
                        arg(&b, 0).unwrap_or(&Value::None),
                    )?;
                    Ok(wrap(ops::cast_copy(rt, &c.view, dt)?))
                },
            ),
            "reshape" => Value::method(
                &self,
                "ndarray.reshape",
                "reshape(*shape)",
                "A view with a new shape (a copy if needed).",
                |c, rt, a| {
                    let req: Vec<i64> = match a.pos.as_slice() {
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
                },
            ),
            "ravel" | "flatten" => Value::method(
                &self,
                "ndarray.ravel",
                "ravel()",
                "A 1-D array.",
                |c, rt, _| {
                    let base = match viewops::ravel(&c.view, 'C') {
                        Ok(v) => return Ok(wrap(v)),
                        Err(_) => ops::cast_copy(rt, &c.view, c.view.dtype)?,
                    };
                    Ok(wrap(viewops::ravel(&base, 'C')?))
                },
            ),
            "fill" => Value::method(
                &self,
                "ndarray.fill",
                "fill(value)",
                "Set every element to value.",
                |c, rt, a| {
                    let b = a.bind("fill", &["value"])?;
                    let val = arg(&b, 0).unwrap_or(&Value::None);
                    let s = hostconv::host_array(rt, val)?;
                    let sc = crate::devices::copy::read_scalar(
                        &crate::compiler::ArgMem::Host(s.buf.clone()),
                        s.offset,
                        s.dtype,
                    );
                    let dst = crate::devices::copy::region_of(&c.view);
                    ops::queue(
                        rt,
                        c.view.stream,
                        "cupy_fill",
                        c.view.size() * c.view.dtype.itemsize(),
                        move || crate::devices::copy::fill_region(&dst, sc),
                    );
                    Ok(Value::None)
                },
            ),
            "item" => Value::method(
                &self,
                "ndarray.item",
                "item()",
                "The single element as a Python number.",
                |c, rt, _| item(rt, &c.view),
            ),
            "tolist" => Value::method(
                &self,
                "ndarray.tolist",
                "tolist()",
                "The elements as (nested) Python lists.",
                |c, rt, _| {
                    let h = host_copy(rt, &c.view, "tolist")?;
                    let vals = h.to_f64_vec();
                    let conv = |x: f64| {
                        if c.view.dtype.is_float() {
                            Value::Float(x)
                        } else {
                            Value::Int(x as i64)
                        }
                    };
                    Ok(if h.shape.len() <= 1 && !h.shape.is_empty() {
                        Value::list(vals.into_iter().map(conv).collect())
                    } else if h.shape.is_empty() {
                        conv(vals[0])
                    } else {
                        return Err(PyErr::not_implemented(
                            "tolist() of a multi-dimensional CuPy array; use .get() first",
                        ));
                    })
                },
            ),
            "__array__" => Value::method(
                &self,
                "ndarray.__array__",
                "__array__()",
                "CuPy refuses implicit host conversion.",
                |_, _, _| {
                    Err(PyErr::type_error("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array explicitly."))
                },
            ),
            _ => return Ok(None),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let v = &self.view;
        let l = Layout {
            offset: v.offset,
            shape: v.shape.clone(),
            strides: v.strides.clone(),
        };
        Ok(match basic_index(&l, key)? {
            // CuPy gives a 0-d array for an integer index.
            Indexed::Element(at) => wrap(DeviceView {
                offset: at,
                shape: vec![],
                strides: vec![],
                ..v.clone()
            }),
            Indexed::View(l) => wrap(DeviceView {
                offset: l.offset,
                shape: l.shape,
                strides: l.strides,
                ..v.clone()
            }),
        })
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        let s = if self.view.stream == 0 {
            Value::Int(0)
        } else {
            crate::devices::streams::Stream::bound(self.view.stream)
        };
        crate::devices::devicearray::setitem(rt, &self.view, key, &value, Some(&s))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        match self.view.shape.first() {
            Some(&n) => Ok(Some(n)),
            None => Err(PyErr::type_error("len() of unsized object")),
        }
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let n = self.len(rt)?.unwrap_or(0);
        (0..n)
            .map(|i| self.clone().get_item(&Value::Int(i as i64), rt))
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
    }
    fn truthy(&self, rt: &mut Runtime) -> PyResult<bool> {
        if self.view.size() != 1 {
            return Err(PyErr::value_error("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"));
        }
        Ok(match item(rt, &self.view)? {
            Value::Float(f) => f != 0.0,
            Value::Int(i) => i != 0,
            Value::Bool(b) => b,
            _ => true,
        })
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let Some(o) = operand(rt, other)? else {
            return Ok(None);
        };
        let me = Operand::Arr(self.view.clone());
        let (a, b) = if reflected { (o, me) } else { (me, o) };
        Ok(Some(wrap(ops::binary_op(rt, op, a, b)?)))
    }
    fn unary_op(self: Rc<Self>, op: UnaryOp, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match op {
            UnaryOp::Neg => wrap(ops::unary(rt, "negative", &self.view)?),
            UnaryOp::Pos => wrap(ops::cast_copy(rt, &self.view, self.view.dtype)?),
            UnaryOp::Invert => {
                if self.view.dtype == DType::Bool {
                    wrap(ops::binary_op(
                        rt,
                        BinOp::Eq,
                        Operand::Arr(self.view.clone()),
                        Operand::Py(Scalar::Bool(false)),
                    )?)
                } else {
                    wrap(ops::binary_op(
                        rt,
                        BinOp::BitXor,
                        Operand::Arr(self.view.clone()),
                        Operand::Py(Scalar::I64(-1)),
                    )?)
                }
            }
        }))
    }
    fn dir(&self) -> Vec<String> {
        [
            "shape",
            "dtype",
            "size",
            "ndim",
            "strides",
            "nbytes",
            "itemsize",
            "T",
            "get",
            "copy",
            "astype",
            "reshape",
            "ravel",
            "fill",
            "item",
            "tolist",
            "sum",
            "mean",
            "min",
            "max",
            "std",
            "var",
            "argmax",
            "argmin",
            "__cuda_array_interface__",
        ]
        .map(String::from)
        .to_vec()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn dtype_or(rt: &mut Runtime, v: Option<&Value>, default: DType) -> PyResult<DType> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(v) => crate::arrays::pyapi::dtype_from_value(rt, v),
    }
}

/// `cp.asarray` / `cp.array`: device arrays are shared (or copied for `array`), host data is
/// copied to the device.
fn to_cupy(rt: &mut Runtime, obj: &Value, dtype: Option<&Value>, copy: bool) -> PyResult<Value> {
    crate::devices::hostmem::check_not_ctx(obj)?;
    if !matches!(obj, Value::Array(_)) {
        if let Some(v) = api::device_view(rt, obj)? {
            let dt = dtype_or(rt, dtype, v.dtype)?;
            return Ok(wrap(if copy || dt != v.dtype {
                ops::cast_copy(rt, &v, dt)?
            } else {
                v
            }));
        }
    }
    let host = hostconv::host_array(rt, obj)?;
    let dt = dtype_or(rt, dtype, host.dtype)?;
    let stream = ops::current_stream(rt);
    let out = api::alloc(rt, &host.shape, dt, stream)?;
    api::htod(rt, &host, &out, stream, Transfer::explicit("cupy.asarray"))?;
    Ok(wrap(out))
}

fn like_of(rt: &mut Runtime, v: &Value) -> PyResult<(Vec<usize>, DType)> {
    match api::device_view(rt, v)? {
        Some(d) => Ok((d.shape, d.dtype)),
        None => {
            let h = hostconv::host_array(rt, v)?;
            Ok((h.shape, h.dtype))
        }
    }
}

fn scalar_of(rt: &mut Runtime, v: &Value) -> PyResult<Scalar> {
    let h = hostconv::host_array(rt, v)?;
    if h.size() != 1 {
        return Err(PyErr::value_error("fill value must be a scalar"));
    }
    Ok(crate::devices::copy::read_scalar(
        &crate::compiler::ArgMem::Host(h.buf.clone()),
        h.offset,
        h.dtype,
    ))
}

/// Build the `cupy` module.
pub fn module() -> Rc<Module> {
    let m = Module::new("cupy", "CuPy arrays on nbcuda's devices.");
    m.func("asarray", "asarray(a, dtype=None)", "A CuPy array from a host array, list or device array (device memory is shared, not copied).", |rt, a| {
        let b = a.bind("asarray", &["a", "dtype=", "order="])?;
        to_cupy(rt, arg(&b, 0).unwrap_or(&Value::None), arg(&b, 1), false)
    });
    m.func(
        "array",
        "array(obj, dtype=None, copy=True)",
        "A new CuPy array copied from obj.",
        |rt, a| {
            let b = a.bind(
                "array",
                &["obj", "dtype=", "copy=", "order=", "subok=", "ndmin="],
            )?;
            let copy = !matches!(arg(&b, 2), Some(Value::Bool(false)));
            to_cupy(rt, arg(&b, 0).unwrap_or(&Value::None), arg(&b, 1), copy)
        },
    );
    m.func(
        "asnumpy",
        "asnumpy(a, stream=None)",
        "Copy a CuPy array to the host (NumPy arrays pass through).",
        |rt, a| {
            let b = a.bind("asnumpy", &["a", "stream=", "order=", "out="])?;
            let obj = arg(&b, 0).unwrap_or(&Value::None);
            match obj {
                Value::Array(_) => Ok(obj.clone()),
                _ => match api::device_view(rt, obj)? {
                    Some(v) => Ok(Value::Array(host_copy(rt, &v, "cupy.asnumpy")?)),
                    None => Ok(Value::Array(hostconv::host_array(rt, obj)?)),
                },
            }
        },
    );
    for (name, fill) in [("empty", None), ("zeros", Some(0.0)), ("ones", Some(1.0))] {
        m.func(
            name,
            &format!("{name}(shape, dtype=float64)"),
            "A new device array.",
            move |rt, a| {
                let b = a.bind(name, &["shape", "dtype=", "order="])?;
                let shape = parse_shape(arg(&b, 0).unwrap_or(&Value::None))?;
                let dt = dtype_or(rt, arg(&b, 1), DType::F64)?;
                Ok(wrap(ops::full(
                    rt,
                    &shape,
                    dt,
                    Scalar::F64(fill.unwrap_or(0.0)),
                )?))
            },
        );
        let like = format!("{name}_like");
        m.func(
            &like.clone(),
            &format!("{like}(a, dtype=None)"),
            "A new device array shaped like a.",
            move |rt, a| {
                let b = a.bind(&like, &["a", "dtype=", "order="])?;
                let (shape, dt0) = like_of(rt, arg(&b, 0).unwrap_or(&Value::None))?;
                let dt = dtype_or(rt, arg(&b, 1), dt0)?;
                Ok(wrap(ops::full(
                    rt,
                    &shape,
                    dt,
                    Scalar::F64(fill.unwrap_or(0.0)),
                )?))
            },
        );
    }
    m.func(
        "full",
        "full(shape, fill_value, dtype=None)",
        "A new device array filled with fill_value.",
        |rt, a| {
            let b = a.bind("full", &["shape", "fill_value", "dtype=", "order="])?;
            let shape = parse_shape(arg(&b, 0).unwrap_or(&Value::None))?;
            let v = scalar_of(rt, arg(&b, 1).unwrap_or(&Value::None))?;
            let dt = dtype_or(rt, arg(&b, 2), v.dtype())?;
            Ok(wrap(ops::full(rt, &shape, dt, v)?))
        },
    );
    m.func(
        "full_like",
        "full_like(a, fill_value, dtype=None)",
        "A new device array like a filled with fill_value.",
        |rt, a| {
            let b = a.bind("full_like", &["a", "fill_value", "dtype=", "order="])?;
            let (shape, dt0) = like_of(rt, arg(&b, 0).unwrap_or(&Value::None))?;
            let v = scalar_of(rt, arg(&b, 1).unwrap_or(&Value::None))?;
            let dt = dtype_or(rt, arg(&b, 2), dt0)?;
            Ok(wrap(ops::full(rt, &shape, dt, v)?))
        },
    );
    m.func(
        "arange",
        "arange(start, stop=None, step=1, dtype=None)",
        "Evenly spaced values, computed on the device.",
        |rt, a| {
            let b = a.bind("arange", &["start", "stop=", "step=", "dtype="])?;
            let nums: Vec<Option<&Value>> =
                vec![arg(&b, 0), arg(&b, 1).filter(|v| !v.is_none()), arg(&b, 2)];
            let is_float = nums.iter().flatten().any(|v| {
                matches!(v, Value::Float(_))
                    || matches!(v, Value::Scalar(s) if s.dtype().is_float())
            });
            let (start, stop) = match nums[1] {
                Some(stop) => (
                    nums[0].map(|v| v.as_f64()).transpose()?.unwrap_or(0.0),
                    stop.as_f64()?,
                ),
                None => (0.0, nums[0].map(|v| v.as_f64()).transpose()?.unwrap_or(0.0)),
            };
            let step = nums[2].map(|v| v.as_f64()).transpose()?.unwrap_or(1.0);
            if step == 0.0 {
                return Err(PyErr::zero_division("division by zero"));
            }
            let n = ((stop - start) / step).ceil().max(0.0) as usize;
            let dt = dtype_or(
                rt,
                arg(&b, 3),
                if is_float { DType::F64 } else { DType::I64 },
            )?;
            Ok(wrap(ops::arange(rt, start, step, n, dt)?))
        },
    );
    m.func(
        "linspace",
        "linspace(start, stop, num=50, endpoint=True, dtype=None)",
        "Evenly spaced values over an interval.",
        |rt, a| {
            let b = a.bind(
                "linspace",
                &["start", "stop", "num=", "endpoint=", "retstep=", "dtype="],
            )?;
            let start = arg(&b, 0).unwrap_or(&Value::Int(0)).as_f64()?;
            let stop = arg(&b, 1).unwrap_or(&Value::Int(0)).as_f64()?;
            let num = arg(&b, 2)
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(50)
                .max(0) as usize;
            let endpoint = !matches!(arg(&b, 3), Some(Value::Bool(false)));
            let div = if endpoint { num.saturating_sub(1) } else { num };
            let step = if div == 0 {
                0.0
            } else {
                (stop - start) / div as f64
            };
            let dt = dtype_or(rt, arg(&b, 5), DType::F64)?;
            Ok(wrap(ops::arange(rt, start, step, num, dt)?))
        },
    );
    for &name in ops::UNARY {
        m.func(
            name,
            &format!("{name}(x)"),
            "An elementwise ufunc computed on the device.",
            move |rt, a| {
                let b = a.bind(name, &["x", "out=", "dtype="])?;
                let x = arg(&b, 0).unwrap_or(&Value::None);
                let v = match operand(rt, x)? {
                    Some(Operand::Arr(v)) => v,
                    Some(_) => {
                        let h = hostconv::host_array(rt, x)?;
                        let d = api::alloc(rt, &h.shape, h.dtype, 0)?;
                        api::htod(rt, &h, &d, 0, Transfer::explicit(name))?;
                        d
                    }
                    None => {
                        return Err(PyErr::type_error(format!(
                            "Unsupported type {}",
                            x.type_name()
                        )))
                    }
                };
                Ok(wrap(ops::unary(rt, name, &v)?))
            },
        );
    }
    for (name, op) in [
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
    ] {
        m.func(
            name,
            &format!("{name}(x1, x2)"),
            "An elementwise ufunc computed on the device.",
            move |rt, a| {
                let b = a.bind(name, &["x1", "x2", "out=", "dtype="])?;
                let x = arg(&b, 0).unwrap_or(&Value::None);
                let y = arg(&b, 1).unwrap_or(&Value::None);
                match (operand(rt, x)?, operand(rt, y)?) {
                    (Some(p), Some(q)) => Ok(wrap(ops::binary_op(rt, op, p, q)?)),
                    _ => Err(PyErr::type_error("Unsupported type")),
                }
            },
        );
    }
    for name in [
        "sum", "prod", "mean", "min", "max", "amin", "amax", "std", "var", "argmax", "argmin",
        "any", "all",
    ] {
        let kind = Reduce::parse(name).expect("known reduction");
        m.func(
            name,
            &format!("{name}(a, axis=None)"),
            "A reduction computed on the device; returns a CuPy array.",
            move |rt, a| {
                let b = a.bind(name, &["a", "axis=", "dtype=", "out=", "keepdims="])?;
                let x = arg(&b, 0).unwrap_or(&Value::None);
                let v = match api::device_view(rt, x)? {
                    Some(v) if !matches!(x, Value::Array(_)) => v,
                    _ => {
                        return Err(PyErr::type_error(format!(
                            "Unsupported type {}",
                            x.type_name()
                        ))
                        .with_hint("Move host data to the device with cp.asarray(...) first."))
                    }
                };
                let axis = match arg(&b, 1) {
                    None | Some(Value::None) => None,
                    Some(x) => Some(x.as_index()?),
                };
                Ok(wrap(ops::reduce(rt, kind, &v, axis)?))
            },
        );
    }
    for d in DType::ALL {
        m.set(d.name(), Value::DType(d));
    }
    m.set("bool_", Value::DType(DType::Bool));
    m.set("cuda", Value::Module(cuda_submodule()));
    Rc::new(m)
}

/// `cupy.cuda`: just what notebooks use to wait for the device.
fn cuda_submodule() -> Rc<Module> {
    let m = Module::new("cupy.cuda", "CuPy's CUDA runtime helpers.");
    m.func(
        "Device",
        "Device(device=0)",
        "The device; .synchronize() waits for all its work.",
        |_, _| Ok(Value::object(CupyDevice)),
    );
    let rt_mod = Module::new("cupy.cuda.runtime", "CUDA runtime calls.");
    rt_mod.func(
        "deviceSynchronize",
        "deviceSynchronize()",
        "Wait for all work on the device.",
        |rt, _| {
            api::synchronize(rt)?;
            Ok(Value::None)
        },
    );
    m.set("runtime", Value::Module(Rc::new(rt_mod)));
    m.set("Stream", Value::object(StreamClass));
    Rc::new(m)
}

/// `cupy.cuda.Stream`: calling it makes a stream; `Stream.null` is the default stream.
struct StreamClass;

impl Object for StreamClass {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<class 'cupy.cuda.stream.Stream'>".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "null" => Some(Value::object(CupyStream { id: 0 })),
            _ => None,
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        args.bind("Stream", &["null=", "non_blocking=", "ptds="])?;
        let id = crate::devices::state::device(rt)?.backend().create_stream();
        Ok(Value::object(CupyStream { id }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A CuPy stream; `with s:` makes it current for CuPy operations.
struct CupyStream {
    id: u64,
}

impl Object for CupyStream {
    fn type_name(&self) -> String {
        "Stream".into()
    }
    fn module_name(&self) -> String {
        "cupy.cuda.stream".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<Stream {} (device 0)>", self.id))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "ptr" => Some(Value::Int(self.id as i64)),
            "synchronize" => Some(Value::method(
                &self,
                "Stream.synchronize",
                "synchronize()",
                "Wait for the work queued on this stream.",
                |s, rt, _| {
                    api::stream_synchronize(rt, s.id)?;
                    Ok(Value::None)
                },
            )),
            "use" => Some(Value::method(
                &self,
                "Stream.use",
                "use()",
                "Make this the current stream.",
                |s, rt, _| {
                    let st = rt.state::<ops::CupyStreams>();
                    st.stack.clear();
                    st.stack.push(s.id);
                    Ok(Value::object(CupyStream { id: s.id }))
                },
            )),
            "done" => Some(Value::Bool(
                crate::devices::state::device(_rt)?
                    .backend()
                    .stream_tail(self.id)
                    .is_none_or(|t| t.done()),
            )),
            _ => None,
        })
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        rt.state::<ops::CupyStreams>().stack.push(self.id);
        Ok(Value::object(CupyStream { id: self.id }))
    }
    fn exit(&self, rt: &mut Runtime, _e: Option<&PyErr>) -> PyResult<bool> {
        rt.state::<ops::CupyStreams>().stack.pop();
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct CupyDevice;

impl Object for CupyDevice {
    fn type_name(&self) -> String {
        "Device".into()
    }
    fn module_name(&self) -> String {
        "cupy.cuda.device".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<CUDA Device 0>".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "synchronize" => Some(Value::builtin(
                "Device.synchronize",
                "synchronize()",
                "Wait for all work on the device.",
                |rt, _| {
                    api::synchronize(rt)?;
                    Ok(Value::None)
                },
            )),
            "id" => Some(Value::Int(0)),
            _ => None,
        })
    }
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        Ok(Value::object(CupyDevice))
    }
    fn exit(&self, _rt: &mut Runtime, _e: Option<&PyErr>) -> PyResult<bool> {
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
