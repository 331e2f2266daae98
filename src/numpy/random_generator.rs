//! `np.random.default_rng` and its `Generator` on NumPy's own stream: the seed through
//! `SeedSequence` (hashmix pool of four words), PCG64 (XSL-RR 128/64, seeded as
//! `pcg64_set_seed`), 32-bit draws from halves of a 64-bit output, Lemire's bounded
//! integers and `random_interval` shuffles, so `default_rng(42)` draws what NumPy draws.
//!
//! Known differences: `normal`/`standard_normal` use the polar method (NumPy's Generator
//! uses a ziggurat), and 8- and 16-bit `integers` dtypes do not buffer draws as NumPy does.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::new_array;
use crate::numpy::random::{cast_opt, fill_f64, num, permutation_source, shuffle, size_of};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::dtype_from_value;
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::value::{Object, Value};

/// `SeedSequence(entropy).generate_state(words)` as 32-bit words, for an integer entropy.
pub fn seed_sequence_words(entropy: u128, words: usize) -> Vec<u32> {
    const INIT_A: u32 = 0x43b0_d7e5;
    const MULT_A: u32 = 0x931e_8875;
    const INIT_B: u32 = 0x8b51_f9dd;
    const MULT_B: u32 = 0x58f3_8ded;
    const MIX_L: u32 = 0xca01_f9dd;
    const MIX_R: u32 = 0x4973_f715;
    // The entropy as 32-bit words, least significant first (at least one).
    let mut ent = Vec::new();
    let mut e = entropy;
    loop {
        ent.push(e as u32);
        e >>= 32;
        if e == 0 {
            break;
        }
    }
    let mut hash_const = INIT_A;
    let mut hashmix = |v: u32| {
        let mut v = v ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_A);
        v = v.wrapping_mul(hash_const);
        v ^ (v >> 16)
    };
    let mix = |x: u32, y: u32| {
        let r = MIX_L.wrapping_mul(x).wrapping_sub(MIX_R.wrapping_mul(y));
        r ^ (r >> 16)
    };
    let mut pool = [0u32; 4];
    for (i, p) in pool.iter_mut().enumerate() {
        *p = hashmix(ent.get(i).copied().unwrap_or(0));
    }
    for src in 0..4 {
        for dst in 0..4 {
            if src != dst {
                let h = hashmix(pool[src]);
                pool[dst] = mix(pool[dst], h);
            }
        }
    }
    for &w in ent.iter().skip(4) {
        for p in pool.iter_mut() {
            let h = hashmix(w);
            *p = mix(*p, h);
        }
    }
    let mut hash_const = INIT_B;
    (0..words)
        .map(|i| {
            let mut v = pool[i % 4] ^ hash_const;
            hash_const = hash_const.wrapping_mul(MULT_B);
            v = v.wrapping_mul(hash_const);
            v ^ (v >> 16)
        })
        .collect()
}

/// NumPy's PCG64 bit generator, with the spare half of a 64-bit draw kept for the next
/// 32-bit draw.
pub struct Pcg64 {
    state: u128,
    inc: u128,
    spare: Option<u32>,
}

impl Pcg64 {
    const MUL: u128 = 0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645;

