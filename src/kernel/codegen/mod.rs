//! CUDA C generated from the IR, compiled by NVRTC for the CUDA device.
//!
//! | file | holds |
//! |---|---|
//! | `prelude.rs` | The fixed part of generated CUDA C: the helpers emitted before every kernel, and the compare-and-swap loops for atomics CUDA lacks, emitted only when a kernel uses them. |
//!
//! `mod.rs`:
//! CUDA C generation from the IR: one `extern "C" __global__` function per kernel, array
//! arguments as `nb_arr` structs (pointer, shape, byte strides), registers as locals,
//! structured control flow with labelled gotos for break/continue, and helpers for
//! Python's integer division/modulo, atomics CUDA lacks natively (CAS loops) and
//! xoroshiro128+ draws. `print()` appends records to a buffer passed as a hidden last
//! parameter (see [`crate::kernel::printbuf`]), so the host can show the lines in the
//! cell. Every element access is bounds-checked: a fault area passed as the very last
//! parameter records the first out-of-range access (see `nb_index_fault` in
//! [`prelude`]) and the host raises IndexError from it. Instructions whose result is never read are not emitted, so NVRTC compiles the
//! output without warnings.

pub mod prelude;

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp, Unary};
use crate::kernel::exec::scalar_ops::scalar_bits;
use crate::kernel::ir::{
    ArrRef, AtomicOp, BarrierKind, FenceScope, Inst, Kernel, MathFn, Op, PrintArg, Reg, RngKind,
    Special, Stmt,
};
use crate::kernel::types::Ty;
use crate::kernel::CompiledKernel;

use prelude::{atomic_helpers, PRELUDE, PRINT_HELPER};
pub use prelude::{FAULT_MAX_AXES, FAULT_WORDS};

use crate::kernel::printbuf;

/// The entry point's name in the generated source (`extern "C"`, so unmangled).
pub fn entry_name(kernel: &CompiledKernel) -> String {
    let clean: String = kernel
        .ir
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("nbcuda_{clean}")
}

pub fn ctype(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::I8 => "signed char",
        DType::I16 => "short",
        DType::I32 => "int",
        DType::I64 => "long long",
        DType::U8 => "unsigned char",
        DType::U16 => "unsigned short",
        DType::U32 => "unsigned int",
        DType::U64 => "unsigned long long",
        // float16 arrays never reach a device either: their bits.
        DType::F16 => "unsigned short",
        DType::F32 => "float",
        DType::F64 => "double",
        // Complex arrays never reach a device (transfers refuse them).
        DType::C64 => "float2",
        DType::C128 => "double2",
    }
}

fn suffix(d: DType) -> &'static str {
    match d {
        DType::Bool => "b",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::U8 => "u8",
        DType::U16 => "u16",
        DType::U32 => "u32",
        DType::U64 => "u64",
        DType::F16 => "f16",
        DType::F32 => "f32",
        DType::F64 => "f64",
        DType::C64 => "c64",
        DType::C128 => "c128",
    }
}

/// Registers read anywhere in the body (others need no declaration or computation).
fn reads(body: &[Stmt], out: &mut HashSet<Reg>) {
    crate::kernel::ir::walk(body, &mut |s| match s {
        Stmt::Inst(i) => i.op.reads(|r| {
            out.insert(r);
        }),
        Stmt::If(c, ..) => {
            out.insert(*c);
        }
        _ => {}
    });
}

fn jumps(body: &[Stmt], brk: &mut BTreeSet<u32>, cont: &mut BTreeSet<u32>) {
    crate::kernel::ir::walk(body, &mut |s| match s {
        Stmt::Break(i) => {
            brk.insert(*i);
        }
        Stmt::Continue(i) => {
            cont.insert(*i);
        }
        _ => {}
    });
}

fn literal(s: &Scalar) -> String {
    let bits = scalar_bits(s);
    match s.dtype() {
        DType::F32 => format!("__int_as_float(0x{:08x})", bits as u32),
        DType::F64 => format!("__longlong_as_double(0x{bits:016x}LL)"),
        DType::Bool => {
            if bits != 0 {
                "true".into()
            } else {
                "false".into()
            }
        }
        DType::U64 | DType::U32 | DType::U16 | DType::U8 => {
            format!("({})0x{bits:x}ULL", ctype(s.dtype()))
        }
        d => format!("({})({}LL)", ctype(d), bits as i64),
    }
}

