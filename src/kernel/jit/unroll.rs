//! Counted loops (`counted.rs`) with a constant trip count, run in their fast copy (every
//! access proven in range), emitted as that many straight copies of the body. A loop's
//! own bookkeeping (the counter's test, the poll budget, the index arithmetic the
//! counter feeds) then folds away, and the copies leave a few instructions per
//! iteration: the tiled matmul's `for k in range(TILE): acc += ta[tx, k] * tb[k, ty]` is
//! two loads at constant offsets, a multiply and an add. Short straight code lets the
//! processor overlap one thread's chain of dependent adds with the next thread's, which a
//! loop of a dozen instructions per add does not.
//!
//! The copies run exactly the loop's statements in the loop's order: each iteration's
//! test (true for every copy, the counter being below the constant stop), body and latch,
//! then the last test, which leaves. Nothing may leave the loop early (no `break`,
//! `continue` or `return` in it), and the loop holds no other loop, so the copies need no
//! poll for an interrupt: their length is bounded by [`MAX_STMTS`].

use std::collections::HashSet;

use cranelift_codegen::ir::types::I64;

use cranelift_codegen::ir::{Block, InstBuilder, StackSlotData, StackSlotKind};
use cranelift_module::Module;

use crate::kernel::ir::{each_inst, walk, Kernel, Reg, Stmt};
use crate::kernel::jit::access::konst;
use crate::kernel::jit::counted::{const_of, Counted};
use crate::kernel::jit::lower::{Lower, Unsupported};

/// Statements emitted in all copies together, at most (compile time and code size).
const MAX_STMTS: usize = 256;

/// Copies between two stores of the carried values (see `unrolled`).
const KEEP_EVERY: i64 = 4;

/// Whether nothing in `ss` leaves the loop or the thread before the loop's own test.
fn runs_through(ss: &[Stmt]) -> bool {
    let mut ok = true;
    walk(ss, &mut |s| {
        if matches!(
            s,
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit | Stmt::Loop { .. }
        ) {
            ok = false;
        }
    });
    ok
}

/// Registers an iteration reads before it assigns them and then assigns (`acc` of
/// `acc += ...`): the chains carried from one copy to the next.
fn carried(iteration: &[&[Stmt]]) -> Vec<Reg> {
    let (mut written, mut read_first) = (HashSet::new(), HashSet::new());
    for ss in iteration {
        each_inst(ss, &mut |i| {
            i.op.reads(|r| {
                if !written.contains(&r) {
                    read_first.insert(r);
                }
            });
            if let Some(d) = i.dst {
                written.insert(d);
            }
        });
    }
    let mut v: Vec<Reg> = written.intersection(&read_first).copied().collect();
    v.sort_unstable();
    v
}

fn count(ss: &[Stmt]) -> usize {
    let mut n = 0;
    walk(ss, &mut |_| n += 1);
    n
}

impl<M: Module> Lower<'_, '_, M> {
    /// Emit counted loop `c` (`body` and `latch`, its test at `c.test`) as straight
    /// copies, then jump to `exit`; false (nothing emitted) when its counter's start or
    /// stop is not a constant, or the copies would be too long or could leave early.
    pub(super) fn unrolled(
        &mut self,
        k: &Kernel,
        c: &Counted,
        body: &[Stmt],
        latch: &[Stmt],
        exit: Block,
    ) -> Result<bool, Unsupported> {
        let (pre, post) = (&body[..c.test], &body[c.test + 1..]);
        if !runs_through(pre) || !runs_through(post) || !runs_through(latch) {
            return Ok(false);
        }
        let Some(stop) = const_of(k, c.stop) else {
            return Ok(false);
        };
        let v = self.reg(c.ctr);
        let Some(start) = konst(&self.b.func.dfg, v, 0) else {
            return Ok(false);
        };
        let trips = stop.saturating_sub(start).max(0);
        let per = count(pre) + count(post) + count(latch);
        if (trips as u64).saturating_mul(per.max(1) as u64 + 1) > MAX_STMTS as u64 {
            return Ok(false);
        }
        // Every `KEEP_EVERY`-th copy's carried values are stored to a scratch slot, which
        // Cranelift keeps in place: without it every copy's pure arithmetic is placed where
        // its result is first used, after the loop, behind all the copies' loads, whose
        // values then outnumber the registers and spill. Between two stores only a few
        // copies' loads wait for their arithmetic; a store in every copy would cost each
        // step an instruction, and the processor a place in its window.
        let keep: Vec<Reg> = carried(&[pre, post, latch])
            .into_iter()
            .filter(|&r| r != c.ctr)
            .collect();
        let scratch =
            self.b
                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        self.checked.clear();
        for copy in 0..trips {
            self.stmts(pre)?;
            self.stmts(post)?;
            self.stmts(latch)?;
            if copy % KEEP_EVERY != KEEP_EVERY - 1 && copy + 1 != trips {
                continue;
            }
            for &r in &keep {
                let v = self.reg(r);
                self.b.ins().stack_store(I64, v, scratch, 0);
            }
        }
        self.stmts(pre)?;
        self.checked.clear();
        self.b.ins().jump(exit, &[]);
        Ok(true)
    }
}
