//! Lowering of kernels with barriers or shared memory (see `regions.rs` for which): each
//! block runs its regions in order, each region looped over the block's threads. A
//! region's registers kept in slots are loaded from the thread's slots when it starts and
//! stored back when it ends; a thread that returns sets its exit flag (slot word 0) and
//! sits out the regions after. Each region loads the arrays' addresses afresh, so they
//! live through it alone and stay in registers. A barrier loop runs once per block: a
//! `break` or `continue` of it inside a region ends the thread's region and leaves a code
//! in a block-level flag that every running thread sets alike, and the region's end
//! follows it.

use std::collections::{HashMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_module::Module;

use crate::kernel::ir::{Special, Stmt};
use crate::kernel::jit::clamp;
use crate::kernel::jit::helpers::{Ctx, JArr};
use crate::kernel::jit::lower::{cl_type, flags, Lower, Unsupported};
use crate::kernel::jit::regions::{parts, touched, Part, Plan};

/// Block-level state of a blockwise kernel's code.
pub(super) struct Bw<'p> {
    plan: &'p Plan,
    /// This worker's slots: `words` 8-byte words per thread of the block.
    slots: Value,
    flag: Variable,
    ran: Variable,
    /// The current thread's first slot word.
    tbase: Variable,
    /// Where the block ends (every thread has returned, or the body is done).
    block_done: Block,
    /// Barrier loops around the code being emitted: (id, exit, latch).
    loops: Vec<(u32, Block, Block)>,
}

impl<'a, 'b, M: Module> Lower<'a, 'b, M> {
    /// Emit the whole block from the current position, then go to `block_done`.
    pub(super) fn blockwise(
        &mut self,
        plan: &Plan,
        slots: Value,
        block_done: Block,
    ) -> Result<(), Unsupported> {
        let var = |l: &mut Self| {
            let v = l.b.declare_var(I64);
            let z = l.b.ins().iconst(I64, 0);
            l.b.def_var(v, z);
            v
        };
        let (flag, ran, tbase) = (var(self), var(self), var(self));
        let mut bw = Bw {
            plan,
            slots,
            flag,
            ran,
            tbase,
            block_done,
            loops: Vec::new(),
        };
        // Every thread starts running.
        let after = self.thread_loop(None, None);
        let tb = self.thread_base(&bw);
        let z = self.b.ins().iconst(I64, 0);
        self.b.ins().store(flags(), z, tb, 0);
        let next = self.next_thread;
        self.b.ins().jump(next, &[]);
        self.seal_threads();
        self.b.switch_to_block(after);
        let k = self.k;
        self.seq(&mut bw, &k.body)?;
        self.b.ins().jump(block_done, &[]);
        Ok(())
    }

    /// The address of the current thread's slots.
    fn thread_base(&mut self, bw: &Bw) -> Value {
        let tl = self.tlin();
        let off = self.b.ins().imul_imm_s(tl, 8 * bw.plan.words as i64);
        self.b.ins().iadd(bw.slots, off)
    }

    fn seq(&mut self, bw: &mut Bw, ss: &[Stmt]) -> Result<(), Unsupported> {
        for p in parts(ss) {
            match p {
                Part::Region(r) => self.region(bw, r)?,
                Part::Loop(id, body, latch) => {
                    let (head, latch_b, exit) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().jump(head, &[]);
                    self.b.switch_to_block(head);
                    bw.loops.push((id, exit, latch_b));
                    self.seq(bw, body)?;
                    self.b.ins().jump(latch_b, &[]);
                    self.b.switch_to_block(latch_b);
                    self.seq(bw, latch)?;
                    bw.loops.pop();
                    self.back_edge(head)?;
                    self.b.switch_to_block(exit);
                }
            }
        }
        Ok(())
    }