/// CUDA's bit intrinsics on the low bits of an integer of type `d`: the 32-bit forms for
/// types up to 32 bits (the width difference taken off clz and brev), the 64-bit ones
/// otherwise.
fn bit_intrinsic(u: Unary, d: DType, x: &str) -> String {
    let w = d.itemsize() * 8;
    let ct = ctype(d);
    if w == 64 {
        let v = format!("(unsigned long long){x}");
        return match u {
            Unary::Popc => format!("({ct})__popcll({v})"),
            Unary::Clz => format!("({ct})__clzll((long long){v})"),
            Unary::Ffs => format!("({ct})__ffsll((long long){v})"),
            _ => format!("({ct})__brevll({v})"),
        };
    }
    let mask = if w == 32 {
        "0xffffffffu".to_string()
    } else {
        format!("0x{:x}u", (1u64 << w) - 1)
    };
    let v = format!("((unsigned int){x} & {mask})");
    let pad = 32 - w;
    match u {
        Unary::Popc => format!("({ct})__popc({v})"),
        Unary::Clz => format!("({ct})(__clz((int){v}) - {pad})"),
        Unary::Ffs => format!("({ct})__ffs((int){v})"),
        _ => format!("({ct})(__brev({v}) >> {pad})"),
    }
}

struct Gen<'a> {
    k: &'a Kernel,
    used: HashSet<Reg>,
    brk: BTreeSet<u32>,
    cont: BTreeSet<u32>,
    out: String,
    /// Print sites emitted so far (their ids, in [`printbuf::sites`] order).
    print_sites: u32,
    /// `raise` sites emitted so far (their ids, in [`crate::kernel::ir::raise_sites`] order).
    raise_sites: u32,
}

impl<'a> Gen<'a> {
    fn r(&self, r: Reg) -> String {
        format!("r{r}")
    }
    fn ty(&self, r: Reg) -> DType {
        self.k.regs[r as usize]
    }

    /// Pointer expression to an element of an array.
    fn elem_ptr(&self, a: ArrRef, ix: &[Reg]) -> String {
        match a {
            ArrRef::Param(p) => {
                let d = match &self.k.params[p as usize] {
                    Ty::Array { dtype, .. } => *dtype,
                    _ => DType::U8,
                };
                let mut off = String::new();
                for (k, r) in ix.iter().enumerate() {
                    let _ = write!(
                        off,
                        " + nb_wrap({}, arg{p}.shape[{k}]) * arg{p}.strides[{k}]",
                        self.r(*r)
                    );
                }
                format!("(({} *)(arg{p}.data{off}))", ctype(d))
            }
            ArrRef::Shared(i) | ArrRef::Local(i) | ArrRef::Const(i) => {
                let (decl, name) = match a {
                    ArrRef::Shared(_) => (&self.k.shared[i as usize], format!("shared{i}")),
                    ArrRef::Local(_) => (&self.k.local[i as usize], format!("local{i}")),
                    _ => (
                        &self.k.consts[i as usize],
                        format!("{}_const{i}", self.k.name),
                    ),
                };
                let shape: Vec<String> = if decl.dynamic {
                    vec![format!(
                        "(long long)(nb_dyn_bytes / {})",
                        decl.dtype.itemsize()
                    )]
                } else {
                    decl.shape.iter().map(|d| format!("{d}LL")).collect()
                };
                let mut flat = String::from("0LL");
                for (k, r) in ix.iter().enumerate() {
                    flat = format!(
                        "({flat}) * {} + nb_wrap({}, {})",
                        shape[k],
                        self.r(*r),
                        shape[k]
                    );
                }
                let base = if decl.dynamic {
                    format!("(({} *)nb_dyn_shared)", ctype(decl.dtype))
                } else {
                    format!("(({} *){name})", ctype(decl.dtype))
                };
                format!("({base} + ({flat}))")
            }
        }
    }

    fn arr_dtype(&self, a: ArrRef) -> DType {
        match a {
            ArrRef::Param(p) => match &self.k.params[p as usize] {
                Ty::Array { dtype, .. } => *dtype,
                _ => DType::U8,
            },
            ArrRef::Shared(i) => self.k.shared[i as usize].dtype,
            ArrRef::Local(i) => self.k.local[i as usize].dtype,
            ArrRef::Const(i) => self.k.consts[i as usize].dtype,
        }
    }

