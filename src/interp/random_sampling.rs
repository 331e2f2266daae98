//! The sequence functions of `random` (`choices`, `shuffle`, `sample`) with CPython's exact
//! algorithms, so a seeded generator picks the same items in the same order as CPython.

use std::collections::HashSet;

use crate::interp::random_module::RandomObj;
use crate::interp::{ops, subscript};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// The longest list these functions build; past it they raise MemoryError.
const MAX_ITEMS: usize = 100_000_000;

fn check_len(n: usize) -> PyResult<()> {
    if n > MAX_ITEMS {
        return Err(PyErr::memory_error(format!(
            "nbcuda's random builds at most {MAX_ITEMS} items at once"
        )));
    }
    Ok(())
}

/// `choices(population, weights=None, *, cum_weights=None, k=1)`.
pub fn choices(r: &RandomObj, rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let b = a.bind("choices", &["population", "weights=", "cum_weights=", "k="])?;
    let pop = b[0].clone().unwrap_or(Value::None);
    let n = ops::len(rt, &pop)?;
    let k = match &b[3] {
        Some(v) => v.as_index()?.max(0) as usize,
        None => 1,
    };
    check_len(k)?;
    let weights = b[1].clone().filter(|v| !v.is_none());
    let cum = b[2].clone().filter(|v| !v.is_none());
    let mut out = Vec::new();
    out.try_reserve_exact(k) // bounded: check_len caps k
        .map_err(|_| PyErr::memory_error("cannot allocate the choices result"))?;
    let cum: Vec<Value> = match (weights, cum) {
        (None, None) => {
            let nf = n as f64;
            for _ in 0..k {
                let i = (r.next_float() * nf).floor() as i64;
                out.push(subscript::get_item(rt, &pop, &Value::Int(i))?);
            }
            return Ok(Value::list(out));
        }
        (Some(_), Some(_)) => {
            return Err(PyErr::type_error(
                "Cannot specify both weights and cumulative weights",
            ))
        }
        (Some(w), None) => {
            // list(accumulate(weights)), with Python's addition.
            let mut acc: Option<Value> = None;
            let mut cum = Vec::new();
            for x in ops::iterate(rt, &w)? {
                let next = match acc {
                    Some(prev) => ops::binary(rt, crate::arrays::operator::BinOp::Add, &prev, &x)?,
                    None => x,
                };
                cum.push(next.clone());
                acc = Some(next);
            }
            cum
        }
        (None, Some(c)) => ops::iterate(rt, &c)?,
    };
    if cum.len() != n {
        return Err(PyErr::value_error(
            "The number of weights does not match the population",
        ));
    }
    let Some(last) = cum.last() else {
        return Err(PyErr::index_error("list index out of range"));
    };
    let total = last.as_f64()?;
    if total <= 0.0 {
        return Err(PyErr::value_error(
            "Total of weights must be greater than zero",
        ));
    }
    if !total.is_finite() {
        return Err(PyErr::value_error("Total of weights must be finite"));
    }
    let cum: Vec<f64> = cum.iter().map(|v| v.as_f64()).collect::<PyResult<_>>()?;
    let hi = n - 1;
    for _ in 0..k {
        let x = r.next_float() * total;
        // bisect_right(cum, x, 0, hi)
        let (mut lo, mut h) = (0usize, hi);
        while lo < h {
            let mid = (lo + h) / 2;
            if x < cum[mid] {
                h = mid;
            } else {
                lo = mid + 1;
            }
        }
        out.push(subscript::get_item(rt, &pop, &Value::Int(lo as i64))?);
    }
    Ok(Value::list(out))
}

