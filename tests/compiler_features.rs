//! Shared memory and barriers, atomics, device functions, local and constant arrays,
//! random draws and math, each checked against host Rust.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::kernel::abi::{KernelArg, LaunchConfig};
use nbcuda::kernel::types::Ty;

#[test]
fn shared_memory_block_sum_with_syncthreads() {
    let src = "def block_sum(a, out):\n    tmp = cuda.shared.array(128, dtype=np.float32)\n    t = cuda.threadIdx.x\n    i = cuda.grid(1)\n    tmp[t] = a[i] if i < a.size else 0.0\n    cuda.syncthreads()\n    s = 64\n    while s > 0:\n        if t < s:\n            tmp[t] += tmp[t + s]\n        cuda.syncthreads()\n        s //= 2\n    if t == 0:\n        out[cuda.blockIdx.x] = tmp[0]\n";
    let k = kernel(src, &[arr1(DType::F32, 1), arr1(DType::F32, 1)]);
    let xs: Vec<f32> = (0..1000).map(|i| (i % 17) as f32).collect();
    let a = f32_array(&xs);
    let out = f32_array(&[0.0; 8]);
    launch(&k, cfg(8, 128), &[arg(&a), arg(&out)]).unwrap();
    let want: Vec<f64> = (0..8)
        .map(|b| xs.iter().skip(b * 128).take(128).sum::<f32>() as f64)
        .collect();
    assert_eq!(values(&out), want);
}

#[test]
fn divergent_syncthreads_is_a_fault_not_a_hang() {
    let k = kernel(
        "def bad(a):\n    if cuda.threadIdx.x < 4:\n        cuda.syncthreads()\n    a[0] = 1.0\n",
        &[arr1(DType::F32, 1)],
    );
    let a = f32_array(&[0.0]);
    let e = launch(&k, cfg(1, 8), &[arg(&a)]).unwrap_err();
    assert!(e.message.contains("divergent barrier"), "{}", e.message);
    assert!(e.message.contains("line 3"), "{}", e.message);
}

#[test]
fn syncthreads_count_and_or() {
    let k = kernel("def f(out):\n    t = cuda.threadIdx.x\n    c = cuda.syncthreads_count(t % 3 == 0)\n    a = cuda.syncthreads_and(t < 100)\n    o = cuda.syncthreads_or(t == 5)\n    out[t] = c * 100 + a * 10 + o\n", &[arr1(DType::I32, 1)]);
    let out = array_of(&[30], DType::I32, &[0.0; 30]);
    launch(&k, cfg(1, 30), &[arg(&out)]).unwrap();
    assert_eq!(values(&out), vec![(10 * 100 + 10 + 1) as f64; 30]);
}

#[test]
fn atomics_return_old_values_and_count_across_blocks() {
    let src = "def hist(data, bins, olds):\n    i = cuda.grid(1)\n    if i < data.size:\n        olds[i] = cuda.atomic.add(bins, data[i] % 10, 1)\n        cuda.atomic.max(bins, 10, data[i])\n";
    let k = kernel(
        src,
        &[
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
        ],
    );
    let n = 5000;
    let data: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1013) as f64).collect();
    let d = array_of(&[n], DType::I32, &data);
    let bins = array_of(&[11], DType::I32, &[0.0; 11]);
    let olds = array_of(&[n], DType::I32, &vec![0.0; n]);
    launch(&k, cfg(40, 128), &[arg(&d), arg(&bins), arg(&olds)]).unwrap();
    let mut want = vec![0.0; 11];
    for x in &data {
        want[(*x as usize) % 10] += 1.0;
    }
    want[10] = data.iter().cloned().fold(0.0, f64::max);
    assert_eq!(values(&bins), want);
    // The old values returned to the threads of one bin are exactly 0..count-1.
    let ov = values(&olds);
    let mut seen: Vec<f64> = (0..n)
        .filter(|i| (data[*i] as usize) % 10 == 3)
        .map(|i| ov[i])
        .collect();
    seen.sort_by(f64::total_cmp);
    let expect: Vec<f64> = (0..seen.len()).map(|i| i as f64).collect();
    assert_eq!(seen, expect);
}

