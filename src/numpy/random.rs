//! `np.random`: NumPy's legacy RandomState stream (MT19937 seeded like `np.random.seed`,
//! 53-bit doubles from two draws, the polar Box–Muller gauss with its cached second value,
//! masked rejection for randint, `random_interval` for shuffle and permutation), so seeded
//! results equal NumPy's bit for bit. `default_rng`'s Generator is in
//! `random_generator.rs`.

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::new_array;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_ndarray};
use crate::py::ndarray_shape::new_shape;
use crate::py::runtime::Runtime;
use crate::py::signature::{Bound, Style::Cython};
use crate::py::value::{Module, Value};

const N: usize = 624;
const M: usize = 397;

/// MT19937 with NumPy's legacy gauss cache.
#[derive(Clone)]
pub struct Mt19937 {
    key: [u32; N],
    pos: usize,
    gauss: Option<f64>,
}

impl Mt19937 {
    /// `np.random.seed(seed)` for an integer seed (NumPy's `mt19937_seed`).
    pub fn new(seed: u32) -> Mt19937 {
        let mut key = [0u32; N];
        let mut s = seed;
        for (i, k) in key.iter_mut().enumerate() {
            *k = s;
            s = 1812433253u32
                .wrapping_mul(s ^ (s >> 30))
                .wrapping_add(i as u32 + 1);
        }
        Mt19937 {
            key,
            pos: N,
            gauss: None,
        }
    }

    /// Seeding from an array of words (`np.random.seed([1, 2, 3])`): init_by_array.
    pub fn from_array(words: &[u32]) -> Mt19937 {
        let mut mt = Mt19937::new(19650218);
        let key = &mut mt.key;
        let (mut i, mut j) = (1usize, 0usize);
        let len = words.len().max(1);
        for _ in 0..N.max(len) {
            key[i] = (key[i] ^ (key[i - 1] ^ (key[i - 1] >> 30)).wrapping_mul(1664525))
                .wrapping_add(*words.get(j).unwrap_or(&0))
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                key[0] = key[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            key[i] = (key[i] ^ (key[i - 1] ^ (key[i - 1] >> 30)).wrapping_mul(1566083941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                key[0] = key[N - 1];
                i = 1;
            }
        }
        key[0] = 0x8000_0000;
        mt
    }

    fn generate(&mut self) {
        let k = &mut self.key;
        for i in 0..N {
            let y = (k[i] & 0x8000_0000) | (k[(i + 1) % N] & 0x7fff_ffff);
            let mut v = k[(i + M) % N] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_b0df;
            }
            k[i] = v;
        }
        self.pos = 0;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.generate();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in [0, 1) with 53 random bits.
    pub fn next_double(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) / 9007199254740992.0
    }

    /// Legacy polar Box–Muller with the cached second value.
    pub fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.next_double() - 1.0;
            let x2 = 2.0 * self.next_double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// Legacy bounded integer in [0, rng] by masked rejection.
    pub fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            return 0;
        }
        let mut mask = rng;
        for s in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> s;
        }
        if rng <= 0xffff_ffff {
            if rng == 0xffff_ffff {
                return self.next_u32() as u64;
            }
            loop {
                let v = (self.next_u32() as u64) & mask;
                if v <= rng {
                    return v;
                }
            }
        }
        loop {
            let hi = self.next_u32() as u64;
            let lo = self.next_u32() as u64;
            let v = ((hi << 32) | lo) & mask;
            if v <= rng {
                return v;
            }
        }
    }
}

/// The global RandomState behind `np.random.*` (seeded from the clock until `seed` is called).
struct Global(Mt19937);

impl Default for Global {
    fn default() -> Self {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u32)
            .unwrap_or(5489);
        Global(Mt19937::new(t))
    }
}

pub(crate) fn size_of(v: Option<&Value>) -> PyResult<Option<Vec<usize>>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(s) => Ok(Some(new_shape(s)?)),
    }
}