    fn expr(&self, dst: DType, op: &Op) -> String {
        let r = |x: &Reg| self.r(*x);
        let f32_ = dst == DType::F32;
        match op {
            Op::Const(s) => literal(s),
            Op::Param(i) => format!("arg{i}"),
            Op::Copy(x) => r(x),
            Op::Cast(x) => {
                if dst == DType::Bool {
                    format!("({} != 0)", r(x))
                } else {
                    format!("({}){}", ctype(dst), r(x))
                }
            }
            Op::Bin(b, x, y) => {
                let (a, c) = (r(x), r(y));
                let signed = dst.is_signed();
                match b {
                    Arith::Add => format!("{a} + {c}"),
                    Arith::Sub => format!("{a} - {c}"),
                    Arith::Mul => format!("{a} * {c}"),
                    Arith::Div => format!("{a} / {c}"),
                    Arith::FloorDiv if dst.is_float() => {
                        format!("{}({a} / {c})", if f32_ { "floorf" } else { "floor" })
                    }
                    Arith::FloorDiv if signed => {
                        format!("({})nb_floordiv_i64({a}, {c})", ctype(dst))
                    }
                    Arith::FloorDiv => format!("({})nb_floordiv_u64({a}, {c})", ctype(dst)),
                    Arith::Mod if dst.is_float() => format!("nb_mod_{}({a}, {c})", suffix(dst)),
                    Arith::Mod if signed => format!("({})nb_mod_i64({a}, {c})", ctype(dst)),
                    Arith::Mod => format!("({})nb_mod_u64({a}, {c})", ctype(dst)),
                    Arith::Pow if dst.is_float() => {
                        format!("{}({a}, {c})", if f32_ { "powf" } else { "pow" })
                    }
                    Arith::Pow if signed => format!("({})nb_pow_i64({a}, {c})", ctype(dst)),
                    Arith::Pow => format!("({})nb_pow_u64({a}, {c})", ctype(dst)),
                    Arith::BitAnd => format!("{a} & {c}"),
                    Arith::BitOr => format!("{a} | {c}"),
                    Arith::BitXor => format!("{a} ^ {c}"),
                    Arith::LShift => format!("{a} << ({c} & 63)"),
                    Arith::RShift => format!("{a} >> ({c} & 63)"),
                    Arith::Min => format!("({c} < {a} ? {c} : {a})"),
                    Arith::Max => format!("({c} > {a} ? {c} : {a})"),
                }
            }
            Op::Cmp(c, x, y) => {
                let o = match c {
                    Cmp::Eq => "==",
                    Cmp::Ne => "!=",
                    Cmp::Lt => "<",
                    Cmp::Le => "<=",
                    Cmp::Gt => ">",
                    Cmp::Ge => ">=",
                };
                format!("({} {o} {})", r(x), r(y))
            }
            Op::Un(u, x) => match (u, dst) {
                (Unary::Not, _) => format!("!{}", r(x)),
                (Unary::Neg, _) => format!("-{}", r(x)),
                (Unary::Invert, DType::Bool) => format!("!{}", r(x)),
                (Unary::Invert, _) => format!("~{}", r(x)),
                (Unary::Abs, DType::F32) => format!("fabsf({})", r(x)),
                (Unary::Abs, DType::F64) => format!("fabs({})", r(x)),
                (Unary::Abs, d) if d.is_signed() => format!("({0} < 0 ? -{0} : {0})", r(x)),
                (Unary::Abs, _) => r(x),
                (Unary::Popc | Unary::Clz | Unary::Ffs | Unary::Brev, d) => {
                    bit_intrinsic(*u, d, &r(x))
                }
            },
            Op::Math(f, xs) => {
                let t = self.ty(xs[0]);
                let a = r(&xs[0]);
                let b = xs.get(1).map(r).unwrap_or_default();
                let s = if t == DType::F32 { "f" } else { "" };
                let inf = if t == DType::F32 {
                    "__int_as_float(0x7f800000)"
                } else {
                    "__longlong_as_double(0x7ff0000000000000LL)"
                };
                match f {
                    MathFn::IsNan => format!("({a} != {a})"),
                    MathFn::IsInf => format!("(fabs{s}({a}) == {inf})"),
                    MathFn::IsFinite => format!("(fabs{s}({a}) < {inf})"),
                    MathFn::Round => format!("rint{s}({a})"),
                    MathFn::Gamma => format!("tgamma{s}({a})"),
                    MathFn::Atan2
                    | MathFn::Pow
                    | MathFn::Hypot
                    | MathFn::Fmod
                    | MathFn::Copysign
                    | MathFn::Remainder
                    | MathFn::Nextafter => {
                        format!("{}{s}({a}, {b})", f.name())
                    }
                    other => format!("{}{s}({a})", other.name()),
                }
            }
            Op::Select(c, a, b) => format!("({} ? {} : {})", r(c), r(a), r(b)),
            Op::Special(s) => {
                let d = |k: &u8| ["x", "y", "z"][*k as usize];
                match s {
                    Special::Tid(k) => format!("(int)threadIdx.{}", d(k)),
                    Special::Ctaid(k) => format!("(int)blockIdx.{}", d(k)),
                    Special::Ntid(k) => format!("(int)blockDim.{}", d(k)),
                    Special::Nctaid(k) => format!("(int)gridDim.{}", d(k)),
                    Special::LaneId => "(int)((threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) & 31)".into(),
                    Special::WarpSize => "warpSize".into(),
                    Special::GlobalId(k) => format!("((long long)threadIdx.{0} + (long long)blockIdx.{0} * (long long)blockDim.{0})", d(k)),
                }
            }
            Op::Dim(a, ax) => match a {
                ArrRef::Param(p) => format!("arg{p}.shape[{ax}]"),
                ArrRef::Shared(i) if self.k.shared[*i as usize].dynamic => {
                    format!(
                        "(long long)(nb_dyn_bytes / {})",
                        self.k.shared[*i as usize].dtype.itemsize()
                    )
                }
                ArrRef::Shared(i) => {
                    format!("{}LL", self.k.shared[*i as usize].shape[*ax as usize])
                }
                ArrRef::Local(i) => format!("{}LL", self.k.local[*i as usize].shape[*ax as usize]),
                ArrRef::Const(i) => format!("{}LL", self.k.consts[*i as usize].shape[*ax as usize]),
            },
            Op::Load(a, ix) => format!("*{}", self.elem_ptr(*a, ix)),
            Op::Atomic(op, a, ix, vs) => self.atomic(*op, *a, ix, vs),
            Op::Barrier(k, p) => {
                let p = p.map(|x| self.r(x)).unwrap_or_default();
                match k {
                    BarrierKind::Count => format!("__syncthreads_count({p})"),
                    BarrierKind::And => format!("__syncthreads_and({p})"),
                    BarrierKind::Or => format!("__syncthreads_or({p})"),
                    BarrierKind::Plain => "0".into(),
                }
            }
            Op::Rng(k, a, i) => {
                let ArrRef::Param(p) = a else {
                    return "0".into();
                };
                let s0 = format!(
                    "(unsigned long long *)(arg{p}.data + {} * arg{p}.strides[0])",
                    self.r(*i)
                );
                let s1 = format!("(unsigned long long *)(arg{p}.data + {} * arg{p}.strides[0] + arg{p}.strides[1])", self.r(*i));
                let f = match k {
                    RngKind::UniformF32 => "nb_uniform_f32",
                    RngKind::UniformF64 => "nb_uniform_f64",
                    RngKind::NormalF32 => "nb_normal_f32",
                    RngKind::NormalF64 => "nb_normal_f64",
                };
                format!("{f}({s0}, {s1})")
            }
            Op::Store(..) | Op::CheckIndex(..) | Op::Fence(_) | Op::Print(_) | Op::Raise { .. } => {
                "0".into()
            }
        }
    }

