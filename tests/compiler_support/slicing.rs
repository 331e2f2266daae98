//! Kernels that slice, reshape and pass array views: run on the CPU device by
//! `compiler_features` and compiled by NVRTC through [`super::catalog`].

use nbcuda::arrays::dtype::DType;
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;

use super::arr1;

/// 1-D reads through literal-step slices, negative bounds, clamping, an empty slice and
/// a slice of a slice.
pub const READS: &str = "def reads(a, out):
    if cuda.grid(1) == 0:
        v = a[2:8:2]
        r = a[::-1]
        t = a[-3:]
        u = a[7:1:-3]
        w = a[5:100]
        e = a[8:2]
        z = r[1:4][::-1]
        s = a[1:a.size - 1]
        out[0] = v.shape[0]
        out[1] = v[0]
        out[2] = v[2]
        out[3] = v[-1]
        out[4] = r[0]
        out[5] = r.size
        out[6] = t[0]
        out[7] = len(t)
        out[8] = u[0]
        out[9] = u[1]
        out[10] = u.size
        out[11] = w.size
        out[12] = w[4]
        out[13] = e.size
        out[14] = z[0]
        out[15] = z[2]
        out[16] = s[s.shape[0] - 1]
";

/// Writes through an even-index view and a reversed odd-index view.
pub const WRITES: &str = "def writes(a):
    i = cuda.grid(1)
    ev = a[::2]
    od = a[-1::-2]
    if i < ev.size:
        ev[i] = i * 10
    if i < od.size:
        od[i] = -i
";

/// Bounds and step from scalar arguments: the step's sign is known only at run time.
pub const RUNTIME_STEP: &str = "def runtime_step(a, out, lo, hi, st):
    v = a[lo:hi:st]
    out[0] = v.size
    for j in range(v.shape[0]):
        out[j + 1] = v[j]
";

/// Rows handed to a device function, a column, and a strided 2-D block.
pub const ROWS: &str = "def copy_twice(src, dst):
    for j in range(dst.shape[0]):
        dst[j] = src[j] * 2

def rows(a, out, cols, blk):
    i = cuda.grid(1)
    if i < a.shape[0]:
        copy_twice(a[i, :], out[i, :])
    if i < a.shape[1]:
        c = a[:, i]
        s = 0
        for k in range(c.shape[0]):
            s += c[k]
        cols[i] = s
    if i == 0:
        b = a[1:3, ::-2]
        for x in range(b.shape[0]):
            for y in range(b.shape[1]):
                blk[x, y] = b[x, y]
";

/// Atomics whose array is a slice: compare_and_swap on element 0 of `res[gid:]`, adds
/// into a sub-range and into the last element through a reversed view.
pub const ATOMICS: &str = "def atomics(res, old, ary, fill, bins):
    gid = cuda.grid(1)
    if gid < res.size:
        old[gid] = cuda.atomic.compare_and_swap(res[gid:], fill, ary[gid])
    cuda.atomic.add(bins[1:4], gid % 3, 1)
    cuda.atomic.add(bins[::-1], 0, 1)
";

/// Views of dynamic shared memory alias it: reads and writes through them are seen
/// through the array itself.
pub const DYN_SHARED: &str = "def dyn_shared(out):
    sm = cuda.shared.array(0, dtype=np.int32)
    t = cuda.threadIdx.x
    sm[t] = t
    cuda.syncthreads()
    if t == 0:
        head = sm[0:2]
        odd = sm[1::2]
        back = sm[::-1]
        out[0] = head[1]
        out[1] = odd[1]
        out[2] = back[0]
        out[3] = odd.size
        out[4] = back.size
        back[1] = 100
        odd[0] = 50
    cuda.syncthreads()
    out[5 + t] = sm[t]
";

/// An index past a view's end that is still inside the base array.
pub const OOB_WRITE: &str = "def oob_write(a):
    v = a[2:5]
    v[cuda.threadIdx.x] = 1.0
";

pub const OOB_READ: &str = "def oob_read(a, out):
    v = a[1:, ::2]
    out[0] = v[-1, -1]
    out[1] = v[cuda.threadIdx.x, 0]
";

/// reshape of a C-contiguous array: a literal shape with -1, separate int arguments,
/// and a run-time length.
pub const RESHAPE: &str = "def reshape(a, b, out, out2, flat, n):
    y = a.reshape((3, -1))
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            out[i, j] = y[i, j]
    z = b.reshape(4, 3)
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            out2[i, j] = z[i, j]
    f = b.reshape(n)
    for i in range(f.size):
        flat[i] = f[i]
";

pub fn sources() -> Vec<(&'static str, &'static str, Vec<Ty>)> {
    let a = arr1;
    let f64s = |n| a(DType::F64, n);
    vec![
        ("reads", READS, vec![f64s(1), f64s(1)]),
        ("writes", WRITES, vec![a(DType::I64, 1)]),
        (
            "runtime_step",
            RUNTIME_STEP,
            vec![
                f64s(1),
                f64s(1),
                Ty::Scalar(DType::I64),
                Ty::Scalar(DType::I64),
                Ty::Scalar(DType::I64),
            ],
        ),
        (
            "rows",
            ROWS,
            vec![
                a(DType::I32, 2),
                a(DType::I32, 2),
                a(DType::I32, 1),
                a(DType::I32, 2),
            ],
        ),
        (
            "atomics",
            ATOMICS,
            vec![
                a(DType::I32, 1),
                a(DType::I32, 1),
                a(DType::I32, 1),
                Ty::Scalar(DType::I32),
                a(DType::I32, 1),
            ],
        ),
        ("dyn_shared", DYN_SHARED, vec![a(DType::I32, 1)]),
        ("oob_write", OOB_WRITE, vec![f64s(1)]),
        ("oob_read", OOB_READ, vec![f64s(2), f64s(1)]),
        (
            "reshape",
            RESHAPE,
            vec![
                f64s(1),
                f64s(2),
                f64s(2),
                f64s(2),
                f64s(1),
                Ty::Scalar(DType::I64),
            ],
        ),
    ]
}

pub fn all() -> Vec<(String, CompiledKernel)> {
    sources()
        .into_iter()
        .map(|(name, src, params)| super::catalog::compile(name, src, &params, |_| {}))
        .collect()
}

/// One of [`sources`], compiled.
pub fn get(name: &str) -> CompiledKernel {
    let (_, src, params) = sources()
        .into_iter()
        .find(|(n, _, _)| *n == name)
        .unwrap_or_else(|| panic!("no slicing kernel {name}"));
    super::catalog::compile(name, src, &params, |_| {}).1
}
