//! The `numpy` module: dtype objects, creation, shape and joining functions, ufuncs and
//! reductions, `np.random`, `np.testing`.
//!
//! | file | holds |
//! |---|---|
//! | `calculus.rs` | `np.diff` and `np.gradient`: slices of the input combined by the ufuncs in NumPy's order, uniform or coordinate spacing, edge order 1 or 2. |
//! | `complex_funcs.rs` | `np.real`, `np.imag` and `np.angle` (with `deg=`) on Python numbers, NumPy scalars, sequences and arrays, real or complex. |
//! | `counting.rs` | `np.searchsorted` (`side`, `sorter`), `np.digitize`, `np.bincount` (`weights`, `minlength`) and `np.ptp`: binary search with NaN ordered last, counts into checked allocations. |
//! | `creation.rs` | Array creation: `array`/`asarray` and their layout variants, `copy`, `arange`, `linspace`, `zeros`/`ones`/`empty` (and `_like`), `full`, `full_like`, `eye`. |
//! | `errstate.rs` | `np.seterr`, `np.geterr` and `np.errstate`: floating-point error modes, kept and reported as NumPy does (no error is detected, so the modes that promise an action are refused). |
//! | `funcs.rs` | Shape manipulation, joining and selection functions, and the registration of every numpy function. |
//! | `grids.rs` | `np.meshgrid`, `np.logspace`, `np.geomspace`, `np.identity`: grids as broadcast views, sequences as `linspace` raised by `power`. |
//! | `joins.rs` | `column_stack`, `row_stack`, `dstack`, `atleast_1d/2d/3d`, `split`/`array_split`/`hsplit`/`vsplit`/`dsplit`, `append`, `broadcast_arrays`: pieces as views, joins as one `concatenate`. |
//! | `limits.rs` | `np.finfo`: machine limits of the floating types, as NumPy reports them. |
//! | `misc.rs` | The rest of the `numpy` module: closeness and equality tests, `dot`, dtype helpers and array properties as functions. |
//! | `moments.rs` | `np.average` (weights, `returned`), `np.cov` and `np.corrcoef` in NumPy's order of operations. |
//! | `nanfuncs.rs` | The NaN-ignoring reductions (`nansum`, `nanprod`, `nancumsum`, `nancumprod`, `nanmean`, `nanvar`, `nanstd`, `nanargmin`, `nanargmax`): NaNs replaced by a neutral value, then the ordinary reduction, as NumPy does. |
//! | `npy_io.rs` | `np.save` and `np.load`: the `.npy` format byte for byte as NumPy writes version 1.0, read in versions 1 to 3, C or Fortran order, either byte order; malformed headers are ValueErrors. |
//! | `npz.rs` | `np.savez`, `np.savez_compressed` and the `NpzFile` `np.load` returns for a `.npz` zip: stored or deflated members, checked offsets. |
//! | `stats.rs` | Order statistics: `np.median`, `np.quantile`, `np.percentile` and their `nan` variants over the flattened array, an axis or a tuple of axes. |
//! | `setops.rs` | Set operations: `np.isin`, `np.in1d`, `np.union1d`, `np.intersect1d` (`return_indices`), `np.setdiff1d`, `np.setxor1d`. |
//! | `shape.rs` | Axis rearrangement: `moveaxis`, `swapaxes`, `expand_dims`, `squeeze`, `roll`, `flip`, `rot90`, `diagonal`, `trace`, `diag`, `triu`/`tril`, `outer`, `kron`, as views or compositions of views, copies and ufuncs. |
//! | `sorting.rs` | Sorting along any axis, `np.unique`'s optional outputs, and a histogram's weighted and density values. |
//! | `pyfunc.rs` | `np.vectorize` and `np.frompyfunc`: a Python function called once per element of the broadcast inputs; without `otypes` the first result decides the output dtype, as in NumPy. |
//! | `random.rs` | `np.random`: NumPy's legacy RandomState stream (MT19937 seeded like `np.random.seed`, 53-bit doubles from two draws, the polar Box–Muller gauss with its cached second value, masked rejection for randint, shuffle, permutation and choice), so seeded results equal NumPy's bit for bit. |
//! | `random_generator.rs` | `np.random.default_rng`'s `Generator` on NumPy's stream: SeedSequence, PCG64, Lemire's bounded integers, shuffles and `permutation`. |
//! | `text_io.rs` | `np.savetxt` and `np.loadtxt`: delimited text with NumPy's formats, comments, header/footer, column selection, dtypes, `unpack`, `ndmin` and error messages. |
//! | `testing.rs` | `np.testing`: assert_allclose, assert_array_equal, assert_equal, assert_almost_equal, raising AssertionError with NumPy-like reports. |
//! | `ufunc_object.rs` | NumPy's binary ufuncs as objects (`np.add`, `np.maximum`, ...): the call, and `reduce`, `accumulate` and `outer` (through `sum`/`prod`/`max`/`min`/`all`/`any`/`cumsum`/`cumprod` where NumPy defines them so, else folding the operation along the axis). |
//! | `ufuncs.rs` | The ufuncs and reductions of the `numpy` module (`np.add`, `np.sin`, `np.round`, `np.sum`, ...): argument handling around the kernels of [`crate::arrays::ufunc`] and [`crate::arrays::reduce`]. |
//!
//! `mod.rs`:
//! The `numpy` module (`import numpy as np`): dtype type objects, constants, and the
//! registration of every function (implemented in `funcs`, `ufuncs`, `misc`, `limits`, `pyfunc`, `random`,
//! `testing`).

