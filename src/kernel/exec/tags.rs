//! Uniform and affine registers. Most registers of an element-wise kernel hold either one
//! value for every lane (constants, sizes, scalar parameters) or `base + lane`
//! (`cuda.grid(1)` and offsets from it), and bounds guards compare one with the other. The
//! executor tracks this per register as a [`Tag`] and, when an instruction runs on every
//! lane of the chunk, computes such results for lane 0 only and leaves the other lanes
//! unwritten ("lazy"). Lane data is filled in ("materialised") only when an instruction
//! that needs it reads the register, so a guard like `if i < n:` costs a split of the
//! active list instead of three passes over the lanes, and loads and stores at `a[i]`
//! check their bounds once per run.
//!
//! A tag is set only by writes that cover every lane of the chunk; any other write clears
//! it. It therefore holds for whatever subset of lanes reads the register later.

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::abi::KernelFault;
use crate::kernel::exec::math::bin_scalar_lanes;
use crate::kernel::exec::mem::Run;
use crate::kernel::exec::{ArrDesc, Block, Prepared};
use crate::kernel::ir::{ArrRef, Inst, Op, Special};

/// What the executor knows of a register's value in every lane of the current chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    Var,
    /// The same bits in every lane.
    Uni(u64),
    /// `base + lane` as int64, e.g. `cuda.grid(1)` in a 1-D block.
    Aff(i64),
    /// A boolean true exactly in lanes below the bound.
    Below(usize),
    /// A boolean true exactly in lanes at or above the bound.
    AtLeast(usize),
}

/// The active lanes of an `if`, divided by its condition.
pub(crate) enum Split {
    All(Vec<u32>),
    None(Vec<u32>),
    Both(Vec<u32>, Vec<u32>),
}

impl Split {
    fn of(yes: Vec<u32>, no: Vec<u32>) -> Split {
        match (yes.is_empty(), no.is_empty()) {
            (_, true) => Split::All(yes),
            (true, _) => Split::None(no),
            _ => Split::Both(yes, no),
        }
    }
}

impl Block {
    /// Run one instruction over the active lanes.
    pub(crate) fn inst(&mut self, p: &Prepared, i: &Inst, act: &[u32]) -> Result<(), KernelFault> {
        let full = act.len() == self.live;
        if full && self.try_lazy(p, i)? {
            return Ok(());
        }
        if full && self.try_bin_scalar(p, i) {
            return Ok(());
        }
        // A 1-D access at an affine index over consecutive lanes needs no index data.
        let skip = match &i.op {
            Op::Load(a, idx) | Op::Store(a, idx, _)
                if idx.len() == 1 && matches!(self.tags[idx[0] as usize], Tag::Aff(_)) =>
            {
                let (desc, per_lane) = self.arr(p, *a);
                (per_lane == 0 && self.run_for(act, idx[0], &desc).is_some()).then_some(idx[0])
            }
            _ => None,
        };
        i.op.reads(|r| {
            if Some(r) != skip {
                self.materialise(r)
            }
        });
        if let Some(d) = i.dst {
            // Lanes outside a partial write keep their values, so they must exist.
            if !full {
                self.materialise(d);
            }
        }
        let result = self.inst_lanes(p, i, act);
        if let Some(d) = i.dst {
            self.tags[d as usize] = Tag::Var;
            self.lazy[d as usize] = false;
        }
        result
    }

