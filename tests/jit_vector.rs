//! Rows run four threads a step in vector registers (`src/kernel/jit/vector.rs`) against
//! the interpreter: ragged row lengths (so the scalar loop runs the rest), float32 and
//! float64 arithmetic with conversions between them, NaN, infinities, signed zeros and
//! subnormals, uniform branches and loads, and offsets of the row's id. Every output must
//! match the interpreter's byte for byte; kernels the vector steps cannot take keep the
//! scalar row and the same bytes.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{KernelArg, LaunchConfig};
use nbcuda::kernel::types::{Layout, Ty};
use nbcuda::kernel::CompiledKernel;

fn carr(dtype: DType, ndim: usize) -> Ty {
    Ty::Array {
        dtype,
        ndim,
        layout: Layout::C,
    }
}

/// Values that tell rounding and special cases apart, cycled with the element index.
fn special(i: usize) -> f64 {
    match i % 11 {
        0 => f64::NAN,
        1 => f64::INFINITY,
        2 => -0.0,
        3 => 1e-40,
        4 => f64::NEG_INFINITY,
        5 => 3.0e38,
        _ => (i as f64 * 0.7311).sin() * 1e3 + 1.0 / 3.0,
    }
}

/// Run `k` over C-contiguous arrays of the shapes and dtypes given (filled with
/// [`special`] values, each array shifted differently) and the scalars; every array's
/// bytes afterwards.
fn run(
    k: &CompiledKernel,
    c: LaunchConfig,
    arrays: &[(&[usize], DType)],
    scalars: &[Scalar],
    jit: bool,
) -> Vec<Vec<u8>> {
    let mut made = Vec::new();
    let mut args = Vec::new();
    for (j, (shape, dt)) in arrays.iter().enumerate() {
        let n: usize = shape.iter().product();
        let vals: Vec<f64> = (0..n).map(|i| special(i + 3 * j)).collect();
        let a = array_of(shape, *dt, &vals);
        args.push(arg(&a));
        made.push(a);
    }
    args.extend(scalars.iter().map(|s| KernelArg::Scalar(*s)));
    nbcuda::kernel::execute_on_cpu_with(k, &c, &args, jit).expect("launch");
    made.iter().map(bytes).collect()
}

fn bytes(a: &NdArray) -> Vec<u8> {
    let n: usize = a.shape.iter().product();
    let mut out = vec![0u8; n * a.dtype.itemsize()];
    a.buf.read(0, &mut out);
    out
}

#[track_caller]
fn same(k: &CompiledKernel, c: LaunchConfig, arrays: &[(&[usize], DType)], scalars: &[Scalar]) {
    let a = run(k, c, arrays, scalars, false);
    let b = run(k, c, arrays, scalars, true);
    for (j, (x, y)) in a.iter().zip(&b).enumerate() {
        assert!(
            x == y,
            "array {j} differs from the interpreter's under {c:?}"
        );
    }
}

fn vector_rows(k: &CompiledKernel) -> bool {
    nbcuda::kernel::jit::code_for(&k.ir)
        .expect("compiled")
        .vector_rows()
}

fn cfg2(grid: (u32, u32), block: (u32, u32)) -> LaunchConfig {
    LaunchConfig {
        grid: [grid.0, grid.1, 1],
        block: [block.0, block.1, 1],
        dynamic_shared_bytes: 0,
    }
}

/// Shapes and the launches covering them (16×16 blocks): widths that leave 0 to 3
/// threads for the scalar loop, rows shorter than a step, blocks past both edges.
const SHAPES: [([usize; 2], (u32, u32)); 6] = [
    ([37, 53], (3, 4)),
    ([32, 64], (2, 4)),
    ([5, 3], (1, 1)),
    ([17, 1], (2, 1)),
    ([9, 66], (1, 5)),
    ([300, 501], (19, 32)),
];

