//! The executor's fast paths: several independent blocks run as one wide set of lanes,
//! uniform and affine registers computed once and split on by tag, and plain accesses to
//! arrays each thread reaches only at its own global id. Every kernel here is checked
//! against host code, with grids that leave partial chunks and partial blocks.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::kernel::abi::{KernelArg, LaunchConfig};
use nbcuda::kernel::types::Ty;

fn i64_arg(v: i64) -> KernelArg {
    KernelArg::Scalar(Scalar::I64(v))
}

#[test]
fn hints_follow_the_kernel_body() {
    let f = arr1(DType::F32, 1);
    let hints = |src: &str, params: &[Ty]| kernel(src, params).ir.hints.clone();
    let inc = hints(
        "def k(a):\n    pos = cuda.grid(1)\n    if pos < a.size:\n        a[pos] += 1\n",
        std::slice::from_ref(&f),
    );
    assert!(inc.wide);
    assert_eq!(inc.gid_exclusive, vec![true]);

    // A neighbour's element, an index assigned in a branch, and an atomic each break
    // "only my own element".
    let shifted = hints(
        "def k(a, b):\n    i = cuda.grid(1)\n    if i + 1 < a.size:\n        b[i] = a[i + 1]\n",
        &[f.clone(), f.clone()],
    );
    assert_eq!(shifted.gid_exclusive, vec![false, true]);
    let branchy = hints(
        "def k(a, n):\n    i = 0\n    if n > 0:\n        i = cuda.grid(1)\n    a[i] = 1\n",
        &[f.clone(), Ty::Scalar(DType::I64)],
    );
    assert_eq!(branchy.gid_exclusive, vec![false, false]);
    let atomic = hints(
        "def k(a):\n    i = cuda.grid(1)\n    a[i] = 1\n    cuda.atomic.add(a, 0, 1)\n",
        std::slice::from_ref(&f),
    );
    assert_eq!(atomic.gid_exclusive, vec![false]);

    // Shared memory and print tie a kernel to its blocks.
    let shared = hints(
        "def k(a):\n    s = cuda.shared.array(32, np.float32)\n    s[cuda.threadIdx.x] = 1\n    cuda.syncthreads()\n    a[cuda.grid(1)] = s[0]\n",
        std::slice::from_ref(&f),
    );
    assert!(!shared.wide);
    let printing = hints(
        "def k(a):\n    print(cuda.grid(1))\n",
        std::slice::from_ref(&f),
    );
    assert!(!printing.wide);
}

#[test]
fn thread_coordinates_in_wide_chunks() {
    let k = kernel(
        "def k(out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = cuda.blockIdx.x * 1000000 + cuda.threadIdx.x * 1000 + cuda.laneid * 10 + cuda.gridDim.x - cuda.blockDim.x\n",
        &[arr1(DType::I64, 1)],
    );
    // 48 threads per block (not a multiple of the warp size), 41 blocks, a partial tail.
    let (grid, block, n) = (41u32, 48u32, 41 * 48 - 17);
    let o = array_of(&[n], DType::I64, &vec![0.0; n]);
    launch(&k, cfg(grid, block), &[arg(&o)]).unwrap();
    let want: Vec<f64> = (0..n)
        .map(|i| {
            let (b, t) = (i / block as usize, i % block as usize);
            (b * 1_000_000 + t * 1000 + (t % 32) * 10) as f64 + grid as f64 - block as f64
        })
        .collect();
    assert_eq!(values(&o), want);
}

#[test]
fn every_form_of_bounds_guard() {
    let guards = [
        (
            "i < n",
            Box::new(|i: i64, n: i64| i < n) as Box<dyn Fn(i64, i64) -> bool>,
        ),
        ("i <= n - 1", Box::new(|i, n| i < n)),
        ("n > i", Box::new(|i, n| i < n)),
        ("n - 1 >= i", Box::new(|i, n| i < n)),
        ("i >= n", Box::new(|i, n| i >= n)),
        ("i > n", Box::new(|i, n| i > n)),
        ("n <= i + 3", Box::new(|i, n| n <= i + 3)),
        ("n < i - 2", Box::new(|i, n| n < i - 2)),
        ("i == n", Box::new(|i, n| i == n)),
        ("n != i + 1", Box::new(|i, n| n != i + 1)),
    ];
    for (guard, host) in guards {
        let src = format!(
            "def k(out, n):\n    i = cuda.grid(1)\n    if {guard}:\n        out[i] = i + 1\n    else:\n        out[i] = -1\n"
        );
        let k = kernel(&src, &[arr1(DType::I64, 1), Ty::Scalar(DType::I64)]);
        let size = 64 * 37;
        for n in [0i64, 1, 700, 2000, size as i64 - 1, size as i64 + 5] {
            let o = array_of(&[size], DType::I64, &vec![0.0; size]);
            launch(&k, cfg(37, 64), &[arg(&o), i64_arg(n)]).unwrap();
            let want: Vec<f64> = (0..size as i64)
                .map(|i| if host(i, n) { (i + 1) as f64 } else { -1.0 })
                .collect();
            assert_eq!(values(&o), want, "guard `{guard}` with n = {n}");
        }
    }
}

