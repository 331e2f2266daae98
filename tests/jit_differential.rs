//! The JIT tier against the interpreter (the reference executor): every kernel of the
//! compiler catalog and a set of targeted kernels run on both, on the same inputs, and
//! their output arrays must be equal byte for byte, their faults word for word.

mod compiler_support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{Cancel, KernelArg, KernelFault, LaunchConfig};
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;

/// A small deterministic generator (no dependency, same numbers on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn unit(&mut self) -> f64 {
        (self.next() % 1_000_000) as f64 / 1_000_000.0
    }
}

/// Input values for a dtype: a spread with negatives, zeros and, for floats, specials.
fn fill(a: &NdArray, rng: &mut Lcg) {
    let n: usize = a.shape.iter().product();
    let isz = a.dtype.itemsize();
    for i in 0..n {
        let v = match a.dtype {
            DType::F32 | DType::F64 => match rng.next() % 23 {
                0 => f64::NAN,
                1 => f64::INFINITY,
                2 => -0.0,
                _ => (rng.unit() - 0.4) * 8.0,
            },
            DType::U64 => {
                let raw = rng.next() | 1;
                a.buf.write(i * 8, &raw.to_le_bytes());
                continue;
            }
            DType::Bool | DType::U8 | DType::U16 | DType::U32 => (rng.next() % 40) as f64,
            _ => (rng.next() % 60) as f64 - 25.0,
        };
        a.buf
            .write(i * isz, &Scalar::F64(v).cast(a.dtype).to_bytes());
    }
}

fn inputs(params: &[Ty], seed: u64) -> (Vec<NdArray>, Vec<KernelArg>) {
    let mut rng = Lcg(seed);
    let mut arrays = Vec::new();
    let mut args = Vec::new();
    for t in params {
        match t {
            Ty::Array { dtype, ndim, .. } => {
                let shape: Vec<usize> = match ndim {
                    1 => vec![150],
                    2 => vec![20, 12],
                    _ => vec![6, 5, 4],
                };
                let a = NdArray::zeros(&shape, *dtype).unwrap();
                fill(&a, &mut rng);
                args.push(arg(&a));
                arrays.push(a);
            }
            Ty::Scalar(d) => {
                let v = match d {
                    DType::F32 | DType::F64 => 1.5,
                    DType::Bool => 1.0,
                    _ => 7.0,
                };
                args.push(KernelArg::Scalar(Scalar::F64(v).cast(*d)));
            }
            other => panic!("no input for {other}"),
        }
    }
    (arrays, args)
}

fn bytes(a: &NdArray) -> Vec<u8> {
    let n: usize = a.shape.iter().product::<usize>() * a.dtype.itemsize();
    let mut out = vec![0u8; n];
    a.buf.read(a.offset, &mut out);
    out
}

type Outcome = Result<Vec<Vec<u8>>, (String, String)>;

fn run_on(k: &CompiledKernel, c: LaunchConfig, seed: u64, jit: bool) -> Outcome {
    let (arrays, args) = inputs(&k.ir.params, seed);
    match nbcuda::kernel::execute_on_cpu_with(k, &c, &args, jit) {
        Ok(_) => Ok(arrays.iter().map(bytes).collect()),
        Err(f) => Err((f.ename().to_string(), f.message)),
    }
}

fn cfg2(grid: (u32, u32), block: (u32, u32)) -> LaunchConfig {
    LaunchConfig {
        grid: [grid.0, grid.1, 1],
        block: [block.0, block.1, 1],
        dynamic_shared_bytes: 64,
    }
}

/// Kernels whose threads race on one location (atomics that return the old value mixed
/// with other atomics there, or read-modify-writes of one element by every thread): any
/// order of threads is a valid CUDA schedule, and the interpreter (instruction by
/// instruction across lanes) and the JIT (thread by thread) pick different ones.
const RACY: &[&str] = &[
    "hist",
    "atomics64",
    "float_atomics",
    "fences",
    "grid_stride",
];

/// Kernels indexed by `cuda.grid(1)` that update their element in place or draw from the
/// thread's random state: in a 2-D launch several threads share that index, which is a
/// race (see [`RACY`]), so they are compared in 1-D launches only.
const RACY_IN_2D: &[&str] = &["increment_by_one", "rng", "round_to_f32"];

