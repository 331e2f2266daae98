//! Kernels compiled from Python source and run on host buffers by the CPU executor, each
//! checked against the same computation written directly in Rust.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;
use nbcuda::kernel::types::Ty;

#[test]
fn increment_by_one_matches_host_loop() {
    let k = kernel(
        "def increment_by_one(an_array):\n    pos = cuda.grid(1)\n    if pos < an_array.size:\n        an_array[pos] += 1\n",
        &[arr1(DType::F32, 1)],
    );
    let n = 1000;
    let host: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let a = f32_array(&host);
    launch(&k, cfg(4, 256), &[arg(&a)]).unwrap();
    let want: Vec<f64> = host.iter().map(|x| (x + 1.0) as f64).collect();
    assert_eq!(values(&a), want);
}

#[test]
fn add_kernel_two_dimensional_grid() {
    let k = kernel(
        "def add2d(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n",
        &[arr1(DType::F64, 2), arr1(DType::F64, 2), arr1(DType::F64, 2)],
    );
    let (r, c) = (37, 21);
    let av: Vec<f64> = (0..r * c).map(|i| i as f64).collect();
    let bv: Vec<f64> = (0..r * c).map(|i| (i % 7) as f64 - 3.0).collect();
    let a = array_of(&[r, c], DType::F64, &av);
    let b = array_of(&[r, c], DType::F64, &bv);
    let o = array_of(&[r, c], DType::F64, &vec![0.0; r * c]);
    let conf = nbcuda::kernel::abi::LaunchConfig {
        grid: [3, 2, 1],
        block: [16, 16, 1],
        dynamic_shared_bytes: 0,
    };
    launch(&k, conf, &[arg(&a), arg(&b), arg(&o)]).unwrap();
    let want: Vec<f64> = av.iter().zip(&bv).map(|(x, y)| x * 2.0 + y).collect();
    assert_eq!(values(&o), want);
}

#[test]
fn loops_break_continue_and_scalars() {
    let k = kernel(
        "def f(out, n):\n    i = cuda.grid(1)\n    if i >= out.size:\n        return\n    s = 0\n    for j in range(i):\n        if j % 3 == 0:\n            continue\n        if j > n:\n            break\n        s += j\n    k = 0\n    while k < i:\n        k += 2\n    out[i] = s + k * 1000\n",
        &[arr1(DType::I64, 1), Ty::Scalar(DType::I64)],
    );
    let o = array_of(&[50], DType::I64, &[0.0; 50]);
    launch(
        &k,
        cfg(2, 32),
        &[
            arg(&o),
            nbcuda::kernel::abi::KernelArg::Scalar(nbcuda::arrays::dtype::Scalar::I64(20)),
        ],
    )
    .unwrap();
    let want: Vec<f64> = (0..50i64)
        .map(|i| {
            let mut s = 0;
            for j in 0..i {
                if j % 3 == 0 {
                    continue;
                }
                if j > 20 {
                    break;
                }
                s += j;
            }
            let mut k = 0;
            while k < i {
                k += 2;
            }
            (s + k * 1000) as f64
        })
        .collect();
    assert_eq!(values(&o), want);
}

#[test]
fn out_of_bounds_is_an_index_error_naming_the_line() {
    let k = kernel(
        "def bad(a):\n    i = cuda.grid(1)\n    a[i] = 1.0\n",
        &[arr1(DType::F32, 1)],
    );
    let a = f32_array(&[0.0; 10]);
    let err = launch(&k, cfg(1, 16), &[arg(&a)]).unwrap_err();
    assert_eq!(err.ename(), "IndexError");
    assert!(
        err.message
            .contains("index 10 is out of bounds for axis 0 with size 10"),
        "{}",
        err.message
    );
    assert!(err.message.contains("line 3"), "{}", err.message);
    assert!(err.message.contains("thread (10, 0, 0)"), "{}", err.message);
}

#[test]
fn too_many_threads_per_block_is_rejected() {
    let k = kernel("def k(a):\n    a[0] = 1\n", &[arr1(DType::F32, 1)]);
    let a = f32_array(&[0.0]);
    let err = launch(&k, cfg(1, 2048), &[arg(&a)]).unwrap_err();
    assert_eq!(err.ename(), "CudaAPIError");
    assert!(err.message.contains("CUDA_ERROR_INVALID_VALUE"));
}