    /// For an instruction on every lane whose result has a tag: compute lane 0 only and
    /// leave the register lazy. False when the instruction needs the lanes.
    fn try_lazy(&mut self, p: &Prepared, i: &Inst) -> Result<bool, KernelFault> {
        let Some(dst) = i.dst else {
            return Ok(false);
        };
        let t = |r: &u32| self.tags[*r as usize];
        let uni = |rs: &[u32]| rs.iter().all(|r| matches!(t(r), Tag::Uni(_)));
        let i64_op = |r: &u32| p.k.regs[*r as usize] == DType::I64;
        let one_d = self.threads == self.bdim[0] as usize;
        enum Kind {
            Uni,
            Aff,
            /// A copy of this tagged register.
            Copy(u32),
            Split(Tag),
        }
        let kind = match &i.op {
            Op::Const(_) | Op::Param(_) | Op::Dim(..) => Kind::Uni,
            Op::Special(s) => match s {
                Special::Ntid(_) | Special::Nctaid(_) | Special::WarpSize => Kind::Uni,
                Special::Ctaid(_) if !self.wide => Kind::Uni,
                Special::GlobalId(0) if one_d => Kind::Aff,
                Special::Tid(0) if one_d && !self.wide => Kind::Aff,
                _ => return Ok(false),
            },
            Op::Copy(r) if t(r) != Tag::Var => Kind::Copy(*r),
            Op::Cast(r) | Op::Un(_, r) if uni(&[*r]) => Kind::Uni,
            Op::Math(_, xs) if uni(xs) => Kind::Uni,
            Op::Select(c, x, y) if uni(&[*c, *x, *y]) => Kind::Uni,
            Op::Bin(_, x, y) | Op::Cmp(_, x, y) if uni(&[*x, *y]) => Kind::Uni,
            Op::Bin(b, x, y) if i64_op(x) && p.k.regs[dst as usize] == DType::I64 => {
                match (t(x), t(y), b) {
                    (Tag::Aff(_), Tag::Uni(_), Arith::Add | Arith::Sub)
                    | (Tag::Uni(_), Tag::Aff(_), Arith::Add) => Kind::Aff,
                    _ => return Ok(false),
                }
            }
            Op::Cmp(_, x, _) if i64_op(x) => match self.split_tag(&i.op) {
                Some(tag) => Kind::Split(tag),
                None => return Ok(false),
            },
            // Every lane reads the same element (local arrays are per lane): load it once.
            Op::Load(a, idx) if uni(idx) && !matches!(a, ArrRef::Local(_)) => Kind::Uni,
            _ => return Ok(false),
        };
        let du = dst as usize;
        match kind {
            Kind::Copy(src) => {
                self.regs[du][0] = self.regs[src as usize][0];
                self.tags[du] = self.tags[src as usize];
            }
            Kind::Uni | Kind::Aff | Kind::Split(_) => {
                // Lane 0 is active (the write covers every lane) and lazily tagged
                // operands keep lane 0 current, so this computes the true lane-0 value
                // and reports a fault as lane 0's.
                self.inst_lanes(p, i, &[0])?;
                let v = self.regs[du][0];
                self.tags[du] = match kind {
                    Kind::Aff => Tag::Aff(v as i64),
                    Kind::Split(tag) => tag,
                    _ => Tag::Uni(v),
                };
            }
        }
        self.lazy[du] = true;
        Ok(true)
    }

    /// Float arithmetic on every lane with one lazy uniform operand: use its value
    /// directly instead of writing it into every lane first.
    fn try_bin_scalar(&mut self, p: &Prepared, i: &Inst) -> bool {
        let (Some(dst), Op::Bin(b, x, y)) = (i.dst, &i.op) else {
            return false;
        };
        let uni = |r: u32| match (self.lazy[r as usize], self.tags[r as usize]) {
            (true, Tag::Uni(v)) => Some(v),
            _ => None,
        };
        let (s, other, left) = match (uni(*x), uni(*y)) {
            (Some(s), None) => (s, *y, true),
            (None, Some(s)) => (s, *x, false),
            _ => return false,
        };
        let dt = p.k.regs[dst as usize];
        if !matches!(dt, DType::F32 | DType::F64) {
            return false;
        }
        self.materialise(other);
        let n = self.live;
        let mut d = std::mem::take(&mut self.regs[dst as usize]);
        let done = if dst == other {
            let v = d[..n].to_vec();
            bin_scalar_lanes(&mut d[..n], &v, s, *b, dt, left)
        } else {
            bin_scalar_lanes(
                &mut d[..n],
                &self.regs[other as usize][..n],
                s,
                *b,
                dt,
                left,
            )
        };
        self.regs[dst as usize] = d;
        if done {
            self.tags[dst as usize] = Tag::Var;
            self.lazy[dst as usize] = false;
        }
        done
    }

    /// The tag of an ordering `cmp` between an affine and a uniform int64; None for
    /// anything else (equality holds in at most one lane and has no tag).
    fn split_tag(&self, op: &Op) -> Option<Tag> {
        let Op::Cmp(c, x, y) = op else {
            return None;
        };
        let (tx, ty) = (self.tags[*x as usize], self.tags[*y as usize]);
        // Rewrite as `lane <op> bound` (lane = value - base).
        let (c, base, u) = match (tx, ty) {
            (Tag::Aff(b), Tag::Uni(u)) => (*c, b, u as i64),
            (Tag::Uni(u), Tag::Aff(b)) => (
                match c {
                    Cmp::Lt => Cmp::Gt,
                    Cmp::Le => Cmp::Ge,
                    Cmp::Gt => Cmp::Lt,
                    Cmp::Ge => Cmp::Le,
                    other => *other,
                },
                b,
                u as i64,
            ),
            _ => return None,
        };
        let bound = u as i128 - base as i128;
        let clamp = |k: i128| k.clamp(0, self.live as i128) as usize;
        match c {
            Cmp::Lt => Some(Tag::Below(clamp(bound))),
            Cmp::Le => Some(Tag::Below(clamp(bound + 1))),
            Cmp::Gt => Some(Tag::AtLeast(clamp(bound + 1))),
            Cmp::Ge => Some(Tag::AtLeast(clamp(bound))),
            Cmp::Eq | Cmp::Ne => None,
        }
    }