/// How the two executors' results differ, if they do.
fn differs(name: &str, k: &CompiledKernel, c: LaunchConfig, seed: u64) -> Option<String> {
    let interp = run_on(k, c, seed, false);
    let jit = run_on(k, c, seed, true);
    match (&interp, &jit) {
        (Ok(a), Ok(b)) => {
            if RACY.contains(&name) {
                return None;
            }
            a.iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .map(|i| format!("{name} {c:?}: argument {i} differs"))
        }
        (Err(a), Err(b)) => (a != b).then(|| format!("{name} {c:?}: faults differ: {a:?} / {b:?}")),
        _ => Some(format!(
            "{name} {c:?}: interpreter {interp:?} but JIT {jit:?}"
        )),
    }
}

#[track_caller]
fn same(name: &str, k: &CompiledKernel, c: LaunchConfig, seed: u64) {
    if let Some(d) = differs(name, k, c, seed) {
        panic!("{d}");
    }
}

#[test]
fn every_catalog_kernel_gives_the_interpreters_bytes() {
    let mut native = Vec::new();
    let mut bad = Vec::new();
    for (name, k) in catalog::all() {
        if nbcuda::kernel::jit::code_for(&k.ir).is_some() {
            native.push(name.clone());
        }
        for seed in [1, 2] {
            bad.extend(differs(&name, &k, cfg(3, 64), seed));
            if !RACY_IN_2D.contains(&name.as_str()) {
                bad.extend(differs(&name, &k, cfg2((3, 2), (8, 8)), seed));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    for must in [
        "increment_by_one",
        "add2d",
        "loops",
        "ints",
        "uints",
        "mathy",
        "rng",
        "local_const",
        "three_d",
        "bools",
        "add_ufunc",
        "gufunc",
    ] {
        assert!(
            native.iter().any(|n| n == must),
            "{must} is not compiled: {native:?}"
        );
    }
}

fn k1(src: &str, params: &[Ty]) -> CompiledKernel {
    let k = kernel(src, params);
    assert!(
        nbcuda::kernel::jit::code_for(&k.ir).is_some(),
        "not compiled: {:?}",
        nbcuda::kernel::jit::unsupported(&k.ir)
    );
    k
}

#[test]
fn integer_division_and_modulo_of_negatives_and_extremes() {
    for dt in [
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U32,
        DType::U64,
    ] {
        let k = k1(
            "def divs(a, b, q, r, p):\n    i = cuda.grid(1)\n    if i < a.size:\n        q[i] = a[i] // b[i]\n        r[i] = a[i] % b[i]\n        p[i] = a[i] * b[i] + (a[i] << 3) - (b[i] >> 1)\n",
            &[arr1(dt, 1), arr1(dt, 1), arr1(dt, 1), arr1(dt, 1), arr1(dt, 1)],
        );
        let (lo, hi) = match dt {
            DType::I8 => (i8::MIN as f64, i8::MAX as f64),
            DType::I16 => (i16::MIN as f64, i16::MAX as f64),
            DType::I32 => (i32::MIN as f64, i32::MAX as f64),
            DType::I64 => (i64::MIN as f64, i64::MAX as f64),
            _ => (0.0, 200.0),
        };
        let av = [lo, lo, -7.0, 7.0, -7.0, 7.0, hi, 0.0, -1.0, 5.0, lo, 13.0];
        let bv = [
            -1.0, 1.0, 2.0, -2.0, -2.0, 0.0, -1.0, 3.0, 0.0, 7.0, 0.0, -5.0,
        ];
        let run = |jit: bool| {
            let a = array_of(&[12], dt, &av);
            let b = array_of(&[12], dt, &bv);
            let outs: Vec<NdArray> = (0..3).map(|_| NdArray::zeros(&[12], dt).unwrap()).collect();
            let mut args = vec![arg(&a), arg(&b)];
            args.extend(outs.iter().map(arg));
            nbcuda::kernel::execute_on_cpu_with(&k, &cfg(1, 16), &args, jit).unwrap();
            outs.iter().map(bytes).collect::<Vec<_>>()
        };
        assert_eq!(run(false), run(true), "{dt:?}");
    }
}

#[test]
fn float32_math_and_casts_match_bit_for_bit() {
    let k = k1(
        "def fm(x, out, iout, uout):\n    i = cuda.grid(1)\n    if i < x.size:\n        v = x[i]\n        out[i] = math.sin(v) * math.cos(v) + math.exp(v * 0.1) - math.sqrt(abs(v)) + math.atan2(v, 1.5) + v / 3 + math.floor(v) + v ** 2.5\n        iout[i] = int(v * 1e9)\n        uout[i] = np.uint64(abs(v) * 1e18)\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1), arr1(DType::I32, 1), arr1(DType::F64, 1)],
    );
    for seed in 0..4 {
        same("fm", &k, cfg(2, 96), seed);
    }
}

#[test]
fn two_d_grids_and_grid_stride_loops() {
    let k = k1(
        "def ab(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n",
        &[arr1(DType::F32, 2), arr1(DType::F32, 2), arr1(DType::F32, 2)],
    );
    same("ab", &k, cfg2((3, 2), (8, 8)), 5);
    same("ab", &k, cfg2((2, 3), (16, 4)), 6);
    // Grid-stride loops run natively in lockstep rounds (see lockstep.rs).
    let k = k1(
        "def gs(x, y, out):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, x.size, stride):\n        out[i] = x[i] + y[i]\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    same("gs", &k, cfg(2, 32), 7);
    same("gs", &k, cfg(1, 1), 8);
    let k = k1(
        "def rows(a, out):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        s = 0.0\n        for j in range(a.shape[1]):\n            s += a[i, j] * j\n        out[i] = s\n",
        &[arr1(DType::F64, 2), arr1(DType::F64, 1)],
    );
    same("rows", &k, cfg(2, 16), 9);
}

#[test]
fn and_or_between_compares_give_the_interpreters_bytes_and_faults() {
    // The right operand of `and` / `or` (a few compares and integer adds) runs natively as
    // selects rather than a branch; results, ragged edges and faults stay the same.
    let f2 = arr1(DType::F32, 2);
    let srcs = [
        "def a1(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1] and x + 1 > y - 2:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n",
        "def o1(a, b, out):\n    x, y = cuda.grid(2)\n    if x >= out.shape[0] or y >= out.shape[1]:\n        return\n    ok = x < 5 or y > 7\n    out[x, y] = a[x, y] if ok else b[x, y]\n",
        "def f1(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        if a[x, y] > 0 and b[x, y] < 1.5 or a[x, y] != a[x, y]:\n            out[x, y] = a[x, y] - b[x, y]\n",
        // `<=` lets x reach the extent: the IndexError of the first thread past it.
        "def e1(a, b, out):\n    x, y = cuda.grid(2)\n    if x <= out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] + b[x, y]\n",
    ];
    for src in srcs {
        let k = k1(src, &[f2.clone(), f2.clone(), f2.clone()]);
        for (c, seed) in [
            (cfg2((3, 2), (8, 8)), 11),
            (cfg2((2, 3), (16, 4)), 12),
            (cfg2((5, 1), (4, 16)), 13),
        ] {
            same(src, &k, c, seed);
        }
    }
}

#[test]
fn histogram_atomics_count_the_same() {
    let k = k1(
        "def hist(data, bins):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, data.size, stride):\n        cuda.atomic.add(bins, data[i] % bins.size, 1)\n",
        &[arr1(DType::I32, 1), arr1(DType::I32, 1)],
    );
    let data: Vec<f64> = (0..100_000)
        .map(|i| ((i * 7919) % 1000) as f64 - 300.0)
        .collect();
    let run = |jit: bool| {
        let d = array_of(&[data.len()], DType::I32, &data);
        let bins = NdArray::zeros(&[256], DType::I32).unwrap();
        nbcuda::kernel::execute_on_cpu_with(&k, &cfg(40, 128), &[arg(&d), arg(&bins)], jit)
            .unwrap();
        bytes(&bins)
    };
    assert_eq!(run(false), run(true));
}

#[test]
fn every_integer_atomic_leaves_the_same_bits() {
    for dt in [DType::I32, DType::U32, DType::I64, DType::U64] {
        // Each thread owns a row, so the result does not depend on the order of threads.
        let k = k1(
            "def at(a, v, olds):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        x = v[i]\n        olds[i, 0] = cuda.atomic.add(a, (i, 0), x)\n        olds[i, 1] = cuda.atomic.sub(a, (i, 1), x)\n        olds[i, 2] = cuda.atomic.and_(a, (i, 2), x)\n        olds[i, 3] = cuda.atomic.or_(a, (i, 3), x)\n        olds[i, 4] = cuda.atomic.xor(a, (i, 4), x)\n        olds[i, 5] = cuda.atomic.exch(a, (i, 5), x)\n        olds[i, 6] = cuda.atomic.max(a, (i, 6), x)\n        olds[i, 7] = cuda.atomic.min(a, (i, 7), x)\n",
            &[arr1(dt, 2), arr1(dt, 1), arr1(dt, 2)],
        );
        let run = |jit: bool| {
            let mut rng = Lcg(11);
            let a = NdArray::zeros(&[40, 8], dt).unwrap();
            let v = NdArray::zeros(&[40], dt).unwrap();
            let olds = NdArray::zeros(&[40, 8], dt).unwrap();
            fill(&a, &mut rng);
            fill(&v, &mut rng);
            nbcuda::kernel::execute_on_cpu_with(
                &k,
                &cfg(2, 32),
                &[arg(&a), arg(&v), arg(&olds)],
                jit,
            )
            .unwrap();
            (bytes(&a), bytes(&olds))
        };
        assert_eq!(run(false), run(true), "{dt:?}");
    }
}

#[test]
fn out_of_bounds_faults_read_the_same() {
    let cases: &[(&str, Vec<Ty>, LaunchConfig)] = &[
        (
            "def oob(a):\n    i = cuda.grid(1)\n    a[i] = i\n",
            vec![arr1(DType::I64, 1)],
            cfg(3, 64),
        ),
        (
            "def oob(a, b):\n    i = cuda.grid(1)\n    b[i - 200] = a[i % 5]\n",
            vec![arr1(DType::F32, 1), arr1(DType::F32, 1)],
            cfg(2, 32),
        ),
        (
            "def oob(a):\n    x, y = cuda.grid(2)\n    a[x, y + 3] = 1.0\n",
            vec![arr1(DType::F64, 2)],
            cfg2((3, 2), (8, 8)),
        ),
        (
            "def oob(a):\n    i = cuda.grid(1)\n    cuda.atomic.add(a, i + 140, 1)\n",
            vec![arr1(DType::I32, 1)],
            cfg(1, 64),
        ),
        (
            "def oob(a):\n    i = cuda.grid(1)\n    v = a[3:8]\n    v[i] = 2\n",
            vec![arr1(DType::I32, 1)],
            cfg(1, 16),
        ),
    ];
    for (src, params, c) in cases {
        let k = k1(src, params);
        let a = run_on(&k, *c, 3, false);
        let b = run_on(&k, *c, 3, true);
        let (Err(a), Err(b)) = (a, b) else {
            panic!("{src}: expected faults on both executors");
        };
        assert_eq!(a, b, "{src}");
        assert_eq!(a.0, "IndexError");
    }
}

#[test]
fn random_draws_follow_the_same_streams() {
    let (_, k) = catalog::all()
        .into_iter()
        .find(|(n, _)| n == "rng")
        .unwrap();
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_some());
    for seed in 0..3 {
        same("rng", &k, cfg(2, 16), seed);
    }
}

#[test]
fn an_interrupt_ends_an_endless_native_kernel() {
    let k = k1(
        "def spin(a):\n    i = 0\n    while True:\n        i += 1\n    a[0] = i\n",
        &[arr1(DType::I64, 1)],
    );
    let a = array_of(&[1], DType::I64, &[0.0]);
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        f2.store(true, Ordering::SeqCst);
    });
    let err: KernelFault = nbcuda::kernel::execute_on_cpu_cancellable(
        &k,
        &cfg(4, 8),
        &[arg(&a)],
        Cancel::Interrupt(flag),
    )
    .unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}

#[test]
fn shared_read_modify_writes_keep_the_interpreters_lost_updates() {
    let racy = [
        "def count(c):\n    c[0] += 1\n",
        "def hist(data, bins):\n    i = cuda.grid(1)\n    if i < data.size:\n        bins[data[i]] += 1\n",
        "def acc(x, out):\n    i = cuda.grid(1)\n    for j in range(out.size):\n        out[j] += x[i]\n",
        "def stencil(a):\n    i = cuda.grid(1)\n    if 0 < i and i < a.size - 1:\n        a[i] = (a[i - 1] + a[i + 1]) / 2\n",
    ];
    let k = kernel(racy[0], &[arr1(DType::I64, 1)]);
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_none());
    let k = kernel(racy[1], &[arr1(DType::I32, 1), arr1(DType::I32, 1)]);
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_none());
    let k = kernel(racy[2], &[arr1(DType::F32, 1), arr1(DType::F32, 1)]);
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_none());
    // An in-place stencil reads neighbours other threads overwrite.
    let k = kernel(racy[3], &[arr1(DType::F64, 1)]);
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_none());
    // The same updates made atomically, or at each thread's own element, are native.
    k1(
        "def hist(data, bins):\n    i = cuda.grid(1)\n    if i < data.size:\n        cuda.atomic.add(bins, data[i], 1)\n",
        &[arr1(DType::I32, 1), arr1(DType::I32, 1)],
    );
    k1(
        "def own(a):\n    x, y = cuda.grid(2)\n    if x < a.shape[0] and y < a.shape[1]:\n        a[x, y] += 1\n",
        &[arr1(DType::F32, 2)],
    );
    // A counter is racy without atomics: the interpreter loses updates as a GPU does.
    let k = kernel(racy[0], &[arr1(DType::I64, 1)]);
    let c = array_of(&[1], DType::I64, &[0.0]);
    launch(&k, cfg(1, 64), &[arg(&c)]).unwrap();
    assert!(values(&c)[0] < 64.0, "{:?}", values(&c));
}

