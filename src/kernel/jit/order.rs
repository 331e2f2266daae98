//! Threads in any order, where no thread can see another. CUDA's `x` is the fastest thread
//! axis, so the usual order runs a block's threads along `x`; but in
//! `out[x, y] = a[x, y] * 2` `x` picks the row, and thread after thread then touches
//! another row, 10 KB apart in a 2000×2500 array: the prefetcher never catches on. When
//! the order cannot be observed, a chunk instead runs the blocks of one strip (the blocks
//! along the axis `y` picks with the same other coordinates) row by row: for each other
//! thread index, every block's threads along the inner axis, so each row of the strip is
//! read and written as one contiguous run.
//!
//! The order cannot be observed when:
//! - every array the kernel writes is a parameter written and read only at one index,
//!   whose parts are global ids plus launch-wide values, covering every axis the launch
//!   has more than one thread along (so no two threads share an element), and sharing no
//!   memory with another argument (checked at launch);
//! - no local, shared or atomic memory, draws, prints, raises or view checks (whose
//!   values or faults could depend on the order);
//! - every access is affine (`affine.rs`), and only blocks whose accesses are proven in
//!   range before any thread runs go in this order: such blocks cannot fault. A chunk
//!   lists the blocks that fail their proof (ragged edges, mostly) in `Ctx::deferred`, and
//!   the launch runs them afterwards in the usual order with the usual checks, so the
//!   first fault found is the one the usual order finds. (After a fault, blocks past it
//!   may have run, as they may on other workers in the usual order.)

use std::collections::{BTreeMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Variable;
use cranelift_module::Module;

use crate::arrays::operator::Arith;
use crate::kernel::abi::LaunchConfig;
use crate::kernel::exec::ArrDesc;
use crate::kernel::ir::{ArrRef, Kernel, Op, Reg, Special};
use crate::kernel::jit::affine::Affine;
use crate::kernel::jit::clamp;
use crate::kernel::jit::helpers::Ctx;
use crate::kernel::jit::lower::{flags, Lower, Row, Unsupported};
use crate::kernel::jit::vector::{self, VectorRow};

/// A kernel whose threads may run in any order, and the order it runs them in.
#[derive(Clone, Debug)]
pub(crate) struct AnyOrder {
    /// The thread axis run innermost: the one the last index of the written arrays
    /// follows (never 0, which the usual order already runs innermost).
    pub(crate) inner: u8,
    /// Bit per axis that every written index has a global id along.
    covered: u8,
    /// The array parameters the kernel writes.
    written: Vec<usize>,
    /// Set when a row's body runs several threads per step (`vector.rs`).
    pub(crate) lanes: Option<VectorRow>,
}

/// How a register's value varies over the launch: the same everywhere, or that plus the
/// thread's global id along one axis.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Uniform,
    Global(u8),
}

