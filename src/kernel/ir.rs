//! The kernel IR: typed virtual registers, structured control flow (if / loop with labelled
//! break and continue), array accesses that carry their source location for bounds
//! messages, special registers, barriers, atomics, shared/local/const arrays, print and RNG
//! draws. Device functions are inlined by the front end, so the IR has no calls.
//!
//! Nothing here assumes a CPU: the executor and the CUDA C generator both consume it.

pub use crate::arrays::operator::MathFn;
use crate::arrays::operator::{Arith, Cmp, Unary};
use std::fmt::Write;

use crate::arrays::dtype::{DType, Scalar};
use crate::kernel::types::{numba_name, Ty};

pub type Reg = u32;

/// Which array an access goes to. Arrays are never values in registers: the front end
/// resolves every array expression to one of these at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrRef {
    Param(u32),
    Shared(u32),
    Local(u32),
    Const(u32),
}

/// A shared, local or constant array declared by the kernel.
#[derive(Clone, Debug)]
pub struct ArrayDecl {
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// `cuda.shared.array(0, ...)`: sized by the launch's dynamic shared bytes.
    pub dynamic: bool,
    /// Contents of `cuda.const.array_like` arrays (little-endian, C order).
    pub data: Vec<u8>,
}

impl ArrayDecl {
    pub fn bytes(&self) -> usize {
        self.shape.iter().product::<usize>() * self.dtype.itemsize()
    }
}

/// Special registers (x/y/z selected by the `u8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    Tid(u8),
    Ctaid(u8),
    Ntid(u8),
    Nctaid(u8),
    LaneId,
    WarpSize,
    /// `threadIdx + blockIdx * blockDim` along one axis, as int64 (`cuda.grid`).
    GlobalId(u8),
}

