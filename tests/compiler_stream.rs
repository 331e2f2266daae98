//! The stream path for element-wise kernels (src/compiler/exec_stream.rs): which kernels
//! take it, and that it computes bit for bit what the lane interpreter computes for the
//! same launch — every kernel here runs both ways on copies of the same arrays — with
//! sizes that leave partial chunks, run on several workers, and overrun the guard.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{ArgMem, ArrayArg, KernelArg, LaunchConfig};
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;

/// The same kernel with the stream plan removed: it runs on the lane interpreter.
fn interpreted(k: &CompiledKernel) -> CompiledKernel {
    let mut ir = k.ir.clone();
    ir.hints.stream = None;
    CompiledKernel::from_ir(ir)
}

fn has_plan(src: &str, params: &[Ty]) -> bool {
    kernel(src, params).ir.hints.stream.is_some()
}

/// Values that exercise signs, fractions, rounding ties and (for floats) large magnitudes.
fn sample(i: usize, dtype: DType) -> f64 {
    let base = (i as f64 * 0.731).sin() * 300.0;
    match dtype {
        DType::F32 | DType::F64 => match i % 97 {
            0 => 1.0e6 + i as f64,
            1 => -2.5,
            2 => 0.5,
            _ => base,
        },
        DType::Bool => i.is_multiple_of(3) as u8 as f64,
        d if d.name().starts_with('u') => base.abs().floor(),
        _ => base.floor(),
    }
}