pub(crate) fn fill_f64(size: Option<Vec<usize>>, mut f: impl FnMut() -> f64) -> PyResult<Value> {
    match size {
        None => Ok(Value::Float(f())),
        Some(shape) => {
            // The array first: a size too big is NumPy's MemoryError before any work.
            let out = new_array(&shape, crate::arrays::dtype::DType::F64)?;
            let n = out.size();
            for x in out.buf.typed_mut::<f64>(0, n) {
                *x = f();
            }
            Ok(Value::Array(Box::new(out)))
        }
    }
}

fn dims(d: &[Value]) -> PyResult<Option<Vec<usize>>> {
    if d.is_empty() {
        return Ok(None);
    }
    Ok(Some(new_shape(&Value::tuple(d.to_vec()))?))
}

pub(crate) fn num(v: Option<&Value>, default: f64) -> PyResult<f64> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(x) => x.as_f64(),
    }
}

fn randint(rt: &mut Runtime, mt: &mut Mt19937, b: &[Option<Value>]) -> PyResult<Value> {
    let low = b[0]
        .as_ref()
        .map(|v| v.as_index())
        .transpose()?
        .unwrap_or(0);
    let (lo, hi) = match &b[1] {
        None | Some(Value::None) => (0, low),
        Some(h) => (low, h.as_index()?),
    };
    if lo >= hi {
        return Err(PyErr::value_error("low >= high"));
    }
    let d = match &b[3] {
        None | Some(Value::None) => DType::I64,
        Some(v) => dtype_from_value(rt, v)?,
    };
    let rng = (hi as i128 - 1 - lo as i128) as u64;
    let mut draw = || Scalar::I64((lo as i128 + mt.bounded(rng) as i128) as i64).cast(d);
    match size_of(b[2].as_ref())? {
        // A single draw with the default dtype is a Python int, as in NumPy.
        None if matches!(b[3], None | Some(Value::None)) => Ok(Value::Int(draw().as_i64())),
        None => Ok(Value::Scalar(draw())),
        Some(shape) => {
            let out = new_array(&shape, d)?;
            let n = out.size();
            for i in 0..n {
                out.buf.write(i * d.itemsize(), &draw().to_bytes());
            }
            Ok(Value::Array(Box::new(out)))
        }
    }
}

