//! Polls for an interrupt, or the end of another block's fault's grace, from native code. A poll reads the
//! launch's flags itself ([`PollFlags`], pointed to by the context) and calls a helper only
//! on the way out, once it has seen one set: a loop then holds no call on any path back to
//! its head, so no value in it has to survive a call, and the register allocator keeps
//! accumulators and bases in registers instead of spilling them around every iteration
//! (a spilled accumulator put a store and a reload on every step of a reduction's chain).

use std::mem::offset_of;
use std::sync::atomic::{AtomicBool, AtomicU64};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I64, I8};
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_module::Module;

use crate::kernel::abi::Cancel;
use crate::kernel::exec::Prepared;
use crate::kernel::jit::helpers::Ctx;
use crate::kernel::jit::lower::{flags, Lower, Unsupported, POLL_EVERY};

/// Where the flags that end a launch live: the launch's own stop flag (an interrupt seen,
/// or another block's fault's grace over), the session's interrupt flag and a device's cancel generation with its value
/// at queueing. The kind of cancel a launch lacks points at a flag that never changes.
#[repr(C)]
pub(crate) struct PollFlags {
    pub stop: *const AtomicBool,
    pub interrupt: *const AtomicBool,
    pub generation: *const AtomicU64,
    pub queued_at: u64,
}

// SAFETY: every pointer is to an atomic (itself `Sync`) that outlives the launch: the
// launch's own `Prepared`, the `Arc`s its cancel token holds, or the statics below; the
// flags are only ever read through them.
unsafe impl Sync for PollFlags {}

static NEVER_SET: AtomicBool = AtomicBool::new(false);
static NEVER_BUMPED: AtomicU64 = AtomicU64::new(0);

impl PollFlags {
    pub(crate) fn of(p: &Prepared) -> PollFlags {
        let (interrupt, generation, queued_at) = match &p.cancel {
            Some(Cancel::Interrupt(f)) => (&**f as *const AtomicBool, &NEVER_BUMPED as *const _, 0),
            Some(Cancel::Generation(g, at)) => {
                (&NEVER_SET as *const _, &**g as *const AtomicU64, *at)
            }
            None => (&NEVER_SET as *const _, &NEVER_BUMPED as *const _, 0),
        };
        PollFlags {
            stop: &p.stop,
            interrupt,
            generation,
            queued_at,
        }
    }
}

impl<M: Module> Lower<'_, '_, M> {
    /// Jump back to `head`, polling the flags every [`POLL_EVERY`] back-edges.
    pub(super) fn back_edge(&mut self, head: Block) -> Result<(), Unsupported> {
        let left = self.b.use_var(self.budget);
        let left = self.b.ins().iadd_imm_s(left, -1);
        self.b.def_var(self.budget, left);
        let poll = self.b.create_block();
        self.b.ins().brif(left, head, &[], poll, &[]);
        self.b.seal_block(poll);
        self.b.switch_to_block(poll);
        self.b.set_cold_block(poll);
        let pe = self.b.ins().iconst(I64, POLL_EVERY);
        self.b.def_var(self.budget, pe);
        self.poll_to(head)
    }

    /// Count `ran` iterations of a run against the budget, then go on to `go_on`, polling
    /// first once the budget is spent: a run's inner loop then holds no poll at all (its
    /// length is bounded by a chunk), and an interrupt still ends it within a run.
    pub(super) fn spend(&mut self, ran: Value, go_on: Block) -> Result<(), Unsupported> {
        let left = self.b.use_var(self.budget);
        let left = self.b.ins().isub(left, ran);
        self.b.def_var(self.budget, left);
        let spent = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, left, 0);
        let poll = self.b.create_block();
        self.b.ins().brif(spent, poll, &[], go_on, &[]);
        self.b.seal_block(poll);
        self.b.switch_to_block(poll);
        self.b.set_cold_block(poll);
        let pe = self.b.ins().iconst(I64, POLL_EVERY);
        self.b.def_var(self.budget, pe);
        self.poll_to(go_on)
    }

    /// Continue at `go_on` unless a flag says the launch must end; then record why
    /// (`nb_stop`) and leave through `fail`.
    pub(super) fn poll_to(&mut self, go_on: Block) -> Result<(), Unsupported> {
        let set = self.flags_set();
        let stop = self.b.create_block();
        self.b.ins().brif(set, stop, &[], go_on, &[]);
        self.b.seal_block(stop);
        self.b.switch_to_block(stop);
        self.b.set_cold_block(stop);
        let ctx = self.ctx;
        self.call("nb_stop", &[ctx])?;
        self.b.ins().jump(self.fail, &[]);
        Ok(())
    }

    /// Nonzero when the stop or interrupt flag is set or the generation moved.
    fn flags_set(&mut self) -> Value {
        let pf = self
            .b
            .ins()
            .load(I64, flags(), self.ctx, offset_of!(Ctx, poll) as i32);
        let at = |l: &mut Self, off: usize| l.b.ins().load(I64, flags(), pf, off as i32);
        let stop = at(self, offset_of!(PollFlags, stop));
        let interrupt = at(self, offset_of!(PollFlags, interrupt));
        let generation = at(self, offset_of!(PollFlags, generation));
        let queued_at = at(self, offset_of!(PollFlags, queued_at));
        let s = self.b.ins().atomic_load(I8, flags(), stop);
        let i = self.b.ins().atomic_load(I8, flags(), interrupt);
        let g = self.b.ins().atomic_load(I64, flags(), generation);
        let either = self.b.ins().bor(s, i);
        let either = self.b.ins().uextend(I64, either);
        let moved = self.b.ins().icmp(IntCC::NotEqual, g, queued_at);
        let moved = self.b.ins().uextend(I64, moved);
        self.b.ins().bor(either, moved)
    }
}
