//! What native kernel code calls back into: the launch context it reads and writes, and
//! `extern "C"` helpers for everything whose exact semantics live in the interpreter's
//! Rust code (integer division and powers, math functions, odd casts, atomics other than
//! integer add, xoroshiro128p draws) and for faults and cancellation. Calling the very
//! functions the interpreter calls is what keeps the two executors bit-identical.

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Unary};
use crate::kernel::abi::{fault_site, out_of_bounds_message, KernelFault};
use crate::kernel::exec::inst::{atomic, rng_draw};
use crate::kernel::exec::scalar_ops::{bin, bin_f32, bin_f64, cast, math, math_f32, math_f64, un};
use crate::kernel::exec::{fault, ArrDesc, Prepared};
use crate::kernel::ir::{AtomicOp, MathFn, RngKind};

/// An array as native code sees it: the address of element 0 (`base`, the memory's start
/// plus `offset`), extents and byte strides (unused axes: extent 1, stride 0).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct JArr {
    pub base: *mut u8,
    pub offset: i64,
    pub shape: [i64; 3],
    pub strides: [i64; 3],
}

// SAFETY: a JArr is an address and numbers; the memory it points at is reached only
// through native code's atomics-free accesses of a launch that keeps it alive, exactly as
// `RawMem` (Send + Sync) is shared by the interpreter's workers.
unsafe impl Send for JArr {}
// SAFETY: see `Send`.
unsafe impl Sync for JArr {}

/// One call of a compiled kernel: the blocks `first..end` of a launch. Native code reads
/// the `#[repr(C)]` prefix at the offsets [`crate::kernel::jit::lower`] takes with
/// `offset_of!`; the rest is for the helpers.
#[repr(C)]
pub(crate) struct Ctx<'a> {
    /// One descriptor per array slot (parameters, then constant, local and shared arrays).
    pub arrs: *const JArr,
    /// Canonical bits of every parameter (0 for arrays).
    pub scalars: *const u64,
    pub grid: [i64; 3],
    pub block: [i64; 3],
    pub first: i64,
    pub end: i64,
    /// This worker's local memory: one thread's local arrays (threads run one at a time).
    pub local: *mut u8,
    /// A lockstep kernel's per-lane state (see `lockstep.rs`): two words per lane of the
    /// chunk, the loop counter and whether the lane has left the loop.
    pub lanes: *mut i64,
    /// A blockwise kernel's per-thread slots (see `blockwise.rs`).
    pub slots: *mut u8,
    /// The flags native code polls (see `poll.rs`).
    pub poll: *const crate::kernel::jit::poll::PollFlags,
    /// Bit per array parameter whose atomics this worker makes on its private copy
    /// (`private.rs`).
    pub private: u64,
    /// Nonzero when the launch runs its threads in any order (`order.rs`): `first..end`
    /// are then positions along strips. A lockstep kernel's launch then runs its
    /// grid-stride loop flat (`flat.rs`).
    pub order: i64,
    /// Where a chunk run in any order lists the blocks it leaves for the usual order
    /// (room for every block of the chunk), and how many it listed.
    pub deferred: *mut i64,
    pub ndeferred: i64,
    /// Set to 1 by a helper that stored a fault in `fault`.
    pub status: i64,
    pub p: &'a Prepared<'a>,
    /// The same arrays as `arrs`, as the interpreter's descriptors (for atomics, draws and
    /// fault messages).
    pub descs: &'a [ArrDesc],
    pub fault: Option<KernelFault>,
}

/// Arithmetic operations by the code native code passes.
pub(crate) const ARITH: [Arith; 14] = [
    Arith::Add,
    Arith::Sub,
    Arith::Mul,
    Arith::Div,
    Arith::FloorDiv,
    Arith::Mod,
    Arith::Pow,
    Arith::BitAnd,
    Arith::BitOr,
    Arith::BitXor,
    Arith::LShift,
    Arith::RShift,
    Arith::Min,
    Arith::Max,
];

pub(crate) const UNARY: [Unary; 8] = [
    Unary::Neg,
    Unary::Not,
    Unary::Invert,
    Unary::Abs,
    Unary::Popc,
    Unary::Clz,
    Unary::Ffs,
    Unary::Brev,
];

pub(crate) const MATH: [MathFn; 40] = {
    use MathFn::*;
    [
        Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Exp, Exp2, Expm1,
        Log, Log1p, Log2, Log10, Sqrt, Cbrt, Fabs, Floor, Ceil, Trunc, Erf, Erfc, Gamma, Lgamma,
        Atan2, Pow, Hypot, Fmod, Copysign, Remainder, Nextafter, IsNan, IsInf, IsFinite, Round,
    ]
};

