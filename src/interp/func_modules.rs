//! Standard modules about functions and iteration: `operator` (the operators as functions,
//! also usable inside kernels), `functools` (`partial`, `reduce`) and the combinatoric
//! iterators of `itertools` (`product`, `combinations`, `permutations`: computed up front,
//! then handed out one at a time). The lazy iterators of `itertools` are in
//! `itertools_lazy.rs`; `functools.lru_cache` and `cache` are in `lib_modules.rs`.

use std::rc::Rc;

use crate::arrays::operator::{BinOp, UnaryOp};
use crate::interp::iterators::from_items;
use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Module, Object, Value};

/// `operator`'s binary functions: name and operator. Kernels lower the same names
/// (`numba::frontend::calls`).
pub const OPERATOR_BINARY: [(&str, BinOp); 18] = [
    ("add", BinOp::Add),
    ("sub", BinOp::Sub),
    ("mul", BinOp::Mul),
    ("matmul", BinOp::MatMul),
    ("truediv", BinOp::Div),
    ("floordiv", BinOp::FloorDiv),
    ("mod", BinOp::Mod),
    ("pow", BinOp::Pow),
    ("lshift", BinOp::LShift),
    ("rshift", BinOp::RShift),
    ("and_", BinOp::BitAnd),
    ("or_", BinOp::BitOr),
    ("xor", BinOp::BitXor),
    ("eq", BinOp::Eq),
    ("ne", BinOp::Ne),
    ("lt", BinOp::Lt),
    ("le", BinOp::Le),
    ("gt", BinOp::Gt),
];

/// The `operator` module.
pub fn operator_module() -> Rc<Module> {
    let m = Module::new("operator", "The operators as functions.");
    let mut binary: Vec<(&str, BinOp)> = OPERATOR_BINARY.to_vec();
    binary.push(("ge", BinOp::Ge));
    for (name, op) in binary {
        let sig = format!("{name}(a, b, /)");
        let doc = format!("a {} b", op.symbol());
        m.func(name, &sig, &doc, move |rt, a| {
            let (x, y) = two(&a, name)?;
            match op {
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    ops::compare(rt, op, &x, &y)
                }
                _ => ops::binary(rt, op, &x, &y),
            }
        });
    }
    for (name, op) in [
        ("neg", UnaryOp::Neg),
        ("pos", UnaryOp::Pos),
        ("invert", UnaryOp::Invert),
    ] {
        m.func(
            name,
            &format!("{name}(a, /)"),
            "The unary operator.",
            move |rt, a| ops::unary(rt, op, a.pos.first().unwrap_or(&Value::None)),
        );
    }
    m.func("not_", "not_(a, /)", "not a", |rt, a| {
        Ok(Value::Bool(!ops::truthy(
            rt,
            a.pos.first().unwrap_or(&Value::None),
        )?))
    });
    m.func("truth", "truth(a, /)", "bool(a)", |rt, a| {
        Ok(Value::Bool(ops::truthy(
            rt,
            a.pos.first().unwrap_or(&Value::None),
        )?))
    });
    m.func("getitem", "getitem(a, b, /)", "a[b]", |rt, a| {
        let (x, y) = two(&a, "getitem")?;
        crate::interp::subscript::get_item(rt, &x, &y)
    });
    m.func("contains", "contains(a, b, /)", "b in a", |rt, a| {
        let (x, y) = two(&a, "contains")?;
        Ok(Value::Bool(ops::contains(rt, &x, &y)?))
    });
    crate::interp::operator_getters::register(&m);
    Rc::new(m)
}

fn two(a: &Args, name: &str) -> PyResult<(Value, Value)> {
    match a.pos.as_slice() {
        [x, y] => Ok((x.clone(), y.clone())),
        _ => Err(PyErr::type_error(format!(
            "{name} expected 2 arguments, got {}",
            a.pos.len()
        ))),
    }
}

