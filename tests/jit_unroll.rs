//! Counted loops with a constant trip count, unrolled in the JIT's proven copy
//! (`src/kernel/jit/unroll.rs`), against the interpreter: output bytes equal, carried
//! chains (float and integer) and the counter's value after the loop included, and a loop
//! whose accesses leave their arrays raising the interpreter's IndexError word for word.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::LaunchConfig;
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;

fn bytes(a: &NdArray) -> Vec<u8> {
    let n: usize = a.shape.iter().product::<usize>() * a.dtype.itemsize();
    let mut out = vec![0u8; n];
    a.buf.read(a.offset, &mut out);
    out
}

fn arrays(specs: &[(&[usize], DType)]) -> Vec<NdArray> {
    let mut s: u64 = 99991;
    specs
        .iter()
        .map(|(shape, dt)| {
            let n: usize = shape.iter().product();
            let vals: Vec<f64> = (0..n)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((s >> 33) % 3000) as f64 / 37.0 - 40.0
                })
                .collect();
            array_of(shape, *dt, &vals)
        })
        .collect()
}

type Outcome = Result<Vec<Vec<u8>>, (String, String)>;

fn run(k: &CompiledKernel, c: &LaunchConfig, specs: &[(&[usize], DType)], jit: bool) -> Outcome {
    let arrs = arrays(specs);
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

/// A tiled product whose inner loops run constant ranges, carrying a float32 sum, a
/// float64 sum and an integer count, and storing the counter's value after a loop.
const TILED: &str = "def tiled(a, b, c, d):
    ta = cuda.shared.array((16, 16), dtype=np.float32)
    tb = cuda.shared.array((16, 16), dtype=np.float32)
    row, col = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0.0)
    wide = 0.0
    n = 0
    for t in range((a.shape[1] + 15) // 16):
        ta[tx, ty] = a[row, t * 16 + ty] if row < a.shape[0] and t * 16 + ty < a.shape[1] else 0
        tb[tx, ty] = b[t * 16 + tx, col] if col < b.shape[1] and t * 16 + tx < b.shape[0] else 0
        cuda.syncthreads()
        for k in range(16):
            acc += ta[tx, k] * tb[k, ty]
        for j in range(3, 11):
            wide += ta[tx, j] - 0.5 * tb[j, ty]
            n += j
        for z in range(5, 2):
            n += 1000
        cuda.syncthreads()
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc
        d[row, col] = wide + n + k + j
";

fn tiled_params() -> Vec<Ty> {
    vec![arr1(DType::F32, 2); 3]
        .into_iter()
        .chain([arr1(DType::F64, 2)])
        .collect()
}

#[test]
fn unrolled_tile_loops_give_the_interpreters_bytes() {
    let k = native(TILED, &tiled_params());
    for (grid, block, a, b) in [
        ([3, 3], [16, 16], [48, 48], [48, 48]),
        // Ragged edges: partial tiles, threads past the arrays.
        ([3, 3], [16, 16], [40, 37], [37, 45]),
        // A block smaller than the tiles: fewer threads than tile rows.
        ([5, 6], [16, 8], [70, 33], [33, 41]),
    ] {
        let c = [a[0], b[1]];
        same(
            &k,
            cfg2(grid, block),
            &[
                (&a, DType::F32),
                (&b, DType::F32),
                (&c, DType::F32),
                (&c, DType::F64),
            ],
        )
        .unwrap();
    }
}

#[test]
fn unrolled_loops_that_would_leave_their_tiles_raise_the_interpreters_index_error() {
    let k = native(TILED, &tiled_params());
    // Blocks wider than the tiles: threads with tx >= 16 index past ta and tb, where the
    // proof before the loop fails and the checked copy raises.
    let m: &[usize] = &[64, 64];
    let err = same(
        &k,
        cfg2([2, 4], [32, 16]),
        &[
            (m, DType::F32),
            (m, DType::F32),
            (m, DType::F32),
            (m, DType::F64),
        ],
    )
    .unwrap_err();
    assert_eq!(err.0, "IndexError");
    // A tile narrower than the loop's range: the loop itself runs past it.
    let narrow = TILED.replace(
        "tb = cuda.shared.array((16, 16)",
        "tb = cuda.shared.array((12, 16)",
    );
    let k = native(&narrow, &tiled_params());
    let err = same(
        &k,
        cfg2([2, 2], [12, 12]),
        &[
            (m, DType::F32),
            (m, DType::F32),
            (m, DType::F32),
            (m, DType::F64),
        ],
    )
    .unwrap_err();
    assert_eq!(err.0, "IndexError");
}

#[test]
fn unrolled_loops_over_parameter_arrays_match_and_fault_alike() {
    let k = native(
        "def rows(a, out):\n    i = cuda.grid(1)\n    if i < out.shape[0]:\n        s = np.float32(0.0)\n        p = 1\n        for k in range(8):\n            s = s * np.float32(0.5) + a[i, k]\n            p = p * 3 + k\n        out[i] = s + p\n",
        &[arr1(DType::F32, 2), arr1(DType::F32, 1)],
    );
    same(
        &k,
        cfg(3, 32),
        &[(&[90, 8], DType::F32), (&[90], DType::F32)],
    )
    .unwrap();
    same(
        &k,
        cfg(2, 64),
        &[(&[100, 11], DType::F32), (&[90], DType::F32)],
    )
    .unwrap();
    // Rows of 6: k = 6 is past every row.
    let err = same(
        &k,
        cfg(3, 32),
        &[(&[90, 6], DType::F32), (&[90], DType::F32)],
    )
    .unwrap_err();
    assert_eq!(err.0, "IndexError");
}
