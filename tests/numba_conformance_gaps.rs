//! Behaviours found missing by running Numba's own CUDA tests: `view()` changing the item
//! size, copies from broadcast host arrays, single-signature kernels launched with arrays
//! of another dtype of the same size, namedtuple kernel arguments, ufuncs over more than 3
//! dimensions, uint64 literals in kernels, `print()` with more than 32 items, the record
//! dtype of xoroshiro128p states and `for v in arr:` in compiled code. Expected outputs
//! come from NumPy 2 and hardware Numba; kernels that the CUDA device would run are also
//! compiled by NVRTC through `inspect_asm()` where it is loadable.

mod common;
use common::Session;

fn setup() -> Session {
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda, vectorize\nfrom collections import namedtuple",
    )
    .ok();
    s
}

/// The kernel's generated CUDA C compiles with NVRTC (skipped where libnvrtc is absent;
/// tests/run.sh provides it).
fn compiles_for_gpu(s: &mut Session, kernel: &str) {
    if !nbcuda::numba::inspect_asm::available() {
        return;
    }
    let out = s.eval(&format!(
        "all('.entry' in p for p in {kernel}.inspect_asm().values())"
    ));
    assert_eq!(out, "True", "{kernel}'s CUDA C does not compile");
}

#[test]
fn host_view_changes_the_item_size_along_the_last_axis() {
    let mut s = setup();
    let out = s.stdout(
        "a = np.arange(12, dtype=np.int16).reshape(3, 4)\n\
         v = a.view(np.int32)\nprint(v.shape, v.strides, v.dtype)\n\
         print(a.view(np.int8).shape, a.view(np.int8).strides)\n\
         print(a.view(np.int64))\n\
         print(np.arange(6, dtype=np.int32).view(np.uint8)[:5])",
    );
    assert_eq!(
        out,
        "(3, 2) (8, 4) int32\n(3, 8) (8, 1)\n[[ 844433520132096]\n [1970350607106052]\n [3096267694080008]]\n[0 0 0 0 1]\n"
    );
    let c = s.run("a[:, ::2].view(np.int32)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().contains("the last axis must be contiguous"));
    let c = s.run("np.arange(3, dtype=np.int16).view(np.int32)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().contains("divisor of the total size in bytes"));
    // The view shares memory: a write through it shows in the original.
    let out = s.stdout("b = np.zeros(4, dtype=np.int16)\nb.view(np.int32)[1] = 65537\nprint(b)");
    assert_eq!(out, "[0 0 1 1]\n");
    // Device arrays give the same bytes as the host view.
    let out = s.stdout(
        "d = cuda.to_device(a)\n\
         print(all((d.view(t).copy_to_host() == a.view(t)).all() for t in ('i4', 'u4', 'i8', 'f8')))",
    );
    assert_eq!(out, "True\n");
}

#[test]
fn copy_to_device_takes_broadcast_host_arrays_by_their_core() {
    let mut s = setup();
    let out = s.stdout(
        "core = np.arange(6).reshape(2, 3)\n\
         def bcast(c):\n    return np.broadcast_to(c[:, None], (2, 4, 3))\n\
         dc = cuda.to_device(bcast(core))\ndf = cuda.to_device(bcast(np.asfortranarray(core)))\n\
         dc.copy_to_device(bcast(np.asfortranarray(10 * core)))\n\
         df.copy_to_device(bcast(core + 1))\n\
         print(dc.copy_to_host()[1, 3], df.copy_to_host()[0, 2])\n\
         print((dc.copy_to_host() == bcast(10 * core)).all(), (df.copy_to_host() == bcast(core + 1)).all())",
    );
    assert_eq!(out, "[30 40 50] [1 2 3]\nTrue True\n");
    // A full array does not fit the one-row core of a broadcast device array.
    let c = s.run("dc.copy_to_device(np.zeros((2, 4, 3), dtype=np.int64))");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
}

#[test]
fn a_single_signature_kernel_reads_same_size_arrays_as_its_declared_dtype() {
    let mut s = setup();
    let out = s.stdout(
        "def dec(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] -= 1\n\
         k = cuda.jit('void(int32[:])')(dec)\n\
         u = np.array([0, 5, 7], dtype=np.uint32)\nk[1, 3](u)\nprint(u)\n\
         du = cuda.to_device(np.array([1, 0], dtype=np.uint32))\nk[1, 2](du)\nprint(du.copy_to_host())",
    );
    // The int32 kernel wraps 0 to -1, whose bits read as uint32 are 4294967295.
    assert_eq!(
        out,
        "[4294967295          4          6]\n[         0 4294967295]\n"
    );
    // Another item size, or a list of signatures, still needs a matching definition.
    let c = s.run("k[1, 1](np.zeros(2, dtype=np.int64))");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    let c = s.run("kl = cuda.jit(['void(int32[:])'])(dec)\nkl[1, 1](u)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(
        c.evalue().contains("No matching definition"),
        "{}",
        c.evalue()
    );
}

#[test]
fn namedtuple_arguments_reach_kernels_with_their_fields() {
    let mut s = setup();
    let out = s.stdout(
        "Point = namedtuple('Point', ('x', 'y', 'r'))\n\
         @cuda.jit\ndef f(ri, rf, p):\n    ri[0] = p.x\n    ri[1] = p[1]\n    rf[0] = p.r\n    ri[2] = len(p)\n\
         ri = np.zeros(3, dtype=np.int64)\nrf = np.zeros(1)\n\
         f[1, 1](ri, rf, Point(1, 2, 2.5))\nprint(ri, rf)",
    );
    assert_eq!(out, "[1 2 3] [2.5]\n");
    compiles_for_gpu(&mut s, "f");
    // A name rebound in the kernel no longer has the fields.
    let c = s.run(
        "@cuda.jit\ndef g(r, p):\n    p = (5, 6, 7)\n    r[0] = p.x\n\
         g[1, 1](ri, Point(1, 2, 3))",
    );
    assert!(c.ename().is_some());
    // NumPy converts namedtuples as the tuples they are.
    let out = s.stdout(
        "P = namedtuple('P', ('x', 'y'))\nprint(np.asarray((P(1.0, 2.0), P(3.0, 4.5))))\nprint(np.asarray(P(1, 2)).dtype)",
    );
    assert_eq!(out, "[[1.  2. ]\n [3.  4.5]]\nint64\n");
}

#[test]
fn cuda_ufuncs_run_over_more_than_three_dimensions() {
    let mut s = setup();
    let out = s.stdout(
        "@vectorize(['float32(float32, float32)'], target='cuda')\ndef add(a, b):\n    return a + b\n\
         d = np.arange(4**5, dtype=np.float32).reshape((4,) * 5)\n\
         f = np.asfortranarray(d.T)\nr = add(d, f)\n\
         print(r.shape, r.sum(), r[1, 2, 3, 0, 1], r.flags.c_contiguous)\n\
         print((add(d, np.float32(1)) == d + 1).all(), (add(d[:, :, :, :, :1], d) == d[:, :, :, :, :1] + d).all())",
    );
    assert_eq!(out, "(4, 4, 4, 4, 4) 1047552.0 746.0 True\nTrue True\n");
    // Device operands must already be C-contiguous over the full shape.
    let out =
        s.stdout("dd = cuda.to_device(d)\nprint((add(dd, dd).copy_to_host() == 2 * d).all())");
    assert_eq!(out, "True\n");
    let c = s.run("add(cuda.to_device(f), dd)");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
}

#[test]
fn integer_literals_beyond_int64_are_uint64_in_kernels() {
    let mut s = setup();
    let out = s.stdout(
        "@cuda.jit\ndef lit(r, c):\n    r[0] = cuda.popc(0xFFFFFFFFFFFFFFFF)\n    c[0] = 18446744073709551615\n\
         r = np.zeros(1, dtype=np.int32)\nc = np.zeros(1, dtype=np.uint64)\nlit[1, 1](r, c)\nprint(r[0], c[0])",
    );
    assert_eq!(out, "64 18446744073709551615\n");
    compiles_for_gpu(&mut s, "lit");
}

#[test]
fn print_with_more_than_32_items_shows_the_raw_format_and_warns() {
    let mut s = setup();
    let c = s.run(
        "@cuda.jit\ndef many(r, x):\n    print(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23], r[24], r[25], r[26], r[27], r[28], r[29], r[30], x, 'end', r[0] > 0)\n\
         many[1, 1](np.arange(31), 1.5)\ncuda.synchronize()",
    );
    c.ok();
    let fmt = format!("{} %f %s %s\n", vec!["%lld"; 31].join(" "));
    assert_eq!(c.out.stdout, fmt);
    assert!(c.out.stderr.contains(
        "NumbaWarning: CUDA print() cannot print more than 32 items. The raw format string will be emitted by the kernel instead."
    ), "{}", c.out.stderr);
    // Compiled once: a second launch does not warn about print again (the grid-size
    // warning, Numba's too, is about the launch).
    let c = s.run("many[1, 1](cuda.to_device(np.arange(31)), 2.5)\ncuda.synchronize()");
    c.ok();
    assert!(!c.out.stderr.contains("print()"), "{}", c.out.stderr);
    compiles_for_gpu(&mut s, "many");
}

#[test]
fn xoroshiro_states_hold_numbas_record_dtype() {
    let mut s = setup();
    s.run("from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float64\nstates = create_xoroshiro128p_states(3, seed=1)")
        .ok();
    // Numba's shape, dtype and sizes for the device array.
    let out = s.stdout(
        "print(states.shape, states.size, len(states), states.itemsize, states.strides, states.nbytes)\n\
         print(repr(states.dtype), states.dtype.names)",
    );
    assert_eq!(
        out,
        "(3,) 3 3 16 (16,) 48\ndtype([('s0', '<u8'), ('s1', '<u8')], align=True) ('s0', 's1')\n"
    );
    // The host copy is a NumPy record array; repr, str, records and fields as NumPy 2
    // prints these states (seed 1 gives Numba's values).
    let out = s.stdout("h = states.copy_to_host()\nprint(repr(h))\nprint(h)\nprint(repr(h[0]))");
    let spec = "{'names': ['s0', 's1'], 'formats': ['<u8', '<u8'], 'offsets': [0, 8], 'itemsize': 16, 'aligned': True}";
    assert_eq!(
        out,
        format!(
            "array([(10451216379200822465, 10451216379200822465),\n       ( 8341117667364343960,  7824662623250379246),\n       (  809817624983272012, 15258973161149853818)],\n      dtype={spec})\n\
             [(10451216379200822465, 10451216379200822465)\n ( 8341117667364343960,  7824662623250379246)\n (  809817624983272012, 15258973161149853818)]\n\
             np.void((10451216379200822465, 10451216379200822465), dtype={spec})\n"
        )
    );
    let out = s.stdout(
        "print(h['s0'], h[2]['s1'], h['s1'].strides)\nprint(h == h[0], len(np.unique(h)))\n\
         print(len(np.unique(create_xoroshiro128p_states(10, seed=1).copy_to_host())))",
    );
    assert_eq!(
        out,
        "[10451216379200822465  8341117667364343960   809817624983272012] 15258973161149853818 (16,)\n[ True False False] 3\n10\n"
    );
    // Records compare as NumPy's do: a later subsequence start is the same states shifted.
    let out = s.stdout(
        "s3 = create_xoroshiro128p_states(10, seed=1, subsequence_start=3).copy_to_host()\n\
         s0 = create_xoroshiro128p_states(10, seed=1).copy_to_host()\n\
         np.testing.assert_array_equal(s0[3:], s3[:-3])\n\
         print(np.array_equal(s0[3:], s3[:-3]), np.array_equal(s0, s3))\n\
         try:\n    np.testing.assert_array_equal(s0, s3)\nexcept AssertionError:\n    print('differ')",
    );
    assert_eq!(out, "True False\ndiffer\n");
    // Kernels still draw from the states, also after a round trip through the host and
    // from a slice.
    let out = s.stdout(
        "@cuda.jit\ndef draw(st, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = xoroshiro128p_uniform_float64(st, i)\n\
         a = cuda.device_array(3)\nb = cuda.device_array(3)\n\
         draw[1, 3](states, a)\nback = cuda.to_device(h)\nprint(back.shape, back.dtype.names)\n\
         draw[1, 3](back, b)\nprint((a.copy_to_host() == b.copy_to_host()).all(), states[1:].shape)",
    );
    assert_eq!(out, "(3,) ('s0', 's1')\nTrue (2,)\n");
    compiles_for_gpu(&mut s, "draw");
}

#[test]
fn compiled_for_loops_iterate_over_arrays() {
    // Numba's lowering: elements of a 1-D array, rows (views) of an N-D one, slices too.
    let mut s = setup();
    let out = s.stdout(
        "from numba import njit, guvectorize\n\
         @guvectorize(['void(float64[:], float64[:])'], '(n)->()', target='cuda')\n\
         def gsum(a, out):\n    s = 0.0\n    for v in a:\n        s += v\n    out[0] = s\n\
         print(gsum(np.arange(6.0).reshape(2, 3)))\n\
         @njit\ndef total(m):\n    t = 0.0\n    for row in m:\n        for v in row:\n            t += v\n    return t\n\
         print(total(np.arange(12.0).reshape(3, 4)))\n\
         @cuda.jit\ndef count(a, out):\n    if cuda.grid(1) == 0:\n        c = 0\n        for v in a[1:]:\n            if v > 2:\n                c += 1\n        out[0] = c\n\
         o = cuda.device_array(1, dtype=np.int64)\ncount[1, 4](cuda.to_device(np.arange(6)), o)\nprint(o.copy_to_host())",
    );
    assert_eq!(out, "[ 3. 12.]\n66.0\n[3]\n");
    compiles_for_gpu(&mut s, "count");
    let c = s.run("@njit\ndef bad(x):\n    for v in 5:\n        pass\nbad(1)");
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
}
