//! Dispatchers end to end: `@vectorize` (cpu and cuda targets), `@cuda.jit` launch
//! configurations and host-array launches, `@njit`, `cuda.reduce`, and their errors.

mod common;
mod compiler_support;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use common::Session;
use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::py::runtime::Runtime;
use nbcuda::py::runtime::{Frontend, StreamName};
use nbcuda::py::value::{Args, Value};
use serde_json::{Map, Value as Json};

#[derive(Clone, Default)]
struct Out(Rc<RefCell<(String, String)>>);
impl Frontend for Out {
    fn stream(&mut self, name: StreamName, text: &str) {
        let mut o = self.0.borrow_mut();
        match name {
            StreamName::Stdout => o.0.push_str(text),
            StreamName::Stderr => o.1.push_str(text),
        }
    }
    fn display(&mut self, _: Map<String, Json>, _: Map<String, Json>, _: Option<&str>, _: bool) {}
    fn clear_output(&mut self, _: bool) {}
    fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
        Err("no input".into())
    }
}

fn runtime() -> (Runtime, Out) {
    let out = Out::default();
    let rt = nbcuda::engine::session::new_runtime(
        Box::new(out.clone()),
        Arc::new(AtomicBool::new(false)),
    );
    (rt, out)
}

fn module_fn(rt: &mut Runtime, module: &str, name: &str) -> Value {
    let m = nbcuda::interp::modules::import(rt, module).unwrap();
    m.get(name)
        .unwrap_or_else(|| panic!("{module}.{name} missing"))
}

fn call(rt: &mut Runtime, f: &Value, args: Args) -> Result<Value, nbcuda::py::error::PyErr> {
    nbcuda::interp::expr::call_value(rt, f, args)
}

fn decorate(rt: &mut Runtime, decorator: Value, src: &str) -> Value {
    let f = function(src);
    call(rt, &decorator, Args::new(vec![Value::Object(f)])).unwrap()
}

fn sigs(s: &[&str]) -> Value {
    Value::list(s.iter().map(|x| Value::str(x)).collect())
}

#[test]
fn cuda_vectorize_add_on_host_arrays_returns_host_result() {
    let (mut rt, _) = runtime();
    let vec = module_fn(&mut rt, "numba.cuda", "vectorize");
    let dec = call(
        &mut rt,
        &vec,
        Args::new(vec![sigs(&["float32(float32, float32)"])]),
    )
    .unwrap();
    let add = decorate(&mut rt, dec, "def add_ufunc(x, y):\n    return x + y\n");
    let xs: Vec<f32> = (0..5000).map(|i| i as f32 * 0.25).collect();
    let ys: Vec<f32> = (0..5000).map(|i| 100.0 - i as f32).collect();
    let r = call(
        &mut rt,
        &add,
        Args::new(vec![
            Value::Array(Box::new(f32_array(&xs))),
            Value::Array(Box::new(f32_array(&ys))),
        ]),
    )
    .unwrap();
    let Value::Array(ref r) = r else {
        panic!("expected an array")
    };
    assert_eq!(r.dtype, DType::F32);
    let want: Vec<f64> = xs.iter().zip(&ys).map(|(a, b)| (a + b) as f64).collect();
    assert_eq!(values(r), want);
}

