//! The JIT tier's one-check-per-block accesses (`src/kernel/jit/affine.rs`) against the
//! interpreter: blocks wholly in range (run without per-thread checks), ragged last
//! blocks behind a guard, accesses out of range without a guard (the same IndexError),
//! negative offsets that wrap or raise, scalar offsets, views and strided arrays. Every
//! output buffer must match the interpreter's byte for byte, every fault word for word.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{ArgMem, ArrayArg, KernelArg, LaunchConfig};
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;

/// A view of a fresh buffer of `len` elements: element 0 at element `start`, with the
/// shape and element strides given.
struct View {
    len: usize,
    start: usize,
    shape: Vec<usize>,
    strides: Vec<isize>,
}

fn view(len: usize, start: usize, shape: &[usize], strides: &[isize]) -> View {
    View {
        len,
        start,
        shape: shape.to_vec(),
        strides: strides.to_vec(),
    }
}

fn c(shape: &[usize]) -> View {
    let n: usize = shape.iter().product();
    view(n, 0, shape, &NdArray::c_strides(shape, 1))
}

type Outcome = Result<Vec<Vec<u8>>, (String, String)>;

/// Run `k` on fresh buffers filled with distinct values (the same on both executors),
/// the views as its array arguments followed by `scalars`; every whole buffer's bytes,
/// so a write outside a view shows too, or the fault.
fn run(
    k: &CompiledKernel,
    c: LaunchConfig,
    vs: &[View],
    scalars: &[Scalar],
    dt: DType,
    jit: bool,
) -> Outcome {
    let isz = dt.itemsize();
    let mut bufs = Vec::new();
    let mut args = Vec::new();
    for (j, v) in vs.iter().enumerate() {
        let vals: Vec<f64> = (0..v.len)
            .map(|i| (i * 7 + j * 13) as f64 % 97.0 - 20.0)
            .collect();
        let a = array_of(&[v.len], dt, &vals);
        args.push(KernelArg::Array(ArrayArg {
            mem: ArgMem::Host(a.buf.clone()),
            offset: v.start * isz,
            shape: v.shape.clone(),
            strides: v.strides.iter().map(|s| s * isz as isize).collect(),
            dtype: dt,
        }));
        bufs.push(a);
    }
    args.extend(scalars.iter().map(|s| KernelArg::Scalar(*s)));
    match nbcuda::kernel::execute_on_cpu_with(k, &c, &args, jit) {
        Ok(_) => Ok(bufs
            .iter()
            .map(|a| {
                let mut out = vec![0u8; a.shape[0] * isz];
                a.buf.read(0, &mut out);
                out
            })
            .collect()),
        Err(f) => Err((f.ename().to_string(), f.message)),
    }
}

/// Both executors give the same bytes or the same fault; returns the interpreter's.
#[track_caller]
fn same(
    k: &CompiledKernel,
    c: LaunchConfig,
    vs: &[View],
    scalars: &[Scalar],
    dt: DType,
) -> Outcome {
    let a = run(k, c, vs, scalars, dt, false);
    let b = run(k, c, vs, scalars, dt, true);
    assert_eq!(a, b, "{c:?}");
    a
}

#[track_caller]
fn fails(k: &CompiledKernel, c: LaunchConfig, vs: &[View], scalars: &[Scalar], dt: DType) {
    let r = same(k, c, vs, scalars, dt);
    assert!(matches!(&r, Err((e, _)) if e == "IndexError"), "{r:?}");
}

fn cfg2(grid: (u32, u32), block: (u32, u32)) -> LaunchConfig {
    LaunchConfig {
        grid: [grid.0, grid.1, 1],
        block: [block.0, block.1, 1],
        dynamic_shared_bytes: 0,
    }
}

fn arrs(dt: DType, ndim: usize, n: usize) -> Vec<Ty> {
    vec![arr1(dt, ndim); n]
}

