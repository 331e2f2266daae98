//! The JIT tier on kernels with barriers and shared memory, against the interpreter (the
//! reference executor): output arrays equal byte for byte, faults word for word, and the
//! kernels the tier must leave to the interpreter (barriers threads reach apart, shared
//! updates threads race on) left there.

mod compiler_support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{Cancel, LaunchConfig};
use nbcuda::kernel::CompiledKernel;

fn interpreted(src: &str, params: &[nbcuda::kernel::types::Ty]) -> CompiledKernel {
    let k = kernel(src, params);
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_none(), "compiled");
    k
}

fn bytes(a: &NdArray) -> Vec<u8> {
    let n: usize = a.shape.iter().product::<usize>() * a.dtype.itemsize();
    let mut out = vec![0u8; n];
    a.buf.read(a.offset, &mut out);
    out
}

/// Arrays `(shape, dtype)` filled with a spread of values from `seed`.
fn arrays(specs: &[(&[usize], DType)], seed: u64) -> Vec<NdArray> {
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(12345);
    specs
        .iter()
        .map(|(shape, dt)| {
            let n: usize = shape.iter().product();
            let vals: Vec<f64> = (0..n)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((s >> 33) % 2000) as f64 / 100.0 - 8.0
                })
                .collect();
            array_of(shape, *dt, &vals)
        })
        .collect()
}

type Outcome = Result<Vec<Vec<u8>>, (String, String)>;

fn run(k: &CompiledKernel, c: &LaunchConfig, specs: &[(&[usize], DType)], jit: bool) -> Outcome {
    let arrs = arrays(specs, 7);
    let args: Vec<_> = arrs.iter().map(arg).collect();
    match nbcuda::kernel::execute_on_cpu_with(k, c, &args, jit) {
        Ok(_) => Ok(arrs.iter().map(bytes).collect()),
        Err(f) => Err((f.ename().to_string(), f.message)),
    }
}

#[track_caller]
fn same(k: &CompiledKernel, c: LaunchConfig, specs: &[(&[usize], DType)]) -> Outcome {
    let interp = run(k, &c, specs, false);
    let jit = run(k, &c, specs, true);
    assert_eq!(interp, jit, "{c:?}");
    jit
}

fn cfg2(grid: [u32; 2], block: [u32; 2]) -> LaunchConfig {
    LaunchConfig {
        grid: [grid[0], grid[1], 1],
        block: [block[0], block[1], 1],
        dynamic_shared_bytes: 0,
    }
}

const MATMUL: &str = "def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(16, 16), dtype=np.float32)
    sB = cuda.shared.array(shape=(16, 16), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = np.float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * 16) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * 16]
        if x < B.shape[1] and (ty + i * 16) < B.shape[0]:
            sB[ty, tx] = B[ty + i * 16, x]
        cuda.syncthreads()
        for j in range(16):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp
";

#[test]
fn tiled_matmul_in_shared_memory_gives_the_interpreters_bytes() {
    let k = native(
        MATMUL,
        &[
            arr1(DType::F32, 2),
            arr1(DType::F32, 2),
            arr1(DType::F32, 2),
        ],
    );
    let m: &[usize] = &[48, 48];
    let out = same(
        &k,
        cfg2([3, 3], [16, 16]),
        &[(m, DType::F32), (m, DType::F32), (m, DType::F32)],
    )
    .unwrap();
    // A real product, not zeros: C[0, 0] is the dot product of A's row and B's column.
    let f = |b: &[u8], i: usize| f32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
    let ab = arrays(&[(m, DType::F32), (m, DType::F32)], 7);
    let (a, b) = (bytes(&ab[0]), bytes(&ab[1]));
    let mut want = 0f32;
    for j in 0..48 {
        want += f(&a, j) * f(&b, 48 * j);
    }
    assert_eq!(f(&out[2], 0), want);
    // Edges that do not fill a tile.
    same(
        &k,
        cfg2([3, 3], [16, 16]),
        &[
            (&[40, 37], DType::F32),
            (&[37, 45], DType::F32),
            (&[40, 45], DType::F32),
        ],
    )
    .unwrap();
}

