//! The device API from notebook cells, end to end through the interpreter.

mod common;
use common::Session;

#[test]
fn cells_allocate_transfer_and_print() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\nd = cuda.to_device([1.0, 2.0, 3.0])\nprint(d.shape, d.dtype, d.size)\nprint(float(d[1]))\n",
    );
    assert_eq!(out, "(3,) float64 3\n2.0\n");
    let r = s.eval("d");
    assert!(
        r.starts_with("<numba.cuda.cudadrv.devicearray.DeviceNDArray object at 0x"),
        "{r}"
    );
    assert_eq!(s.eval("cuda.gpus[0]"), "<Managed Device 0>");
    assert_eq!(s.eval("len(d)"), "3");
}

#[test]
fn device_arithmetic_fails_in_a_cell_with_the_hint() {
    let mut s = Session::new();
    let c = s.run("from numba import cuda\nd = cuda.device_array(4)\nd + d");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(c.traceback().contains("@vectorize"), "{}", c.traceback());
}

#[test]
fn streams_and_events_from_cells() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\ns = cuda.stream()\ne1 = cuda.event()\ne2 = cuda.event()\n\
         e1.record(s)\nd = cuda.to_device([1, 2, 3], stream=s)\ne2.record(s)\ne2.synchronize()\n\
         print(e1.elapsed_time(e2) >= 0, d.stream == s)\nwith s.auto_synchronize():\n    h = d.copy_to_host(stream=s)\nprint(type(h).__name__)\n",
    );
    assert_eq!(out, "True True\nndarray\n");
}

#[test]
fn freed_array_error_names_the_cell() {
    let mut s = Session::new();
    s.run("from numba import cuda\nd = cuda.device_array(10)")
        .ok();
    s.run("d.free()").ok();
    let c = s.run("d[0]");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().contains("Cell In[2]"), "{}", c.evalue());
}

#[test]
fn cupy_from_cells() {
    let mut s = Session::new();
    let out = s.stdout(
        "import cupy as cp\nx = cp.arange(5, dtype=cp.float32)\ny = x * 2 + 1\nprint(y.shape, y.dtype, y.sum().item(), len(y))\n\
         print(type(cp.asnumpy(y)).__name__)\n",
    );
    assert_eq!(out, "(5,) float32 25.0 5\nndarray\n");
    let c = s.run("x.__array__()");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(c.evalue().contains(".get()"), "{}", c.evalue());
}

#[test]
fn mapped_arrays_pass_through_to_device() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\na = cuda.mapped_array(4, dtype='f4')\nprint(cuda.to_device(a) is a, cuda.is_cuda_array(a))\n\
         d = cuda.as_cuda_array(a)\nd[1] = 3\nprint(float(d[1]))\n",
    );
    assert_eq!(out, "True True\n3.0\n");
}

#[test]
fn pinned_context_used_as_array_points_to_pinned_array() {
    let mut s = Session::new();
    let c = s.run("from numba import cuda\np = cuda.pinned([1.0, 2.0, 3.0])\np.reshape(3, 1)");
    assert_eq!(c.ename().as_deref(), Some("AttributeError"));
    assert!(
        c.traceback().contains("cuda.pinned_array(shape, dtype)"),
        "{}",
        c.traceback()
    );
    let c = s.run("p[0]");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    s.run(
        "a = cuda.pinned_array(3)\nwith cuda.pinned(a):\n    d = cuda.to_device(a)\nprint(d.shape)",
    )
    .ok();
}

#[test]
fn isinstance_against_numba_classes() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\nd = cuda.device_array(3)\n\
         print(isinstance(d, cuda.cudadrv.devicearray.DeviceNDArray), isinstance(cuda.stream(), cuda.cudadrv.driver.Stream), isinstance(3, cuda.devicearray.DeviceNDArray))\n",
    );
    assert_eq!(out, "True True False\n");
}

