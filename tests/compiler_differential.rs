//! Differential tests: kernels run from cells, each result compared with the same
//! computation written directly in Rust here (never with nbcuda's own output).

mod common;
use common::Session;

/// Every number in a printed (possibly nested) Python list.
fn nums(text: &str) -> Vec<f64> {
    text.replace(['[', ']'], " ")
        .split([',', ' ', '\n'])
        .filter(|s| !s.is_empty())
        .map(|s| match s {
            "True" => 1.0,
            "False" => 0.0,
            _ => s
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("not a number: {s:?}")),
        })
        .collect()
}

fn lines(out: &str) -> Vec<Vec<f64>> {
    out.lines().map(nums).collect()
}

#[track_caller]
fn close(got: f64, want: f64, rel: f64, what: &str) {
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: got {got}, want nan");
        return;
    }
    if want.is_infinite() {
        assert_eq!(got, want, "{what}");
        return;
    }
    let tol = rel * want.abs().max(1e-300) + rel;
    assert!((got - want).abs() <= tol, "{what}: got {got}, want {want}");
}

/// erf by the all-positive series 2/sqrt(pi) e^{-x^2} sum 2^n x^(2n+1) / (1*3*...*(2n+1)).
fn erf(x: f64) -> f64 {
    let (mut term, mut sum) = (x, x);
    for n in 1..200 {
        term *= 2.0 * x * x / (2 * n + 1) as f64;
        sum += term;
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

/// Gamma at the positive integers and half-integers used below.
fn gamma(x: f64) -> f64 {
    let mut g = if x.fract() == 0.0 {
        1.0
    } else {
        std::f64::consts::PI.sqrt()
    };
    let mut k = if x.fract() == 0.0 { 1.0 } else { 0.5 };
    while k < x {
        g *= k;
        k += 1.0;
    }
    g
}

type Unary = fn(f64) -> f64;
type Binary = fn(f64, f64) -> f64;
type BinaryCase = (&'static str, Vec<(f64, f64)>, Binary);

fn unary() -> Vec<(&'static str, Vec<f64>, Unary)> {
    let general = vec![-2.5, -1.0, -0.3, 0.0, 0.25, 0.5, 1.0, 1.7, 3.0];
    let unit = vec![-0.9, -0.5, 0.0, 0.3, 0.7, 0.99];
    let positive = vec![0.01, 0.5, 1.0, 2.0, 10.0, 123.0];
    let above_m1 = vec![-0.5, -0.1, 0.0, 0.3, 2.0, 50.0];
    let specials = vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -1.5, 7.0];
    let gam = vec![0.5, 1.0, 1.5, 2.0, 3.5, 5.0, 7.0];
    vec![
        ("sin", general.clone(), f64::sin),
        ("cos", general.clone(), f64::cos),
        ("tan", general.clone(), f64::tan),
        ("asin", unit.clone(), f64::asin),
        ("acos", unit.clone(), f64::acos),
        ("atan", general.clone(), f64::atan),
        ("sinh", general.clone(), f64::sinh),
        ("cosh", general.clone(), f64::cosh),
        ("tanh", general.clone(), f64::tanh),
        ("exp", general.clone(), f64::exp),
        ("expm1", general.clone(), f64::exp_m1),
        ("log", positive.clone(), f64::ln),
        ("log1p", above_m1, f64::ln_1p),
        ("log2", positive.clone(), f64::log2),
        ("log10", positive.clone(), f64::log10),
        ("sqrt", positive, f64::sqrt),
        ("floor", general.clone(), f64::floor),
        ("ceil", general.clone(), f64::ceil),
        ("fabs", general.clone(), f64::abs),
        ("erf", general.clone(), erf),
        ("erfc", general, |x| 1.0 - erf(x)),
        ("gamma", gam.clone(), gamma),
        ("lgamma", gam, |x| gamma(x).ln()),
        ("isnan", specials.clone(), |x| x.is_nan() as u8 as f64),
        ("isinf", specials.clone(), |x| x.is_infinite() as u8 as f64),
        ("isfinite", specials, |x| x.is_finite() as u8 as f64),
    ]
}

fn binary() -> Vec<BinaryCase> {
    let pairs = vec![
        (1.0, 2.0),
        (-1.5, 0.5),
        (3.0, -4.0),
        (0.0, -1.0),
        (-2.0, -7.5),
        (5.5, 2.0),
    ];
    let pos = vec![(2.0, 0.5), (1.5, 3.0), (10.0, -1.0), (0.5, 2.5), (7.0, 0.0)];
    vec![
        ("atan2", pairs.clone(), f64::atan2),
        ("pow", pos, f64::powf),
        ("hypot", pairs.clone(), f64::hypot),
        ("fmod", pairs.clone(), |a, b| a % b),
        ("copysign", pairs, f64::copysign),
    ]
}

fn list(v: &[f64]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|x| {
            if x.is_nan() {
                "math.nan".into()
            } else if x.is_infinite() {
                if *x > 0.0 {
                    "math.inf".into()
                } else {
                    "-math.inf".into()
                }
            } else {
                format!("{x:?}")
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn math_functions_match_the_host(dtype: &str, rel: f64) {
    let mut code = String::from("from numba import cuda\nimport numpy as np\nimport math\n");
    let mut expected: Vec<(String, Vec<f64>)> = Vec::new();
    let round = |x: f64| {
        if dtype == "float32" {
            x as f32 as f64
        } else {
            x
        }
    };
    for (name, xs, f) in unary() {
        let out_t = if name.starts_with("is") {
            "np.float64".to_string()
        } else {
            format!("np.{dtype}")
        };
        code.push_str(&format!(
            "@cuda.jit\ndef k_{name}(x, out):\n    i = cuda.grid(1)\n    if i < x.size:\n        out[i] = math.{name}(x[i])\n\
             x = np.array({}, dtype=np.{dtype})\nout = np.zeros(x.size, dtype={out_t})\nk_{name}[1, 32](x, out)\nprint(out.tolist())\n",
            list(&xs)
        ));
        expected.push((
            name.to_string(),
            xs.iter().map(|&x| f(round(x))).map(round).collect(),
        ));
    }
    for (name, ps, f) in binary() {
        let (xs, ys): (Vec<f64>, Vec<f64>) = ps.iter().copied().unzip();
        code.push_str(&format!(
            "@cuda.jit\ndef k_{name}(x, y, out):\n    i = cuda.grid(1)\n    if i < x.size:\n        out[i] = math.{name}(x[i], y[i])\n\
             x = np.array({}, dtype=np.{dtype})\ny = np.array({}, dtype=np.{dtype})\nout = np.zeros(x.size, dtype=np.{dtype})\nk_{name}[1, 32](x, y, out)\nprint(out.tolist())\n",
            list(&xs),
            list(&ys)
        ));
        expected.push((
            name.to_string(),
            ps.iter()
                .map(|&(a, b)| round(f(round(a), round(b))))
                .collect(),
        ));
    }
    let mut s = Session::new();
    let out = s.stdout(&code);
    let got = lines(&out);
    assert_eq!(got.len(), expected.len(), "{out}");
    for ((name, want), got) in expected.iter().zip(&got) {
        assert_eq!(got.len(), want.len(), "{name}");
        for (g, w) in got.iter().zip(want) {
            close(*g, *w, rel, &format!("math.{name} ({dtype})"));
        }
    }
}

#[test]
fn math_functions_float64() {
    math_functions_match_the_host("float64", 1e-12);
}

#[test]
fn math_functions_float32() {
    math_functions_match_the_host("float32", 1e-5);
}

#[test]
fn atomics_under_contention_match_a_host_fold() {
    let n: i64 = 4000;
    let vals: Vec<i64> = (0..n).map(|i| (i * 7919) % 1009 - 300).collect();
    let mut s = Session::new();
    let code = r#"from numba import cuda
import numpy as np
@cuda.jit
def atom(vals, ints, floats, counts, olds):
    i = cuda.grid(1)
    if i < vals.size:
        v = vals[i]
        cuda.atomic.sub(ints, 0, v)
        cuda.atomic.and_(ints, 1, ~(1 << (i % 50)))
        cuda.atomic.or_(ints, 2, 1 << (i % 60))
        cuda.atomic.xor(ints, 3, v)
        cuda.atomic.max(ints, 4, v)
        cuda.atomic.min(ints, 5, v)
        olds[i] = cuda.atomic.exch(ints, 6, i)
        cuda.atomic.max(floats, 0, v * 0.25)
        cuda.atomic.min(floats, 1, v * 0.25)
        cuda.atomic.inc(counts, 0, 1000)
        cuda.atomic.dec(counts, 1, 1000)
        done = False
        while not done:
            cur = ints[7]
            if cuda.atomic.cas(ints, 7, cur, cur + 1) == cur:
                done = True
vals = ((np.arange(N, dtype=np.int64) * 7919) % 1009) - 300
ints = np.array([1000000, -1, 0, 0, -10**9, 10**9, -5, 0], dtype=np.int64)
floats = np.array([-1e300, 1e300])
counts = np.zeros(2, dtype=np.uint32)
olds = np.zeros(N, dtype=np.int64)
atom[16, 256](vals, ints, floats, counts, olds)
print(ints.tolist())
print(floats.tolist())
print(counts.tolist())
print(sorted(olds.tolist() + [int(ints[6])]))
"#;
    let out = s.stdout(&code.replace('N', &n.to_string()));
    let l = lines(&out);
    let sum: i64 = vals.iter().sum();
    let xor = vals.iter().fold(0i64, |a, v| a ^ v);
    let want_ints = [
        1000000 - sum,
        // -1 with bits 0..49 cleared.
        !((1i64 << 50) - 1),
        (1i64 << 60) - 1,
        xor,
        *vals.iter().max().unwrap(),
        *vals.iter().min().unwrap(),
    ];
    // Parsed as integers: the bit masks do not survive a round trip through f64.
    let first = out.lines().next().unwrap_or_default();
    let ints: Vec<i64> = first
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    for (k, w) in want_ints.iter().enumerate() {
        assert_eq!(ints[k], *w, "ints[{k}] in {first}");
    }
    assert_eq!(ints[7], n, "cas counter");
    assert_eq!(l[1][0], *vals.iter().max().unwrap() as f64 * 0.25);
    assert_eq!(l[1][1], *vals.iter().min().unwrap() as f64 * 0.25);
    // inc wraps to 0 past 1000; dec wraps from 0 (or above 1000) to 1000.
    let (mut inc, mut dec) = (0u32, 0u32);
    for _ in 0..n {
        inc = if inc >= 1000 { 0 } else { inc + 1 };
        dec = if dec == 0 || dec > 1000 {
            1000
        } else {
            dec - 1
        };
    }
    assert_eq!(l[2], vec![inc as f64, dec as f64]);
    // Every exch returned a distinct earlier value: together with the final one they
    // are the initial value and every thread's index, each exactly once.
    let mut want: Vec<f64> = (0..n).map(|i| i as f64).collect();
    want.insert(0, -5.0);
    assert_eq!(l[3], want);
}

#[test]
fn fences_lane_ids_warp_size_grid_sizes_and_3d_grids() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"from numba import cuda
import numpy as np
@cuda.jit
def ids(lane, ws, gs, fenced):
    i = cuda.grid(1)
    lane[i] = cuda.laneid
    ws[i] = cuda.warpsize
    gs[i] = cuda.gridsize(1)
    fenced[i] = 1
    cuda.threadfence_block()
    fenced[i] += 1
    cuda.threadfence()
    fenced[i] += 1
    cuda.threadfence_system()
    fenced[i] += 1
@cuda.jit
def grid3(out, sizes):
    x, y, z = cuda.grid(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = x * 10000 + y * 100 + z
    if x == 0 and y == 0 and z == 0:
        a, b, c = cuda.gridsize(3)
        sizes[0] = a
        sizes[1] = b
        sizes[2] = c
n = 3 * 64
lane = np.zeros(n, dtype=np.int32)
ws = np.zeros(n, dtype=np.int32)
gs = np.zeros(n, dtype=np.int64)
fenced = np.zeros(n, dtype=np.int32)
ids[3, 64](lane, ws, gs, fenced)
print(lane.tolist())
print(ws.tolist())
print(gs.tolist())
print(fenced.tolist())
out = np.full((7, 6, 5), -1, dtype=np.int64)
sizes = np.zeros(3, dtype=np.int64)
grid3[(2, 3, 2), (4, 2, 3)](out, sizes)
print(out.ravel().tolist())
print(sizes.tolist())
"#,
    );
    let l = lines(&out);
    let n = 192;
    assert_eq!(
        l[0],
        (0..n).map(|i| (i % 64 % 32) as f64).collect::<Vec<_>>()
    );
    assert_eq!(l[1], vec![32.0; n]);
    assert_eq!(l[2], vec![192.0; n]);
    assert_eq!(l[3], vec![4.0; n]);
    let mut want = Vec::new();
    for x in 0..7 {
        for y in 0..6 {
            for z in 0..5 {
                want.push((x * 10000 + y * 100 + z) as f64);
            }
        }
    }
    assert_eq!(l[4], want);
    assert_eq!(l[5], vec![8.0, 6.0, 6.0]);
}

#[test]
fn dynamic_shared_memory_and_launch_forms() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\nimport numpy as np\n\
@cuda.jit\ndef rev(a, out):\n    s = cuda.shared.array(0, dtype=np.float32)\n    t = cuda.threadIdx.x\n    s[t] = a[t]\n    cuda.syncthreads()\n    out[t] = s[cuda.blockDim.x - 1 - t]\n\
@cuda.jit\ndef scale(a, k):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = a[i] * k\n\
a = np.arange(64, dtype=np.float32)\nout = np.zeros(64, dtype=np.float32)\nst = cuda.stream()\n\
rev[1, 64, st, 64 * 4](a, out)\nst.synchronize()\nprint(out.tolist())\n\
d = cuda.to_device(np.arange(100, dtype=np.float64))\nscale[4, 32, st](d, 3)\nst.synchronize()\nprint(d.copy_to_host().tolist())\n\
scale.forall(100)(d, 0.5)\nprint(d.copy_to_host().tolist())\n",
    );
    let l = lines(&out);
    assert_eq!(l[0], (0..64).rev().map(|i| i as f64).collect::<Vec<_>>());
    assert_eq!(l[1], (0..100).map(|i| i as f64 * 3.0).collect::<Vec<_>>());
    assert_eq!(l[2], (0..100).map(|i| i as f64 * 1.5).collect::<Vec<_>>());
}

#[test]
fn in_out_inout_copy_back_only_what_they_promise() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda\nimport numpy as np\n\
@cuda.jit\ndef k3(x, y, z):\n    i = cuda.grid(1)\n    if i < x.size:\n        y[i] = x[i] * 2\n        z[i] += x[i]\n        x[i] = -1\n\
a = np.arange(8.0)\nb = np.zeros(8)\nc = np.ones(8)\nk3[1, 8](cuda.In(a), cuda.Out(b), cuda.InOut(c))\n\
print(a.tolist())\nprint(b.tolist())\nprint(c.tolist())\n",
    );
    let l = lines(&out);
    let r: Vec<f64> = (0..8).map(|i| i as f64).collect();
    assert_eq!(l[0], r, "In is not copied back");
    assert_eq!(l[1], r.iter().map(|x| x * 2.0).collect::<Vec<_>>());
    assert_eq!(l[2], r.iter().map(|x| x + 1.0).collect::<Vec<_>>());
}

