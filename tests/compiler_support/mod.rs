//! Helpers for compiler tests: build `Function`s from source, host arrays, and launches on
//! host buffers through `execute_on_cpu`.
#![allow(dead_code)]

pub mod catalog;
pub mod slicing;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::kernel::abi::{ArgMem, ArrayArg, KernelArg, KernelFault, LaunchConfig, LaunchOutput};
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;
use nbcuda::py::function::Function;
use nbcuda::py::value::{Module, Value};
use ruff_python_ast::Stmt;

pub const ORIGIN: &str = "Cell In[1]";

/// Globals every test kernel sees: `math`, `cuda`, `np`, `numba`.
pub fn globals() -> nbcuda::py::function::Scope {
    let mut g = nbcuda::py::function::Names::default();
    g.insert(
        "math".into(),
        Value::Module(Rc::new(Module::new("math", ""))),
    );
    g.insert(
        "cuda".into(),
        Value::Module(Rc::new(Module::new("numba.cuda", ""))),
    );
    g.insert(
        "np".into(),
        Value::Module(Rc::new(Module::new("numpy", ""))),
    );
    g.insert(
        "numba".into(),
        Value::Module(Rc::new(Module::new("numba", ""))),
    );
    Rc::new(RefCell::new(g))
}

/// Every `def` in `src`, by name, sharing one globals scope (so they can call each other
/// once wrapped as device functions with [`device`]).
pub fn functions(
    src: &str,
    globals: &nbcuda::py::function::Scope,
) -> HashMap<String, Rc<Function>> {
    let parsed = ruff_python_parser::parse_module(src).expect("test source parses");
    let source: Rc<str> = Rc::from(src);
    let mut out = HashMap::new();
    for s in parsed.into_syntax().body {
        if let Stmt::FunctionDef(def) = s {
            let name = def.name.id.to_string();
            let f = Rc::new(Function {
                name: name.as_str().into(),
                qualname: name.clone(),
                def: Rc::new(def),
                source: source.clone(),
                origin: ORIGIN.into(),
                globals: globals.clone(),
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
            out.insert(name, f);
        }
    }
    out
}

/// The single function defined in `src`.
pub fn function(src: &str) -> Rc<Function> {
    let g = globals();
    let fs = functions(src, &g);
    assert_eq!(fs.len(), 1, "one def expected");
    fs.into_values().next().unwrap()
}

pub fn arr1(dtype: DType, ndim: usize) -> Ty {
    Ty::Array {
        dtype,
        ndim,
        layout: nbcuda::kernel::types::Layout::A,
    }
}

pub fn kernel(src: &str, params: &[Ty]) -> CompiledKernel {
    let f = function(src);
    match nbcuda::numba::compile::compile_function(&f, params, false) {
        Ok(k) => k,
        Err(e) => panic!("compile failed: {}", e.plain_traceback()),
    }
}

/// [`kernel`], which the JIT tier must compile (the test fails naming why not).
pub fn native(src: &str, params: &[Ty]) -> CompiledKernel {
    let k = kernel(src, params);
    assert!(
        nbcuda::kernel::jit::code_for(&k.ir).is_some(),
        "not compiled: {:?}",
        nbcuda::kernel::jit::unsupported(&k.ir)
    );
    k
}

pub fn compile_err(src: &str, params: &[Ty]) -> nbcuda::py::error::PyErr {
    let f = function(src);
    match nbcuda::numba::compile::compile_function(&f, params, false) {
        Ok(_) => panic!("expected a compile error"),
        Err(e) => e,
    }
}

pub fn f32_array(v: &[f32]) -> NdArray {
    let a = NdArray::zeros(&[v.len()], DType::F32).unwrap();
    for (i, x) in v.iter().enumerate() {
        a.buf.write(i * 4, &x.to_le_bytes());
    }
    a
}
pub fn f64_array(v: &[f64]) -> NdArray {
    let a = NdArray::zeros(&[v.len()], DType::F64).unwrap();
    for (i, x) in v.iter().enumerate() {
        a.buf.write(i * 8, &x.to_le_bytes());
    }
    a
}
pub fn array_of(shape: &[usize], dtype: DType, vals: &[f64]) -> NdArray {
    let a = NdArray::zeros(shape, dtype).unwrap();
    let isz = dtype.itemsize();
    for (i, x) in vals.iter().enumerate() {
        a.buf
            .write(i * isz, &Scalar::F64(*x).cast(dtype).to_bytes());
    }
    a
}
pub fn values(a: &NdArray) -> Vec<f64> {
    a.to_f64_vec()
}

pub fn arg(a: &NdArray) -> KernelArg {
    KernelArg::Array(ArrayArg {
        mem: ArgMem::Host(a.buf.clone()),
        offset: a.offset,
        shape: a.shape.clone(),
        strides: a.strides.clone(),
        dtype: a.dtype,
    })
}

pub fn cfg(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: 0,
    }
}

pub fn launch(
    k: &CompiledKernel,
    c: LaunchConfig,
    args: &[KernelArg],
) -> Result<LaunchOutput, KernelFault> {
    nbcuda::kernel::execute_on_cpu(k, &c, args)
}

pub fn _keep(_: Arc<()>) {}