#[test]
fn uniform_values_survive_divergent_updates() {
    // `v` and `w` start uniform (computed once, not written per lane); a branch then
    // changes them for some lanes only, and the other lanes must keep the uniform value.
    let k = kernel(
        "def k(out, a, s):\n    i = cuda.grid(1)\n    v = s * 2\n    w = a[3]\n    if i % 3 == 0:\n        v = i\n    else:\n        w = w + i\n    if i < out.size:\n        out[i] = v * 100000 + w\n",
        &[arr1(DType::I64, 1), arr1(DType::I64, 1), Ty::Scalar(DType::I64)],
    );
    let n = 5000;
    let a = array_of(&[8], DType::I64, &[0.0, 1.0, 2.0, 7.0, 0.0, 0.0, 0.0, 0.0]);
    let o = array_of(&[n], DType::I64, &vec![0.0; n]);
    launch(&k, cfg(20, 256), &[arg(&o), arg(&a), i64_arg(21)]).unwrap();
    let want: Vec<f64> = (0..n as i64)
        .map(|i| {
            let (v, w) = if i % 3 == 0 { (i, 7) } else { (42, 7 + i) };
            (v * 100_000 + w) as f64
        })
        .collect();
    assert_eq!(values(&o), want);
}

#[test]
fn grid_stride_loop_over_more_elements_than_threads() {
    let k = kernel(
        "def k(x, out):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for j in range(start, x.shape[0], stride):\n        out[j] = x[j] * 2.0 + 1.0\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    let n = 10_007;
    let xs: Vec<f64> = (0..n).map(|i| i as f64 * 0.25).collect();
    let x = f64_array(&xs);
    let o = f64_array(&vec![0.0; n]);
    launch(&k, cfg(9, 128), &[arg(&x), arg(&o)]).unwrap();
    let want: Vec<f64> = xs.iter().map(|v| v * 2.0 + 1.0).collect();
    assert_eq!(values(&o), want);
}

#[test]
fn out_of_bounds_in_a_wide_chunk_names_the_right_thread() {
    let k = kernel(
        "def k(out):\n    i = cuda.grid(1)\n    out[i] = 1\n",
        &[arr1(DType::F32, 1)],
    );
    let o = f32_array(&vec![0.0; 600]);
    let err = launch(&k, cfg(10, 64), &[arg(&o)]).unwrap_err();
    assert_eq!(err.ename(), "IndexError");
    assert!(
        err.message.contains("index 600 is out of bounds")
            && err.message.contains("block (9, 0, 0), thread (24, 0, 0)"),
        "{}",
        err.message
    );
}

fn exclusive_flags(
    k: &nbcuda::kernel::CompiledKernel,
    c: LaunchConfig,
    args: &[KernelArg],
) -> Vec<bool> {
    let p = nbcuda::kernel::exec::prepare(&k.ir, &c, args).unwrap();
    p.params
        .iter()
        .map(|d| d.is_some_and(|d| d.exclusive))
        .collect()
}

#[test]
fn plain_access_only_for_private_elements() {
    let k = kernel(
        "def k(a, b, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = a[i] + b[i]\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    let x = f32_array(&(0..1000).map(|i| i as f32).collect::<Vec<_>>());
    let y = f32_array(&vec![1.0; 1000]);
    // Distinct arrays, and the same view used twice (out=a): each element still belongs
    // to one thread.
    assert_eq!(
        exclusive_flags(&k, cfg(4, 256), &[arg(&x), arg(&y), arg(&y)]),
        vec![true; 3]
    );
    // Shifted views of one buffer: thread i writes what thread i+1 reads.
    let mut head = x.clone();
    head.shape = vec![999];
    let mut tail = x.clone();
    tail.shape = vec![999];
    tail.offset += 4;
    let flags = exclusive_flags(&k, cfg(4, 256), &[arg(&tail), arg(&y), arg(&head)]);
    assert_eq!(flags, vec![false, true, false]);
    // A 2-D block: cuda.grid(1) repeats across the y threads.
    let c2 = LaunchConfig {
        grid: [4, 1, 1],
        block: [128, 2, 1],
        dynamic_shared_bytes: 0,
    };
    assert_eq!(
        exclusive_flags(&k, c2, &[arg(&x), arg(&y), arg(&y)]),
        vec![false; 3]
    );

    // out=a through the plain path: each element read, then written, by its own thread.
    launch(&k, cfg(4, 256), &[arg(&x), arg(&y), arg(&x)]).unwrap();
    let want: Vec<f64> = (0..1000).map(|i| i as f64 + 1.0).collect();
    assert_eq!(values(&x), want);
}

#[test]
fn arithmetic_with_a_uniform_operand_on_either_side() {
    for dt in [DType::F32, DType::F64] {
        let k = kernel(
            "def k(x, out, s):\n    i = cuda.grid(1)\n    if i < out.size:\n        v = x[i]\n        out[i] = (s - v) * (v - s) + s / (v + s) - v / s + max(v, s) - min(s, v) + max(s, v)\n",
            &[arr1(dt, 1), arr1(dt, 1), Ty::Scalar(dt)],
        );
        let n = 3000;
        let xs: Vec<f64> = (0..n).map(|i| (i as f64 - 1500.0) * 0.37).collect();
        let x = array_of(&[n], dt, &xs);
        let o = array_of(&[n], dt, &vec![0.0; n]);
        let s = 3.25;
        let sarg = KernelArg::Scalar(Scalar::F64(s).cast(dt));
        launch(&k, cfg(12, 256), &[arg(&x), arg(&o), sarg]).unwrap();
        let want: Vec<f64> = xs
            .iter()
            .map(|&v| {
                // Every operand has the array's type, so float32 stays float32: round
                // each step as the kernel does.
                let r = |a: f64| if dt == DType::F32 { a as f32 as f64 } else { a };
                let v = r(v);
                let t1 = r(r(s - v) * r(v - s));
                let t2 = r(s / r(v + s));
                let t3 = r(v / s);
                let t = r(r(r(r(t1 + t2) - t3) + v.max(s)) - s.min(v));
                r(t + v.max(s))
            })
            .collect();
        assert_eq!(values(&o), want, "{dt:?}");
    }
}
