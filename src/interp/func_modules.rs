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
use crate::py::signature::Style::{Clinic, ClinicNew, Function};
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
    // The functions are _operator's, as CPython's messages say (`_operator.add() takes no
    // keyword arguments`).
    let c = Module::new("_operator", "");
    let mut binary: Vec<(&str, BinOp)> = OPERATOR_BINARY.to_vec();
    binary.push(("ge", BinOp::Ge));
    for (name, op) in binary {
        let doc = format!("Same as a {} b.", op.symbol());
        c.def(Clinic, name, "a, b, /", &doc, move |rt, b| {
            let (x, y) = (b.value(0), b.value(1));
            match op {
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    ops::compare(rt, op, &x, &y)
                }
                _ => ops::binary(rt, op, &x, &y),
            }
        });
    }
    for (name, op, doc) in [
        ("neg", UnaryOp::Neg, "Same as -a."),
        ("pos", UnaryOp::Pos, "Same as +a."),
        ("invert", UnaryOp::Invert, "Same as ~a."),
    ] {
        c.def(Clinic, name, "a, /", doc, move |rt, b| {
            ops::unary(rt, op, &b.value(0))
        });
    }
    c.def(Clinic, "not_", "a, /", "Same as not a.", |rt, b| {
        Ok(Value::Bool(!ops::truthy(rt, &b.value(0))?))
    });
    c.def(
        Clinic,
        "truth",
        "a, /",
        "Return True if a is true, False otherwise.",
        |rt, b| Ok(Value::Bool(ops::truthy(rt, &b.value(0))?)),
    );
    c.def(Clinic, "index", "a, /", "Same as a.__index__()", |rt, b| {
        let a = b.value(0);
        crate::interp::subscript::index_of(rt, &a)?.ok_or_else(|| {
            PyErr::type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                a.type_name()
            ))
        })
    });
    c.def(Clinic, "getitem", "a, b, /", "Same as a[b].", |rt, b| {
        crate::interp::subscript::get_item(rt, &b.value(0), &b.value(1))
    });
    c.def(
        Clinic,
        "contains",
        "a, b, /",
        "Same as b in a (note reversed operands).",
        |rt, b| Ok(Value::Bool(ops::contains(rt, &b.value(0), &b.value(1))?)),
    );
    for name in c.names() {
        if let Some(f) = c.get(&name) {
            m.set(&name, f);
        }
    }
    crate::interp::operator_getters::register(&m);
    Rc::new(m)
}

/// The `functools` module.
pub fn functools_module() -> Rc<Module> {
    let m = Module::new(
        "functools",
        "Higher-order functions: partial, reduce, lru_cache and cache.",
    );
    // partial's own checks (partial_new); a keyword named func is one of its keywords.
    m.def_shown(
        Clinic,
        "partial",
        "func, /, *args, **keywords",
        "partial(func, *args, **keywords)",
        "partial(func, *args, **keywords) - new function with partial application of the given arguments and keywords.",
        |_, b| {
            let Some(func) = b.get(0) else {
                return Err(PyErr::type_error(
                    "type 'partial' takes at least one argument",
                ));
            };
            Ok(Value::object(Partial {
                func: func.clone(),
                args: b.rest.clone(),
                kw: b.kw.clone(),
            }))
        },
    );
    // `initial` has no default Python could write: an explicit None is an initial value.
    m.def_shown(
        ClinicNew,
        "reduce",
        "function, iterable, initial=<unset>, /",
        "reduce(function, iterable[, initial])",
        "reduce(function, iterable[, initial]) -> value",
        |rt, b| {
            let f = b.value(0);
            let items = ops::iterate(rt, &b.value(1))?;
            let mut it = items.into_iter();
            let mut acc = match b.get(2) {
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
    m.def(
        Function,
        "lru_cache",
        "maxsize=128, typed=False",
        "Least-recently-used cache decorator.",
        crate::interp::lib_modules::lru_cache,
    );
    m.def(
        Function,
        "cache",
        "user_function, /",
        "Simple lightweight unbounded cache.  Sometimes called \"memoize\".",
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
    m.def_shown(
        Clinic,
        "product",
        "*iterables, repeat=1",
        "product(*iterables, repeat=1)",
        "product(*iterables, repeat=1) --> product object",
        |rt, b| {
            if let Some((k, _)) = b.kw.first() {
                return Err(PyErr::type_error(format!(
                    "'{k}' is an invalid keyword argument for product()"
                )));
            }
            let repeat = b.value(0).as_index()?;
            if repeat < 0 {
                return Err(PyErr::value_error("repeat argument cannot be negative"));
            }
            let mut pools = Vec::new();
            for p in &b.rest {
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
    m.def(
        Clinic,
        "combinations",
        "iterable, r",
        "Return successive r-length combinations of elements in the iterable.",
        |rt, b| {
            let pool = ops::iterate(rt, &b.value(0))?;
            let r = b.value(1).as_index()?;
            if r < 0 {
                return Err(PyErr::value_error("r must be non-negative"));
            }
            if r as usize > pool.len() {
                return Ok(from_items("itertools.combinations", Vec::new()));
            }
            combinations(rt, &pool, r as usize)
        },
    );
    m.def(
        Clinic,
        "permutations",
        "iterable, r=None",
        "Return successive r-length permutations of elements in the iterable.",
        |rt, b| {
            let pool = ops::iterate(rt, &b.value(0))?;
            let r = match b.get(1) {
                Some(Value::None) | None => pool.len(),
                Some(v) => match v.as_index()? {
                    r if r < 0 => return Err(PyErr::value_error("r must be non-negative")),
                    r => r as usize,
                },
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