#[test]
fn one_d_blocks_in_range_ragged_and_out_of_range() {
    let k = native(
        "def add(a, b, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = a[i] + b[i]\n",
        &arrs(DType::F32, 1, 3),
    );
    for n in [128, 150, 191, 192, 1] {
        same(
            &k,
            cfg(3, 64),
            &[c(&[n]), c(&[n]), c(&[n])],
            &[],
            DType::F32,
        )
        .unwrap();
    }
    // Inputs shorter than the output: the guard lets a thread past them.
    fails(
        &k,
        cfg(3, 64),
        &[c(&[100]), c(&[192]), c(&[192])],
        &[],
        DType::F32,
    );
    let k = native(
        "def dbl(a, out):\n    i = cuda.grid(1)\n    out[i] = a[i] * 2\n",
        &arrs(DType::F64, 1, 2),
    );
    same(&k, cfg(2, 64), &[c(&[128]), c(&[128])], &[], DType::F64).unwrap();
    same(&k, cfg(2, 64), &[c(&[300]), c(&[200])], &[], DType::F64).unwrap();
    fails(&k, cfg(2, 64), &[c(&[100]), c(&[100])], &[], DType::F64);
    fails(&k, cfg(2, 64), &[c(&[128]), c(&[127])], &[], DType::F64);
    // A thread index alone, and a global id built by hand.
    let k = native(
        "def tid(a, out):\n    t = cuda.threadIdx.x\n    i = cuda.blockIdx.x * cuda.blockDim.x + t\n    out[i] = a[t] + 1\n",
        &arrs(DType::I32, 1, 2),
    );
    same(&k, cfg(3, 32), &[c(&[32]), c(&[96])], &[], DType::I32).unwrap();
    fails(&k, cfg(3, 32), &[c(&[31]), c(&[96])], &[], DType::I32);
    fails(&k, cfg(3, 32), &[c(&[32]), c(&[95])], &[], DType::I32);
}

#[test]
fn negative_offsets_wrap_or_raise_as_the_interpreter_does() {
    let k = native(
        "def nb(a, out):\n    i = cuda.grid(1)\n    if i < out.size - 1:\n        out[i] = a[i - 1] + a[i + 1]\n",
        &arrs(DType::F32, 1, 2),
    );
    // Thread 0 reads a[-1]: the first block wraps, the others are in range.
    for n in [128, 150, 256] {
        same(&k, cfg(4, 32), &[c(&[n]), c(&[n])], &[], DType::F32).unwrap();
    }
    let k = native(
        "def far(a, out):\n    i = cuda.grid(1)\n    out[i] = a[i - 40]\n",
        &arrs(DType::F32, 1, 2),
    );
    // Indices down to -40 wrap into a 64-element array; below -64 they raise.
    same(&k, cfg(2, 32), &[c(&[64]), c(&[64])], &[], DType::F32).unwrap();
    fails(&k, cfg(2, 32), &[c(&[30]), c(&[64])], &[], DType::F32);
}

#[test]
fn scalar_offsets_and_loops_keep_the_interpreters_bytes() {
    let k = native(
        "def sh(a, out, off):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = a[i + off]\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1), Ty::Scalar(DType::I64)],
    );
    let v = [c(&[100]), c(&[64])];
    for off in [0i64, 7, 36, -5, -100] {
        same(&k, cfg(2, 32), &v, &[Scalar::I64(off)], DType::F32).unwrap();
    }
    fails(&k, cfg(2, 32), &v, &[Scalar::I64(37)], DType::F32);
    fails(&k, cfg(2, 32), &v, &[Scalar::I64(-101)], DType::F32);
    // The loop counter is not affine; the thread's own element is, inside the loop too.
    let k = native(
        "def win(a, b, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        s = 0.0\n        for j in range(3):\n            s += a[i + j] * b[i]\n            k = i + 1\n            out[k - 1] = s\n",
        &arrs(DType::F64, 1, 3),
    );
    same(
        &k,
        cfg(2, 32),
        &[c(&[66]), c(&[64]), c(&[64])],
        &[],
        DType::F64,
    )
    .unwrap();
    fails(
        &k,
        cfg(2, 32),
        &[c(&[66]), c(&[63]), c(&[64])],
        &[],
        DType::F64,
    );
}

const AB: &str = "def ab(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n";

