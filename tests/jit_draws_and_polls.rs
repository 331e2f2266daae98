//! Native xoroshiro128p draws and native polls on the JIT tier, against the interpreter
//! (the reference executor): uniform draws leave the same states and values bit for bit,
//! a state index outside the array raises the interpreter's error word for word, and a
//! kernel looping forever ends on either kind of cancel (the session's interrupt flag, a
//! device's cancel generation) and when another block faults.

mod compiler_support;

use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{Cancel, KernelFault, LaunchConfig};
use nbcuda::kernel::CompiledKernel;

fn with_random(name: &str, src: &str, params: &[nbcuda::kernel::types::Ty]) -> CompiledKernel {
    let (_, k) = catalog::compile(name, src, params, |g| {
        let random = Rc::new(nbcuda::py::value::Module::new("numba.cuda.random", ""));
        nbcuda::numba::intrinsics::register_random(&random);
        for n in [
            "xoroshiro128p_uniform_float32",
            "xoroshiro128p_uniform_float64",
            "xoroshiro128p_normal_float32",
        ] {
            g.borrow_mut().insert(n.into(), random.get(n).unwrap());
        }
    });
    assert!(
        nbcuda::kernel::jit::code_for(&k.ir).is_some(),
        "{name}: {:?}",
        nbcuda::kernel::jit::unsupported(&k.ir)
    );
    k
}

fn bytes(a: &NdArray) -> Vec<u8> {
    let n = a.shape.iter().product::<usize>() * a.dtype.itemsize();
    let mut out = vec![0u8; n];
    a.buf.read(a.offset, &mut out);
    out
}

/// `n` xoroshiro128p states (two words each) seeded like `create_xoroshiro128p_states`.
fn states(n: usize, seed: u64) -> NdArray {
    let a = NdArray::zeros(&[n, 2], DType::U64).unwrap();
    for (i, s) in nbcuda::kernel::rng::init_states(n, seed, 0)
        .into_iter()
        .enumerate()
    {
        let mut w = [0u8; 16];
        w[..8].copy_from_slice(&s[0].to_le_bytes());
        w[8..].copy_from_slice(&s[1].to_le_bytes());
        a.buf.write(i * 16, &w);
    }
    a
}

type Outcome = Result<(Vec<u8>, Vec<u8>), (String, String)>;

fn run(
    k: &CompiledKernel,
    c: LaunchConfig,
    n_states: usize,
    out_shape: &[usize],
    jit: bool,
) -> Outcome {
    let st = states(n_states, 7);
    let out = NdArray::zeros(out_shape, DType::F64).unwrap();
    match nbcuda::kernel::execute_on_cpu_with(k, &c, &[arg(&st), arg(&out)], jit) {
        Ok(_) => Ok((bytes(&st), bytes(&out))),
        Err(f) => Err((f.ename().to_string(), f.message)),
    }
}

const DRAWS: &str = "def draws(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for j in range(out.shape[1]):
            a = xoroshiro128p_uniform_float32(states, i)
            b = xoroshiro128p_uniform_float64(states, i)
            out[i, j] = a * 1000.0 + b + xoroshiro128p_normal_float32(states, i)
";

#[test]
fn uniform_draws_leave_the_interpreters_states_and_values() {
    let k = with_random("draws", DRAWS, &[arr1(DType::U64, 2), arr1(DType::F64, 2)]);
    for (grid, block, n) in [(1, 8, 8), (3, 32, 90), (7, 64, 448)] {
        let a = run(&k, cfg(grid, block), n, &[n, 5], false);
        let b = run(&k, cfg(grid, block), n, &[n, 5], true);
        assert!(a.is_ok(), "{a:?}");
        assert_eq!(a, b, "{grid}x{block}");
    }
}

#[test]
fn a_state_index_past_the_array_raises_the_interpreters_error() {
    let k = with_random("draws", DRAWS, &[arr1(DType::U64, 2), arr1(DType::F64, 2)]);
    // 20 rows of output but 12 states: thread 12 draws from a state that is not there.
    let a = run(&k, cfg(1, 32), 12, &[20, 3], false);
    let b = run(&k, cfg(1, 32), 12, &[20, 3], true);
    let Err((ename, msg)) = &a else {
        panic!("no fault: {a:?}")
    };
    assert_eq!(ename, "IndexError");
    assert!(msg.contains("random state index 12"), "{msg}");
    assert_eq!(a, b);
}

const SPIN: &str = "def spin(a):\n    i = 0\n    while True:\n        i += 1\n    a[0] = i\n";

fn spin_with(cancel: Cancel, set: impl FnOnce() + Send + 'static) -> KernelFault {
    let k = kernel(SPIN, &[arr1(DType::I64, 1)]);
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_some());
    let a = array_of(&[1], DType::I64, &[0.0]);
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        set();
    });
    let err =
        nbcuda::kernel::execute_on_cpu_cancellable(&k, &cfg(4, 8), &[arg(&a)], cancel).unwrap_err();
    setter.join().unwrap();
    err
}

