//! Thread loops cut short where a guard lets no thread past a bound. Most kernels end in
//! `if x < out.shape[0] and y < out.shape[1]: ...` (or a block's reduction tree in
//! `if tid < s: ...`), and a loop running such a body over its counter (`order.rs`'s row
//! of global ids along `y`, `blockwise.rs`'s threads along `x`) otherwise tests the
//! compare again at every step, and runs every thread past the bound only to skip it.
//!
//! When the loop body is pure straight-line code (no memory, no faults, no leaving)
//! followed by one last `if c: arm`, and `c` can only hold where a compare
//! `counter < bound` made before it held (`bound` one register defined once from
//! launch-wide values), the loop runs only counters below `bound`: every thread past it
//! skips `arm` and its prefix has no effect. Inside the cut loop that compare is known to
//! hold, so it is lowered as true, and what is left of `c` (`x < out.shape[0]`) is the same
//! along the row, which Cranelift then hoists out of it.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_module::Module;

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::ir::{each_inst, Inst, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::lower::{cl_type, Lower, Unsupported};
use crate::kernel::jit::ops::constant;

/// A loop body `prefix; if cond: arm` whose `cond` holds only for counters below `bound`.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    /// The register every counter the cut loop runs stays below.
    bound: Reg,
    /// The compares `counter < bound` of the prefix (by instruction address): true for
    /// every counter the cut loop runs.
    known: HashSet<usize>,
}

impl Guard {
    /// Whether `i` is one of the compares the cut loop knows holds.
    pub(crate) fn knows(&self, i: &Inst) -> bool {
        self.known.contains(&(i as *const Inst as usize))
    }
}

/// Registers a bool register's truth proves the counter below (None: the register is
/// known false where this is recorded, which proves anything).
type Facts = Option<HashSet<Reg>>;

fn union(a: &Facts, b: &Facts) -> Facts {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.union(b).copied().collect()),
        _ => None,
    }
}

fn meet(a: &Facts, b: &Facts) -> Facts {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.intersection(b).copied().collect()),
        (None, x) | (x, None) => x.clone(),
    }
}

struct Walk<'k, F: Fn(&Special) -> bool> {
    k: &'k Kernel,
    /// The operation of every register defined once in the whole kernel.
    defs: &'k HashMap<Reg, &'k Op>,
    /// Which specials equal the loop's counter.
    is_ctr: F,
    /// Whether the counter fits in 32 bits (a thread index), so a cast of it to a wider
    /// integer is still the counter.
    narrow: bool,
    facts: HashMap<Reg, Facts>,
    /// Compares `counter < bound`: (address, bound).
    cmps: Vec<(usize, Reg)>,
}

/// The operation of every register the kernel defines exactly once.
pub(crate) fn single_defs(k: &Kernel) -> HashMap<Reg, &Op> {
    let mut n: HashMap<Reg, (u32, &Op)> = HashMap::new();
    each_inst(&k.body, &mut |i| {
        if let Some(d) = i.dst {
            n.entry(d).or_insert((0, &i.op)).0 += 1;
        }
    });
    n.into_iter()
        .filter(|(_, (c, _))| *c == 1)
        .map(|(r, (_, op))| (r, op))
        .collect()
}

fn int(k: &Kernel, r: Reg) -> bool {
    k.regs
        .get(r as usize)
        .is_some_and(|d| !d.is_float() && *d != DType::Bool)
}