/// Build `np.random`.
pub fn module() -> Rc<Module> {
    let m = Module::new("numpy.random", "NumPy's legacy random number generation.");
    m.def(
        Cython,
        "seed",
        "seed=None",
        "Seed the global legacy generator.",
        |rt, b| {
            let mt = match &b[0] {
                None | Some(Value::None) => Global::default().0,
                Some(Value::List(_)) | Some(Value::Tuple(_)) | Some(Value::Array(_)) => {
                    let arr = to_ndarray(rt, b[0].as_ref().unwrap_or(&Value::None))?;
                    let w: Vec<u32> = crate::arrays::elem::read_vec::<i64>(&arr)
                        .iter()
                        .map(|&x| x as u32)
                        .collect();
                    Mt19937::from_array(&w)
                }
                Some(v) => {
                    let s = v.as_index()?;
                    if !(0..=u32::MAX as i64).contains(&s) {
                        return Err(PyErr::value_error("Seed must be between 0 and 2**32 - 1"));
                    }
                    Mt19937::new(s as u32)
                }
            };
            rt.state::<Global>().0 = mt;
            Ok(Value::None)
        },
    );
    m.def_shown(
        Cython,
        "rand",
        "*dims",
        "rand(d0, d1, ..., dn)",
        "Uniform samples in [0, 1) of the given shape.",
        |rt, b| {
            let size = dims(&b.rest)?;
            let g = &mut rt.state::<Global>().0;
            fill_f64(size, || g.next_double())
        },
    );
    m.def_shown(
        Cython,
        "randn",
        "*dims",
        "randn(d0, d1, ..., dn)",
        "Standard normal samples of the given shape.",
        |rt, b| {
            let size = dims(&b.rest)?;
            let g = &mut rt.state::<Global>().0;
            fill_f64(size, || g.gauss())
        },
    );
    for name in ["random", "random_sample", "sample", "ranf"] {
        m.def(
            Cython,
            name,
            "size=None",
            "Uniform samples in [0, 1).",
            move |rt, b| {
                let size = size_of(b[0].as_ref())?;
                let g = &mut rt.state::<Global>().0;
                fill_f64(size, || g.next_double())
            },
        );
    }
    m.def(
        Cython,
        "standard_normal",
        "size=None",
        "Standard normal samples.",
        |rt, b| {
            let size = size_of(b[0].as_ref())?;
            let g = &mut rt.state::<Global>().0;
            fill_f64(size, || g.gauss())
        },
    );
    m.def(
        Cython,
        "normal",
        "loc=0.0, scale=1.0, size=None",
        "Normal samples.",
        |rt, b| {
            let (loc, scale) = (num(b[0].as_ref(), 0.0)?, num(b[1].as_ref(), 1.0)?);
            if scale < 0.0 {
                return Err(PyErr::value_error("scale < 0"));
            }
            let size = size_of(b[2].as_ref())?;
            let g = &mut rt.state::<Global>().0;
            fill_f64(size, || loc + scale * g.gauss())
        },
    );
    m.def(
        Cython,
        "uniform",
        "low=0.0, high=1.0, size=None",
        "Uniform samples in [low, high).",
        |rt, b| {
            let (lo, hi) = (num(b[0].as_ref(), 0.0)?, num(b[1].as_ref(), 1.0)?);
            let size = size_of(b[2].as_ref())?;
            let g = &mut rt.state::<Global>().0;
            fill_f64(size, || lo + (hi - lo) * g.next_double())
        },
    );
    m.def(
        Cython,
        "randint",
        "low, high=None, size=None, dtype=int",
        "Random integers in [low, high).",
        |rt, b| {
            let mut g = std::mem::replace(&mut rt.state::<Global>().0, Mt19937::new(0));
            let r = randint(rt, &mut g, &b);
            rt.state::<Global>().0 = g;
            r
        },
    );
    m.def(
        Cython,
        "shuffle",
        "x",
        "Shuffle a list or an array along its first axis, in place (NumPy's legacy order).",
        |rt, b| {
            let x = b.value(0);
            let g = &mut rt.state::<Global>().0;
            shuffle(&x, |i| g.bounded(i))?;
            Ok(Value::None)
        },
    );
    m.def(
        Cython,
        "permutation",
        "x",
        "A shuffled arange(x), or a shuffled copy of an array along its first axis.",
        |rt, b| {
            let arr = permutation_source(rt, b[0].as_ref().unwrap_or(&Value::None))?;
            if matches!(&arr, Value::Array(x) if x.shape.is_empty()) {
                return Err(PyErr::index_error(
                    "x must be an integer or at least 1-dimensional",
                ));
            }
            let g = &mut rt.state::<Global>().0;
            shuffle(&arr, |i| g.bounded(i))?;
            Ok(arr)
        },
    );
    m.def(
        Cython,
        "choice",
        "a, size=None, replace=True, p=None",
        "Random samples from arange(a) or from a 1-D array (NumPy's legacy algorithm).",
        choice,
    );
    m.def(
        Cython,
        "default_rng",
        "seed=None",
        "A new Generator on NumPy's PCG64 stream, seeded through SeedSequence.",
        crate::numpy::random_generator::default_rng,
    );
    Rc::new(m)
}

