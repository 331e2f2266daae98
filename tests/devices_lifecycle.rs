//! Device-array lifetime and the less common parts of the memory API, from cells: `free()`
//! and its use-after-free errors (including CuPy views and interface wrappers), views and
//! reshapes, special host memory, contexts, events, `%memory`, and the launch ledger.

mod common;
use common::Session;

const SETUP: &str = "from numba import cuda\nimport numpy as np\nimport cupy as cp\n\
@cuda.jit\ndef inc(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n";

#[test]
fn use_after_free_names_the_array_and_the_cell_for_every_alias() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    s.run("d = cuda.device_array((3, 4), dtype=np.float32)\nv = d[1:]\nc = cp.asarray(d)\nw = cuda.as_cuda_array(c)\n")
        .ok();
    s.run("d.free()").ok();
    for (expr, what) in [
        ("d[0, 0]", "the array"),
        ("v.copy_to_host()", "a view made before free()"),
        ("c + 1", "a CuPy view"),
        ("c.get()", "a CuPy view's get()"),
        ("w.copy_to_host()", "an interface wrapper"),
        ("inc[1, 4](c)", "a CuPy view passed to a kernel"),
        ("cp.asarray(c).sum()", "a CuPy view through cp.asarray"),
    ] {
        let c = s.run(expr);
        assert_eq!(c.ename().as_deref(), Some("ValueError"), "{what}: {expr}");
        let e = c.evalue();
        assert!(e.contains("shape (3, 4)"), "{what}: {e}");
        assert!(e.contains("float32"), "{what}: {e}");
        assert!(e.contains("freed by .free() in Cell In[3]"), "{what}: {e}");
    }
    let c = s.run("d.free()");
    assert_eq!(c.ename().as_deref(), Some("ValueError"), "double free");
}

#[test]
fn reshape_view_squeeze_ravel_bind_and_asarray() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    let out = s.stdout(
        "h = np.arange(6, dtype=np.float32)\nd = cuda.to_device(h)\n\
         f = d.reshape((2, 3), order='F')\nprint(f.shape, f.strides, f.is_f_contiguous(), f.copy_to_host().tolist())\n\
         u = d.view(np.int32)\nprint(u.dtype, u.copy_to_host().tolist() == h.view(np.int32).tolist())\n\
         q = cuda.to_device(np.zeros((1, 5, 1)))\nprint(q.squeeze().shape, q.squeeze(axis=0).shape)\n\
         r = d.reshape(2, 3).ravel()\nprint(r.shape, r.copy_to_host().tolist())\n\
         st = cuda.stream()\nb = d.bind(st)\nprint(b.stream == st, b.copy_to_host().tolist() == h.tolist())\n\
         a = np.asarray(d)\na[0] = 99\nprint(type(a).__name__, a.dtype, float(d[0]))\n",
    );
    assert_eq!(
        out,
        "(2, 3) (4, 8) True [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]\n\
         int32 True\n\
         (5,) (5, 1)\n\
         (6,) [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]\n\
         True True\n\
         ndarray float32 0.0\n"
    );
}

#[test]
fn special_host_memory_and_contexts() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    let out = s.stdout(
        "m = cuda.managed_array(8, dtype=np.float32)\nm[:] = 1\ninc[1, 8](m)\ncuda.synchronize()\nprint(type(m).__name__, m.tolist())\n\
         ref = np.zeros((2, 2), dtype=np.int16)\nma = cuda.mapped_array_like(ref)\npa = cuda.pinned_array_like(ref)\n\
         print(ma.shape, ma.dtype, pa.shape, pa.dtype, cuda.is_cuda_array(ma), cuda.is_cuda_array(pa))\n\
         h = np.zeros(4)\nwith cuda.mapped(h) as dh:\n    inc[1, 4](dh)\n    cuda.synchronize()\nprint(h.tolist())\n\
         print(cuda.is_available())\n",
    );
    assert_eq!(
        out,
        "ndarray [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]\n\
         (2, 2) int16 (2, 2) int16 True False\n\
         [1.0, 1.0, 1.0, 1.0]\n\
         True\n"
    );
    // close() drops the context; the device comes back on next use.
    let out = s.stdout("cuda.close()\nprint(cuda.to_device(np.ones(2)).copy_to_host().tolist())\n");
    assert_eq!(out, "[1.0, 1.0]\n");
}