#[test]
fn two_d_grids_in_range_ragged_and_out_of_range() {
    let k = native(AB, &arrs(DType::F32, 2, 3));
    for shape in [[24, 16], [20, 12], [23, 16], [24, 15], [1, 1]] {
        let v = [c(&shape), c(&shape), c(&shape)];
        same(&k, cfg2((3, 2), (8, 8)), &v, &[], DType::F32).unwrap();
    }
    fails(
        &k,
        cfg2((3, 2), (8, 8)),
        &[c(&[24, 16]), c(&[24, 15]), c(&[24, 16])],
        &[],
        DType::F32,
    );
    let k = native(
        "def sh(a, out):\n    x, y = cuda.grid(2)\n    out[x, y] = a[x + 1, y - 1]\n",
        &arrs(DType::F64, 2, 2),
    );
    // y - 1 wraps to the last column in the first blocks along y.
    same(
        &k,
        cfg2((2, 2), (4, 8)),
        &[c(&[9, 16]), c(&[8, 16])],
        &[],
        DType::F64,
    )
    .unwrap();
    fails(
        &k,
        cfg2((2, 2), (4, 8)),
        &[c(&[8, 16]), c(&[8, 16])],
        &[],
        DType::F64,
    );
    fails(
        &k,
        cfg2((2, 2), (4, 8)),
        &[c(&[9, 16]), c(&[8, 15])],
        &[],
        DType::F64,
    );
}

#[test]
fn views_and_strided_arrays_give_the_interpreters_bytes() {
    let k = native(AB, &arrs(DType::F32, 2, 3));
    let g = cfg2((3, 2), (8, 8));
    for shape in [[24usize, 16usize], [20, 12]] {
        let n = shape[0] * shape[1];
        let (r, cl) = (shape[0] as isize, shape[1] as isize);
        // Transposed (column-major), reversed rows, and every other element of a buffer.
        let v = [
            view(n, 0, &shape, &[1, r]),
            view(n, (shape[0] - 1) * shape[1], &shape, &[-cl, 1]),
            view(2 * n + 3, 3, &shape, &[2 * cl, 2]),
        ];
        same(&k, g, &v, &[], DType::F32).unwrap();
    }
    // A slice of a kernel-side view: its own check raises, the base array's never does.
    let k = native(
        "def sl(a, out):\n    i = cuda.grid(1)\n    v = a[3:40]\n    out[i] = v[i]\n",
        &arrs(DType::I64, 1, 2),
    );
    same(&k, cfg(1, 32), &[c(&[64]), c(&[32])], &[], DType::I64).unwrap();
    fails(&k, cfg(2, 32), &[c(&[64]), c(&[64])], &[], DType::I64);
}

const GS: &str = "def gs(x, y, out):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, x.size, stride):\n        out[i] = x[i] + y[i]\n";

#[test]
fn grid_stride_rounds_in_range_ragged_and_out_of_range() {
    let k = native(GS, &arrs(DType::F32, 1, 3));
    // 64 lanes: whole rounds, a ragged last round, fewer elements than lanes.
    for n in [256, 200, 1000, 63, 1] {
        same(
            &k,
            cfg(2, 32),
            &[c(&[n]), c(&[n]), c(&[n])],
            &[],
            DType::F32,
        )
        .unwrap();
    }
    fails(
        &k,
        cfg(2, 32),
        &[c(&[200]), c(&[150]), c(&[200])],
        &[],
        DType::F32,
    );
    fails(
        &k,
        cfg(2, 32),
        &[c(&[200]), c(&[200]), c(&[199])],
        &[],
        DType::F32,
    );
    // Strided views, and neighbours: x[-1] wraps in the first round only.
    let v = [
        view(400, 1, &[200], &[2]),
        c(&[200]),
        view(200, 199, &[200], &[-1]),
    ];
    same(&k, cfg(3, 16), &v, &[], DType::F32).unwrap();
    let k = native(
        "def nb(x, out):\n    start = cuda.grid(1)\n    for i in range(start + 1, out.size, cuda.gridsize(1)):\n        out[i] = x[i - 2] + x[i + 1]\n",
        &arrs(DType::F64, 1, 2),
    );
    for n in [256, 130] {
        same(&k, cfg(2, 32), &[c(&[n + 1]), c(&[n])], &[], DType::F64).unwrap();
    }
    fails(&k, cfg(2, 32), &[c(&[130]), c(&[130])], &[], DType::F64);
}

/// Whether the kernel's code may run its threads in any order, and along which axis.
fn any_axis(k: &CompiledKernel) -> Option<u8> {
    nbcuda::kernel::jit::code_for(&k.ir)
        .expect("compiled")
        .any_order_axis()
}

fn cfg3(grid: [u32; 3], block: [u32; 3]) -> LaunchConfig {
    LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    }
}