    /// `PCG64(SeedSequence(seed))`.
    pub fn new(seed: u128) -> Pcg64 {
        let w = seed_sequence_words(seed, 8);
        let word = |i: usize| u64::from(w[2 * i]) | (u64::from(w[2 * i + 1]) << 32);
        let init = (u128::from(word(0)) << 64) | u128::from(word(1));
        let seq = (u128::from(word(2)) << 64) | u128::from(word(3));
        let mut p = Pcg64 {
            state: 0,
            inc: (seq << 1) | 1,
            spare: None,
        };
        p.step();
        p.state = p.state.wrapping_add(init);
        p.step();
        p
    }
    fn step(&mut self) {
        self.state = self.state.wrapping_mul(Self::MUL).wrapping_add(self.inc);
    }
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let s = self.state;
        let rot = (s >> 122) as u32;
        (((s >> 64) as u64) ^ (s as u64)).rotate_right(rot)
    }
    pub fn next_u32(&mut self) -> u32 {
        if let Some(v) = self.spare.take() {
            return v;
        }
        let v = self.next_u64();
        self.spare = Some((v >> 32) as u32);
        v as u32
    }
    pub fn next_double(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9007199254740992.0)
    }
    /// A draw in [0, rng] by Lemire's multiply-and-reject, as `random_bounded_uint64_fill`.
    pub fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            return 0;
        }
        if rng <= 0xffff_ffff {
            if rng == 0xffff_ffff {
                return u64::from(self.next_u32());
            }
            let excl = rng + 1;
            let mut m = u64::from(self.next_u32()) * excl;
            if (m & 0xffff_ffff) < excl {
                let threshold = (0xffff_ffff - rng) % excl;
                while (m & 0xffff_ffff) < threshold {
                    m = u64::from(self.next_u32()) * excl;
                }
            }
            return m >> 32;
        }
        if rng == u64::MAX {
            return self.next_u64();
        }
        let excl = rng + 1;
        let mut m = u128::from(self.next_u64()) * u128::from(excl);
        if (m as u64) < excl {
            let threshold = (u64::MAX - rng) % excl;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(excl);
            }
        }
        (m >> 64) as u64
    }
    /// `random_interval`: masked rejection in [0, max], used by shuffles.
    pub fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        for s in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> s;
        }
        loop {
            let v = if max <= 0xffff_ffff {
                u64::from(self.next_u32()) & mask
            } else {
                self.next_u64() & mask
            };
            if v <= max {
                return v;
            }
        }
    }
    fn gauss(&mut self) -> f64 {
        loop {
            let x1 = 2.0 * self.next_double() - 1.0;
            let x2 = 2.0 * self.next_double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                return x2 * (-2.0 * r2.ln() / r2).sqrt();
            }
        }
    }
}

/// `np.random.default_rng(seed=None)`.
pub fn default_rng(_rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let seed = match &b[0] {
        None | Some(Value::None) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
        Some(Value::BigInt(big)) => {
            let text = big.to_string();
            text.parse::<u128>().map_err(|_| {
                PyErr::value_error("nbcuda's default_rng takes seeds in [0, 2**128)")
            })?
        }
        Some(v) => {
            let s = v.as_index()?;
            if s < 0 {
                return Err(PyErr::value_error("expected non-negative integer"));
            }
            s as u128
        }
    };
    Ok(Value::object(Generator(RefCell::new(Pcg64::new(seed)))))
}

/// `np.random.Generator`.
struct Generator(RefCell<Pcg64>);