pub(crate) const ATOMIC: [AtomicOp; 13] = [
    AtomicOp::Add,
    AtomicOp::Sub,
    AtomicOp::Max,
    AtomicOp::Min,
    AtomicOp::NanMax,
    AtomicOp::NanMin,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
    AtomicOp::Exch,
    AtomicOp::Inc,
    AtomicOp::Dec,
    AtomicOp::Cas,
];

pub(crate) const RNG: [RngKind; 4] = [
    RngKind::UniformF32,
    RngKind::UniformF64,
    RngKind::NormalF32,
    RngKind::NormalF64,
];

/// The code of `x` in `table` (what lowering passes to a helper).
pub(crate) fn code<T: PartialEq>(table: &[T], x: &T) -> i64 {
    table
        .iter()
        .position(|t| t == x)
        .map(|i| i as i64)
        .unwrap_or(-1)
}

fn pick<T: Copy>(table: &[T], c: i64) -> Option<T> {
    usize::try_from(c).ok().and_then(|i| table.get(i).copied())
}

fn dtype(c: i64) -> DType {
    pick(&DType::ALL, c).unwrap_or(DType::I64)
}

extern "C" fn nb_bin_f32(op: i64, a: f32, b: f32) -> f32 {
    pick(&ARITH, op).map_or(f32::NAN, |op| bin_f32(op, a, b))
}

extern "C" fn nb_bin_f64(op: i64, a: f64, b: f64) -> f64 {
    pick(&ARITH, op).map_or(f64::NAN, |op| bin_f64(op, a, b))
}

extern "C" fn nb_bin_int(op: i64, dt: i64, a: u64, b: u64) -> u64 {
    pick(&ARITH, op).map_or(0, |op| bin(op, dtype(dt), a, b))
}

extern "C" fn nb_un(op: i64, dt: i64, a: u64) -> u64 {
    pick(&UNARY, op).map_or(0, |op| un(op, dtype(dt), a))
}

extern "C" fn nb_cast(v: u64, from: i64, to: i64) -> u64 {
    cast(v, dtype(from), dtype(to))
}

extern "C" fn nb_math_f32(f: i64, a: f32, b: f32) -> f32 {
    pick(&MATH, f).map_or(f32::NAN, |f| math_f32(f, a, b))
}

extern "C" fn nb_math_f64(f: i64, a: f64, b: f64) -> f64 {
    pick(&MATH, f).map_or(f64::NAN, |f| math_f64(f, a, b))
}

extern "C" fn nb_math_bits(f: i64, dt: i64, a: u64, b: u64) -> u64 {
    pick(&MATH, f).map_or(0, |f| math(f, dtype(dt), a, b))
}

/// threadIdx and blockIdx of the thread `tlin` of block `blin`.
fn coords(c: &Ctx, tlin: i64, blin: i64) -> ([u32; 3], [u32; 3]) {
    let b = c.block.map(|v| v.max(1) as u64);
    let g = c.grid.map(|v| v.max(1) as u64);
    let (t, k) = (tlin.max(0) as u64, blin.max(0) as u64);
    let tid = [t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])].map(|v| v as u32);
    let bid = [k % g[0], (k / g[0]) % g[1], k / (g[0] * g[1])].map(|v| v as u32);
    (tid, bid)
}

/// The interpreter's fault site text for an instruction at `loc`.
fn site(c: &Ctx, loc: i64, tlin: i64, blin: i64) -> String {
    let k = c.p.k;
    let l = usize::try_from(loc)
        .ok()
        .and_then(|i| k.locs.get(i))
        .cloned()
        .unwrap_or_default();
    let (tid, bid) = coords(c, tlin, blin);
    fault_site(&k.name, &l, bid, tid)
}

/// An index outside an array (`slot` >= 0: `vals` holds the `n` raw indices) or outside a
/// view (`slot` < 0: `vals` holds `n` indices then the view's `n` extents).
///
/// # Safety
/// `ctx` must be the live context of the running call and `vals` must point at `n`
/// (or `2n` for a view) readable i64 values.
unsafe extern "C" fn nb_index_fault(
    ctx: *mut Ctx,
    loc: i64,
    slot: i64,
    vals: *const i64,
    n: i64,
    tlin: i64,
    blin: i64,
) {
    // SAFETY: native code passes the context it was called with, alive for the call and
    // not otherwise borrowed while a helper runs.
    let c = unsafe { &mut *ctx };
    let n = n.clamp(0, 3) as usize;
    let count = if slot < 0 { 2 * n } else { n };
    // SAFETY: the caller stored `count` values at `vals` (a stack slot of native code).
    let v = unsafe { std::slice::from_raw_parts(vals, count) };
    let (index, shape) = if slot < 0 {
        (v[..n].to_vec(), v[n..].to_vec())
    } else {
        let d = usize::try_from(slot).ok().and_then(|s| c.descs.get(s));
        let shape = d
            .map(|d| d.shape[..d.ndim.min(3)].to_vec())
            .unwrap_or_default();
        (v.to_vec(), shape)
    };
    let msg = out_of_bounds_message(&index, &shape, &site(c, loc, tlin, blin));
    c.fault = Some(fault("IndexError", msg));
    c.status = 1;
}

