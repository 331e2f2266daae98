//! One bounds check per block instead of one per thread, by loop versioning. An index
//! register whose value in every thread of a block is `inv + t` (`inv` the same for the
//! whole block, `t` the thread's index along one axis: `cuda.grid`, `threadIdx`, plus or
//! minus block-invariant values) takes the values `[inv, inv + blockDim - 1]` over the
//! block, known before any thread runs. When every such access of the body lies inside
//! its array for the whole block, the block runs a copy of the thread loop whose accesses
//! have no check; otherwise today's checked copy. A proof covers the threads a guard
//! would skip as well, so the two copies behave identically wherever the fast one runs,
//! faults included (it has none to raise).
//!
//! Only registers with one definition in the whole body count, and only where that
//! definition dominates the use (structured control flow: later in the same statement
//! list, or nested inside it), so the value read is always the one the definition made.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Variable;
use cranelift_module::Module;

use crate::arrays::dtype::DType;
use crate::arrays::operator::Arith;
use crate::kernel::ir::{ArrRef, Inst, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::lockstep::{Lanes, Lockstep};
use crate::kernel::jit::lower::{Lower, Unsupported};
use crate::kernel::jit::ops::constant;

/// A register's value over a block: the same in every thread, or that plus the thread's
/// index along an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    Inv,
    Lane(u8),
}

/// An access whose every index has a [`Form`] where it is made.
pub(crate) struct Access {
    /// The instruction's address in the kernel body (it identifies the access while the
    /// body is lowered).
    pub(crate) at: usize,
    pub(crate) arr: ArrRef,
    pub(crate) idx: Vec<Reg>,
}

/// The body's affine registers (with the operation defining each) and the accesses
/// indexed by them alone.
pub(crate) struct Affine<'k> {
    pub(crate) defs: HashMap<Reg, (&'k Op, Form)>,
    pub(crate) accesses: Vec<Access>,
    /// A lockstep kernel's loop counter when it is affine: the counter, the operation
    /// that starts it, the step, and its form (see [`analyse`]).
    pub(crate) ctr: Option<(Reg, &'k Op, Reg, Form)>,
}

impl Affine<'_> {
    fn form(&self, r: Reg) -> Option<Form> {
        match self.ctr {
            Some((c, _, _, f)) if c == r => Some(f),
            _ => self.defs.get(&r).map(|d| d.1),
        }
    }
}

struct Walk<'k> {
    k: &'k Kernel,
    once: Vec<bool>,
    /// Affine registers whose definition dominates the statement being walked.
    live: Vec<Option<Form>>,
    scope: Vec<Reg>,
    out: Affine<'k>,
}

impl<'k> Walk<'k> {
    fn form(&self, r: Reg) -> Option<Form> {
        self.live.get(r as usize).copied().flatten()
    }