fn arrc(dtype: DType, ndim: usize) -> Ty {
    Ty::Array {
        dtype,
        ndim,
        layout: nbcuda::kernel::types::Layout::C,
    }
}

/// A view of a fresh filled buffer of `len` elements: element 0 at element `start`, and
/// the shape and element strides given (negative strides walk backwards).
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

/// A C-contiguous array of `shape` as a [`View`].
fn cview(shape: &[usize]) -> View {
    let n: usize = shape.iter().product();
    let st = NdArray::c_strides(shape, 1);
    view(n, 0, shape, &st)
}

/// Run `k` on views of fresh buffers (same seed, same contents on both executors) and
/// return every whole buffer's bytes, so a write outside a view shows too, or the fault.
fn run_views(k: &CompiledKernel, c: LaunchConfig, vs: &[View], dt: DType, jit: bool) -> Outcome {
    let mut rng = Lcg(42);
    let mut bufs = Vec::new();
    let mut args = Vec::new();
    let isz = dt.itemsize() as isize;
    for v in vs {
        let a = NdArray::zeros(&[v.len], dt).unwrap();
        fill(&a, &mut rng);
        args.push(KernelArg::Array(nbcuda::kernel::abi::ArrayArg {
            mem: nbcuda::kernel::abi::ArgMem::Host(a.buf.clone()),
            offset: v.start * dt.itemsize(),
            shape: v.shape.clone(),
            strides: v.strides.iter().map(|s| s * isz).collect(),
            dtype: dt,
        }));
        bufs.push(a);
    }
    match nbcuda::kernel::execute_on_cpu_with(k, &c, &args, jit) {
        Ok(_) => Ok(bufs.iter().map(bytes).collect()),
        Err(f) => Err((f.ename().to_string(), f.message)),
    }
}

