//! Launch-time behaviour from notebook cells: launch limits raised by the launch call,
//! the host-array performance warning, `cuda.reduce` on the device, and `@njit` with
//! `parallel=True`.

mod common;
use common::Session;

const KERNELS: &str = "from numba import cuda\nimport numpy as np\n\
@cuda.jit\ndef inc(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n\
@cuda.jit\ndef big_shared(a):\n    s = cuda.shared.array(20000, dtype=np.float32)\n    s[0] = 1.0\n    a[0] = s[0]\n\
@cuda.jit\ndef big_local(a):\n    t = cuda.local.array(200000, dtype=np.float64)\n    t[0] = 1.0\n    a[0] = t[0]\n\
d = cuda.to_device(np.zeros(4, dtype=np.float32))\n";

#[test]
fn launch_limits_are_raised_by_the_launch_call_itself() {
    let mut s = Session::new();
    s.run(KERNELS).ok();
    // The statement after the launch must not run: the launch raised synchronously
    // instead of queueing work that fails at the next synchronize.
    for launch in [
        "inc[1, 2048](d)",
        "inc[1, (32, 32, 2)](d)",
        "big_shared[1, 1](d)",
        "big_local[1, 1](d)",
        "inc[1, 32, 0, 60000](d)",
        "st = cuda.stream()\ninc[1, 2048, st](d)",
    ] {
        let c = s.run(&format!("{launch}\nprint('after the launch')\n"));
        assert_eq!(c.ename().as_deref(), Some("CudaAPIError"), "{launch}");
        assert!(
            c.evalue().contains("CUDA_ERROR_INVALID_VALUE"),
            "{}",
            c.evalue()
        );
        assert!(!c.out.stdout.contains("after the launch"), "{launch}");
    }
    let c = s.run("try:\n    big_shared[1, 1](d)\nexcept Exception as e:\n    print(type(e).__name__, 'shared memory' in str(e))\nprint('next')\n");
    assert_eq!(c.ok().out.stdout, "CudaAPIError True\nnext\n");
    let c = s.run("try:\n    big_local[1, 1](d)\nexcept Exception as e:\n    print('local memory' in str(e))\n");
    assert_eq!(c.ok().out.stdout, "True\n");
    // A valid launch still works and nothing failed behind the scenes.
    let c = s.run("inc[1, 32](d)\ncuda.synchronize()\nprint(d.copy_to_host().tolist())\n");
    assert_eq!(c.ok().out.stdout, "[1.0, 1.0, 1.0, 1.0]\n");
}

#[test]
fn host_array_warning_once_per_cell_and_function() {
    let mut s = Session::new();
    s.run(KERNELS).ok();
    s.run("@cuda.jit\ndef inc2(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 2\nh = np.zeros(8)\n")
        .ok();
    let warn = "NumbaPerformanceWarning: Host array used in CUDA kernel will incur copy overhead to/from device.";
    let c = s.run("inc[1, 8](h)\ninc[1, 8](h)\n");
    assert_eq!(
        c.ok().out.stderr.matches(warn).count(),
        1,
        "{}",
        c.out.stderr
    );
    let c = s.run("inc[1, 8](h)\ninc2[1, 8](h)\ninc2[1, 8](h)\n");
    assert_eq!(
        c.ok().out.stderr.matches(warn).count(),
        2,
        "a new cell warns again, once per function: {}",
        c.out.stderr
    );
    let c = s.run("inc[1, 8](d)\n");
    assert_eq!(
        c.ok().out.stderr.matches(warn).count(),
        0,
        "device arrays do not warn"
    );
    // 2 launches of inc, then inc once and inc2 (adds 2) twice.
    assert_eq!(
        s.stdout("print(h.tolist())"),
        format!("{:?}\n", vec![7.0; 8])
    );
}

const REDUCERS: &str = "from numba import cuda\nimport numpy as np\n\
@cuda.reduce\ndef sum_reduce(a, b):\n    return a + b\n\
@cuda.reduce\ndef max_reduce(a, b):\n    return max(a, b)\n\
@cuda.reduce\ndef min_reduce(a, b):\n    return min(a, b)\n\
n = 100003\nvals = (np.arange(n, dtype=np.int64) * 7919) % 100003\n\
d = cuda.to_device(vals)\nf = cuda.to_device(np.arange(n, dtype=np.float64) * 0.5)\n";

