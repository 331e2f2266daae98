//! `np.random`: NumPy's legacy MT19937 stream, bit for bit (seeding, 53-bit doubles, the
//! polar Gaussian with its cached second value, masked-rejection randint), and a
//! `default_rng` Generator on the same engine (its values are not NumPy's PCG64 stream).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::ops::array_from;
use crate::arrays::DType;
use crate::language::{Args, Module, Object, PyErr, PyResult, Runtime, Value};

const N: usize = 624;

#[derive(Clone)]
pub struct Mt19937 {
    mt: [u32; N],
    pos: usize,
    gauss: Option<f64>,
}

impl Default for Mt19937 {
    fn default() -> Self {
        // An unseeded RandomState draws from the OS; a fixed clock-derived seed is enough
        // for "unseeded" here.
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u32)
            .unwrap_or(5489);
        Mt19937::new(t)
    }
}

impl Mt19937 {
    pub fn new(seed: u32) -> Mt19937 {
        let mut mt = [0u32; N];
        mt[0] = seed;
        for i in 1..N {
            mt[i] = 1812433253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 {
            mt,
            pos: N,
            gauss: None,
        }
    }

    fn twist(&mut self) {
        for i in 0..N {
            let y = (self.mt[i] & 0x8000_0000) | (self.mt[(i + 1) % N] & 0x7fff_ffff);
            let mut v = self.mt[(i + 397) % N] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_b0df;
            }
            self.mt[i] = v;
        }
        self.pos = 0;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.pos >= N {
            self.twist();
        }
        let mut y = self.mt[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in [0, 1) with 53 random bits, from two draws.
    pub fn next_f64(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) / 9007199254740992.0
    }

    pub fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.next_f64() - 1.0;
            let x2 = 2.0 * self.next_f64() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// An integer in [0, rng] by masked rejection, as legacy `randint`.
    pub fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            return 0;
        }
        let mask = u64::MAX >> rng.leading_zeros();
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

fn size_of(v: &Option<Value>) -> PyResult<Option<Vec<usize>>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Tuple(t)) => Ok(Some(
            t.iter()
                .map(|d| d.as_index().map(|x| x.max(0) as usize))
                .collect::<PyResult<_>>()?,
        )),
        Some(Value::List(l)) => Ok(Some(
            l.borrow()
                .iter()
                .map(|d| d.as_index().map(|x| x.max(0) as usize))
                .collect::<PyResult<_>>()?,
        )),
        Some(d) => Ok(Some(vec![d.as_index()?.max(0) as usize])),
    }
}

fn floats(shape: Option<Vec<usize>>, mut f: impl FnMut() -> f64) -> PyResult<Value> {
    match shape {
        None => Ok(Value::Float(f())),
        Some(s) => {
            let n: usize = s.iter().product();
            let v: Vec<f64> = (0..n).map(|_| f()).collect();
            Ok(Value::Array(array_from(&s, DType::F64, &v)?))
        }
    }
}

fn f64_arg(v: &Option<Value>, default: f64) -> PyResult<f64> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(v) => v.as_f64(),
    }
}

/// `randint(low, high=None, size=None)` / Generator `integers`.
fn integers(g: &mut Mt19937, a: &[Option<Value>]) -> PyResult<Value> {
    let (low, high) = match (&a[0], &a[1]) {
        (Some(l), None) | (Some(l), Some(Value::None)) => (0, l.as_index()?),
        (Some(l), Some(h)) => (l.as_index()?, h.as_index()?),
        _ => {
            return Err(PyErr::type_error(
                "randint() missing required argument 'low'",
            ))
        }
    };
    if low >= high {
        return Err(PyErr::value_error("low >= high"));
    }
    let rng = (high - low - 1) as u64;
    match size_of(&a[2])? {
        None => Ok(Value::Int(low + g.bounded(rng) as i64)),
        Some(s) => {
            let n: usize = s.iter().product();
            let v: Vec<i64> = (0..n).map(|_| low + g.bounded(rng) as i64).collect();
            Ok(Value::Array(array_from(&s, DType::I64, &v)?))
        }
    }
}

