//! The typed IR to Cranelift: one function `fn(ctx) -> status` that runs the blocks
//! `ctx.first..ctx.end` of a launch, each block's threads one after another (x fastest),
//! the kernel body once per thread. Registers are Cranelift variables: integers and
//! booleans as their canonical 64-bit bits (sign- or zero-extended, as the interpreter
//! keeps them), float32 and float64 as native floats. Structured control flow becomes
//! blocks; `return` (and a `break` out of no loop) ends the thread. A lockstep kernel
//! (`lockstep.rs`) wraps the blocks in rounds, one iteration of its grid-stride loop per
//! lane per round, or flat (`flat.rs`) as plain runs of its counter. Status 0 means every block ran; 1 that a helper stored a fault (or a
//! stop) in the context.

use std::collections::{HashMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32, F64, I64};
use cranelift_codegen::ir::{AbiParam, Block, FuncRef, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_module::{FuncId, Module};

use crate::arrays::dtype::DType;
use crate::kernel::ir::{ArrRef, Inst, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::clamp::Guard;
use crate::kernel::jit::helpers::{Ctx, JArr};
use crate::kernel::jit::lockstep::Lanes;
use crate::kernel::jit::ops::{compare, constant, from_bits, load, store, zero};
use crate::kernel::jit::order::AnyOrder;
use crate::kernel::jit::select::{loop_exit_first, read_counts, straight};
use crate::kernel::jit::{affine, flat, lockstep, private, regions};
use crate::kernel::types::{Layout, Ty};

/// Back-edges between two polls of the cancel flag: a poll is a call, a back-edge only a
/// decrement, and even a one-instruction loop then polls every few microseconds.
pub(super) const POLL_EVERY: i64 = 1024;

/// Why a kernel stays with the interpreter.
pub(crate) type Unsupported = String;

/// The Cranelift type of a register of `dt`.
pub(crate) fn cl_type(dt: DType) -> Type {
    match dt {
        DType::F32 => F32,
        DType::F64 => F64,
        _ => I64,
    }
}

/// Where local array `i` starts in a thread's local memory (8-byte aligned).
pub(crate) fn local_offsets(k: &Kernel) -> (Vec<usize>, usize) {
    let mut offs = Vec::new();
    let mut at = 0usize;
    for d in &k.local {
        offs.push(at);
        at += d.bytes().div_ceil(8) * 8;
    }
    (offs, at)
}

/// The array slot of `a`: parameters, then constant arrays, local arrays, shared arrays.
pub(crate) fn slot(k: &Kernel, a: ArrRef) -> Option<usize> {
    match a {
        ArrRef::Param(i) => Some(i as usize),
        ArrRef::Const(i) => Some(k.params.len() + i as usize),
        ArrRef::Local(i) => Some(k.params.len() + k.consts.len() + i as usize),
        ArrRef::Shared(i) => Some(k.params.len() + k.consts.len() + k.local.len() + i as usize),
    }
}

/// Values of one array, loaded once at function entry.
#[derive(Clone)]
pub(super) struct ArrVals {
    pub(super) base: Value,
    pub(super) offset: Value,
    pub(super) shape: Vec<Value>,
    /// Empty for a C-contiguous array: its element offset is then computed from the shape
    /// alone (Horner's rule, scaled by the constant itemsize), so no stride needs a
    /// register in the thread loop.
    pub(super) strides: Vec<Value>,
    pub(super) dtype: DType,
    pub(super) slot: usize,
}

impl ArrVals {
    pub(super) fn contiguous(&self) -> bool {
        self.strides.is_empty()
    }
}

/// A row `order.rs` runs as one counter: the thread axis it runs along, the variable
/// holding the global id along it less `less` (the thread and block ids along it follow
/// from that), and the global ids along the other axes, computed once before the row (so
/// the row's loop neither recomputes nor keeps their parts). `flat.rs` runs a grid-stride
/// loop's counter the same way, for its faults' threads.
#[derive(Clone, Copy)]
pub(super) struct Row {
    pub(super) ax: usize,
    pub(super) g: Variable,
    pub(super) less: Option<Value>,
    pub(super) ids: [Value; 3],
}

/// A bounds check already made on the current path: the array layout's shape (and
/// strides), the index registers, and the byte offset it gave.
pub(super) struct Checked {
    pub(super) shape: Vec<Value>,
    pub(super) strides: Vec<Value>,
    pub(super) isz: i64,
    pub(super) idx: Vec<Reg>,
    pub(super) rel: Value,
}

pub(crate) struct Lower<'a, 'b, M: Module> {
    pub(super) b: FunctionBuilder<'b>,
    pub(super) module: &'a mut M,
    pub(super) helpers: &'a HashMap<&'static str, FuncId>,
    pub(super) k: &'a Kernel,
    pub(super) vars: Vec<Variable>,
    pub(super) ctx: Value,
    pub(super) arrs: HashMap<usize, ArrVals>,
    pub(super) scalars: Vec<Option<Value>>,
    pub(super) refs: HashMap<&'static str, FuncRef>,
    pub(super) loops: Vec<(u32, Block, Block)>,
    pub(super) next_thread: Block,
    /// Where `return` (or a `break` out of no loop) goes: the next thread, or in a
    /// lockstep kernel the block that marks the lane done.
    pub(super) exit_to: Block,
    pub(super) fail: Block,
    pub(super) t: [Variable; 3],
    pub(super) bid: [Variable; 3],
    /// blockIdx * blockDim per axis, set once per block: a global id is then one add.
    pub(super) gbase: [Variable; 3],
    pub(super) blin: Variable,
    /// Bounds checks that dominate the code being emitted (see [`Checked`]).
    pub(super) checked: Vec<Checked>,
    /// Accesses (by instruction address) in range for the whole block (`affine.rs`).
    pub(super) proven: HashSet<usize>,
    pub(super) budget: Variable,
    /// `Ctx::private`, read once: a worker's choice holds for the whole call, and an
    /// atomic in a hot loop then tests a register instead of loading it (`private.rs`).
    pub(super) private: Option<Value>,
    pub(super) bdim: [Value; 3],
    pub(super) gdim: [Value; 3],
    /// While `order.rs` runs a row as one counter (see [`Row`]).
    pub(super) run: Option<Row>,
    /// While a loop cut to its guard's bound is lowered (`clamp.rs`).
    pub(super) cut: Option<Guard>,
    /// The latches and headers of the last thread loop, to seal once its body is built
    /// (`blockwise.rs`'s `thread_loop`).
    pub(super) thread_blocks: [Block; 6],
    /// How many times the kernel reads each register (an `if`'s condition included).
    pub(super) reads: Vec<u32>,
}

pub(super) fn flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl<'a, 'b, M: Module> Lower<'a, 'b, M> {
    /// Build the whole function into `b` (its signature already set: one pointer in,
    /// one i64 out).
    pub fn build(
        mut b: FunctionBuilder<'b>,
        module: &'a mut M,
        helpers: &'a HashMap<&'static str, FuncId>,
        k: &'a Kernel,
        share: &[usize],
        plan: Option<&regions::Plan>,
        ord: Option<&AnyOrder>,
    ) -> Result<(), Unsupported> {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let ctx = b.block_params(entry)[0];
        let ld = |b: &mut FunctionBuilder, off: usize| b.ins().load(I64, flags(), ctx, off as i32);
        let block_off = offset_of!(Ctx, block);
        let grid_off = offset_of!(Ctx, grid);
        let bdim = [0, 1, 2].map(|i| ld(&mut b, block_off + 8 * i));
        let gdim = [0, 1, 2].map(|i| ld(&mut b, grid_off + 8 * i));
        let first = ld(&mut b, offset_of!(Ctx, first));
        let end = ld(&mut b, offset_of!(Ctx, end));
        let arrs_ptr = ld(&mut b, offset_of!(Ctx, arrs));
        let scal_ptr = ld(&mut b, offset_of!(Ctx, scalars));
        let local_ptr = ld(&mut b, offset_of!(Ctx, local));
        let lanes_ptr = ld(&mut b, offset_of!(Ctx, lanes));
        let private_mask =
            (!private::plan(k).is_empty()).then(|| ld(&mut b, offset_of!(Ctx, private)));
        let ls = lockstep::lockstep(k)
            .filter(|l| cl_type(k.regs[l.ctr as usize]) == I64 && plan.is_none());
        let mut arrs = HashMap::new();
        let jsz = std::mem::size_of::<JArr>();
        for (i, t) in k.params.iter().enumerate() {
            if let Ty::Array {
                dtype,
                ndim,
                layout,
            } = t
            {
                let at = (i * jsz) as i32;
                let base = b
                    .ins()
                    .load(I64, flags(), arrs_ptr, at + offset_of!(JArr, base) as i32);
                let offset =
                    b.ins()
                        .load(I64, flags(), arrs_ptr, at + offset_of!(JArr, offset) as i32);
                let n = (*ndim).min(3);
                // Arrays the launch found to have one shape share its values, so their
                // offsets and bounds checks are one computation.
                let same: Option<&ArrVals> = share
                    .get(i)
                    .filter(|&&j| j < i)
                    .and_then(|j| arrs.get(j))
                    .filter(|o: &&ArrVals| o.shape.len() == n);
                let shape = match same {
                    Some(o) => o.shape.clone(),
                    None => (0..n)
                        .map(|ax| {
                            let o = at + (offset_of!(JArr, shape) + 8 * ax) as i32;
                            b.ins().load(I64, flags(), arrs_ptr, o)
                        })
                        .collect(),
                };
                // `run` sends arrays of a C-layout parameter only when they are.
                let strides = if *layout == Layout::C {
                    Vec::new()
                } else {
                    (0..n)
                        .map(|ax| {
                            let o = at + (offset_of!(JArr, strides) + 8 * ax) as i32;
                            b.ins().load(I64, flags(), arrs_ptr, o)
                        })
                        .collect()
                };
                arrs.insert(
                    i,
                    ArrVals {
                        base,
                        offset,
                        shape,
                        strides,
                        dtype: *dtype,
                        slot: i,
                    },
                );
            }
        }
        // Constant and local arrays have shapes known now: constants in the code.
        let mut fixed = |b: &mut FunctionBuilder,
                         slot: usize,
                         base: Value,
                         d: &crate::kernel::ir::ArrayDecl| {
            let shape: Vec<Value> = d
                .shape
                .iter()
                .map(|&s| b.ins().iconst(I64, s as i64))
                .collect();
            let offset = b.ins().iconst(I64, 0);
            arrs.insert(
                slot,
                ArrVals {
                    base,
                    offset,
                    shape,
                    strides: Vec::new(),
                    dtype: d.dtype,
                    slot,
                },
            );
        };
        for (j, d) in k.consts.iter().enumerate() {
            let s = k.params.len() + j;
            let base = b.ins().load(
                I64,
                flags(),
                arrs_ptr,
                (s * jsz + offset_of!(JArr, base)) as i32,
            );
            fixed(&mut b, s, base, d);
        }
        let (loffs, _) = local_offsets(k);
        for (j, d) in k.local.iter().enumerate() {
            let s = k.params.len() + k.consts.len() + j;
            let base = b.ins().iadd_imm_s(local_ptr, loffs[j] as i64);
            fixed(&mut b, s, base, d);
        }
        // Shared arrays: this worker's buffers, a dynamic one's extent set by the launch.
        for (j, d) in k.shared.iter().enumerate() {
            let s = k.params.len() + k.consts.len() + k.local.len() + j;
            let at = (s * jsz) as i32;
            let base = b
                .ins()
                .load(I64, flags(), arrs_ptr, at + offset_of!(JArr, base) as i32);
            let shape = if d.dynamic {
                let o = at + offset_of!(JArr, shape) as i32;
                vec![b.ins().load(I64, flags(), arrs_ptr, o)]
            } else {
                d.shape
                    .iter()
                    .map(|&n| b.ins().iconst(I64, n as i64))
                    .collect()
            };
            let offset = b.ins().iconst(I64, 0);
            let dtype = d.dtype;
            let strides = Vec::new();
            let av = ArrVals {
                base,
                offset,
                shape,
                strides,
                dtype,
                slot: s,
            };
            arrs.insert(s, av);
        }
        let scalars = k
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| match t {
                Ty::Scalar(dt) => {
                    let bits = b.ins().load(I64, flags(), scal_ptr, (i * 8) as i32);
                    Some(from_bits(&mut b, bits, *dt))
                }
                _ => None,
            })
            .collect();
        let vars: Vec<Variable> = k
            .regs
            .iter()
            .map(|dt| b.declare_var(cl_type(*dt)))
            .collect();
        for (v, dt) in vars.iter().zip(&k.regs) {
            let z = zero(&mut b, *dt);
            b.def_var(*v, z);
        }
        let var = |b: &mut FunctionBuilder| b.declare_var(I64);
        let t = [var(&mut b), var(&mut b), var(&mut b)];
        let bid = [var(&mut b), var(&mut b), var(&mut b)];
        let gbase = [var(&mut b), var(&mut b), var(&mut b)];
        let (blin, budget) = (var(&mut b), var(&mut b));
        let (round, lane, any) = (var(&mut b), var(&mut b), var(&mut b));
        let pe = b.ins().iconst(I64, POLL_EVERY);
        b.def_var(budget, pe);
        b.def_var(blin, first);
        let zero64 = b.ins().iconst(I64, 0);
        for v in t
            .iter()
            .chain(&bid)
            .chain(&gbase)
            .chain([&round, &lane, &any])
        {
            b.def_var(*v, zero64);
        }
        let block_head = b.create_block();
        let block_body = b.create_block();
        let done = b.create_block();
        let fail = b.create_block();
        let block_next = b.create_block();
        // A lockstep kernel runs the chunk's blocks once per round (see `lockstep.rs`).
        let (round_head, round_end) = (b.create_block(), b.create_block());
        let chunk_done = if ls.is_some() { round_end } else { done };
        // A launch that may run its grid-stride loop flat (`flat.rs`) says so (`compile`
        // keeps the same analysis for the launch).
        let flat = ls.and_then(|_| flat::of(k));
        let flat_entry = b.create_block();
        if ls.is_some() {
            if flat.is_some() {
                let on = ld(&mut b, offset_of!(Ctx, order));
                b.ins().brif(on, flat_entry, &[], round_head, &[]);
            } else {
                b.ins().jump(round_head, &[]);
            }
            b.switch_to_block(round_head);
            b.def_var(blin, first);
            b.def_var(lane, zero64);
            b.def_var(any, zero64);
        }
        // A launch that may run its threads in any order (`order.rs`) says so.
        let any_entry = b.create_block();
        if ord.is_some() {
            let on = ld(&mut b, offset_of!(Ctx, order));
            b.ins().brif(on, any_entry, &[], block_head, &[]);
        } else {
            b.ins().jump(block_head, &[]);
        }

        b.switch_to_block(block_head);
        let bl = b.use_var(blin);
        let more = b.ins().icmp(IntCC::SignedLessThan, bl, end);
        b.ins().brif(more, block_body, &[], chunk_done, &[]);

        b.switch_to_block(block_body);
        let bl = b.use_var(blin);
        let bx = b.ins().urem(bl, gdim[0]);
        let q = b.ins().udiv(bl, gdim[0]);
        let by = b.ins().urem(q, gdim[1]);
        let bz = b.ins().udiv(q, gdim[1]);
        for (ax, x) in [bx, by, bz].into_iter().enumerate() {
            b.def_var(bid[ax], x);
            let g = b.ins().imul(x, bdim[ax]);
            b.def_var(gbase[ax], g);
        }
        let blockwise_entry = b.create_block();
        let ordinary_entry = b.create_block();
        let entry = if plan.is_some() {
            blockwise_entry
        } else {
            ordinary_entry
        };
        b.ins().jump(entry, &[]);
        b.switch_to_block(block_next);
        let bl = b.use_var(blin);
        let bl = b.ins().iadd_imm_s(bl, 1);
        b.def_var(blin, bl);
        b.ins().jump(block_head, &[]);

        b.switch_to_block(done);
        b.ins().return_(&[zero64]);
        b.switch_to_block(fail);
        b.set_cold_block(fail);
        let one = b.ins().iconst(I64, 1);
        b.ins().return_(&[one]);

        let mut l = Lower {
            b,
            module,
            helpers,
            k,
            vars,
            ctx,
            arrs,
            scalars,
            refs: HashMap::new(),
            loops: Vec::new(),
            // Both set where the thread loop is built (`thread_loop`).
            next_thread: block_next,
            exit_to: block_next,
            fail,
            t,
            bid,
            gbase,
            blin,
            checked: Vec::new(),
            proven: HashSet::new(),
            budget,
            private: private_mask,
            bdim,
            gdim,
            run: None,
            cut: None,
            thread_blocks: [block_next; 6],
            reads: read_counts(&k.body, k.regs.len()),
        };
        if let Some(plan) = plan {
            l.b.switch_to_block(blockwise_entry);
            let slots =
                l.b.ins()
                    .load(I64, flags(), ctx, offset_of!(Ctx, slots) as i32);
            l.blockwise(plan, slots, block_next)?;
        } else {
            l.b.switch_to_block(ordinary_entry);
            let lanes = ls.map(|ls| Lanes {
                ls,
                ptr: lanes_ptr,
                vars: [round, lane, any],
            });
            l.versioned(block_next, lanes.as_ref())?;
        }
        l.b.switch_to_block(any_entry);
        match ord {
            Some(ord) => l.any_order(ord, &affine::analyse(k, None), first, end, done)?,
            None => {
                l.b.ins().jump(done, &[]);
            }
        }
        if let Some(fl) = &flat {
            l.b.switch_to_block(flat_entry);
            l.flat_chunk(fl, first, end, round_head, done)?;
        }
        if ls.is_some() {
            l.b.switch_to_block(round_end);
            // Another round while any lane ran an iteration in this one.
            let ran = l.b.use_var(any);
            let (next_round, poll) = (l.b.create_block(), l.b.create_block());
            l.b.ins().brif(ran, poll, &[], done, &[]);
            l.b.switch_to_block(poll);
            l.poll_to(next_round)?;
            l.b.switch_to_block(next_round);
            let r = l.b.use_var(round);
            let r = l.b.ins().iadd_imm_s(r, 1);
            l.b.def_var(round, r);
            l.b.ins().jump(round_head, &[]);
        }
        l.b.seal_all_blocks();
        Ok(())
    }

    pub(super) fn helper(&mut self, name: &'static str) -> Result<FuncRef, Unsupported> {
        if let Some(r) = self.refs.get(name) {
            return Ok(*r);
        }
        let id = *self.helpers.get(name).ok_or("unknown helper")?;
        let r = self.module.declare_func_in_func(id, self.b.func);
        self.refs.insert(name, r);
        Ok(r)
    }

    pub(super) fn call(
        &mut self,
        name: &'static str,
        args: &[Value],
    ) -> Result<Option<Value>, Unsupported> {
        let f = self.helper(name)?;
        let inst = self.b.ins().call(f, args);
        Ok(self.b.inst_results(inst).first().copied())
    }

    pub(super) fn call1(
        &mut self,
        name: &'static str,
        args: &[Value],
    ) -> Result<Value, Unsupported> {
        self.call(name, args)?
            .ok_or_else(|| format!("helper {name} returns nothing"))
    }

    /// After a helper that may fault: leave through `fail` when it did.
    pub(super) fn check_status(&mut self) {
        let st = self
            .b
            .ins()
            .load(I64, flags(), self.ctx, offset_of!(Ctx, status) as i32);
        let ok = self.b.create_block();
        self.b.ins().brif(st, self.fail, &[], ok, &[]);
        self.b.switch_to_block(ok);
    }

    /// Continue in a fresh block after a jump (code after `break` is never reached).
    fn dead_end(&mut self) {
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
    }

    /// The thread's linear index in its block (x fastest), computed where a fault, a
    /// draw or the lane id needs it rather than counted in every thread.
    pub(super) fn tlin(&mut self) -> Value {
        let [x, y, z] = [0, 1, 2].map(|k| self.special(Special::Tid(k)));
        let zy = self.b.ins().imul(z, self.bdim[1]);
        let zy = self.b.ins().iadd(zy, y);
        let zyx = self.b.ins().imul(zy, self.bdim[0]);
        self.b.ins().iadd(zyx, x)
    }

    /// The block's linear index (x fastest), for a fault's report.
    pub(super) fn block_lin(&mut self) -> Value {
        if self.run.is_none() {
            return self.b.use_var(self.blin);
        }
        let [x, y, z] = [0, 1, 2].map(|k| self.special(Special::Ctaid(k)));
        let zy = self.b.ins().imul(z, self.gdim[1]);
        let zy = self.b.ins().iadd(zy, y);
        let zyx = self.b.ins().imul(zy, self.gdim[0]);
        self.b.ins().iadd(zyx, x)
    }

    pub(super) fn reg(&mut self, r: Reg) -> Value {
        self.b.use_var(self.vars[r as usize])
    }

    pub(super) fn dt(&self, r: Reg) -> DType {
        self.k.regs[r as usize]
    }

    pub(super) fn stmts(&mut self, ss: &[Stmt]) -> Result<(), Unsupported> {
        for s in ss {
            match s {
                Stmt::Inst(i) => self.inst(i)?,
                Stmt::If(c, t, e) if straight(self.k, t, e) => self.if_select(*c, t, e)?,
                Stmt::If(c, t, e) => {
                    // A check made in one branch does not hold after it.
                    let known = self.checked.len();
                    let cv = self.reg(*c);
                    let (tb, eb, join) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    if loop_exit_first(t, e) {
                        let none = self.b.ins().icmp_imm_s(IntCC::Equal, cv, 0);
                        self.b.ins().brif(none, eb, &[], tb, &[]);
                    } else {
                        self.b.ins().brif(cv, tb, &[], eb, &[]);
                    }
                    // Sealed as soon as their predecessors are known, so a value from
                    // outside a loop reaches the loop's header as that value and not as a
                    // chain of block parameters Cranelift cannot see through (which keeps
                    // the loop-invariant code that uses it inside the loop).
                    self.b.seal_block(tb);
                    self.b.seal_block(eb);
                    self.b.switch_to_block(tb);
                    self.stmts(t)?;
                    self.checked.truncate(known);
                    self.b.ins().jump(join, &[]);
                    self.b.switch_to_block(eb);
                    self.stmts(e)?;
                    self.checked.truncate(known);
                    self.b.ins().jump(join, &[]);
                    self.b.seal_block(join);
                    self.b.switch_to_block(join);
                }
                Stmt::Loop { id, body, latch } => self.lower_loop(*id, body, latch)?,
                Stmt::Break(id) | Stmt::Continue(id) => {
                    let target = self.loops.iter().rev().find(|(l, _, _)| l == id);
                    let to = match (target, s) {
                        (Some((_, brk, _)), Stmt::Break(_)) => *brk,
                        (Some((_, _, cont)), _) => *cont,
                        // As in the interpreter: leaving no enclosing loop ends the thread.
                        (None, _) => self.exit_to,
                    };
                    self.b.ins().jump(to, &[]);
                    self.dead_end();
                }
                Stmt::Exit => {
                    self.b.ins().jump(self.exit_to, &[]);
                    self.dead_end();
                }
            }
        }
        Ok(())
    }

    fn set(&mut self, i: &Inst, v: Value) -> Result<(), Unsupported> {
        let d = i.dst.ok_or("instruction without destination")?;
        self.checked.retain(|c| !c.idx.contains(&d));
        self.b.def_var(self.vars[d as usize], v);
        Ok(())
    }

    /// Scalar parameter `p`'s value, loaded at function entry.
    pub(super) fn scalar_param(&self, p: u32) -> Result<Value, Unsupported> {
        self.scalars
            .get(p as usize)
            .copied()
            .flatten()
            .ok_or_else(|| "parameter is not a scalar".into())
    }

    /// The extent of axis `ax` of array `a` (1 past its last axis, as the interpreter's).
    pub(super) fn dim(&mut self, a: ArrRef, ax: u8) -> Result<Value, Unsupported> {
        let av = self.arr(a)?;
        Ok(match av.shape.get(ax as usize) {
            Some(v) => *v,
            None => self.b.ins().iconst(I64, 1),
        })
    }

    pub(super) fn inst(&mut self, i: &Inst) -> Result<(), Unsupported> {
        let dt = i.dst.map(|d| self.dt(d)).unwrap_or(DType::I64);
        let v = match &i.op {
            Op::Const(s) => constant(&mut self.b, s, dt),
            Op::Param(p) => self.scalar_param(*p)?,
            Op::Copy(r) => {
                if cl_type(self.dt(*r)) != cl_type(dt) {
                    return Err("copy between register types".into());
                }
                self.reg(*r)
            }
            Op::Cast(r) => {
                let from = self.dt(*r);
                let x = self.reg(*r);
                self.cast(x, from, dt)?
            }
            Op::Bin(op, x, y) => {
                let (a, b) = (self.reg(*x), self.reg(*y));
                self.bin(*op, dt, a, b)?
            }
            Op::Cmp(..) if self.known_true(i) => self.b.ins().iconst(I64, 1),
            Op::Cmp(c, x, y) => {
                let t = self.dt(*x);
                let (a, b) = (self.reg(*x), self.reg(*y));
                let r = compare(&mut self.b, *c, t, a, b);
                self.b.ins().uextend(I64, r)
            }
            Op::Un(op, x) => {
                let a = self.reg(*x);
                self.un(*op, dt, a)?
            }
            Op::Math(f, xs) => self.math(*f, xs, dt)?,
            Op::Select(c, x, y) => {
                let (c, a, b) = (self.reg(*c), self.reg(*x), self.reg(*y));
                self.b.ins().select(c, a, b)
            }
            Op::Special(s) => self.special(*s),
            Op::Dim(a, ax) => self.dim(*a, *ax)?,
            Op::Load(a, idx) => {
                let av = self.arr(*a)?;
                let (_, addr) = self.address(i, &av, idx)?;
                load(&mut self.b, av.dtype, addr)
            }
            Op::Store(a, idx, v) => {
                let av = self.arr(*a)?;
                let (_, addr) = self.address(i, &av, idx)?;
                let x = self.reg(*v);
                store(&mut self.b, av.dtype, addr, x);
                return Ok(());
            }
            Op::CheckIndex(idx, dims) => {
                self.check_view(i, idx, dims)?;
                return Ok(());
            }
            Op::Atomic(op, a, idx, vals) => self.atomic(i, *op, *a, idx, vals, dt)?,
            Op::Rng(kind, a, ix) => self.rng(i, *kind, *a, *ix, dt)?,
            Op::Fence(_) => {
                self.b.ins().fence();
                return Ok(());
            }
            Op::Barrier(..) | Op::Print(_) | Op::Raise { .. } => {
                return Err("barriers, print and raise stay with the interpreter".into())
            }
        };
        self.set(i, v)
    }

    pub(super) fn arr(&mut self, a: ArrRef) -> Result<ArrVals, Unsupported> {
        let s = slot(self.k, a).ok_or("shared memory stays with the interpreter")?;
        self.arrs
            .get(&s)
            .cloned()
            .ok_or_else(|| "array reference to a scalar".into())
    }

    pub(super) fn special(&mut self, s: Special) -> Value {
        if let Some(Row { ax, g, less, ids }) = self.run {
            let on = |k: u8| k.min(2) as usize == ax;
            let id = |l: &mut Self| {
                let g = l.b.use_var(g);
                match less {
                    Some(d) => l.b.ins().isub(g, d),
                    None => g,
                }
            };
            match s {
                Special::GlobalId(k) if on(k) => return id(self),
                Special::GlobalId(k) => return ids[k.min(2) as usize],
                Special::Tid(k) if on(k) => {
                    let g = id(self);
                    return self.b.ins().urem(g, self.bdim[ax]);
                }
                Special::Ctaid(k) if on(k) => {
                    let g = id(self);
                    return self.b.ins().udiv(g, self.bdim[ax]);
                }
                _ => {}
            }
        }
        match s {
            Special::Tid(k) => self.b.use_var(self.t[k.min(2) as usize]),
            Special::Ctaid(k) => self.b.use_var(self.bid[k.min(2) as usize]),
            Special::Ntid(k) => self.bdim[k.min(2) as usize],
            Special::Nctaid(k) => self.gdim[k.min(2) as usize],
            Special::LaneId => {
                let t = self.tlin();
                self.b.ins().band_imm_s(t, 31)
            }
            Special::WarpSize => self.b.ins().iconst(I64, 32),
            Special::GlobalId(k) => {
                let k = k.min(2) as usize;
                let t = self.b.use_var(self.t[k]);
                let base = self.b.use_var(self.gbase[k]);
                self.b.ins().iadd(t, base)
            }
        }
    }
}

/// The signature every compiled kernel has: the context pointer in, the status out.
pub(crate) fn kernel_signature(sig: &mut cranelift_codegen::ir::Signature) {
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I64));
}
