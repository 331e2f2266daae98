//! Structured arrays whose fields are all `uint64`: what Numba's
//! `create_xoroshiro128p_states` returns (`xoroshiro128p_dtype`, fields `s0` and `s1`).
//!
//! The records are kept as an `(n, fields)` uint64 array, which is how a kernel reads the
//! states and keeps slicing a view; only the Python face is NumPy's structured array:
//! `shape` `(n,)`, a record is an `np.void`, `a['s0']` is a strided view of one field,
//! NumPy 2's repr and str, `==`, `tolist()` and `np.unique`. Other structured dtypes are
//! not modelled (NumPy's general record machinery is out of scope).

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{from_vec, read_vec, B8};
use crate::arrays::operator::BinOp;
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::array_getitem;
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// A structured dtype of `uint64` fields, laid out back to back.
pub struct RecordDType {
    pub names: &'static [&'static str],
    pub aligned: bool,
}

/// Numba's `xoroshiro128p_dtype`: `np.dtype([('s0', np.uint64), ('s1', np.uint64)], align=True)`.
pub static XOROSHIRO128P: RecordDType = RecordDType {
    names: &["s0", "s1"],
    aligned: true,
};

impl RecordDType {
    pub fn fields(&self) -> usize {
        self.names.len()
    }
    pub fn itemsize(&self) -> usize {
        8 * self.fields()
    }
    fn field_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| *n == name)
    }
    /// NumPy's dict form, which its array repr and `str(dtype)` use for aligned structs.
    fn spec(&self) -> String {
        let list =
            |f: &dyn Fn(usize) -> String| (0..self.fields()).map(f).collect::<Vec<_>>().join(", ");
        let names = list(&|i| format!("'{}'", self.names[i]));
        let formats = list(&|_| "'<u8'".to_string());
        let offsets = list(&|i| (8 * i).to_string());
        let aligned = if self.aligned {
            ", 'aligned': True"
        } else {
            ""
        };
        format!(
            "{{'names': [{names}], 'formats': [{formats}], 'offsets': [{offsets}], 'itemsize': {}{aligned}}}",
            self.itemsize()
        )
    }
    fn descr(&self) -> String {
        let fields = (0..self.fields())
            .map(|i| format!("('{}', '<u8')", self.names[i]))
            .collect::<Vec<_>>()
            .join(", ");
        format!("[{fields}]")
    }
}