#[test]
fn misuse_raises_python_errors_not_panics() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport cupy as cp\nd = cuda.device_array(6, dtype='f4')")
        .ok();
    let cases = [
        ("cuda.device_array(-1)", "ValueError"),
        ("cuda.device_array((2, 'a'))", "TypeError"),
        ("cuda.device_array(2**62)", ""),
        ("d[1, 2]", "IndexError"),
        ("d[10]", "IndexError"),
        ("d.reshape(-1, -1)", "ValueError"),
        ("d.reshape(4)", "ValueError"),
        ("d.view('f8').view('i2')[::2].view('f8')", "ValueError"),
        ("d[::2].ravel()", "NotImplementedError"),
        ("d[::-1].copy_to_host()", "NotImplementedError"),
        ("d.reshape(2, 3).transpose((0, 0))", "ValueError"),
        ("d.reshape(1, 2, 3).T", "NotImplementedError"),
        ("d.split(0)", "ValueError"),
        ("d.copy_to_host(5)", "TypeError"),
        ("d.squeeze(axis=0)", "ValueError"),
        ("cuda.event().elapsed_time(5)", "TypeError"),
        ("cuda.stream().synchronize(1)", "TypeError"),
        ("cuda.to_device([1.0], stream='s')", "TypeError"),
        ("cuda.select_device(3)", "CudaSupportError"),
        ("cuda.gpus[2]", "IndexError"),
        ("cuda.from_cuda_array_interface({'shape': (3,), 'typestr': '<f4', 'data': (12345, False), 'version': 3})", "ValueError"),
        ("cuda.from_cuda_array_interface({'shape': (3,), 'typestr': '<f4', 'data': (0, False), 'version': 3, 'mask': 1})", "NotImplementedError"),
        ("cuda.as_cuda_array(3)", "TypeError"),
        ("cp.ones(3) + cp.ones(4)", "ValueError"),
        ("cp.sum(cp.ones(3), axis=5)", "AxisError"),
        ("cp.ones(3) & 1.5", "TypeError"),
        ("cp.max(cp.ones(0))", "ValueError"),
        ("cp.ones(2)[5]", "IndexError"),
        ("cp.random.randint(5, 2)", "ValueError"),
        ("len(cp.ones(3).sum())", "TypeError"),
        ("bool(cp.ones(3))", "ValueError"),
    ];
    for (code, ename) in cases {
        let c = s.run(code);
        let got = c.ename().unwrap_or_else(|| panic!("{code} did not raise"));
        if !ename.is_empty() {
            assert_eq!(got, ename, "{code}: {}", c.evalue());
        }
    }
}

#[test]
fn absurd_shapes_and_strides_are_errors() {
    let mut s = Session::new();
    s.run("from numba import cuda").ok();
    for code in [
        "cuda.device_array((2**40, 2**40))",
        "cuda.pinned_array((2**40, 2**40))",
        "cuda.device_array((4,), strides=(8, 8))",
        "cuda.device_array((4, 4), strides=(2**62, 8))",
        "cuda.from_cuda_array_interface({'shape': (2**40, 2**40), 'typestr': '<f8', 'data': (0, False), 'version': 3})",
        "cuda.from_cuda_array_interface({'shape': (0,), 'strides': (8, 8), 'typestr': '<f8', 'data': (0, False), 'version': 3})",
    ] {
        let c = s.run(code);
        assert!(c.ename().is_some(), "{code} did not raise");
    }
}

#[test]
fn device_attributes_from_cells() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\ndev = cuda.get_current_device()\nprint(dev.WARP_SIZE, dev.MAX_THREADS_PER_BLOCK, dev.compute_capability, dev.id)\n\
         print(len(cuda.gpus), cuda.gpus[0].name)\nfree, total = cuda.current_context().get_memory_info()\nprint(free <= total)\n",
    );
    assert_eq!(out, "32 1024 (7, 5) 0\n1 nbcuda CPU device\nTrue\n");
}

#[test]
fn multi_dimensional_ufuncs_on_every_layout() {
    // Contiguous arrays of one shape run as a 1-D launch; transposed, sliced and broadcast
    // ones keep the N-D kernel. Every layout must give NumPy's answer.
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda, vectorize\n@vectorize(['float32(float32, float32)'], target='cuda')\ndef f(a, b):\n    return a * 2 + b\nx = np.arange(24, dtype=np.float32).reshape(2, 3, 4)\ny = np.arange(24, dtype=np.float32).reshape(2, 3, 4) % 5\n",
    )
    .ok();
    for (call, numpy) in [
        ("f(x, y)", "x * 2 + y"),
        ("f(x[0], y[1])", "x[0] * 2 + y[1]"),
        ("f(x.T, y.T)", "x.T * 2 + y.T"),
        (
            "f(x[:, 1:, ::2], y[:, :2, 1::2])",
            "x[:, 1:, ::2] * 2 + y[:, :2, 1::2]",
        ),
        ("f(x, y[0, 0])", "x * 2 + y[0, 0]"),
        ("f(x[:1], y)", "x[:1] * 2 + y"),
        (
            "f(cuda.to_device(x), cuda.to_device(y)).copy_to_host()",
            "x * 2 + y",
        ),
        (
            "f(cuda.to_device(x)[1], cuda.to_device(y)[0]).copy_to_host()",
            "x[1] * 2 + y[0]",
        ),
    ] {
        assert_eq!(
            s.eval(&format!("np.array_equal({call}, {numpy})")),
            "True",
            "{call}"
        );
    }
    s.run("o = cuda.device_array((2, 3, 4), dtype=np.float32)\nf(x, y, out=o)\nh = np.zeros((2, 3, 4), dtype=np.float32)\nf(x, y, out=h)")
        .ok();
    assert_eq!(
        s.eval("np.array_equal(o.copy_to_host(), x * 2 + y)"),
        "True"
    );
    assert_eq!(s.eval("np.array_equal(h, x * 2 + y)"), "True");
}

