//! Grid-stride loops as plain loops. A lockstep kernel (`lockstep.rs`) runs round `k` of a
//! chunk of lanes `[l0, l1)` as one iteration of every lane, lane after lane, each lane
//! reloading and saving its counter. When the loop is `for i in range(cuda.grid(1) + c,
//! stop, cuda.gridsize(1))` on a 1-D launch, lane `l`'s counter in round `k` is
//! `l + c + k * step`, so round `k` is the contiguous run `[l0 + c + k * step, l1 + c +
//! k * step)` cut at `stop`, in the same order: a flat chunk runs exactly those runs as a
//! loop over one counter, with no per-lane state. The order of iterations is the lockstep
//! one. Every affine access of every iteration the chunk may make is proven in range
//! before the first one (`affine.rs`'s proof over `[lo, stop)`); a chunk that fails the
//! proof runs in lockstep rounds from its start, faults and all. The only accesses left
//! to check per iteration are the order-free atomics of `private.rs` (histogram bins at
//! a loaded index): a fault there names the thread the counter belongs to (`Row`), and
//! stops the chunk after the same iterations as its lockstep rounds would.
//!
//! [`of`] takes only loops where that holds and, beyond it, whose threads cannot see one
//! another (the conditions of `order.rs`'s any-order launch): a prologue of pure
//! instructions, a body that reads the counter and launch-wide values alone, leaves only
//! through the range test, touches only parameters and constants at affine indices, and
//! writes parameters at one index that follows the counter, with no atomics but those
//! order-free ones (whose results no instruction reads), no draws, prints, raises or
//! view checks. The launch checks the rest ([`FlatLoop::fits`]; the
//! step and the range at run time, per chunk).