    /// Write the lane data of a lazy register.
    pub(crate) fn materialise(&mut self, r: u32) {
        let r = r as usize;
        if !self.lazy[r] {
            return;
        }
        let n = self.live;
        let d = &mut self.regs[r][..n];
        match self.tags[r] {
            Tag::Uni(v) => d.fill(v),
            Tag::Aff(b) => {
                for (l, o) in d.iter_mut().enumerate() {
                    *o = (b as u64).wrapping_add(l as u64);
                }
            }
            Tag::Below(k) => {
                for (l, o) in d.iter_mut().enumerate() {
                    *o = (l < k) as u64;
                }
            }
            Tag::AtLeast(k) => {
                for (l, o) in d.iter_mut().enumerate() {
                    *o = (l >= k) as u64;
                }
            }
            Tag::Var => {}
        }
        self.lazy[r] = false;
    }

    pub(crate) fn materialise_all(&mut self) {
        for r in 0..self.regs.len() {
            self.materialise(r as u32);
        }
    }

    /// Split the active lanes on a condition register: by its tag when it has one (no
    /// lane reads), else by reading the lanes.
    pub(crate) fn split(&mut self, c: u32, mut act: Vec<u32>) -> Split {
        let at = |act: &[u32], k: usize| act.partition_point(|&l| (l as usize) < k);
        match self.tags[c as usize] {
            Tag::Uni(0) => return Split::None(act),
            Tag::Uni(_) => return Split::All(act),
            Tag::Below(k) => {
                let no = act.split_off(at(&act, k));
                return Split::of(act, no);
            }
            Tag::AtLeast(k) => {
                let yes = act.split_off(at(&act, k));
                return Split::of(yes, act);
            }
            Tag::Aff(_) | Tag::Var => {}
        }
        self.materialise(c);
        let cr = &self.regs[c as usize];
        // Uniform conditions (a bounds guard in every block but the last) keep the active
        // list as it is: no split, no allocation.
        let taken = act.iter().filter(|&&l| cr[l as usize] != 0).count();
        if taken == act.len() {
            return Split::All(act);
        }
        if taken == 0 {
            return Split::None(act);
        }
        let (yes, no): (Vec<u32>, Vec<u32>) = act.iter().partition(|&&l| cr[l as usize] != 0);
        Split::Both(yes, no)
    }

    /// When the active lanes are consecutive and index consecutive in-bounds elements of
    /// a 1-D array whose first and last element fit the memory: the first lane and the
    /// proved run, so a load or store is one tight loop without per-lane checks. O(1) for
    /// an affine index, one pass over the indices otherwise.
    pub(crate) fn run_for(&self, act: &[u32], r: u32, desc: &ArrDesc) -> Option<(usize, Run)> {
        let (l0, l1) = (*act.first()? as usize, *act.last()? as usize);
        let cnt = act.len();
        if l1 + 1 - l0 != cnt {
            return None;
        }
        let affine = self.tags[r as usize];
        let ir = &self.regs[r as usize];
        let i0 = match affine {
            Tag::Aff(base) => base.wrapping_add(l0 as i64),
            _ => ir[l0] as i64,
        };
        if i0 < 0 || i0 + cnt as i64 > desc.shape[0] {
            return None;
        }
        if !matches!(affine, Tag::Aff(_)) {
            // A branch-free check (vectorisable): any index off the run sets bits in `off`.
            let off = ir[l0..=l1].iter().enumerate().fold(0u64, |acc, (k, &x)| {
                acc | (x ^ (i0 as u64).wrapping_add(k as u64))
            });
            if off != 0 {
                return None;
            }
        }
        let st = desc.strides[0];
        let first = desc.offset.checked_add((i0 as isize).checked_mul(st)?)?;
        Some((l0, desc.mem.run(first, st, cnt, desc.dtype)?))
    }
}
