//! Device memory: allocation, transfers, indexing, views, errors (Numba's cudadrv behaviours).

mod devices_support;
use devices_support::*;

use nbcuda::arrays::dtype::DType;
use nbcuda::py::value::{Args, Value};

#[test]
fn to_device_round_trip_restores_values() {
    let mut rt = runtime();
    let m = cuda();
    let h = arange(100, DType::F32);
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(h.clone()))]),
    )
    .unwrap();
    assert_eq!(ints(&attr(&mut rt, &d, "shape").unwrap()), vec![100]);
    assert_eq!(ints(&attr(&mut rt, &d, "strides").unwrap()), vec![4]);
    assert!(matches!(
        attr(&mut rt, &d, "dtype").unwrap(),
        Value::DType(DType::F32)
    ));
    assert!(matches!(
        attr(&mut rt, &d, "size").unwrap(),
        Value::Int(100)
    ));
    assert!(matches!(
        attr(&mut rt, &d, "nbytes").unwrap(),
        Value::Int(400)
    ));
    // Zero the host, then copy back into it.
    h.buf.fill(0, 400, 0);
    let back = meth(
        &mut rt,
        &d,
        "copy_to_host",
        Args::new(vec![Value::Array(Box::new(h.clone()))]),
    )
    .unwrap();
    assert_eq!(
        values(&back),
        (0..100).map(|i| i as f64).collect::<Vec<_>>()
    );
    let fresh = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&fresh)[99], 99.0);
}

#[test]
fn device_array_shape_rules() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![tuple(&[10, 10])]).with_kw("dtype", Value::str("f4")),
    )
    .unwrap();
    assert_eq!(ints(&attr(&mut rt, &d, "shape").unwrap()), vec![10, 10]);
    assert_eq!(ints(&attr(&mut rt, &d, "strides").unwrap()), vec![40, 4]);
    let e = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::Float(1.23)]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "TypeError");
    let e = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::tuple(vec![
            Value::Float(1.1),
            Value::Float(2.2),
        ])]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "TypeError");
    let f = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![tuple(&[3, 4])]).with_kw("order", Value::str("F")),
    )
    .unwrap();
    assert_eq!(ints(&attr(&mut rt, &f, "strides").unwrap()), vec![8, 24]);
    assert!(matches!(
        meth(&mut rt, &f, "is_f_contiguous", Args::default()).unwrap(),
        Value::Bool(true)
    ));
    assert!(matches!(
        meth(&mut rt, &f, "is_c_contiguous", Args::default()).unwrap(),
        Value::Bool(false)
    ));
}

#[test]
fn out_of_memory_is_a_cuda_api_error_with_sizes() {
    let mut rt = runtime();
    let m = cuda();
    let info = call(&mut rt, &m, "current_context", Args::default()).unwrap();
    let mi = meth(&mut rt, &info, "get_memory_info", Args::default()).unwrap();
    let total = match attr(&mut rt, &mi, "total").unwrap() {
        Value::Int(t) => t,
        _ => panic!(),
    };
    let e = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::Int(total)]).with_kw("dtype", Value::str("f8")),
    )
    .unwrap_err();
    assert_eq!(e.ename, "CudaAPIError");
    assert_eq!(
        e.message,
        "[2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY"
    );
    let hint = e.hint.as_ref().unwrap();
    assert!(
        hint.contains(&format!("requested {} bytes", total * 8)),
        "{hint}"
    );
    assert!(hint.contains(&format!("of {total} bytes total")), "{hint}");
}

#[test]
fn memory_info_tracks_allocations_and_drops() {
    let mut rt = runtime();
    let m = cuda();
    let ctx = call(&mut rt, &m, "current_context", Args::default()).unwrap();
    let free = |rt: &mut nbcuda::py::runtime::Runtime| {
        let mi = meth(rt, &ctx, "get_memory_info", Args::default()).unwrap();
        match attr(rt, &mi, "free").unwrap() {
            Value::Int(f) => f,
            _ => panic!(),
        }
    };
    let before = free(&mut rt);
    let d = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::Int(1 << 20)]).with_kw("dtype", Value::str("u1")),
    )
    .unwrap();
    assert_eq!(free(&mut rt), before - (1 << 20));
    drop(d);
    assert_eq!(free(&mut rt), before);
}