/// What `permutation(x)` shuffles: `arange(x)` for an int, else a C-contiguous copy of the
/// array (NumPy shuffles an index array and takes rows, which moves rows the same way).
pub(crate) fn permutation_source(rt: &mut Runtime, x: &Value) -> PyResult<Value> {
    if let Value::Int(n) = x {
        let n = (*n).max(0) as usize;
        let out = new_array(&[n], DType::I64)?;
        for (i, v) in out.buf.typed_mut::<i64>(0, n).iter_mut().enumerate() {
            *v = i as i64;
        }
        return Ok(Value::Array(Box::new(out)));
    }
    let arr = to_ndarray(rt, x)?;
    Ok(Value::Array(Box::new(
        crate::arrays::elem::contiguous_copy(&arr)?,
    )))
}

/// RandomState.shuffle / Generator.shuffle: for i from n-1 down to 1, swap item i with
/// item `j_of(i)` (a draw in [0, i]), so a seeded shuffle equals NumPy's.
pub(crate) fn shuffle(x: &Value, mut j_of: impl FnMut(u64) -> u64) -> PyResult<()> {
    match x {
        Value::List(l) => {
            let mut l = l.borrow_mut();
            for i in (1..l.len()).rev() {
                let j = j_of(i as u64) as usize;
                l.swap(i, j);
            }
            Ok(())
        }
        Value::Array(arr) if !arr.shape.is_empty() => {
            let n = arr.shape[0];
            let isz = arr.dtype.itemsize();
            // Each row's bytes at `offset + i * strides[0]`: contiguous rows, or single
            // elements of a strided 1-D array.
            let row = if arr.shape.len() == 1 {
                isz
            } else if arr.is_c_contiguous() {
                arr.shape[1..].iter().product::<usize>() * isz
            } else {
                return Err(PyErr::new(
                    "NotImplementedError",
                    "nbcuda's np.random.shuffle needs a C-contiguous array (use np.ascontiguousarray)",
                ));
            };
            let mut tmp = crate::arrays::alloc::vec_filled(0u8, row, "a row")?;
            for i in (1..n).rev() {
                let j = j_of(i as u64) as usize;
                if i == j || row == 0 {
                    continue;
                }
                let at = |k: usize| (arr.offset as isize + k as isize * arr.strides[0]) as usize;
                let (pi, pj) = (at(i), at(j));
                tmp.copy_from_slice(arr.buf.typed::<u8>(pi, row));
                let src = arr.buf.typed::<u8>(pj, row).to_vec();
                arr.buf.typed_mut::<u8>(pi, row).copy_from_slice(&src);
                arr.buf.typed_mut::<u8>(pj, row).copy_from_slice(&tmp);
            }
            Ok(())
        }
        other => Err(PyErr::type_error(format!(
            "shuffle() takes a list or an array with at least one dimension, not {}",
            other.type_name()
        ))),
    }
}