#[test]
fn xoroshiro_draws_have_the_right_distribution() {
    let n = 20000;
    let mut s = Session::new();
    let code = r#"from numba import cuda
import numpy as np
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float64, xoroshiro128p_normal_float32, xoroshiro128p_normal_float64
@cuda.jit
def draw(states, u, g32, g64):
    i = cuda.grid(1)
    if i < u.size:
        u[i] = xoroshiro128p_uniform_float64(states, i)
        g32[i] = xoroshiro128p_normal_float32(states, i)
        g64[i] = xoroshiro128p_normal_float64(states, i)
n = COUNT
states = create_xoroshiro128p_states(n, seed=7)
u = np.zeros(n)
g32 = np.zeros(n, dtype=np.float32)
g64 = np.zeros(n)
draw[(n + 255) // 256, 256](states, u, g32, g64)
print(u.tolist())
print(g32.tolist())
print(g64.tolist())
"#;
    let out = s.stdout(&code.replace("COUNT", &n.to_string()));
    let l = lines(&out);
    let stats = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64;
        (m, var.sqrt())
    };
    let sigma = |sd: f64| 5.0 * sd / (n as f64).sqrt();
    let (m, sd) = stats(&l[0]);
    assert!(l[0].iter().all(|&x| (0.0..1.0).contains(&x)));
    assert!(
        (m - 0.5).abs() < sigma(1.0 / 12f64.sqrt()),
        "uniform mean {m}"
    );
    assert!((sd - 1.0 / 12f64.sqrt()).abs() < 0.01, "uniform std {sd}");
    for g in [&l[1], &l[2]] {
        let (m, sd) = stats(g);
        assert!(m.abs() < sigma(1.0), "normal mean {m}");
        assert!((sd - 1.0).abs() < 0.03, "normal std {sd}");
    }
    assert_ne!(l[1][..10], l[2][..10], "the draws advance the states");
}