#[test]
fn threads_no_thread_can_see_run_row_by_row_with_the_interpreters_bytes() {
    // src/kernel/jit/order.rs: `y` picks the column, so rows of a strip run contiguously.
    let k = native(AB, &arrs(DType::F32, 2, 3));
    assert_eq!(any_axis(&k), Some(1));
    // Ragged along both axes; whole blocks; and (past 8192 threads) spread over workers,
    // with the ragged blocks left for the usual order afterwards.
    for (shape, grid) in [
        ([37, 53], (3, 4)),
        ([32, 64], (2, 4)),
        ([300, 500], (19, 32)),
    ] {
        let v = [c(&shape), c(&shape), c(&shape)];
        same(&k, cfg2(grid, (16, 16)), &v, &[], DType::F32).unwrap();
    }
    // Without a guard: blocks past the edges fault, and the first found is the usual
    // order's (block (1, 0, 0), although strip 0's block (0, 2, 0) is run first).
    let k = native(
        "def inc(a, out):\n    x, y = cuda.grid(2)\n    out[x, y] = a[x, y] + 1\n",
        &arrs(DType::F64, 2, 2),
    );
    assert_eq!(any_axis(&k), Some(1));
    same(
        &k,
        cfg2((2, 3), (16, 16)),
        &[c(&[32, 48]), c(&[32, 48])],
        &[],
        DType::F64,
    )
    .unwrap();
    let r = same(
        &k,
        cfg2((2, 3), (16, 16)),
        &[c(&[20, 40]), c(&[20, 40])],
        &[],
        DType::F64,
    );
    let Err((ename, msg)) = r else {
        panic!("no fault: {r:?}")
    };
    assert_eq!(ename, "IndexError");
    assert!(msg.contains("block (1, 0, 0), thread (4, 0, 0)"), "{msg}");
    // Three axes, the last index following z.
    let k = native(
        "def t3(a, out):\n    x, y, z = cuda.grid(3)\n    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:\n        out[x, y, z] = a[x, y, z] - 3\n",
        &arrs(DType::I32, 3, 2),
    );
    assert_eq!(any_axis(&k), Some(2));
    let v = [c(&[5, 6, 19]), c(&[5, 6, 19])];
    same(&k, cfg3([2, 2, 3], [4, 4, 8]), &v, &[], DType::I32).unwrap();
}

#[test]
fn rows_run_as_one_counter_read_the_interpreters_thread_and_block_ids() {
    // src/kernel/jit/order.rs runs a row as one counter of the global id along y: the
    // thread and block ids along y the body reads follow from it, those along x are the
    // row's. Contiguous arrays and strided views (whose strides are loaded per row).
    let k = native(
        "def ids(a, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] + cuda.threadIdx.y * 1000 + cuda.blockIdx.y * 100000 + cuda.blockIdx.x * 10 + cuda.threadIdx.x + cuda.grid(2)[1] * 7\n",
        &arrs(DType::I64, 2, 2),
    );
    assert_eq!(any_axis(&k), Some(1));
    for (shape, grid) in [([37, 53], (3, 4)), ([300, 500], (19, 32))] {
        let v = [c(&shape), c(&shape)];
        same(&k, cfg2(grid, (16, 16)), &v, &[], DType::I64).unwrap();
    }
    let strided =
        |rows: usize, cols: usize| view(rows * cols * 2, 1, &[rows, cols], &[cols as isize * 2, 2]);
    let v = [strided(37, 53), strided(37, 53)];
    same(&k, cfg2((3, 4), (16, 16)), &v, &[], DType::I64).unwrap();
}

#[test]
fn threads_that_can_see_each_other_keep_the_usual_order() {
    // Threads along z write one element (z is not in the index): the launch keeps the
    // usual order, and the last writer is the interpreter's.
    let k = native(
        "def zz(a, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] + cuda.threadIdx.z\n",
        &arrs(DType::I64, 2, 2),
    );
    assert_eq!(any_axis(&k), Some(1));
    let v = [c(&[8, 8]), c(&[8, 8])];
    same(&k, cfg3([2, 2, 1], [4, 4, 3]), &v, &[], DType::I64).unwrap();
    // Indices that are not a global id plus a launch-wide value keep the usual order.
    let k = native(
        "def bl(a, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y] = a[x, y]\n",
        &arrs(DType::F32, 2, 2),
    );
    assert_eq!(any_axis(&k), None);
}