#[test]
fn integer_index_returns_numpy_scalar_and_slices_are_views() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(arange(10, DType::F32)))]),
    )
    .unwrap();
    let Value::Object(o) = &d else { panic!() };
    let x = o.clone().get_item(&Value::Int(-1), &mut rt).unwrap();
    assert!(matches!(x, Value::Scalar(nbcuda::arrays::dtype::Scalar::F32(v)) if v == 9.0));
    let e = o.clone().get_item(&Value::Int(10), &mut rt).unwrap_err();
    assert_eq!(e.ename, "IndexError");
    let sl = Value::Slice(std::rc::Rc::new(nbcuda::arrays::index::SliceValue {
        start: Some(1),
        stop: None,
        step: Some(2),
    }));
    let v = o.clone().get_item(&sl, &mut rt).unwrap();
    assert_eq!(ints(&attr(&mut rt, &v, "shape").unwrap()), vec![5]);
    assert_eq!(ints(&attr(&mut rt, &v, "strides").unwrap()), vec![8]);
    // The view shares memory: writing through it shows in the parent.
    let Value::Object(vo) = &v else { panic!() };
    vo.set_item(&Value::Int(0), Value::Float(100.0), &mut rt)
        .unwrap();
    let host = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&host)[1], 100.0);
    // ravel of a strided view needs a copy.
    let e = meth(&mut rt, &v, "ravel", Args::default()).unwrap_err();
    assert_eq!(e.ename, "NotImplementedError");
    // Negative strides cannot be copied to the host.
    let rev = Value::Slice(std::rc::Rc::new(nbcuda::arrays::index::SliceValue {
        start: None,
        stop: None,
        step: Some(-1),
    }));
    let r = o.clone().get_item(&rev, &mut rt).unwrap();
    let e = meth(&mut rt, &r, "copy_to_host", Args::default()).unwrap_err();
    assert_eq!(e.ename, "NotImplementedError");
    assert_eq!(
        e.message,
        "D->H copy not implemented for negative strides: (-4,)"
    );
}

#[test]
fn setitem_broadcasts_and_checks_shapes() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(5)])).unwrap();
    let Value::Object(o) = &d else { panic!() };
    let all = Value::Slice(std::rc::Rc::new(nbcuda::arrays::index::SliceValue {
        start: None,
        stop: None,
        step: None,
    }));
    o.set_item(&all, Value::Int(7), &mut rt).unwrap();
    o.set_item(&Value::Int(2), Value::Float(0.5), &mut rt)
        .unwrap();
    let host = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&host), vec![7.0, 7.0, 0.5, 7.0, 7.0]);
    let e = o
        .set_item(
            &all,
            Value::list(vec![Value::Int(1), Value::Int(3)]),
            &mut rt,
        )
        .unwrap_err();
    assert_eq!(
        e.message,
        "Can't copy sequence with size 2 to array axis 0 with dimension 5"
    );
    let nested = Value::list(vec![Value::list(vec![Value::list(vec![Value::Int(1)])])]);
    let e = o.set_item(&all, nested, &mut rt).unwrap_err();
    assert_eq!(e.message, "Can't assign 3-D array to 1-D self");
}

#[test]
fn copy_to_host_checks_dtype_and_shape() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(arange(4, DType::F32)))]),
    )
    .unwrap();
    let e = meth(
        &mut rt,
        &d,
        "copy_to_host",
        Args::new(vec![Value::Array(Box::new(arange(4, DType::F64)))]),
    )
    .unwrap_err();
    assert_eq!(
        (e.ename.as_str(), e.message.as_str()),
        ("TypeError", "incompatible dtype: float32 vs. float64")
    );
    let e = meth(
        &mut rt,
        &d,
        "copy_to_host",
        Args::new(vec![Value::Array(Box::new(arange(5, DType::F32)))]),
    )
    .unwrap_err();
    assert_eq!(
        (e.ename.as_str(), e.message.as_str()),
        ("ValueError", "incompatible shape: (4,) vs. (5,)")
    );
}