/// The reach of a memory fence: `cuda.threadfence_block()` (the block),
/// `cuda.threadfence()` (the device), `cuda.threadfence_system()` (device and host), and
/// `cuda.syncwarp()`, which also orders the warp's memory accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenceScope {
    Block,
    Device,
    System,
    Warp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierKind {
    Plain,
    Count,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Max,
    Min,
    NanMax,
    NanMin,
    And,
    Or,
    Xor,
    Exch,
    Inc,
    Dec,
    Cas,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RngKind {
    UniformF32,
    UniformF64,
    NormalF32,
    NormalF64,
}

#[derive(Clone, Debug)]
pub enum PrintArg {
    Str(String),
    Reg(Reg),
    /// Text the next piece follows without a space (a tuple's `(`).
    Open(String),
    /// Text that follows the previous piece without a space (a tuple's `,` and `)`).
    Close(String),
}

#[derive(Clone, Debug)]
pub enum Op {
    Const(Scalar),
    /// Scalar kernel parameter `i`.
    Param(u32),
    Copy(Reg),
    /// Convert from the source register's type to the destination's.
    Cast(Reg),
    /// Operands have the destination's type.
    Bin(Arith, Reg, Reg),
    /// Operands share one type; the destination is boolean.
    Cmp(Cmp, Reg, Reg),
    Un(Unary, Reg),
    Math(MathFn, Vec<Reg>),
    /// cond ? a : b
    Select(Reg, Reg, Reg),
    Special(Special),
    /// Extent of an array axis (int64).
    Dim(ArrRef, u8),
    /// Indices are int64 registers, one per dimension.
    Load(ArrRef, Vec<Reg>),
    Store(ArrRef, Vec<Reg>, Reg),
    /// Bounds check of an index into an array view (`a[2:8][k]`): the view's indices and
    /// extents, int64. The base array's own check cannot see the view's narrower bounds,
    /// so this raises the same IndexError against the view's shape.
    CheckIndex(Vec<Reg>, Vec<Reg>),
    /// Returns the old value; operands have the array's dtype (`Cas`: compare, value).
    Atomic(AtomicOp, ArrRef, Vec<Reg>, Vec<Reg>),
    /// `Count`/`And`/`Or` take an int32 predicate and return int32.
    Barrier(BarrierKind, Option<Reg>),
    Fence(FenceScope),
    Print(Vec<PrintArg>),
    /// A draw from the xoroshiro128p state `states[index]` (states: uint64 array (n, 2)).
    Rng(RngKind, ArrRef, Reg),
    /// `raise` in a kernel compiled with `debug=True`: the launch fails and the host raises
    /// the Python exception `ename` with `message`. The thread leaves right after.
    Raise {
        ename: String,
        message: String,
    },
}

/// Call `f` on every statement of `ss` and of the blocks nested in it: each statement before
/// its blocks, an `If`'s then-branch before its else-branch, a loop's body before its latch.
/// Passes that number sites (prints, raises) rely on this order matching the code
/// generators'.
pub fn walk<'k>(ss: &'k [Stmt], f: &mut impl FnMut(&'k Stmt)) {
    for s in ss {
        f(s);
        match s {
            Stmt::If(_, t, e) => {
                walk(t, f);
                walk(e, f);
            }
            Stmt::Loop { body, latch, .. } => {
                walk(body, f);
                walk(latch, f);
            }
            Stmt::Inst(_) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
        }
    }
}

/// Call `f` on every instruction of `ss`, nested ones included, in [`walk`]'s order.
pub fn each_inst<'k>(ss: &'k [Stmt], f: &mut impl FnMut(&'k Inst)) {
    walk(ss, &mut |s| {
        if let Stmt::Inst(i) = s {
            f(i)
        }
    });
}

/// The exception (class name, message) of every `raise` in `k`, in body order (an `If`'s
/// branches then a loop's body and latch): the CUDA device reports a raise by its number.
pub fn raise_sites(k: &Kernel) -> Vec<(String, String)> {
    let mut out = Vec::new();
    each_inst(&k.body, &mut |i| {
        if let Op::Raise { ename, message } = &i.op {
            out.push((ename.clone(), message.clone()));
        }
    });
    out
}

/// Calls `$f` with every register `$op` reads, index registers included. Written once
/// for `&Op` and `&mut Op`: match ergonomics bind `&Reg` or `&mut Reg` accordingly.
macro_rules! each_read {
    ($op:expr, $f:expr) => {{
        let mut f = $f;
        match $op {
            Op::Const(_)
            | Op::Param(_)
            | Op::Special(_)
            | Op::Dim(..)
            | Op::Fence(_)
            | Op::Raise { .. } => {}
            Op::Copy(r) | Op::Cast(r) | Op::Un(_, r) | Op::Rng(_, _, r) => f(r),
            Op::Bin(_, x, y) | Op::Cmp(_, x, y) => {
                f(x);
                f(y);
            }
            Op::Select(c, x, y) => {
                f(c);
                f(x);
                f(y);
            }
            Op::Math(_, xs) | Op::Load(_, xs) => {
                for r in xs {
                    f(r);
                }
            }
            Op::Store(_, idx, v) => {
                for r in idx {
                    f(r);
                }
                f(v);
            }
            Op::Atomic(_, _, idx, vals) | Op::CheckIndex(idx, vals) => {
                for r in idx {
                    f(r);
                }
                for r in vals {
                    f(r);
                }
            }
            Op::Barrier(_, pred) => {
                if let Some(r) = pred {
                    f(r);
                }
            }
            Op::Print(args) => {
                for a in args {
                    if let PrintArg::Reg(r) = a {
                        f(r);
                    }
                }
            }
        }
    }};
}

impl Op {
    /// Call `f` with every register this operation reads (index registers included).
    pub fn reads(&self, mut f: impl FnMut(Reg)) {
        each_read!(self, |r: &Reg| f(*r))
    }

    /// Call `f` on every register this operation reads, to rewrite it.
    pub fn reads_mut(&mut self, f: impl FnMut(&mut Reg)) {
        each_read!(self, f)
    }
}

#[derive(Clone, Debug)]
pub struct Inst {
    pub dst: Option<Reg>,
    pub op: Op,
    /// Index into [`Kernel::locs`].
    pub loc: u32,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Inst(Inst),
    If(Reg, Vec<Stmt>, Vec<Stmt>),
    /// Runs `body` then `latch` until a `Break(id)`; `Continue(id)` jumps to `latch`.
    Loop {
        id: u32,
        body: Vec<Stmt>,
        latch: Vec<Stmt>,
    },
    Break(u32),
    Continue(u32),
    /// The thread leaves the kernel (`return` in a kernel).
    Exit,
}

/// A source location, kept as text so kernels can be sent to worker threads.
#[derive(Clone, Debug, Default)]
pub struct Loc {
    pub function: String,
    pub line: usize,
    pub text: String,
}

/// One compiled specialisation.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Ty>,
    /// Type of every register.
    pub regs: Vec<DType>,
    pub shared: Vec<ArrayDecl>,
    pub local: Vec<ArrayDecl>,
    pub consts: Vec<ArrayDecl>,
    pub body: Vec<Stmt>,
    /// The returned value (device functions compiled for the host, `@njit`).
    pub ret: Option<Reg>,
    pub locs: Vec<Loc>,
    /// True when the body has barriers or shared memory (threads of a block interact).
    pub uses_block: bool,
    /// `prange` loops whose iterations are independent (see [`crate::kernel::exec::prange`]);
    /// a host run with `parallel=True` may split them across cores. Devices ignore this.
    pub par_loops: Vec<ParLoop>,
    /// Facts the CPU executor relies on, derived from the body by [`crate::kernel::exec::plan`]
    /// when the kernel is finished.
    pub hints: crate::kernel::exec::plan::ExecHints,
    /// Warnings the compiler raised, as (category, message): the host shows them once,
    /// when the specialisation is compiled (Numba warns at compile time).
    pub warnings: Vec<(String, String)>,
}