#[test]
fn kernel_returning_a_value_is_a_typing_error() {
    let e = compile_err("def k(a):\n    return a[0]\n", &[arr1(DType::F32, 1)]);
    assert_eq!(e.ename, "TypingError");
    let tb = e.plain_traceback();
    assert!(tb.contains("return a[0]"), "{tb}");
    assert!(tb.contains('^'), "{tb}");
}

#[test]
fn an_endless_kernel_stops_on_interrupt() {
    let k = kernel(
        "def spin(a):\n    i = 0\n    while True:\n        i += 1\n    a[0] = i\n",
        &[arr1(DType::I64, 1)],
    );
    let a = array_of(&[1], DType::I64, &[0.0]);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        f2.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let err = nbcuda::kernel::execute_on_cpu_cancellable(
        &k,
        &cfg(2, 32),
        &[arg(&a)],
        nbcuda::kernel::abi::Cancel::Interrupt(flag),
    )
    .unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}

#[test]
fn oversized_shared_and_local_memory_are_launch_errors() {
    let k = kernel("def big(a):\n    s = cuda.shared.array(20000, dtype=np.float32)\n    s[0] = 1.0\n    a[0] = s[0]\n", &[arr1(DType::F32, 1)]);
    let a = f32_array(&[0.0]);
    let e = launch(&k, cfg(1, 1), &[arg(&a)]).unwrap_err();
    assert_eq!(e.ename(), "CudaAPIError");
    assert!(e.message.contains("shared memory"), "{}", e.message);
    let k = kernel("def big(a):\n    t = cuda.local.array(200000, dtype=np.float64)\n    t[0] = 1.0\n    a[0] = t[0]\n", &[arr1(DType::F32, 1)]);
    let e = launch(&k, cfg(1, 1), &[arg(&a)]).unwrap_err();
    assert_eq!(e.ename(), "CudaAPIError");
    assert!(e.message.contains("local memory"), "{}", e.message);
}

#[test]
fn out_of_bounds_names_kernel_line_index_full_shape_block_and_thread() {
    let k = kernel(
        "def bad2(a):\n    i = cuda.grid(1)\n    a[i, 1] = 2.0\n",
        &[arr1(DType::F64, 2)],
    );
    let a = array_of(&[6, 3], DType::F64, &[0.0; 18]);
    // Blocks of 4 threads: the first index past the end (6) is block 1, thread 2.
    let err = launch(&k, cfg(2, 4), &[arg(&a)]).unwrap_err();
    assert_eq!(err.ename(), "IndexError");
    let m = &err.message;
    for want in [
        "kernel 'bad2'",
        "line 3",
        "a[i, 1] = 2.0",
        "index 6 is out of bounds for axis 0 with size 6",
        "index (6, 1)",
        "shape (6, 3)",
        "block (1, 0, 0)",
        "thread (2, 0, 0)",
    ] {
        assert!(m.contains(want), "missing {want:?} in {m}");
    }
}

#[test]
fn raw_memory_refuses_accesses_outside_or_misaligned() {
    use nbcuda::kernel::exec::mem::RawMem;
    let mut buf = [0u64; 4];
    // SAFETY: `buf` outlives `m`, and is only accessed through `m` below.
    let m = unsafe { RawMem::new(buf.as_mut_ptr() as *mut u8, 32) };
    assert_eq!(m.load(32, DType::F64), None);
    assert_eq!(m.load(-8, DType::F64), None);
    assert_eq!(m.load(4, DType::F64), None, "misaligned");
    assert!(!m.store(32, DType::I32, 1));
    assert_eq!(m.rmw(32, DType::I64, |o| Some(o + 1)), None);
    assert_eq!(m.rmw(0, DType::U8, |o| Some(o + 1)), None, "1-byte atomics");
    assert!(m.run(0, 8, 5, DType::F64).is_none(), "last element outside");
    assert!(
        m.run(24, -8, 5, DType::F64).is_none(),
        "negative stride past the start"
    );
    assert!(
        m.run(0, 6, 2, DType::F64).is_none(),
        "stride breaks alignment"
    );
    assert!(
        m.run(0, isize::MAX, 3, DType::F64).is_none(),
        "offset overflow"
    );
    assert!(m.store(8, DType::F64, 7));
    assert_eq!(m.load(8, DType::F64), Some(7));
    assert_eq!(m.rmw(8, DType::I64, |o| Some(o + 1)), Some(7));
    let r = m.run(24, -8, 4, DType::F64).unwrap();
    let mut out = [9u64; 4];
    m.load_run(r, &mut out);
    assert_eq!(out, [0, 0, 8, 0]);
}