#[test]
fn a_device_cancel_ends_an_endless_native_kernel() {
    let gen = Arc::new(AtomicU64::new(5));
    let g2 = gen.clone();
    let err = spin_with(Cancel::queued(&gen), move || {
        g2.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(err.ename(), "KeyboardInterrupt");
}

#[test]
fn an_interrupt_flag_ends_an_endless_native_kernel() {
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let err = spin_with(Cancel::Interrupt(flag), move || {
        f2.store(true, Ordering::SeqCst);
    });
    assert_eq!(err.ename(), "KeyboardInterrupt");
}

#[test]
fn a_fault_in_one_block_ends_blocks_spinning_on_other_workers() {
    // Block 0 counts a while (so other workers are inside their loops) and faults; every
    // other block loops until it is told to stop. Without the stop flag polled in the
    // loop the launch would never end.
    let k = kernel(
        "def stuck(a):\n    i = 0\n    if cuda.blockIdx.x == 0:\n        while i < 20000000:\n            i += 1\n        a[a.size + 5] = 1\n    while True:\n        i += 1\n    a[0] = i\n",
        &[arr1(DType::I64, 1)],
    );
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_some());
    let a = array_of(&[4], DType::I64, &[0.0; 4]);
    let err = nbcuda::kernel::execute_on_cpu_with(&k, &cfg(256, 64), &[arg(&a)], true).unwrap_err();
    assert_eq!(err.ename(), "IndexError", "{}", err.message);
}

#[test]
fn a_block_stopped_by_a_later_blocks_fault_does_not_hide_it() {
    // Block 0 spins until the launch stops; the last block faults. Block 0 then records a
    // stop at a lower block than the fault, which once replaced it: the cell showed an
    // empty InternalError instead of the IndexError. Two workers, so block 0 spins on one
    // while the other reaches the last block (with one it would spin for ever).
    let k = kernel(
        "def late(a):\n    i = 0\n    if cuda.blockIdx.x == 0:\n        while True:\n            i += 1\n    if cuda.blockIdx.x == cuda.gridDim.x - 1:\n        a[a.size + 5] = 1\n    a[0] = i\n",
        &[arr1(DType::I64, 1)],
    );
    assert!(nbcuda::kernel::jit::code_for(&k.ir).is_some());
    let a = array_of(&[4], DType::I64, &[0.0; 4]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let err = pool
        .install(|| nbcuda::kernel::execute_on_cpu_with(&k, &cfg(256, 64), &[arg(&a)], true))
        .unwrap_err();
    assert_eq!(err.ename(), "IndexError", "{}", err.message);
    assert!(err.message.contains("block (255, 0, 0)"), "{}", err.message);
}

#[test]
fn an_interrupt_ends_a_flat_grid_stride_loop() {
    // 2^40 iterations over a stride-0 view of one element, run flat
    // (src/kernel/jit/flat.rs): only the polls between rounds end it.
    let k = kernel(
        "def fill(out):\n    start = cuda.grid(1)\n    for i in range(start, out.size, cuda.gridsize(1)):\n        out[i] = i\n",
        &[arr1(DType::I64, 1)],
    );
    let code = nbcuda::kernel::jit::code_for(&k.ir).expect("compiled");
    assert!(code.flat_grid_stride());
    let a = array_of(&[1], DType::I64, &[0.0]);
    let view = nbcuda::kernel::abi::KernelArg::Array(nbcuda::kernel::abi::ArrayArg {
        mem: nbcuda::kernel::abi::ArgMem::Host(a.buf.clone()),
        offset: 0,
        shape: vec![1 << 40],
        strides: vec![0],
        dtype: DType::I64,
    });
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        f2.store(true, Ordering::SeqCst);
    });
    let err = nbcuda::kernel::execute_on_cpu_cancellable(
        &k,
        &cfg(40, 256),
        &[view],
        Cancel::Interrupt(flag),
    )
    .unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}

#[test]
fn an_interrupt_ends_a_kernel_run_in_any_order() {
    // Threads that cannot see one another run strip by strip, row by row
    // (src/kernel/jit/order.rs); every thread here loops until the launch is cancelled.
    let k = kernel(
        "def spin2(a, out):\n    x, y = cuda.grid(2)\n    i = 0\n    while i >= 0:\n        i += 1\n    out[x, y] = a[x, y] + i\n",
        &[arr1(DType::I64, 2), arr1(DType::I64, 2)],
    );
    let code = nbcuda::kernel::jit::code_for(&k.ir).expect("compiled");
    assert_eq!(code.any_order_axis(), Some(1));
    let a = array_of(&[32, 32], DType::I64, &[0.0; 1024]);
    let out = array_of(&[32, 32], DType::I64, &[0.0; 1024]);
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        f2.store(true, Ordering::SeqCst);
    });
    let cfg2 = LaunchConfig {
        grid: [2, 2, 1],
        block: [16, 16, 1],
        dynamic_shared_bytes: 0,
    };
    let err = nbcuda::kernel::execute_on_cpu_cancellable(
        &k,
        &cfg2,
        &[arg(&a), arg(&out)],
        Cancel::Interrupt(flag),
    )
    .unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}