#[test]
fn ufunc_signatures_targets_streams_and_device_results() {
    let xs: Vec<f64> = (0..10).map(|i| i as f64 * 0.75).collect();
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import cuda, vectorize\nimport numpy as np\n\
@vectorize(['f4(f4, f4)'], target='cuda')\ndef addf(a, b):\n    return a + b * 2\n\
@vectorize(['float64(float64, float64)'], target='parallel')\ndef hyp(a, b):\n    return (a * a + b * b) ** 0.5\n\
@cuda.jit('void(f4[:], f4)')\ndef shift(a, k):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += k\n\
x = np.arange(10, dtype=np.float32) * np.float32(0.75)\nr = addf(x, x)\nprint(r.dtype, type(r).__name__, r.tolist())\n\
h = hyp(x.astype(np.float64), 2.0)\nprint(h.tolist())\n\
st = cuda.stream()\ndx = cuda.to_device(x, stream=st)\nrd = addf(dx, dx, stream=st)\nprint(type(rd).__name__, rd.dtype)\n\
hr = rd.copy_to_host(stream=st)\nst.synchronize()\nprint(hr.tolist())\n\
shift[1, 16](dx, 1.5)\nprint(dx.copy_to_host().tolist())\n",
    );
    let l: Vec<&str> = out.lines().collect();
    let f32s: Vec<f64> = xs.iter().map(|&x| x as f32 as f64).collect();
    assert!(l[0].starts_with("float32 ndarray "), "{}", l[0]);
    assert_eq!(
        nums(l[0].trim_start_matches("float32 ndarray ")),
        f32s.iter()
            .map(|x| ((*x as f32) + (*x as f32) * 2.0) as f64)
            .collect::<Vec<_>>()
    );
    let hyp: Vec<f64> = f32s.iter().map(|x| (x * x + 4.0f64).powf(0.5)).collect();
    for (g, w) in nums(l[1]).iter().zip(&hyp) {
        close(*g, *w, 1e-15, "parallel hyp");
    }
    assert_eq!(l[2], "DeviceNDArray float32");
    assert_eq!(
        nums(l[3]),
        f32s.iter()
            .map(|x| ((*x as f32) * 3.0) as f64)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        nums(l[4]),
        f32s.iter()
            .map(|x| ((*x as f32) + 1.5) as f64)
            .collect::<Vec<_>>()
    );
}