/// The `functools` module.
pub fn functools_module() -> Rc<Module> {
    let m = Module::new(
        "functools",
        "Higher-order functions: partial, reduce, lru_cache and cache.",
    );
    m.func(
        "partial",
        "partial(func, /, *args, **keywords)",
        "A callable that calls func with these arguments first.",
        |_, a| {
            let Some((func, args)) = a.pos.split_first() else {
                return Err(PyErr::type_error(
                    "partial() missing required argument 'func'",
                ));
            };
            Ok(Value::object(Partial {
                func: func.clone(),
                args: args.to_vec(),
                kw: a.kw.clone(),
            }))
        },
    );
    m.func(
        "reduce",
        "reduce(function, iterable[, initial], /)",
        "Fold an iterable from the left with a two-argument function.",
        |rt, a| {
            let f = a.pos.first().cloned().unwrap_or(Value::None);
            let items = ops::iterate(rt, a.pos.get(1).unwrap_or(&Value::None))?;
            let mut it = items.into_iter();
            let mut acc = match a.pos.get(2) {
                Some(v) => v.clone(),
                None => it.next().ok_or_else(|| {
                    PyErr::type_error("reduce() of empty iterable with no initial value")
                })?,
            };
            for x in it {
                acc = rt.call(&f, Args::new(vec![acc, x]))?;
            }
            Ok(acc)
        },
    );
    m.func(
        "lru_cache",
        "lru_cache(maxsize=128, typed=False)",
        "Memoise a function's results by its arguments, keeping the maxsize most recent.",
        crate::interp::lib_modules::lru_cache,
    );
    m.func(
        "cache",
        "cache(user_function, /)",
        "Memoise a function's results by its arguments, without a size limit.",
        crate::interp::lib_modules::cache,
    );
    crate::interp::functools_wrappers::register(&m);
    Rc::new(m)
}

/// `functools.partial(func, *args, **kw)`.
struct Partial {
    func: Value,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
}