#[track_caller]
fn same_views(what: &str, k: &CompiledKernel, c: LaunchConfig, vs: &[View], dt: DType) {
    let a = run_views(k, c, vs, dt, false);
    let b = run_views(k, c, vs, dt, true);
    assert_eq!(a, b, "{what} {c:?}");
}

const AB: &str = "def ab(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n";

#[test]
fn c_layout_arrays_of_one_shape_or_several_give_the_interpreters_bytes() {
    let k = k1(
        AB,
        &[
            arrc(DType::F32, 2),
            arrc(DType::F32, 2),
            arrc(DType::F32, 2),
        ],
    );
    let c = cfg2((3, 2), (8, 8));
    // One shape for all three (one shared-shape variant), then inputs larger than the
    // output, then an output larger than its inputs (an IndexError).
    same_views(
        "ab",
        &k,
        c,
        &[cview(&[20, 12]), cview(&[20, 12]), cview(&[20, 12])],
        DType::F32,
    );
    same_views(
        "ab",
        &k,
        c,
        &[cview(&[30, 16]), cview(&[20, 13]), cview(&[20, 12])],
        DType::F32,
    );
    let r = run_views(
        &k,
        c,
        &[cview(&[20, 12]), cview(&[30, 16]), cview(&[22, 15])],
        DType::F32,
        true,
    );
    assert!(matches!(&r, Err((e, _)) if e == "IndexError"), "{r:?}");
    same_views(
        "ab",
        &k,
        c,
        &[cview(&[20, 12]), cview(&[30, 16]), cview(&[22, 15])],
        DType::F32,
    );
    // Axes of length 1 and empty arrays.
    same_views(
        "ab",
        &k,
        c,
        &[cview(&[1, 12]), cview(&[1, 12]), cview(&[1, 12])],
        DType::F32,
    );
    same_views(
        "ab",
        &k,
        c,
        &[cview(&[0, 12]), cview(&[0, 12]), cview(&[0, 12])],
        DType::F32,
    );
}

