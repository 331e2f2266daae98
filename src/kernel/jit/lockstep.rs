//! Grid-stride loops in lockstep. Thread by thread, each thread of a grid-stride loop
//! (`for i in range(cuda.grid(1), n, cuda.gridsize(1))`) walks the arrays a whole grid
//! apart and misses the cache at every access. The interpreter runs the loop's iterations
//! across the lanes of a chunk of blocks: iteration 0 of every lane, then iteration 1, so
//! consecutive lanes touch consecutive elements. Native code can run the same order: a
//! round per iteration, each round running one iteration of every lane of the chunk, the
//! only per-lane state being the loop counter and whether the lane has left the loop.
//!
//! That is exactly the interpreter's order of iterations (and so of atomics, random draws
//! and faults, as far as thread-by-thread code within one iteration gives them), provided
//! the chunks are the interpreter's and the kernel's shape keeps everything else out of
//! the per-lane state: [`lockstep`] says when it does.

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Variable;
use cranelift_module::Module;

use crate::arrays::operator::Arith;
use crate::kernel::ir::{Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::lower::{flags, Lower, Unsupported};

/// A kernel run in lockstep rounds: its body is `prologue` (straight-line instructions
/// that cannot fault or touch memory, so re-running them every round is harmless), then
/// loop `id`, the grid-stride loop over counter `ctr`, then nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lockstep {
    pub id: u32,
    pub ctr: Reg,
}

/// What a lockstep kernel's lanes need while they are lowered: its shape, the per-lane
/// state's address, and the round, lane and any-lane-ran variables.
pub(crate) struct Lanes {
    pub(crate) ls: Lockstep,
    pub(crate) ptr: Value,
    pub(crate) vars: [Variable; 3],
}

/// The lockstep shape of `k`, or None when it runs thread by thread.
pub fn lockstep(k: &Kernel) -> Option<Lockstep> {
    // Each thread's local arrays live in one buffer per worker, reused thread after
    // thread: a round would hand one lane's local values to the next.
    if !k.local.is_empty() || crate::kernel::jit::regions::blockwise(k) {
        return None;
    }
    let (last, prologue) = k.body.split_last()?;
    let Stmt::Loop { id, body, latch } = last else {
        return None;
    };
    let mut grid = vec![false; k.regs.len()];
    for s in prologue {
        let Stmt::Inst(i) = s else { return None };
        if !pure(&i.op) {
            return None;
        }
        let mut g = matches!(i.op, Op::Special(Special::Nctaid(_)));
        i.op.reads(|r| g |= grid.get(r as usize).copied().unwrap_or(false));
        if let Some(d) = i.dst.and_then(|d| grid.get_mut(d as usize)) {
            *d = g;
        }
    }
    // The latch `for ... in range` builds: next = ctr + step; ctr = next.
    let [Stmt::Inst(add), Stmt::Inst(copy)] = latch.as_slice() else {
        return None;
    };
    let (Op::Bin(Arith::Add, ctr, step), Some(next)) = (&add.op, add.dst) else {
        return None;
    };
    if !matches!(copy.op, Op::Copy(r) if r == next) || copy.dst != Some(*ctr) {
        return None;
    }
    // Only a loop that steps by the grid's extent walks the arrays a grid apart.
    if !grid.get(*step as usize).copied().unwrap_or(false) {
        return None;
    }
    // Every register the loop reads is the prologue's (recomputed each round), the
    // counter, or set earlier in the same iteration: nothing else is carried from one
    // iteration of a lane to the next.
    let mut loop_defs = vec![false; k.regs.len()];
    defs(body, &mut loop_defs);
    defs(latch, &mut loop_defs);
    loop_defs[*ctr as usize] = false;
    let mut set = vec![false; k.regs.len()];
    if !defined_before_use(body, &loop_defs, &mut set)
        || !defined_before_use(latch, &loop_defs, &mut set)
    {
        return None;
    }
    Some(Lockstep { id: *id, ctr: *ctr })
}

/// Operations that read no memory and cannot fault: re-running them changes nothing.
fn pure(op: &Op) -> bool {
    match op {
        Op::Const(_) | Op::Param(_) | Op::Copy(_) | Op::Cmp(..) | Op::Select(..) => true,
        Op::Special(_) | Op::Dim(..) | Op::Cast(_) | Op::Un(..) => true,
        Op::Bin(a, ..) => matches!(
            a,
            Arith::Add | Arith::Sub | Arith::Mul | Arith::BitAnd | Arith::BitOr | Arith::BitXor
        ),
        _ => false,
    }
}