/// Draw by method name from a generator (shared by `np.random.*` and `Generator`).
fn draw(g: &mut Mt19937, name: &str, args: &Args) -> PyResult<Value> {
    match name {
        "rand" => {
            let dims: Vec<usize> = args
                .pos
                .iter()
                .map(|d| d.as_index().map(|x| x.max(0) as usize))
                .collect::<PyResult<_>>()?;
            floats(if dims.is_empty() { None } else { Some(dims) }, || {
                g.next_f64()
            })
        }
        "randn" => {
            let dims: Vec<usize> = args
                .pos
                .iter()
                .map(|d| d.as_index().map(|x| x.max(0) as usize))
                .collect::<PyResult<_>>()?;
            floats(if dims.is_empty() { None } else { Some(dims) }, || {
                g.gauss()
            })
        }
        "random" | "random_sample" | "sample" => {
            let b = args.bind(name, &["size=", "dtype="])?;
            floats(size_of(&b[0])?, || g.next_f64())
        }
        "standard_normal" => {
            let b = args.bind(name, &["size=", "dtype="])?;
            floats(size_of(&b[0])?, || g.gauss())
        }
        "normal" => {
            let b = args.bind(name, &["loc=", "scale=", "size="])?;
            let (loc, scale) = (f64_arg(&b[0], 0.0)?, f64_arg(&b[1], 1.0)?);
            if scale < 0.0 {
                return Err(PyErr::value_error("scale < 0"));
            }
            floats(size_of(&b[2])?, || loc + scale * g.gauss())
        }
        "uniform" => {
            let b = args.bind(name, &["low=", "high=", "size="])?;
            let (lo, hi) = (f64_arg(&b[0], 0.0)?, f64_arg(&b[1], 1.0)?);
            floats(size_of(&b[2])?, || lo + (hi - lo) * g.next_f64())
        }
        "randint" | "integers" => {
            let b = args.bind(name, &["low", "high=", "size=", "dtype=", "endpoint="])?;
            integers(g, &b)
        }
        other => Err(PyErr::attribute_error(format!(
            "module 'numpy.random' has no attribute '{other}'"
        ))),
    }
}

const DRAWS: &[&str] = &[
    "rand",
    "randn",
    "random",
    "random_sample",
    "sample",
    "standard_normal",
    "normal",
    "uniform",
    "randint",
];

/// The session's legacy global RandomState.
#[derive(Default)]
struct Global(Option<Mt19937>);

fn global(rt: &mut Runtime) -> &mut Mt19937 {
    rt.state::<Global>().0.get_or_insert_with(Mt19937::default)
}

fn seed_of(v: &Option<Value>) -> PyResult<u32> {
    match v {
        None | Some(Value::None) => Ok(Mt19937::default().next_u32()),
        Some(v) => {
            let s = v.as_index()?;
            if !(0..=u32::MAX as i64).contains(&s) {
                return Err(PyErr::value_error("Seed must be between 0 and 2**32 - 1"));
            }
            Ok(s as u32)
        }
    }
}

/// `np.random.default_rng(seed)`'s Generator.
struct Generator(RefCell<Mt19937>);

impl Object for Generator {
    fn type_name(&self) -> String {
        "Generator".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("Generator(MT19937)".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if !["random", "normal", "integers", "uniform", "standard_normal"].contains(&name) {
            return Ok(None);
        }
        let n = name.to_string();
        Ok(Some(Value::method(
            &self,
            &format!("Generator.{name}"),
            &format!("{name}(...)"),
            "Draw random values.",
            move |g, _rt, a| draw(&mut g.0.borrow_mut(), &n, &a),
        )))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub fn module() -> Rc<Module> {
    let m = Module::new(
        "numpy.random",
        "Random numbers: NumPy's legacy MT19937 stream.",
    );
    m.func(
        "seed",
        "seed(seed=None)",
        "Reseed the global generator.",
        |rt, a| {
            let b = a.bind("seed", &["seed="])?;
            let s = seed_of(&b[0])?;
            rt.state::<Global>().0 = Some(Mt19937::new(s));
            Ok(Value::None)
        },
    );
    for name in DRAWS {
        m.func(
            name,
            &format!("{name}(...)"),
            "Draw from the global generator, as numpy.random does.",
            move |rt, a| draw(global(rt), name, &a),
        );
    }
    m.func(
        "default_rng",
        "default_rng(seed=None)",
        "A Generator (MT19937-based in nbcuda).",
        |_, a| {
            let b = a.bind("default_rng", &["seed="])?;
            Ok(Value::object(Generator(RefCell::new(Mt19937::new(
                seed_of(&b[0])?,
            )))))
        },
    );
    Rc::new(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_mt19937_stream() {
        // The reference implementation's first outputs for init_genrand(5489).
        let mut g = Mt19937::new(5489);
        assert_eq!(g.next_u32(), 3499211612);
        assert_eq!(g.next_u32(), 581869302);
        assert_eq!(g.next_u32(), 3890346734);
    }
}