#[test]
fn strided_reversed_and_offset_views_give_the_interpreters_bytes() {
    let k = k1(
        AB,
        &[
            arr1(DType::F64, 2),
            arr1(DType::F64, 2),
            arr1(DType::F64, 2),
        ],
    );
    let c = cfg2((3, 2), (8, 8));
    // A transposed input, a reversed and every-other-column input, an offset output.
    let vs = [
        view(240, 0, &[20, 12], &[1, 20]),
        view(600, 599, &[20, 12], &[-30, -2]),
        view(300, 37, &[20, 12], &[13, 1]),
    ];
    same_views("ab views", &k, c, &vs, DType::F64);
    // The C-contiguous case of the same kernel compiled for any layout.
    same_views(
        "ab",
        &k,
        c,
        &[cview(&[20, 12]), cview(&[20, 12]), cview(&[20, 12])],
        DType::F64,
    );
    let k3 = k1(
        "def t3(a, out):\n    x, y, z = cuda.grid(3)\n    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:\n        out[x, y, z] = a[x, y, z] + x * 100 + y * 10 + z\n",
        &[arr1(DType::I32, 3), arr1(DType::I32, 3)],
    );
    let c3 = LaunchConfig {
        grid: [2, 2, 2],
        block: [4, 3, 3],
        dynamic_shared_bytes: 0,
    };
    same_views(
        "t3",
        &k3,
        c3,
        &[cview(&[6, 5, 4]), cview(&[6, 5, 4])],
        DType::I32,
    );
    let vs = [
        view(400, 399, &[6, 5, 4], &[-60, -12, -3]),
        view(200, 3, &[6, 5, 4], &[1, 6, 30]),
    ];
    same_views("t3 views", &k3, c3, &vs, DType::I32);
    let k3c = k1(
        "def t3(a, out):\n    x, y, z = cuda.grid(3)\n    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:\n        out[x, y, z] = a[x, y, z] + x * 100 + y * 10 + z\n",
        &[arrc(DType::I32, 3), arrc(DType::I32, 3)],
    );
    same_views(
        "t3 C",
        &k3c,
        c3,
        &[cview(&[6, 5, 4]), cview(&[7, 5, 4])],
        DType::I32,
    );
}