    fn atomic(&self, op: AtomicOp, a: ArrRef, ix: &[Reg], vs: &[Reg]) -> String {
        let d = self.arr_dtype(a);
        let p = self.elem_ptr(a, ix);
        let v = self.r(vs[0]);
        let native = |f: &str, cast: &str| -> String {
            if cast.is_empty() {
                format!("{f}({p}, {v})")
            } else {
                format!("({})({f}(({cast} *){p}, ({cast}){v}))", ctype(d))
            }
        };
        let ull = "unsigned long long";
        let global = matches!(a, ArrRef::Param(_));
        match (op, d) {
            (AtomicOp::Add, DType::F64) if global => format!("nb_atomic_add_f64({p}, {v})"),
            (AtomicOp::Sub, DType::F64) if global => format!("nb_atomic_add_f64({p}, -{v})"),
            (AtomicOp::Add, DType::I64) => native("atomicAdd", ull),
            (AtomicOp::Add, _) => native("atomicAdd", ""),
            (AtomicOp::Sub, DType::I32 | DType::U32) => native("atomicSub", ""),
            (AtomicOp::Sub, DType::F32 | DType::F64) => format!("atomicAdd({p}, -{v})"),
            (AtomicOp::Sub, _) => format!("({})atomicAdd(({ull} *){p}, ({ull})(-(long long){v}))", ctype(d)),
            (AtomicOp::And | AtomicOp::Or | AtomicOp::Xor | AtomicOp::Exch, DType::I64) => {
                let f = match op {
                    AtomicOp::And => "atomicAnd",
                    AtomicOp::Or => "atomicOr",
                    AtomicOp::Xor => "atomicXor",
                    _ => "atomicExch",
                };
                native(f, ull)
            }
            (AtomicOp::Exch, DType::F64) => format!("__longlong_as_double((long long)atomicExch(({ull} *){p}, ({ull})__double_as_longlong({v})))"),
            (AtomicOp::And, _) => native("atomicAnd", ""),
            (AtomicOp::Or, _) => native("atomicOr", ""),
            (AtomicOp::Xor, _) => native("atomicXor", ""),
            (AtomicOp::Exch, _) => native("atomicExch", ""),
            (AtomicOp::Max | AtomicOp::Min | AtomicOp::NanMax | AtomicOp::NanMin, DType::F32 | DType::F64) => {
                format!("nb_atomic_{}_{}({p}, {v})", format!("{op:?}").to_lowercase(), suffix(d))
            }
            (AtomicOp::Max | AtomicOp::NanMax, _) => native("atomicMax", ""),
            (AtomicOp::Min | AtomicOp::NanMin, _) => native("atomicMin", ""),
            (AtomicOp::Inc, DType::U32) => native("atomicInc", ""),
            (AtomicOp::Dec, DType::U32) => native("atomicDec", ""),
            (AtomicOp::Inc | AtomicOp::Dec, _) => format!("nb_atomic_{}_u64({p}, {v})", format!("{op:?}").to_lowercase()),
            (AtomicOp::Cas, DType::I64) => format!("(long long)atomicCAS(({ull} *){p}, ({ull}){v}, ({ull}){})", self.r(vs[1])),
            (AtomicOp::Cas, _) => format!("atomicCAS({p}, {v}, {})", self.r(vs[1])),
        }
    }