impl Object for Partial {
    fn type_name(&self) -> String {
        "functools.partial".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let mut pos = self.args.clone();
        pos.extend(args.pos);
        let mut kw = self.kw.clone();
        for (k, v) in args.kw {
            kw.retain(|(n, _)| *n != k);
            kw.push((k, v));
        }
        rt.call(&self.func, Args { pos, kw })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "func" => Some(self.func.clone()),
            "args" => Some(Value::tuple(self.args.clone())),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The `itertools` module.
pub fn itertools_module() -> Rc<Module> {
    let m = Module::new(
        "itertools",
        "Lazy iterators, and combinatoric iterators over results computed up front.",
    );
    crate::interp::itertools_lazy::register(&m);
    m.func(
        "product",
        "product(*iterables, repeat=1)",
        "The Cartesian product, as a list of tuples in lexicographic order.",
        |rt, a| {
            let repeat = match a.kwarg("repeat") {
                Some(v) => v.as_index()?,
                None => 1,
            };
            if repeat < 0 {
                return Err(PyErr::value_error("repeat argument cannot be negative"));
            }
            let mut pools = Vec::new();
            for p in &a.pos {
                pools.push(ops::iterate(rt, p)?);
            }
            // Sizes before any work: `repeat` is the user's, so repeating the pools first
            // could itself exhaust memory or run for ever.
            let per = pools
                .iter()
                .try_fold(1usize, |acc, p| acc.checked_mul(p.len()))
                .unwrap_or(usize::MAX);
            let total = match per {
                0 | 1 => per,
                _ => u32::try_from(repeat)
                    .ok()
                    .and_then(|k| per.checked_pow(k))
                    .unwrap_or(usize::MAX),
            };
            let width = pools.len().saturating_mul(repeat as usize);
            check_count(total)?;
            check_values(total.saturating_mul(width))?;
            if total == 0 {
                return Ok(from_items("itertools.product", Vec::new()));
            }
            let pools: Vec<Vec<Value>> = (0..repeat).flat_map(|_| pools.clone()).collect();
            let mut out: Vec<Vec<Value>> = vec![Vec::new()];
            for pool in &pools {
                out = out
                    .into_iter()
                    .flat_map(|prefix| {
                        pool.iter().map(move |x| {
                            let mut t = prefix.clone();
                            t.push(x.clone());
                            t
                        })
                    })
                    .collect();
            }
            Ok(from_items(
                "itertools.product",
                out.into_iter().map(Value::tuple).collect(),
            ))
        },
    );
    m.func(
        "combinations",
        "combinations(iterable, r)",
        "r-length tuples in sorted order, no repeated elements, as a list.",
        |rt, a| {
            let pool = ops::iterate(rt, a.pos.first().unwrap_or(&Value::None))?;
            let r = a
                .pos
                .get(1)
                .or(a.kwarg("r"))
                .map(|v| v.as_index())
                .transpose()?;
            let r =
                r.ok_or_else(|| PyErr::type_error("combinations() missing required argument 'r'"))?;
            if r < 0 || r as usize > pool.len() {
                return Ok(from_items("itertools.combinations", Vec::new()));
            }
            combinations(rt, &pool, r as usize)
        },
    );
    m.func(
        "permutations",
        "permutations(iterable, r=None)",
        "r-length orderings of the items, as a list.",
        |rt, a| {
            let pool = ops::iterate(rt, a.pos.first().unwrap_or(&Value::None))?;
            let r = match a.pos.get(1).or(a.kwarg("r")) {
                Some(Value::None) | None => pool.len(),
                Some(v) => v.as_index()?.max(0) as usize,
            };
            if r > pool.len() {
                return Ok(from_items("itertools.permutations", Vec::new()));
            }
            permutations(rt, &pool, r)
        },
    );
    Rc::new(m)
}

/// `r`-item tuples of `pool` by index, in CPython's order: index sets increasing, the
/// last index moving fastest. The count is checked before any is built, and the loop is
/// iterative, so neither a huge `r` nor a huge result can overflow the stack or run long.
fn combinations(rt: &mut Runtime, pool: &[Value], r: usize) -> PyResult<Value> {
    let n = pool.len();
    // C(n, r) one factor at a time; every partial product is itself a binomial.
    let k = r.min(n - r);
    let count = (0..k)
        .try_fold(1usize, |acc, i| acc.checked_mul(n - i).map(|x| x / (i + 1)))
        .unwrap_or(usize::MAX);
    check_count(count)?;
    check_values(count.saturating_mul(r))?;
    let mut idx: Vec<usize> = (0..r).collect();
    let mut out = Vec::new();
    out.try_reserve_exact(count) // bounded: check_count caps it (50M)
        .map_err(|_| PyErr::memory_error("cannot allocate the itertools result"))?;
    loop {
        rt.check_interrupt()?;
        out.push(Value::tuple(idx.iter().map(|&i| pool[i].clone()).collect()));
        // The rightmost index that can still move right.
        let Some(i) = (0..r).rev().find(|&i| idx[i] != i + n - r) else {
            break;
        };
        idx[i] += 1;
        for j in i + 1..r {
            idx[j] = idx[j - 1] + 1;
        }
    }
    Ok(from_items("itertools.combinations", out))
}

/// Ordered `r`-item selections of `pool` by index, in CPython's order, as an explicit
/// depth-first walk (a huge `r` cannot overflow the stack), counted before any is built.
fn permutations(rt: &mut Runtime, pool: &[Value], r: usize) -> PyResult<Value> {
    let n = pool.len();
    let count = (0..r)
        .try_fold(1usize, |acc, i| acc.checked_mul(n - i))
        .unwrap_or(usize::MAX);
    check_count(count)?;
    check_values(count.saturating_mul(r))?;
    let mut out = Vec::new();
    out.try_reserve_exact(count) // bounded: check_count caps it (50M)
        .map_err(|_| PyErr::memory_error("cannot allocate the itertools result"))?;
    let mut used = vec![false; n]; // bounded: one flag per pool item
    let mut idx: Vec<usize> = Vec::with_capacity(r); // bounded: r <= pool.len() (caller)

    // next[d]: the first index to try at depth d.
    let mut next = vec![0usize; r + 1]; // bounded: r <= pool.len() (caller)
    loop {
        rt.check_interrupt()?;
        let d = idx.len();
        if d == r {
            out.push(Value::tuple(idx.iter().map(|&i| pool[i].clone()).collect()));
        } else if let Some(c) = (next[d]..n).find(|&c| !used[c]) {
            next[d] = c + 1;
            used[c] = true;
            idx.push(c);
            next[d + 1] = 0;
            continue;
        }
        // This depth is done: step back.
        match idx.pop() {
            Some(c) => used[c] = false,
            None => break,
        }
    }
    Ok(from_items("itertools.permutations", out))
}

/// Results are built as lists; past this many tuples the request raises MemoryError
/// instead of filling memory.
const MAX_TUPLES: usize = 50_000_000;

/// Items in all the tuples together.
const MAX_VALUES: usize = 4 * MAX_TUPLES;

fn check_values(n: usize) -> PyResult<()> {
    if n > MAX_VALUES {
        return Err(PyErr::memory_error(format!(
            "nbcuda builds itertools results as lists, and this one would hold more than {MAX_VALUES} items"
        )));
    }
    Ok(())
}

fn check_count(n: usize) -> PyResult<()> {
    if n > MAX_TUPLES {
        return Err(PyErr::memory_error(format!(
            "nbcuda builds itertools results as lists, and this one would hold more than {MAX_TUPLES} tuples"
        )));
    }
    Ok(())
}