fn class(an: &Affine, r: Reg) -> Option<Class> {
    use Class::*;
    let (op, _) = an.defs.get(&r)?;
    match op {
        Op::Special(Special::GlobalId(a)) => Some(Global((*a).min(2))),
        Op::Special(Special::Ntid(_) | Special::Nctaid(_)) | Op::Const(_) | Op::Param(_) => {
            Some(Uniform)
        }
        Op::Dim(ArrRef::Param(_) | ArrRef::Const(_), _) => Some(Uniform),
        // `affine.rs` admits only integer casts to int64 here.
        Op::Copy(x) | Op::Cast(x) => class(an, *x),
        Op::Bin(op, x, y) => match (op, class(an, *x)?, class(an, *y)?) {
            (Arith::Add | Arith::Sub | Arith::Mul, Uniform, Uniform) => Some(Uniform),
            (Arith::Add | Arith::Sub, Global(a), Uniform) | (Arith::Add, Uniform, Global(a)) => {
                Some(Global(a))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether `k` (neither lockstep nor blockwise) may run its threads in any order, and
/// along which axis; `an` is its affine analysis.
pub(crate) fn of(k: &Kernel, an: &Affine) -> Option<AnyOrder> {
    if !k.local.is_empty() || !k.shared.is_empty() {
        return None;
    }
    let proven: HashSet<usize> = an.accesses.iter().map(|a| a.at).collect();
    let mut ok = true;
    // Per written parameter (in order, so the inner axis below is always the same one),
    // the one index it is accessed at.
    let mut index: BTreeMap<u32, &Vec<Reg>> = BTreeMap::new();
    let mut accesses = Vec::new();
    crate::kernel::ir::each_inst(&k.body, &mut |i| match &i.op {
        Op::Load(a, idx) | Op::Store(a, idx, _) => {
            ok &= proven.contains(&(i as *const _ as usize));
            accesses.push((*a, idx.clone(), matches!(i.op, Op::Store(..))));
        }
        Op::Atomic(..)
        | Op::Rng(..)
        | Op::Barrier(..)
        | Op::Fence(_)
        | Op::Print(_)
        | Op::Raise { .. }
        | Op::CheckIndex(..) => ok = false,
        _ => {}
    });
    if !ok {
        return None;
    }
    for (a, idx, store) in &accesses {
        if let (ArrRef::Param(p), true) = (a, store) {
            ok &= *index.entry(*p).or_insert(idx) == idx;
        }
    }
    for (a, idx, _) in &accesses {
        if let ArrRef::Param(p) = a {
            ok &= index.get(p).is_none_or(|w| *w == idx);
        }
    }
    if !ok || index.is_empty() {
        return None;
    }
    let mut covered = 0b111u8;
    let mut inner = None;
    for idx in index.values() {
        let mut axes = 0u8;
        for r in idx.iter() {
            match class(an, *r)? {
                Class::Global(ax) => axes |= 1 << ax,
                Class::Uniform => {}
            }
        }
        covered &= axes;
        if let Some(Class::Global(ax)) = idx.last().and_then(|r| class(an, *r)) {
            inner.get_or_insert(ax);
        }
    }
    let inner = inner.filter(|&ax| ax > 0)?;
    let written: Vec<usize> = index.keys().map(|&p| p as usize).collect();
    // `nest` cuts the row to the same guard.
    let guard = clamp::guard(
        k,
        &clamp::single_defs(k),
        &k.body,
        on_axis(inner as usize),
        false,
    );
    let lanes = vector::plan(k, inner as usize, &|i| {
        guard.as_ref().is_some_and(|g| g.knows(i))
    });
    Some(AnyOrder {
        inner,
        covered,
        written,
        lanes,
    })
}

/// Which specials are a row's counter along thread axis `ax`.
fn on_axis(ax: usize) -> impl Fn(&Special) -> bool {
    move |s| matches!(s, Special::GlobalId(a) if (*a).min(2) as usize == ax)
}

impl AnyOrder {
    /// Whether a launch of `c` over arrays `descs` may run in this order: no two threads
    /// write one element (every axis with more than one thread is covered) and no written
    /// array shares memory with another argument.
    pub(crate) fn fits(&self, c: &LaunchConfig, descs: &[ArrDesc]) -> bool {
        let long = (0..3)
            .all(|ax| c.grid[ax] as u64 * c.block[ax] as u64 <= 1 || self.covered & 1 << ax != 0);
        let alone = self.written.iter().all(|&w| super::alone(descs, w));
        long && alone && c.block[self.inner as usize] > 1
    }

    /// The blocks of a strip (every block along the inner axis with the same other
    /// coordinates).
    pub(crate) fn strip(&self, c: &LaunchConfig) -> usize {
        c.grid[self.inner as usize].max(1) as usize
    }
}

impl<M: Module> Lower<'_, '_, M> {
    /// Run positions `first..end` of one strip (blocks numbered along the strip, strips
    /// after one another), then jump to `done`.
    pub(super) fn any_order(
        &mut self,
        ord: &AnyOrder,
        an: &Affine,
        first: Value,
        end: Value,
        done: Block,
    ) -> Result<(), Unsupported> {
        let i = ord.inner as usize;
        let [a, c] = match i {
            1 => [0, 2],
            _ => [0, 1],
        };
        let gi = self.gdim[i];
        let strip = self.b.ins().udiv(first, gi);
        let start = self.b.ins().urem(first, gi);
        let before = self.b.ins().imul(strip, gi);
        let stop = self.b.ins().isub(end, before);
        let ba = self.b.ins().urem(strip, self.gdim[a]);
        let bc = self.b.ins().udiv(strip, self.gdim[a]);
        for (ax, v) in [(a, ba), (c, bc)] {
            self.b.def_var(self.bid[ax], v);
            let g = self.b.ins().imul(v, self.bdim[ax]);
            self.b.def_var(self.gbase[ax], g);
        }
        let (cur, f) = (self.b.declare_var(I64), self.b.declare_var(I64));
        self.b.def_var(cur, start);
        let blocks: [Block; 8] = std::array::from_fn(|_| self.b.create_block());
        let [seg, test_head, test_body, test_next, run, nest, after_nest, defer] = blocks;
        self.b.ins().jump(seg, &[]);

        // A segment: from `cur`, the blocks proven in range, then one that is not.
        self.b.switch_to_block(seg);
        let cv = self.b.use_var(cur);
        self.b.def_var(f, cv);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, cv, stop);
        self.b.ins().brif(more, test_head, &[], done, &[]);

        self.b.switch_to_block(test_head);
        let fv = self.b.use_var(f);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, fv, stop);
        self.b.ins().brif(more, test_body, &[], run, &[]);
        self.b.switch_to_block(test_body);
        let fv = self.b.use_var(f);
        self.set_block(i, fv);
        let ok = self.block_ok(an, None, None)?;
        self.b.ins().brif(ok, test_next, &[], run, &[]);
        self.b.switch_to_block(test_next);
        let fv = self.b.use_var(f);
        let fv = self.b.ins().iadd_imm_s(fv, 1);
        self.b.def_var(f, fv);
        self.b.ins().jump(test_head, &[]);

        self.b.switch_to_block(run);
        let (cv, fv) = (self.b.use_var(cur), self.b.use_var(f));
        let any = self.b.ins().icmp(IntCC::SignedLessThan, cv, fv);
        self.b.ins().brif(any, nest, &[], after_nest, &[]);
        self.b.switch_to_block(nest);
        self.nest([c, a, i], an, ord.lanes.as_ref(), cur, f, after_nest)?;

        self.b.switch_to_block(after_nest);
        let fv = self.b.use_var(f);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, fv, stop);
        self.b.ins().brif(more, defer, &[], done, &[]);
        // The block that failed its proof waits for the usual order.
        self.b.switch_to_block(defer);
        let fv = self.b.use_var(f);
        self.set_block(i, fv);
        let ctx = self.ctx;
        let n = self
            .b
            .ins()
            .load(I64, flags(), ctx, offset_of!(Ctx, ndeferred) as i32);
        let list = self
            .b
            .ins()
            .load(I64, flags(), ctx, offset_of!(Ctx, deferred) as i32);
        let at = self.b.ins().imul_imm_s(n, 8);
        let at = self.b.ins().iadd(list, at);
        let bl = self.b.use_var(self.blin);
        self.b.ins().store(flags(), bl, at, 0);
        let n = self.b.ins().iadd_imm_s(n, 1);
        self.b
            .ins()
            .store(flags(), n, ctx, offset_of!(Ctx, ndeferred) as i32);
        let fv = self.b.use_var(f);
        let next = self.b.ins().iadd_imm_s(fv, 1);
        self.b.def_var(cur, next);
        self.b.ins().jump(seg, &[]);
        Ok(())
    }

    /// Block `v` along axis `ax`: its id, global base and (as the usual order numbers
    /// blocks, x fastest) linear index.
    fn set_block(&mut self, ax: usize, v: Value) {
        self.b.def_var(self.bid[ax], v);
        let g = self.b.ins().imul(v, self.bdim[ax]);
        self.b.def_var(self.gbase[ax], g);
        let [x, y, z] = self.bid.map(|b| self.b.use_var(b));
        let zy = self.b.ins().imul(z, self.gdim[1]);
        let zy = self.b.ins().iadd(zy, y);
        let zyx = self.b.ins().imul(zy, self.gdim[0]);
        let lin = self.b.ins().iadd(zyx, x);
        self.b.def_var(self.blin, lin);
    }

    /// Threads of blocks `lo..hi` along `axes[2]`: the other two thread axes outermost
    /// (`axes[0]` outside `axes[1]`), then the row: every thread of those blocks along the
    /// inner axis, block after block, as one counter of its global id (`Lower::run`: the
    /// thread and block ids along it follow from the counter where the body reads them),
    /// every access proven, in vector steps where `lanes` says the body allows it; then on
    /// to `after`.
    fn nest(
        &mut self,
        axes: [usize; 3],
        an: &Affine,
        lanes: Option<&VectorRow>,
        lo: Variable,
        hi: Variable,
        after: Block,
    ) -> Result<(), Unsupported> {
        let [o, m, i] = axes;
        // Rows cut to the guard's bound along the inner axis (`clamp.rs`).
        let defs = clamp::single_defs(self.k);
        let guard = clamp::guard(self.k, &defs, &self.k.body, on_axis(i), false);
        let (g, g_end) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let heads: [Block; 3] = std::array::from_fn(|_| self.b.create_block());
        let nexts: [Block; 3] = std::array::from_fn(|_| self.b.create_block());
        let body = self.b.create_block();
        // The row's vector loop, entered before the scalar one.
        let vhead = lanes.map(|_| self.b.create_block());
        let zero = self.b.ins().iconst(I64, 0);
        self.b.def_var(self.t[o], zero);
        self.b.ins().jump(heads[0], &[]);
        let mut entry_arrs = None;
        let mut ids = [zero; 3];
        // Loop k counts `var` up to `bound`, starting loop k + 1 (or the body) each time.
        let vars = [self.t[o], self.t[m], g];
        for k in 0..3 {
            self.b.switch_to_block(heads[k]);
            let v = self.b.use_var(vars[k]);
            let bound = match k {
                0 => self.bdim[o],
                1 => self.bdim[m],
                _ => self.b.use_var(g_end),
            };
            let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, v, bound);
            let exit = if k == 0 { after } else { nexts[k - 1] };
            let inside = self.b.create_block();
            // The exit first: see `select::loop_exit_first`.
            self.b.ins().brif(done, exit, &[], inside, &[]);
            self.b.seal_block(inside);
            self.b.switch_to_block(inside);
            match k {
                0 => {
                    let z = self.b.ins().iconst(I64, 0);
                    self.b.def_var(self.t[m], z);
                }
                1 => {
                    // Per row: values loaded for the row live only through it and stay
                    // in registers (see `reload_arrays`).
                    entry_arrs = Some(self.reload_arrays());
                    let (l, h) = (self.b.use_var(lo), self.b.use_var(hi));
                    let l = self.b.ins().imul(l, self.bdim[i]);
                    let mut h = self.b.ins().imul(h, self.bdim[i]);
                    if let Some(gd) = &guard {
                        h = self.cut_end(&defs, gd, l, h)?;
                    }
                    self.b.def_var(g, l);
                    self.b.def_var(g_end, h);
                    for ax in [o, m] {
                        let t = self.b.use_var(self.t[ax]);
                        let base = self.b.use_var(self.gbase[ax]);
                        ids[ax] = self.b.ins().iadd(t, base);
                    }
                }
                _ => {}
            }
            let to = match (k, vhead) {
                (2, _) => body,
                (1, Some(v)) => v,
                _ => heads[k + 1],
            };
            self.b.ins().jump(to, &[]);
            self.b.switch_to_block(nexts[k]);
            let v = self.b.use_var(vars[k]);
            let v = self.b.ins().iadd_imm_s(v, 1);
            self.b.def_var(vars[k], v);
            if k == 1 {
                // A row ran: count its threads and poll when the budget is spent, so an
                // interrupt ends a strip between rows (its loop has no back-edge poll).
                let (l, h) = (self.b.use_var(lo), self.b.use_var(g_end));
                let l = self.b.ins().imul(l, self.bdim[i]);
                let ran = self.b.ins().isub(h, l);
                self.spend(ran, heads[k])?;
            } else {
                self.b.ins().jump(heads[k], &[]);
            }
        }
        self.next_thread = nexts[2];
        self.exit_to = nexts[2];
        self.checked.clear();
        self.proven = an.accesses.iter().map(|a| a.at).collect();
        self.run = Some(Row {
            ax: i,
            g,
            less: None,
            ids,
        });
        let k = self.k;
        self.cut = guard;
        let mut r = Ok(());
        if let (Some(plan), Some(v)) = (lanes, vhead) {
            r = self.vector_steps(plan, g, g_end, v, heads[2]);
        }
        self.b.seal_block(body);
        self.b.switch_to_block(body);
        let r = r.and_then(|()| self.stmts(&k.body));
        self.cut = None;
        self.run = None;
        self.proven.clear();
        self.checked.clear();
        if let Some(e) = entry_arrs {
            self.arrs = e;
        }
        r?;
        self.b.ins().jump(nexts[2], &[]);
        // Every predecessor is known now. Innermost first, each latch before its header:
        // a value from outside the row then reaches the row's loop as itself, not as a
        // block parameter passed round it, and Cranelift hoists what depends only on it
        // (the row's indices, addresses and the compares on them) out of the row.
        for k in (0..3).rev() {
            self.b.seal_block(nexts[k]);
            self.b.seal_block(heads[k]);
        }
        Ok(())
    }
}