    /// The form of `op`'s result (of type `dt`), when it has one.
    fn of(&self, op: &Op, dt: DType) -> Option<Form> {
        if !dt.is_integer() {
            return None;
        }
        let arith = dt == DType::I64;
        match op {
            Op::Special(Special::GlobalId(k) | Special::Tid(k)) => Some(Form::Lane((*k).min(2))),
            Op::Special(Special::Ctaid(_) | Special::Ntid(_) | Special::Nctaid(_)) => {
                Some(Form::Inv)
            }
            Op::Const(_) | Op::Param(_) => Some(Form::Inv),
            Op::Dim(a, _) if !matches!(a, ArrRef::Shared(_)) => Some(Form::Inv),
            Op::Copy(r) => self.form(*r),
            // An integer widened to int64 keeps its canonical bits.
            Op::Cast(r) if arith && !self.k.regs[*r as usize].is_float() => self.form(*r),
            Op::Bin(op, x, y) if arith => {
                let (a, b) = (self.form(*x)?, self.form(*y)?);
                match (op, a, b) {
                    (Arith::Add | Arith::Sub | Arith::Mul, Form::Inv, Form::Inv) => Some(Form::Inv),
                    (Arith::Add | Arith::Sub, Form::Lane(ax), Form::Inv) => Some(Form::Lane(ax)),
                    (Arith::Add, Form::Inv, Form::Lane(ax)) => Some(Form::Lane(ax)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn inst(&mut self, i: &'k Inst) {
        let access = match &i.op {
            Op::Load(a, idx) | Op::Store(a, idx, _) | Op::Atomic(_, a, idx, _) => Some((a, idx)),
            _ => None,
        };
        if let Some((a, idx)) = access {
            let signed = |r: &Reg| matches!(self.k.regs[*r as usize], DType::I64 | DType::I32);
            let known = idx.iter().all(|r| signed(r) && self.form(*r).is_some());
            if !matches!(a, ArrRef::Shared(_)) && !idx.is_empty() && known {
                self.out.accesses.push(Access {
                    at: i as *const Inst as usize,
                    arr: *a,
                    idx: idx.clone(),
                });
            }
        }
        let Some(d) = i.dst else { return };
        if !self.once.get(d as usize).copied().unwrap_or(false) {
            return;
        }
        if let Some(f) = self.of(&i.op, self.k.regs[d as usize]) {
            self.out.defs.insert(d, (&i.op, f));
            self.live[d as usize] = Some(f);
            self.scope.push(d);
        }
    }

    /// Walk a nested statement list: its definitions do not dominate what follows it.
    fn nested(&mut self, ss: &'k [Stmt]) {
        let mark = self.scope.len();
        self.stmts(ss);
        for r in self.scope.drain(mark..) {
            self.live[r as usize] = None;
        }
    }

    fn stmts(&mut self, ss: &'k [Stmt]) {
        for s in ss {
            match s {
                Stmt::Inst(i) => self.inst(i),
                Stmt::If(_, t, e) => {
                    self.nested(t);
                    self.nested(e);
                }
                Stmt::Loop { body, latch, .. } => {
                    self.nested(body);
                    self.nested(latch);
                }
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
            }
        }
    }
}

/// The affine registers and accesses of `k`'s body. In a lockstep kernel (`ls`), a lane
/// still in the loop in round `r` has run `r` iterations, so its counter is `init + r *
/// step` there: affine when `init` is and the step is block-invariant, provided nothing
/// but the prologue's start and the latch assigns the counter.
pub(crate) fn analyse(k: &Kernel, ls: Option<Lockstep>) -> Affine<'_> {
    let mut n = vec![0u32; k.regs.len()];
    crate::kernel::ir::each_inst(&k.body, &mut |i| {
        if let Some(c) = i.dst.and_then(|d| n.get_mut(d as usize)) {
            *c += 1;
        }
    });
    let mut w = Walk {
        k,
        once: n.iter().map(|&c| c == 1).collect(),
        live: vec![None; k.regs.len()],
        scope: Vec::new(),
        out: Affine {
            defs: HashMap::new(),
            accesses: Vec::new(),
            ctr: None,
        },
    };
    let Some((ls, (last, prologue))) = ls.and_then(|ls| Some((ls, k.body.split_last()?))) else {
        w.stmts(&k.body);
        return w.out;
    };
    let mut init = None;
    for s in prologue {
        if let Stmt::Inst(i) = s {
            w.inst(i);
            if i.dst == Some(ls.ctr) {
                init = w.of(&i.op, k.regs[ls.ctr as usize]).map(|f| (&i.op, f));
            }
        }
    }
    let step = match last {
        Stmt::Loop { latch, .. } => match latch.first() {
            Some(Stmt::Inst(Inst {
                op: Op::Bin(Arith::Add, c, s),
                ..
            })) if *c == ls.ctr => Some(*s),
            _ => None,
        },
        _ => None,
    };
    let wide = k.regs[ls.ctr as usize] == DType::I64;
    if let (Some((op, f)), Some(step), 2, true) = (init, step, n[ls.ctr as usize], wide) {
        if w.form(step) == Some(Form::Inv) {
            w.live[ls.ctr as usize] = Some(f);
            w.out.ctr = Some((ls.ctr, op, step, f));
        }
    }
    w.stmts(std::slice::from_ref(last));
    w.out
}

impl<M: Module> Lower<'_, '_, M> {
    /// The block's threads, in a checked and (when the body has affine accesses) an
    /// unchecked copy chosen per block; both go on to `after` when the block is done.
    /// Called in a block after the block ids and global bases are set.
    pub(super) fn versioned(
        &mut self,
        after: Block,
        lanes: Option<&Lanes>,
    ) -> Result<(), Unsupported> {
        let k = self.k;
        let an = analyse(k, lanes.map(|l| l.ls));
        if an.accesses.is_empty() {
            return self.thread_copy(after, lanes);
        }
        let ok = self.block_ok(&an, lanes.map(|l| l.vars[0]), None)?;
        let (fast, slow) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(slow);
        self.thread_copy(after, lanes)?;
        self.b.switch_to_block(fast);
        self.proven = an.accesses.iter().map(|a| a.at).collect();
        let r = self.thread_copy(after, lanes);
        self.proven.clear();
        r
    }

    /// Whether every affine access of `an` is in range for every thread of the block
    /// whose ids and global bases are set (in a lockstep kernel, in the round `round`);
    /// with `span`, for that many consecutive values from the block's first instead.
    pub(super) fn block_ok(
        &mut self,
        an: &Affine,
        round: Option<Variable>,
        span: Option<Value>,
    ) -> Result<Value, Unsupported> {
        let mut memo = HashMap::new();
        let mut oks = Vec::new();
        let mut seen = HashSet::new();
        for acc in &an.accesses {
            let av = self.arr(acc.arr)?;
            // Arrays of one shape (see `ArrVals::shape`) share one test.
            if !seen.insert((acc.idx.clone(), av.shape.clone())) {
                continue;
            }
            if av.shape.len() != acc.idx.len() {
                return Err("index does not match the array".into());
            }
            for (&r, &n) in acc.idx.iter().zip(&av.shape) {
                let v = self.inv(an, r, &mut memo, round)?;
                oks.push(self.b.ins().icmp(IntCC::UnsignedLessThan, v, n));
                if let Some(Form::Lane(ax)) = an.form(r) {
                    // inv + blockDim - 1 < n, written so that nothing overflows (a false
                    // `inv < n` makes the whole test false whatever this gives).
                    let extent = span.unwrap_or(self.bdim[ax as usize]);
                    let last = self.b.ins().iadd_imm_s(extent, -1);
                    let room = self.b.ins().isub(n, v);
                    oks.push(self.b.ins().icmp(IntCC::UnsignedLessThan, last, room));
                }
            }
        }
        if oks.is_empty() {
            return Ok(self.b.ins().iconst(I64, 1));
        }
        Ok(self.all(&oks))
    }

    /// One copy of the block's thread loop around the body (a lockstep kernel's lane
    /// iteration), then on to `after`.
    fn thread_copy(&mut self, after: Block, lanes: Option<&Lanes>) -> Result<(), Unsupported> {
        let done = self.thread_loop(lanes.map(|l| l.vars[1]), None);
        self.checked.clear();
        match lanes {
            Some(l) => {
                let lane_done = self.b.create_block();
                self.exit_to = lane_done;
                self.lockstep_lane(l.ls, l.ptr, l.vars, lane_done)?;
            }
            None => {
                self.exit_to = self.next_thread;
                let k = self.k;
                self.stmts(&k.body)?;
                let next = self.next_thread;
                self.b.ins().jump(next, &[]);
                self.seal_threads();
            }
        }
        self.b.switch_to_block(done);
        self.b.ins().jump(after, &[]);
        Ok(())
    }

    /// The block-invariant part of affine register `r`, computed as the thread computes
    /// `r` (with the thread index 0).
    fn inv(
        &mut self,
        an: &Affine,
        r: Reg,
        memo: &mut HashMap<Reg, Value>,
        round: Option<Variable>,
    ) -> Result<Value, Unsupported> {
        if let Some(v) = memo.get(&r) {
            return Ok(*v);
        }
        let dt = self.dt(r);
        let v = match an.ctr {
            Some((c, op, step, _)) if c == r => {
                // The lockstep counter: its start plus the round times the step.
                let round = round.ok_or("lockstep counter outside a lockstep kernel")?;
                let start = self.inv_op(an, op, dt, memo, Some(round))?;
                let step = self.inv(an, step, memo, Some(round))?;
                let rn = self.b.use_var(round);
                let walked = self.b.ins().imul(rn, step);
                self.b.ins().iadd(start, walked)
            }
            _ => {
                let (op, _) = *an.defs.get(&r).ok_or("index register is not affine")?;
                self.inv_op(an, op, dt, memo, round)?
            }
        };
        memo.insert(r, v);
        Ok(v)
    }

    /// The block-invariant part of the value `op` gives a register of type `dt`.
    fn inv_op(
        &mut self,
        an: &Affine,
        op: &Op,
        dt: DType,
        memo: &mut HashMap<Reg, Value>,
        round: Option<Variable>,
    ) -> Result<Value, Unsupported> {
        Ok(match op {
            Op::Special(Special::GlobalId(k)) => self.b.use_var(self.gbase[(*k).min(2) as usize]),
            Op::Special(Special::Tid(_)) => self.b.ins().iconst(I64, 0),
            Op::Special(s) => self.special(*s),
            Op::Const(s) => constant(&mut self.b, s, dt),
            Op::Param(p) => self.scalar_param(*p)?,
            Op::Dim(a, ax) => self.dim(*a, *ax)?,
            Op::Copy(x) => self.inv(an, *x, memo, round)?,
            Op::Cast(x) => {
                let from = self.dt(*x);
                let v = self.inv(an, *x, memo, round)?;
                self.cast(v, from, dt)?
            }
            Op::Bin(op, x, y) => {
                let a = self.inv(an, *x, memo, round)?;
                let b = self.inv(an, *y, memo, round)?;
                self.bin(*op, dt, a, b)?
            }
            _ => return Err("index register is not affine".into()),
        })
    }
}
