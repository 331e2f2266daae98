//! The `random` module and `random.Random`: CPython's Mersenne Twister (MT19937, seeded
//! through `init_by_array` exactly as CPython seeds it from an int, a float's hash, or a
//! str/bytes with its SHA-512) and CPython's algorithms on top of it, so a seeded cell
//! draws the same numbers as CPython: `random`, `getrandbits`, `randrange`, `randint`,
//! `choice`, `choices`, `shuffle`, `sample`, `uniform`, `gauss`, `normalvariate`,
//! `expovariate`, `triangular`, `lognormvariate`, `getstate`/`setstate`.
//!
//! Known differences: ints are 64-bit, so `getrandbits(k)` beyond 63 bits and ranges wider
//! than an i64 raise OverflowError; subclassing `random.Random` is not supported.

use std::cell::RefCell;
use std::rc::Rc;

use sha2::{Digest, Sha512};

use crate::interp::{ops, subscript};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Object, Value};

const N: usize = 624;

/// MT19937 as CPython's `_randommodule.c` runs it.
struct Mt {
    mt: [u32; N],
    index: usize,
}

impl Mt {
    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1];
            self.mt[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = N;
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.init_genrand(19_650_218);
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
        }
        self.mt[0] = 0x8000_0000;
    }

    fn genrand(&mut self) -> u32 {
        if self.index >= N {
            for k in 0..N {
                let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % N] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.mt[k] = self.mt[(k + 397) % N] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random()`: 53 random bits as a float in [0, 1).
    fn random(&mut self) -> f64 {
        let a = (self.genrand() >> 5) as f64;
        let b = (self.genrand() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for k <= 64: 32-bit words, least significant first.
    fn bits(&mut self, k: u32) -> u64 {
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return (self.genrand() >> (32 - k)) as u64;
        }
        let lo = self.genrand() as u64;
        let hi = (self.genrand() >> (64 - k)) as u64;
        lo | (hi << 32)
    }

    /// `_randbelow(n)`: rejection sampling on `n.bit_length()` bits.
    fn below(&mut self, n: u64) -> u64 {
        let k = 64 - n.leading_zeros();
        let mut r = self.bits(k);
        while r >= n {
            r = self.bits(k);
        }
        r
    }
}

/// A `random.Random` generator (the module's functions share one).
pub struct RandomObj {
    mt: RefCell<Mt>,
    gauss_next: RefCell<Option<f64>>,
}

impl RandomObj {
    fn new() -> RandomObj {
        let r = RandomObj {
            mt: RefCell::new(Mt {
                mt: [0; N],
                index: N,
            }),
            gauss_next: RefCell::new(None),
        };
        r.seed_key(&entropy());
        r
    }

    fn seed_key(&self, key: &[u32]) {
        self.mt.borrow_mut().init_by_array(key);
        *self.gauss_next.borrow_mut() = None;
    }

    fn random(&self) -> f64 {
        self.mt.borrow_mut().random()
    }

    fn below(&self, n: u64) -> u64 {
        self.mt.borrow_mut().below(n)
    }
}

/// 256 bits from the OS (or, failing that, the clock) for an unseeded generator.
fn entropy() -> Vec<u32> {
    let mut buf = [0u8; 32];
    let from_os = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut buf))
        .is_ok();
    if !from_os {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        buf[..16].copy_from_slice(&t.to_le_bytes());
    }
    buf.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The key CPython's `random_seed` feeds `init_by_array` for a seed value.
fn seed_key(a: &Value) -> PyResult<Vec<u32>> {
    let from_u64 = |n: u64| -> Vec<u32> {
        let key = [n as u32, (n >> 32) as u32];
        // CPython uses only the words up to the highest set bit (at least one).
        let used = if n >> 32 == 0 { 1 } else { 2 };
        key[..used].to_vec()
    };
    Ok(match a {
        Value::None => entropy(),
        Value::Bool(b) => from_u64(*b as u64),
        Value::Int(i) => from_u64(i.unsigned_abs()),
        Value::Float(f) => from_u64(crate::py::hash::hash_float(*f).unsigned_abs()),
        Value::Str(_) | Value::Bytes(_) => {
            let mut bytes: Vec<u8> = match a {
                Value::Str(s) => s.as_bytes().to_vec(),
                Value::Bytes(b) => b.to_vec(),
                _ => Vec::new(),
            };
            let digest = Sha512::digest(&bytes);
            bytes.extend_from_slice(&digest);
            // int.from_bytes(big-endian), as 32-bit words least significant first,
            // without the high zero words.
            let mut le = bytes;
            le.reverse();
            while !le.len().is_multiple_of(4) {
                le.push(0);
            }
            let mut key: Vec<u32> = le
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            while key.len() > 1 && key.last() == Some(&0) {
                key.pop();
            }
            key
        }
        _ => {
            return Err(PyErr::type_error(
                "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.",
            ))
        }
    })
}

/// The `random` module: one shared generator behind module-level functions, and the
/// `Random` class for independent ones.
pub fn module() -> Rc<Module> {
    let m = Module::new(
        "random",
        "Pseudo-random numbers with CPython's Mersenne Twister and algorithms.",
    );
    let shared = Rc::new(RandomObj::new());
    for &(name, sig, doc) in METHODS {
        let r = shared.clone();
        // The bound method's own table binds the arguments by name.
        m.def_shown(Function, name, "*args, **kwargs", sig, doc, move |rt, b| {
            call(&r, name, rt, b.forward())
        });
    }
    m.def(
        Function,
        "Random",
        "x=None",
        "An independent generator, seeded from x as random.seed(x) would be.",
        |_, b| {
            let r = RandomObj::new();
            let key = seed_key(b[0].as_ref().unwrap_or(&Value::None))?;
            r.seed_key(&key);
            Ok(Value::object(r))
        },
    );
    Rc::new(m)
}

/// The generator's methods: name, signature, doc.
const METHODS: &[(&str, &str, &str)] = &[
    (
        "seed",
        "seed(a=None, version=2)",
        "Initialize the generator's state from a.",
    ),
    ("random", "random()", "The next float in [0.0, 1.0)."),
    (
        "getrandbits",
        "getrandbits(k, /)",
        "An int with k random bits.",
    ),
    (
        "randrange",
        "randrange(start, stop=None, step=1)",
        "A random item of range(start, stop, step).",
    ),
    (
        "randint",
        "randint(a, b)",
        "A random int in [a, b], both ends included.",
    ),
    (
        "choice",
        "choice(seq)",
        "A random element of a non-empty sequence.",
    ),
    (
        "choices",
        "choices(population, weights=None, *, cum_weights=None, k=1)",
        "A k-long list of elements chosen with replacement.",
    ),
    ("shuffle", "shuffle(x)", "Shuffle the list x in place."),
    (
        "sample",
        "sample(population, k, *, counts=None)",
        "k unique elements chosen from the population.",
    ),
    (
        "uniform",
        "uniform(a, b)",
        "A random float between a and b.",
    ),
    (
        "gauss",
        "gauss(mu=0.0, sigma=1.0)",
        "A normally distributed float (Box-Muller, pairs cached).",
    ),
    (
        "normalvariate",
        "normalvariate(mu=0.0, sigma=1.0)",
        "A normally distributed float (Kinderman-Monahan).",
    ),
    (
        "lognormvariate",
        "lognormvariate(mu, sigma)",
        "A log-normally distributed float.",
    ),
    (
        "expovariate",
        "expovariate(lambd)",
        "An exponentially distributed float.",
    ),
    (
        "triangular",
        "triangular(low=0.0, high=1.0, mode=None)",
        "A float from the triangular distribution.",
    ),
    (
        "getstate",
        "getstate()",
        "The generator's internal state, for setstate().",
    ),
    (
        "setstate",
        "setstate(state)",
        "Restore a state returned by getstate().",
    ),
];

fn float_arg(v: &Option<Value>, default: f64) -> PyResult<f64> {
    match v {
        Some(v) => v.as_f64(),
        None => Ok(default),
    }
}

fn call(r: &Rc<RandomObj>, name: &str, rt: &mut Runtime, a: Args) -> PyResult<Value> {
    match name {
        "seed" => {
            let b = a.bind("seed", &["a=", "version="])?;
            let key = seed_key(b[0].as_ref().unwrap_or(&Value::None))?;
            r.seed_key(&key);
            Ok(Value::None)
        }
        "random" => {
            a.bind("random", &[])?;
            Ok(Value::Float(r.random()))
        }
        "getrandbits" => {
            let b = a.bind("getrandbits", &["k"])?;
            let k = b[0].as_ref().unwrap_or(&Value::None).as_index()?;
            if k < 0 {
                return Err(PyErr::value_error("number of bits must be non-negative"));
            }
            if k > 63 {
                crate::py::bigint::check_bits(k as u64)?;
                // CPython's order: 32-bit words, least significant first; the last word
                // keeps its top bits.
                let mut mt = r.mt.borrow_mut();
                let mut words: Vec<u32> = Vec::new();
                let mut left = k as u64;
                while left > 0 {
                    let w = mt.genrand();
                    words.push(if left < 32 { w >> (32 - left) } else { w });
                    left = left.saturating_sub(32);
                }
                let big = num_bigint::BigInt::from(num_bigint::BigUint::new(words));
                return Ok(crate::py::bigint::from_big(big));
            }
            Ok(Value::Int(r.mt.borrow_mut().bits(k as u32) as i64))
        }
        "randrange" => {
            let b = a.bind("randrange", &["start", "stop=", "step="])?;
            let start = index_arg(&b[0], "arg 1")?;
            let stop = match b[1].as_ref().filter(|v| !v.is_none()) {
                Some(v) => Some(index_arg(&Some(v.clone()), "stop")?),
                None => None,
            };
            let step = match &b[2] {
                Some(v) => Some(index_arg(&Some(v.clone()), "step")?),
                None => None,
            };
            randrange(r, start, stop, step)
        }
        "randint" => {
            let b = a.bind("randint", &["a", "b"])?;
            let lo = index_arg(&b[0], "arg 1")?;
            let hi = index_arg(&b[1], "stop")?;
            randrange(r, lo, Some(hi + 1), None)
        }
        "choice" => {
            let b = a.bind("choice", &["seq"])?;
            let seq = b[0].clone().unwrap_or(Value::None);
            let n = ops::len(rt, &seq)?;
            if n == 0 {
                return Err(PyErr::index_error("Cannot choose from an empty sequence"));
            }
            let i = r.below(n as u64);
            subscript::get_item(rt, &seq, &Value::Int(i as i64))
        }
        "choices" => crate::interp::random_sampling::choices(r, rt, a),
        "shuffle" => crate::interp::random_sampling::shuffle(r, rt, a),
        "sample" => crate::interp::random_sampling::sample(r, rt, a),
        "uniform" => {
            let b = a.bind("uniform", &["a", "b"])?;
            let lo = float_arg(&b[0], 0.0)?;
            let hi = float_arg(&b[1], 0.0)?;
            Ok(Value::Float(lo + (hi - lo) * r.random()))
        }
        "gauss" => {
            let b = a.bind("gauss", &["mu=", "sigma="])?;
            let (mu, sigma) = (float_arg(&b[0], 0.0)?, float_arg(&b[1], 1.0)?);
            let cached = r.gauss_next.borrow_mut().take();
            let z = match cached {
                Some(z) => z,
                None => {
                    let x2pi = r.random() * std::f64::consts::TAU;
                    let g2rad = (-2.0 * (1.0 - r.random()).ln()).sqrt();
                    *r.gauss_next.borrow_mut() = Some(x2pi.sin() * g2rad);
                    x2pi.cos() * g2rad
                }
            };
            Ok(Value::Float(mu + z * sigma))
        }
        "normalvariate" | "lognormvariate" => {
            let b = a.bind(name, &["mu=", "sigma="])?;
            let (mu, sigma) = (float_arg(&b[0], 0.0)?, float_arg(&b[1], 1.0)?);
            let x = normalvariate(r, mu, sigma);
            Ok(Value::Float(if name == "lognormvariate" {
                x.exp()
            } else {
                x
            }))
        }
        "expovariate" => {
            let b = a.bind("expovariate", &["lambd"])?;
            let lambd = float_arg(&b[0], 1.0)?;
            if lambd == 0.0 {
                return Err(PyErr::zero_division("float division by zero"));
            }
            Ok(Value::Float(-(1.0 - r.random()).ln() / lambd))
        }
        "triangular" => {
            let b = a.bind("triangular", &["low=", "high=", "mode="])?;
            let (low, high) = (float_arg(&b[0], 0.0)?, float_arg(&b[1], 1.0)?);
            let mut u = r.random();
            let mode = b[2].clone().filter(|v| !v.is_none());
            let mut c = match mode {
                None => 0.5,
                Some(_) if high == low => return Ok(Value::Float(low)),
                Some(m) => (m.as_f64()? - low) / (high - low),
            };
            let (mut low, mut high) = (low, high);
            if u > c {
                u = 1.0 - u;
                c = 1.0 - c;
                std::mem::swap(&mut low, &mut high);
            }
            Ok(Value::Float(low + (high - low) * (u * c).sqrt()))
        }
        "getstate" => {
            a.bind("getstate", &[])?;
            let mt = r.mt.borrow();
            let mut words: Vec<Value> = mt.mt.iter().map(|&w| Value::Int(w as i64)).collect();
            words.push(Value::Int(mt.index as i64));
            let gauss = match *r.gauss_next.borrow() {
                Some(g) => Value::Float(g),
                None => Value::None,
            };
            Ok(Value::tuple(vec![
                Value::Int(3),
                Value::tuple(words),
                gauss,
            ]))
        }
        "setstate" => {
            let b = a.bind("setstate", &["state"])?;
            set_state(r, rt, b[0].as_ref().unwrap_or(&Value::None))
        }
        _ => Err(PyErr::internal(format!("random has no method {name}"))),
    }
}

fn set_state(r: &RandomObj, rt: &mut Runtime, state: &Value) -> PyResult<Value> {
    let parts = ops::iterate(rt, state)?;
    let [version, words, gauss] = parts.as_slice() else {
        return Err(PyErr::value_error("state vector is the wrong size"));
    };
    if version.as_index()? != 3 {
        return Err(PyErr::value_error(format!(
            "state with version {} passed to Random.setstate() of version 3",
            version.as_index()?
        )));
    }
    let words = ops::iterate(rt, words)?;
    if words.len() != N + 1 {
        return Err(PyErr::value_error("state vector is the wrong size"));
    }
    let mut mt = r.mt.borrow_mut();
    for (slot, w) in mt.mt.iter_mut().zip(&words) {
        *slot = u32::try_from(w.as_index()?)
            .map_err(|_| PyErr::overflow("Python int too large to convert to C unsigned long"))?;
    }
    let index = words[N].as_index()?;
    if !(0..=N as i64).contains(&index) {
        return Err(PyErr::value_error("invalid state"));
    }
    mt.index = index as usize;
    *r.gauss_next.borrow_mut() = match gauss {
        Value::None => None,
        g => Some(g.as_f64()?),
    };
    Ok(Value::None)
}

fn normalvariate(r: &RandomObj, mu: f64, sigma: f64) -> f64 {
    let magic = 4.0 * (-0.5f64).exp() / 2.0f64.sqrt();
    loop {
        let u1 = r.random();
        let u2 = 1.0 - r.random();
        let z = magic * (u1 - 0.5) / u2;
        let zz = z * z / 4.0;
        if zz <= -u2.ln() {
            return mu + z * sigma;
        }
    }
}

/// An integer argument of randrange; a float with an integral value is accepted, as
/// CPython 3.11 still does (with a DeprecationWarning).
fn index_arg(v: &Option<Value>, what: &str) -> PyResult<i128> {
    match v {
        Some(Value::Float(f)) if f.fract() == 0.0 && f.is_finite() => Ok(*f as i128),
        Some(Value::Float(_)) => Err(PyErr::value_error(format!(
            "non-integer {what} for randrange()"
        ))),
        Some(v) => Ok(v.as_index()? as i128),
        None => Err(PyErr::type_error("randrange() missing required argument")),
    }
}

fn randrange(
    r: &RandomObj,
    start: i128,
    stop: Option<i128>,
    step: Option<i128>,
) -> PyResult<Value> {
    let Some(stop) = stop else {
        if step.is_some() {
            return Err(PyErr::type_error("Missing a non-None stop argument"));
        }
        if start > 0 {
            return Ok(Value::Int(r.below(start as u64) as i64));
        }
        return Err(PyErr::value_error("empty range for randrange()"));
    };
    let width = stop - start;
    let step = step.unwrap_or(1);
    if step == 1 {
        if width > 0 {
            return int_result(start + below_wide(r, width)? as i128);
        }
        return Err(PyErr::value_error(format!(
            "empty range for randrange() ({start}, {stop}, {width})"
        )));
    }
    let n = match step {
        0 => return Err(PyErr::value_error("zero step for randrange()")),
        s if s > 0 => (width + s - 1).div_euclid(s),
        s => (width + s + 1).div_euclid(s),
    };
    if n <= 0 {
        return Err(PyErr::value_error("empty range for randrange()"));
    }
    int_result(start + step * below_wide(r, n)? as i128)
}

fn below_wide(r: &RandomObj, n: i128) -> PyResult<u64> {
    let n = u64::try_from(n).map_err(|_| {
        PyErr::overflow("randrange() over more than 2**64 values is not supported in nbcuda")
    })?;
    Ok(r.below(n))
}

fn int_result(v: i128) -> PyResult<Value> {
    i64::try_from(v)
        .map(Value::Int)
        .map_err(|_| PyErr::overflow("int too large to convert to int64"))
}

impl RandomObj {
    /// `_randbelow(n)` for the sampling functions.
    pub(crate) fn randbelow(&self, n: u64) -> u64 {
        self.below(n)
    }
    /// `random()` for the sampling functions.
    pub(crate) fn next_float(&self) -> f64 {
        self.random()
    }
}

impl Object for RandomObj {
    fn type_name(&self) -> String {
        "Random".into()
    }
    fn module_name(&self) -> String {
        "random".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let Some(&(n, sig, doc)) = METHODS.iter().find(|(n, _, _)| *n == name) else {
            return Ok(None);
        };
        Ok(Some(Value::method(
            &self,
            &format!("Random.{n}"),
            sig,
            doc,
            move |r, rt, a| call(r, n, rt, a),
        )))
    }
    fn dir(&self) -> Vec<String> {
        METHODS.iter().map(|(n, _, _)| n.to_string()).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
