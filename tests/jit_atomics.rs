//! Atomics on the JIT tier against the interpreter (the reference executor): histograms
//! whose bins each worker updates in a private copy (`src/kernel/jit/private.rs`) must
//! leave the interpreter's bytes, for every order-free operation, on overflow, after a
//! fault, and over several workers; arrays that may not be privatised (an old value
//! read, the array also read, an argument sharing its memory) keep native atomics.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{KernelArg, LaunchConfig};
use nbcuda::kernel::jit::private::{plan, Fold};
use nbcuda::kernel::CompiledKernel;

fn bytes(a: &NdArray) -> Vec<u8> {
    let n: usize = a.shape.iter().product::<usize>() * a.dtype.itemsize();
    let mut out = vec![0u8; n];
    a.buf.read(a.offset, &mut out);
    out
}

/// A kernel the JIT tier compiles.
/// Bin indices in [0, bins) and values of `dt` spread over its range (negatives, and
/// magnitudes whose sums wrap), `n` of each.
fn inputs(n: usize, bins: usize, dt: DType) -> (NdArray, NdArray) {
    let idx: Vec<f64> = (0..n).map(|i| ((i * 7919) % bins) as f64).collect();
    let idx = array_of(&[n], DType::I32, &idx);
    let vals = NdArray::zeros(&[n], dt).unwrap();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..n {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let raw = x >> 7;
        let v = match dt.itemsize() {
            4 => (raw as u32 as u64).to_le_bytes()[..4].to_vec(),
            _ => raw.to_le_bytes().to_vec(),
        };
        vals.buf.write(i * dt.itemsize(), &v);
    }
    (idx, vals)
}

/// One executor's outcome (the fault's name and message) and every array's bytes.
type Outcome = (Result<(), (String, String)>, Vec<Vec<u8>>);

/// Run `k` on both executors (interpreter first), each with fresh arrays from `make`.
fn both(k: &CompiledKernel, c: LaunchConfig, make: &dyn Fn() -> Vec<NdArray>) -> [Outcome; 2] {
    [false, true].map(|jit| {
        let arrays = make();
        let args: Vec<KernelArg> = arrays.iter().map(arg).collect();
        let r = nbcuda::kernel::execute_on_cpu_with(k, &c, &args, jit)
            .map(|_| ())
            .map_err(|f| (f.ename().to_string(), f.message));
        (r, arrays.iter().map(bytes).collect())
    })
}

fn bins_of(shape: &[usize], dt: DType, init: f64) -> NdArray {
    let n: usize = shape.iter().product();
    array_of(shape, dt, &vec![init; n])
}

const HIST: &str = "def h(idx, vals, bins):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, idx.size, stride):\n        cuda.atomic.OP(bins, idx[i], vals[i])\n";

#[test]
fn every_order_free_atomic_privatised_leaves_the_interpreters_bins() {
    let ops = [
        ("add", Fold::Add),
        ("sub", Fold::Add),
        ("and_", Fold::And),
        ("or_", Fold::Or),
        ("xor", Fold::Xor),
        ("max", Fold::Max),
        ("min", Fold::Min),
    ];
    for dt in [DType::I32, DType::U32, DType::I64, DType::U64] {
        for (op, fold) in ops {
            let src = HIST.replace("OP", op);
            let k = native(&src, &[arr1(DType::I32, 1), arr1(dt, 1), arr1(dt, 1)]);
            assert_eq!(plan(&k.ir), vec![(2, fold)], "{op} {dt:?}");
            // Bins start mid-range so and/min and or/max all have work to do.
            let init = if op == "and_" || op == "min" {
                77.0
            } else {
                5.0
            };
            let make = || {
                let (idx, vals) = inputs(20_000, 256, dt);
                vec![idx, vals, bins_of(&[256], dt, init)]
            };
            let [interp, jit] = both(&k, cfg(40, 128), &make);
            assert_eq!(interp.0, Ok(()));
            assert_eq!(interp, jit, "{op} {dt:?}");
        }
    }
}

#[test]
fn wrapping_sums_and_mixed_add_sub_match() {
    let src = "def h(idx, vals, bins):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, idx.size, stride):\n        cuda.atomic.add(bins, idx[i], vals[i])\n        cuda.atomic.sub(bins, (idx[i] + 3) % bins.size, vals[i] >> 1)\n";
    for dt in [DType::I32, DType::I64] {
        let k = native(src, &[arr1(DType::I32, 1), arr1(dt, 1), arr1(dt, 1)]);
        assert_eq!(plan(&k.ir), vec![(2, Fold::Add)]);
        let make = || {
            let (idx, vals) = inputs(30_000, 64, dt);
            // Values near the top of the range: every bin's sum wraps many times.
            vec![idx, vals, bins_of(&[64], dt, 2147483000.0)]
        };
        let [interp, jit] = both(&k, cfg(16, 128), &make);
        assert_eq!(interp.0, Ok(()));
        assert_eq!(interp, jit, "{dt:?}");
    }
}

#[test]
fn two_dimensional_bins_fold_back_in_place() {
    let src = "def h(idx, bins):\n    i = cuda.grid(1)\n    if i < idx.size:\n        cuda.atomic.add(bins, (idx[i] % 16, idx[i] // 16), 1)\n";
    let k = native(src, &[arr1(DType::I32, 1), arr1(DType::U32, 2)]);
    assert_eq!(plan(&k.ir), vec![(1, Fold::Add)]);
    let make = || {
        let (idx, _) = inputs(9_000, 256, DType::I32);
        vec![idx, bins_of(&[16, 16], DType::U32, 1.0)]
    };
    let [interp, jit] = both(&k, cfg(72, 128), &make);
    assert_eq!(interp.0, Ok(()));
    assert_eq!(interp, jit);
}