#[test]
fn float_rows_run_four_threads_a_step_with_the_interpreters_bytes() {
    let two_d = "if x < out.shape[0] and y < out.shape[1]:\n        ";
    use DType::{F32, F64};
    // The body, the dtypes of a, b and out, and the scalar `s` if any.
    let cases: [(&str, [DType; 3], Option<Scalar>); 5] = [
        // float32 * int -> float64, + float32 -> float64, stored as float32.
        ("out[x, y] = a[x, y] * 2 + b[x, y]", [F32; 3], None),
        ("out[x, y] = a[x, y] * a[x, y] - b[x, y] / a[x, y]", [F32; 3], None),
        (
            "out[x, y] = -abs(a[x, y]) / (b[x, y] - 0.5) + s",
            [F64; 3],
            Some(Scalar::F64(0.1)),
        ),
        // A uniform branch and a uniform load (b[x, 0]) beside the vector ones.
        (
            "if x % 3 == 0:\n            out[x, y] = a[x, y] + b[x, 0]\n        else:\n            out[x, y] = a[x, y] * s",
            [F32; 3],
            Some(Scalar::F32(1.5)),
        ),
        // float64 arithmetic on a float32 input, stored into float64 and from float64
        // into float32.
        (
            "t = a[x, y] * 0.1\n        out[x, y] = t - b[x, y]\n        a[x, y] = t",
            [F32, F64, F64],
            None,
        ),
    ];
    for (body, dts, s) in cases {
        let mut params: Vec<Ty> = dts.iter().map(|dt| carr(*dt, 2)).collect();
        params.extend(s.iter().map(|s| Ty::Scalar(s.dtype())));
        let args = if s.is_some() {
            "a, b, out, s"
        } else {
            "a, b, out"
        };
        let src = format!("def k({args}):\n    x, y = cuda.grid(2)\n    {two_d}{body}\n");
        let k = native(&src, &params);
        assert!(vector_rows(&k), "no vector rows for {body}");
        let scalars: Vec<Scalar> = s.into_iter().collect();
        for (shape, grid) in SHAPES {
            let arrays: Vec<(&[usize], DType)> = dts.iter().map(|dt| (&shape[..], *dt)).collect();
            same(&k, cfg2(grid, (16, 16)), &arrays, &scalars);
        }
    }
}

#[test]
fn lane_offsets_and_three_axes_keep_the_interpreters_bytes() {
    // The row's id plus a launch-wide offset: blocks whose shifted reads leave the array
    // are not proven, and run later in the usual order (here, without faulting).
    let k = native(
        "def k(a, out, d):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y + d] * 0.5\n",
        &[carr(DType::F64, 2), carr(DType::F64, 2), Ty::Scalar(DType::I64)],
    );
    assert!(vector_rows(&k));
    for d in [0i64, 1, 3] {
        let arrays: [(&[usize], DType); 2] = [(&[37, 60], DType::F64), (&[37, 53], DType::F64)];
        same(&k, cfg2((3, 4), (16, 16)), &arrays, &[Scalar::I64(d)]);
    }
    // Three axes, the last index following z.
    let k = native(
        "def t3(a, out):\n    x, y, z = cuda.grid(3)\n    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:\n        out[x, y, z] = a[x, y, z] - 3.25\n",
        &[carr(DType::F32, 3), carr(DType::F32, 3)],
    );
    assert!(vector_rows(&k));
    let c = LaunchConfig {
        grid: [2, 2, 3],
        block: [4, 4, 8],
        dynamic_shared_bytes: 0,
    };
    let arrays: [(&[usize], DType); 2] = [(&[5, 6, 19], DType::F32), (&[5, 6, 19], DType::F32)];
    same(&k, c, &arrays, &[]);
}

#[test]
fn rows_the_vector_steps_cannot_take_keep_the_scalar_loop() {
    let two_d = "def k(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        ";
    for (body, dt) in [
        // Integers, math functions, compares and the thread id along the row stay scalar.
        ("out[x, y] = a[x, y] + b[x, y]", DType::I32),
        ("out[x, y] = math.sqrt(a[x, y]) + b[x, y]", DType::F32),
        (
            "out[x, y] = a[x, y] if a[x, y] > b[x, y] else 0.0",
            DType::F64,
        ),
        ("out[x, y] = a[x, y] + cuda.threadIdx.y", DType::F64),
        ("out[x, y] = min(a[x, y], b[x, y])", DType::F32),
    ] {
        let k = native(&format!("{two_d}{body}\n"), &vec![carr(dt, 2); 3]);
        assert!(!vector_rows(&k), "vector rows for {body}");
        for (shape, grid) in &SHAPES[..3] {
            let arrays: [(&[usize], DType); 3] = [(&shape[..], dt); 3];
            same(&k, cfg2(*grid, (16, 16)), &arrays, &[]);
        }
    }
}
