//! CuPy arrays: creation, arithmetic values, reductions, interop with Numba, CAI.

mod devices_support;
use devices_support::*;

use nbcuda::arrays::dtype::DType;
use nbcuda::arrays::operator::BinOp;
use nbcuda::py::value::{Args, Value};

fn cp() -> std::rc::Rc<nbcuda::py::value::Module> {
    nbcuda::cupy::module()
}

fn get(rt: &mut nbcuda::py::runtime::Runtime, v: &Value) -> Vec<f64> {
    values(&meth(rt, v, "get", Args::default()).unwrap())
}

fn dtype(rt: &mut nbcuda::py::runtime::Runtime, v: &Value) -> DType {
    match attr(rt, v, "dtype").unwrap() {
        Value::DType(d) => d,
        _ => panic!(),
    }
}

fn bin(rt: &mut nbcuda::py::runtime::Runtime, op: BinOp, a: &Value, b: &Value) -> Value {
    let Value::Object(o) = a else { panic!() };
    o.clone().binary_op(op, b, false, rt).unwrap().unwrap()
}

#[test]
fn arithmetic_values_and_dtypes() {
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::Array(Box::new(arange(5, DType::F32)))]),
    )
    .unwrap();
    let y = bin(&mut rt, BinOp::Mul, &x, &Value::Int(2));
    assert_eq!(get(&mut rt, &y), vec![0., 2., 4., 6., 8.]);
    assert_eq!(
        dtype(&mut rt, &y),
        DType::F32,
        "Python ints keep float32 (NEP 50)"
    );
    let z = bin(&mut rt, BinOp::Add, &x, &y);
    assert_eq!(get(&mut rt, &z), vec![0., 3., 6., 9., 12.]);
    let p = bin(&mut rt, BinOp::Pow, &x, &Value::Int(2));
    assert_eq!(get(&mut rt, &p), vec![0., 1., 4., 9., 16.]);
    let c = bin(&mut rt, BinOp::Gt, &x, &Value::Float(2.5));
    assert_eq!(dtype(&mut rt, &c), DType::Bool);
    assert_eq!(get(&mut rt, &c), vec![0., 0., 0., 1., 1.]);
    let i = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(4)])).unwrap();
    assert_eq!(dtype(&mut rt, &i), DType::I64);
    let d = bin(&mut rt, BinOp::Div, &i, &Value::Int(2));
    assert_eq!(dtype(&mut rt, &d), DType::F64);
    assert_eq!(get(&mut rt, &d), vec![0., 0.5, 1., 1.5]);
    let neg = call(
        &mut rt,
        &m,
        "arange",
        Args::new(vec![Value::Int(-3), Value::Int(1)]),
    )
    .unwrap();
    let md = bin(&mut rt, BinOp::Mod, &neg, &Value::Int(2));
    assert_eq!(get(&mut rt, &md), vec![1., 0., 1., 0.]);
}

#[test]
fn broadcasting_and_host_arrays_refused() {
    let mut rt = runtime();
    let m = cp();
    let col = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(3)])).unwrap();
    let col = meth(
        &mut rt,
        &col,
        "reshape",
        Args::new(vec![Value::Int(3), Value::Int(1)]),
    )
    .unwrap();
    let row = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(2)])).unwrap();
    let s = bin(&mut rt, BinOp::Add, &col, &row);
    assert_eq!(ints(&attr(&mut rt, &s, "shape").unwrap()), vec![3, 2]);
    assert_eq!(get(&mut rt, &s), vec![0., 1., 1., 2., 2., 3.]);
    let Value::Object(o) = &row else { panic!() };
    let e = o
        .clone()
        .binary_op(
            BinOp::Add,
            &Value::Array(Box::new(arange(2, DType::I64))),
            false,
            &mut rt,
        )
        .unwrap_err();
    assert_eq!(e.ename, "TypeError");
    let bad = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(3)])).unwrap();
    let Value::Object(o) = &bad else { panic!() };
    let e = o
        .clone()
        .binary_op(BinOp::Add, &row, false, &mut rt)
        .unwrap_err();
    assert!(
        e.message
            .starts_with("operands could not be broadcast together with shapes (3,) (2,)"),
        "{}",
        e.message
    );
}