#[test]
fn float_atomics_and_nan_rules() {
    let src = "def f(a, vals):\n    i = cuda.grid(1)\n    if i < vals.size:\n        cuda.atomic.add(a, 0, vals[i])\n        cuda.atomic.max(a, 1, vals[i])\n        cuda.atomic.nanmax(a, 2, vals[i])\n        cuda.atomic.min(a, 3, vals[i])\n";
    let k = kernel(src, &[arr1(DType::F64, 1), arr1(DType::F64, 1)]);
    let a = f64_array(&[0.0, 0.0, f64::NAN, 100.0]);
    let v = f64_array(&[1.5, f64::NAN, 3.0, -2.0]);
    launch(&k, cfg(1, 4), &[arg(&a), arg(&v)]).unwrap();
    let r = values(&a);
    assert!(r[0].is_nan()); // NaN propagates through add
    assert_eq!(r[1], 3.0); // a NaN value is ignored by max
    assert_eq!(r[2], 3.0); // nanmax replaces a stored NaN
    assert_eq!(r[3], -2.0);
}

#[test]
fn cas_inc_dec_exch() {
    let src = "def f(a, out):\n    t = cuda.threadIdx.x\n    if t == 0:\n        out[0] = cuda.atomic.cas(a, 0, 5, 9)\n        out[1] = cuda.atomic.cas(a, 1, 5, 9)\n        out[2] = cuda.atomic.inc(a, 2, 3)\n        out[3] = cuda.atomic.dec(a, 3, 7)\n        out[4] = cuda.atomic.exch(a, 4, 42)\n";
    let k = kernel(src, &[arr1(DType::U32, 1), arr1(DType::U32, 1)]);
    let a = array_of(&[5], DType::U32, &[5.0, 4.0, 3.0, 0.0, 1.0]);
    let out = array_of(&[5], DType::U32, &[0.0; 5]);
    launch(&k, cfg(1, 32), &[arg(&a), arg(&out)]).unwrap();
    assert_eq!(values(&out), vec![5.0, 4.0, 3.0, 0.0, 1.0]);
    assert_eq!(values(&a), vec![9.0, 4.0, 0.0, 7.0, 42.0]);
}

#[test]
fn device_functions_are_inlined_with_tuples_and_early_returns() {
    let g = globals();
    let fs = functions(
        "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef k(a, out):\n    i = cuda.grid(1)\n    if i < a.size:\n        q, r = divmod2(i, 3)\n        out[i] = clamp(a[i], 0.0, 10.0) + q * 100 + r * 1000\n",
        &g,
    );
    for name in ["clamp", "divmod2"] {
        let d =
            nbcuda::numba::dispatch::CudaKernel::new(fs[name].clone(), true, Vec::new()).unwrap();
        g.borrow_mut()
            .insert(name.into(), nbcuda::py::value::Value::object(d));
    }
    let kk = nbcuda::numba::compile::compile_function(
        &fs["k"],
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
        false,
    )
    .unwrap();
    let xs: Vec<f64> = (0..50).map(|i| i as f64 * 0.5 - 5.0).collect();
    let a = f64_array(&xs);
    let o = f64_array(&[0.0; 50]);
    launch(&kk, cfg(2, 32), &[arg(&a), arg(&o)]).unwrap();
    let want: Vec<f64> = xs
        .iter()
        .enumerate()
        .map(|(i, x)| x.clamp(0.0, 10.0) + (i / 3) as f64 * 100.0 + (i % 3) as f64 * 1000.0)
        .collect();
    assert_eq!(values(&o), want);
}