use std::collections::{HashMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_module::Module;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::abi::LaunchConfig;
use crate::kernel::exec::ArrDesc;
use crate::kernel::ir::{ArrRef, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::affine::{self, Affine, Form};
use crate::kernel::jit::helpers::{Ctx, JArr};
use crate::kernel::jit::lockstep::{self, Lockstep};
use crate::kernel::jit::lower::{flags, ArrVals, Lower, Row, Unsupported};
use crate::kernel::jit::private;

/// A grid-stride loop that may run flat: the lockstep shape, the loop's bound and step
/// registers (set by the prologue), the position of the range test in the loop body,
/// and the array parameters it writes.
#[derive(Clone, Debug)]
pub(crate) struct FlatLoop {
    ls: Lockstep,
    stop: Reg,
    step: Reg,
    test: usize,
    written: Vec<usize>,
}

/// Counters, bounds and runs stay below this, so `lo + width` and `stop - lo` cannot
/// overflow (a launch has fewer than 2^42 threads).
const RANGE: i64 = 1 << 62;

/// The flat shape of `k`, or None when it keeps lockstep rounds.
pub(crate) fn of(k: &Kernel) -> Option<FlatLoop> {
    let ls = lockstep::lockstep(k)?;
    if !k.local.is_empty() || !k.shared.is_empty() || k.regs[ls.ctr as usize] != DType::I64 {
        return None;
    }
    let (Stmt::Loop { id, body, latch }, prologue) = k.body.split_last()? else {
        return None;
    };
    // Launch-wide registers after the prologue (lockstep made every instruction pure).
    let mut uni = vec![true; k.regs.len()];
    for s in prologue {
        let Stmt::Inst(i) = s else { return None };
        let u = match &i.op {
            Op::Special(s) => matches!(s, Special::Ntid(_) | Special::Nctaid(_)),
            Op::Dim(a, _) => !matches!(a, ArrRef::Shared(_) | ArrRef::Local(_)),
            op => {
                let mut u = true;
                op.reads(|r| u &= uni.get(r as usize).copied().unwrap_or(false));
                u
            }
        };
        if let Some(d) = i.dst.and_then(|d| uni.get_mut(d as usize)) {
            *d = u;
        }
    }
    let an = affine::analyse(k, Some(ls));
    let (ctr, init, step, form) = an.ctr?;
    if ctr != ls.ctr
        || form != Form::Lane(0)
        || !from_global(&an, &uni, init)
        || !uni[step as usize]
    {
        return None;
    }
    // The range test `if not (ctr < stop [or ctr > stop when step < 0]): break` first.
    let test = body.iter().position(|s| !matches!(s, Stmt::Inst(_)))?;
    let Stmt::If(c, then, els) = &body[test] else {
        return None;
    };
    if !then.is_empty() || !matches!(els.as_slice(), [Stmt::Break(b)] if b == id) {
        return None;
    }
    let def = |r: Reg| {
        body[..test].iter().rev().find_map(|s| match s {
            Stmt::Inst(i) if i.dst == Some(r) => Some(&i.op),
            _ => None,
        })
    };
    let lt = |r: Reg| match def(r) {
        Some(Op::Cmp(Cmp::Lt, x, s)) if *x == ctr && k.regs[*s as usize] == DType::I64 => Some(*s),
        _ => None,
    };
    let stop = match def(*c)? {
        Op::Cmp(..) => lt(*c)?,
        Op::Select(pos, l, _) => {
            let Some(Op::Cmp(Cmp::Gt, st, z)) = def(*pos) else {
                return None;
            };
            let zero = matches!(def(*z), Some(Op::Const(Scalar::I64(0))));
            if *st != step || !zero {
                return None;
            }
            lt(*l)?
        }
        _ => return None,
    };
    // The stop is the prologue's, never assigned in the loop.
    let mut loop_defs = vec![false; k.regs.len()];
    lockstep::defs(body, &mut loop_defs);
    lockstep::defs(latch, &mut loop_defs);
    if !uni[stop as usize] || loop_defs[stop as usize] {
        return None;
    }
    loop_defs[ctr as usize] = true;
    let (head, rest) = body.split_at(test);
    let mut nested = HashSet::new();
    let reads_ok = |r: Reg| {
        let r = r as usize;
        loop_defs.get(r).copied().unwrap_or(false) || uni.get(r).copied().unwrap_or(false)
    };
    let mut w = Check {
        reads_ok: &reads_ok,
        accesses: an.accesses.iter().map(|a| a.at).collect(),
        private: private::plan(k).into_iter().map(|(p, _)| p).collect(),
        atomics: false,
        stores: Vec::new(),
        loads: Vec::new(),
    };
    if !w.stmts(head, *id, &mut nested) || !w.stmts(&rest[1..], *id, &mut nested) {
        return None;
    }
    // Every written parameter at one index, one that follows the counter.
    let forms = |idx: &[Reg]| {
        idx.iter()
            .any(|r| an.defs.get(r).map(|d| d.1) == Some(Form::Lane(0)) || *r == ctr)
    };
    let mut written: Vec<(u32, Vec<Reg>)> = Vec::new();
    for (p, idx) in &w.stores {
        let ArrRef::Param(p) = p else { return None };
        match written.iter().find(|(q, _)| q == p) {
            Some((_, at)) if at != idx => return None,
            Some(_) => {}
            None if forms(idx) => written.push((*p, idx.clone())),
            None => return None,
        }
    }
    for (a, idx) in &w.loads {
        if let ArrRef::Param(p) = a {
            if written.iter().any(|(q, at)| q == p && at != idx) {
                return None;
            }
        }
    }
    if written.is_empty() && !w.atomics {
        return None;
    }
    Some(FlatLoop {
        ls,
        stop,
        step,
        test,
        written: written.into_iter().map(|(p, _)| p as usize).collect(),
    })
}

/// Whether the counter's start `op` is the thread's global id along x plus launch-wide
/// values.
fn from_global(an: &Affine, uni: &[bool], op: &Op) -> bool {
    let lane = |r: &Reg| {
        an.defs
            .get(r)
            .is_some_and(|(o, f)| *f == Form::Lane(0) && from_global(an, uni, o))
    };
    let wide = |r: &Reg| uni.get(*r as usize).copied().unwrap_or(false);
    match op {
        Op::Special(Special::GlobalId(0)) => true,
        Op::Copy(x) | Op::Cast(x) => lane(x),
        Op::Bin(Arith::Add, x, y) => (lane(x) && wide(y)) || (wide(x) && lane(y)),
        Op::Bin(Arith::Sub, x, y) => lane(x) && wide(y),
        _ => false,
    }
}

/// The walk over the loop body that [`of`] makes.
struct Check<'a> {
    reads_ok: &'a dyn Fn(Reg) -> bool,
    /// Accesses `affine.rs` found affine (by instruction address).
    accesses: HashSet<usize>,
    /// Parameters only updated by order-free atomics (`private::plan`), and whether the
    /// body makes any.
    private: Vec<usize>,
    atomics: bool,
    stores: Vec<(ArrRef, Vec<Reg>)>,
    loads: Vec<(ArrRef, Vec<Reg>)>,
}

impl Check<'_> {
    /// Whether `ss` (inside loop `id`, and the loops in `nested`) reads only the counter,
    /// launch-wide values and its own registers, and leaves no loop but its own.
    fn stmts(&mut self, ss: &[Stmt], id: u32, nested: &mut HashSet<u32>) -> bool {
        ss.iter().all(|s| match s {
            Stmt::Inst(i) => {
                let mut ok = match &i.op {
                    Op::Const(_) | Op::Param(_) | Op::Copy(_) | Op::Cast(_) => true,
                    Op::Bin(..) | Op::Cmp(..) | Op::Un(..) | Op::Math(..) | Op::Select(..) => true,
                    Op::Special(s) => matches!(s, Special::Ntid(_) | Special::Nctaid(_)),
                    Op::Dim(a, _) => matches!(a, ArrRef::Param(_) | ArrRef::Const(_)),
                    Op::Load(a, idx) | Op::Store(a, idx, _) => {
                        let at = i as *const _ as usize;
                        let list = if matches!(i.op, Op::Store(..)) {
                            &mut self.stores
                        } else {
                            &mut self.loads
                        };
                        list.push((*a, idx.clone()));
                        self.accesses.contains(&at)
                            && matches!(a, ArrRef::Param(_) | ArrRef::Const(_))
                            && (matches!(a, ArrRef::Param(_)) || !matches!(i.op, Op::Store(..)))
                    }
                    Op::Atomic(_, ArrRef::Param(p), ..)
                        if self.private.contains(&(*p as usize)) =>
                    {
                        self.atomics = true;
                        true
                    }
                    _ => false,
                };
                i.op.reads(|r| ok &= (self.reads_ok)(r));
                ok
            }
            Stmt::If(c, t, e) => {
                (self.reads_ok)(*c) && self.stmts(t, id, nested) && self.stmts(e, id, nested)
            }
            Stmt::Loop {
                id: inner,
                body,
                latch,
            } => {
                nested.insert(*inner);
                self.stmts(body, id, nested) && self.stmts(latch, id, nested)
            }
            Stmt::Break(b) => nested.contains(b),
            Stmt::Continue(b) => *b == id || nested.contains(b),
            Stmt::Exit => false,
        })
    }
}