#[test]
fn an_old_value_read_keeps_native_atomics() {
    // The old value decides a second atomic; bins never go negative, so the result does
    // not depend on the order of threads.
    let src = "def h(idx, bins, flag):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, idx.size, stride):\n        old = cuda.atomic.add(bins, idx[i], 1)\n        if old < 0:\n            cuda.atomic.add(flag, 0, 1)\n";
    let k = native(
        src,
        &[
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
        ],
    );
    assert_eq!(plan(&k.ir), vec![(2, Fold::Add)], "only flag is taken");
    let make = || {
        let (idx, _) = inputs(20_000, 256, DType::I32);
        vec![
            idx,
            bins_of(&[256], DType::I32, 0.0),
            bins_of(&[1], DType::I32, 0.0),
        ]
    };
    let [interp, jit] = both(&k, cfg(40, 128), &make);
    assert_eq!(interp.0, Ok(()));
    assert_eq!(interp, jit);
}

#[test]
fn an_array_also_read_keeps_native_atomics() {
    // Element 256 is read, never added to: the reads do not depend on the order.
    let src = "def h(idx, bins, out):\n    i = cuda.grid(1)\n    if i < idx.size:\n        cuda.atomic.add(bins, idx[i], 1)\n        out[i] = bins[256]\n";
    let k = native(
        src,
        &[
            arr1(DType::I32, 1),
            arr1(DType::I64, 1),
            arr1(DType::I64, 1),
        ],
    );
    assert!(plan(&k.ir).is_empty());
    let make = || {
        let (idx, _) = inputs(10_000, 256, DType::I32);
        let bins = bins_of(&[257], DType::I64, 3.0);
        vec![idx, bins, bins_of(&[10_000], DType::I64, 0.0)]
    };
    let [interp, jit] = both(&k, cfg(80, 128), &make);
    assert_eq!(interp.0, Ok(()));
    assert_eq!(interp, jit);
}

#[test]
fn bins_sharing_memory_with_another_argument_are_not_copied() {
    // `view` is the same array as `bins`: its reads must see the real memory.
    let src = "def h(idx, bins, view, out):\n    i = cuda.grid(1)\n    if i < idx.size:\n        cuda.atomic.add(bins, idx[i], 1)\n        out[i] = view[256]\n";
    let ty = [
        arr1(DType::I32, 1),
        arr1(DType::I32, 1),
        arr1(DType::I32, 1),
        arr1(DType::I32, 1),
    ];
    let k = native(src, &ty);
    assert_eq!(plan(&k.ir), vec![(1, Fold::Add)]);
    let run = |jit: bool| {
        let (idx, _) = inputs(10_000, 256, DType::I32);
        let bins = bins_of(&[257], DType::I32, 9.0);
        let out = bins_of(&[10_000], DType::I32, 0.0);
        let args = [arg(&idx), arg(&bins), arg(&bins), arg(&out)];
        nbcuda::kernel::execute_on_cpu_with(&k, &cfg(80, 128), &args, jit).unwrap();
        (bytes(&bins), bytes(&out))
    };
    assert_eq!(run(false), run(true));
}

#[test]
fn bins_too_large_to_copy_keep_native_atomics_and_match() {
    let src = HIST.replace("OP", "add");
    let k = native(
        &src,
        &[
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
        ],
    );
    let make = || {
        let (idx, vals) = inputs(40_000, 20_000, DType::I32);
        vec![idx, vals, bins_of(&[20_000], DType::I32, 0.0)]
    };
    let [interp, jit] = both(&k, cfg(200, 128), &make);
    assert_eq!(interp.0, Ok(()));
    assert_eq!(interp, jit);
}

#[test]
fn a_fault_mid_kernel_leaves_the_same_error_and_bins() {
    let src = "def h(idx, bins):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, idx.size, stride):\n        cuda.atomic.add(bins, idx[i], 1)\n";
    let k = native(src, &[arr1(DType::I32, 1), arr1(DType::I32, 1)]);
    assert_eq!(plan(&k.ir), vec![(1, Fold::Add)]);
    let make = || {
        let (idx, _) = inputs(50_000, 256, DType::I32);
        idx.buf.write(4 * 31_337, &Scalar::I32(400).to_bytes());
        vec![idx, bins_of(&[256], DType::I32, 0.0)]
    };
    let [interp, jit] = both(&k, cfg(8, 128), &make);
    let (ename, msg) = interp.0.clone().unwrap_err();
    assert_eq!(ename, "IndexError", "{msg}");
    assert_eq!(interp, jit);
}

#[test]
fn blocks_spread_over_several_workers_fold_every_copy() {
    let src = HIST.replace("OP", "add");
    let k = native(
        &src,
        &[
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
        ],
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    for c in [cfg(80, 256), cfg(512, 64)] {
        let make = || {
            let (idx, _) = inputs(300_000, 256, DType::I32);
            let ones = bins_of(&[300_000], DType::I32, 1.0);
            vec![idx, ones, bins_of(&[256], DType::I32, 0.0)]
        };
        let [interp, jit] = pool.install(|| both(&k, c, &make));
        assert_eq!(interp.0, Ok(()));
        assert_eq!(interp, jit);
        // 300000 ones over 256 bins: the counts the loop makes, whatever ran where.
        let counts: Vec<i32> = jit.1[2]
            .chunks(4)
            .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(counts.iter().map(|&c| c as i64).sum::<i64>(), 300_000);
    }
}