/// `np.random.choice` on the legacy stream: `randint(0, n, size)` with replacement, the
/// head of `permutation(n)` without, and `searchsorted` of the cumulative `p` on
/// `random_sample(size)` with probabilities.
fn choice(rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let src = b[0].clone().unwrap_or(Value::None);
    // The population: arange(n), a list's items, or a 1-D array.
    let (n, items, pool) = match &src {
        Value::Int(n) if *n <= 0 => {
            return Err(PyErr::value_error(
                "a must be a positive integer unless no samples are taken",
            ))
        }
        Value::Int(n) => (*n as usize, None, None),
        Value::List(l) => (l.borrow().len(), Some(l.borrow().clone()), None),
        Value::Tuple(t) => (t.len(), Some(t.to_vec()), None),
        v => {
            let arr = to_ndarray(rt, v)?;
            if arr.shape.len() != 1 {
                return Err(PyErr::value_error("a must be 1-dimensional or an integer"));
            }
            (arr.shape[0], None, Some(arr))
        }
    };
    if n == 0 {
        return Err(PyErr::value_error(
            "a cannot be empty unless no samples are taken",
        ));
    }
    let size = size_of(b[1].as_ref())?;
    let count: usize = size.as_ref().map_or(1, |s| s.iter().product());
    crate::arrays::alloc::check(count, 8, "a sample")?;
    let replace = match &b[2] {
        None => true,
        Some(v) => rt.truthy(v)?,
    };
    let probs = match &b[3] {
        None | Some(Value::None) => None,
        Some(p) => Some(probabilities(rt, p, n)?),
    };
    let g = &mut rt.state::<Global>().0;
    let idx: Vec<usize> = match (replace, probs) {
        (true, None) => (0..count)
            .map(|_| g.bounded(n as u64 - 1) as usize)
            .collect(),
        (true, Some(cdf)) => (0..count)
            .map(|_| {
                let u = g.next_double();
                cdf.partition_point(|&c| c <= u).min(n - 1)
            })
            .collect(),
        (false, None) => {
            if count > n {
                return Err(PyErr::value_error(
                    "Cannot take a larger sample than population when 'replace=False'",
                ));
            }
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, g.bounded(i as u64) as usize);
            }
            perm.truncate(count);
            perm
        }
        (false, Some(_)) => {
            return Err(PyErr::not_implemented(
                "nbcuda's np.random.choice does not take p with replace=False",
            ))
        }
    };
    if let Some(arr) = &pool {
        let offsets: Vec<usize> = idx
            .iter()
            .map(|&i| (arr.offset as isize + i as isize * arr.strides[0]) as usize)
            .collect();
        let shape = size.clone().unwrap_or_default();
        let out = crate::arrays::index::gather(arr, &shape, &offsets)?;
        return Ok(match size {
            None => Value::Scalar(crate::arrays::elem::first_scalar(&out)),
            Some(_) => Value::Array(Box::new(out)),
        });
    }
    let picked: Vec<Value> = idx
        .iter()
        .map(|&i| match &items {
            Some(v) => v[i].clone(),
            None => Value::Int(i as i64),
        })
        .collect();
    match size {
        None => Ok(picked.into_iter().next().unwrap_or(Value::None)),
        Some(shape) => {
            let flat = to_ndarray(rt, &Value::list(picked))?;
            let dims: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
            Ok(Value::Array(Box::new(crate::py::ndarray_shape::reshape(
                &flat, &dims,
            )?)))
        }
    }
}

/// `p` checked as NumPy's legacy `choice` checks it, as its normalised cumulative sums.
fn probabilities(rt: &mut Runtime, p: &Value, n: usize) -> PyResult<Vec<f64>> {
    let p = crate::arrays::elem::cast(&to_ndarray(rt, p)?, DType::F64)?;
    let p = crate::arrays::elem::read_vec::<f64>(&p);
    if p.len() != n {
        return Err(PyErr::value_error("'a' and 'p' must have same size"));
    }
    if p.iter().any(|&x| x < 0.0) {
        return Err(PyErr::value_error("probabilities are not non-negative"));
    }
    let total: f64 = p.iter().sum();
    if (total - 1.0).abs() > f64::EPSILON.sqrt() {
        return Err(PyErr::value_error("probabilities do not sum to 1"));
    }
    let mut cdf = Vec::with_capacity(n); // bounded: one per item of `a`
    let mut acc = 0.0;
    for x in &p {
        acc += x;
        cdf.push(acc);
    }
    let last = acc;
    for c in &mut cdf {
        *c /= last;
    }
    Ok(cdf)
}

pub(crate) fn cast_opt(rt: &mut Runtime, v: Value, dt: &Option<Value>) -> PyResult<Value> {
    match (dt, &v) {
        (Some(d), Value::Array(a)) if !d.is_none() => Ok(Value::Array(Box::new(
            crate::arrays::elem::cast(a, dtype_from_value(rt, d)?)?,
        ))),
        (Some(d), Value::Float(f)) if !d.is_none() => Ok(Value::Scalar(
            Scalar::F64(*f).cast(dtype_from_value(rt, d)?),
        )),
        _ => Ok(v),
    }
}