/// Whether the kernel's code may run its grid-stride loop flat (`src/kernel/jit/flat.rs`).
fn flat(k: &CompiledKernel) -> bool {
    nbcuda::kernel::jit::code_for(&k.ir).is_some_and(|c| c.flat_grid_stride())
}

#[test]
fn flat_grid_stride_loops_give_the_interpreters_bytes() {
    let k = native(GS, &arrs(DType::F32, 1, 3));
    assert!(flat(&k));
    // 64 lanes: whole rounds, ragged rounds, fewer elements than lanes; then launches
    // spread over the workers (past 8192 threads), whole and ragged.
    for (n, cf) in [
        (256, cfg(2, 32)),
        (200, cfg(2, 32)),
        (63, cfg(2, 32)),
        (1, cfg(2, 32)),
        (0, cfg(2, 32)),
        (40 * 256 * 3, cfg(40, 256)),
        (100_003, cfg(40, 256)),
        (5000, cfg(40, 256)),
    ] {
        let v = [c(&[n]), c(&[n]), c(&[n])];
        same(&k, cf, &v, &[], DType::F32).unwrap();
    }
    // A 2-D launch keeps lockstep rounds (the global id along x is no longer the lane).
    let v = [c(&[500]), c(&[500]), c(&[500])];
    same(&k, cfg2((3, 2), (16, 4)), &v, &[], DType::F32).unwrap();
    // A start offset; a step that is not the grid's extent (compiled flat, but the
    // launch's step fails the check at run time).
    for (src, is_flat) in [
        ("def o(x, out):\n    start = cuda.grid(1)\n    for i in range(start + 1, x.size, cuda.gridsize(1)):\n        out[i] = x[i] * 2 - 1\n", true),
        ("def o(x, out):\n    s = cuda.gridsize(1)\n    for i in range(cuda.grid(1), x.size, 2 * s):\n        out[i] = x[i] * 2 - 1\n", true),
        ("def o(x, out):\n    for i in range(cuda.grid(1), x.size, 48):\n        out[i] = x[i] * 2 - 1\n", false),
        ("def o(x, out):\n    for i in range(cuda.threadIdx.x, x.size, cuda.gridsize(1)):\n        out[i] = x[i] * 2 - 1\n", false),
    ] {
        let k = kernel(src, &arrs(DType::I64, 1, 2));
        assert_eq!(flat(&k), is_flat, "{src}");
        for (n, cf) in [(200, cfg(2, 32)), (70_001, cfg(40, 256))] {
            same(&k, cf, &[c(&[n]), c(&[n])], &[], DType::I64).unwrap();
        }
    }
}

#[test]
fn flat_grid_stride_faults_are_the_lockstep_ones() {
    // out one element short: the last counter writes past it, in the last chunk with
    // work in the round; the chunk's proof fails and its rounds report the fault.
    let k = native(
        "def sh(x, out):\n    start = cuda.grid(1)\n    for i in range(start, x.size, cuda.gridsize(1)):\n        out[i + 1] = x[i]\n",
        &arrs(DType::F64, 1, 2),
    );
    assert!(flat(&k));
    for (n, cf) in [(200, cfg(2, 32)), (30_000, cfg(40, 256)), (7, cfg(40, 256))] {
        fails(&k, cf, &[c(&[n]), c(&[n])], &[], DType::F64);
        same(&k, cf, &[c(&[n]), c(&[n + 1])], &[], DType::F64).unwrap();
    }
    let r = same(&k, cfg(2, 32), &[c(&[200]), c(&[200])], &[], DType::F64);
    let Err((_, msg)) = r else {
        panic!("no fault: {r:?}")
    };
    assert!(msg.contains("block (0, 0, 0), thread (7, 0, 0)"), "{msg}");
}

#[test]
fn flat_grid_stride_histograms_give_the_interpreters_bins_and_faults() {
    // Bins only updated by order-free atomics (src/kernel/jit/private.rs) run flat; their
    // index is loaded, so each is checked, and a fault names the counter's thread.
    let k = native(
        "def hist(data, bins):\n    start = cuda.grid(1)\n    for i in range(start, data.size, cuda.gridsize(1)):\n        cuda.atomic.add(bins, data[i], 1)\n",
        &arrs(DType::I32, 1, 2),
    );
    assert!(flat(&k));
    // Data in -20..77: 100 bins hold every index (negative ones wrap), 60 do not. A
    // 64-thread launch keeps native atomics on the bins, a 10240-thread one copies them.
    for (n, cf) in [(200, cfg(2, 32)), (70_001, cfg(40, 256))] {
        same(&k, cf, &[c(&[n]), c(&[100])], &[], DType::I32).unwrap();
        fails(&k, cf, &[c(&[n]), c(&[60])], &[], DType::I32);
    }
}