/// A parallelisable counted loop: `Stmt::Loop` `id` runs `ctr` from its value at loop entry
/// while `ctr < stop` (or `>` for a negative `step`), adding `step` (1 when None).
/// `stop` is a register private to the loop, so a chunk may lower it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParLoop {
    pub id: u32,
    pub ctr: Reg,
    pub stop: Reg,
    pub step: Option<Reg>,
}

impl Kernel {
    pub fn static_shared_bytes(&self) -> usize {
        self.shared
            .iter()
            .filter(|d| !d.dynamic)
            .map(|d| d.bytes())
            .sum()
    }
}

fn arr(a: &ArrRef) -> String {
    match a {
        ArrRef::Param(i) => format!("arg{i}"),
        ArrRef::Shared(i) => format!("shared{i}"),
        ArrRef::Local(i) => format!("local{i}"),
        ArrRef::Const(i) => format!("const{i}"),
    }
}

fn regs(rs: &[Reg]) -> String {
    rs.iter()
        .map(|r| format!("%{r}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn scalar_text(s: &Scalar) -> String {
    match s {
        Scalar::Bool(b) => b.to_string(),
        Scalar::F32(v) => format!("{v:?}"),
        Scalar::F64(v) => format!("{v:?}"),
        other => other.as_i64().to_string(),
    }
}

fn op_text(op: &Op) -> String {
    match op {
        Op::Const(s) => format!("const {}", scalar_text(s)),
        Op::Param(i) => format!("param {i}"),
        Op::Copy(r) => format!("copy %{r}"),
        Op::Cast(r) => format!("cast %{r}"),
        Op::Bin(b, x, y) => format!("{} %{x}, %{y}", arith_mnemonic(*b)),
        Op::Cmp(c, x, y) => format!("cmp.{} %{x}, %{y}", format!("{c:?}").to_lowercase()),
        Op::Un(u, x) => format!("{} %{x}", format!("{u:?}").to_lowercase()),
        Op::Math(f, a) => format!("math.{} {}", f.name(), regs(a)),
        Op::Select(c, a, b) => format!("select %{c}, %{a}, %{b}"),
        Op::Special(s) => {
            let dim = |d: &u8| ["x", "y", "z"][*d as usize];
            match s {
                Special::Tid(d) => format!("sreg tid.{}", dim(d)),
                Special::Ctaid(d) => format!("sreg ctaid.{}", dim(d)),
                Special::Ntid(d) => format!("sreg ntid.{}", dim(d)),
                Special::Nctaid(d) => format!("sreg nctaid.{}", dim(d)),
                Special::LaneId => "sreg laneid".into(),
                Special::WarpSize => "sreg warpsize".into(),
                Special::GlobalId(d) => format!("sreg gid.{}", dim(d)),
            }
        }
        Op::Dim(a, d) => format!("dim {}, {d}", arr(a)),
        Op::Load(a, ix) => format!("load {}[{}]", arr(a), regs(ix)),
        Op::Store(a, ix, v) => format!("store {}[{}], %{v}", arr(a), regs(ix)),
        Op::CheckIndex(ix, n) => format!("check [{}] < [{}]", regs(ix), regs(n)),
        Op::Atomic(o, a, ix, v) => format!(
            "atomic.{} {}[{}], {}",
            format!("{o:?}").to_lowercase(),
            arr(a),
            regs(ix),
            regs(v)
        ),
        Op::Barrier(k, p) => match p {
            Some(p) => format!("barrier.{} %{p}", format!("{k:?}").to_lowercase()),
            None => "barrier".into(),
        },
        Op::Fence(s) => format!("fence.{}", format!("{s:?}").to_lowercase()),
        Op::Print(args) => {
            let parts: Vec<String> = args
                .iter()
                .map(|a| match a {
                    PrintArg::Str(s) => format!("{s:?}"),
                    PrintArg::Reg(r) => format!("%{r}"),
                    PrintArg::Open(s) => format!("open {s:?}"),
                    PrintArg::Close(s) => format!("close {s:?}"),
                })
                .collect();
            format!("print {}", parts.join(", "))
        }
        Op::Rng(k, a, i) => format!("rng.{} {}[%{i}]", format!("{k:?}").to_lowercase(), arr(a)),
        Op::Raise { ename, message } => format!("raise {ename}({message:?})"),
    }
}

fn print_block(k: &Kernel, body: &[Stmt], depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth); // bounded: IR nesting depth
    for s in body {
        match s {
            Stmt::Inst(i) => {
                let line = k.locs.get(i.loc as usize).map(|l| l.line).unwrap_or(0);
                match i.dst {
                    Some(d) => {
                        let _ = writeln!(
                            out,
                            "{pad}%{d}: {} = {}    ; line {line}",
                            numba_name(k.regs[d as usize]),
                            op_text(&i.op)
                        );
                    }
                    None => {
                        let _ = writeln!(out, "{pad}{}    ; line {line}", op_text(&i.op));
                    }
                }
            }
            Stmt::If(c, t, e) => {
                let _ = writeln!(out, "{pad}if %{c} {{");
                print_block(k, t, depth + 1, out);
                if !e.is_empty() {
                    let _ = writeln!(out, "{pad}}} else {{");
                    print_block(k, e, depth + 1, out);
                }
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Loop { id, body, latch } => {
                let _ = writeln!(out, "{pad}loop L{id} {{");
                print_block(k, body, depth + 1, out);
                if !latch.is_empty() {
                    let _ = writeln!(out, "{pad}}} latch {{");
                    print_block(k, latch, depth + 1, out);
                }
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Break(id) => {
                let _ = writeln!(out, "{pad}break L{id}");
            }
            Stmt::Continue(id) => {
                let _ = writeln!(out, "{pad}continue L{id}");
            }
            Stmt::Exit => {
                let _ = writeln!(out, "{pad}exit");
            }
        }
    }
}

/// The IR text's name of an arithmetic instruction (`shl`, not Python's `<<` or NumPy's
/// `left_shift`).
fn arith_mnemonic(a: Arith) -> &'static str {
    match a {
        Arith::Add => "add",
        Arith::Sub => "sub",
        Arith::Mul => "mul",
        Arith::Div => "div",
        Arith::FloorDiv => "floordiv",
        Arith::Mod => "mod",
        Arith::Pow => "pow",
        Arith::BitAnd => "and",
        Arith::BitOr => "or",
        Arith::BitXor => "xor",
        Arith::LShift => "shl",
        Arith::RShift => "shr",
        Arith::Min => "min",
        Arith::Max => "max",
    }
}

/// The stable textual form used by golden tests and `inspect_types`.
pub fn print_kernel(k: &Kernel) -> String {
    let mut out = String::new();
    let params: Vec<String> = k
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("arg{i}: {t}"))
        .collect();
    let _ = writeln!(out, "kernel {}({}) {{", k.name, params.join(", "));
    let decl = |out: &mut String, kind: &str, ds: &[ArrayDecl]| {
        for (i, d) in ds.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {kind}{i}: {}{:?}{}",
                numba_name(d.dtype),
                d.shape,
                if d.dynamic { " dynamic" } else { "" }
            );
        }
    };
    decl(&mut out, "shared", &k.shared);
    decl(&mut out, "local", &k.local);
    decl(&mut out, "const", &k.consts);
    print_block(k, &k.body, 1, &mut out);
    if let Some(r) = k.ret {
        let _ = writeln!(out, "  return %{r}");
    }
    out.push_str("}\n");
    out
}