#[test]
fn block_tree_reductions_give_the_interpreters_bytes() {
    let k = native(
        "def bsum(a, out):
    sm = cuda.shared.array(256, dtype=np.float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sm[tid] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sm[tid] += sm[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = sm[0]
",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    for (grid, block) in [(5, 256), (3, 64), (2, 1)] {
        same(
            &k,
            cfg(grid, block),
            &[(&[1000], DType::F64), (&[8], DType::F64)],
        )
        .unwrap();
    }
    // The catalog's reduction too (a constant first step).
    let (_, k) = catalog::all()
        .into_iter()
        .find(|(n, _)| n == "block_sum")
        .unwrap();
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_some());
    same(&k, cfg(4, 128), &[(&[500], DType::F32), (&[4], DType::F32)]).unwrap();
}

/// `src/kernel/jit/clamp.rs`: a region ending in `if tx < s:` (s launch-wide) runs only
/// the threads below `s` along x, in every row of a 2-D block, blocks narrower than `s`
/// too, and a step whose partner falls outside the shared array raises the interpreter's
/// IndexError. (`cuda_reduce_partial_sums_give_the_interpreters_bytes` covers the
/// reduction tree's `tid < s and tid + s < count`.)
#[test]
fn regions_cut_to_their_guard_give_the_interpreters_bytes() {
    // Two axes: the cut applies along x in every row of the block.
    let k = native(
        "def rows(a):
    sm = cuda.shared.array((8, 32), dtype=np.int32)
    s2 = cuda.shared.array((8, 32), dtype=np.int32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sm[ty, tx] = tx + ty
    s2[ty, tx] = -1
    cuda.syncthreads()
    if tx < 5:
        s2[ty, tx] = sm[ty, tx] + sm[ty, tx + 5]
    cuda.syncthreads()
    a[ty, tx] = s2[ty, tx]
",
        &[arr1(DType::I32, 2)],
    );
    same(&k, cfg2([2, 1], [12, 6]), &[(&[6, 12], DType::I32)]).unwrap();
    same(&k, cfg2([1, 1], [4, 3]), &[(&[3, 4], DType::I32)]).unwrap();
    // The partner past the shared array: the interpreter's IndexError, thread for thread.
    let k = native(
        "def oob(a):
    sm = cuda.shared.array(64, dtype=np.float64)
    s2 = cuda.shared.array(64, dtype=np.float64)
    t = cuda.threadIdx.x
    sm[t] = t
    s2[t] = -1.0
    cuda.syncthreads()
    if t < 40:
        s2[t] = sm[t] + sm[t + 40]
    cuda.syncthreads()
    a[t] = s2[t]
",
        &[arr1(DType::F64, 1)],
    );
    let err = same(&k, cfg(2, 64), &[(&[64], DType::F64)]).unwrap_err();
    assert_eq!(err.0, "IndexError");
}

#[test]
fn cuda_reduce_partial_sums_give_the_interpreters_bytes() {
    let f = function("def add(a, b):\n    return a + b\n");
    // The kernel for any input and the one for contiguous inputs.
    let layouts = [
        nbcuda::kernel::types::Layout::A,
        nbcuda::kernel::types::Layout::C,
    ];
    for (dt, layout) in [DType::F32, DType::F64, DType::I64]
        .into_iter()
        .flat_map(|dt| layouts.map(|l| (dt, l)))
    {
        let k = nbcuda::numba::cuda_reduce::partial_kernel_for(&f, dt, layout).unwrap();
        assert!(
            nbcuda::kernel::jit::code_for(&k.ir).is_some(),
            "{:?}",
            nbcuda::kernel::jit::unsupported(&k.ir)
        );
        // Split as for a GPU and as for the CPU device (fewer, longer threads).
        let caps = [
            nbcuda::numba::cuda_reduce::MAX_BLOCKS,
            nbcuda::numba::cuda_reduce::MAX_BLOCKS_CPU,
        ];
        for (n, cap) in [3000usize, 700, 5, 70_000, 300_001]
            .into_iter()
            .flat_map(|n| caps.map(|c| (n, c)))
        {
            let (per, threads, blocks) = nbcuda::numba::cuda_reduce::split_into(n, cap);
            let arrs = arrays(&[(&[n], dt), (&[blocks], dt)], 3);
            let go = |jit: bool| {
                let out = NdArray::zeros(&[blocks], dt).unwrap();
                let i64arg = |v: usize| {
                    nbcuda::kernel::abi::KernelArg::Scalar(nbcuda::arrays::dtype::Scalar::I64(
                        v as i64,
                    ))
                };
                let args = [
                    arg(&arrs[0]),
                    arg(&out),
                    i64arg(n),
                    i64arg(per),
                    i64arg(threads),
                ];
                let c = cfg(blocks as u32, 256);
                nbcuda::kernel::execute_on_cpu_with(&k, &c, &args, jit).unwrap();
                bytes(&out)
            };
            assert_eq!(go(false), go(true), "{dt:?} {layout:?} {n} {cap}");
        }
    }
}

#[test]
fn barriers_in_uniform_loops_and_values_across_barriers_match() {
    let k = native(
        "def smooth(a, out):
    buf = cuda.shared.array(64, dtype=np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = a[i] if i < a.size else 0.0
    for r in range(3):
        buf[t] = v
        cuda.syncthreads()
        v = buf[(t + 1) % 64] * 0.5 + v
        cuda.syncthreads()
    if i < out.size:
        out[i] = v
",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    same(
        &k,
        cfg(3, 64),
        &[(&[150], DType::F64), (&[150], DType::F64)],
    )
    .unwrap();
    // Integers, floats and booleans computed before a barrier and read after it, by
    // threads some of which have returned.
    let k = native(
        "def live(a, out, n):
    buf = cuda.shared.array(128, dtype=np.int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= n:
        return
    x = a[i] * 3
    f = np.float32(a[i]) / 7
    odd = (t % 2) == 1
    buf[t] = x
    cuda.syncthreads()
    y = buf[t ^ 1] if (t ^ 1) < cuda.blockDim.x else 0
    cuda.syncthreads()
    buf[t] = y + 1
    cuda.syncthreads()
    out[i] = x + y + buf[t] + (1000 if odd else 0) + int(f * 100)
",
        &[
            arr1(DType::I32, 1),
            arr1(DType::I32, 1),
            nbcuda::kernel::types::Ty::Scalar(DType::I64),
        ],
    );
    for n in [300i64, 100, 0] {
        let go = |jit: bool| {
            let arrs = arrays(&[(&[300], DType::I32), (&[300], DType::I32)], 5);
            let mut args: Vec<_> = arrs.iter().map(arg).collect();
            args.push(nbcuda::kernel::abi::KernelArg::Scalar(
                nbcuda::arrays::dtype::Scalar::I64(n),
            ));
            nbcuda::kernel::execute_on_cpu_with(&k, &cfg(3, 100), &args, jit).unwrap();
            bytes(&arrs[1])
        };
        assert_eq!(go(false), go(true), "n = {n}");
    }
}

#[test]
fn values_kept_between_regions_only_where_a_region_reads_them_first() {
    // `v` is assigned by some threads only, so a region reads the value an earlier one
    // left; `w` is a temporary in the loop's regions but read first by the last region;
    // `s` and `j` are assigned before every read in each region (a loop counter and a
    // sum whose inner loop `continue`s past an assignment the latch reads).
    let k = native(
        "def carry(a, out):
    buf = cuda.shared.array(64, dtype=np.float64)
    t = cuda.threadIdx.x
    v = 0.0
    w = 1.0
    for r in range(4):
        if t % 3 == r % 3:
            v = a[t] + r
        buf[t] = v
        cuda.syncthreads()
        w = buf[(t + 1) % 64] * 0.5
        s = 0.0
        j = 0
        while j < 5:
            j += 1
            if (j + t) % 2 == 0:
                continue
            s = s + buf[(t + j) % 64]
        v = v + w + s
        cuda.syncthreads()
    out[t] = v + w
",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    same(&k, cfg(1, 64), &[(&[64], DType::F64), (&[64], DType::F64)]).unwrap();
}

#[test]
fn divergent_barriers_and_racing_shared_updates_stay_interpreted() {
    let k = interpreted(
        "def div(a):\n    t = cuda.threadIdx.x\n    if t < 10:\n        cuda.syncthreads()\n    a[t] = t\n",
        &[arr1(DType::I32, 1)],
    );
    let err = same(&k, cfg(1, 32), &[(&[32], DType::I32)]).unwrap_err();
    assert_eq!(err.0, "RuntimeError");
    assert!(err.1.contains("divergent barrier"), "{}", err.1);
    // A loop whose trip count differs between threads.
    interpreted(
        "def div(a):\n    buf = cuda.shared.array(32, dtype=np.int32)\n    t = cuda.threadIdx.x\n    for j in range(t):\n        buf[t] = j\n        cuda.syncthreads()\n    a[t] = buf[t]\n",
        &[arr1(DType::I32, 1)],
    );
    // Every thread adds into one shared element without atomics: the interpreter's lanes
    // lose updates as a GPU does, thread after thread would not.
    let k = interpreted(
        "def racy(a, out):\n    sm = cuda.shared.array(1, dtype=np.float32)\n    i = cuda.grid(1)\n    sm[0] += a[i]\n    cuda.syncthreads()\n    out[i] = sm[0]\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    same(&k, cfg(1, 32), &[(&[32], DType::F32), (&[32], DType::F32)]).unwrap();
    // A neighbour's element read while it is written.
    interpreted(
        "def shift(a):\n    sm = cuda.shared.array(64, dtype=np.int32)\n    t = cuda.threadIdx.x\n    sm[t] = t\n    sm[t] = sm[(t + 1) % 64]\n    cuda.syncthreads()\n    a[t] = sm[t]\n",
        &[arr1(DType::I32, 1)],
    );
    // Shared atomics from every thread are native.
    let k = native(
        "def total(a, out):\n    sm = cuda.shared.array(1, dtype=np.int64)\n    t = cuda.threadIdx.x\n    if t == 0:\n        sm[0] = 0\n    cuda.syncthreads()\n    cuda.atomic.add(sm, 0, a[cuda.grid(1)])\n    cuda.syncthreads()\n    if t == 0:\n        out[cuda.blockIdx.x] = sm[0]\n",
        &[arr1(DType::I64, 1), arr1(DType::I64, 1)],
    );
    same(&k, cfg(4, 32), &[(&[128], DType::I64), (&[4], DType::I64)]).unwrap();
}

#[test]
fn shared_index_errors_read_the_same() {
    let k = native(
        "def oob(a):\n    sm = cuda.shared.array(16, dtype=np.int32)\n    t = cuda.threadIdx.x\n    sm[t] = t\n    cuda.syncthreads()\n    a[t] = sm[t]\n",
        &[arr1(DType::I32, 1)],
    );
    let err = same(&k, cfg(2, 32), &[(&[32], DType::I32)]).unwrap_err();
    assert_eq!(err.0, "IndexError");
    // Dynamic shared memory takes its extent from the launch.
    let k = native(
        "def dyn(a):\n    buf = cuda.shared.array(0, dtype=np.int32)\n    t = cuda.threadIdx.x\n    buf[t] = t * 2\n    cuda.syncthreads()\n    a[t] = buf[buf.shape[0] - 1 - t] + len(buf)\n",
        &[arr1(DType::I32, 1)],
    );
    for bytes in [64, 128] {
        let c = LaunchConfig {
            grid: [2, 1, 1],
            block: [32, 1, 1],
            dynamic_shared_bytes: bytes,
        };
        same(&k, c, &[(&[32], DType::I32)]).ok();
    }
}

#[test]
fn an_interrupt_ends_a_native_kernel_spinning_between_barriers() {
    let k = native(
        "def spin(a):\n    buf = cuda.shared.array(32, dtype=np.int64)\n    t = cuda.threadIdx.x\n    k = 0\n    while True:\n        buf[t] = k\n        cuda.syncthreads()\n        k += 1\n    a[0] = k\n",
        &[arr1(DType::I64, 1)],
    );
    let a = array_of(&[1], DType::I64, &[0.0]);
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        f2.store(true, Ordering::SeqCst);
    });
    let err = nbcuda::kernel::execute_on_cpu_cancellable(
        &k,
        &cfg(4, 32),
        &[arg(&a)],
        Cancel::Interrupt(flag),
    )
    .unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}

/// `src/kernel/jit/regions.rs`: a region computing only values every thread holds alike (a
/// barrier loop's `i += 1`) runs once per block, and those values keep no slot; a counter
/// that a region looped over the threads both reads and bumps stays one per thread; and
/// where a thread may return, every region stays per thread.
#[test]
fn regions_of_values_every_thread_holds_alike_run_once() {
    let mats = [
        arr1(DType::F32, 2),
        arr1(DType::F32, 2),
        arr1(DType::F32, 2),
    ];
    let k = native(MATMUL, &mats);
    let code = nbcuda::kernel::jit::code_for(&k.ir).unwrap();
    assert_eq!(code.regions_run_once(), 1);
    same(
        &k,
        cfg2([3, 2], [16, 16]),
        &[
            (&[40, 37], DType::F32),
            (&[37, 45], DType::F32),
            (&[40, 45], DType::F32),
        ],
    )
    .unwrap();

    // `i += 1` shares its region with per-thread work that reads `i` first.
    let k = native(
        "def bump(a, out):
    sm = cuda.shared.array(64, dtype=np.int32)
    tid = cuda.threadIdx.x
    i = 0
    acc = 0
    while i < 5:
        sm[tid] = a[tid] * i
        cuda.syncthreads()
        acc += sm[(tid + i) % cuda.blockDim.x] + i
        i += 1
        cuda.syncthreads()
    out[cuda.grid(1)] = acc * 100 + i
",
        &[arr1(DType::I32, 1), arr1(DType::I32, 1)],
    );
    let code = nbcuda::kernel::jit::code_for(&k.ir).unwrap();
    assert_eq!(code.regions_run_once(), 0);
    let out = same(&k, cfg(2, 64), &[(&[64], DType::I32), (&[128], DType::I32)]).unwrap();
    let last = i32::from_le_bytes(out[1][4 * 127..].try_into().unwrap());
    assert_eq!(last.rem_euclid(100), 5, "every thread counted to 5: {last}");

    // The region after the second barrier sets only values held alike, but one of them,
    // `i`, is also bumped per thread: that region runs per thread, and `j`, which it
    // reads and sets, stays one per thread too.
    let k = native(
        "def two(a, out):
    sm = cuda.shared.array(64, dtype=np.int32)
    tid = cuda.threadIdx.x
    i = 0
    j = 1
    acc = 0
    while i < 6:
        sm[tid] = a[tid] + j
        cuda.syncthreads()
        acc += sm[(tid + i) % cuda.blockDim.x]
        i += 1
        cuda.syncthreads()
        j += i
        i += 1
    out[cuda.grid(1)] = acc * 1000 + j
",
        &[arr1(DType::I32, 1), arr1(DType::I32, 1)],
    );
    let code = nbcuda::kernel::jit::code_for(&k.ir).unwrap();
    assert_eq!(code.regions_run_once(), 0);
    let out = same(&k, cfg(2, 64), &[(&[64], DType::I32), (&[128], DType::I32)]).unwrap();
    let last = i32::from_le_bytes(out[1][4 * 127..].try_into().unwrap());
    // j: 1, then + 1, + 3, + 5 as i steps by two to 6.
    assert_eq!(last.rem_euclid(1000), 10, "j of the last thread: {last}");

    // Threads past the array return before the loop.
    let k = native(
        "def early(a, out):
    sm = cuda.shared.array(64, dtype=np.float32)
    tid = cuda.threadIdx.x
    if tid >= a.shape[0]:
        return
    acc = np.float32(0)
    for t in range(4):
        sm[tid] = a[tid] + t
        cuda.syncthreads()
        acc += sm[a.shape[0] - 1 - tid]
        cuda.syncthreads()
    out[tid] = acc
",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    let code = nbcuda::kernel::jit::code_for(&k.ir).unwrap();
    assert_eq!(code.regions_run_once(), 0);
    same(&k, cfg(1, 64), &[(&[40], DType::F32), (&[64], DType::F32)]).unwrap();
}