#[test]
fn cuda_reduce_runs_on_the_device_with_init_size_res_and_stream() {
    let n: i64 = 100003;
    let vals: Vec<i64> = (0..n).map(|i| (i * 7919) % 100003).collect();
    let halves: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let mut s = Session::new();
    s.run(REDUCERS).ok();
    let total: i64 = vals.iter().sum();
    assert_eq!(s.stdout("print(sum_reduce(d))"), format!("{total}\n"));
    let max = *vals.iter().max().unwrap();
    assert_eq!(s.stdout("print(max_reduce(d))"), format!("{max}\n"));
    // Every block of the partial pass holds values (a block of none would leave a stray
    // zero for min to find), at sizes around the point where threads take two elements
    // and past where their slices split in parts. (`init` defaults to 0 and is folded in,
    // as in Numba: a minimum of positive values needs a larger one.)
    s.run("d5 = cuda.to_device(vals + 5)").ok();
    for size in [3usize, 4, 9, 65535, 65536, 65537, 70001, 100003] {
        let want = vals[..size].iter().min().unwrap() + 5;
        assert_eq!(
            s.stdout(&format!("print(min_reduce(d5, size={size}, init=10**9))")),
            format!("{want}\n"),
            "{size}"
        );
    }
    // Slices of five and more values per thread fold in four parts plus a remainder.
    let big: Vec<i64> = (0..1_000_003i64).map(|i| (i * 7919) % 1009 + 3).collect();
    s.run("big = cuda.to_device((np.arange(1_000_003, dtype=np.int64) * 7919) % 1009 + 3)")
        .ok();
    assert_eq!(
        s.stdout("print(sum_reduce(big), min_reduce(big, init=10**9), max_reduce(big))"),
        format!(
            "{} {} {}\n",
            big.iter().sum::<i64>(),
            big.iter().min().unwrap(),
            big.iter().max().unwrap()
        )
    );
    // Strided views of device memory (their own kernel: contiguous inputs get one that
    // computes offsets without a stride).
    let every3: i64 = big.iter().step_by(3).sum();
    let odd_max = *big.iter().skip(1).step_by(2).max().unwrap();
    assert_eq!(
        s.stdout("print(sum_reduce(big[::3]), max_reduce(big[1::2]))"),
        format!("{every3} {odd_max}\n")
    );
    // size: only the first elements.
    let first: i64 = vals[..1000].iter().sum();
    assert_eq!(
        s.stdout("print(sum_reduce(d, size=1000))"),
        format!("{first}\n")
    );
    // init is folded in once.
    assert_eq!(
        s.stdout("print(sum_reduce(d, init=11))"),
        format!("{}\n", total + 11)
    );
    assert_eq!(s.stdout("print(sum_reduce(d, size=0, init=5))"), "5\n");
    // res and stream: the result lands in a device array, ordered on the stream.
    let fsum: f64 = halves.iter().sum();
    let out = s.stdout(
        "res = cuda.device_array(1, dtype=np.float64)\nst = cuda.stream()\n\
         r = sum_reduce(f, res=res, init=1.0, stream=st)\nst.synchronize()\n\
         print(r, res.copy_to_host().tolist())\n",
    );
    assert_eq!(out, format!("None [{:?}]\n", fsum + 1.0));
    // Host input is copied in; the reduction still matches.
    let out = s.stdout("print(sum_reduce(np.arange(10, dtype=np.float32)))");
    assert_eq!(out, "45.0\n");
}

#[test]
fn cuda_reduce_is_a_device_launch_in_the_ledger() {
    use nbcuda::device::ledger::LedgerKind;
    let (mut rt, f) = reduce_runtime();
    let before = nbcuda::device::ledger::events_since(&mut rt, usize::MAX).1;
    let x = nbcuda::arrays::NdArray::zeros(&[5000], nbcuda::arrays::dtype::DType::F64).unwrap();
    for i in 0..5000 {
        x.buf.write(i * 8, &(i as f64).to_le_bytes());
    }
    let d = nbcuda::device::api::implicit_to_device(&mut rt, &x, 0, "test").unwrap();
    let dv = nbcuda::numba_cuda::devicearray::DeviceNDArray::value(d);
    let r = nbcuda::interp::expr::call_value(&mut rt, &f, nbcuda::py::value::Args::new(vec![dv]))
        .unwrap();
    assert!(
        matches!(r, nbcuda::py::value::Value::Scalar(nbcuda::arrays::dtype::Scalar::F64(v)) if v == (0..5000).sum::<i64>() as f64)
    );
    let (events, _) = nbcuda::device::ledger::events_since(&mut rt, before);
    let kernels: Vec<_> = events
        .iter()
        .filter(|e| e.kind == LedgerKind::Kernel)
        .collect();
    assert!(
        kernels
            .iter()
            .any(|e| e.label.contains("reduce_partial_sum_reduce") && e.block[0] == 256),
        "{:?}",
        kernels.iter().map(|e| &e.label).collect::<Vec<_>>()
    );
    assert!(kernels.len() >= 2, "a block pass and a final pass");
    // The device copy of the input is not brought back: only the one-element result.
    let dtoh: Vec<_> = events
        .iter()
        .filter(|e| e.kind == LedgerKind::DtoH)
        .collect();
    assert_eq!(dtoh.len(), 1);
    assert_eq!(dtoh[0].bytes, 8);
}