/// `states.dtype`.
pub struct RecordDTypeObj(pub &'static RecordDType);

impl Object for RecordDTypeObj {
    fn type_name(&self) -> String {
        "VoidDType".into()
    }
    fn module_name(&self) -> String {
        "numpy.dtypes".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let align = if self.0.aligned { ", align=True" } else { "" };
        Ok(format!("dtype({}{align})", self.0.descr()))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(if self.0.aligned {
            self.0.spec()
        } else {
            self.0.descr()
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let d = self.0;
        Ok(Some(match name {
            "names" => Value::tuple(d.names.iter().map(|n| Value::str(n)).collect()),
            "itemsize" => Value::Int(d.itemsize() as i64),
            "kind" | "char" => Value::str("V"),
            "name" => Value::str(&format!("void{}", 8 * d.itemsize())),
            "isalignedstruct" => Value::Bool(d.aligned),
            "fields" => {
                let mut map = crate::py::dict::Dict::default();
                for (i, n) in d.names.iter().enumerate() {
                    let entry =
                        Value::tuple(vec![Value::DType(DType::U64), Value::Int(8 * i as i64)]);
                    map.insert_str(n, entry);
                }
                Value::Dict(Rc::new(std::cell::RefCell::new(map)))
            }
            _ => return Ok(None),
        }))
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(match other {
            Value::Object(o) => o
                .as_any()
                .downcast_ref::<RecordDTypeObj>()
                .is_some_and(|d| std::ptr::eq(d.0, self.0)),
            _ => false,
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A host structured array: `data` has the record shape plus one axis of fields.
pub struct RecordArray {
    pub data: NdArray,
    pub layout: &'static RecordDType,
}

/// One record (`np.void`): its field values.
pub struct RecordScalar {
    values: Vec<u64>,
    layout: &'static RecordDType,
}

fn bad_layout() -> PyErr {
    PyErr::type_error("a record array must hold uint64 fields")
}

impl RecordArray {
    pub fn new(data: NdArray, layout: &'static RecordDType) -> PyResult<RecordArray> {
        if data.dtype != DType::U64 || data.shape.last() != Some(&layout.fields()) {
            return Err(bad_layout());
        }
        Ok(RecordArray { data, layout })
    }
    pub fn value(data: NdArray, layout: &'static RecordDType) -> PyResult<Value> {
        Ok(Value::object(RecordArray::new(data, layout)?))
    }
    /// The record array behind a value, if it is one.
    pub fn of(v: &Value) -> Option<&RecordArray> {
        match v {
            Value::Object(o) => o.as_any().downcast_ref::<RecordArray>(),
            _ => None,
        }
    }
    fn shape(&self) -> &[usize] {
        &self.data.shape[..self.data.shape.len() - 1]
    }
    fn count(&self) -> usize {
        self.shape().iter().product()
    }
    /// Every record's fields, in C order.
    pub fn rows(&self) -> Vec<Vec<u64>> {
        read_vec::<u64>(&self.data)
            .chunks(self.layout.fields())
            .map(|c| c.to_vec())
            .collect()
    }
    /// A new C-contiguous record array of `rows`.
    pub fn from_rows(rows: &[Vec<u64>], layout: &'static RecordDType) -> PyResult<Value> {
        let flat: Vec<u64> = rows.iter().flatten().copied().collect();
        let data = from_vec(&[rows.len(), layout.fields()], &flat)?;
        RecordArray::value(data, layout)
    }
    /// NumPy's layout of the records' text: fields right-aligned to their widest value,
    /// lines wrapped at 75 columns, and only the first and last three of more than 1000.
    fn text(&self, repr: bool) -> PyResult<String> {
        if self.shape().len() != 1 {
            return Err(PyErr::not_implemented(
                "printing record arrays of more than one dimension",
            ));
        }
        let rows = self.rows();
        let summarise = rows.len() > 1000;
        let shown: Vec<&Vec<u64>> = if summarise {
            rows[..3]
                .iter()
                .chain(rows[rows.len() - 3..].iter())
                .collect()
        } else {
            rows.iter().collect()
        };
        let widths: Vec<usize> = (0..self.layout.fields())
            .map(|f| {
                shown
                    .iter()
                    .map(|r| r[f].to_string().len())
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        let word = |r: &Vec<u64>| {
            let cells: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(v, w)| format!("{v:>w$}"))
                .collect();
            format!("({})", cells.join(", "))
        };
        let (indent, sep) = if repr { (7, ", ") } else { (1, " ") };
        let mut words: Vec<String> = shown.iter().map(|r| word(r)).collect();
        if summarise {
            words.insert(3, "...".into());
        }
        let pad = " ".repeat(indent); // bounded: the prefix width, 1 or 7
                                      // NumPy leaves room for the separator after every word but the last, which needs
                                      // room for the closing bracket.
        let (width, last_width) = (75 - sep.trim_end().len(), 74);
        let mut out = String::new();
        let mut line = pad.clone();
        for (i, w) in words.iter().enumerate() {
            let last = i + 1 == words.len();
            let limit = if last { last_width } else { width };
            if line.len() + w.len() > limit && line.len() > indent {
                out.push_str(line.trim_end());
                out.push('\n');
                line = pad.clone();
            }
            line.push_str(w);
            if !last {
                line.push_str(sep);
            }
        }
        out.push_str(&line);
        let body = &out[indent..];
        Ok(if repr {
            let shape = if summarise {
                format!("shape=({},), ", rows.len())
            } else {
                String::new()
            };
            format!(
                "array([{body}],\n      {shape}dtype={})",
                self.layout.spec()
            )
        } else {
            format!("[{body}]")
        })
    }
    fn record(&self, row: Vec<u64>) -> Value {
        Value::object(RecordScalar {
            values: row,
            layout: self.layout,
        })
    }
    fn field_view(&self, f: usize) -> NdArray {
        let n = self.data.shape.len() - 1;
        NdArray {
            offset: (self.data.offset as isize + f as isize * self.data.strides[n]) as usize,
            shape: self.data.shape[..n].to_vec(),
            strides: self.data.strides[..n].to_vec(),
            view: true,
            ..self.data.clone()
        }
    }
    /// `a == b` record by record, `b` a record array (broadcast when it has one record)
    /// or one record.
    fn equal(&self, other: &Value) -> Option<Vec<bool>> {
        let mine = self.rows();
        let theirs: Vec<Vec<u64>> = match other {
            Value::Object(o) => {
                if let Some(r) = o.as_any().downcast_ref::<RecordScalar>() {
                    vec![r.values.clone()]
                } else {
                    o.as_any().downcast_ref::<RecordArray>()?.rows()
                }
            }
            _ => return None,
        };
        match theirs.len() {
            1 => Some(mine.iter().map(|r| *r == theirs[0]).collect()),
            n if n == mine.len() => Some(mine.iter().zip(&theirs).map(|(a, b)| a == b).collect()),
            _ => None,
        }
    }
}

/// `np.array_equal` and `np.testing.assert_array_equal` of record arrays: None unless both
/// are record arrays; else how many records differ, out of how many (shapes that differ
/// count as all different).
pub fn mismatches(a: &Value, b: &Value) -> Option<(usize, usize)> {
    let (x, y) = (RecordArray::of(a)?, RecordArray::of(b)?);
    let (p, q) = (x.rows(), y.rows());
    if x.shape() != y.shape() || x.layout.names != y.layout.names {
        return Some((p.len().max(1), p.len().max(1)));
    }
    Some((p.iter().zip(&q).filter(|(r, s)| r != s).count(), p.len()))
}

/// `np.unique` of a record array: the distinct records, sorted field by field.
pub fn unique(a: &RecordArray) -> PyResult<Value> {
    let mut rows = a.rows();
    rows.sort();
    rows.dedup();
    RecordArray::from_rows(&rows, a.layout)
}

fn ints(v: &[usize]) -> Value {
    Value::tuple(v.iter().map(|&n| Value::Int(n as i64)).collect())
}

impl Object for RecordArray {
    fn type_name(&self) -> String {
        "ndarray".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        self.text(true)
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        self.text(false)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let n = self.data.shape.len() - 1;
        Ok(Some(match name {
            "shape" => ints(self.shape()),
            "strides" => Value::tuple(
                self.data.strides[..n]
                    .iter()
                    .map(|&s| Value::Int(s as i64))
                    .collect(),
            ),
            "size" => Value::Int(self.count() as i64),
            "ndim" => Value::Int(n as i64),
            "itemsize" => Value::Int(self.layout.itemsize() as i64),
            "nbytes" => Value::Int((self.count() * self.layout.itemsize()) as i64),
            "dtype" => Value::object(RecordDTypeObj(self.layout)),
            "tolist" => Value::method(
                &self,
                "ndarray.tolist",
                "tolist()",
                "The records as a list of tuples.",
                |a, _, args| {
                    args.bind("tolist", &[])?;
                    let rows = a.rows();
                    Ok(Value::list(
                        rows.into_iter()
                            .map(|r| Value::tuple(r.into_iter().map(u64_int).collect()))
                            .collect(),
                    ))
                },
            ),
            "copy" => Value::method(
                &self,
                "ndarray.copy",
                "copy()",
                "A copy of the records.",
                |a, _, args| {
                    args.bind("copy", &[])?;
                    RecordArray::from_rows(&a.rows(), a.layout)
                },
            ),
            _ => return Ok(None),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        if let Value::Str(s) = key {
            return match self.layout.field_index(s) {
                Some(f) => Ok(Value::Array(Box::new(self.field_view(f)))),
                None => Err(PyErr::value_error(format!("no field of name {s}"))),
            };
        }
        if !matches!(key, Value::Int(_) | Value::Slice(_) | Value::Scalar(_)) {
            return Err(PyErr::not_implemented(
                "record arrays are indexed by an integer, a slice or a field name",
            ));
        }
        match array_getitem(&self.data, key, rt)? {
            Value::Array(ref a) if a.shape.len() == 1 => Ok(self.record(read_vec::<u64>(a))),
            Value::Array(ref a) => RecordArray::value(a.as_ref().clone(), self.layout),
            _ => Err(bad_layout()),
        }
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        match self.shape().first() {
            Some(&n) => Ok(Some(n)),
            None => Err(PyErr::type_error("len() of unsized object")),
        }
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        if self.shape().len() != 1 {
            return Err(PyErr::not_implemented(
                "iterating record arrays of more than one dimension",
            ));
        }
        Ok(Some(
            self.rows().into_iter().map(|r| self.record(r)).collect(),
        ))
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        _reflected: bool,
        _rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let ne = match op {
            BinOp::Eq => false,
            BinOp::Ne => true,
            _ => return Ok(None),
        };
        match self.equal(other) {
            Some(eq) => {
                let v: Vec<B8> = eq.into_iter().map(|e| B8((e != ne) as u8)).collect();
                Ok(Some(Value::Array(Box::new(from_vec(&[v.len()], &v)?))))
            }
            None => Ok(None),
        }
    }
    fn dir(&self) -> Vec<String> {
        [
            "shape", "strides", "size", "ndim", "itemsize", "nbytes", "dtype", "tolist", "copy",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A field value as `tolist()` gives it: a Python int.
fn u64_int(v: u64) -> Value {
    crate::py::bigint::from_i128(v as i128)
}

impl Object for RecordScalar {
    fn type_name(&self) -> String {
        "void".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "np.void({}, dtype={})",
            self.text(),
            self.layout.spec()
        ))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.text())
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let i = match key {
            Value::Str(s) => self
                .layout
                .field_index(s)
                .ok_or_else(|| PyErr::new("KeyError", format!("'{s}'")))?,
            k => {
                let n = self.values.len() as i64;
                let i = k.as_index()?;
                let j = if i < 0 { i + n } else { i };
                if !(0..n).contains(&j) {
                    return Err(PyErr::new("IndexError", format!("invalid index {i}")));
                }
                j as usize
            }
        };
        Ok(Value::Scalar(Scalar::U64(self.values[i])))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.values.len()))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(
            self.values
                .iter()
                .map(|&v| Value::Scalar(Scalar::U64(v)))
                .collect(),
        ))
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(match other {
            Value::Object(o) => o
                .as_any()
                .downcast_ref::<RecordScalar>()
                .map(|r| r.values == self.values),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl RecordScalar {
    fn text(&self) -> String {
        let cells: Vec<String> = self.values.iter().map(|v| v.to_string()).collect();
        format!("({})", cells.join(", "))
    }
}