#[test]
fn ufuncs_and_reductions() {
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::Array(Box::new(host(
            &[1.0, 4.0, 9.0, 16.0],
            DType::F32,
        )))]),
    )
    .unwrap();
    let r = call(&mut rt, &m, "sqrt", Args::new(vec![x.clone()])).unwrap();
    assert_eq!(get(&mut rt, &r), vec![1., 2., 3., 4.]);
    assert_eq!(dtype(&mut rt, &r), DType::F32);
    let s = call(&mut rt, &m, "sum", Args::new(vec![x.clone()])).unwrap();
    assert_eq!(
        ints(&attr(&mut rt, &s, "shape").unwrap()),
        Vec::<i64>::new()
    );
    assert_eq!(get(&mut rt, &s), vec![30.0]);
    let mean = meth(&mut rt, &x, "mean", Args::default()).unwrap();
    assert_eq!(get(&mut rt, &mean), vec![7.5]);
    let am = meth(&mut rt, &x, "argmax", Args::default()).unwrap();
    assert_eq!(dtype(&mut rt, &am), DType::I64);
    assert_eq!(get(&mut rt, &am), vec![3.0]);
    let mx = call(&mut rt, &m, "max", Args::new(vec![x.clone()])).unwrap();
    assert_eq!(get(&mut rt, &mx), vec![16.0]);
    let pair = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::list(vec![
            Value::Float(1.0),
            Value::Float(3.0),
        ])]),
    )
    .unwrap();
    let sd = call(&mut rt, &m, "std", Args::new(vec![pair])).unwrap();
    assert_eq!(get(&mut rt, &sd), vec![1.0]);
    let two = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(6)])).unwrap();
    let two = meth(
        &mut rt,
        &two,
        "reshape",
        Args::new(vec![Value::Int(2), Value::Int(3)]),
    )
    .unwrap();
    let cols = meth(
        &mut rt,
        &two,
        "sum",
        Args::default().with_kw("axis", Value::Int(0)),
    )
    .unwrap();
    assert_eq!(get(&mut rt, &cols), vec![3., 5., 7.]);
    let rows = meth(
        &mut rt,
        &two,
        "sum",
        Args::default().with_kw("axis", Value::Int(1)),
    )
    .unwrap();
    assert_eq!(get(&mut rt, &rows), vec![3., 12.]);
}

#[test]
fn numba_and_cupy_share_memory() {
    let mut rt = runtime();
    let m = cp();
    let c = cuda();
    let x = call(
        &mut rt,
        &m,
        "zeros",
        Args::new(vec![Value::Int(4)]).with_kw("dtype", Value::str("float32")),
    )
    .unwrap();
    let d = call(&mut rt, &c, "as_cuda_array", Args::new(vec![x.clone()])).unwrap();
    let Value::Object(o) = &d else { panic!() };
    o.set_item(&Value::Int(1), Value::Float(5.0), &mut rt)
        .unwrap();
    assert_eq!(get(&mut rt, &x), vec![0., 5., 0., 0.]);
    let back = call(&mut rt, &m, "asarray", Args::new(vec![d.clone()])).unwrap();
    let Value::Object(bo) = &back else { panic!() };
    bo.set_item(&Value::Int(2), Value::Float(7.0), &mut rt)
        .unwrap();
    let h = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&h), vec![0., 5., 7., 0.]);
}

#[test]
fn cupy_cai_key_order_and_stream() {
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "ones",
        Args::new(vec![Value::Int(5)]).with_kw("dtype", Value::str("f4")),
    )
    .unwrap();
    let Value::Dict(ref d) = attr(&mut rt, &x, "__cuda_array_interface__").unwrap() else {
        panic!()
    };
    let d = d.borrow();
    let keys: Vec<&str> = d.iter().map(|(k, _)| k.as_str().unwrap()).collect();
    assert_eq!(
        keys,
        ["shape", "typestr", "descr", "stream", "version", "strides", "data"]
    );
    assert!(matches!(d.get_str("stream"), Some(Value::Int(1))));
    assert!(d.get_str("strides").unwrap().is_none());
    assert_eq!(get(&mut rt, &x), vec![1.0; 5]);
}