    /// Load the arrays' addresses and extents again (before a region's thread loop), so
    /// that the values a region's code uses live through that region only. Loaded once at
    /// entry they live through every region and every helper call, and the register
    /// allocator spills them: a hot loop then reloads each from the stack at every access.
    fn reload_region_arrays(&mut self, used: &HashSet<usize>) {
        let ptr = self
            .b
            .ins()
            .load(I64, flags(), self.ctx, offset_of!(Ctx, arrs) as i32);
        let jsz = std::mem::size_of::<JArr>();
        let mut slots: Vec<usize> = self.arrs.keys().copied().collect();
        slots.sort_unstable();
        // Arrays that share one extent value keep sharing it (`lower.rs`).
        let mut fresh: HashMap<Value, Value> = HashMap::new();
        let params = self.k.params.len();
        let local = params + self.k.consts.len()..params + self.k.consts.len() + self.k.local.len();
        for s in slots {
            // Loads a region never reads stay in its code (they are not known free of
            // effects), costing every region of every block.
            if local.contains(&s) || !used.contains(&s) {
                continue;
            }
            let Some(mut av) = self.arrs.get(&s).cloned() else {
                continue;
            };
            let at = (s * jsz) as i32;
            let ld = |b: &mut FunctionBuilder, off: usize| {
                b.ins().load(I64, flags(), ptr, at + off as i32)
            };
            av.base = ld(&mut self.b, offset_of!(JArr, base));
            let dynamic_shared =
                s >= local.end && self.k.shared.get(s - local.end).is_some_and(|d| d.dynamic);
            if s < params {
                av.offset = ld(&mut self.b, offset_of!(JArr, offset));
                for ax in 0..av.strides.len() {
                    av.strides[ax] = ld(&mut self.b, offset_of!(JArr, strides) + 8 * ax);
                }
            }
            if s < params || dynamic_shared {
                for ax in 0..av.shape.len() {
                    let old = av.shape[ax];
                    let new = match fresh.get(&old) {
                        Some(v) => *v,
                        None => {
                            let v = ld(&mut self.b, offset_of!(JArr, shape) + 8 * ax);
                            fresh.insert(old, v);
                            v
                        }
                    };
                    av.shape[ax] = new;
                }
            }
            self.arrs.insert(s, av);
        }
    }

    /// One region, looped over the block's threads that have not returned.
    fn region(&mut self, bw: &mut Bw, r: &[Stmt]) -> Result<(), Unsupported> {
        if bw.plan.runs_once(r) {
            return self.once(bw, r);
        }
        self.reload_region_arrays(&clamp::arrays_used(self.k, r));
        let (used, defined) = touched(r, self.k.regs.len());
        let z = self.b.ins().iconst(I64, 0);
        self.b.def_var(bw.flag, z);
        self.b.def_var(bw.ran, z);
        // A region ending in `if tid < s: ...` (a reduction tree) runs only threads below
        // `s` along x (`clamp.rs`): where no thread returns and the region keeps no
        // register in slots, a thread past it leaves nothing behind.
        let defs = clamp::single_defs(self.k);
        let on = |s: &Special| matches!(s, Special::Tid(0));
        let kept = (0..defined.len()).any(|x| defined[x] && bw.plan.carried[x]);
        let guard = match kept || clamp::leaves(r) || clamp::returns(&self.k.body, &mut Vec::new())
        {
            true => None,
            false => clamp::guard(self.k, &defs, r, on, true),
        };
        let mut x_end = None;
        if let Some(g) = &guard {
            let z = self.b.ins().iconst(I64, 0);
            x_end = Some(self.cut_end(&defs, g, z, self.bdim[0])?);
            // Every thread runs (none returns), even where the cut leaves none here.
            let one = self.b.ins().iconst(I64, 1);
            self.b.def_var(bw.ran, one);
        }
        let after = self.thread_loop(None, x_end);
        let next = self.next_thread;
        let tb = self.thread_base(bw);
        self.b.def_var(bw.tbase, tb);
        let exited = self.b.ins().load(I64, flags(), tb, 0);
        let live = self.b.create_block();
        self.b.ins().brif(exited, next, &[], live, &[]);
        self.b.switch_to_block(live);
        let one = self.b.ins().iconst(I64, 1);
        self.b.def_var(bw.ran, one);
        for (x, word) in bw.plan.slot.iter().enumerate() {
            if let (Some(w), true) = (word, used[x]) {
                let ty = cl_type(self.k.regs[x]);
                let v = self.b.ins().load(ty, flags(), tb, 8 * *w as i32);
                self.b.def_var(self.vars[x], v);
            }
        }
        let (end, exit) = (self.b.create_block(), self.b.create_block());
        // A barrier loop's `break` and `continue` end the region with its code.
        let mut stubs = Vec::new();
        self.loops.clear();
        for (at, (id, _, _)) in bw.loops.iter().enumerate() {
            let (brk, cont) = (self.b.create_block(), self.b.create_block());
            stubs.push((brk, 2 * at as i64 + 1));
            stubs.push((cont, 2 * at as i64 + 2));
            self.loops.push((*id, brk, cont));
        }
        self.exit_to = exit;
        self.checked.clear();
        self.cut = guard;
        let lowered = self.stmts(r);
        self.cut = None;
        lowered?;
        self.b.ins().jump(end, &[]);
        self.loops.clear();
        self.checked.clear();
        for (stub, code) in stubs {
            self.b.switch_to_block(stub);
            let c = self.b.ins().iconst(I64, code);
            self.b.def_var(bw.flag, c);
            self.b.ins().jump(end, &[]);
        }
        self.b.switch_to_block(exit);
        let tb = self.b.use_var(bw.tbase);
        self.b.ins().store(flags(), one, tb, 0);
        self.b.ins().jump(end, &[]);
        self.b.switch_to_block(end);
        let tb = self.b.use_var(bw.tbase);
        for (x, word) in bw.plan.slot.iter().enumerate() {
            if let (Some(w), true) = (word, defined[x]) {
                let v = self.b.use_var(self.vars[x]);
                self.b.ins().store(flags(), v, tb, 8 * *w as i32);
            }
        }
        self.b.ins().jump(next, &[]);
        self.seal_threads();

        self.b.switch_to_block(after);
        // Every thread has returned: the block is done.
        let ran = self.b.use_var(bw.ran);
        let go_on = self.b.create_block();
        self.b.ins().brif(ran, go_on, &[], bw.block_done, &[]);
        self.b.switch_to_block(go_on);
        if !bw.loops.is_empty() {
            let flag = self.b.use_var(bw.flag);
            for (at, (_, exit, latch)) in bw.loops.iter().enumerate() {
                for (code, to) in [(2 * at as i64 + 1, *exit), (2 * at as i64 + 2, *latch)] {
                    let hit = self.b.ins().icmp_imm_s(IntCC::Equal, flag, code);
                    let no = self.b.create_block();
                    self.b.ins().brif(hit, to, &[], no, &[]);
                    self.b.switch_to_block(no);
                }
            }
        }
        Ok(())
    }

