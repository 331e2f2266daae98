//! The pure array functions other parts call (no interpreter): elementwise operations,
//! reductions, casting, strided copies and broadcasting. Expected values computed by hand.
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::elem::{broadcast_shapes, cast, contiguous_copy, copy_into};
use nbcuda::arrays::elem::{from_vec, read_vec, scalar_array};
use nbcuda::arrays::error::ArrayErrorKind;
use nbcuda::arrays::operator::{BinOp, Reduce};
use nbcuda::arrays::reduce::{reduce, Reduced};
use nbcuda::arrays::ufunc::{elementwise_binary, elementwise_unary};
use nbcuda::arrays::NdArray;

fn f32s(shape: &[usize], v: &[f32]) -> NdArray {
    from_vec(shape, v).unwrap()
}

#[test]
fn binary_with_broadcast_and_out() {
    let a = f32s(&[2, 3], &[0., 1., 2., 3., 4., 5.]);
    let b = f32s(&[3], &[10., 20., 30.]);
    let r = elementwise_binary(BinOp::Add, &a, &b, None).unwrap();
    assert_eq!(r.shape, vec![2, 3]);
    assert_eq!(r.dtype, DType::F32);
    assert_eq!(read_vec::<f32>(&r), vec![10., 21., 32., 13., 24., 35.]);
    let out = nbcuda::arrays::NdArray::zeros(&[2, 3], DType::F64).unwrap();
    elementwise_binary(BinOp::Mul, &a, &scalar_array(Scalar::F32(2.0)), Some(&out)).unwrap();
    assert_eq!(read_vec::<f64>(&out), vec![0., 2., 4., 6., 8., 10.]);
    let bad = f32s(&[4], &[1., 2., 3., 4.]);
    let e = elementwise_binary(BinOp::Add, &a, &bad, None)
        .err()
        .unwrap();
    assert_eq!(e.kind, ArrayErrorKind::Value);
}