#[test]
fn cupy_work_is_recorded_as_kernels() {
    let mut rt = runtime();
    let m = cp();
    let x = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(8)])).unwrap();
    let _y = bin(&mut rt, BinOp::Add, &x, &x);
    nbcuda::device::api::synchronize(&mut rt).unwrap();
    let (events, _) = nbcuda::device::ledger::events_since(&mut rt, 0);
    assert!(events
        .iter()
        .any(|e| e.kind == nbcuda::device::ledger::LedgerKind::Kernel && e.label == "cupy_add"));
}

#[test]
fn cupy_streams_scope_work() {
    let mut rt = runtime();
    let m = cp();
    let Some(Value::Module(ref cm)) = m.get("cuda") else {
        panic!()
    };
    let class = cm.get("Stream").unwrap();
    let Value::Object(c) = &class else { panic!() };
    let s = c.clone().call(Args::default(), &mut rt).unwrap();
    let Value::Object(so) = &s else { panic!() };
    so.clone().enter(&mut rt).unwrap();
    let x = call(&mut rt, &m, "ones", Args::new(vec![Value::Int(3)])).unwrap();
    let y = bin(&mut rt, BinOp::Add, &x, &Value::Int(1));
    so.exit(&mut rt, None).unwrap();
    meth(&mut rt, &s, "synchronize", Args::default()).unwrap();
    let (events, _) = nbcuda::device::ledger::events_since(&mut rt, 0);
    let sid = match attr(&mut rt, &s, "ptr").unwrap() {
        Value::Int(i) => i as u64,
        _ => panic!(),
    };
    let add = events.iter().find(|e| e.label == "cupy_add").unwrap();
    assert_eq!(add.stream, sid);
    assert_eq!(get(&mut rt, &y), vec![2.0; 3]);
    let null = attr(&mut rt, &class, "null").unwrap();
    meth(&mut rt, &null, "synchronize", Args::default()).unwrap();
}

#[test]
fn large_contiguous_arithmetic_matches_elementwise_values() {
    // Larger than one work chunk, so chunk boundaries are crossed.
    let n = 40_000;
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::Array(Box::new(arange(n, DType::F32)))]),
    )
    .unwrap();
    let y = bin(&mut rt, BinOp::Mul, &x, &Value::Float(0.5));
    let z = bin(&mut rt, BinOp::Sub, &x, &y);
    let zs = get(&mut rt, &z);
    assert_eq!(zs.len(), n);
    for (i, v) in zs.iter().enumerate() {
        assert_eq!(*v, (i as f32 - i as f32 * 0.5) as f64, "element {i}");
    }
    let r = call(&mut rt, &m, "sqrt", Args::new(vec![x.clone()])).unwrap();
    let rs = get(&mut rt, &r);
    assert_eq!(rs[n - 1], ((n - 1) as f32).sqrt() as f64);
    let d = bin(&mut rt, BinOp::Div, &x, &x);
    assert!(get(&mut rt, &d)[0].is_nan());
    let i = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(n as i64)])).unwrap();
    let big = bin(&mut rt, BinOp::Mul, &i, &Value::Int(i64::MAX));
    let bs = attr(&mut rt, &big, "dtype").unwrap();
    assert!(matches!(bs, Value::DType(DType::I64)));
    let h = meth(&mut rt, &big, "get", Args::default()).unwrap();
    let Value::Array(ref h) = h else { panic!() };
    let mut b = [0u8; 8];
    h.buf.read(2 * 8, &mut b);
    assert_eq!(i64::from_le_bytes(b), 2i64.wrapping_mul(i64::MAX));
}

#[test]
fn large_reductions_agree_with_exact_values() {
    let n = 100_000;
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::Array(Box::new(arange(n, DType::F64)))]),
    )
    .unwrap();
    let s = meth(&mut rt, &x, "sum", Args::default()).unwrap();
    assert_eq!(get(&mut rt, &s), vec![(n * (n - 1) / 2) as f64]);
    let mean = meth(&mut rt, &x, "mean", Args::default()).unwrap();
    assert_eq!(get(&mut rt, &mean), vec![(n - 1) as f64 / 2.0]);
    let mn = meth(&mut rt, &x, "min", Args::default()).unwrap();
    let mx = meth(&mut rt, &x, "max", Args::default()).unwrap();
    assert_eq!(
        (get(&mut rt, &mn), get(&mut rt, &mx)),
        (vec![0.0], vec![(n - 1) as f64])
    );
    let i = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(n as i64)])).unwrap();
    let si = meth(&mut rt, &i, "sum", Args::default()).unwrap();
    assert!(matches!(
        attr(&mut rt, &si, "dtype").unwrap(),
        Value::DType(DType::I64)
    ));
    assert_eq!(get(&mut rt, &si), vec![(n * (n - 1) / 2) as f64]);
}