#[test]
fn grid_stride_loops_whose_threads_see_each_other_are_not_flat() {
    // out[i - 1] is another thread's element: not flat (the tier leaves it to the
    // interpreter, whose lanes show the race). One block: across blocks the race's outcome
    // depends on which worker runs first (the interpreter alone gives different bytes from
    // run to run), so only a block's lanes, which run in one order, can be compared.
    let k = kernel(
        "def ch(out):\n    start = cuda.grid(1)\n    for i in range(start + 1, out.size, cuda.gridsize(1)):\n        out[i] = out[i - 1] + 1\n",
        &arrs(DType::I64, 1, 1),
    );
    assert!(!flat(&k));
    for (n, cf) in [(200, cfg(1, 32)), (20_000, cfg(1, 256))] {
        same(&k, cf, &[c(&[n])], &[], DType::I64).unwrap();
    }
    // A body that reads the thread's index, and one that leaves the loop early.
    for src in [
        "def tb(x, out):\n    start = cuda.grid(1)\n    for i in range(start, x.size, cuda.gridsize(1)):\n        out[i] = x[i] + cuda.threadIdx.x\n",
        "def br(x, out):\n    start = cuda.grid(1)\n    for i in range(start, x.size, cuda.gridsize(1)):\n        if x[i] > 40:\n            break\n        out[i] = x[i]\n",
    ] {
        let k = kernel(src, &arrs(DType::I64, 1, 2));
        assert!(!flat(&k), "{src}");
        for (n, cf) in [(200, cfg(2, 32)), (20_000, cfg(40, 256))] {
            same(&k, cf, &[c(&[n]), c(&[n])], &[], DType::I64).unwrap();
        }
    }
}

#[test]
fn counted_loops_checked_once_give_the_interpreters_bytes_and_first_fault() {
    // src/kernel/jit/counted.rs: a window `t[j + off]` of a local array for j in range(w),
    // proven for the whole loop before it starts. In range; past the end (every thread at
    // its 17th step: the interpreter's first fault, thread and text); negative starts that
    // wrap (the proof fails, the checked copy wraps them once); no steps at all.
    let k = native(
        "def win(a, out, w, off):\n    i = cuda.grid(1)\n    t = cuda.local.array(16, dtype=np.float64)\n    for k in range(16):\n        t[k] = a[(i + k) % a.size]\n    if i < out.size:\n        s = 0.0\n        for j in range(w):\n            s += t[j + off]\n        out[i] = s\n",
        &[
            arr1(DType::F64, 1),
            arr1(DType::F64, 1),
            Ty::Scalar(DType::I64),
            Ty::Scalar(DType::I64),
        ],
    );
    let v = [c(&[100]), c(&[90])];
    let sc = |w: i64, off: i64| [Scalar::I64(w), Scalar::I64(off)];
    for (w, off) in [(16, 0), (0, 500), (3, 13), (3, -2), (11, -1)] {
        same(&k, cfg(3, 32), &v, &sc(w, off), DType::F64).unwrap();
    }
    for (w, off) in [(17, 0), (2, 15), (1, -17)] {
        fails(&k, cfg(3, 32), &v, &sc(w, off), DType::F64);
    }
    // A while loop stepping its counter at the end of its body (as `@cuda.reduce`'s
    // partial pass does), with parts added one after another.
    let k = native(
        "def rows(a, out, n, q):\n    i = cuda.grid(1)\n    t = cuda.local.array(32, dtype=np.float32)\n    for k in range(32):\n        t[k] = a[(i + k) % a.size]\n    if i < out.size:\n        j = 0\n        s = 0.0\n        while j < n:\n            here = j + q\n            s += t[j] * 2 + t[here] + t[here + q]\n            j += 1\n        out[i] = s\n",
        &[
            arr1(DType::F32, 1),
            arr1(DType::F32, 1),
            Ty::Scalar(DType::I64),
            Ty::Scalar(DType::I64),
        ],
    );
    let v = [c(&[200]), c(&[40])];
    let sc = |n: i64, q: i64| [Scalar::I64(n), Scalar::I64(q)];
    for (n, q) in [(4, 10), (8, 12), (4, -5), (0, 99)] {
        same(&k, cfg(2, 32), &v, &sc(n, q), DType::F32).unwrap();
    }
    fails(&k, cfg(2, 32), &v, &sc(9, 12), DType::F32);
    fails(&k, cfg(2, 32), &v, &sc(4, 15), DType::F32);
    // A shared tile read along k in range(m) between barriers: in range, and one step
    // past the tile (the interpreter's IndexError, block and thread).
    let k = native(
        "def tile(a, out, m):\n    t = cuda.shared.array(shape=(8, 8), dtype=np.float32)\n    tx = cuda.threadIdx.x\n    ty = cuda.threadIdx.y\n    x, y = cuda.grid(2)\n    t[tx, ty] = a[x, y]\n    cuda.syncthreads()\n    s = np.float32(0.)\n    for k in range(m):\n        s += t[tx, k] * t[k, ty]\n    cuda.syncthreads()\n    out[x, y] = s\n",
        &[
            arr1(DType::F32, 2),
            arr1(DType::F32, 2),
            Ty::Scalar(DType::I64),
        ],
    );
    let v = [c(&[16, 16]), c(&[16, 16])];
    for m in [8, 5, 0] {
        same(&k, cfg2((2, 2), (8, 8)), &v, &[Scalar::I64(m)], DType::F32).unwrap();
    }
    fails(&k, cfg2((2, 2), (8, 8)), &v, &[Scalar::I64(9)], DType::F32);
}