/// Mark in `out` every register `ss` assigns.
pub(crate) fn defs(ss: &[Stmt], out: &mut [bool]) {
    crate::kernel::ir::each_inst(ss, &mut |i| {
        if let Some(d) = i.dst.and_then(|d| out.get_mut(d as usize)) {
            *d = true;
        }
    });
}

/// Walk `ss` in order with `set` the registers certainly assigned so far in this
/// iteration; false when one the loop assigns (`loop_defs`) may be read before that. A
/// branch adds only what both arms assign; a nested loop adds nothing, and its own reads
/// must be satisfied on its first pass.
fn defined_before_use(ss: &[Stmt], loop_defs: &[bool], set: &mut [bool]) -> bool {
    for s in ss {
        match s {
            Stmt::Inst(i) => {
                let mut ok = true;
                i.op.reads(|r| {
                    let r = r as usize;
                    if loop_defs.get(r).copied().unwrap_or(true) && !set[r] {
                        ok = false;
                    }
                });
                if !ok {
                    return false;
                }
                if let Some(d) = i.dst {
                    set[d as usize] = true;
                }
            }
            Stmt::If(c, t, e) => {
                let c = *c as usize;
                if loop_defs.get(c).copied().unwrap_or(true) && !set[c] {
                    return false;
                }
                let mut a = set.to_vec();
                let mut b = set.to_vec();
                if !defined_before_use(t, loop_defs, &mut a)
                    || !defined_before_use(e, loop_defs, &mut b)
                {
                    return false;
                }
                for (s, (x, y)) in set.iter_mut().zip(a.iter().zip(&b)) {
                    *s = *x && *y;
                }
            }
            Stmt::Loop { body, latch, .. } => {
                let mut inner = set.to_vec();
                if !defined_before_use(body, loop_defs, &mut inner)
                    || !defined_before_use(latch, loop_defs, &mut inner)
                {
                    return false;
                }
            }
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
        }
    }
    true
}

impl<M: Module> Lower<'_, '_, M> {
    /// One lane's iteration of a lockstep kernel: skip a lane that has left the loop, run
    /// the prologue, take the counter from the lane's state after the first round, run
    /// the body and latch once, and save the counter (or mark the lane done).
    pub(super) fn lockstep_lane(
        &mut self,
        ls: Lockstep,
        lanes_ptr: Value,
        [round, lane, any]: [Variable; 3],
        lane_done: Block,
    ) -> Result<(), Unsupported> {
        let Some((Stmt::Loop { body, latch, .. }, prologue)) = self.k.body.split_last() else {
            return Err("lockstep kernel without its loop".into());
        };
        let ln = self.b.use_var(lane);
        let off = self.b.ins().ishl_imm_s(ln, 4);
        let slot = self.b.ins().iadd(lanes_ptr, off);
        let r = self.b.use_var(round);
        let (check, run) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(r, check, &[], run, &[]);
        self.b.switch_to_block(check);
        let left = self.b.ins().load(I64, flags(), slot, 8);
        self.b.ins().brif(left, self.next_thread, &[], run, &[]);
        self.b.switch_to_block(run);
        self.stmts(prologue)?;
        let saved = self.b.ins().load(I64, flags(), slot, 0);
        let fresh = self.reg(ls.ctr);
        let r = self.b.use_var(round);
        let ctr = self.b.ins().select(r, saved, fresh);
        self.b.def_var(self.vars[ls.ctr as usize], ctr);
        let latch_b = self.b.create_block();
        self.loops.push((ls.id, lane_done, latch_b));
        self.stmts(body)?;
        self.loops.pop();
        self.b.ins().jump(latch_b, &[]);
        self.b.switch_to_block(latch_b);
        self.checked.clear();
        self.stmts(latch)?;
        let ctr = self.reg(ls.ctr);
        self.b.ins().store(flags(), ctr, slot, 0);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().store(flags(), zero, slot, 8);
        let one = self.b.ins().iconst(I64, 1);
        self.b.def_var(any, one);
        self.b.ins().jump(self.next_thread, &[]);
        self.b.switch_to_block(lane_done);
        let one = self.b.ins().iconst(I64, 1);
        self.b.ins().store(flags(), one, slot, 8);
        self.b.ins().jump(self.next_thread, &[]);
        Ok(())
    }
}