#[test]
fn comparisons_and_unary() {
    let a = from_vec(&[4], &[1i64, 5, 3, 7]).unwrap();
    let r = elementwise_binary(BinOp::Gt, &a, &scalar_array(Scalar::I64(3)), None).unwrap();
    assert_eq!(r.dtype, DType::Bool);
    assert_eq!(read_vec::<i64>(&r), vec![0, 1, 0, 1]);
    let s = elementwise_unary(
        u("sqrt"),
        &from_vec(&[3], &[4.0f64, 9.0, 2.25]).unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(read_vec::<f64>(&s), vec![2.0, 3.0, 1.5]);
    let n = elementwise_unary(u("negative"), &a, None).unwrap();
    assert_eq!(read_vec::<i64>(&n), vec![-1, -5, -3, -7]);
}

#[test]
fn reductions_by_axis() {
    let a = from_vec(&[2, 3], &[1i32, 2, 3, 4, 5, 6]).unwrap();
    match reduce(Reduce::Sum, &a, None).unwrap() {
        Reduced::Scalar(Scalar::I64(21)) => {}
        _ => panic!("sum is the int64 scalar 21"),
    }
    let Reduced::Array(c) = reduce(Reduce::Sum, &a, Some(0)).unwrap() else {
        panic!("axis sum is an array")
    };
    assert_eq!(read_vec::<i64>(&c), vec![5, 7, 9]);
    let Reduced::Array(m) = reduce(Reduce::Max, &a, Some(-1)).unwrap() else {
        panic!("axis max is an array")
    };
    assert_eq!((m.dtype, read_vec::<i32>(&m)), (DType::I32, vec![3, 6]));
    let Reduced::Scalar(s) = reduce(Reduce::Mean, &a, None).unwrap() else {
        panic!("mean is a scalar")
    };
    assert_eq!(s, Scalar::F64(3.5));
    // float32 pairwise summation: a million 0.1f32 sum to 100000.01 in NumPy 2.3.5
    // (sequential float32 accumulation drifts to about 100958).
    let v = vec![0.1f32; 1_000_000];
    let Reduced::Scalar(Scalar::F32(t)) =
        reduce(Reduce::Sum, &f32s(&[1_000_000], &v), None).unwrap()
    else {
        panic!("f32 sum")
    };
    assert_eq!(t, 100000.01f32);
}

#[test]
fn cast_copy_and_strides() {
    let a = from_vec(&[2, 3], &[1.7f64, -2.7, 3.2, 4.9, 5.0, -0.5]).unwrap();
    let i = cast(&a, DType::I32).unwrap();
    assert_eq!(read_vec::<i32>(&i), vec![1, -2, 3, 4, 5, 0]);
    // transposed view copied to C order
    let t = NdArray {
        shape: vec![3, 2],
        strides: vec![8, 24],
        ..a.clone()
    };
    let c = contiguous_copy(&t).unwrap();
    assert_eq!(read_vec::<f64>(&c), vec![1.7, 4.9, -2.7, 5.0, 3.2, -0.5]);
    // broadcast a row into every row of a strided destination
    let dst = NdArray::zeros(&[2, 3], DType::F32).unwrap();
    copy_into(&dst, &from_vec(&[3], &[1i64, 2, 3]).unwrap()).unwrap();
    assert_eq!(read_vec::<f32>(&dst), vec![1., 2., 3., 1., 2., 3.]);
    assert_eq!(broadcast_shapes(&[&[3, 1], &[4]]).unwrap(), vec![3, 4]);
    assert!(broadcast_shapes(&[&[3], &[4]]).is_err());
}

#[test]
fn integer_abs_and_negative_wrap_at_the_minimum_as_numpy_does() {
    // NumPy 2: np.abs(np.array([-2**63, 3])) is [-9223372036854775808, 3]; no overflow
    // error, no panic (found by the fuzz test in a debug build).
    let a = from_vec(&[2], &[i64::MIN, -3i64]).unwrap();
    for (name, want) in [
        ("absolute", [i64::MIN, 3]),
        ("negative", [i64::MIN, 3]),
        ("sign", [-1, -1]),
    ] {
        let r = elementwise_unary(u(name), &a, None).unwrap();
        assert_eq!(read_vec::<i64>(&r), want, "{name}");
    }
    let b = from_vec(&[1], &[i8::MIN]).unwrap();
    assert_eq!(
        read_vec::<i8>(&elementwise_unary(u("absolute"), &b, None).unwrap()),
        [i8::MIN]
    );
}

#[test]
fn int64_to_float32_rounds_once_as_numpy_does() {
    // NumPy 2: np.array([2**60 + 2**36 + 1, 2**24 + 1]).astype(np.float32).tolist() is
    // [1.1529216420458004e+18, 16777216.0]; rounding through float64 first would give 2**60.
    let a = from_vec(&[2], &[(1i64 << 60) + (1 << 36) + 1, (1 << 24) + 1]).unwrap();
    let f = cast(&a, DType::F32).unwrap();
    assert_eq!(
        read_vec::<f32>(&f),
        vec![((1i64 << 60) + (1 << 37)) as f32, 16_777_216.0]
    );
}

#[test]
fn where_selects_by_a_broadcast_condition_and_nonzero_lists_indices() {
    use nbcuda::arrays::elem::B8;
    use nbcuda::arrays::select::{nonzero, where3};
    // NumPy 2: np.where([[True], [False]], [1, 2], 0.5) is [[1., 2.], [0.5, 0.5]];
    // np.nonzero([[0, 3], [4, 0]]) is (array([0, 1]), array([1, 0])).
    let c = from_vec(&[2, 1], &[B8(1), B8(0)]).unwrap();
    let x = from_vec(&[2], &[1i64, 2]).unwrap();
    let r = where3(&c, &x, &scalar_array(Scalar::F64(0.5))).unwrap();
    assert_eq!((r.shape.clone(), r.dtype), (vec![2, 2], DType::F64));
    assert_eq!(read_vec::<f64>(&r), vec![1., 2., 0.5, 0.5]);
    let axes = nonzero(&from_vec(&[2, 2], &[0i32, 3, 4, 0]).unwrap()).unwrap();
    let got: Vec<Vec<i64>> = axes.iter().map(read_vec::<i64>).collect();
    assert_eq!(got, vec![vec![0, 1], vec![1, 0]]);
}

#[test]
fn out_of_range_floats_cast_to_integers_as_numpy_does_on_x86() {
    // NumPy 2 on x86-64: np.array(V).astype(T).tolist() for each T below (C leaves these
    // casts undefined; NumPy gives what the processor's truncating conversions give).
    let v = [
        f64::NAN,
        f64::INFINITY,
        -1.5,
        1e20,
        -1e20,
        2f64.powi(64),
        3e9,
        -3e9,
        70000.0,
    ];
    let a = from_vec(&[v.len()], &v).unwrap();
    let as_i128 = |d: DType| -> Vec<i128> {
        let c = cast(&a, d).unwrap();
        match d {
            DType::I8 => read_vec::<i8>(&c).into_iter().map(i128::from).collect(),
            DType::I16 => read_vec::<i16>(&c).into_iter().map(i128::from).collect(),
            DType::I32 => read_vec::<i32>(&c).into_iter().map(i128::from).collect(),
            DType::I64 => read_vec::<i64>(&c).into_iter().map(i128::from).collect(),
            DType::U8 => read_vec::<u8>(&c).into_iter().map(i128::from).collect(),
            DType::U16 => read_vec::<u16>(&c).into_iter().map(i128::from).collect(),
            DType::U32 => read_vec::<u32>(&c).into_iter().map(i128::from).collect(),
            _ => read_vec::<u64>(&c).into_iter().map(i128::from).collect(),
        }
    };
    let min64 = i64::MIN as i128;
    let min32 = i32::MIN as i128;
    assert_eq!(as_i128(DType::I8), [0, 0, -1, 0, 0, 0, 0, 0, 112]);
    assert_eq!(as_i128(DType::I16), [0, 0, -1, 0, 0, 0, 0, 0, 4464]);
    assert_eq!(
        as_i128(DType::I32),
        [min32, min32, -1, min32, min32, min32, min32, min32, 70000]
    );
    assert_eq!(
        as_i128(DType::I64),
        [
            min64,
            min64,
            -1,
            min64,
            min64,
            min64,
            3_000_000_000,
            -3_000_000_000,
            70000
        ]
    );
    assert_eq!(as_i128(DType::U8), [0, 0, 255, 0, 0, 0, 0, 0, 112]);
    assert_eq!(as_i128(DType::U16), [0, 0, 65535, 0, 0, 0, 0, 0, 4464]);
    assert_eq!(
        as_i128(DType::U32),
        [
            1 << 31,
            0,
            4294967295,
            0,
            1 << 31,
            0,
            3_000_000_000,
            1 << 31,
            70000
        ]
    );
    assert_eq!(
        as_i128(DType::U64),
        [
            1 << 63,
            0,
            u64::MAX as i128,
            0,
            1 << 63,
            0,
            3_000_000_000,
            (1 << 64) - 3_000_000_000,
            70000
        ]
    );
    // One cast table: a scalar converts as an array element does.
    assert_eq!(
        Scalar::F64(f64::NAN).cast(DType::I64),
        Scalar::I64(i64::MIN)
    );
    assert_eq!(Scalar::F32(-1.5).cast(DType::U64), Scalar::U64(u64::MAX));
}

/// NumPy's unary ufunc of that name.
fn u(name: &str) -> nbcuda::arrays::operator::Ufunc1 {
    nbcuda::arrays::operator::Ufunc1::from_name(name).expect("a unary ufunc")
}

#[test]
fn unary_ufunc_aliases_are_the_ufunc_they_name() {
    // NumPy binds these names to one ufunc object each (`np.abs is np.absolute`), whose
    // `__name__` its messages use; `radians` and `degrees` are ufuncs of their own.
    for (alias, name) in [
        ("abs", "absolute"),
        ("conj", "conjugate"),
        ("bitwise_not", "invert"),
        ("radians", "radians"),
        ("degrees", "degrees"),
        ("rint", "rint"),
    ] {
        assert_eq!(u(alias).name(), name);
    }
    assert_ne!(u("radians"), u("deg2rad"));
    assert!(nbcuda::arrays::operator::Ufunc1::from_name("round_").is_none());
    // Every name finds its ufunc, and every ufunc's own name is listed first.
    for &(n, f) in nbcuda::arrays::operator::Ufunc1::NAMES {
        assert_eq!(u(n), f);
        assert_eq!(u(f.name()), f, "{n}");
    }
}

#[test]
fn aliases_name_the_computation_numpy_names() {
    use nbcuda::arrays::operator::MathFn;
    use nbcuda::arrays::ufunc::Ufunc2;
    // NumPy's messages and `__name__` use the ufunc's own name, whichever alias was called.
    assert_eq!(
        Ufunc2::from_name("mod").map(Ufunc2::name),
        Some("remainder")
    );
    assert_eq!(
        Ufunc2::from_name("true_divide").map(Ufunc2::name),
        Some("divide")
    );
    assert_eq!(
        Ufunc2::from_name("arctan2"),
        Some(Ufunc2::Math(MathFn::Atan2))
    );
    assert_eq!(Reduce::from_name("amax").map(Reduce::name), Some("max"));
    assert_eq!(Reduce::from_name("amin"), Some(Reduce::Min));
    assert_eq!(Reduce::from_name("nansum"), None);
    // The kernels' two-argument math functions compute as NumPy's ufuncs of those names.
    let y = from_vec(&[2], &[1.0f64, -1.0]).unwrap();
    let x = from_vec(&[2], &[1.0f64, 1.0]).unwrap();
    let r = nbcuda::arrays::ufunc::binary_ufunc(Ufunc2::Math(MathFn::Atan2), &y, &x, None).unwrap();
    let v = read_vec::<f64>(&r);
    assert!(
        (v[0] - std::f64::consts::FRAC_PI_4).abs() < 1e-15
            && (v[1] + std::f64::consts::FRAC_PI_4).abs() < 1e-15
    );
    let Reduced::Array(c) = reduce(
        Reduce::CumProd,
        &from_vec(&[4], &[1i64, 2, 3, 4]).unwrap(),
        None,
    )
    .unwrap() else {
        panic!("cumprod gives an array")
    };
    assert_eq!(read_vec::<i64>(&c), vec![1, 2, 6, 24]);
}