#[test]
fn threads_that_fault_at_different_steps_name_the_interpreters_thread() {
    // Thread 10 faults at its fifth step (out[150]), thread 11 at its first (out[151]):
    // the interpreter, each step across every thread, meets thread 11's fault first;
    // native code, thread by thread, meets thread 10's and asks the interpreter to run
    // the span again (src/kernel/jit/mod.rs, `interpreters_fault`).
    let k = native(
        "def lf(a, out, w, off):\n    i = cuda.grid(1)\n    for j in range(w):\n        out[i * w + j + off] = a[i] * j\n",
        &[
            arr1(DType::F64, 1),
            arr1(DType::F64, 1),
            Ty::Scalar(DType::I64),
            Ty::Scalar(DType::I64),
        ],
    );
    let v = [c(&[64]), c(&[150])];
    let sc = |w: i64, off: i64| [Scalar::I64(w), Scalar::I64(off)];
    let r = same(&k, cfg(2, 32), &v, &sc(5, 96), DType::F64);
    let Err((ename, msg)) = r else {
        panic!("no fault: {r:?}")
    };
    assert_eq!(ename, "IndexError");
    assert!(msg.contains("block (0, 0, 0), thread (11, 0, 0)"), "{msg}");
    for (w, off) in [(5, 0), (3, 40), (7, -3), (2, 30)] {
        fails(&k, cfg(2, 32), &v, &sc(w, off), DType::F64);
    }
    same(&k, cfg(2, 32), &v, &sc(2, 0), DType::F64).unwrap();
    // The same in the second block, and in a 2-D launch whose rows may run in any order.
    fails(&k, cfg(4, 16), &v, &sc(5, 96), DType::F64);
    let k = native(
        "def lf2(a, out, w):\n    x, y = cuda.grid(2)\n    for j in range(w):\n        out[x, y * w + j] = a[x, y] + j\n",
        &[
            arr1(DType::F32, 2),
            arr1(DType::F32, 2),
            Ty::Scalar(DType::I64),
        ],
    );
    let v = [c(&[16, 16]), c(&[16, 40])];
    fails(&k, cfg2((4, 2), (4, 8)), &v, &[Scalar::I64(3)], DType::F32);
    same(&k, cfg2((4, 2), (4, 8)), &v, &[Scalar::I64(2)], DType::F32).unwrap();
}