impl Object for Generator {
    fn type_name(&self) -> String {
        "Generator".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("Generator(PCG64)".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let me = self.clone();
        Ok(Some(match name {
            "random" => Value::method(
                &me,
                "Generator.random",
                "random(size=None, dtype=float64)",
                "Uniform samples in [0, 1).",
                |g, rt, a| {
                    let b = a.bind("random", &["size=", "dtype=", "out="])?;
                    let size = size_of(b[0].as_ref())?;
                    let v = fill_f64(size, || g.0.borrow_mut().next_double())?;
                    cast_opt(rt, v, &b[1])
                },
            ),
            "normal" | "standard_normal" => {
                let std_only = name == "standard_normal";
                Value::method(
                    &me,
                    "Generator.normal",
                    "normal(loc=0.0, scale=1.0, size=None)",
                    "Normal samples.",
                    move |g, rt, a| {
                        let (loc, scale, size, dt) = if std_only {
                            let b = a.bind("standard_normal", &["size=", "dtype="])?;
                            (0.0, 1.0, size_of(b[0].as_ref())?, b[1].clone())
                        } else {
                            let b = a.bind("normal", &["loc=", "scale=", "size="])?;
                            (
                                num(b[0].as_ref(), 0.0)?,
                                num(b[1].as_ref(), 1.0)?,
                                size_of(b[2].as_ref())?,
                                None,
                            )
                        };
                        let v = fill_f64(size, || loc + scale * g.0.borrow_mut().gauss())?;
                        cast_opt(rt, v, &dt)
                    },
                )
            }
            "uniform" => Value::method(
                &me,
                "Generator.uniform",
                "uniform(low=0.0, high=1.0, size=None)",
                "Uniform samples.",
                |g, _rt, a| {
                    let b = a.bind("uniform", &["low=", "high=", "size="])?;
                    let (lo, hi) = (num(b[0].as_ref(), 0.0)?, num(b[1].as_ref(), 1.0)?);
                    fill_f64(size_of(b[2].as_ref())?, || {
                        lo + (hi - lo) * g.0.borrow_mut().next_double()
                    })
                },
            ),
            "integers" => Value::method(
                &me,
                "Generator.integers",
                "integers(low, high=None, size=None, dtype=int64, endpoint=False)",
                "Random integers.",
                |g, rt, a| {
                    let b = a.bind(
                        "integers",
                        &["low", "high=", "size=", "dtype=", "endpoint="],
                    )?;
                    let low = b[0]
                        .as_ref()
                        .map(|v| v.as_index())
                        .transpose()?
                        .unwrap_or(0);
                    let (lo, mut hi) = match &b[1] {
                        None | Some(Value::None) => (0, low),
                        Some(h) => (low, h.as_index()?),
                    };
                    if matches!(b[4], Some(Value::Bool(true))) {
                        hi += 1;
                    }
                    if lo >= hi {
                        return Err(PyErr::value_error("low >= high"));
                    }
                    let rng = (hi as i128 - 1 - lo as i128) as u64;
                    let d = match &b[3] {
                        None | Some(Value::None) => DType::I64,
                        Some(v) => dtype_from_value(rt, v)?,
                    };
                    let draw = || {
                        Scalar::I64((lo as i128 + g.0.borrow_mut().bounded(rng) as i128) as i64)
                            .cast(d)
                    };
                    match size_of(b[2].as_ref())? {
                        None => Ok(Value::Scalar(draw())),
                        Some(shape) => {
                            let out = new_array(&shape, d)?;
                            for i in 0..out.size() {
                                out.buf.write(i * d.itemsize(), &draw().to_bytes());
                            }
                            Ok(Value::Array(Box::new(out)))
                        }
                    }
                },
            ),
            "permutation" => Value::method(
                &me,
                "Generator.permutation",
                "permutation(x, axis=0)",
                "A shuffled arange(x), or a shuffled copy of an array along its first axis.",
                |g, rt, a| {
                    let b = a.bind("permutation", &["x", "axis="])?;
                    if b[1].as_ref().is_some_and(|v| v.as_index().ok() != Some(0)) {
                        return Err(PyErr::not_implemented(
                            "nbcuda's Generator.permutation shuffles along axis 0 only",
                        ));
                    }
                    let arr = permutation_source(rt, b[0].as_ref().unwrap_or(&Value::None))?;
                    if matches!(&arr, Value::Array(x) if x.shape.is_empty()) {
                        return Err(PyErr::new(
                            "AxisError",
                            "axis 0 is out of bounds for array of dimension 0",
                        ));
                    }
                    shuffle(&arr, |i| g.0.borrow_mut().interval(i))?;
                    Ok(arr)
                },
            ),
            "shuffle" => Value::method(
                &me,
                "Generator.shuffle",
                "shuffle(x, axis=0)",
                "Shuffle a list or an array along its first axis, in place.",
                |g, _rt, a| {
                    let b = a.bind("shuffle", &["x", "axis="])?;
                    shuffle(b[0].as_ref().unwrap_or(&Value::None), |i| {
                        g.0.borrow_mut().interval(i)
                    })?;
                    Ok(Value::None)
                },
            ),
            _ => return Ok(None),
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