#[test]
fn local_and_const_arrays() {
    let g = globals();
    let table = array_of(&[4], DType::F32, &[10.0, 20.0, 30.0, 40.0]);
    g.borrow_mut().insert(
        "TABLE".into(),
        nbcuda::py::value::Value::Array(Box::new(table)),
    );
    let fs = functions("def k(out):\n    c = cuda.const.array_like(TABLE)\n    tmp = cuda.local.array(4, np.float32)\n    t = cuda.threadIdx.x\n    for j in range(4):\n        tmp[j] = c[j] * t\n    s = 0.0\n    for j in range(4):\n        s += tmp[3 - j]\n    out[t] = s\n", &g);
    let k =
        nbcuda::numba::compile::compile_function(&fs["k"], &[arr1(DType::F32, 1)], false).unwrap();
    let o = f32_array(&[0.0; 16]);
    launch(&k, cfg(1, 16), &[arg(&o)]).unwrap();
    let want: Vec<f64> = (0..16).map(|t| 100.0 * t as f64).collect();
    assert_eq!(values(&o), want);
}

#[test]
fn xoroshiro_draws_match_the_reference_algorithm() {
    use nbcuda::kernel::rng;
    let g = globals();
    let random = std::rc::Rc::new(nbcuda::py::value::Module::new("numba.cuda.random", ""));
    nbcuda::numba::intrinsics::register_random(&random);
    g.borrow_mut().insert(
        "xoroshiro128p_uniform_float32".into(),
        random.get("xoroshiro128p_uniform_float32").unwrap(),
    );
    let fs = functions("def k(states, out):\n    i = cuda.grid(1)\n    if i < out.shape[0]:\n        for j in range(out.shape[1]):\n            out[i, j] = xoroshiro128p_uniform_float32(states, i)\n", &g);
    let k = nbcuda::numba::compile::compile_function(
        &fs["k"],
        &[arr1(DType::U64, 2), arr1(DType::F32, 2)],
        false,
    )
    .unwrap();
    let states = nbcuda::numba::launch::states_array(64, 7, 0).unwrap();
    let out = array_of(&[64, 5], DType::F32, &[0.0; 320]);
    launch(&k, cfg(2, 32), &[arg(&states), arg(&out)]).unwrap();
    let mut want = Vec::new();
    for mut s in rng::init_states(64, 7, 0) {
        for _ in 0..5 {
            want.push(rng::uniform_f32(&mut s) as f64);
        }
    }
    assert_eq!(values(&out), want);
}