const GS: &str = "def gs(x, y, out):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, x.size, stride):\n        out[i] = x[i] + y[i]\n";

#[test]
fn grid_stride_loops_run_in_lockstep_with_the_interpreters_bytes_and_faults() {
    for layout in [arrc(DType::F32, 1), arr1(DType::F32, 1)] {
        let k = k1(GS, &[layout.clone(), layout.clone(), layout.clone()]);
        assert!(nbcuda::kernel::jit::lockstep::lockstep(&k.ir).is_some());
        // Tails: sizes below, at and past the grid, and none at all.
        for n in [0, 1, 63, 64, 65, 150, 1000] {
            for c in [cfg(2, 32), cfg(1, 1), cfg(3, 64), cfg(5, 7)] {
                same_views(
                    "gs",
                    &k,
                    c,
                    &[cview(&[n]), cview(&[n]), cview(&[n])],
                    DType::F32,
                );
            }
        }
        // An output shorter than the inputs faults at the first lane past its end.
        same_views(
            "gs short",
            &k,
            cfg(2, 32),
            &[cview(&[150]), cview(&[150]), cview(&[100])],
            DType::F32,
        );
        let r = run_views(
            &k,
            cfg(2, 32),
            &[cview(&[150]), cview(&[150]), cview(&[100])],
            DType::F32,
            true,
        );
        assert!(matches!(&r, Err((e, _)) if e == "IndexError"), "{r:?}");
    }
    let k = k1(
        GS,
        &[
            arr1(DType::F32, 1),
            arr1(DType::F32, 1),
            arr1(DType::F32, 1),
        ],
    );
    let vs = [
        view(300, 299, &[150], &[-2]),
        view(150, 0, &[150], &[1]),
        view(160, 10, &[150], &[1]),
    ];
    same_views("gs reversed", &k, cfg(3, 16), &vs, DType::F32);
    // A big launch runs its chunks on several workers.
    same_views(
        "gs big",
        &k,
        cfg(80, 256),
        &[cview(&[100_003]), cview(&[100_003]), cview(&[100_003])],
        DType::F32,
    );
}