fn reduce_runtime() -> (nbcuda::py::runtime::Runtime, nbcuda::py::value::Value) {
    let mut rt = bare_runtime();
    let f = decorated(
        &mut rt,
        "numba.cuda",
        "reduce",
        "def sum_reduce(a, b):\n    return a + b\n",
    );
    (rt, f)
}

fn bare_runtime() -> nbcuda::py::runtime::Runtime {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let mut rt = nbcuda::engine::session::new_runtime(
        Box::new(nbcuda::py::runtime::NullFrontend),
        Arc::new(AtomicBool::new(false)),
    );
    rt.begin_cell(1);
    rt
}

/// `module.decorator` applied to the one function defined in `src`.
fn decorated(
    rt: &mut nbcuda::py::runtime::Runtime,
    module: &str,
    decorator: &str,
    src: &str,
) -> nbcuda::py::value::Value {
    let m = nbcuda::interp::modules::import(rt, module).unwrap();
    let dec = m.get(decorator).unwrap();
    let mut body = ruff_python_parser::parse_module(src)
        .unwrap()
        .into_syntax()
        .body;
    let ruff_python_ast::Stmt::FunctionDef(def) = body.remove(0) else {
        panic!("one def expected")
    };
    let mut globals = nbcuda::py::function::Names::default();
    globals.insert(
        "cuda".into(),
        nbcuda::py::value::Value::Module(std::rc::Rc::new(nbcuda::py::value::Module::new(
            "numba.cuda",
            "",
        ))),
    );
    let f = std::rc::Rc::new(nbcuda::py::function::Function {
        name: def.name.id.as_str().into(),
        qualname: def.name.id.to_string(),
        def: std::rc::Rc::new(def),
        source: std::rc::Rc::from(src),
        origin: "Cell In[1]".into(),
        globals: std::rc::Rc::new(std::cell::RefCell::new(globals)),
        enclosing: Vec::new(),
        defaults: Vec::new(),
        kw_defaults: Vec::new(),
        doc: None,
        class_cell: Default::default(),
        is_generator: false,
        local_names: Default::default(),
        declared: Default::default(),
        attrs: Default::default(),
        compiled: Default::default(),
    });
    nbcuda::interp::expr::call_value(
        rt,
        &dec,
        nbcuda::py::value::Args::new(vec![nbcuda::py::value::Value::Object(f)]),
    )
    .unwrap()
}

#[test]
fn kernel_launches_are_ledger_entries_with_grid_block_and_duration() {
    use nbcuda::device::ledger::LedgerKind;
    use nbcuda::py::value::{Args, Value};
    let mut rt = bare_runtime();
    let k = decorated(
        &mut rt,
        "numba.cuda",
        "jit",
        "def fill(a):\n    x, y = cuda.grid(2)\n    if x < a.shape[0] and y < a.shape[1]:\n        a[x, y] = x * 100 + y\n",
    );
    let before = nbcuda::device::ledger::events_since(&mut rt, usize::MAX).1;
    let view = nbcuda::device::api::alloc(&mut rt, &[40, 30], nbcuda::arrays::dtype::DType::F64, 0)
        .unwrap();
    let d = nbcuda::numba_cuda::devicearray::DeviceNDArray::value(view);
    let Value::Object(ko) = &k else { panic!() };
    let cfg = Value::tuple(vec![
        Value::tuple(vec![Value::Int(3), Value::Int(2)]),
        Value::tuple(vec![Value::Int(16), Value::Int(16)]),
    ]);
    let launcher = ko.clone().get_item(&cfg, &mut rt).unwrap();
    nbcuda::interp::expr::call_value(&mut rt, &launcher, Args::new(vec![d])).unwrap();
    nbcuda::device::api::synchronize(&mut rt).unwrap();
    let (events, _) = nbcuda::device::ledger::events_since(&mut rt, before);
    let launch = events
        .iter()
        .find(|e| e.kind == LedgerKind::Kernel)
        .expect("a kernel entry");
    assert!(launch.label.contains("fill"), "{}", launch.label);
    assert_eq!(launch.grid, [3, 2, 1]);
    assert_eq!(launch.block, [16, 16, 1]);
    assert!(launch.duration > 0.0, "the entry carries the run time");
    assert_eq!(launch.stream, 0);
}