#[test]
fn reshape_split_transpose_follow_numba() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(arange(10, DType::I64)))]),
    )
    .unwrap();
    let r = meth(
        &mut rt,
        &d,
        "reshape",
        Args::new(vec![Value::Int(2), Value::Int(5)]),
    )
    .unwrap();
    assert_eq!(ints(&attr(&mut rt, &r, "shape").unwrap()), vec![2, 5]);
    let e = meth(
        &mut rt,
        &d,
        "reshape",
        Args::new(vec![Value::Int(3), Value::Int(5)]),
    )
    .unwrap_err();
    assert_eq!(e.message, "reshape changes the size of the array");
    let t = attr(&mut rt, &r, "T").unwrap();
    assert_eq!(ints(&attr(&mut rt, &t, "shape").unwrap()), vec![5, 2]);
    let th = meth(&mut rt, &t, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&th), vec![0., 5., 1., 6., 2., 7., 3., 8., 4., 9.]);
    let parts = meth(&mut rt, &d, "split", Args::new(vec![Value::Int(4)])).unwrap();
    let Value::List(ref l) = parts else { panic!() };
    let l = l.borrow().clone();
    assert_eq!(l.len(), 3);
    let last = meth(&mut rt, &l[2], "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&last), vec![8.0, 9.0]);
    let e = meth(&mut rt, &r, "split", Args::new(vec![Value::Int(2)])).unwrap_err();
    assert_eq!(e.message, "only support 1d array");
}

#[test]
fn free_then_use_names_the_cell() {
    let mut rt = runtime();
    rt.begin_cell(4);
    let m = cuda();
    let d = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(10)])).unwrap();
    let Value::Object(o) = &d else { panic!() };
    let all = Value::Slice(std::rc::Rc::new(nbcuda::arrays::index::SliceValue {
        start: None,
        stop: None,
        step: None,
    }));
    let view = o.clone().get_item(&all, &mut rt).unwrap();
    meth(&mut rt, &d, "free", Args::default()).unwrap();
    rt.begin_cell(5);
    let e = meth(&mut rt, &view, "copy_to_host", Args::default()).unwrap_err();
    assert!(
        e.message.contains("freed by .free() in Cell In[4]"),
        "{}",
        e.message
    );
    assert!(e.hint.as_ref().unwrap().contains("cuda.device_array"));
}

#[test]
fn arithmetic_on_device_arrays_is_a_type_error() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(3)])).unwrap();
    let Value::Object(o) = &d else { panic!() };
    let e = o
        .clone()
        .binary_op(nbcuda::arrays::operator::BinOp::Add, &d, false, &mut rt)
        .unwrap_err();
    assert_eq!(e.ename, "TypeError");
    assert_eq!(
        e.message,
        "unsupported operand type(s) for +: 'DeviceNDArray' and 'DeviceNDArray' (device arrays have no arithmetic operators on real Numba)"
    );
    assert!(e.hint.as_ref().unwrap().contains("CuPy"));
}

#[test]
fn repr_and_cuda_array_interface() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(arange(6, DType::F32)))]),
    )
    .unwrap();
    assert!(
        repr(&mut rt, &d).starts_with("<numba.cuda.cudadrv.devicearray.DeviceNDArray object at 0x")
    );
    let cai = attr(&mut rt, &d, "__cuda_array_interface__").unwrap();
    let Value::Dict(ref dict) = cai else { panic!() };
    let dict = dict.borrow();
    let keys: Vec<String> = dict
        .iter()
        .map(|(k, _)| k.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        keys,
        ["shape", "strides", "data", "typestr", "stream", "version"]
    );
    assert!(dict.get_str("strides").unwrap().is_none());
    assert_eq!(dict.get_str("typestr").unwrap().as_str(), Some("<f4"));
    assert!(matches!(dict.get_str("version"), Some(Value::Int(3))));
    let z = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(0)])).unwrap();
    let Value::Dict(ref zd) = attr(&mut rt, &z, "__cuda_array_interface__").unwrap() else {
        panic!()
    };
    let Some(Value::Tuple(ref data)) = zd.borrow().get_str("data").cloned() else {
        panic!()
    };
    assert!(matches!(data[0], Value::Int(0)));
}

#[test]
fn as_cuda_array_shares_memory() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(arange(4, DType::F64)))]),
    )
    .unwrap();
    let cai = attr(&mut rt, &d, "__cuda_array_interface__").unwrap();
    let w = call(
        &mut rt,
        &m,
        "from_cuda_array_interface",
        Args::new(vec![cai]),
    )
    .unwrap();
    let Value::Object(o) = &w else { panic!() };
    o.set_item(&Value::Int(0), Value::Float(42.0), &mut rt)
        .unwrap();
    let h = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&h)[0], 42.0);
    assert!(matches!(
        call(&mut rt, &m, "is_cuda_array", Args::new(vec![d.clone()])).unwrap(),
        Value::Bool(true)
    ));
    assert!(matches!(
        call(
            &mut rt,
            &m,
            "is_cuda_array",
            Args::new(vec![Value::Array(Box::new(arange(2, DType::F64)))])
        )
        .unwrap(),
        Value::Bool(false)
    ));
}