impl FlatLoop {
    /// Whether a launch of `c` over `descs` may run flat: a 1-D launch (the counter then
    /// walks the lanes of every block in order) whose written arrays share no memory with
    /// another argument.
    pub(crate) fn fits(&self, c: &LaunchConfig, descs: &[ArrDesc]) -> bool {
        let one_d = c.grid[1] == 1 && c.grid[2] == 1 && c.block[1] == 1 && c.block[2] == 1;
        one_d && self.written.iter().all(|&w| super::alone(descs, w))
    }
}

impl<M: Module> Lower<'_, '_, M> {
    /// The parameter arrays' addresses, shapes and strides loaded again here, for the code
    /// lowered until the returned entry values are put back. The entry values live through
    /// the whole function, so Cranelift spills them, and an element loop using them reloads
    /// each from the stack at every element; values loaded just before the loop live only
    /// through it and stay in registers. Arrays that shared a shape value still do.
    pub(super) fn reload_arrays(&mut self) -> HashMap<usize, ArrVals> {
        let entry = self.arrs.clone();
        let arrs_ptr = self
            .b
            .ins()
            .load(I64, flags(), self.ctx, offset_of!(Ctx, arrs) as i32);
        let jsz = std::mem::size_of::<JArr>();
        let nparams = self.k.params.len();
        let mut again: HashMap<Value, Value> = HashMap::new();
        let mut slots: Vec<usize> = self.arrs.keys().copied().filter(|&s| s < nparams).collect();
        // In slot order, so a shared shape is read from the first array that has it.
        slots.sort_unstable();
        for slot in slots {
            let Some(av) = self.arrs.get_mut(&slot) else {
                continue;
            };
            let at = (slot * jsz) as i32;
            let mut ld =
                |field: usize| self.b.ins().load(I64, flags(), arrs_ptr, at + field as i32);
            av.base = ld(offset_of!(JArr, base));
            for ax in 0..av.shape.len() {
                let old = av.shape[ax];
                av.shape[ax] = *again
                    .entry(old)
                    .or_insert_with(|| ld(offset_of!(JArr, shape) + 8 * ax));
            }
            for ax in 0..av.strides.len() {
                av.strides[ax] = ld(offset_of!(JArr, strides) + 8 * ax);
            }
        }
        entry
    }