impl<F: Fn(&Special) -> bool> Walk<'_, F> {
    /// Whether register `r` (defined once) holds the loop's counter.
    fn ctr(&self, r: Reg, depth: u32) -> bool {
        match self.defs.get(&r) {
            Some(Op::Special(s)) => (self.is_ctr)(s),
            Some(Op::Copy(x)) if depth < 8 => self.ctr(*x, depth + 1),
            Some(Op::Cast(x)) if depth < 8 && int(self.k, r) && int(self.k, *x) => {
                let wide = self.k.regs[r as usize].itemsize() >= 4;
                (self.narrow && wide || self.k.regs[*x as usize] == self.k.regs[r as usize])
                    && self.ctr(*x, depth + 1)
            }
            _ => false,
        }
    }

    fn fact(&self, r: Reg) -> Facts {
        self.facts
            .get(&r)
            .cloned()
            .unwrap_or_else(|| Some(HashSet::new()))
    }

    /// Walk straight-line statements; false when one is not pure or leaves.
    fn stmts(&mut self, ss: &[Stmt]) -> bool {
        for s in ss {
            match s {
                Stmt::Inst(i) => {
                    if !self.inst(i) {
                        return false;
                    }
                }
                Stmt::If(c, t, e) => {
                    let entry = self.facts.clone();
                    let on_entry = |r: Reg| entry.get(&r).cloned().unwrap_or(Some(HashSet::new()));
                    if !self.stmts(t) {
                        return false;
                    }
                    let after_t = std::mem::replace(&mut self.facts, entry.clone());
                    if !self.stmts(e) {
                        return false;
                    }
                    let after_e = std::mem::take(&mut self.facts);
                    let (in_t, in_e) = (assigned(t), assigned(e));
                    self.facts = entry.clone();
                    let get = |m: &HashMap<Reg, Facts>, r: Reg| {
                        m.get(&r).cloned().unwrap_or(Some(HashSet::new()))
                    };
                    for &d in in_t.union(&in_e) {
                        // Where `c` held its facts hold; where it failed, `c` itself is false.
                        let pt = match (in_t.contains(&d), d == *c) {
                            (true, _) => union(&get(&after_t, d), &on_entry(*c)),
                            (false, true) => on_entry(*c),
                            (false, false) => on_entry(d),
                        };
                        let pe = match (in_e.contains(&d), d == *c) {
                            (true, _) => get(&after_e, d),
                            (false, true) => None,
                            (false, false) => on_entry(d),
                        };
                        self.facts.insert(d, meet(&pt, &pe));
                    }
                }
                Stmt::Loop { .. } | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {
                    return false
                }
            }
        }
        true
    }

    fn inst(&mut self, i: &Inst) -> bool {
        let Some(d) = i.dst else { return false };
        let wide = |r: &Reg| self.k.regs.get(*r as usize) == Some(&DType::I64);
        let f = match &i.op {
            Op::Cmp(Cmp::Lt, x, b) | Op::Cmp(Cmp::Gt, b, x)
                if wide(x) && wide(b) && self.ctr(*x, 0) =>
            {
                self.cmps.push((i as *const Inst as usize, *b));
                Some(HashSet::from([*b]))
            }
            Op::Cmp(..) | Op::Const(_) | Op::Param(_) | Op::Dim(..) => Some(HashSet::new()),
            Op::Special(s) if !matches!(s, Special::LaneId) => Some(HashSet::new()),
            Op::Copy(x) => self.fact(*x),
            Op::Cast(x) if int(self.k, *x) && int(self.k, d) => Some(HashSet::new()),
            Op::Bin(Arith::BitAnd, x, y) if self.k.regs[d as usize] == DType::Bool => {
                union(&self.fact(*x), &self.fact(*y))
            }
            Op::Bin(
                Arith::Add
                | Arith::Sub
                | Arith::Mul
                | Arith::BitAnd
                | Arith::BitOr
                | Arith::BitXor
                | Arith::Min
                | Arith::Max,
                x,
                y,
            ) if int(self.k, *x) && int(self.k, *y) || self.k.regs[d as usize] == DType::Bool => {
                Some(HashSet::new())
            }
            _ => return false,
        };
        self.facts.insert(d, f);
        true
    }
}

/// Registers assigned anywhere in `ss`.
fn assigned(ss: &[Stmt]) -> HashSet<Reg> {
    let mut out = HashSet::new();
    each_inst(ss, &mut |i| {
        if let Some(d) = i.dst {
            out.insert(d);
        }
    });
    out
}

/// The guard of a loop body `ss` over a counter that specials `is_ctr` equal (`narrow`:
/// it fits in 32 bits), when the body has the shape the module describes.
pub(crate) fn guard(
    k: &Kernel,
    defs: &HashMap<Reg, &Op>,
    ss: &[Stmt],
    is_ctr: impl Fn(&Special) -> bool,
    narrow: bool,
) -> Option<Guard> {
    let (Stmt::If(cond, arm, els), prefix) = ss.split_last()? else {
        return None;
    };
    if arm.is_empty() || !els.is_empty() {
        return None;
    }
    let mut w = Walk {
        k,
        defs,
        is_ctr,
        narrow,
        facts: HashMap::new(),
        cmps: Vec::new(),
    };
    if !w.stmts(prefix) {
        return None;
    }
    let facts = w.fact(*cond)?;
    let bound = facts
        .into_iter()
        .filter(|b| uniform(k, defs, *b, 0))
        .min()?;
    let known = w
        .cmps
        .iter()
        .filter(|(_, b)| *b == bound)
        .map(|(at, _)| *at)
        .collect();
    Some(Guard { bound, known })
}