#[test]
fn cuda_vectorize_requires_exact_dtypes() {
    let (mut rt, _) = runtime();
    let vec = module_fn(&mut rt, "numba.cuda", "vectorize");
    let dec = call(
        &mut rt,
        &vec,
        Args::new(vec![sigs(&["float32(float32, float32)"])]),
    )
    .unwrap();
    let add = decorate(&mut rt, dec, "def add_ufunc(x, y):\n    return x + y\n");
    let e = call(
        &mut rt,
        &add,
        Args::new(vec![
            Value::Array(Box::new(f64_array(&[1.0]))),
            Value::Array(Box::new(f64_array(&[2.0]))),
        ]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "TypeError");
    assert!(e.message.starts_with(
        "No matching version.  GPU ufunc requires array arguments to have the exact types."
    ));
}

#[test]
fn cuda_vectorize_scalars_and_broadcasting() {
    let (mut rt, _) = runtime();
    let vec = module_fn(&mut rt, "numba.cuda", "vectorize");
    let dec = call(
        &mut rt,
        &vec,
        Args::new(vec![sigs(&["float64(float64, float64)"])]),
    )
    .unwrap();
    let f = decorate(
        &mut rt,
        dec,
        "def pulse(i, period):\n    return max(math.sin(i / period) - 0.3, 0.0)\n",
    );
    // All scalars: a one-element array.
    let r = call(
        &mut rt,
        &f,
        Args::new(vec![Value::Float(1.0), Value::Int(2)]),
    )
    .unwrap();
    let Value::Array(ref r) = r else { panic!() };
    assert_eq!(r.shape, vec![1]);
    assert!((values(r)[0] - ((0.5f64).sin() - 0.3).max(0.0)).abs() < 1e-15);
    // Array with a Python scalar broadcast against it.
    let xs: Vec<f64> = (0..300).map(|i| i as f64).collect();
    let r = call(
        &mut rt,
        &f,
        Args::new(vec![
            Value::Array(Box::new(f64_array(&xs))),
            Value::Float(7.0),
        ]),
    )
    .unwrap();
    let Value::Array(ref r) = r else { panic!() };
    let want: Vec<f64> = xs
        .iter()
        .map(|i| ((i / 7.0).sin() - 0.3).max(0.0))
        .collect();
    assert_eq!(values(r), want);
    // (3, 1) against (4,) broadcasts to (3, 4).
    let a = array_of(&[3, 1], DType::F64, &[1.0, 2.0, 3.0]);
    let b = array_of(&[4], DType::F64, &[1.0, 2.0, 4.0, 8.0]);
    let r = call(
        &mut rt,
        &f,
        Args::new(vec![Value::Array(Box::new(a)), Value::Array(Box::new(b))]),
    )
    .unwrap();
    let Value::Array(ref r) = r else { panic!() };
    assert_eq!(r.shape, vec![3, 4]);
    let mut want = Vec::new();
    for x in [1.0f64, 2.0, 3.0] {
        for y in [1.0f64, 2.0, 4.0, 8.0] {
            want.push(((x / y).sin() - 0.3).max(0.0));
        }
    }
    assert_eq!(values(r), want);
    // Shapes that do not broadcast: NumPy's error, shapes written as tuples.
    let e = call(
        &mut rt,
        &f,
        Args::new(vec![
            Value::Array(Box::new(f64_array(&[1.0, 2.0, 3.0]))),
            Value::Array(Box::new(f64_array(&[1.0, 2.0, 3.0, 4.0]))),
        ]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "ValueError");
    assert_eq!(
        e.message.trim_end(),
        "operands could not be broadcast together with shapes (3,) (4,)"
    );
}

#[test]
fn cpu_vectorize_lazy_and_out() {
    let (mut rt, _) = runtime();
    let vec = module_fn(&mut rt, "numba", "vectorize");
    let f = decorate(&mut rt, vec, "def scale(x, k):\n    return x * k\n");
    let xs = [1.0f32, 2.0, 3.5];
    let r = call(
        &mut rt,
        &f,
        Args::new(vec![
            Value::Array(Box::new(f32_array(&xs))),
            Value::Scalar(Scalar::F32(2.0)),
        ]),
    )
    .unwrap();
    let Value::Array(ref r) = r else { panic!() };
    assert_eq!(r.dtype, DType::F32);
    assert_eq!(values(r), vec![2.0, 4.0, 7.0]);
    let out = f32_array(&[0.0; 3]);
    call(
        &mut rt,
        &f,
        Args::new(vec![
            Value::Array(Box::new(f32_array(&xs))),
            Value::Scalar(Scalar::F32(3.0)),
        ])
        .with_kw("out", Value::Array(Box::new(out.clone()))),
    )
    .unwrap();
    assert_eq!(values(&out), vec![3.0, 6.0, 10.5]);
}

#[test]
fn kernel_launch_on_host_arrays_copies_back_and_warns() {
    let (mut rt, out) = runtime();
    let jit = module_fn(&mut rt, "numba.cuda", "jit");
    let k = decorate(&mut rt, jit, "def increment_by_one(an_array):\n    pos = cuda.grid(1)\n    if pos < an_array.size:\n        an_array[pos] += 1\n");
    let a = f32_array(&[1.0, 2.0, 3.0]);
    let Value::Object(ko) = &k else { panic!() };
    let conf = ko
        .clone()
        .get_item(&Value::tuple(vec![Value::Int(1), Value::Int(32)]), &mut rt)
        .unwrap();
    call(
        &mut rt,
        &conf,
        Args::new(vec![Value::Array(Box::new(a.clone()))]),
    )
    .unwrap();
    assert_eq!(values(&a), vec![2.0, 3.0, 4.0]);
    assert!(out.0.borrow().1.contains("NumbaPerformanceWarning: Host array used in CUDA kernel will incur copy overhead to/from device."));
}

#[test]
fn njit_and_reduce() {
    let (mut rt, _) = runtime();
    let njit = module_fn(&mut rt, "numba", "njit");
    let f = decorate(&mut rt, njit, "def total(a):\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += a[i]\n    return s\n");
    let r = call(
        &mut rt,
        &f,
        Args::new(vec![Value::Array(Box::new(f64_array(&[1.5, 2.5, 3.0])))]),
    )
    .unwrap();
    assert!(matches!(r, Value::Float(x) if x == 7.0));
    let red = module_fn(&mut rt, "numba.cuda", "reduce");
    let r = decorate(&mut rt, red, "def sum_reduce(a, b):\n    return a + b\n");
    let xs: Vec<f32> = (1..=100).map(|i| i as f32).collect();
    let v = call(
        &mut rt,
        &r,
        Args::new(vec![Value::Array(Box::new(f32_array(&xs)))]),
    )
    .unwrap();
    assert!(matches!(v, Value::Scalar(Scalar::F32(x)) if x == 5050.0));
    let v = call(
        &mut rt,
        &r,
        Args::new(vec![Value::Array(Box::new(f32_array(&[])))]).with_kw("init", Value::Int(3)),
    )
    .unwrap();
    assert!(matches!(v, Value::Scalar(Scalar::F32(x)) if x == 3.0));
}

#[test]
fn launch_configuration_errors() {
    let mut s = Session::new();
    s.run("from numba import cuda\n@cuda.jit\ndef k(a):\n    a[0] = 1\n")
        .ok();
    let c = s.run("k(1)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().starts_with("Kernel launch configuration was not specified. Use the syntax: kernel_function[blockspergrid, threadsperblock](arg0, ...)"));
    let c = s.run("k[1]");
    assert_eq!(c.evalue(), "must specify at least the griddim and blockdim");
    let c = s.run("k[1.5, 32]");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    let c = s.run("cuda.grid(1)");
    assert!(
        c.evalue()
            .contains("can only be used inside a @cuda.jit kernel"),
        "{}",
        c.evalue()
    );
}

#[test]
fn njit_in_a_session_and_kernel_print() {
    let mut s = Session::new();
    let out = s.eval("from numba import njit\n@njit\ndef tri(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\ntri(10)");
    assert_eq!(out, "45");
    let stdout = s.stdout("from numba import cuda\n@cuda.jit\ndef hello(x):\n    print('thread', cuda.threadIdx.x, x)\nhello[1, 3](2.5)\n");
    assert_eq!(
        stdout,
        "thread 0 2.500000\nthread 1 2.500000\nthread 2 2.500000\n"
    );
}

#[test]
fn ufunc_calling_a_device_function_that_returns_a_tuple() {
    let (mut rt, _) = runtime();
    let g = globals();
    let fs = functions(
        "def polar_to_cartesian(rho, theta):\n    x = rho * math.cos(theta)\n    y = rho * math.sin(theta)\n    return x, y\n\ndef polar_distance(rho1, theta1, rho2, theta2):\n    x1, y1 = polar_to_cartesian(rho1, theta1)\n    x2, y2 = polar_to_cartesian(rho2, theta2)\n    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n",
        &g,
    );
    let jit = module_fn(&mut rt, "numba.cuda", "jit");
    let dev = call(
        &mut rt,
        &jit,
        Args::new(vec![]).with_kw("device", Value::Bool(true)),
    )
    .unwrap();
    let p2c = call(
        &mut rt,
        &dev,
        Args::new(vec![Value::Object(fs["polar_to_cartesian"].clone())]),
    )
    .unwrap();
    g.borrow_mut().insert("polar_to_cartesian".into(), p2c);
    let vec = module_fn(&mut rt, "numba.cuda", "vectorize");
    let dec = call(
        &mut rt,
        &vec,
        Args::new(vec![sigs(&["float32(float32, float32, float32, float32)"])]),
    )
    .unwrap();
    let pd = call(
        &mut rt,
        &dec,
        Args::new(vec![Value::Object(fs["polar_distance"].clone())]),
    )
    .unwrap();
    let n = 1000;
    let r1: Vec<f32> = (0..n).map(|i| 1.0 + (i % 13) as f32 * 0.1).collect();
    let t1: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.3).collect();
    let r2: Vec<f32> = (0..n).map(|i| 0.5 + (i % 5) as f32 * 0.2).collect();
    let t2: Vec<f32> = (0..n).map(|i| (i % 11) as f32 * 0.2).collect();
    let args: Vec<Value> = [&r1, &t1, &r2, &t2]
        .iter()
        .map(|v| Value::Array(Box::new(f32_array(v))))
        .collect();
    let Value::Array(ref out) = call(&mut rt, &pd, Args::new(args)).unwrap() else {
        panic!()
    };
    // Numba's typing: float32 trig stays float32; `** 2` and `** 0.5` with Python numbers go to float64.
    let want: Vec<f64> = (0..n)
        .map(|i| {
            let (x1, y1) = (r1[i] * t1[i].cos(), r1[i] * t1[i].sin());
            let (x2, y2) = (r2[i] * t2[i].cos(), r2[i] * t2[i].sin());
            let dx = (x1 - x2) as f64;
            let dy = (y1 - y2) as f64;
            (dx.powf(2.0) + dy.powf(2.0)).powf(0.5) as f32 as f64
        })
        .collect();
    assert_eq!(values(out), want);
}

#[test]
fn shared_matrix_multiply_in_a_session_free_setup() {
    let (mut rt, _) = runtime();
    let g = globals();
    g.borrow_mut().insert("TPB".into(), Value::Int(4));
    let numba = nbcuda::interp::modules::import(&mut rt, "numba").unwrap();
    g.borrow_mut()
        .insert("float32".into(), numba.get("float32").unwrap());
    let fs = functions(
        "def fast_matmul(A, B, C):\n    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)\n    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)\n    x, y = cuda.grid(2)\n    tx = cuda.threadIdx.x\n    ty = cuda.threadIdx.y\n    bpg = cuda.gridDim.x\n    tmp = 0.\n    for i in range(bpg):\n        sA[tx, ty] = 0\n        sB[tx, ty] = 0\n        if x < A.shape[0] and (ty + i * TPB) < A.shape[1]:\n            sA[tx, ty] = A[x, ty + i * TPB]\n        if y < B.shape[1] and (tx + i * TPB) < B.shape[0]:\n            sB[tx, ty] = B[tx + i * TPB, y]\n        cuda.syncthreads()\n        for j in range(TPB):\n            tmp += sA[tx, j] * sB[j, ty]\n        cuda.syncthreads()\n    if x < C.shape[0] and y < C.shape[1]:\n        C[x, y] = tmp\n",
        &g,
    );
    let jit = module_fn(&mut rt, "numba.cuda", "jit");
    let k = call(
        &mut rt,
        &jit,
        Args::new(vec![Value::Object(fs["fast_matmul"].clone())]),
    )
    .unwrap();
    let n = 10;
    let av: Vec<f64> = (0..n * n).map(|i| (i % 9) as f64 - 4.0).collect();
    let bv: Vec<f64> = (0..n * n).map(|i| (i % 5) as f64 * 0.5).collect();
    let a = array_of(&[n, n], DType::F32, &av);
    let b = array_of(&[n, n], DType::F32, &bv);
    let c = array_of(&[n, n], DType::F32, &vec![0.0; n * n]);
    let Value::Object(ko) = &k else { panic!() };
    let grid = Value::tuple(vec![Value::Int(3), Value::Int(3)]);
    let block = Value::tuple(vec![Value::Int(4), Value::Int(4)]);
    let conf = ko
        .clone()
        .get_item(&Value::tuple(vec![grid, block]), &mut rt)
        .unwrap();
    call(
        &mut rt,
        &conf,
        Args::new(vec![
            Value::Array(Box::new(a)),
            Value::Array(Box::new(b)),
            Value::Array(Box::new(c.clone())),
        ]),
    )
    .unwrap();
    let mut want = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f64;
            for k in 0..n {
                s += av[i * n + k] * bv[k * n + j];
            }
            want[i * n + j] = s;
        }
    }
    assert_eq!(values(&c), want);
}