#[test]
fn outputs_whose_elements_share_memory_keep_the_usual_order() {
    // Views whose elements share memory (a zero stride, as broadcast_to and as_strided
    // make, or strides that interleave): the last thread to write an element in the
    // interpreter's order leaves its value, so the rows of `order.rs` must not reorder
    // them.
    let k = native(
        "def ab(a, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] + x * 100 + y\n",
        &arrs(DType::F64, 2, 2),
    );
    assert_eq!(any_axis(&k), Some(1));
    for out in [
        view(12, 0, &[20, 12], &[0, 1]),
        view(20, 0, &[20, 12], &[1, 0]),
        view(31, 0, &[20, 12], &[1, 1]),
        view(80, 2, &[20, 12], &[2, 3]),
    ] {
        same(
            &k,
            cfg2((3, 2), (8, 8)),
            &[c(&[20, 12]), out],
            &[],
            DType::F64,
        )
        .unwrap();
    }
}

/// `src/kernel/jit/clamp.rs`: a row whose body ends in a guard bounding its counter runs
/// only the counters below the bound. Ragged edges (the guard false for part of a block
/// along either axis), guards in either order, one the cut cannot use (`or`), bounds from
/// scalars (negative, zero, past the array), and a guard letting threads past the arrays.
#[test]
fn rows_cut_to_their_guard_give_the_interpreters_bytes_and_faults() {
    let guards = [
        "x < out.shape[0] and y < out.shape[1]",
        "y < out.shape[1] and x < out.shape[0]",
        "y < out.shape[1] and x < out.shape[0] and y < a.shape[1]",
        "out.shape[1] > y and x < out.shape[0]",
        "y < out.shape[1] or x < 2",
    ];
    for g in guards {
        let src = format!("def cut(a, b, out):\n    x, y = cuda.grid(2)\n    j = y + 0\n    if {g}:\n        out[x, j] = a[x, y] * 2 + b[x, y]\n");
        let k = native(&src, &arrs(DType::F32, 2, 3));
        for (shape, grid) in [
            ([37, 53], (3, 4)),
            ([300, 500], (19, 32)),
            ([16, 16], (1, 1)),
        ] {
            let v = [c(&shape), c(&shape), c(&shape)];
            if g.contains(" or ") {
                same(&k, cfg2(grid, (16, 16)), &v, &[], DType::F32).ok();
            } else {
                same(&k, cfg2(grid, (16, 16)), &v, &[], DType::F32).unwrap();
            }
        }
        // Inputs narrower than the output: threads the guard lets through fault (where
        // it does not bound them by the input too).
        if g.contains("a.shape") {
            continue;
        }
        fails(
            &k,
            cfg2((3, 4), (16, 16)),
            &[c(&[37, 40]), c(&[37, 53]), c(&[37, 53])],
            &[],
            DType::F32,
        );
    }
    let k = native(
        "def lim(a, out, m):\n    x, y = cuda.grid(2)\n    if y < m - 1 and x < out.shape[0]:\n        out[x, y] = a[x, y] + 1\n",
        &[arr1(DType::I64, 2), arr1(DType::I64, 2), Ty::Scalar(DType::I64)],
    );
    let v = [c(&[40, 70]), c(&[40, 70])];
    for m in [-5i64, 0, 1, 17, 40, 71] {
        same(
            &k,
            cfg2((3, 5), (16, 16)),
            &v,
            &[Scalar::I64(m)],
            DType::I64,
        )
        .unwrap();
    }
    fails(
        &k,
        cfg2((3, 5), (16, 16)),
        &v,
        &[Scalar::I64(72)],
        DType::I64,
    );
}

/// Blocks run in parallel, so a late block may fault before an early one does: the fault
/// reported is still the early one's, on both executors, whichever worker met its fault
/// first (block 0 loops a while before its fault; every other block faults at once).
#[test]
fn the_first_fault_in_launch_order_is_reported_whichever_block_faults_first() {
    let k = native(
        "def late(a, out):\n    i = cuda.grid(1)\n    s = 0.0\n    if cuda.blockIdx.x == 0:\n        for j in range(100000):\n            s += a[j % 4]\n    out[i + 100000] = s\n",
        &arrs(DType::F32, 1, 2),
    );
    let cfg = LaunchConfig {
        grid: [512, 1, 1],
        block: [32, 1, 1],
        dynamic_shared_bytes: 0,
    };
    for _ in 0..3 {
        for jit in [false, true] {
            let r = run(&k, cfg, &[c(&[2048]), c(&[2048])], &[], DType::F32, jit);
            let Err((e, msg)) = r else {
                panic!("no fault: {r:?}")
            };
            assert_eq!(e, "IndexError");
            assert!(msg.contains("block (0, 0, 0)"), "jit={jit}: {msg}");
        }
    }
}
