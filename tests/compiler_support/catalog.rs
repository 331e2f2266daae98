//! Every kernel the compiler tests use, compiled, for the NVRTC test (each must compile
//! to PTX without warnings) and for executor tests that iterate over all of them.

use std::rc::Rc;

use nbcuda::arrays::dtype::DType;
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;
use nbcuda::py::value::Value;

use super::*;

pub fn compile(
    name: &str,
    src: &str,
    params: &[Ty],
    setup: impl Fn(&nbcuda::py::function::Scope),
) -> (String, CompiledKernel) {
    let g = globals();
    setup(&g);
    let fs = functions(src, &g);
    for (n, f) in &fs {
        if n != name {
            let d = nbcuda::numba::dispatch::CudaKernel::new(f.clone(), true, Vec::new()).unwrap();
            g.borrow_mut().insert(n.as_str().into(), Value::object(d));
        }
    }
    let k = nbcuda::numba::compile::compile_function(&fs[name], params, false)
        .unwrap_or_else(|e| panic!("{name}: {}", e.plain_traceback()));
    (name.to_string(), k)
}

fn none(_: &nbcuda::py::function::Scope) {}

pub fn all() -> Vec<(String, CompiledKernel)> {
    let a = |d: DType, n: usize| arr1(d, n);
    let mut out = vec![
        compile("increment_by_one", "def increment_by_one(an_array):\n    pos = cuda.grid(1)\n    if pos < an_array.size:\n        an_array[pos] += 1\n", &[a(DType::F32, 1)], none),
        compile("add2d", "def add2d(a, b, out):\n    x, y = cuda.grid(2)\n    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n", &[a(DType::F64, 2), a(DType::F64, 2), a(DType::F64, 2)], none),
        compile("loops", "def loops(out, n):\n    i = cuda.grid(1)\n    if i >= out.size:\n        return\n    s = 0\n    for j in range(i):\n        if j % 3 == 0:\n            continue\n        if j > n:\n            break\n        s += j\n    k = 0\n    while k < i:\n        k += 2\n    out[i] = s + k * 1000\n", &[a(DType::I64, 1), Ty::Scalar(DType::I64)], none),
        compile("block_sum", "def block_sum(a, out):\n    tmp = cuda.shared.array(128, dtype=np.float32)\n    t = cuda.threadIdx.x\n    i = cuda.grid(1)\n    tmp[t] = a[i] if i < a.size else 0.0\n    cuda.syncthreads()\n    s = 64\n    while s > 0:\n        if t < s:\n            tmp[t] += tmp[t + s]\n        cuda.syncthreads()\n        s //= 2\n    if t == 0:\n        out[cuda.blockIdx.x] = tmp[0]\n", &[a(DType::F32, 1), a(DType::F32, 1)], none),
        compile("sync_variants", "def sync_variants(out):\n    t = cuda.threadIdx.x\n    c = cuda.syncthreads_count(t % 3 == 0)\n    a = cuda.syncthreads_and(t < 100)\n    o = cuda.syncthreads_or(t == 5)\n    cuda.threadfence()\n    out[t] = c * 100 + a * 10 + o\n", &[a(DType::I32, 1)], none),
        compile("hist", "def hist(data, bins, olds):\n    i = cuda.grid(1)\n    if i < data.size:\n        olds[i] = cuda.atomic.add(bins, data[i] % 10, 1)\n        cuda.atomic.max(bins, 10, data[i])\n        cuda.atomic.min(bins, 10, data[i])\n        cuda.atomic.sub(bins, 0, 1)\n        cuda.atomic.and_(bins, 1, 7)\n        cuda.atomic.or_(bins, 1, 8)\n        cuda.atomic.xor(bins, 1, 3)\n        cuda.atomic.exch(bins, 2, 4)\n        cuda.atomic.cas(bins, 3, 0, 1)\n", &[a(DType::I32, 1), a(DType::I32, 1), a(DType::I32, 1)], none),
        compile("atomics64", "def atomics64(a, b, c):\n    i = cuda.grid(1)\n    cuda.atomic.add(a, 0, i)\n    cuda.atomic.sub(a, 1, i)\n    cuda.atomic.max(a, 2, i)\n    cuda.atomic.and_(a, 3, i)\n    cuda.atomic.exch(a, 4, i)\n    cuda.atomic.cas(a, 5, 0, i)\n    cuda.atomic.inc(b, 0, 10)\n    cuda.atomic.dec(b, 1, 10)\n    cuda.atomic.add(b, (2,), 1)\n    cuda.atomic.min(c, (0, 1), 0.5)\n", &[a(DType::I64, 1), a(DType::U64, 1), a(DType::F32, 2)], none),
        compile("float_atomics", "def float_atomics(a, vals):\n    i = cuda.grid(1)\n    if i < vals.size:\n        cuda.atomic.add(a, 0, vals[i])\n        cuda.atomic.max(a, 1, vals[i])\n        cuda.atomic.nanmax(a, 2, vals[i])\n        cuda.atomic.min(a, 3, vals[i])\n        cuda.atomic.nanmin(a, 4, vals[i])\n        cuda.atomic.sub(a, 5, vals[i])\n        cuda.atomic.exch(a, 6, vals[i])\n", &[a(DType::F64, 1), a(DType::F64, 1)], none),
        compile("small_atomics", "def small_atomics(a, out):\n    t = cuda.threadIdx.x\n    if t == 0:\n        out[0] = cuda.atomic.cas(a, 0, 5, 9)\n        out[1] = cuda.atomic.inc(a, 2, 3)\n        out[2] = cuda.atomic.dec(a, 3, 7)\n        out[3] = cuda.atomic.exch(a, 4, 42)\n", &[a(DType::U32, 1), a(DType::U32, 1)], none),
        compile("k", "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef k(a, out):\n    i = cuda.grid(1)\n    if i < a.size:\n        q, r = divmod2(i, 3)\n        out[i] = clamp(a[i], 0.0, 10.0) + q * 100 + r * 1000\n", &[a(DType::F64, 1), a(DType::F64, 1)], none),
        compile("local_const", "def local_const(out):\n    c = cuda.const.array_like(TABLE)\n    tmp = cuda.local.array(4, np.float32)\n    t = cuda.threadIdx.x\n    for j in range(4):\n        tmp[j] = c[j] * t\n    s = 0.0\n    for j in range(4):\n        s += tmp[3 - j]\n    out[t] = s\n", &[a(DType::F32, 1)], |g| {
            g.borrow_mut().insert("TABLE".into(), Value::Array(Box::new(array_of(&[4], DType::F32, &[10.0, 20.0, 30.0, 40.0]))));
        }),
        compile("rng", "def rng(states, out):\n    i = cuda.grid(1)\n    if i < out.shape[0]:\n        for j in range(out.shape[1]):\n            out[i, j] = xoroshiro128p_uniform_float32(states, i) + xoroshiro128p_normal_float64(states, i)\n", &[a(DType::U64, 2), a(DType::F32, 2)], |g| {
            let random = Rc::new(nbcuda::py::value::Module::new("numba.cuda.random", ""));
            nbcuda::numba::intrinsics::register_random(&random);
            for n in ["xoroshiro128p_uniform_float32", "xoroshiro128p_normal_float64"] {
                g.borrow_mut().insert(n.into(), random.get(n).unwrap());
            }
        }),
        compile("mathy", "def mathy(a, out):\n    i = cuda.grid(1)\n    x = a[i]\n    y = math.sin(x) + math.cos(x) + math.tan(x) + math.asin(x) + math.acos(x) + math.atan(x) + math.atan2(x, 2.0)\n    y += math.sinh(x) + math.cosh(x) + math.tanh(x) + math.exp(x) + math.expm1(x) + math.log(x) + math.log1p(x)\n    y += math.log2(x) + math.log10(x) + math.sqrt(x) + math.pow(x, 3) + math.hypot(x, 1) + math.floor(x) + math.ceil(x)\n    y += math.fabs(x) + math.fmod(x, 0.3) + math.copysign(x, -1.0) + math.erf(x) + math.erfc(x) + math.gamma(x) + math.lgamma(x)\n    if math.isnan(x) or math.isinf(x) or not math.isfinite(x):\n        y = 0\n    out[i] = y + abs(x) + min(x, 1.0) + max(x, 2, 3) + round(x) + int(x) + float(x) + x ** 2 + x // 2 + x % 2\n", &[a(DType::F32, 1), a(DType::F32, 1)], none),
        compile("math64", "def math64(a, out):\n    i = cuda.grid(1)\n    x = a[i]\n    out[i] = math.sin(x) * math.exp(x) + math.gamma(x) + math.floor(x) + (1 if x > 0 else -1)\n", &[a(DType::F64, 1), a(DType::F64, 1)], none),
        compile("ints", "def ints(a, out):\n    i = cuda.grid(1)\n    x = a[i]\n    out[i] = (x // 3) + (x % 5) + (x << 2) + (x >> 1) + (x & 7) + (x | 8) + (x ^ 1) + ~x + -x + abs(x) + x ** 2 + min(x, 4)\n", &[a(DType::I32, 1), a(DType::I64, 1)], none),
        compile("uints", "def uints(a, out):\n    i = cuda.grid(1)\n    x = a[i]\n    out[i] = (x // 3) + (x % 5) + x * x + abs(x) + max(x, 1)\n", &[a(DType::U32, 1), a(DType::U64, 1)], none),
        compile("three_d", "def three_d(a):\n    x, y, z = cuda.grid(3)\n    nx, ny, nz = cuda.gridsize(3)\n    if x < a.shape[0] and y < a.shape[1] and z < a.shape[2]:\n        a[x, y, z] = x * 100 + y * 10 + z + nx + ny + nz + cuda.laneid + cuda.warpsize + cuda.blockDim.z + cuda.gridDim.y\n", &[a(DType::I16, 3)], none),
        compile("printer", "def printer(a):\n    i = cuda.grid(1)\n    print('value', i, a[i], a[i] > 0, \"quote\\\"d 100%\")\n    print()\n", &[a(DType::F32, 1)], none),
        compile("print_types", "def print_types(a, u, n):\n    for j in range(n):\n        if a[j] > 0:\n            print('pos', j, a[j], u[j], a[j] > 1)\n        else:\n            print('neg', np.int8(j), np.uint16(j), np.float32(a[j]))\n            return\n", &[a(DType::F64, 1), a(DType::U64, 1), Ty::Scalar(DType::I32)], none),
        compile("print_tuples", "def print_tuples(a):\n    i = cuda.grid(1)\n    print((i, (a[i],), 1.5), cuda.blockIdx, (i,))\n", &[a(DType::F32, 1)], none),
        compile("remainder_modf_fma", "def remainder_modf_fma(x, out):\n    i = cuda.grid(1)\n    if i < x.size:\n        fr, whole = math.modf(x[i])\n        out[i] = math.remainder(x[i], 0.7) + fr + whole + cuda.fma(x[i], fr, whole) + math.nextafter(x[i], 0.0)\n", &[a(DType::F32, 1), a(DType::F32, 1)], none),
        compile("selp", "def selp(a, b, c):\n    i = cuda.grid(1)\n    inner = cuda.selp(b % 2 == 0, c[i], 13)\n    a[i] = cuda.selp(a[i] > 4, inner, 3)\n", &[a(DType::I64, 1), Ty::Scalar(DType::I64), a(DType::I64, 1)], none),
        compile("fences", "def fences(a):\n    a[0] += 1\n    cuda.threadfence_block()\n    a[1] += 1\n    cuda.threadfence()\n    a[2] += 1\n    cuda.threadfence_system()\n    cuda.syncwarp()\n", &[a(DType::I32, 1)], none),
        compile("round_to", "def round_to(a, out, nd):\n    i = cuda.grid(1)\n    if i < a.size:\n        out[i] = round(a[i], nd)\n", &[a(DType::F64, 1), a(DType::F64, 1), Ty::Scalar(DType::I32)], none),
        compile("round_to_f32", "def round_to_f32(a, nd):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = round(a[i], nd) + round(i, -1)\n", &[a(DType::F32, 1), Ty::Scalar(DType::I64)], none),
        compile("local_shape", "def local_shape(out):\n    N = 16\n    buf = cuda.shared.array(N, np.int32)\n    t = cuda.threadIdx.x\n    buf[t % N] = t\n    cuda.syncthreads()\n    out[t] = buf[t % N] + len(buf)\n", &[a(DType::I32, 1)], none),
        compile("dyn_shared", "def dyn_shared(a):\n    buf = cuda.shared.array(0, dtype=np.int32)\n    t = cuda.threadIdx.x\n    buf[t] = t\n    cuda.syncthreads()\n    a[t] = buf[buf.shape[0] - 1 - t] + len(buf)\n", &[a(DType::I32, 1)], none),
        compile("grid_stride", "def grid_stride(x, y, out, n, k):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n    for i in range(start, n, stride):\n        out[i] = x[i] * k + y[i]\n    for j in range(10, 0, -2):\n        out[0] += j\n", &[a(DType::F32, 1), a(DType::F32, 1), a(DType::F32, 1), Ty::Scalar(DType::I64), Ty::Scalar(DType::F32)], none),
        compile("bools", "def bools(a, flags):\n    i = cuda.grid(1)\n    b = flags[i]\n    c = not b\n    flags[i] = c and (i > 3 or i < 1)\n    a[i] = bool(a[i]) + int(True)\n", &[a(DType::U8, 1), a(DType::Bool, 1)], none),
        compile("rows", "def row_total(row):\n    s = 0.0\n    for j in range(row.shape[0]):\n        s += row[j]\n    return s\n\ndef rows(a, out, counts):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        row = a[i]\n        out[i] = row_total(row) + a[i][0] * 1000 + len(row)\n        cuda.atomic.add(counts[i % 2], 0, 1)\n", &[a(DType::F64, 2), a(DType::F64, 1), a(DType::I32, 2)], none),
    ];
    let f = function("def add_ufunc(x, y):\n    return x + y\n");
    use nbcuda::numba::vectorize::{build_kernel, InKind};
    out.push((
        "add_ufunc".into(),
        build_kernel(
            &f,
            &[InKind::Array(DType::F32), InKind::Array(DType::F32)],
            &[DType::F32, DType::F32],
            Some(DType::F32),
            1,
        )
        .unwrap(),
    ));
    let f = function("def pulse(i, period, amplitude):\n    return max(math.sin(i / period) - 0.3, 0.0) * amplitude\n");
    out.push((
        "pulse".into(),
        build_kernel(
            &f,
            &[
                InKind::Array(DType::F32),
                InKind::Scalar(DType::F32),
                InKind::Scalar(DType::F32),
            ],
            &[DType::F32, DType::F32, DType::F32],
            Some(DType::F32),
            2,
        )
        .unwrap(),
    ));
    let f = function("def row_sum(x, res):\n    s = 0.0\n    for i in range(x.shape[0]):\n        s += x[i]\n    res[0] = s\n");
    out.push((
        "gufunc".into(),
        nbcuda::numba::guvectorize::build(&f, &[a(DType::F64, 2), a(DType::F64, 2)], true, 0)
            .unwrap(),
    ));
    let f = function("def sum_reduce(a, b):\n    return a + b\n");
    out.push((
        "reduce".into(),
        nbcuda::numba::cuda_reduce::fold_kernel(&f, DType::F64, true).unwrap(),
    ));
    out.extend(super::slicing::all());
    out
}
