//! Branches shaped for Cranelift: the right operand of `and` / `or` as selects where it is
//! a few compares (no branch, so a row's loop keeps one block), and loop tests that name
//! the way out first (so Cranelift's loop-invariant code motion sees the whole loop).

use cranelift_codegen::ir::InstBuilder;
use cranelift_codegen::ir::Value;
use cranelift_module::Module;

use crate::arrays::operator::Arith;
use crate::kernel::ir::{each_inst, walk, Inst, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::lower::{Lower, Unsupported};

impl<M: Module> Lower<'_, '_, M> {
    /// `if c` whose one arm is a few cheap instructions that cannot fault or be seen (the
    /// right operand of `and` / `or`: `x < n and y < m`): the arm runs unconditionally and
    /// each register it assigns becomes a select on `c`, so the test is no branch and a
    /// row's loop keeps one block.
    pub(super) fn if_select(&mut self, c: Reg, t: &[Stmt], e: &[Stmt]) -> Result<(), Unsupported> {
        let (arm, taken) = if e.is_empty() { (t, true) } else { (e, false) };
        let cv = self.reg(c);
        // Only registers read outside the arm need their old value back where `c` is
        // false; the arm's temporaries (the compare feeding `and`) just take the new one.
        let inside = read_counts(arm, self.k.regs.len());
        let mut assigned: Vec<Reg> = Vec::new();
        for s in arm {
            if let Stmt::Inst(Inst { dst: Some(d), .. }) = s {
                let r = *d as usize;
                let outside = self.reads.get(r) > inside.get(r);
                if outside && !assigned.contains(d) {
                    assigned.push(*d);
                }
            }
        }
        let old: Vec<Value> = assigned.iter().map(|r| self.reg(*r)).collect();
        self.stmts(arm)?;
        for (&r, o) in assigned.iter().zip(old) {
            let new = self.reg(r);
            let v = if taken {
                self.b.ins().select(cv, new, o)
            } else {
                self.b.ins().select(cv, o, new)
            };
            self.checked.retain(|ch| !ch.idx.contains(&r));
            self.b.def_var(self.vars[r as usize], v);
        }
        Ok(())
    }
}

/// Whether an `if`'s else arm only leaves (a loop's test, `if c < stop: ... else: break`).
/// Such a branch names the way out first: Cranelift orders a block's dominator-tree
/// children by reverse postorder, which puts the second target of a branch first, and its
/// loop-invariant code motion forgets a loop once it has visited a block outside it, so
/// with the way out visited first nothing the body computes from values fixed for the
/// loop (a row's index and base addresses, the compares on them) leaves the loop. Every
/// loop this tier builds itself tests for its end the same way.
pub(super) fn loop_exit_first(t: &[Stmt], e: &[Stmt]) -> bool {
    t.is_empty() && matches!(e, [Stmt::Break(_) | Stmt::Exit])
}

/// How many times `ss` reads each of the kernel's `n` registers.
pub(super) fn read_counts(ss: &[Stmt], n: usize) -> Vec<u32> {
    // bounded: one count per register of a compiled kernel.
    let mut out = vec![0u32; n];
    walk(ss, &mut |s| {
        if let Stmt::If(c, ..) = s {
            if let Some(x) = out.get_mut(*c as usize) {
                *x += 1;
            }
        }
    });
    each_inst(ss, &mut |i| {
        i.op.reads(|x| {
            if let Some(c) = out.get_mut(x as usize) {
                *c += 1;
            }
        })
    });
    out
}

/// Instructions an arm may hold for [`Lower::if_select`] to run it unconditionally.
const SELECT_ARM: usize = 6;

/// Whether one arm of an `if` is empty and the other at most [`SELECT_ARM`] instructions
/// that are single machine operations on integers or compares, none of which can fault,
/// call out or touch memory.
pub(super) fn straight(k: &Kernel, t: &[Stmt], e: &[Stmt]) -> bool {
    let arm = match (t.is_empty(), e.is_empty()) {
        (false, true) => t,
        (true, false) => e,
        _ => return false,
    };
    let int = |r: &Reg| k.regs.get(*r as usize).is_some_and(|d| !d.is_float());
    arm.len() <= SELECT_ARM
        && arm.iter().all(|s| match s {
            Stmt::Inst(i) => {
                i.dst.is_some_and(|d| int(&d))
                    && match &i.op {
                        Op::Const(_) | Op::Param(_) | Op::Dim(..) | Op::Cmp(..) => true,
                        Op::Copy(x) => int(x),
                        Op::Special(s) => !matches!(s, Special::LaneId),
                        Op::Bin(Arith::Add | Arith::Sub | Arith::BitAnd | Arith::BitOr, x, y) => {
                            int(x) && int(y)
                        }
                        _ => false,
                    }
            }
            _ => false,
        })
}