    /// The blocks `first..end` of a launch that runs flat, as contiguous runs of the
    /// counter; on to `lockstep` (the chunk's rounds from the start) when the launch's
    /// step is not the grid's extent or the proof fails, to `done` when the chunk is run.
    pub(super) fn flat_chunk(
        &mut self,
        fl: &FlatLoop,
        first: Value,
        end: Value,
        lockstep: Block,
        done: Block,
    ) -> Result<(), Unsupported> {
        let k = self.k;
        let Some((Stmt::Loop { id, body, .. }, prologue)) = k.body.split_last() else {
            return Err("flat kernel without its loop".into());
        };
        // The chunk's first lane: thread 0 of block `first`.
        let zero = self.b.ins().iconst(I64, 0);
        for ax in 0..3 {
            self.b.def_var(self.t[ax], zero);
            self.b.def_var(self.bid[ax], zero);
            self.b.def_var(self.gbase[ax], zero);
        }
        self.b.def_var(self.bid[0], first);
        let l0 = self.b.ins().imul(first, self.bdim[0]);
        self.b.def_var(self.gbase[0], l0);
        self.b.def_var(self.blin, first);
        self.checked.clear();
        self.stmts(prologue)?;
        self.checked.clear();
        let lo0 = self.reg(fl.ls.ctr);
        let step = self.reg(fl.step);
        let stop = self.reg(fl.stop);
        let lanes = self.b.ins().imul(self.bdim[0], self.gdim[0]);
        let same = self.b.ins().icmp(IntCC::Equal, step, lanes);
        let small = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, stop, RANGE);
        let low = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, lo0, -RANGE);
        let ok = self.all(&[same, small, low]);
        let (sized, any, proof) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(ok, sized, &[], lockstep, &[]);
        self.b.switch_to_block(sized);
        let any_lane = self.b.ins().icmp(IntCC::SignedLessThan, lo0, stop);
        self.b.ins().brif(any_lane, any, &[], done, &[]);

        // Every access of every counter in [lo0, stop) in range: the chunk's iterations
        // are among them.
        self.b.switch_to_block(any);
        let an = affine::analyse(k, Some(fl.ls));
        let round = self.b.declare_var(I64);
        self.b.def_var(round, zero);
        let span = self.b.ins().isub(stop, lo0);
        let ok = self.block_ok(&an, Some(round), Some(span))?;
        self.b.ins().brif(ok, proof, &[], lockstep, &[]);

        self.b.switch_to_block(proof);
        let width = self.b.ins().isub(end, first);
        let width = self.b.ins().imul(width, self.bdim[0]);
        let [lo, i, hi] = [(); 3].map(|_| self.b.declare_var(I64));
        self.b.def_var(lo, lo0);
        let blocks: [Block; 6] = std::array::from_fn(|_| self.b.create_block());
        let [round_head, elem_head, elem_body, elem_next, round_next, round_go] = blocks;
        self.b.ins().jump(round_head, &[]);

        // One round: the counters [lo, min(lo + width, stop)).
        self.b.switch_to_block(round_head);
        // Once per round, not per chunk: a round ends in the poll's call, across which
        // every value would be spilled again.
        let entry_arrs = self.reload_arrays();
        let l = self.b.use_var(lo);
        self.b.def_var(i, l);
        // Counter `lo` is lane `l0`'s: a fault's thread is the counter less this.
        let less = self.b.ins().isub(l, l0);
        let h = self.b.ins().iadd(l, width);
        let h = self.b.ins().smin(h, stop);
        self.b.def_var(hi, h);
        self.b.ins().jump(elem_head, &[]);

        self.b.switch_to_block(elem_head);
        let (iv, h) = (self.b.use_var(i), self.b.use_var(hi));
        let ended = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, iv, h);
        // The exit first: see `select::loop_exit_first`.
        self.b.ins().brif(ended, round_next, &[], elem_body, &[]);

        self.b.switch_to_block(elem_body);
        let iv = self.b.use_var(i);
        self.b.def_var(self.vars[fl.ls.ctr as usize], iv);
        self.checked.clear();
        self.proven = an.accesses.iter().map(|a| a.at).collect();
        self.exit_to = elem_next;
        self.loops.push((*id, elem_next, elem_next));
        self.run = Some(Row {
            ax: 0,
            g: i,
            less: Some(less),
            ids: [zero; 3],
        });
        // The range test holds for every counter of the run: the rest is the body.
        let r = self
            .stmts(&body[..fl.test])
            .and_then(|_| self.stmts(&body[fl.test + 1..]));
        self.loops.pop();
        self.run = None;
        self.proven.clear();
        self.checked.clear();
        self.arrs = entry_arrs;
        r?;
        self.b.ins().jump(elem_next, &[]);

        self.b.switch_to_block(elem_next);
        let iv = self.b.use_var(i);
        let iv = self.b.ins().iadd_imm_s(iv, 1);
        self.b.def_var(i, iv);
        self.b.ins().jump(elem_head, &[]);

        // Poll every POLL_EVERY iterations or so (a round has at most a chunk's lanes).
        self.b.switch_to_block(round_next);
        let (iv, l) = (self.b.use_var(i), self.b.use_var(lo));
        let ran = self.b.ins().isub(iv, l);
        let next = self.b.ins().iadd(l, step);
        self.b.def_var(lo, next);
        self.spend(ran, round_go)?;

        self.b.switch_to_block(round_go);
        let l = self.b.use_var(lo);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, l, stop);
        self.b.ins().brif(more, round_head, &[], done, &[]);
        Ok(())
    }
}
