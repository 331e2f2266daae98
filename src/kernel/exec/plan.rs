//! What the CPU executor may assume about a kernel, decided once when the kernel is built:
//! whether its blocks are independent (so several blocks can run as one wide set of
//! lanes), and which array parameters every thread touches only at its own global id (so
//! contiguous runs of them can be copied with plain, vectorisable loads and stores).
//!
//! Both facts are properties of the IR alone; [`crate::kernel::exec::prepare()`] combines
//! the second with the launch (1-D only) and the arguments (no partial aliasing) before
//! relying on it.

use crate::kernel::ir::{ArrRef, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::types::Ty;

#[derive(Clone, Debug, Default)]
pub struct ExecHints {
    /// No barriers, shared memory or print: threads of different blocks never observe
    /// each other except through global memory and atomics, and the order of printed
    /// lines does not depend on how blocks are grouped.
    pub wide: bool,
    /// Per parameter: a 1-D array whose every access is a load or store at index
    /// `cuda.grid(1)` (one register, defined once at the top level of the body before any
    /// access), with no atomics or RNG draws on it. In a 1-D launch distinct threads then
    /// touch distinct elements of it.
    pub gid_exclusive: Vec<bool>,
    /// The body has a loop, so one thread may do any amount of work: a launch of few
    /// threads is not therefore a short one (`@cuda.reduce` folds 5M values in 8192).
    pub loops: bool,
    /// Element-wise kernels: how they run as typed loops over chunks of threads.
    pub stream: Option<std::sync::Arc<crate::kernel::exec::stream_plan::StreamPlan>>,
    /// The kernel's native code, compiled at its first launch (see [`crate::kernel::jit`]).
    pub jit: crate::kernel::jit::JitCache,
}

#[derive(Default, Clone)]
struct RegInfo {
    defs: u32,
    /// The defining op of a single top-level definition, and its position in the walk.
    top_def: Option<(Op, usize)>,
}

/// Where in the walk an access happened, and its index registers.
type Access = (usize, Vec<Reg>);

struct Walk {
    regs: Vec<RegInfo>,
    /// Per parameter: (position of the access in the walk, index registers) of loads and
    /// stores; `None` once the parameter is reached by anything else.
    access: Vec<Option<Vec<Access>>>,
    print: bool,
    pos: usize,
}

impl Walk {
    fn block(&mut self, body: &[Stmt], top: bool) {
        for s in body {
            self.pos += 1;
            match s {
                Stmt::Inst(i) => {
                    if let Some(d) = i.dst {
                        let info = &mut self.regs[d as usize];
                        info.defs += 1;
                        info.top_def = (top && info.defs == 1).then(|| (i.op.clone(), self.pos));
                    }
                    match &i.op {
                        Op::Load(ArrRef::Param(j), idx) | Op::Store(ArrRef::Param(j), idx, _) => {
                            if let Some(Some(list)) = self.access.get_mut(*j as usize) {
                                list.push((self.pos, idx.clone()));
                            }
                        }
                        Op::Atomic(_, ArrRef::Param(j), _, _) | Op::Rng(_, ArrRef::Param(j), _) => {
                            if let Some(a) = self.access.get_mut(*j as usize) {
                                *a = None;
                            }
                        }
                        Op::Print(_) => self.print = true,
                        _ => {}
                    }
                }
                Stmt::If(_, t, e) => {
                    self.block(t, false);
                    self.block(e, false);
                }
                Stmt::Loop { body, latch, .. } => {
                    self.block(body, false);
                    self.block(latch, false);
                }
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
            }
        }
    }

    /// `r` holds the 1-D global id from its definition on, for every thread, and that
    /// definition comes before position `before`.
    fn is_gid(&self, r: Reg, before: usize, depth: u32) -> bool {
        let Some(info) = self.regs.get(r as usize) else {
            return false;
        };
        match (&info.top_def, info.defs) {
            (Some((op, at)), 1) if *at < before && depth < 8 => match op {
                Op::Special(Special::GlobalId(0)) => true,
                Op::Copy(src) => self.is_gid(*src, *at, depth + 1),
                _ => false,
            },
            _ => false,
        }
    }
}

fn has_loop(body: &[Stmt]) -> bool {
    let mut any = false;
    crate::kernel::ir::walk(body, &mut |s| any |= matches!(s, Stmt::Loop { .. }));
    any
}

pub fn analyse(k: &Kernel) -> ExecHints {
    let mut w = Walk {
        regs: vec![RegInfo::default(); k.regs.len()],
        access: k.params.iter().map(|_| Some(Vec::new())).collect(),
        print: false,
        pos: 0,
    };
    w.block(&k.body, true);
    let gid_exclusive: Vec<bool> = k
        .params
        .iter()
        .zip(&w.access)
        .map(|(t, acc)| match (t, acc) {
            (Ty::Array { ndim: 1, .. }, Some(list)) if !list.is_empty() => list
                .iter()
                .all(|(at, idx)| idx.len() == 1 && w.is_gid(idx[0], *at, 0)),
            _ => false,
        })
        .collect();
    let stream = crate::kernel::exec::stream_plan::plan(k, &gid_exclusive).map(std::sync::Arc::new);
    ExecHints {
        wide: !k.uses_block && !w.print,
        gid_exclusive,
        loops: has_loop(&k.body),
        stream,
        jit: Default::default(),
    }
}