#[test]
fn grid_stride_loops_with_breaks_returns_atomics_and_nesting_match() {
    // `continue`, `break` and `return` inside the loop; a lane's draw count differs.
    let k = k1(
        "def gsb(x, out):\n    start = cuda.grid(1)\n    for i in range(start, x.size, cuda.gridsize(1)):\n        if x[i] < -3:\n            continue\n        if x[i] > 3.5:\n            break\n        if x[i] > 3.2:\n            return\n        out[i] = x[i] * 2\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    assert!(nbcuda::kernel::jit::lockstep::lockstep(&k.ir).is_some());
    for c in [cfg(2, 32), cfg(1, 5), cfg(4, 64)] {
        same_views("gsb", &k, c, &[cview(&[500]), cview(&[500])], DType::F64);
    }
    // Float atomics on one element: the sum's bits depend on the order of the adds,
    // and a small launch runs its chunks in order on both executors.
    let k = k1(
        "def fsum(x, out):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, x.size, stride):\n        cuda.atomic.add(out, 0, x[i] * 1.1)\n",
        &[arr1(DType::F32, 1), arr1(DType::F32, 1)],
    );
    assert!(nbcuda::kernel::jit::lockstep::lockstep(&k.ir).is_some());
    for c in [cfg(2, 32), cfg(3, 7)] {
        same_views("fsum", &k, c, &[cview(&[700]), cview(&[1])], DType::F32);
    }
    // A 2-D grid-stride pair of loops: the outer one runs in lockstep.
    let k = k1(
        "def gs2(a, out):\n    x0, y0 = cuda.grid(2)\n    sx, sy = cuda.gridsize(2)\n    for x in range(x0, out.shape[0], sx):\n        for y in range(y0, out.shape[1], sy):\n            out[x, y] = a[x, y] * 3 - x\n",
        &[arr1(DType::I64, 2), arr1(DType::I64, 2)],
    );
    assert!(nbcuda::kernel::jit::lockstep::lockstep(&k.ir).is_some());
    for c in [cfg2((2, 2), (4, 4)), cfg2((1, 3), (3, 2))] {
        same_views(
            "gs2",
            &k,
            c,
            &[cview(&[20, 13]), cview(&[20, 13])],
            DType::I64,
        );
        let vs = [
            view(600, 599, &[20, 13], &[-26, -2]),
            view(260, 0, &[20, 13], &[1, 20]),
        ];
        same_views("gs2 views", &k, c, &vs, DType::I64);
    }
    // A per-thread sum carried across iterations and stored after the loop is not a
    // lockstep shape: it stays with the interpreter (same bytes either way).
    let k = kernel(
        "def part(x, out):\n    start = cuda.grid(1)\n    s = 0.0\n    for i in range(start, x.size, cuda.gridsize(1)):\n        s += x[i]\n    out[start] = s\n",
        &[arr1(DType::F64, 1), arr1(DType::F64, 1)],
    );
    assert!(nbcuda::kernel::jit::lockstep::lockstep(&k.ir).is_none());
    same_views(
        "part",
        &k,
        cfg(2, 32),
        &[cview(&[500]), cview(&[64])],
        DType::F64,
    );
}