#[test]
fn random_arrays_are_seeded_and_in_range() {
    let mut rt = runtime();
    let m = cp();
    let Some(Value::Module(ref r)) = m.get("random") else {
        panic!()
    };
    call(&mut rt, r, "seed", Args::new(vec![Value::Int(42)])).unwrap();
    let a = call(&mut rt, r, "random", Args::new(vec![Value::Int(1000)])).unwrap();
    call(&mut rt, r, "seed", Args::new(vec![Value::Int(42)])).unwrap();
    let b = call(&mut rt, r, "random", Args::new(vec![Value::Int(1000)])).unwrap();
    let (va, vb) = (get(&mut rt, &a), get(&mut rt, &b));
    assert_eq!(va, vb);
    assert!(va.iter().all(|&x| (0.0..1.0).contains(&x)));
    assert!(va.windows(2).any(|w| w[0] != w[1]));
    let i = call(
        &mut rt,
        r,
        "randint",
        Args::new(vec![Value::Int(3), Value::Int(7)]).with_kw("size", tuple(&[10, 10])),
    )
    .unwrap();
    assert_eq!(ints(&attr(&mut rt, &i, "shape").unwrap()), vec![10, 10]);
    assert!(get(&mut rt, &i).iter().all(|&x| (3.0..7.0).contains(&x)));
    let n = call(
        &mut rt,
        r,
        "normal",
        Args::default()
            .with_kw("loc", Value::Float(5.0))
            .with_kw("size", Value::Int(100_000)),
    )
    .unwrap();
    let mean = get(&mut rt, &n).iter().sum::<f64>() / 100_000.0;
    assert!((mean - 5.0).abs() < 0.05, "{mean}");
    let f = call(
        &mut rt,
        r,
        "random",
        Args::new(vec![Value::Int(3)]).with_kw("dtype", Value::str("float32")),
    )
    .unwrap();
    assert_eq!(dtype(&mut rt, &f), DType::F32);
}

#[test]
fn extremes_where_nonzero_clip_and_matmul() {
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::Array(Box::new(host(
            &[1.0, 5.0, -2.0, 8.0],
            DType::F32,
        )))]),
    )
    .unwrap();
    let mx = call(
        &mut rt,
        &m,
        "maximum",
        Args::new(vec![x.clone(), Value::Int(2)]),
    )
    .unwrap();
    assert_eq!(get(&mut rt, &mx), vec![2., 5., 2., 8.]);
    assert_eq!(dtype(&mut rt, &mx), DType::F32);
    let cl = call(
        &mut rt,
        &m,
        "clip",
        Args::new(vec![x.clone(), Value::Int(0), Value::Int(6)]),
    )
    .unwrap();
    assert_eq!(get(&mut rt, &cl), vec![1., 5., 0., 6.]);
    let cond = bin(&mut rt, BinOp::Gt, &x, &Value::Int(2));
    let w = call(
        &mut rt,
        &m,
        "where",
        Args::new(vec![cond, x.clone(), Value::Float(0.0)]),
    )
    .unwrap();
    assert_eq!(get(&mut rt, &w), vec![0., 5., 0., 8.]);
    // One argument: nonzero, one int64 device array per axis (NumPy: (array([1, 3]),)).
    let cond = bin(&mut rt, BinOp::Gt, &x, &Value::Int(2));
    let nz = call(&mut rt, &m, "where", Args::new(vec![cond])).unwrap();
    let Value::Tuple(axes) = &nz else {
        panic!("where(condition) gave {}", nz.type_name())
    };
    assert_eq!(axes.len(), 1);
    assert_eq!(get(&mut rt, &axes[0]), vec![1., 3.]);
    assert_eq!(dtype(&mut rt, &axes[0]), DType::I64);
    let a = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(6)])).unwrap();
    let a = meth(
        &mut rt,
        &a,
        "reshape",
        Args::new(vec![Value::Int(2), Value::Int(3)]),
    )
    .unwrap();
    let v = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::list(vec![
            Value::Int(1),
            Value::Int(0),
            Value::Int(2),
        ])]),
    )
    .unwrap();
    let p = bin(&mut rt, BinOp::MatMul, &a, &v);
    assert_eq!(ints(&attr(&mut rt, &p, "shape").unwrap()), vec![2]);
    assert_eq!(get(&mut rt, &p), vec![4., 13.]);
    let at = attr(&mut rt, &a, "T").unwrap();
    let g = call(&mut rt, &m, "dot", Args::new(vec![a.clone(), at])).unwrap();
    assert_eq!(get(&mut rt, &g), vec![5., 14., 14., 50.]);
    let e = call(&mut rt, &m, "dot", Args::new(vec![a.clone(), a])).unwrap_err();
    assert!(e.message.contains("not aligned"), "{}", e.message);
}

