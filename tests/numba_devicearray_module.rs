//! `numba.cuda.cudadrv.devicearray` helpers Numba's tests call: `is_contiguous` (C order,
//! ignoring broadcast and length-1 axes), `array_core` (the view without stride-0 axes)
//! and the contiguity error message.

mod common;
use common::Session;

#[test]
fn is_contiguous_agrees_with_the_core_of_the_array() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nda = cuda.cudadrv.devicearray")
        .ok();
    let cases = [
        ("np.zeros((10, 12))[::2, ::2]", "False False"),
        ("np.zeros((10, 12))[2:5]", "True True"),
        ("np.zeros((10, 12)).T", "False False"),
        ("np.broadcast_to(np.arange(4.0), (3, 4))", "True True"),
        ("np.zeros((1, 5))[:, ::1]", "True True"),
    ];
    for (expr, want) in cases {
        let out = s.stdout(&format!(
            "v = {expr}\nprint(da.is_contiguous(v), da.array_core(v).flags['C_CONTIGUOUS'])"
        ));
        assert_eq!(out, format!("{want}\n"), "{expr}");
    }
    assert_eq!(
        s.eval("da.is_contiguous(cuda.to_device(np.zeros((4, 4)))[:, 1])"),
        "False"
    );
    assert!(s
        .eval("da.errmsg_contiguous_buffer")
        .starts_with("'Array contains non-contiguous buffer"));
}

#[test]
fn numba_type_of_a_device_array_names_its_layout() {
    // Numba types a kernel argument C when C-contiguous (checked first), else F when
    // F-contiguous, else A.
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nc = np.zeros((5, 5))\nf = np.asfortranarray(c)")
        .ok();
    let cases = [
        ("cuda.to_device(np.zeros(10))", "C"),
        ("cuda.to_device(c)", "C"),
        ("cuda.to_device(f)", "F"),
        ("cuda.to_device(c)[2, :]", "C"),
        ("cuda.to_device(f)[:, 2]", "C"),
        ("cuda.to_device(c)[:, 2]", "A"),
        ("cuda.to_device(f)[2, :]", "A"),
    ];
    for (expr, want) in cases {
        assert_eq!(
            s.eval(&format!("({expr})._numba_type_.layout")),
            format!("'{want}'"),
            "{expr}"
        );
    }
    assert_eq!(
        s.eval("cuda.to_device(f)._numba_type_"),
        "array(float64, 2d, F)"
    );
    assert_eq!(
        s.stdout("d = cuda.to_device(f)\nprint(d.flags.f_contiguous, d.flags['C_CONTIGUOUS'])"),
        "True False\n"
    );
}

#[test]
fn driver_level_copies_memset_and_auto_device() {
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda\ndrv = cuda.cudadrv.driver\n\
         ctx = cuda.cudadrv.devices.get_context()",
    )
    .ok();
    // Bytes copied in, set, and read back: 0xAB in every byte of a uint32 is 2880154539.
    assert_eq!(
        s.stdout(
            "m = ctx.memalloc(40)\nh = np.arange(10, dtype=np.uint32)\nback = np.zeros(10, dtype=np.uint32)\n\
             drv.host_to_device(m, h, 40)\ndrv.device_to_host(back, m, 40)\nprint(back.tolist())\n\
             drv.device_memset(m, 0xAB, 8)\ndrv.device_to_host(back, m, 40)\nprint(back[:3].tolist(), drv.device_memory_size(m))"
        ),
        "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n[2880154539, 2880154539, 2] 40\n"
    );
    assert_eq!(
        s.run("drv.device_memset(m, 0, 41)").ename().as_deref(),
        Some("ValueError")
    );
    assert_eq!(
        s.stdout(
            "d, copied = cuda.cudadrv.devicearray.auto_device(2)\nprint(d.copy_to_host(), copied)\n\
             e, again = cuda.cudadrv.devicearray.auto_device(d)\nprint(e is d, again)"
        ),
        "2 True\nTrue False\n"
    );
    assert_eq!(
        s.run("cuda.cudadrv.devicearray.auto_device(np.arange(10.0)[::2])")
            .ename()
            .as_deref(),
        Some("ValueError")
    );
    assert_eq!(
        s.eval("cuda.cudadrv.devicearray.verify_cuda_ndarray_interface(cuda.to_device(np.asarray(1.5)))"),
        ""
    );
    assert_eq!(
        s.run("cuda.cudadrv.devicearray.verify_cuda_ndarray_interface(3)")
            .ename()
            .as_deref(),
        Some("AttributeError")
    );
    assert_eq!(
        s.stdout("print(cuda.to_device(range(3)).copy_to_host())"),
        "[0 1 2]\n"
    );
    // Mapped host memory is device memory too.
    assert_eq!(
        s.stdout("mp = cuda.mapped_array(4, dtype=np.uint32)\nmp.fill(7)\ndrv.device_memset(mp, 0, drv.device_memory_size(mp))\nprint(mp.tolist())"),
        "[0, 0, 0, 0]\n"
    );
}