fn arrays_like(arrays: &[(DType, usize)]) -> Vec<NdArray> {
    arrays
        .iter()
        .map(|&(dt, n)| array_of(&[n], dt, &(0..n).map(|i| sample(i, dt)).collect::<Vec<_>>()))
        .collect()
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

/// Launch `k` both ways over fresh arrays and scalars; assert every array ends equal, and
/// return the stream path's arrays.
fn both(
    k: &CompiledKernel,
    arrays: &[(DType, usize)],
    scalars: &[Scalar],
    c: LaunchConfig,
) -> Vec<NdArray> {
    assert!(
        k.ir.hints.stream.is_some(),
        "kernel {} has no stream plan",
        k.name
    );
    let run = |k: &CompiledKernel| {
        let arrs = arrays_like(arrays);
        let mut args: Vec<KernelArg> = arrs.iter().map(arg).collect();
        args.extend(scalars.iter().map(|s| KernelArg::Scalar(*s)));
        launch(k, c, &args).unwrap();
        arrs
    };
    let fast = run(k);
    let slow = run(&interpreted(k));
    for (i, (f, s)) in fast.iter().zip(&slow).enumerate() {
        assert!(
            same_bits(&values(f), &values(s)),
            "array {i} differs between the stream path and the interpreter for kernel {}",
            k.name
        );
    }
    fast
}

fn f32s(n: usize) -> (DType, usize) {
    (DType::F32, n)
}

#[test]
fn element_wise_kernels_get_a_plan_and_others_do_not() {
    let f = arr1(DType::F32, 1);
    let i64s = Ty::Scalar(DType::I64);
    let inc = "def k(a):\n    pos = cuda.grid(1)\n    if pos < a.size:\n        a[pos] += 1\n";
    assert!(has_plan(inc, std::slice::from_ref(&f)));
    for guard in ["i < n", "n > i", "i <= n - 1", "n - 1 >= i"] {
        let src = format!(
            "def k(a, n):\n    i = cuda.grid(1)\n    if {guard}:\n        a[i] = 2 * a[i]\n"
        );
        assert!(has_plan(&src, &[f.clone(), i64s.clone()]), "guard {guard}");
    }
    for exit in ["i >= n", "n <= i", "i > n - 1", "n - 1 < i"] {
        let src = format!(
            "def k(a, n):\n    i = cuda.grid(1)\n    if {exit}:\n        return\n    a[i] = 2 * a[i]\n"
        );
        let k = kernel(&src, &[f.clone(), i64s.clone()]);
        assert!(k.ir.hints.stream.is_some(), "early exit {exit}");
        let out = both(&k, &[f32s(1000)], &[Scalar::I64(700)], cfg(4, 256));
        let want: Vec<f64> = (0..1000)
            .map(|i| sample(i, DType::F32) as f32 as f64 * if i < 700 { 2.0 } else { 1.0 })
            .collect();
        assert_eq!(values(&out[0]), want, "early exit {exit}");
    }
    assert!(has_plan(
        "def k(a):\n    a[cuda.grid(1)] = 1\n",
        std::slice::from_ref(&f)
    ));

    let not_element_wise = [
        "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        for j in range(3):\n            a[i] += j\n",
        "def k(a):\n    i = cuda.grid(1)\n    if i + 1 < a.size:\n        a[i] = a[i + 1]\n",
        "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        cuda.atomic.add(a, 0, 1)\n",
        "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        print(i)\n",
        "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = cuda.threadIdx.x\n",
        "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = 1\n    else:\n        a[0] = 2\n",
        "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        if a[i] > 0:\n            a[i] = 1\n",
    ];
    for src in not_element_wise {
        assert!(!has_plan(src, std::slice::from_ref(&f)), "{src}");
    }
}

#[test]
fn float_arithmetic_and_math_match_the_interpreter() {
    let n: usize = 50_001;
    let f32k = kernel(
        "def k(x, y, o):\n    i = cuda.grid(1)\n    if i < o.size:\n        a = x[i]\n        b = y[i]\n        o[i] = (a + b) * (a - b) / (b + 1.5) + a // 3.0 + a % 2.5 + min(a, b) - max(a, 0.5) + abs(-a) + math.sin(a) + math.cos(b) + math.sqrt(abs(b)) + math.floor(a) + math.atan2(a, 3.0)\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    both(
        &f32k,
        &[f32s(n), f32s(n), f32s(n)],
        &[],
        cfg(n.div_ceil(256) as u32, 256),
    );

    let f64k = kernel(
        "def k(x, o):\n    i = cuda.grid(1)\n    if i < o.size:\n        v = x[i]\n        o[i] = math.exp(-abs(v) * 0.01) + math.log1p(abs(v)) + math.erf(v * 0.1) + math.tanh(v) + math.hypot(v, 2.0) + v ** 2 - math.copysign(1.0, v)\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    both(
        &f64k,
        &[(DType::F64, n), (DType::F64, n)],
        &[],
        cfg(n.div_ceil(128) as u32, 128),
    );
}

#[test]
fn integer_wrapping_comparisons_and_selects_match_the_interpreter() {
    let n: usize = 20_000;
    let ints = kernel(
        "def k(a, o, b):\n    i = cuda.grid(1)\n    if i < o.size:\n        v = a[i]\n        o[i] = ((v * 7 + (v >> 2) - (v << 3)) ^ (v & 12) | (v // 5)) + v % 3 - (-v)\n        b[i] = b[i] * 37 + 200\n",
        &[arr1(DType::I32, 1), arr1(DType::I32, 1), arr1(DType::U8, 1)],
    );
    both(
        &ints,
        &[(DType::I32, n), (DType::I32, n), (DType::U8, n)],
        &[],
        cfg(80, 256),
    );

    let selects = kernel(
        "def k(x, o, c):\n    i = cuda.grid(1)\n    if i < o.size:\n        v = x[i]\n        o[i] = 1.0 if math.isnan(v) else (2.0 if v > 0 else 3.0)\n        c[i] = int(v > 0) + int(math.isinf(v)) * 10 + int(v == 0.5) * 100\n",
        &[arr1(DType::F32, 1), arr1(DType::F64, 1), arr1(DType::I64, 1)],
    );
    both(
        &selects,
        &[f32s(n), (DType::F64, n), (DType::I64, n)],
        &[],
        cfg(80, 256),
    );
}

#[test]
fn branches_that_only_assign_become_selects() {
    let n: usize = 30_000;
    let k = kernel(
        "def k(x, o, c):\n    i = cuda.grid(1)\n    if i < o.size:\n        v = x[i]\n        w = v\n        if v > 100:\n            w = v * 2\n            if v > 200:\n                w = w + 1\n        elif v < -100:\n            w = -v\n        else:\n            c[i] = 7\n        o[i] = w + (1 if w > 0 else 2)\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1), arr1(DType::I64, 1)],
    );
    let has_store_in_branch = k.ir.hints.stream.is_some();
    assert!(
        !has_store_in_branch,
        "a store inside a branch stays on the interpreter"
    );
    let k = kernel(
        "def k(x, o):\n    i = cuda.grid(1)\n    if i < o.size:\n        v = x[i]\n        w = v\n        if v > 100:\n            w = v * 2\n            if v > 200:\n                w = w + 1\n        elif v < -100:\n            w = -v\n        o[i] = w + (1 if w > 0 else 2)\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    let out = both(
        &k,
        &[(DType::F64, n), (DType::F64, n)],
        &[],
        cfg(n.div_ceil(256) as u32, 256),
    );
    let want: Vec<f64> = (0..n)
        .map(|i| {
            let v = sample(i, DType::F64);
            let mut w = v;
            if v > 100.0 {
                w = v * 2.0;
                if v > 200.0 {
                    w += 1.0;
                }
            } else if v < -100.0 {
                w = -v;
            }
            w + if w > 0.0 { 1.0 } else { 2.0 }
        })
        .collect();
    assert_eq!(values(&out[1]), want);
}

#[test]
fn every_cast_between_dtypes_matches_the_interpreter() {
    let dtypes = DType::ALL.iter().copied().filter(|d| *d != DType::Bool);
    let n = 3000;
    for from in dtypes.clone() {
        for to in dtypes.clone() {
            let k = kernel(
                "def k(a, o):\n    i = cuda.grid(1)\n    if i < o.size:\n        o[i] = a[i]\n",
                &[arr1(from, 1), arr1(to, 1)],
            );
            assert!(k.ir.hints.stream.is_some(), "{from:?} -> {to:?}");
            both(&k, &[(from, n), (to, n)], &[], cfg(12, 256));
        }
    }
}

#[test]
fn thread_ids_uniform_values_and_reassigned_registers() {
    let n: usize = 30_000;
    let k = kernel(
        "def k(o, x, s):\n    i = cuda.grid(1)\n    t = s * 3 + cuda.blockDim.x + cuda.gridDim.x\n    if i < o.size:\n        v = x[i]\n        v = v * 2\n        v = v + t\n        o[i] = v + i\n",
        &[arr1(DType::I64, 1), arr1(DType::I64, 1), Ty::Scalar(DType::I64)],
    );
    assert!(k.ir.hints.stream.is_some());
    let grid = n.div_ceil(256);
    let out = both(
        &k,
        &[(DType::I64, n), (DType::I64, n)],
        &[Scalar::I64(5)],
        cfg(grid as u32, 256),
    );
    let want: Vec<f64> = (0..n)
        .map(|i| sample(i, DType::I64) * 2.0 + (15 + 256 + grid) as f64 + i as f64)
        .collect();
    assert_eq!(values(&out[0]), want);
}

#[test]
fn float32_updates_round_as_numba_does() {
    // `a[i] += 1` and friends compute in float64 and round to float32; the stream path
    // does some of them as one float32 operation, which must give the same bits.
    let n: usize = 40_000;
    for body in [
        "a[i] += 1",
        "a[i] = a[i] * 3 - 1",
        "a[i] = a[i] / 3",
        "a[i] += 0.1",
        "a[i] = a[i] * b[i]",
        "a[i] = (a[i] + b[i]) / 7",
    ] {
        let src =
            format!("def k(a, b):\n    i = cuda.grid(1)\n    if i < a.size:\n        {body}\n");
        let k = kernel(&src, &[arr1(DType::F32, 1), arr1(DType::F32, 1)]);
        assert!(k.ir.hints.stream.is_some(), "{body}");
        let out = both(
            &k,
            &[f32s(n), f32s(n)],
            &[],
            cfg(n.div_ceil(256) as u32, 256),
        );
        if body == "a[i] += 1" {
            let want: Vec<f64> = (0..n)
                .map(|i| (sample(i, DType::F32) as f32 as f64 + 1.0) as f32 as f64)
                .collect();
            assert_eq!(values(&out[0]), want);
        }
    }
}

#[test]
fn a_swap_reads_both_values_before_either_store() {
    let n: usize = 20_000;
    let k = kernel(
        "def k(a, b):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i], b[i] = b[i] * 2, a[i]\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    let out = both(
        &k,
        &[(DType::F64, n); 2],
        &[],
        cfg(n.div_ceil(256) as u32, 256),
    );
    for i in [0, 7, n - 1] {
        assert_eq!(values(&out[0])[i], sample(i, DType::F64) * 2.0);
        assert_eq!(values(&out[1])[i], sample(i, DType::F64));
    }
}

#[test]
fn stores_are_seen_by_later_loads_in_program_order() {
    let n: usize = 20_000;
    let k = kernel(
        "def k(a, b, c):\n    i = cuda.grid(1)\n    if i < a.size:\n        t = a[i]\n        a[i] = b[i] * 2\n        c[i] = a[i] + t\n        b[i] = t\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    let out = both(
        &k,
        &[(DType::F64, n); 3],
        &[],
        cfg(n.div_ceil(256) as u32, 256),
    );
    for i in [0, 1, 999, n - 1] {
        let (a0, b0) = (sample(i, DType::F64), sample(i, DType::F64));
        assert_eq!(values(&out[0])[i], b0 * 2.0);
        assert_eq!(values(&out[2])[i], b0 * 2.0 + a0);
        assert_eq!(values(&out[1])[i], a0);
    }
}

fn view_arg(a: &NdArray, offset: usize, shape: usize, stride_elems: isize) -> KernelArg {
    KernelArg::Array(ArrayArg {
        mem: ArgMem::Host(a.buf.clone()),
        offset: offset * a.dtype.itemsize(),
        shape: vec![shape],
        strides: vec![stride_elems * a.dtype.itemsize() as isize],
        dtype: a.dtype,
    })
}

#[test]
fn aliased_and_strided_arrays() {
    let add = kernel(
        "def k(x, y, o):\n    i = cuda.grid(1)\n    if i < o.size:\n        o[i] = x[i] + y[i]\n",
        &[
            arr1(DType::F32, 1),
            arr1(DType::F32, 1),
            arr1(DType::F32, 1),
        ],
    );
    let n: usize = 25_000;
    let host: Vec<f64> = (0..n).map(|i| sample(i, DType::F32)).collect();
    // out=x: the result overwrites an input in place.
    for k in [&add, &interpreted(&add)] {
        let x = array_of(&[n], DType::F32, &host);
        let y = array_of(&[n], DType::F32, &host);
        launch(
            k,
            cfg(n.div_ceil(256) as u32, 256),
            &[arg(&x), arg(&y), arg(&x)],
        )
        .unwrap();
        let want: Vec<f64> = host
            .iter()
            .map(|v| (*v as f32 + *v as f32) as f64)
            .collect();
        assert_eq!(values(&x), want);
    }
    // Every other element of a longer array, and a reversed view, as inputs and output.
    let m = 2 * n + 1;
    let long: Vec<f64> = (0..m).map(|i| sample(i, DType::F32)).collect();
    let x = array_of(&[m], DType::F32, &long);
    let y = array_of(&[m], DType::F32, &long);
    let o = array_of(&[m], DType::F32, &vec![0.0; m]);
    launch(
        &add,
        cfg(n.div_ceil(256) as u32, 256),
        &[
            view_arg(&x, 0, n, 2),
            view_arg(&y, m - 1, n, -1),
            view_arg(&o, 1, n, 2),
        ],
    )
    .unwrap();
    let got = values(&o);
    for i in 0..n {
        let want = (long[2 * i] as f32 + long[m - 1 - i] as f32) as f64;
        assert_eq!(got[1 + 2 * i], want, "element {i}");
        assert_eq!(got[2 * i], 0.0, "gap {i} untouched");
    }
}

#[test]
fn an_overrunning_guard_faults_as_in_the_interpreter() {
    let k = kernel(
        "def k(x, o, n):\n    i = cuda.grid(1)\n    if i < n:\n        o[i] = x[i] + 1\n",
        &[
            arr1(DType::F32, 1),
            arr1(DType::F32, 1),
            Ty::Scalar(DType::I64),
        ],
    );
    let run = |k: &CompiledKernel, n: i64| {
        let x = array_of(&[1000], DType::F32, &vec![1.0; 1000]);
        let o = array_of(&[1000], DType::F32, &vec![0.0; 1000]);
        let r = launch(
            k,
            cfg(8, 256),
            &[arg(&x), arg(&o), KernelArg::Scalar(Scalar::I64(n))],
        );
        (
            r.err().map(|f| (f.ename().to_string(), f.message)),
            values(&o),
        )
    };
    let (fast, slow) = (run(&k, 1001), run(&interpreted(&k), 1001));
    let fault = fast.0.clone().expect("an IndexError");
    assert_eq!(fault.0, "IndexError");
    assert!(
        fault.1.contains("index 1000 is out of bounds"),
        "{}",
        fault.1
    );
    assert_eq!(fast.0, slow.0);
    // A guard inside the arrays runs normally on the stream path.
    let (ok, vals) = run(&k, 1000);
    assert_eq!(ok, None);
    assert_eq!(vals, vec![2.0; 1000]);
}
