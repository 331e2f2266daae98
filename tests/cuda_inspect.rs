//! inspect_cuda() / inspect_asm() on kernels, device functions and CUDA ufuncs. The PTX
//! half needs libnvrtc (tests/run.sh puts it on LD_LIBRARY_PATH).

mod common;
use common::Session;

const DEFS: &str = "from numba import cuda, vectorize
@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def add(a, b):
    return a + b
@cuda.jit('float32(float32)', device=True)
def sq(x):
    return x * x
@cuda.jit(device=True)
def lazy(x):
    return x + 1
";

#[test]
fn ufuncs_and_device_functions_show_one_entry_per_signature() {
    let mut s = Session::new();
    s.run(DEFS).ok();
    assert_eq!(s.eval("len(add.inspect_cuda())"), "2");
    assert_eq!(
        s.eval("sorted(add.inspect_cuda().keys())"),
        "[('float32', 'float32'), ('float64', 'float64')]"
    );
    let src = s.stdout("print(add.inspect_cuda('float64(float64, float64)'))");
    assert!(src.contains("double"), "{src}");
    assert_eq!(s.eval("len(sq.inspect_cuda())"), "1");
    let body = s.stdout("print(list(sq.inspect_cuda().values())[0])");
    assert!(body.contains("__global__ void"), "{body}");
    assert!(body.contains("float"), "{body}");
    // A device function compiled lazily has nothing standalone to show.
    let e = s.run("lazy.inspect_cuda()");
    assert_eq!(e.ename().as_deref(), Some("TypeError"));
    assert!(e.evalue().contains("no signature"), "{}", e.evalue());
}

#[test]
fn inspect_asm_returns_ptx_for_each_kind() {
    if !nbcuda::numba::inspect_asm::available() {
        // Without NVRTC the same call must explain how to install it.
        let mut s = Session::new();
        s.run(DEFS).ok();
        let e = s.run("add.inspect_asm()");
        assert_eq!(e.ename().as_deref(), Some("RuntimeError"));
        assert!(
            e.evalue().contains("nvidia-cuda-nvrtc-cu12"),
            "{}",
            e.evalue()
        );
        return;
    }
    let mut s = Session::new();
    s.run(DEFS).ok();
    s.run("@cuda.jit('void(float32[:])')\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = sq(a[i])\n").ok();
    for expr in [
        "list(k.inspect_asm().values())[0]",
        "list(sq.inspect_asm().values())[0]",
        "add.inspect_asm('float32(float32, float32)')",
    ] {
        let ptx = s.stdout(&format!("print({expr})"));
        assert!(ptx.contains(".entry "), "{expr}: {ptx}");
        assert!(ptx.contains(".target sm_80"), "{expr}: {ptx}");
    }
}