    fn line(&mut self, depth: usize, s: &str) {
        let _ = writeln!(self.out, "{}{s}", "  ".repeat(depth)); // bounded: IR nesting depth
    }

    /// Before an element access: an index out of range (after Python's negative
    /// wraparound) is recorded in the fault area and ends the thread, so the host raises
    /// the CPU device's IndexError instead of the GPU touching memory outside the array.
    fn bounds_check(&mut self, depth: usize, loc: u32, a: ArrRef, ix: &[Reg]) {
        let dims: Vec<String> = (0..ix.len())
            .map(|k| self.expr(DType::I64, &Op::Dim(a, k as u8)))
            .collect();
        self.check_dims(depth, loc, ix, dims);
    }

    /// The fault-and-return of [`Self::bounds_check`] against given extents (an array's
    /// axes, or a view's).
    fn check_dims(&mut self, depth: usize, loc: u32, ix: &[Reg], dims: Vec<String>) {
        if ix.is_empty() {
            return;
        }
        let idx: Vec<String> = ix.iter().map(|r| format!("(long long)r{r}")).collect();
        let cond: Vec<String> = idx
            .iter()
            .zip(&dims)
            .map(|(i, n)| format!("nb_oob({i}, {n})"))
            .collect();
        self.line(depth, &format!("if ({}) {{", cond.join(" || ")));
        self.line(
            depth + 1,
            &format!("long long nb_ix[] = {{{}}};", idx.join(", ")),
        );
        self.line(
            depth + 1,
            &format!("long long nb_n[] = {{{}}};", dims.join(", ")),
        );
        self.line(
            depth + 1,
            &format!(
                "nb_index_fault(nb_fault, {loc}u, {}, nb_ix, nb_n);",
                ix.len()
            ),
        );
        self.line(depth + 1, "return;");
        self.line(depth, "}");
    }