/// An atomic operation other than native integer add, at byte `off` of array `slot`.
///
/// # Safety
/// `ctx` must be the live context of the running call.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn nb_atomic(
    ctx: *mut Ctx,
    slot: i64,
    off: i64,
    op: i64,
    v0: u64,
    v1: u64,
    loc: i64,
    tlin: i64,
    blin: i64,
) -> u64 {
    // SAFETY: as in `nb_index_fault`.
    let c = unsafe { &mut *ctx };
    let d = usize::try_from(slot).ok().and_then(|s| c.descs.get(s));
    let r = match (d, pick(&ATOMIC, op)) {
        (Some(d), Some(op)) => atomic(d, off as isize, op, v0, v1),
        _ => None,
    };
    r.unwrap_or_else(|| {
        let at = site(c, loc, tlin, blin);
        c.fault = Some(fault(
            "IndexError",
            format!("access outside the array's memory {at}"),
        ));
        c.status = 1;
        0
    })
}

/// A xoroshiro128p draw from `states[index]` (array `slot`).
///
/// # Safety
/// `ctx` must be the live context of the running call.
unsafe extern "C" fn nb_rng(
    ctx: *mut Ctx,
    slot: i64,
    kind: i64,
    index: i64,
    loc: i64,
    tlin: i64,
    blin: i64,
) -> u64 {
    // SAFETY: as in `nb_index_fault`.
    let c = unsafe { &mut *ctx };
    let d = usize::try_from(slot)
        .ok()
        .and_then(|s| c.descs.get(s))
        .copied();
    let (Some(d), Some(kind)) = (d, pick(&RNG, kind)) else {
        c.fault = Some(fault("InternalError", "bad random draw".into()));
        c.status = 1;
        return 0;
    };
    match rng_draw(&d, kind, index, || site(c, loc, tlin, blin)) {
        Ok(v) => v,
        Err(e) => {
            c.fault = Some(e);
            c.status = 1;
            0
        }
    }
}

/// Record why the launch stops, after native code saw a flag set (`poll.rs`): an
/// interrupt, or the end of the grace another block's fault gave it
/// (`Prepared::with_fault_grace`), as the interpreter ends at its loop back-edges.
///
/// # Safety
/// `ctx` must be the live context of the running call.
unsafe extern "C" fn nb_stop(ctx: *mut Ctx) {
    // SAFETY: as in `nb_index_fault`.
    let c = unsafe { &mut *ctx };
    let other_block = c.p.stop.load(std::sync::atomic::Ordering::Relaxed);
    c.fault = Some(if other_block && !crate::kernel::exec::cancelled(c.p) {
        KernelFault::stopped()
    } else {
        KernelFault::interrupted()
    });
    c.status = 1;
}

/// The kinds of value a helper's signature names.
#[derive(Clone, Copy)]
pub(crate) enum Ty {
    I,
    F32,
    F64,
}

/// Every helper: its symbol, address, parameters and result.
pub(crate) fn table() -> Vec<(&'static str, *const u8, Vec<Ty>, Option<Ty>)> {
    use Ty::*;
    vec![
        (
            "nb_bin_f32",
            nb_bin_f32 as *const u8,
            vec![I, F32, F32],
            Some(F32),
        ),
        (
            "nb_bin_f64",
            nb_bin_f64 as *const u8,
            vec![I, F64, F64],
            Some(F64),
        ),
        (
            "nb_bin_int",
            nb_bin_int as *const u8,
            vec![I, I, I, I],
            Some(I),
        ),
        ("nb_un", nb_un as *const u8, vec![I, I, I], Some(I)),
        ("nb_cast", nb_cast as *const u8, vec![I, I, I], Some(I)),
        (
            "nb_math_f32",
            nb_math_f32 as *const u8,
            vec![I, F32, F32],
            Some(F32),
        ),
        (
            "nb_math_f64",
            nb_math_f64 as *const u8,
            vec![I, F64, F64],
            Some(F64),
        ),
        (
            "nb_math_bits",
            nb_math_bits as *const u8,
            vec![I, I, I, I],
            Some(I),
        ),
        (
            "nb_index_fault",
            nb_index_fault as *const u8,
            vec![I; 7],
            None,
        ),
        ("nb_atomic", nb_atomic as *const u8, vec![I; 9], Some(I)),
        ("nb_rng", nb_rng as *const u8, vec![I; 7], Some(I)),
        ("nb_stop", nb_stop as *const u8, vec![I], None),
    ]
}