/// `shuffle(x)`: Fisher-Yates from the end, as CPython swaps.
pub fn shuffle(r: &RandomObj, rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let b = a.bind("shuffle", &["x"])?;
    let x = b[0].clone().unwrap_or(Value::None);
    if let Value::List(l) = &x {
        let n = l.borrow().len();
        for i in (1..n).rev() {
            let j = r.randbelow(i as u64 + 1) as usize;
            l.borrow_mut().swap(i, j);
        }
        return Ok(Value::None);
    }
    let n = ops::len(rt, &x)?;
    for i in (1..n).rev() {
        let j = r.randbelow(i as u64 + 1) as i64;
        let (ki, kj) = (Value::Int(i as i64), Value::Int(j));
        let xi = subscript::get_item(rt, &x, &ki)?;
        let xj = subscript::get_item(rt, &x, &kj)?;
        subscript::set_item(rt, &x, &ki, xj)?;
        subscript::set_item(rt, &x, &kj, xi)?;
    }
    Ok(Value::None)
}

/// `sample(population, k, *, counts=None)`.
pub fn sample(r: &RandomObj, rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let b = a.bind("sample", &["population", "k", "counts="])?;
    let pop = b[0].clone().unwrap_or(Value::None);
    if matches!(pop, Value::Set(_) | Value::Dict(_))
        || crate::interp::collections_dicts::dict_of(&pop).is_some()
    {
        return Err(PyErr::type_error(
            "Population must be a sequence.  For dicts or sets, use sorted(d).",
        ));
    }
    let k = b[1].as_ref().unwrap_or(&Value::None).as_index()?;
    let n = ops::len(rt, &pop)?;
    if let Some(counts) = b[2].clone().filter(|v| !v.is_none()) {
        let mut cum: Vec<i64> = Vec::new();
        let mut acc: i64 = 0;
        for c in ops::iterate(rt, &counts)? {
            let Value::Int(c) = c else {
                return Err(PyErr::type_error("Counts must be integers"));
            };
            acc = acc
                .checked_add(c)
                .ok_or_else(|| PyErr::overflow("total of counts does not fit an int64"))?;
            cum.push(acc);
        }
        if cum.len() != n {
            return Err(PyErr::value_error(
                "The number of counts does not match the population",
            ));
        }
        let total = cum.pop().unwrap_or(0);
        if total <= 0 {
            return Err(PyErr::value_error(
                "Total of counts must be greater than zero",
            ));
        }
        let picks = indices(r, total as u64, k)?;
        let mut out = Vec::new();
        for s in picks {
            // bisect_right(cum, s)
            let i = cum.partition_point(|&c| c <= s as i64);
            out.push(subscript::get_item(rt, &pop, &Value::Int(i as i64))?);
        }
        return Ok(Value::list(out));
    }
    let picks = indices(r, n as u64, k)?;
    let mut out = Vec::new();
    for j in picks {
        out.push(subscript::get_item(rt, &pop, &Value::Int(j as i64))?);
    }
    Ok(Value::list(out))
}

/// The population indices CPython's `sample` picks for `k` of `n`, in selection order: a
/// shrinking pool when a list of `n` is smaller than a set of `k`, otherwise rejection
/// against the set of indices already picked.
fn indices(r: &RandomObj, n: u64, k: i64) -> PyResult<Vec<u64>> {
    if k < 0 || k as u64 > n {
        return Err(PyErr::value_error(
            "Sample larger than population or is negative",
        ));
    }
    let k = k as usize;
    check_len(k)?;
    let mut setsize: u64 = 21;
    if k > 5 {
        let e = ((k as f64 * 3.0).ln() / 4f64.ln()).ceil() as u32;
        setsize = setsize.saturating_add(4u64.saturating_pow(e));
    }
    let mut out = Vec::new();
    out.try_reserve_exact(k) // bounded: check_len caps k
        .map_err(|_| PyErr::memory_error("cannot allocate the sample"))?;
    if n <= setsize {
        // n <= setsize <= 12k + 21, and k is capped above.
        let mut pool: Vec<u64> = (0..n).collect(); // bounded: see above
        for i in 0..k as u64 {
            let j = r.randbelow(n - i) as usize;
            out.push(pool[j]);
            pool[j] = pool[(n - i - 1) as usize];
        }
    } else {
        let mut selected = HashSet::new();
        for _ in 0..k {
            let mut j = r.randbelow(n);
            while selected.contains(&j) {
                j = r.randbelow(n);
            }
            selected.insert(j);
            out.push(j);
        }
    }
    Ok(out)
}