#[test]
fn typing_rules_float32_stays_float32() {
    let k = kernel("def f(a, out):\n    i = cuda.grid(1)\n    x = a[i]\n    out[i] = math.sin(x) * x + np.float32(1)\n", &[arr1(DType::F32, 1), arr1(DType::F32, 1)]);
    let text = nbcuda::kernel::ir::print_kernel(&k.ir);
    assert!(text.contains("float32 = math.sin"), "{text}");
    assert!(
        !text.contains("float64"),
        "float32 arithmetic must stay float32:\n{text}"
    );
    let k = kernel(
        "def f(a, out):\n    i = cuda.grid(1)\n    out[i] = a[i] * 2\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    let text = nbcuda::kernel::ir::print_kernel(&k.ir);
    assert!(
        text.contains("float64 = mul"),
        "float32 * int64 is float64 in Numba:\n{text}"
    );
    let _ = (
        Ty::Scalar(DType::I32),
        KernelArg::Scalar(Scalar::I32(0)),
        LaunchConfig {
            grid: [1; 3],
            block: [1; 3],
            dynamic_shared_bytes: 0,
        },
    );
}

#[test]
fn unsupported_constructs_name_themselves() {
    let e = compile_err("def f(a):\n    b = [1, 2]\n", &[arr1(DType::F32, 1)]);
    assert!(e.message.contains("lists"), "{}", e.message);
    let e = compile_err(
        "def f(a):\n    a[0] = undefined_name\n",
        &[arr1(DType::F32, 1)],
    );
    assert_eq!(e.ename, "TypingError");
    assert!(e.message.contains("undefined_name"));
    let e = compile_err("def f(a):\n    a[0:2] = 1\n", &[arr1(DType::F32, 1)]);
    assert!(e.message.contains("slicing"), "{}", e.message);
}

#[test]
fn partial_indexing_gives_row_views() {
    let g = globals();
    let fs = functions(
        "def row_total(row):\n    s = 0.0\n    for j in range(row.shape[0]):\n        s += row[j]\n    return s\n\ndef k(a, out, counts):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        row = a[i]\n        out[i] = row_total(row) + a[i][0] * 1000 + len(row)\n        cuda.atomic.add(counts[i % 2], 0, 1)\n",
        &g,
    );
    let d = nbcuda::numba::dispatch::CudaKernel::new(fs["row_total"].clone(), true, Vec::new())
        .unwrap();
    g.borrow_mut()
        .insert("row_total".into(), nbcuda::py::value::Value::object(d));
    let k = nbcuda::numba::compile::compile_function(
        &fs["k"],
        &[
            arr1(DType::F64, 2),
            arr1(DType::F64, 1),
            arr1(DType::I32, 2),
        ],
        false,
    )
    .unwrap();
    let (r, c) = (9, 5);
    let av: Vec<f64> = (0..r * c).map(|i| i as f64 * 0.5).collect();
    let a = array_of(&[r, c], DType::F64, &av);
    let out = f64_array(&[0.0; 9]);
    let counts = array_of(&[2, 1], DType::I32, &[0.0, 0.0]);
    launch(&k, cfg(1, 16), &[arg(&a), arg(&out), arg(&counts)]).unwrap();
    let want: Vec<f64> = (0..r)
        .map(|i| av[i * c..(i + 1) * c].iter().sum::<f64>() + av[i * c] * 1000.0 + c as f64)
        .collect();
    assert_eq!(values(&out), want);
    assert_eq!(values(&counts), vec![5.0, 4.0]);
    let e = compile_err("def f(a):\n    a[0] = 1.0\n", &[arr1(DType::F32, 2)]);
    assert_eq!(e.ename, "TypingError");
}

#[test]
fn round_with_ndigits_is_pythons() {
    // Expected values from CPython 3.11's round(), except the first: Numba's kernels scale
    // by 10**ndigits and round half to even, and 2.675 * 100 is exactly 267.5 in binary
    // (CPython rounds the decimal value 2.67499999... correctly, to 2.67). Values whose
    // scaling overflows (1e300 * 100) come back unchanged.
    let src = "def round_to(a, out, nd):\n    i = cuda.grid(1)\n    if i < a.size:\n        out[i] = round(a[i], nd[i])\n";
    let k = kernel(
        src,
        &[
            arr1(DType::F64, 1),
            arr1(DType::F64, 1),
            arr1(DType::I64, 1),
        ],
    );
    let xs = [
        2.675, 0.5425, 1234.5678, -0.125, 0.5, 1.5, 2.5, -2.5, 1e300, 123.456,
    ];
    let nds = [2.0, 3.0, -2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, -1.0];
    let a = f64_array(&xs);
    let nd = array_of(&[10], DType::I64, &nds);
    let out = f64_array(&[0.0; 10]);
    launch(&k, cfg(1, 10), &[arg(&a), arg(&out), arg(&nd)]).unwrap();
    assert_eq!(
        values(&out),
        vec![2.68, 0.542, 1200.0, -0.12, 0.0, 2.0, 2.0, -2.0, 1e300, 120.0]
    );
    let ki = kernel(
        "def round_int(a, out):\n    i = cuda.grid(1)\n    if i < a.size:\n        out[i] = round(a[i], -1) + round(a[i], 2) * 0\n",
        &[arr1(DType::I64, 1), arr1(DType::I64, 1)],
    );
    let a = array_of(&[3], DType::I64, &[17.0, -25.0, 149.0]);
    let out = array_of(&[3], DType::I64, &[0.0; 3]);
    launch(&ki, cfg(1, 3), &[arg(&a), arg(&out)]).unwrap();
    assert_eq!(values(&out), vec![20.0, -20.0, 150.0]);
    // float32 values are scaled in float64, as Numba does: float32(0.3425) is a little
    // above 0.3425, so it rounds up (CPython's round(0.3425, 3) is 0.343 as well).
    let kf = kernel(
        "def round_f32(a, nd):
    a[0] = round(a[0], nd)
",
        &[arr1(DType::F32, 1), Ty::Scalar(DType::I32)],
    );
    let a = f32_array(&[0.3425]);
    launch(
        &kf,
        cfg(1, 1),
        &[arg(&a), KernelArg::Scalar(Scalar::I32(3))],
    )
    .unwrap();
    assert_eq!(values(&a), vec![0.343f32 as f64]);
}

#[test]
fn a_local_name_bound_once_to_an_int_sizes_a_shared_array() {
    // Numba folds `N = 100` into the shape; a name assigned twice is not a constant.
    let k = kernel(
        "def f(out):\n    N = 8\n    buf = cuda.shared.array(N, np.int32)\n    t = cuda.threadIdx.x\n    buf[t] = t * 2\n    cuda.syncthreads()\n    out[t] = buf[N - 1 - t] + len(buf)\n",
        &[arr1(DType::I32, 1)],
    );
    let out = array_of(&[8], DType::I32, &[0.0; 8]);
    launch(&k, cfg(1, 8), &[arg(&out)]).unwrap();
    let want: Vec<f64> = (0..8).map(|t| ((7 - t) * 2 + 8) as f64).collect();
    assert_eq!(values(&out), want);
    let e = compile_err(
        "def g(out):\n    N = 8\n    N = 9\n    buf = cuda.shared.array(N, np.int32)\n    out[0] = buf[0]\n",
        &[arr1(DType::I32, 1)],
    );
    assert!(e.message.contains("must be a constant"), "{}", e.message);
}

// Array views: slices, reshape, views passed on. Expected values come from plain Rust
// indexing of the host data, written out case by case.

fn i64_vals(a: &nbcuda::arrays::NdArray) -> Vec<i64> {
    values(a).into_iter().map(|x| x as i64).collect()
}

#[test]
fn slice_reads_with_steps_negative_bounds_and_clamping() {
    let k = compiler_support::slicing::get("reads");
    let av: Vec<f64> = (0..10).map(|i| (i * i) as f64 + 0.5).collect();
    let a = f64_array(&av);
    let out = f64_array(&[0.0; 17]);
    launch(&k, cfg(1, 4), &[arg(&a), arg(&out)]).unwrap();
    let v = [av[2], av[4], av[6]];
    let r: Vec<f64> = av.iter().rev().copied().collect();
    let t = &av[7..];
    let u = [av[7], av[4]];
    let w = &av[5..];
    let z = [r[3], r[2], r[1]];
    let s = &av[1..9];
    let want = vec![
        3.0,
        v[0],
        v[2],
        v[2],
        r[0],
        10.0,
        t[0],
        3.0,
        u[0],
        u[1],
        2.0,
        w.len() as f64,
        w[4],
        0.0,
        z[0],
        z[2],
        s[7],
    ];
    assert_eq!(values(&out), want);
}

#[test]
fn slice_writes_with_positive_and_negative_steps() {
    let k = compiler_support::slicing::get("writes");
    let a = array_of(&[10], DType::I64, &[7.0; 10]);
    launch(&k, cfg(1, 16), &[arg(&a)]).unwrap();
    // a[::2] = 0, 10, 20, 30, 40; a[-1::-2] (indices 9, 7, 5, 3, 1) = 0, -1, -2, -3, -4.
    assert_eq!(i64_vals(&a), vec![0, -4, 10, -3, 20, -2, 30, -1, 40, 0]);
}

#[test]
fn slice_bounds_and_step_known_only_at_run_time() {
    let k = compiler_support::slicing::get("runtime_step");
    let av: Vec<f64> = (0..10).map(|i| i as f64 * 3.0 + 1.0).collect();
    // (start, stop, step) and the base indices that slice picks.
    type Case = ((i64, i64, i64), &'static [usize]);
    let cases: [Case; 6] = [
        ((2, 8, 3), &[2, 5]),
        ((8, -9, -3), &[8, 5, 2]),
        ((-100, 100, 4), &[0, 4, 8]),
        ((100, -100, -4), &[9, 5, 1]),
        ((5, 5, 1), &[]),
        ((-2, -1, -1), &[]),
    ];
    for ((lo, hi, st), picked) in cases {
        let a = f64_array(&av);
        let out = f64_array(&[0.0; 12]);
        let s = |v| KernelArg::Scalar(Scalar::I64(v));
        launch(&k, cfg(1, 1), &[arg(&a), arg(&out), s(lo), s(hi), s(st)]).unwrap();
        let mut want = vec![0.0; 12];
        want[0] = picked.len() as f64;
        for (j, &i) in picked.iter().enumerate() {
            want[j + 1] = av[i];
        }
        assert_eq!(values(&out), want, "a[{lo}:{hi}:{st}]");
    }
}

#[test]
fn row_slices_go_to_device_functions_and_columns_and_blocks_read() {
    let k = compiler_support::slicing::get("rows");
    let (r, c) = (4usize, 5usize);
    let av: Vec<f64> = (0..r * c).map(|i| ((i / c) * 10 + i % c) as f64).collect();
    let a = array_of(&[r, c], DType::I32, &av);
    let out = array_of(&[r, c], DType::I32, &vec![0.0; r * c]);
    let cols = array_of(&[c], DType::I32, &vec![0.0; c]);
    let blk = array_of(&[2, 3], DType::I32, &[0.0; 6]);
    launch(&k, cfg(1, 8), &[arg(&a), arg(&out), arg(&cols), arg(&blk)]).unwrap();
    let at = |i: usize, j: usize| av[i * c + j];
    assert_eq!(values(&out), av.iter().map(|x| x * 2.0).collect::<Vec<_>>());
    let want_cols: Vec<f64> = (0..c).map(|j| (0..r).map(|i| at(i, j)).sum()).collect();
    assert_eq!(values(&cols), want_cols);
    // a[1:3, ::-2]: rows 1 and 2, columns 4, 2, 0.
    let want_blk = vec![at(1, 4), at(1, 2), at(1, 0), at(2, 4), at(2, 2), at(2, 0)];
    assert_eq!(values(&blk), want_blk);
}

#[test]
fn atomics_on_slices_use_the_views_elements() {
    let k = compiler_support::slicing::get("atomics");
    let n = 16;
    let fill = -99.0;
    let resv: Vec<f64> = (0..n)
        .map(|i| if i % 3 == 1 { -1.0 } else { fill })
        .collect();
    let aryv: Vec<f64> = (0..n).map(|i| (i % 7 + 1) as f64).collect();
    let res = array_of(&[n], DType::I32, &resv);
    let old = array_of(&[n], DType::I32, &vec![0.0; n]);
    let ary = array_of(&[n], DType::I32, &aryv);
    let bins = array_of(&[6], DType::I32, &[0.0; 6]);
    launch(
        &k,
        cfg(2, 16),
        &[
            arg(&res),
            arg(&old),
            arg(&ary),
            KernelArg::Scalar(Scalar::I32(-99)),
            arg(&bins),
        ],
    )
    .unwrap();
    // Each thread swaps its own element: filled ones take ary's value, others stay.
    let want_res: Vec<f64> = (0..n)
        .map(|i| if resv[i] == fill { aryv[i] } else { resv[i] })
        .collect();
    assert_eq!(values(&res), want_res);
    assert_eq!(values(&old), resv);
    let mut want_bins = [0.0; 6];
    for g in 0..32 {
        want_bins[1 + g % 3] += 1.0;
        want_bins[5] += 1.0;
    }
    assert_eq!(values(&bins), want_bins.to_vec());
}

#[test]
fn slices_of_dynamic_shared_memory_alias_it() {
    let k = compiler_support::slicing::get("dyn_shared");
    let out = array_of(&[13], DType::I32, &[0.0; 13]);
    let c = LaunchConfig {
        grid: [1; 3],
        block: [8, 1, 1],
        dynamic_shared_bytes: 8 * 4,
    };
    launch(&k, c, &[arg(&out)]).unwrap();
    // sm = 0..8; sm[0:2][1] = 1, sm[1::2][1] = 3, sm[::-1][0] = 7, sizes 4 and 8; then
    // sm[::-1][1] is sm[6] = 100 and sm[1::2][0] is sm[1] = 50.
    assert_eq!(
        i64_vals(&out),
        vec![1, 3, 7, 4, 8, 0, 50, 2, 3, 4, 5, 100, 7]
    );
}

#[test]
fn indexing_past_a_view_is_an_index_error_even_inside_the_base() {
    let k = compiler_support::slicing::get("oob_write");
    let a = f64_array(&[0.0; 10]);
    launch(&k, cfg(1, 3), &[arg(&a)]).unwrap();
    assert_eq!(
        values(&a),
        vec![0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
    // Thread 3 writes v[3]: a[5] exists, but the view has 3 elements.
    let e = launch(&k, cfg(1, 4), &[arg(&a)]).unwrap_err();
    assert_eq!(e.ename(), "IndexError", "{}", e.message);
    assert!(
        e.message
            .contains("index 3 is out of bounds for axis 0 with size 3"),
        "{}",
        e.message
    );
    assert_eq!(values(&a)[5], 0.0);

    let k = compiler_support::slicing::get("oob_read");
    let av: Vec<f64> = (0..20).map(|i| i as f64).collect();
    let a = array_of(&[4, 5], DType::F64, &av);
    let out = f64_array(&[0.0; 2]);
    launch(&k, cfg(1, 1), &[arg(&a), arg(&out)]).unwrap();
    // a[1:, ::2] is rows 1..4, columns 0, 2, 4: [-1, -1] is a[3, 4], [0, 0] is a[1, 0].
    assert_eq!(values(&out), vec![av[3 * 5 + 4], av[5]]);
    let e = launch(&k, cfg(1, 4), &[arg(&a), arg(&out)]).unwrap_err();
    assert_eq!(e.ename(), "IndexError");
    assert!(
        e.message
            .contains("index 3 is out of bounds for axis 0 with size 3")
            && e.message.contains("shape (3, 3)"),
        "{}",
        e.message
    );
}

#[test]
fn reshape_of_contiguous_arrays() {
    let k = compiler_support::slicing::get("reshape");
    let av: Vec<f64> = (0..12).map(|i| i as f64 + 0.5).collect();
    let bv: Vec<f64> = (0..12).map(|i| 100.0 + i as f64).collect();
    let a = f64_array(&av);
    let b = array_of(&[2, 6], DType::F64, &bv);
    let out = array_of(&[3, 4], DType::F64, &[0.0; 12]);
    let out2 = array_of(&[4, 3], DType::F64, &[0.0; 12]);
    let flat = f64_array(&[0.0; 12]);
    launch(
        &k,
        cfg(1, 1),
        &[
            arg(&a),
            arg(&b),
            arg(&out),
            arg(&out2),
            arg(&flat),
            KernelArg::Scalar(Scalar::I64(12)),
        ],
    )
    .unwrap();
    // C order on both sides: reshaping keeps the flat sequence of elements.
    assert_eq!(values(&out), av);
    assert_eq!(values(&out2), bv);
    assert_eq!(values(&flat), bv);
}

#[test]
fn math_remainder_modf_and_cuda_fma() {
    // Values from CPython 3.11's math module.
    let k = kernel(
        "def f(x, y, out):\n    i = cuda.grid(1)\n    if i < x.size:\n        fr, whole = math.modf(x[i])\n        out[i, 0] = math.remainder(x[i], y[i])\n        out[i, 1] = fr\n        out[i, 2] = whole\n        out[i, 3] = cuda.fma(x[i], y[i], 1.0)\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1), arr1(DType::F64, 2)],
    );
    let x = f64_array(&[5.5, 7.0, -4.0, -2.0, -0.25]);
    let y = f64_array(&[2.0, 2.0, 3.0, 1.0, 1.0]);
    let out = array_of(&[5, 4], DType::F64, &[0.0; 20]);
    launch(&k, cfg(1, 5), &[arg(&x), arg(&y), arg(&out)]).unwrap();
    let v = values(&out);
    let rows: Vec<&[f64]> = v.chunks(4).collect();
    assert_eq!(rows[0], [-0.5, 0.5, 5.0, 12.0]);
    assert_eq!(rows[1], [-1.0, 0.0, 7.0, 15.0]);
    assert_eq!(rows[2], [-1.0, -0.0, -4.0, -11.0]);
    assert!(
        rows[3][1] == 0.0 && rows[3][1].is_sign_negative(),
        "modf(-2.0) is (-0.0, -2.0)"
    );
    assert_eq!(rows[4][1..3], [-0.25, -0.0]);
    let inf = kernel(
        "def g(out):\n    fr, whole = math.modf(math.inf)\n    out[0] = fr\n    out[1] = whole\n",
        &[arr1(DType::F64, 1)],
    );
    let o = f64_array(&[1.0, 1.0]);
    launch(&inf, cfg(1, 1), &[arg(&o)]).unwrap();
    assert_eq!(values(&o), vec![0.0, f64::INFINITY]);
}

#[test]
fn math_nextafter_in_kernels() {
    // CPython 3.11: math.nextafter(1.0, 2.0) == 1.0000000000000002; in float32 the next
    // value above 1.0 is 1 + 2**-23.
    let k = kernel(
        "def f(a, b, out, out32):\n    out[0] = math.nextafter(a[0], b[0])\n    out32[0] = math.nextafter(np.float32(a[0]), np.float32(b[0]))\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1), arr1(DType::F64, 1), arr1(DType::F32, 1)],
    );
    let (a, b) = (f64_array(&[1.0]), f64_array(&[2.0]));
    let (out, out32) = (f64_array(&[0.0]), f32_array(&[0.0]));
    launch(&k, cfg(1, 1), &[arg(&a), arg(&b), arg(&out), arg(&out32)]).unwrap();
    assert_eq!(values(&out), vec![1.0000000000000002]);
    assert_eq!(values(&out32), vec![1.0 + 2f64.powi(-23)]);
}

#[test]
fn cuda_selp_selects_without_branching() {
    // Numba's test_selp: a[i] > 4 picks c[i] for even b (else 13), otherwise 3.
    let k = kernel(
        "def f(a, b, c):\n    i = cuda.grid(1)\n    inner = cuda.selp(b % 2 == 0, c[i], 13)\n    a[i] = cuda.selp(a[i] > 4, inner, 3)\n",
        &[arr1(DType::I64, 1), Ty::Scalar(DType::I64), arr1(DType::I64, 1)],
    );
    let c = array_of(&[8], DType::I64, &[17.0; 8]);
    for (b, inner) in [(6i64, 17i64), (7, 13)] {
        let a = array_of(&[8], DType::I64, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        launch(
            &k,
            cfg(8, 1),
            &[arg(&a), KernelArg::Scalar(Scalar::I64(b)), arg(&c)],
        )
        .unwrap();
        assert_eq!(
            values(&a),
            vec![
                3.0,
                3.0,
                3.0,
                3.0,
                3.0,
                inner as f64,
                inner as f64,
                inner as f64
            ]
        );
    }
}