/// Whether `r` is defined once from launch-wide integers [`Lower::uniform`] can compute
/// before a loop.
fn uniform(k: &Kernel, defs: &HashMap<Reg, &Op>, r: Reg, depth: u32) -> bool {
    if depth > 8 || !int(k, r) {
        return false;
    }
    match defs.get(&r) {
        Some(Op::Const(_) | Op::Param(_) | Op::Dim(..)) => true,
        Some(Op::Special(Special::Ntid(_) | Special::Nctaid(_))) => true,
        Some(Op::Copy(x) | Op::Cast(x)) => uniform(k, defs, *x, depth + 1),
        Some(Op::Bin(Arith::Add | Arith::Sub | Arith::Mul, x, y)) => {
            uniform(k, defs, *x, depth + 1) && uniform(k, defs, *y, depth + 1)
        }
        _ => false,
    }
}

impl<M: Module> Lower<'_, '_, M> {
    /// The value of a register [`uniform`] accepts, computed here as its definitions
    /// would compute it.
    fn uniform(&mut self, defs: &HashMap<Reg, &Op>, r: Reg) -> Result<Value, Unsupported> {
        let dt = self.dt(r);
        let op = *defs.get(&r).ok_or("guard bound without one definition")?;
        Ok(match op {
            Op::Const(s) => constant(&mut self.b, s, dt),
            Op::Param(p) => self.scalar_param(*p)?,
            Op::Dim(a, ax) => self.dim(*a, *ax)?,
            Op::Special(Special::Ntid(k)) => self.bdim[(*k).min(2) as usize],
            Op::Special(Special::Nctaid(k)) => self.gdim[(*k).min(2) as usize],
            Op::Copy(x) if cl_type(self.dt(*x)) == cl_type(dt) => self.uniform(defs, *x)?,
            Op::Cast(x) => {
                let v = self.uniform(defs, *x)?;
                self.cast(v, self.dt(*x), dt)?
            }
            Op::Bin(op, x, y) => {
                let (a, b) = (self.uniform(defs, *x)?, self.uniform(defs, *y)?);
                self.bin(*op, dt, a, b)?
            }
            _ => return Err("guard bound not launch-wide".into()),
        })
    }

    /// The end of a loop from `lo` to `end` cut to the counters below `g`'s bound.
    pub(super) fn cut_end(
        &mut self,
        defs: &HashMap<Reg, &Op>,
        g: &Guard,
        lo: Value,
        end: Value,
    ) -> Result<Value, Unsupported> {
        let bound = self.uniform(defs, g.bound)?;
        let below = self.b.ins().smin(end, bound);
        Ok(self.b.ins().smax(below, lo))
    }

    /// Whether `i` is a compare the cut loop being lowered knows holds.
    pub(super) fn known_true(&self, i: &Inst) -> bool {
        self.cut.as_ref().is_some_and(|g| g.knows(i))
    }
}

/// The arrays (by slot) statements `ss` use, so a region reloads only those.
pub(crate) fn arrays_used(k: &Kernel, ss: &[Stmt]) -> HashSet<usize> {
    let mut out = HashSet::new();
    each_inst(ss, &mut |i| match &i.op {
        Op::Dim(a, _)
        | Op::Load(a, _)
        | Op::Store(a, ..)
        | Op::Atomic(_, a, ..)
        | Op::Rng(_, a, _) => {
            out.extend(crate::kernel::jit::lower::slot(k, *a));
        }
        _ => {}
    });
    out
}

/// Whether `ss` may leave the thread's straight path (`return`, `break`, `continue`).
pub(crate) fn leaves(ss: &[Stmt]) -> bool {
    ss.iter().any(|s| match s {
        Stmt::Inst(_) => false,
        Stmt::If(_, t, e) => leaves(t) || leaves(e),
        Stmt::Loop { body, latch, .. } => leaves(body) || leaves(latch),
        Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => true,
    })
}

/// Whether a thread may return in `ss` (`return`, or a `break` or `continue` of no loop
/// around it, which ends the thread as well), inside loops `open`.
pub(crate) fn returns(ss: &[Stmt], open: &mut Vec<u32>) -> bool {
    ss.iter().any(|s| match s {
        Stmt::Inst(_) => false,
        Stmt::If(_, t, e) => returns(t, open) || returns(e, open),
        Stmt::Loop { id, body, latch } => {
            open.push(*id);
            let r = returns(body, open) || returns(latch, open);
            open.pop();
            r
        }
        Stmt::Break(id) | Stmt::Continue(id) => !open.contains(id),
        Stmt::Exit => true,
    })
}