const PARALLEL: &str = "import numpy as np\nfrom numba import njit, prange\n\
def body(x, out, scale):\n    for i in prange(x.shape[0]):\n        t = x[i] * scale\n        if t > 50.0:\n            t = t - 50.0\n        out[i] = math.sqrt(t) + i\n\
import math\n\
par = njit(parallel=True)(body)\nser = njit(body)\n\
@njit(parallel=True)\ndef par_sum(x):\n    s = 0.0\n    for i in prange(x.shape[0]):\n        s += x[i]\n    return s\n\
@njit(parallel=True)\ndef rows(m, out):\n    for r in prange(m.shape[0]):\n        acc = 0.0\n        for c in range(m.shape[1]):\n            acc += m[r, c] * (c + 1)\n        out[r] = acc\n\
x = np.arange(200000, dtype=np.float64) / 1000.0\n";

#[test]
fn njit_parallel_prange_matches_the_serial_run_and_the_host() {
    let mut s = Session::new();
    s.run(PARALLEL).ok();
    let out = s.stdout(
        "a = np.zeros_like(x)\nb = np.zeros_like(x)\npar(x, a, 3.0)\nser(x, b, 3.0)\n\
         print(np.array_equal(a, b), a[:3].tolist(), a[-1])\n",
    );
    let want = |i: usize| {
        let mut t = (i as f64 / 1000.0) * 3.0;
        if t > 50.0 {
            t -= 50.0;
        }
        t.sqrt() + i as f64
    };
    assert_eq!(
        out,
        format!(
            "True [{:?}, {:?}, {:?}] {:?}\n",
            want(0),
            want(1),
            want(2),
            want(199999)
        )
    );
    // A scalar reduction stays serial (same result as the plain loop).
    let total: f64 = (0..200000).map(|i| i as f64 / 1000.0).sum();
    assert_eq!(s.stdout("print(par_sum(x))"), format!("{total:?}\n"));
    let out = s.stdout(
        "m = np.arange(3000, dtype=np.float64).reshape(300, 10)\no = np.zeros(300)\nrows(m, o)\nprint(o[0], o[299])\n",
    );
    let row = |r: usize| {
        (0..10)
            .map(|c| (r * 10 + c) as f64 * (c + 1) as f64)
            .sum::<f64>()
    };
    assert_eq!(out, format!("{:?} {:?}\n", row(0), row(299)));
}

#[test]
fn prange_independence_rule() {
    use nbcuda::kernel::exec::prange::independent;
    let check = |src: &str| {
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        let body = parsed.into_syntax().body;
        let ruff_python_ast::Stmt::FunctionDef(def) = &body[0] else {
            panic!()
        };
        let lp = def
            .body
            .iter()
            .find_map(|s| match s {
                ruff_python_ast::Stmt::For(f) => Some(f.clone()),
                _ => None,
            })
            .unwrap();
        independent(&def.body, &lp)
    };
    assert!(check(
        "def f(a, o):\n    for i in prange(10):\n        t = a[i]\n        o[i] = t * 2\n"
    ));
    assert!(check(
        "def f(a, o):\n    for i in prange(10):\n        o[i] += a[i]\n"
    ));
    assert!(
        !check("def f(a):\n    s = 0\n    for i in prange(10):\n        s += a[i]\n    return s\n"),
        "reduction"
    );
    assert!(
        !check("def f(a, o):\n    for i in prange(10):\n        o[i] = 1\n    return i\n"),
        "loop variable used after"
    );
    assert!(!check("def f(a, o):\n    for i in prange(10):\n        if a[i] < 0:\n            break\n        o[i] = 1\n"), "break");
    assert!(check("def f(a, o):\n    for i in prange(10):\n        for j in range(3):\n            if j > 1:\n                break\n        o[i] = 1\n"), "inner break");
    assert!(
        !check("def f(a, o):\n    for i in prange(10):\n        return 1\n"),
        "return"
    );
}

#[test]
fn njit_rejects_device_arrays_naming_the_argument_and_the_fix() {
    let mut s = Session::new();
    s.run("from numba import njit, cuda\nimport numpy as np\n@njit\ndef total(values, scale):\n    s = 0.0\n    for i in range(values.size):\n        s += values[i] * scale\n    return s\nd = cuda.to_device(np.ones(4))\n").ok();
    let c = s.run("total(d, 2.0)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    let e = c.evalue();
    assert!(e.contains("'values'"), "{e}");
    assert!(e.contains("copy_to_host()"), "{e}");
    assert!(e.contains("@cuda.jit"), "{e}");
    assert_eq!(s.stdout("print(total(d.copy_to_host(), 2.0))"), "8.0\n");
}