#[test]
fn guvectorize_row_sums_and_elementwise_core() {
    let (mut rt, _) = runtime();
    let gu = module_fn(&mut rt, "numba", "guvectorize");
    let dec = call(
        &mut rt,
        &gu,
        Args::new(vec![
            sigs(&["(float64[:], float64[:])"]),
            Value::str("(n)->()"),
        ]),
    )
    .unwrap();
    let f = decorate(&mut rt, dec, "def row_sum(x, res):\n    s = 0.0\n    for i in range(x.shape[0]):\n        s += x[i]\n    res[0] = s\n");
    let av: Vec<f64> = (0..12).map(|i| i as f64).collect();
    let a = array_of(&[3, 4], DType::F64, &av);
    let Value::Array(ref r) =
        call(&mut rt, &f, Args::new(vec![Value::Array(Box::new(a))])).unwrap()
    else {
        panic!()
    };
    assert_eq!(r.shape, vec![3]);
    assert_eq!(values(r), vec![6.0, 22.0, 38.0]);
    let dec = call(
        &mut rt,
        &gu,
        Args::new(vec![
            sigs(&["(float32[:], float32, float32[:])"]),
            Value::str("(n),()->(n)"),
        ]),
    )
    .unwrap();
    let g = decorate(
        &mut rt,
        dec,
        "def scale(x, k, out):\n    for i in range(x.shape[0]):\n        out[i] = x[i] * k\n",
    );
    let Value::Array(ref r) = call(
        &mut rt,
        &g,
        Args::new(vec![
            Value::Array(Box::new(f32_array(&[1.0, 2.0, 3.0]))),
            Value::Float(2.5),
        ]),
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!(values(r), vec![2.5, 5.0, 7.5]);
    let e = call(
        &mut rt,
        &gu,
        Args::new(vec![sigs(&["(float64[:], float64[:])"]), Value::str("(n)")]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "ValueError");
}

#[test]
fn inspect_cuda_lists_compiled_specialisations() {
    let mut s = Session::new();
    s.run("from numba import cuda\n@cuda.jit('void(float32[:], float32)')\ndef scale(a, k):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= k\n").ok();
    let out = s.eval("src = scale.inspect_cuda()\nlen(src)");
    assert_eq!(out, "1");
    let text = s.eval("list(src.values())[0]");
    assert!(
        text.contains("extern \\\"C\\\" __global__ void nbcuda_scale(nb_arr arg0, float arg1, unsigned long long *nb_fault)")
            || text.contains("extern \"C\" __global__ void nbcuda_scale(nb_arr arg0, float arg1, unsigned long long *nb_fault)"),
        "{text}"
    );
    let c = s.run("scale[1, 32](1.0, 2.0)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

#[test]
fn eager_signature_kernel_casts_python_scalars() {
    let (mut rt, _) = runtime();
    let jit = module_fn(&mut rt, "numba.cuda", "jit");
    let dec = call(
        &mut rt,
        &jit,
        Args::new(vec![Value::str("void(float32[:], float32)")]),
    )
    .unwrap();
    let k = decorate(
        &mut rt,
        dec,
        "def scale(a, k):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= k\n",
    );
    let a = f32_array(&[1.0, 2.0, 3.0]);
    let Value::Object(ko) = &k else { panic!() };
    let conf = ko
        .clone()
        .get_item(&Value::tuple(vec![Value::Int(1), Value::Int(4)]), &mut rt)
        .unwrap();
    call(
        &mut rt,
        &conf,
        Args::new(vec![Value::Array(Box::new(a.clone())), Value::Int(3)]),
    )
    .unwrap();
    assert_eq!(values(&a), vec![3.0, 6.0, 9.0]);
    let e = call(
        &mut rt,
        &conf,
        Args::new(vec![
            Value::Array(Box::new(f64_array(&[1.0]))),
            Value::Int(3),
        ]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "TypeError");
    assert!(
        e.message.contains("No matching definition"),
        "{}",
        e.message
    );
}

#[test]
fn typing_errors_show_the_kernel_line_in_the_traceback() {
    let mut s = Session::new();
    s.run("from numba import cuda\n@cuda.jit\ndef bad(x):\n    i = cuda.grid(1)\n    y = undefined_thing + 1\n").ok();
    let c = s.run("bad[1, 1](1.0)");
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
    let tb = c.traceback();
    assert!(tb.contains("y = undefined_thing + 1"), "{tb}");
    assert!(tb.contains("bad[1, 1](1.0)"), "{tb}");
    assert!(tb.contains("^^^"), "{tb}");
}
