//! Which kernels the JIT tier takes. Native code runs a block's threads one after
//! another; the interpreter runs each instruction across all of them, as a GPU's warps
//! do. The two agree on every kernel whose threads do not race, and they part on the ones
//! lessons write to show a race: `counter[0] += 1` from every thread, or a histogram
//! without atomics (`bins[data[i]] += 1`), which lose updates on a GPU and in the
//! interpreter but not thread by thread. So a kernel that reads and writes one array
//! (not atomically) at an element other threads may share stays with the interpreter.
//!
//! So does a grid-stride loop (`for i in range(start, n, cuda.gridsize(1))`) that native
//! code cannot run in lockstep rounds (`lockstep.rs`): thread by thread, each thread's
//! accesses lie a whole grid apart and miss the cache every time, while the interpreter's
//! lanes walk the arrays contiguously and run about three times faster. A loop with
//! atomics stays native either way: the interpreter's per-lane atomics cost more than the
//! misses.

use crate::arrays::operator::Arith;
use crate::kernel::ir::{each_inst, ArrRef, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::regions;

/// Why `k` stays with the interpreter, or None when the JIT covers it.
pub fn unsupported(k: &Kernel) -> Option<String> {
    if regions::blockwise(k) {
        if let Err(why) = regions::plan(k) {
            return Some(why);
        }
    }
    if k.ret.is_some() {
        return Some("a host function's return value".into());
    }
    if let Some(why) = ops(&k.body) {
        return Some(why);
    }
    shared_updates(k)
}

fn ops(ss: &[Stmt]) -> Option<String> {
    ss.iter().find_map(|s| match s {
        Stmt::Inst(i) => match &i.op {
            Op::Print(_) => Some("print".into()),
            Op::Raise { .. } => Some("raise".into()),
            _ => None,
        },
        Stmt::If(_, t, e) => ops(t).or_else(|| ops(e)),
        Stmt::Loop { body, latch, .. } => ops(body).or_else(|| ops(latch)),
        _ => None,
    })
}

/// What a register's value may depend on.
#[derive(Clone, Copy, Default, PartialEq)]
struct Dep {
    /// The thread's index (threadIdx, the global id, the lane).
    thread: bool,
    /// Memory (a load, an atomic's old value, a random draw): equal across threads or not.
    memory: bool,
    /// The grid's extent (`cuda.gridsize`): the stride of a grid-stride loop.
    grid: bool,
}

struct Flow {
    deps: Vec<Dep>,
    /// Registers assigned in more than one place: which assignment a thread last ran
    /// depends on the conditions it passed.
    multi: Vec<bool>,
    changed: bool,
    /// Arrays read by plain loads, and (array, index registers) of plain stores.
    /// (array, index registers) of plain loads.
    loads: Vec<(u32, Vec<Reg>)>,
    stores: Vec<(u32, Vec<Reg>)>,
    /// A loop steps by the grid's extent (`for i in range(start, n, cuda.gridsize(1))`).
    grid_stride: bool,
}

impl Flow {
    fn join(&mut self, r: Reg, d: Dep) {
        let cur = self.deps[r as usize];
        let new = Dep {
            thread: cur.thread || d.thread,
            memory: cur.memory || d.memory,
            grid: cur.grid || d.grid,
        };
        if new != cur {
            self.deps[r as usize] = new;
            self.changed = true;
        }
    }

    /// One pass over `ss`; `ctl` is what reaching this code depends on (a register
    /// assigned in several places under a thread-dependent condition depends on the
    /// thread too).
    fn walk(&mut self, ss: &[Stmt], ctl: Dep) {
        for s in ss {
            match s {
                Stmt::Inst(i) => {
                    let multi = i.dst.is_some_and(|r| self.multi[r as usize]);
                    let mut d = if multi { ctl } else { Dep::default() };
                    i.op.reads(|r| {
                        let x = self.deps[r as usize];
                        d.thread |= x.thread;
                        d.memory |= x.memory;
                        d.grid |= x.grid;
                    });
                    match &i.op {
                        Op::Special(Special::Tid(_) | Special::GlobalId(_) | Special::LaneId) => {
                            d.thread = true
                        }
                        Op::Load(a, idx) => {
                            d.memory = true;
                            if let ArrRef::Param(j) = a {
                                if !self.loads.iter().any(|(b, x)| b == j && x == idx) {
                                    self.loads.push((*j, idx.clone()));
                                }
                            }
                        }
                        Op::Atomic(..) | Op::Rng(..) => d.memory = true,
                        Op::Special(Special::Nctaid(_)) => d.grid = true,
                        Op::Store(ArrRef::Param(j), idx, _)
                            if !self.stores.iter().any(|(a, x)| a == j && x == idx) =>
                        {
                            self.stores.push((*j, idx.clone()));
                        }
                        _ => {}
                    }
                    if let Some(dst) = i.dst {
                        self.join(dst, d);
                    }
                }
                Stmt::If(c, t, e) => {
                    let x = self.deps[*c as usize];
                    let inner = Dep {
                        thread: ctl.thread || x.thread,
                        memory: ctl.memory || x.memory,
                        grid: ctl.grid,
                    };
                    self.walk(t, inner);
                    self.walk(e, inner);
                }
                Stmt::Loop { body, latch, .. } => {
                    // How often a loop runs may depend on anything its body reads; the
                    // fixpoint over whole passes covers the registers it carries.
                    self.walk(body, ctl);
                    self.walk(latch, ctl);
                    let strided = !has_atomic(body)
                        && latch.iter().any(|s| match s {
                            Stmt::Inst(i) => match i.op {
                                Op::Bin(Arith::Add, x, y) => {
                                    self.deps[x as usize].grid || self.deps[y as usize].grid
                                }
                                _ => false,
                            },
                            _ => false,
                        });
                    self.grid_stride |= strided;
                }
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
            }
        }
    }
}

/// A grid-stride loop, or a read-modify-write of an array at an index that is not the
/// thread's own: an index with no thread-dependent part, one computed from memory, or
/// loads of the array at other indices than the thread stores to.
fn shared_updates(k: &Kernel) -> Option<String> {
    let mut defs = vec![0u32; k.regs.len()];
    count_defs(&k.body, &mut defs);
    let mut f = Flow {
        deps: vec![Dep::default(); k.regs.len()],
        multi: defs.iter().map(|&n| n > 1).collect(),
        changed: true,
        loads: Vec::new(),
        stores: Vec::new(),
        grid_stride: false,
    };
    // Dependencies only grow, so this ends within a pass per register.
    let mut passes = 0;
    while f.changed && passes <= k.regs.len() + 1 {
        f.changed = false;
        f.walk(&k.body, Dep::default());
        passes += 1;
    }
    // A blockwise kernel's blocks run one at a time in the interpreter too.
    if f.grid_stride
        && !regions::blockwise(k)
        && crate::kernel::jit::lockstep::lockstep(k).is_none()
    {
        return Some("a grid-stride loop that cannot run in lockstep".into());
    }
    // A single-definition copy names the same value as its source.
    let mut copy_of = vec![None; k.regs.len()];
    copies(&k.body, &defs, &mut copy_of);
    let canon = |r: Reg| {
        let mut r = r;
        for _ in 0..copy_of.len() {
            match copy_of[r as usize] {
                Some(src) => r = src,
                None => break,
            }
        }
        r
    };
    let canon_all = |idx: &[Reg]| idx.iter().map(|r| canon(*r)).collect::<Vec<_>>();
    f.stores.iter().find_map(|(j, idx)| {
        let loads: Vec<&Vec<Reg>> = f
            .loads
            .iter()
            .filter(|(b, _)| b == j)
            .map(|(_, x)| x)
            .collect();
        if loads.is_empty() {
            return None;
        }
        let deps: Vec<Dep> = idx.iter().map(|r| f.deps[*r as usize]).collect();
        let own = deps.iter().any(|d| d.thread) && !deps.iter().any(|d| d.memory);
        // Reading a neighbour's element that another thread writes (an in-place stencil)
        // is a race too: every access must be at the one index the thread stores to.
        let mine = canon_all(idx);
        let only_own = loads.iter().all(|x| canon_all(x) == mine)
            && f.stores
                .iter()
                .filter(|(b, _)| b == j)
                .all(|(_, x)| canon_all(x) == mine);
        (!(own && only_own))
            .then(|| format!("threads may update one element of argument {j} together"))
    })
}

fn copies(ss: &[Stmt], defs: &[u32], copy_of: &mut [Option<Reg>]) {
    each_inst(ss, &mut |i| {
        if let (Some(d), Op::Copy(src)) = (i.dst, &i.op) {
            if defs.get(d as usize) == Some(&1) {
                copy_of[d as usize] = Some(*src);
            }
        }
    });
}

fn count_defs(ss: &[Stmt], defs: &mut [u32]) {
    each_inst(ss, &mut |i| {
        if let Some(d) = i.dst.and_then(|d| defs.get_mut(d as usize)) {
            *d += 1;
        }
    });
}

fn has_atomic(ss: &[Stmt]) -> bool {
    ss.iter().any(|s| match s {
        Stmt::Inst(i) => matches!(i.op, Op::Atomic(..)),
        Stmt::If(_, t, e) => has_atomic(t) || has_atomic(e),
        Stmt::Loop { body, latch, .. } => has_atomic(body) || has_atomic(latch),
        _ => false,
    })
}

/// Whether a span of `k`'s blocks that native code saw fault can be run again by the
/// interpreter to name the fault it names (`mod.rs`'s `run`): no parameter array is both
/// read and written (atomics and draws do both), and each written one shares no memory
/// with another argument. Its threads then read only what no thread writes, so a second
/// run sees the first run's inputs and takes the same steps. Shared and local arrays are
/// the block's own scratch, fresh for the second run.
pub(crate) fn rerunnable(k: &Kernel, alone: impl Fn(usize) -> bool) -> bool {
    let (mut read, mut written) = (Vec::new(), Vec::new());
    each_inst(&k.body, &mut |i| match &i.op {
        Op::Load(ArrRef::Param(a), _) => read.push(*a),
        Op::Store(ArrRef::Param(a), ..) => written.push(*a),
        Op::Atomic(_, ArrRef::Param(a), ..) | Op::Rng(_, ArrRef::Param(a), _) => {
            read.push(*a);
            written.push(*a);
        }
        _ => {}
    });
    written
        .iter()
        .all(|w| !read.contains(w) && alone(*w as usize))
}
