//! Rows four threads a step. A row `order.rs` runs is one counter of the global id along
//! the inner axis, and in the kernels people write first (`out[x, y] = a[x, y] * 2 +
//! b[x, y]`) its body is a few loads at that id, float arithmetic and one store: run
//! thread by thread, every element pays for its own loop test, address and scalar
//! conversions. When the body allows it, the row instead runs `LANES` threads per step
//! in vector registers, and the scalar loop runs what is left (fewer than `LANES`).
//!
//! The body allows it when every register is one of:
//! - uniform: the same for every thread of the row (launch-wide values, the ids along the
//!   other axes, values computed from them, the guard's compare `clamp.rs` knows holds);
//!   lowered as usual, once per step;
//! - a lane id: the row's global id plus a uniform integer; lowered as usual, as the
//!   step's first thread's value (thread `j` of the step has that plus `j`);
//! - a vector: a float32 or float64 value loaded from a C-contiguous array at an index
//!   whose last part is a lane id and whose others are uniform, or computed from such by
//!   `+ - * /`, negation, absolute value or a cast between the two float types.
//!
//! and the body holds only instructions and branches on uniform conditions (no loops, no
//! way out), each register read where a definition on every path before it reaches.
//!
//! The result is the interpreter's, bit for bit: each lane does the scalar code's IEEE
//! operations on the same operands (vector and scalar adds, multiplies, divides and
//! conversions round alike), and as no thread of an any-order kernel reads an element
//! another writes (`order.rs`), running an instruction for four threads before the next
//! one cannot be observed. Every access of the row is proven in range before it runs, so
//! a step of threads that all run needs no check.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, F64X2, I8X16};
use cranelift_codegen::ir::{
    Block, ConstantData, Endianness, InstBuilder, MemFlagsData, Type, Value,
};
use cranelift_frontend::Variable;
use cranelift_module::Module;

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Unary};
use crate::kernel::ir::{ArrRef, Inst, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::lower::{Lower, Unsupported};
use crate::kernel::types::{Layout, Ty};

/// Threads a vector step runs.
pub(crate) const LANES: i64 = 4;

/// How a register varies along a row (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Uniform,
    Lane,
    Vector,
}

/// A row body that runs [`LANES`] threads per step: the kind of every register it defines.
#[derive(Clone, Debug)]
pub(crate) struct VectorRow {
    kinds: Vec<Option<Kind>>,
}

/// Whether `k`'s body, run as a row along thread axis `ax`, can run in vector steps;
/// `known` tells the compares the row's cut knows hold (`clamp.rs`).
pub(crate) fn plan(k: &Kernel, ax: usize, known: &dyn Fn(&Inst) -> bool) -> Option<VectorRow> {
    let mut p = Plan {
        k,
        ax,
        known,
        kinds: vec![None; k.regs.len()],
    };
    p.stmts(&k.body, &mut HashSet::new())?;
    let kinds = p.kinds;
    kinds
        .contains(&Some(Kind::Vector))
        .then_some(VectorRow { kinds })
}

struct Plan<'k> {
    k: &'k Kernel,
    ax: usize,
    known: &'k dyn Fn(&Inst) -> bool,
    kinds: Vec<Option<Kind>>,
}