#[test]
fn boolean_masks_and_index_arrays() {
    let mut rt = runtime();
    let m = cp();
    let x = call(
        &mut rt,
        &m,
        "asarray",
        Args::new(vec![Value::Array(Box::new(host(
            &[3.0, -1.0, 4.0, -5.0, 9.0],
            DType::F64,
        )))]),
    )
    .unwrap();
    let Value::Object(o) = &x else { panic!() };
    let mask = bin(&mut rt, BinOp::Gt, &x, &Value::Int(0));
    let sel = o.clone().get_item(&mask, &mut rt).unwrap();
    assert_eq!(get(&mut rt, &sel), vec![3., 4., 9.]);
    let idx = Value::list(vec![Value::Int(4), Value::Int(0), Value::Int(-1)]);
    let t = o.clone().get_item(&idx, &mut rt).unwrap();
    assert_eq!(get(&mut rt, &t), vec![9., 3., 9.]);
    let e = o
        .clone()
        .get_item(&Value::list(vec![Value::Int(7)]), &mut rt)
        .unwrap_err();
    assert_eq!(e.ename, "IndexError");
    let neg = bin(&mut rt, BinOp::Lt, &x, &Value::Int(0));
    o.set_item(&neg, Value::Int(0), &mut rt).unwrap();
    assert_eq!(get(&mut rt, &x), vec![3., 0., 4., 0., 9.]);
    // Rows of a 2-D array.
    let a = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(6)])).unwrap();
    let a = meth(
        &mut rt,
        &a,
        "reshape",
        Args::new(vec![Value::Int(3), Value::Int(2)]),
    )
    .unwrap();
    let Value::Object(ao) = &a else { panic!() };
    let r = ao
        .clone()
        .get_item(&Value::list(vec![Value::Int(2), Value::Int(0)]), &mut rt)
        .unwrap();
    assert_eq!(ints(&attr(&mut rt, &r, "shape").unwrap()), vec![2, 2]);
    assert_eq!(get(&mut rt, &r), vec![4., 5., 0., 1.]);
}

#[test]
fn number_protocol_methods_for_the_interpreter() {
    let mut rt = runtime();
    let m = cp();
    let x = call(&mut rt, &m, "arange", Args::new(vec![Value::Int(4)])).unwrap();
    let s = meth(&mut rt, &x, "sum", Args::default()).unwrap();
    assert!(
        matches!(meth(&mut rt, &s, "__float__", Args::default()).unwrap(), Value::Float(f) if f == 6.0)
    );
    assert!(matches!(
        meth(&mut rt, &s, "__index__", Args::default()).unwrap(),
        Value::Int(6)
    ));
    let e = meth(&mut rt, &x, "__float__", Args::default()).unwrap_err();
    assert_eq!(e.ename, "ValueError");
    let st = call(&mut rt, &cuda(), "stream", Args::default()).unwrap();
    let h = attr(&mut rt, &st, "handle").unwrap();
    let i = meth(&mut rt, &st, "__int__", Args::default()).unwrap();
    assert!(matches!((h, i), (Value::Int(a), Value::Int(b)) if a == b));
}