    /// A region that runs once for the whole block (`Plan::runs_once`): no thread loop,
    /// and a barrier loop's `break` or `continue` goes straight to the loop's exit or
    /// latch, which every thread would have reached alike.
    fn once(&mut self, bw: &mut Bw, r: &[Stmt]) -> Result<(), Unsupported> {
        self.loops.clone_from(&bw.loops);
        self.checked.clear();
        let lowered = self.stmts(r);
        self.loops.clear();
        self.checked.clear();
        lowered
    }

    /// Loop over the block's threads (axis z outermost, x innermost, as the interpreter's
    /// lanes): leaves the builder in the loop body, with `next_thread` the block that
    /// goes on to the next thread (counting `lane` up when given), and returns the block
    /// after the loop.
    pub(super) fn thread_loop(&mut self, lane: Option<Variable>, x_end: Option<Value>) -> Block {
        let b = &mut self.b;
        let heads = [b.create_block(), b.create_block(), b.create_block()];
        let bodies = [b.create_block(), b.create_block(), b.create_block()];
        let nexts = [b.create_block(), b.create_block(), b.create_block()];
        let after = b.create_block();
        let zero = b.ins().iconst(I64, 0);
        b.def_var(self.t[2], zero);
        b.ins().jump(heads[2], &[]);
        for ax in (0..3).rev() {
            b.switch_to_block(heads[ax]);
            let cur = b.use_var(self.t[ax]);
            let end = match (ax, x_end) {
                (0, Some(e)) => e,
                _ => self.bdim[ax],
            };
            let done = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, cur, end);
            let exit = if ax == 2 { after } else { nexts[ax + 1] };
            // The exit first: see `select::loop_exit_first`.
            b.ins().brif(done, exit, &[], bodies[ax], &[]);
            b.seal_block(bodies[ax]);
            if ax > 0 {
                b.switch_to_block(bodies[ax]);
                let zero = b.ins().iconst(I64, 0);
                b.def_var(self.t[ax - 1], zero);
                b.ins().jump(heads[ax - 1], &[]);
            }
            b.switch_to_block(nexts[ax]);
            let cur = b.use_var(self.t[ax]);
            let inc = b.ins().iadd_imm_s(cur, 1);
            b.def_var(self.t[ax], inc);
            if let (0, Some(lane)) = (ax, lane) {
                let cur = b.use_var(lane);
                let inc = b.ins().iadd_imm_s(cur, 1);
                b.def_var(lane, inc);
            }
            b.ins().jump(heads[ax], &[]);
        }
        b.seal_block(after);
        b.switch_to_block(bodies[0]);
        self.next_thread = nexts[0];
        self.thread_blocks = [nexts[0], heads[0], nexts[1], heads[1], nexts[2], heads[2]];
        after
    }

    /// Seal the loop [`Self::thread_loop`] built last, once its body is complete (every
    /// jump to the next thread made): innermost first, each latch before its header, so
    /// values from outside reach the loop as themselves (see `Lower::stmts`).
    pub(super) fn seal_threads(&mut self) {
        for b in self.thread_blocks {
            self.b.seal_block(b);
        }
    }
}