    fn inst(&mut self, depth: usize, i: &Inst) {
        if let Op::Load(a, ix) | Op::Store(a, ix, _) | Op::Atomic(_, a, ix, _) = &i.op {
            self.bounds_check(depth, i.loc, *a, ix);
        }
        match &i.op {
            Op::Store(a, ix, v) => {
                let p = self.elem_ptr(*a, ix);
                let v = self.r(*v);
                self.line(depth, &format!("*{p} = {v};"));
            }
            Op::CheckIndex(ix, n) => {
                let dims = n.iter().map(|r| format!("(long long)r{r}")).collect();
                self.check_dims(depth, i.loc, ix, dims);
            }
            Op::Barrier(BarrierKind::Plain, _) => self.line(depth, "__syncthreads();"),
            Op::Fence(s) => self.line(
                depth,
                match s {
                    FenceScope::Block => "__threadfence_block();",
                    FenceScope::Device => "__threadfence();",
                    FenceScope::System => "__threadfence_system();",
                    FenceScope::Warp => "__syncwarp();",
                },
            ),
            Op::Print(args) => self.print(depth, args),
            Op::Raise { .. } => {
                // The host finds the exception by this site's number (see `raise_sites`).
                let site = self.raise_sites;
                self.raise_sites += 1;
                self.line(depth, &format!("nb_raise(nb_fault, {site}u);"));
            }
            op => {
                let side_effect = matches!(op, Op::Atomic(..) | Op::Barrier(..) | Op::Rng(..));
                match i.dst {
                    Some(d) if self.used.contains(&d) => {
                        let e = self.expr(self.ty(d), op);
                        self.line(depth, &format!("r{d} = {e};"));
                    }
                    Some(d) if side_effect => {
                        let e = self.expr(self.ty(d), op);
                        self.line(depth, &format!("(void)({e});"));
                    }
                    _ => {}
                }
            }
        }
    }

    /// One record in the print buffer (see [`crate::kernel::printbuf`]): the values'
    /// bits in the CPU executor's register representation, formatted on the host.
    fn print(&mut self, depth: usize, args: &[PrintArg]) {
        let site = self.print_sites;
        self.print_sites += 1;
        let vals: Vec<String> = args
            .iter()
            .filter_map(|a| match a {
                PrintArg::Reg(r) => Some(match self.ty(*r) {
                    DType::F32 => format!("(unsigned long long)__float_as_uint(r{r})"),
                    DType::F64 => format!("(unsigned long long)__double_as_longlong(r{r})"),
                    DType::Bool => format!("(r{r} ? 1ULL : 0ULL)"),
                    d if d.is_signed() => format!("(unsigned long long)(long long)r{r}"),
                    _ => format!("(unsigned long long)r{r}"),
                }),
                PrintArg::Str(_) | PrintArg::Open(_) | PrintArg::Close(_) => None,
            })
            .collect();
        let begin = format!(
            "nb_print_begin(nb_print, {site}u, {}u, nb_print_seq++)",
            vals.len()
        );
        if vals.is_empty() {
            self.line(depth, &format!("(void){begin};"));
            return;
        }
        self.line(depth, "{");
        self.line(depth + 1, &format!("unsigned long long *nb_rec = {begin};"));
        self.line(depth + 1, "if (nb_rec) {");
        for (i, v) in vals.iter().enumerate() {
            self.line(depth + 2, &format!("nb_rec[{i}] = {v};"));
        }
        self.line(depth + 1, "}");
        self.line(depth, "}");
    }