#[test]
fn reprs_of_devices_and_memory_info() {
    let mut rt = runtime();
    let m = cuda();
    let gpus = m.get("gpus").unwrap();
    assert_eq!(repr(&mut rt, &gpus), "<Managed Device 0>");
    let dev = call(&mut rt, &m, "get_current_device", Args::default()).unwrap();
    assert_eq!(repr(&mut rt, &dev), "<CUDA device 0 'nbcuda CPU device'>");
    let ctx = call(&mut rt, &m, "current_context", Args::default()).unwrap();
    let mi = meth(&mut rt, &ctx, "get_memory_info", Args::default()).unwrap();
    let r = repr(&mut rt, &mi);
    assert!(
        r.starts_with("MemoryInfo(free=") && r.contains(", total="),
        "{r}"
    );
}

#[test]
fn copy_to_device_layout_rules() {
    let mut rt = runtime();
    let m = cuda();
    let c = call(&mut rt, &m, "device_array", Args::new(vec![tuple(&[2, 3])])).unwrap();
    let f = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![tuple(&[2, 3])]).with_kw("order", Value::str("F")),
    )
    .unwrap();
    // D->D between C and F layouts is refused.
    let e = meth(&mut rt, &c, "copy_to_device", Args::new(vec![f.clone()])).unwrap_err();
    assert_eq!(e.message, "incompatible strides: (24, 8) vs. (8, 16)");
    // H->D from a C host array into an F device array reorders correctly.
    let mut h = arange(6, DType::F64);
    h.shape = vec![2, 3];
    h.strides = vec![24, 8];
    meth(
        &mut rt,
        &f,
        "copy_to_device",
        Args::new(vec![Value::Array(Box::new(h))]),
    )
    .unwrap();
    let Value::Object(o) = &f else { panic!() };
    let x = o.clone().get_item(&tuple(&[1, 0]), &mut rt).unwrap();
    assert!(matches!(x, Value::Scalar(nbcuda::arrays::dtype::Scalar::F64(v)) if v == 3.0));
    // A non-contiguous device target cannot receive a single-region copy.
    let row = o.clone().get_item(&Value::Int(1), &mut rt).unwrap();
    let e = meth(
        &mut rt,
        &row,
        "copy_to_device",
        Args::new(vec![Value::Array(Box::new(arange(3, DType::F64)))]),
    )
    .unwrap_err();
    assert!(e
        .message
        .starts_with("Array contains non-contiguous buffer"));
    // to_device(..., to=) overwrites an existing allocation and returns it.
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(arange(3, DType::F64)))]),
    )
    .unwrap();
    let mut twice = arange(3, DType::F64);
    twice.buf.write(0, &7.0f64.to_le_bytes());
    twice.shape = vec![3];
    let r = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(twice))]).with_kw("to", d.clone()),
    )
    .unwrap();
    assert!(matches!((&r, &d), (Value::Object(a), Value::Object(b)) if std::rc::Rc::ptr_eq(a, b)));
    let h = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(values(&h), vec![7.0, 1.0, 2.0]);
}

#[test]
fn broadcast_host_arrays_copy_only_their_core() {
    let mut rt = runtime();
    let m = cuda();
    let mut b = arange(3, DType::F32);
    b.shape = vec![4, 3];
    b.strides = vec![0, 4];
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(b))]),
    )
    .unwrap();
    assert_eq!(ints(&attr(&mut rt, &d, "strides").unwrap()), vec![0, 4]);
    assert!(matches!(
        attr(&mut rt, &d, "alloc_size").unwrap(),
        Value::Int(12)
    ));
    let h = meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    assert_eq!(
        values(&h),
        vec![0., 1., 2., 0., 1., 2., 0., 1., 2., 0., 1., 2.]
    );
    let mut strided = arange(10, DType::F32);
    strided.shape = vec![5];
    strided.strides = vec![8];
    let e = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(strided))]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "ValueError");
}