#[test]
fn one_value_assigned_to_a_device_region_fills_it_as_numpy_does() {
    // `d[...] = value` with one value is a device-side fill (contiguous, strided, negative
    // strides, 2-D, every width); expected values are NumPy 2's for the same host arrays.
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\nimport numpy as np\n\
         d = cuda.device_array(10, np.float32)\nd[:] = 1\nd[::3] = 2\nd[::-4] = 3\nprint(d.copy_to_host().tolist())\n\
         e = cuda.device_array((4, 5), np.int16)\ne[:] = 0\ne[::-2, 1::2] = -7\ne[1, :] = np.int8(5)\nprint(e.copy_to_host().tolist())\n\
         b = cuda.device_array(3, np.bool_)\nb[:] = False\nb[1:] = True\nprint(b.copy_to_host().tolist())\n\
         u = cuda.device_array(3, np.uint8)\nu[:] = np.float64(300.7)\nprint(u.copy_to_host().tolist())\n\
         f = cuda.device_array((2, 3), np.float64)\nf[:] = np.array([[2.5]])\nprint(f.copy_to_host().tolist())\n",
    );
    assert_eq!(
        out,
        "[2.0, 3.0, 1.0, 2.0, 1.0, 3.0, 2.0, 1.0, 1.0, 3.0]\n\
         [[0, 0, 0, 0, 0], [5, 5, 5, 5, 5], [0, 0, 0, 0, 0], [0, -7, 0, -7, 0]]\n\
         [False, True, True]\n[44, 44, 44]\n[[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]\n"
    );
    // A one-element source of more dimensions is still refused, with Numba's message
    // (DeviceNDArray.__setitem__; NumPy itself would accept it).
    let c = s.run("g = cuda.device_array(3)\ng[:] = np.ones((1, 1))");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(c.evalue(), "Can't assign 2-D array to 1-D self");
}

#[test]
fn cupy_arrays_name_their_device_and_linalg_norm_stays_on_it() {
    let mut s = Session::new();
    s.run("import cupy as cp").ok();
    // Values as NumPy's np.linalg.norm gives them for the same data.
    let out = s.stdout(
        "x = cp.arange(5.0)\nn = cp.linalg.norm(x)\nprint(x.device, n, type(n))\n\
         m = cp.array([[3.0, -4.0], [0.0, 12.0]])\nprint(cp.linalg.norm(m), cp.linalg.norm(m, axis=1), cp.linalg.norm(cp.array([3, 4])))",
    );
    assert_eq!(
        out,
        "<CUDA Device 0> 5.477225575051661 <class 'cupy.ndarray'>\n13.0 [ 5. 12.] 5.0\n"
    );
    let c = s.run("cp.linalg.norm(x, ord=1)");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
}

/// Threads of this test process whose name marks them as a stream's worker.
fn stream_workers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|d| {
            d.filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                .filter(|name| name.starts_with("nbcuda-stream"))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn streams_a_loop_creates_and_drops_do_not_keep_their_threads() {
    // CuPy's `Stream()` and Numba's `cuda.stream()` each end their worker once the last
    // object for the stream is gone; before, every CuPy stream kept a thread for the
    // session (thousands in a loop, until the OS refused more).
    let mut s = Session::new();
    s.run("import cupy as cp\nfrom numba import cuda\nx = cp.arange(4)")
        .ok();
    let before = stream_workers();
    s.run(
        "for i in range(300):\n    with cp.cuda.Stream() as st:\n        y = x + i\n    z = cuda.to_device([1.0], stream=cuda.stream())\nt = float(y.sum())",
    )
    .ok();
    assert_eq!(s.stdout("print(t, st.ptr != 0)"), "1202.0 True\n");
    // Workers end asynchronously once their channel closes; other tests in this binary
    // may hold a few streams of their own.
    let mut now = stream_workers();
    for _ in 0..100 {
        if now < before + 50 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        now = stream_workers();
    }
    assert!(
        now < before + 50,
        "{before} stream workers before, {now} after"
    );
}