#[test]
fn numpy_functions_keep_device_arrays_on_the_device() {
    // NumPy's _wrapfunc calls the object's own method: np.transpose(d) is d.transpose().
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nh = np.arange(12).reshape(3, 4)\nd = cuda.to_device(h)")
        .ok();
    assert_eq!(
        s.stdout("t = np.transpose(d)\nprint(type(t).__name__, t.shape, (t.copy_to_host() == h.T).all())"),
        "DeviceNDArray (4, 3) True\n"
    );
    assert_eq!(
        s.stdout(
            "r = np.reshape(d, (2, 6))\nprint(type(r).__name__, r.copy_to_host().tolist()[1])"
        ),
        "DeviceNDArray [6, 7, 8, 9, 10, 11]\n"
    );
    assert_eq!(s.eval("np.transpose(h).shape"), "(4, 3)");
}

#[test]
fn the_device_ndarray_class_constructs_arrays_with_given_strides() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nda = cuda.cudadrv.devicearray")
        .ok();
    // Relaxed strides: a length-1 axis may have any stride and stays both C and F.
    let out = s.stdout(
        "a = da.DeviceNDArray((1, 10), (800, 8), np.float64)\n\
         print(a.shape, a.strides, a.flags['C_CONTIGUOUS'], a.flags['F_CONTIGUOUS'], isinstance(a, da.DeviceNDArray))\n\
         e = da.DeviceNDArray(shape=(0,), strides=(8,), dtype=np.int8)\nh = np.ndarray(shape=(0,), strides=(0,), dtype=np.int8)\n\
         e.copy_to_host(h)\nd = cuda.to_device(h)\nprint(h.strides, d.shape, d.strides)",
    );
    assert_eq!(out, "(1, 10) (800, 8) True True True\n(0,) (0,) (0,)\n");
    let c = s.run("da.DeviceNDArray((4,), (8,), np.float64, gpu_data=a)");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
}

#[test]
fn memory_manager_deallocations_hold_frees_only_inside_defer_cleanup() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda").ok();
    let out = s.stdout(
        "h = np.arange(5)\nd1 = cuda.to_device(h)\ndeallocs = cuda.current_context().memory_manager.deallocations\n\
         deallocs.clear()\nprint(len(deallocs))\n\
         with cuda.defer_cleanup():\n    d2 = cuda.to_device(h)\n    del d1\n    print(len(deallocs))\n    del d2\n    print(len(deallocs))\n    deallocs.clear()\n    print(len(deallocs))\n\
         print(len(deallocs))",
    );
    assert_eq!(out, "0\n1\n2\n2\n0\n");
}

#[test]
fn memhostalloc_gives_host_memory_the_driver_functions_reach() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\ndriver = cuda.cudadrv.driver")
        .ok();
    let out = s.stdout(
        "mem = cuda.current_context().memhostalloc(32, mapped=True)\n\
         ary = np.ndarray(shape=32, dtype=np.uint8, buffer=mem)\n\
         driver.device_memset(mem, 171, 32)\nprint(ary[:3], ary.dtype)\n\
         ary.fill(7)\nrecv = np.empty_like(ary)\ndriver.device_to_host(recv, mem, ary.size)\nprint(recv[-3:])",
    );
    assert_eq!(out, "[171 171 171] uint8\n[7 7 7]\n");
}