    fn block(&mut self, depth: usize, body: &[Stmt]) {
        for s in body {
            match s {
                Stmt::Inst(i) => self.inst(depth, i),
                Stmt::If(c, t, e) => {
                    self.line(depth, &format!("if (r{c}) {{"));
                    self.block(depth + 1, t);
                    if !e.is_empty() {
                        self.line(depth, "} else {");
                        self.block(depth + 1, e);
                    }
                    self.line(depth, "}");
                }
                Stmt::Loop { id, body, latch } => {
                    self.line(depth, "for (;;) {");
                    self.block(depth + 1, body);
                    if self.cont.contains(id) {
                        self.line(depth, &format!("nb_cont_{id}:;"));
                    }
                    self.block(depth + 1, latch);
                    self.line(depth, "}");
                    if self.brk.contains(id) {
                        self.line(depth, &format!("nb_brk_{id}:;"));
                    }
                }
                Stmt::Break(id) => self.line(depth, &format!("goto nb_brk_{id};")),
                Stmt::Continue(id) => self.line(depth, &format!("goto nb_cont_{id};")),
                Stmt::Exit => self.line(depth, "return;"),
            }
        }
    }
}

/// The CUDA C source of a compiled kernel. Its entry point is [`entry_name`]; array
/// arguments are passed as `nb_arr` structs (data pointer at the view's first element,
/// shape and byte strides), scalars by value, then the print buffer when the kernel prints
/// and the fault area (see [`FAULT_WORDS`]).
pub fn cuda_source(kernel: &CompiledKernel) -> String {
    let k = &kernel.ir;
    let mut out = String::from(PRELUDE);
    atomic_helpers(k, &mut out);
    for (i, c) in k.consts.iter().enumerate() {
        let n = c.shape.iter().product::<usize>();
        let isz = c.dtype.itemsize();
        // Stored as raw bits: float initialisers would need dynamic initialisation.
        let raw = match isz {
            1 => "unsigned char",
            2 => "unsigned short",
            4 => "unsigned int",
            _ => "unsigned long long",
        };
        let vals: Vec<String> = (0..n)
            .map(|j| {
                let mut b = [0u8; 8];
                b[..isz].copy_from_slice(&c.data[j * isz..(j + 1) * isz]);
                format!("0x{:x}ULL", u64::from_le_bytes(b))
            })
            .collect();
        let _ = writeln!(
            out,
            "__constant__ {raw} {}_const{i}[{}] = {{{}}};",
            k.name,
            n.max(1),
            vals.join(", ")
        );
    }
    let mut params: Vec<String> = k
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| match t {
            Ty::Scalar(d) => format!("{} arg{i}", ctype(*d)),
            _ => format!("nb_arr arg{i}"),
        })
        .collect();
    let prints = printbuf::prints(k);
    if prints {
        out.push_str(PRINT_HELPER);
        params.push("unsigned long long *nb_print".to_string());
    }
    params.push("unsigned long long *nb_fault".to_string());
    let mut used = HashSet::new();
    reads(&k.body, &mut used);
    let (mut brk, mut cont) = (BTreeSet::new(), BTreeSet::new());
    jumps(&k.body, &mut brk, &mut cont);
    let mut g = Gen {
        k,
        used,
        brk,
        cont,
        out: String::new(),
        print_sites: 0,
        raise_sites: 0,
    };
    let _ = writeln!(
        out,
        "extern \"C\" __global__ void {}({}) {{",
        entry_name(kernel),
        params.join(", ")
    );
    if k.shared.iter().any(|s| s.dynamic) {
        g.line(1, "extern __shared__ unsigned long long nb_dyn_shared[];");
        g.line(1, "unsigned int nb_dyn_bytes;");
        g.line(
            1,
            "asm(\"mov.u32 %0, %%dynamic_smem_size;\" : \"=r\"(nb_dyn_bytes));",
        );
    }
    for (i, s) in k.shared.iter().enumerate().filter(|(_, s)| !s.dynamic) {
        let n = s.shape.iter().product::<usize>().max(1);
        g.line(1, &format!("__shared__ {} shared{i}[{n}];", ctype(s.dtype)));
    }
    for (i, l) in k.local.iter().enumerate() {
        let n = l.shape.iter().product::<usize>().max(1);
        g.line(1, &format!("{} local{i}[{n}];", ctype(l.dtype)));
    }
    let mut regs: Vec<&Reg> = g.used.iter().collect();
    regs.sort();
    let decls: Vec<String> = regs
        .iter()
        .map(|r| format!("{} r{r} = 0;", ctype(k.regs[**r as usize])))
        .collect();
    for d in decls {
        g.line(1, &d);
    }
    if prints {
        g.line(1, "unsigned int nb_print_seq = 0;");
    }
    g.block(1, &k.body);
    g.out.push_str("}\n");
    out.push_str(&g.out);
    out
}