impl Plan<'_> {
    /// Walk `ss` with `live` the registers defined on every path so far.
    fn stmts(&mut self, ss: &[Stmt], live: &mut HashSet<Reg>) -> Option<()> {
        for s in ss {
            match s {
                Stmt::Inst(i) => {
                    let kind = self.inst(i, live)?;
                    if let Some(d) = i.dst {
                        if *self.kinds[d as usize].get_or_insert(kind) != kind {
                            return None;
                        }
                        live.insert(d);
                    }
                }
                Stmt::If(c, t, e) => {
                    if self.of(*c, live)? != Kind::Uniform {
                        return None;
                    }
                    let (mut lt, mut le) = (live.clone(), live.clone());
                    self.stmts(t, &mut lt)?;
                    self.stmts(e, &mut le)?;
                    *live = lt.intersection(&le).copied().collect();
                }
                Stmt::Loop { .. } | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => return None,
            }
        }
        Some(())
    }

    fn of(&self, r: Reg, live: &HashSet<Reg>) -> Option<Kind> {
        live.contains(&r).then(|| self.kinds[r as usize]).flatten()
    }

    fn dt(&self, r: Reg) -> DType {
        self.k.regs[r as usize]
    }

    /// The kind of `i`'s result (a store's: Vector), or None when the row cannot run in
    /// vector steps.
    fn inst(&self, i: &Inst, live: &HashSet<Reg>) -> Option<Kind> {
        use Kind::*;
        let of = |r: &Reg| self.of(*r, live);
        let uniform = |rs: &[&Reg]| rs.iter().all(|r| of(r) == Some(Uniform));
        let dst = i.dst.map(|d| self.dt(d));
        let float = matches!(dst, Some(DType::F32 | DType::F64));
        Some(match &i.op {
            Op::Const(_) | Op::Param(_) | Op::Dim(..) => Uniform,
            Op::Special(s) => match *s {
                Special::GlobalId(a) if a.min(2) as usize == self.ax => Lane,
                Special::Tid(a) | Special::Ctaid(a) if a.min(2) as usize == self.ax => return None,
                Special::LaneId => return None,
                _ => Uniform,
            },
            Op::Copy(x) => match of(x)? {
                Vector if Some(self.dt(*x)) != dst => return None,
                k => k,
            },
            Op::Cast(x) => match of(x)? {
                Uniform => Uniform,
                // Global ids are far from any wrap, so a lane id keeps its lanes apart.
                Lane if dst == Some(DType::I64) => Lane,
                Vector if float => Vector,
                _ => return None,
            },
            Op::Bin(op, x, y) => match (op, of(x)?, of(y)?) {
                (_, Uniform, Uniform) => Uniform,
                (Arith::Add, Lane, Uniform)
                | (Arith::Add, Uniform, Lane)
                | (Arith::Sub, Lane, Uniform)
                    if dst == Some(DType::I64) =>
                {
                    Lane
                }
                (Arith::Add | Arith::Sub | Arith::Mul | Arith::Div, a, b)
                    if float && a != Lane && b != Lane =>
                {
                    Vector
                }
                _ => return None,
            },
            Op::Un(op, x) => match (op, of(x)?) {
                (_, Uniform) => Uniform,
                (Unary::Neg | Unary::Abs, Vector) => Vector,
                _ => return None,
            },
            Op::Cmp(..) if (self.known)(i) => Uniform,
            Op::Cmp(_, x, y) if uniform(&[x, y]) => Uniform,
            Op::Select(c, x, y) if uniform(&[c, x, y]) => Uniform,
            Op::Math(_, xs) if uniform(&xs.iter().collect::<Vec<_>>()) => Uniform,
            Op::Load(a, idx) => match self.access(*a, idx, live)? {
                (Uniform, _) => Uniform,
                (_, dtype) if dst == Some(dtype) => Vector,
                _ => return None,
            },
            Op::Store(a, idx, v) => match (self.access(*a, idx, live)?, of(v)?) {
                ((Vector, dtype), Vector | Uniform) if self.dt(*v) == dtype => Vector,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// How an access varies along the row (Uniform: every index does; Vector: the last
    /// is a lane id, the others uniform, into a C-contiguous float array) and the array's
    /// dtype.
    fn access(&self, a: ArrRef, idx: &[Reg], live: &HashSet<Reg>) -> Option<(Kind, DType)> {
        let (dtype, contiguous) = match a {
            ArrRef::Param(p) => match self.k.params.get(p as usize)? {
                Ty::Array { dtype, layout, .. } => (*dtype, *layout == Layout::C),
                _ => return None,
            },
            ArrRef::Const(c) => (self.k.consts.get(c as usize)?.dtype, true),
            ArrRef::Local(_) | ArrRef::Shared(_) => return None,
        };
        let kinds = idx
            .iter()
            .map(|r| self.of(*r, live))
            .collect::<Option<Vec<_>>>()?;
        if kinds.iter().all(|k| *k == Kind::Uniform) {
            return Some((Kind::Uniform, dtype));
        }
        let (last, rest) = kinds.split_last()?;
        let lanes = *last == Kind::Lane && rest.iter().all(|k| *k == Kind::Uniform);
        let float = matches!(dtype, DType::F32 | DType::F64);
        (lanes && contiguous && float).then_some((Kind::Vector, dtype))
    }
}

/// The vector type holding a float register's lanes, and how many of them: one float32x4,
/// or two float64x2.
fn parts(dt: DType) -> (Type, usize) {
    match dt {
        DType::F32 => (F32X4, 1),
        _ => (F64X2, 2),
    }
}

/// Flags of a vector access: never trapping (proven in range) but not `aligned`, as a row
/// starts anywhere, and an aligned vector load may be folded into an SSE operand, which
/// faults on an address that is not a multiple of 16.
fn vflags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Bytes 8..16 of a vector, twice: float32 lanes 2 and 3 moved to 0 and 1.
const HIGH_HALF: [u8; 16] = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
/// Bytes 0..8 of the first vector, then 0..8 of the second.
const LOW_HALVES: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];

/// The vector registers of a row's vector-kind registers, declared as first defined.
struct Lanes<'p> {
    plan: &'p VectorRow,
    vars: HashMap<Reg, Vec<Variable>>,
}

impl<M: Module> Lower<'_, '_, M> {
    /// Build the row's vector loop in block `head`, which the row enters with `g` its first
    /// global id and `g_end` one past its last: steps of [`LANES`] threads while a whole
    /// step fits, then on to `tail`, the scalar loop, which runs what is left. `self.run`,
    /// `self.cut` and `self.proven` are the row's.
    pub(super) fn vector_steps(
        &mut self,
        plan: &VectorRow,
        g: Variable,
        g_end: Variable,
        head: Block,
        tail: Block,
    ) -> Result<(), Unsupported> {
        self.b.switch_to_block(head);
        let (gv, end) = (self.b.use_var(g), self.b.use_var(g_end));
        let last = self.b.ins().iadd_imm_s(gv, LANES);
        let over = self.b.ins().icmp(IntCC::SignedGreaterThan, last, end);
        let step = self.b.create_block();
        // The exit first: see `select::loop_exit_first`.
        self.b.ins().brif(over, tail, &[], step, &[]);
        self.b.seal_block(step);
        self.b.switch_to_block(step);
        self.checked.clear();
        let mut lanes = Lanes {
            plan,
            vars: HashMap::new(),
        };
        let k = self.k;
        self.vstmts(&k.body, &mut lanes)?;
        self.checked.clear();
        let gv = self.b.use_var(g);
        let next = self.b.ins().iadd_imm_s(gv, LANES);
        self.b.def_var(g, next);
        self.b.ins().jump(head, &[]);
        self.b.seal_block(head);
        Ok(())
    }

    fn vstmts(&mut self, ss: &[Stmt], lanes: &mut Lanes) -> Result<(), Unsupported> {
        for s in ss {
            match s {
                Stmt::Inst(i) => self.vinst(i, lanes)?,
                Stmt::If(c, t, e) => {
                    // A uniform condition: every thread of the step takes the same arm.
                    let known = self.checked.len();
                    let cv = self.reg(*c);
                    let [tb, eb, join]: [Block; 3] = std::array::from_fn(|_| self.b.create_block());
                    self.b.ins().brif(cv, tb, &[], eb, &[]);
                    self.b.seal_block(tb);
                    self.b.seal_block(eb);
                    for (block, arm) in [(tb, t), (eb, e)] {
                        self.b.switch_to_block(block);
                        self.vstmts(arm, lanes)?;
                        self.checked.truncate(known);
                        self.b.ins().jump(join, &[]);
                    }
                    self.b.seal_block(join);
                    self.b.switch_to_block(join);
                }
                _ => return Err("a vector row has only instructions and branches".into()),
            }
        }
        Ok(())
    }

    fn vinst(&mut self, i: &Inst, lanes: &mut Lanes) -> Result<(), Unsupported> {
        let dst = i.dst;
        let vector = dst.is_some_and(|d| lanes.plan.kinds[d as usize] == Some(Kind::Vector));
        let vals = match &i.op {
            Op::Store(a, idx, v) => {
                let av = self.arr(*a)?;
                let (_, addr) = self.address(i, &av, idx)?;
                let xs = self.vget(*v, lanes)?;
                for (n, x) in xs.into_iter().enumerate() {
                    self.b.ins().store(vflags(), x, addr, 16 * n as i32);
                }
                return Ok(());
            }
            // Uniform values and lane ids: the scalar code, for the step's first thread.
            _ if !vector => return self.inst(i),
            Op::Load(a, idx) => {
                let av = self.arr(*a)?;
                let (_, addr) = self.address(i, &av, idx)?;
                let (ty, n) = parts(av.dtype);
                (0..n)
                    .map(|j| self.b.ins().load(ty, vflags(), addr, 16 * j as i32))
                    .collect()
            }
            Op::Copy(x) => self.vget(*x, lanes)?,
            Op::Cast(x) => {
                let xs = self.vget(*x, lanes)?;
                let to = self.dt(dst.ok_or("cast without destination")?);
                self.vcast(xs, self.dt(*x), to)?
            }
            Op::Bin(op, x, y) => {
                let (xs, ys) = (self.vget(*x, lanes)?, self.vget(*y, lanes)?);
                let mut out = Vec::new();
                for (a, b) in xs.into_iter().zip(ys) {
                    let ins = self.b.ins();
                    out.push(match op {
                        Arith::Add => ins.fadd(a, b),
                        Arith::Sub => ins.fsub(a, b),
                        Arith::Mul => ins.fmul(a, b),
                        Arith::Div => ins.fdiv(a, b),
                        _ => return Err("not a vector operation".into()),
                    });
                }
                out
            }
            Op::Un(op, x) => {
                let xs = self.vget(*x, lanes)?;
                let mut out = Vec::new();
                for a in xs {
                    out.push(match op {
                        Unary::Neg => self.b.ins().fneg(a),
                        Unary::Abs => self.b.ins().fabs(a),
                        _ => return Err("not a vector operation".into()),
                    });
                }
                out
            }
            _ => return Err("not a vector operation".into()),
        };
        let d = dst.ok_or("vector value without destination")?;
        let (ty, _) = parts(self.dt(d));
        let b = &mut self.b;
        let vars = lanes
            .vars
            .entry(d)
            .or_insert_with(|| vals.iter().map(|_| b.declare_var(ty)).collect());
        for (v, x) in vars.iter().zip(vals) {
            self.b.def_var(*v, x);
        }
        Ok(())
    }

    /// Register `x`'s lanes: its vector registers, or a uniform value in every lane.
    fn vget(&mut self, x: Reg, lanes: &Lanes) -> Result<Vec<Value>, Unsupported> {
        if lanes.plan.kinds[x as usize] == Some(Kind::Vector) {
            let vars = lanes
                .vars
                .get(&x)
                .ok_or("vector register read before set")?;
            return Ok(vars.iter().map(|v| self.b.use_var(*v)).collect());
        }
        let s = self.reg(x);
        let (ty, n) = parts(self.dt(x));
        let v = self.b.ins().splat(ty, s);
        // bounded: `parts` gives one or two vector registers
        Ok(vec![v; n])
    }

    fn vcast(&mut self, xs: Vec<Value>, from: DType, to: DType) -> Result<Vec<Value>, Unsupported> {
        Ok(match (from, to) {
            _ if from == to => xs,
            (DType::F32, DType::F64) => {
                let hi = self.shuffle(xs[0], xs[0], HIGH_HALF);
                let lo = self.b.ins().fvpromote_low(xs[0]);
                vec![lo, self.b.ins().fvpromote_low(hi)]
            }
            (DType::F64, DType::F32) => {
                let lo = self.b.ins().fvdemote(xs[0]);
                let hi = self.b.ins().fvdemote(xs[1]);
                vec![self.shuffle(lo, hi, LOW_HALVES)]
            }
            _ => return Err("not a vector cast".into()),
        })
    }

    /// The bytes `mask` picks from float32x4 `a` then `b`, as a float32x4.
    fn shuffle(&mut self, a: Value, b: Value, mask: [u8; 16]) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let a = self.b.ins().bitcast(I8X16, le, a);
        let b = self.b.ins().bitcast(I8X16, le, b);
        let imm = self
            .b
            .func
            .dfg
            .immediates
            .push(ConstantData::from(&mask[..]));
        let s = self.b.ins().shuffle(a, b, imm);
        self.b.ins().bitcast(F32X4, le, s)
    }
}
