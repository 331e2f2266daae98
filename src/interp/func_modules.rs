//! Standard modules about functions and iteration: `operator` (the operators as functions,
//! also usable inside kernels), `functools` (`partial`, `reduce`) and `itertools`
//! (`product`, `chain`, `combinations`, `permutations`, as lists of tuples, the way nbcuda
//! materialises lazy iterators).

use std::rc::Rc;

use crate::arrays::operator::{BinOp, UnaryOp};
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
    let m = Module::new("functools", "Higher-order functions: partial and reduce.");
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
        "Combinatoric and chaining iterators (as lists).",
    );
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
            let pools: Vec<Vec<Value>> = (0..repeat).flat_map(|_| pools.clone()).collect();
            let total = pools
                .iter()
                .try_fold(1usize, |acc, p| acc.checked_mul(p.len()))
                .unwrap_or(usize::MAX);
            check_count(total)?;
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
            Ok(Value::list(out.into_iter().map(Value::tuple).collect()))
        },
    );
    m.func(
        "chain",
        "chain(*iterables)",
        "The items of each iterable in turn, as a list.",
        |rt, a| {
            let mut out = Vec::new();
            for p in &a.pos {
                out.extend(ops::iterate(rt, p)?);
            }
            Ok(Value::list(out))
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
            let mut out = Vec::new();
            if r >= 0 && (r as usize) <= pool.len() {
                choose(&pool, r as usize, 0, &mut Vec::new(), &mut out)?;
            }
            Ok(Value::list(out))
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
            let mut out = Vec::new();
            if r <= pool.len() {
                let mut used = vec![false; pool.len()];
                arrange(&pool, r, &mut used, &mut Vec::new(), &mut out)?;
            }
            Ok(Value::list(out))
        },
    );
    Rc::new(m)
}

/// One finished combination or arrangement.
fn emit(cur: &[Value], out: &mut Vec<Value>) -> PyResult<()> {
    check_count(out.len() + 1)?;
    out.push(Value::tuple(cur.to_vec()));
    Ok(())
}

fn choose(
    pool: &[Value],
    r: usize,
    start: usize,
    cur: &mut Vec<Value>,
    out: &mut Vec<Value>,
) -> PyResult<()> {
    if cur.len() == r {
        return emit(cur, out);
    }
    for i in start..pool.len() {
        cur.push(pool[i].clone());
        choose(pool, r, i + 1, cur, out)?;
        cur.pop();
    }
    Ok(())
}

fn arrange(
    pool: &[Value],
    r: usize,
    used: &mut [bool],
    cur: &mut Vec<Value>,
    out: &mut Vec<Value>,
) -> PyResult<()> {
    if cur.len() == r {
        return emit(cur, out);
    }
    for i in 0..pool.len() {
        if !used[i] {
            used[i] = true;
            cur.push(pool[i].clone());
            arrange(pool, r, used, cur, out)?;
            cur.pop();
            used[i] = false;
        }
    }
    Ok(())
}

/// Results are built as lists; past this many tuples the request raises MemoryError
/// instead of filling memory.
const MAX_TUPLES: usize = 50_000_000;

fn check_count(n: usize) -> PyResult<()> {
    if n > MAX_TUPLES {
        return Err(PyErr::memory_error(format!(
            "nbcuda builds itertools results as lists, and this one would hold more than {MAX_TUPLES} tuples"
        )));
    }
    Ok(())
}