#[test]
fn event_wait_orders_a_second_stream() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    let out = s.stdout(
        "s1 = cuda.stream()\ns2 = cuda.stream()\nd = cuda.to_device(np.zeros(1024), stream=s1)\n\
         for _ in range(20):\n    inc[4, 256, s1](d)\n\
         e = cuda.event()\ne.record(s1)\ne.wait(s2)\nh = d.copy_to_host(stream=s2)\ns2.synchronize()\nprint(h.min(), h.max())\n",
    );
    assert_eq!(out, "20.0 20.0\n");
}

#[test]
fn memory_magic_lists_live_arrays() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    let out = s.stdout("big = cuda.device_array((1000, 3), dtype=np.float64)\n%memory\n");
    assert!(out.contains("big"), "{out}");
    assert!(out.contains("(1000, 3)"), "{out}");
    assert!(out.contains("24000"), "{out}");
    let out = s.stdout("del big\n%memory\n");
    assert!(!out.contains("(1000, 3)"), "{out}");
}

#[test]
fn a_kernel_launch_returns_before_the_kernel_completes() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    // The bound only ends the kernel if the launch wrongly ran it to completion first.
    s.run("@cuda.jit\ndef hold(flag, out):\n    i = 0\n    while flag[0] == 0 and i < 200000000:\n        i += 1\n    out[0] = 1\n")
        .ok();
    // The kernel spins until the host sets the flag (mapped memory, visible to both), so
    // an event recorded right after the launch cannot be reached unless the launch
    // waited for the kernel.
    let out = s.stdout(
        "flag = cuda.mapped_array(1, dtype=np.int32)\nflag[0] = 0\nout = cuda.device_array(1, dtype=np.int32)\nst = cuda.stream()\n\
         hold[1, 1, st](flag, out)\ne = cuda.event()\ne.record(st)\nprint(e.query())\nflag[0] = 1\nst.synchronize()\nprint(e.query(), out.copy_to_host().tolist())\n",
    );
    assert_eq!(out, "False\nTrue [1]\n");
}

/// Threads of this process whose name says they work a stream.
fn stream_workers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|dir| {
            dir.filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                .filter(|name| name.starts_with("nbcuda-stream"))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn streams_end_with_their_last_object_and_their_work_still_completes() {
    let mut s = Session::new();
    s.run(SETUP).ok();
    // Each stream gets a worker on first use; a loop of thousands once kept them all.
    let out = s.stdout(
        "x = np.arange(1000, dtype=np.float64)\ntotal = 0.0\n\
         for i in range(3000):\n    st = cuda.stream()\n    d = cuda.to_device(x, stream=st)\n    inc[4, 256, st](d)\n    total += d.copy_to_host(stream=st).sum()\n\
         print(total)\n",
    );
    // 3000 × (sum(0..1000) + 1000), as CPython prints the float.
    assert_eq!(out, "1501500000.0\n");
    let mut left = stream_workers();
    for _ in 0..100 {
        if left < 64 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = stream_workers();
    }
    assert!(left < 64, "{left} stream workers still running");
    // Work queued on a stream whose object is gone still runs, in order, and an array's
    // bound stream (another object for the same handle) keeps ordering behind it.
    let out = s.stdout(
        "st = cuda.stream()\nd = cuda.to_device(np.zeros(1 << 16), stream=st)\n\
         for k in range(5):\n    inc[256, 256, st](d)\nt = d.bind(st).stream\ndel st\n\
         inc[256, 256, t](d)\nt.synchronize()\nprint(d.copy_to_host(stream=t).min())\n\
         st2 = cuda.stream()\ne = cuda.to_device(np.zeros(4), stream=st2)\ninc[1, 4, st2](e)\ndel st2\n\
         cuda.synchronize()\nprint(e.copy_to_host().tolist())\n",
    );
    assert_eq!(out, "6.0\n[1.0, 1.0, 1.0, 1.0]\n");
}
