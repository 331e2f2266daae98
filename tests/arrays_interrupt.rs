//! Long array operations watch the session's interrupt flag: with an interrupt pending they
//! stop and raise KeyboardInterrupt (consuming the request) instead of finishing.

use nbcuda::arrays::operator::{Arith, Reduce};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use nbcuda::arrays::dtype::DType;
use nbcuda::arrays::elem::cast;
use nbcuda::arrays::error::{ArrayError, ArrayErrorKind};
use nbcuda::arrays::reduce::reduce;
use nbcuda::arrays::ufunc::{binary_ufunc, elementwise_unary, Ufunc2};
use nbcuda::arrays::{interrupt, NdArray};

const N: usize = 1 << 20;

fn big() -> NdArray {
    NdArray::zeros(&[N], DType::F64).expect("8 MiB")
}

/// Run `op` with an interrupt pending and check it was reported and consumed.
#[track_caller]
fn interrupted<T>(what: &str, op: impl FnOnce() -> Result<T, ArrayError>) {
    let flag = Arc::new(AtomicBool::new(false));
    interrupt::watch(flag.clone());
    flag.store(true, Ordering::SeqCst);
    match op() {
        Err(e) => assert_eq!(e.kind, ArrayErrorKind::KeyboardInterrupt, "{what}"),
        Ok(_) => panic!("{what} ignored the interrupt"),
    }
    assert!(
        !flag.load(Ordering::SeqCst),
        "{what} left the request pending"
    );
}

#[test]
fn elementwise_reductions_casts_and_sorts_stop_on_interrupt() {
    let (a, b) = (big(), big());
    interrupted("binary ufunc", || {
        binary_ufunc(Ufunc2::Arith(Arith::Add), &a, &b, None)
    });
    interrupted("unary ufunc", || elementwise_unary(u("sin"), &a, None));
    interrupted("negative", || elementwise_unary(u("negative"), &a, None));
    let m = NdArray::zeros(&[1024, 1024], DType::F32).expect("4 MiB");
    interrupted("reduction", || reduce(Reduce::Sum, &m, Some(1)));
    interrupted("full reduction", || reduce(Reduce::Max, &a, None));
    interrupted("cast", || cast(&a, DType::F32));
}

#[test]
fn without_an_interrupt_the_operations_complete() {
    let flag = Arc::new(AtomicBool::new(false));
    interrupt::watch(flag);
    let (a, b) = (big(), big());
    assert!(binary_ufunc(Ufunc2::Arith(Arith::Add), &a, &b, None).is_ok());
    assert!(elementwise_unary(u("sin"), &a, None).is_ok());
    assert!(cast(&a, DType::F32).is_ok());
    assert!(reduce(Reduce::Sum, &a, None).is_ok());
}

#[test]
fn sorting_many_rows_stops_between_rows() {
    use nbcuda::py::runtime::Runtime;
    use nbcuda::py::value::{Args, Value};
    let flag = Arc::new(AtomicBool::new(false));
    // Creating the session's runtime registers its flag for this thread.
    let mut rt = Runtime::new(Box::new(NoFrontend), flag.clone());
    let m = NdArray::zeros(&[4096, 256], DType::F64).expect("8 MiB");
    let Some(Value::Builtin(ref sort)) = nbcuda::numpy::function("sort") else {
        panic!("np.sort is a builtin");
    };
    assert!((sort.f)(&mut rt, Args::new(vec![Value::Array(Box::new(m.clone()))])).is_ok());
    flag.store(true, Ordering::SeqCst);
    let r = (sort.f)(&mut rt, Args::new(vec![Value::Array(Box::new(m))]));
    assert_eq!(
        r.err().map(|e| e.ename.clone()).as_deref(),
        Some("KeyboardInterrupt")
    );
    assert!(!flag.load(Ordering::SeqCst));
}

struct NoFrontend;
impl nbcuda::py::runtime::Frontend for NoFrontend {
    fn stream(&mut self, _: nbcuda::py::runtime::StreamName, _: &str) {}
    fn display(
        &mut self,
        _: serde_json::Map<String, serde_json::Value>,
        _: serde_json::Map<String, serde_json::Value>,
        _: Option<&str>,
        _: bool,
    ) {
    }
    fn clear_output(&mut self, _: bool) {}
    fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
        Err("none".into())
    }
}

/// NumPy's unary ufunc of that name.
fn u(name: &str) -> nbcuda::arrays::operator::Ufunc1 {
    nbcuda::arrays::operator::Ufunc1::from_name(name).expect("a unary ufunc")
}