pub mod calculus;
pub mod complex_funcs;
pub mod counting;
pub mod creation;
pub mod errstate;
pub mod funcs;
pub mod grids;
pub mod joins;
pub mod limits;
pub mod linalg;
pub mod misc;
pub mod moments;
pub mod nanfuncs;
pub mod npy_io;
pub mod npz;
pub mod pyfunc;
pub mod random;
pub mod random_generator;
pub mod setops;
pub mod shape;
pub mod sorting;
pub mod stats;
pub mod testing;
pub mod text_io;
pub mod ufunc_object;
pub mod ufuncs;

use std::any::Any;
use std::rc::Rc;

use crate::arrays::dtype::DType;
use crate::arrays::NdArray;
use crate::numpy::funcs as f;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Module, Value};

/// `np.float32` and friends: a type object. Calling it makes a NumPy scalar (or casts an
/// array); its `dtype` attribute makes it usable wherever a dtype is accepted.
pub struct NpType(pub DType);

fn type_name_of(d: DType) -> &'static str {
    if d == DType::Bool {
        "bool"
    } else {
        d.name()
    }
}

impl crate::py::value::Object for NpType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<class 'numpy.{}'>", type_name_of(self.0)))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "dtype" => Some(Value::DType(self.0)),
            "__name__" => Some(Value::str(type_name_of(self.0))),
            "itemsize" => Some(Value::Int(self.0.itemsize() as i64)),
            _ => None,
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let v = args.pos.first().cloned().unwrap_or(Value::Int(0));
        if let Value::Str(s) = &v {
            let t = s.trim();
            let parsed = if self.0.is_float() {
                t.parse::<f64>().ok().map(Value::Float)
            } else {
                t.parse::<i64>().ok().map(Value::Int)
            };
            let p = parsed.ok_or_else(|| {
                PyErr::value_error(format!(
                    "could not convert string to {}: '{s}'",
                    self.0.name()
                ))
            })?;
            return Ok(Value::Scalar(
                crate::py::value::python_scalar(&p)?.cast(self.0),
            ));
        }
        // A Python int must fit the type (NumPy 2: `np.uint8(300)` is OverflowError);
        // other values cast as `astype` does.
        let a = match v {
            Value::Int(_) | Value::BigInt(_) | Value::Complex(..) => {
                crate::py::ndarray_attrs::to_ndarray_dtype(rt, &v, Some(self.0))?
            }
            _ => crate::py::ndarray_attrs::to_ndarray(rt, &v)?,
        };
        crate::py::ndarray_attrs::warn_complex_cast(rt, a.dtype, self.0)?;
        let c = crate::arrays::elem::cast(&a, self.0)?;
        Ok(crate::py::ndarray_attrs::wrap_result(c))
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(
            crate::py::ndarray_attrs::dtype_from_value(rt, other).ok() == Some(self.0),
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `np.ndarray` and the abstract scalar classes (`np.floating`, `np.integer` ...): usable
/// with `isinstance` / `np.issubdtype`; calling `np.ndarray(shape, dtype)` makes an array.
pub struct NpClass(pub &'static str);

impl NpClass {
    /// Does dtype `d` belong to this class?
    pub fn contains(&self, d: DType) -> bool {
        match self.0 {
            "floating" | "inexact" => d.is_float(),
            "integer" => d.is_integer(),
            "signedinteger" => d.is_signed(),
            "unsignedinteger" => d.is_integer() && !d.is_signed(),
            "number" => d != DType::Bool,
            "generic" | "ndarray" => true,
            _ => false,
        }
    }
}

impl crate::py::value::Object for NpClass {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<class 'numpy.{}'>", self.0))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" => Some(Value::str(self.0)),
            _ => None,
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        if self.0 != "ndarray" {
            return Err(PyErr::type_error(format!(
                "cannot create 'numpy.{}' instances",
                self.0
            )));
        }
        ndarray_new(rt, args)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The attribute names under which each dtype's type object is registered.
const TYPES: &[(&str, DType)] = &[
    ("bool_", DType::Bool),
    ("bool", DType::Bool),
    ("int8", DType::I8),
    ("int16", DType::I16),
    ("int32", DType::I32),
    ("int64", DType::I64),
    ("intc", DType::I32),
    ("intp", DType::I64),
    ("int_", DType::I64),
    ("uint8", DType::U8),
    ("uint16", DType::U16),
    ("uint32", DType::U32),
    ("uint64", DType::U64),
    ("uintp", DType::U64),
    ("float16", DType::F16),
    ("half", DType::F16),
    ("float32", DType::F32),
    ("single", DType::F32),
    ("float64", DType::F64),
    ("double", DType::F64),
    ("float_", DType::F64),
    ("complex64", DType::C64),
    ("csingle", DType::C64),
    ("complex128", DType::C128),
    ("cdouble", DType::C128),
    // C type names, as NumPy 2 maps them on 64-bit Linux.
    ("byte", DType::I8),
    ("ubyte", DType::U8),
    ("short", DType::I16),
    ("ushort", DType::U16),
    ("uintc", DType::U32),
    ("long", DType::I64),
    ("ulong", DType::U64),
    ("longlong", DType::I64),
    ("ulonglong", DType::U64),
    ("uint", DType::U64),
];

thread_local! {
    static MODULE: Rc<Module> = build();
}

/// Build the `numpy` module (with `np.random` and `np.testing`).
pub fn module() -> Rc<Module> {
    MODULE.with(|m| m.clone())
}

/// A module-level function by name (ndarray methods that forward to it).
pub fn function(name: &str) -> Option<Value> {
    module().get(name)
}

/// Call a function of the numpy module, as Python code would: bindings built from others
/// (a grid from `linspace` and `power`) go through the same argument handling.
pub(crate) fn np_call(
    rt: &mut Runtime,
    name: &str,
    pos: Vec<Value>,
    kw: Vec<(&str, Value)>,
) -> PyResult<Value> {
    let f = function(name).ok_or_else(|| PyErr::internal(format!("numpy.{name} is missing")))?;
    let mut args = Args::new(pos);
    args.kw = kw.into_iter().map(|(k, v)| (k.into(), v)).collect();
    rt.call(&f, args)
}

fn build() -> Rc<Module> {
    let m = Module::new("numpy", "NumPy host arrays (nbcuda's implementation).");
    // NumPy's aliases are the same type objects (`np.double is np.float64`), except
    // `longlong` and `ulonglong`: C's `long long` is a type of its own there.
    let mut made: Vec<(DType, Value)> = Vec::new();
    for (name, d) in TYPES {
        let shared = !matches!(*name, "longlong" | "ulonglong");
        let v = match made.iter().find(|(k, _)| k == d).filter(|_| shared) {
            Some((_, v)) => v.clone(),
            None if !shared => Value::object(NpType(*d)),
            None => {
                let v = Value::object(NpType(*d));
                made.push((*d, v.clone()));
                v
            }
        };
        m.set(name, v);
    }
    m.set("pi", Value::Float(std::f64::consts::PI));
    m.set("e", Value::Float(std::f64::consts::E));
    m.set("nan", Value::Float(f64::NAN));
    m.set("NaN", Value::Float(f64::NAN));
    m.set("inf", Value::Float(f64::INFINITY));
    m.set("Inf", Value::Float(f64::INFINITY));
    m.set("newaxis", Value::None);
    m.set("__version__", Value::str("2.3.5"));
    for c in [
        "ndarray",
        "generic",
        "number",
        "integer",
        "signedinteger",
        "unsignedinteger",
        "floating",
        "inexact",
    ] {
        m.set(c, Value::object(NpClass(c)));
    }
    m.def(
        crate::py::signature::Style::Function,
        "issubdtype",
        "arg1, arg2",
        "Is the first dtype a sub-type of the second (a dtype or an abstract class)?",
        |rt, b| {
            let d = crate::py::ndarray_attrs::dtype_from_value(
                rt,
                b[0].as_ref().unwrap_or(&Value::None),
            )?;
            let cls = b[1].clone().unwrap_or(Value::None);
            if let Some(c) = cls.downcast::<NpClass>() {
                return Ok(Value::Bool(c.contains(d)));
            }
            Ok(Value::Bool(
                crate::py::ndarray_attrs::dtype_from_value(rt, &cls)? == d,
            ))
        },
    );
    f::register(&m);
    crate::numpy::complex_funcs::register(&m);
    crate::numpy::limits::register(&m);
    crate::numpy::errstate::register(&m);
    crate::numpy::npy_io::register(&m);
    crate::numpy::npz::register(&m);
    crate::numpy::text_io::register(&m);
    m.set("linalg", Value::Module(crate::numpy::linalg::module()));
    crate::numpy::pyfunc::register(&m);
    // npstats: statistics, set operations, sorting extras, print options, decompositions.
    crate::numpy::stats::register(&m);
    crate::numpy::nanfuncs::register(&m);
    crate::numpy::moments::register(&m);
    crate::numpy::setops::register(&m);
    m.set("random", Value::Module(crate::numpy::random::module()));
    m.set("testing", Value::Module(crate::numpy::testing::module()));
    Rc::new(m)
}

/// `np.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None)`: a
/// new array, or a view of `buffer`'s bytes (another host array, shared, as NumPy's buffer
/// protocol shares it). Strides must keep every element inside the memory.
fn ndarray_new(rt: &mut Runtime, args: Args) -> PyResult<Value> {
    let b = args.bind(
        "ndarray",
        &[
            "shape", "dtype=", "buffer=", "offset=", "strides=", "order=",
        ],
    )?;
    let given = |i: usize| b[i].as_ref().filter(|v| !v.is_none());
    let shape = crate::py::ndarray_shape::new_shape(b[0].as_ref().unwrap_or(&Value::None))?;
    let d = match given(1) {
        Some(v) => crate::py::ndarray_attrs::dtype_from_value(rt, v)?,
        None => DType::F64,
    };
    let isz = d.itemsize();
    let fortran = match given(5).map(|v| v.as_str()) {
        None | Some(Some("C")) => false,
        Some(Some("F")) => true,
        _ => return Err(PyErr::value_error("order must be 'C' or 'F'")),
    };
    let strides: Vec<isize> = match given(4) {
        Some(v) => {
            let st: Vec<isize> = rt
                .iterate(v)?
                .iter()
                .map(|x| x.as_index().map(|n| n as isize))
                .collect::<PyResult<_>>()?;
            if st.len() != shape.len() {
                return Err(PyErr::value_error(
                    "strides, if given, must be the same length as shape",
                ));
            }
            st
        }
        None if fortran => NdArray::f_strides(&shape, isz),
        None => NdArray::c_strides(&shape, isz),
    };
    let offset = given(3).map(|v| v.as_index()).transpose()?.unwrap_or(0);
    if offset < 0 {
        return Err(PyErr::value_error(
            "offset must be non-negative and no greater than buffer length",
        ));
    }
    let offset = offset as usize;
    let (base, len) = match given(2) {
        Some(Value::Array(a)) => {
            if !a.is_c_contiguous() && a.size() > 1 {
                return Err(PyErr::value_error("ndarray is not contiguous"));
            }
            (a.as_ref().clone(), a.nbytes())
        }
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "a bytes-like object is required, not '{}'",
                other.type_name()
            )))
        }
        None => {
            if offset != 0 {
                return Err(PyErr::value_error("offset needs a buffer"));
            }
            let n: usize = shape.iter().product();
            let a = crate::arrays::elem::new_array(&[n], d)?;
            let len = a.nbytes();
            (a, len)
        }
    };
    // The span of bytes the elements reach, relative to element [0, ...].
    let (mut lo, mut hi) = (0isize, 0isize);
    let empty = shape.contains(&0);
    for (&n, &st) in shape.iter().zip(&strides) {
        let reach = (n as isize - 1).saturating_mul(st);
        if reach < 0 {
            lo = lo.saturating_add(reach);
        } else {
            hi = hi.saturating_add(reach);
        }
    }
    let off = offset as isize;
    let fits = empty
        || (off.saturating_add(lo) >= 0
            && off.saturating_add(hi).saturating_add(isz as isize) <= len as isize);
    if !fits {
        return Err(PyErr::type_error(if given(2).is_some() {
            "buffer is too small for requested array"
        } else {
            "strides is incompatible with shape of requested array and size of buffer"
        }));
    }
    crate::arrays::index::check_aligned(base.offset + offset, &shape, &strides, d)?;
    Ok(Value::Array(Box::new(NdArray {
        buf: base.buf.clone(),
        offset: base.offset + offset,
        shape,
        strides,
        dtype: d,
        view: true,
    })))
}
