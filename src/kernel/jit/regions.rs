//! Which kernels with barriers the tier takes, and how their bodies split into regions.
//! A barrier kernel runs each block's threads region by region: the code between two
//! barriers is one region, looped over the block's threads before the next region starts,
//! and a loop whose body holds a barrier runs once per block (its body split into regions
//! in turn). That is only the interpreter's meaning when
//!
//! - every barrier is reached by all running threads: barriers stand at the top of the
//!   body or of such loops, never inside an `if`, and those loops are uniform (every
//!   `break` and `continue` that leaves or restarts them depends on no thread index and
//!   no memory, and no thread returns inside them): otherwise the interpreter's
//!   divergent-barrier error (or its deadlock-free run) stays the reference;
//! - no thread of a region reads or writes a shared element another thread of the region
//!   writes: thread after thread would otherwise hide (or change) the race that the
//!   interpreter's instruction-by-instruction lanes show. A region may write a shared
//!   array only at the thread's own element (every access at one index made of thread
//!   indices), as a tree reduction's halving step does (`if tid < s: sm[tid] += sm[tid + s]`:
//!   writers below `s`, readers of `tid + s` at or above it), or at one place outside any
//!   loop (`if tid == 0: sm[0] = 0`, one atomic). The proofs that need a one-dimensional
//!   block say so in [`Plan::flat`]; launches of other blocks stay interpreted.
//!
//! Registers used in more than one region (or in a region inside a barrier loop, which
//! runs again) and read by some region before it writes them live in per-thread slots
//! between regions; the others stay variables. So do those every thread holds alike,
//! where no thread returns, and a region that computes nothing else (a barrier loop's
//! `t += 1`) runs once per block ([`Plan::runs_once`]).

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::ir::{each_inst, walk, ArrRef, BarrierKind, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::jit::clamp;

/// How a barrier kernel runs.
pub(crate) struct Plan {
    /// Per register: its word in a thread's slots (word 0 is the thread's exit flag).
    pub slot: Vec<Option<u32>>,
    /// Words per thread.
    pub words: usize,
    /// Bit `a` set: the block's extent along axis `a` must be 1 for the race proofs.
    pub flat: u8,
    /// Per register: whether its value passes from one region to another, in a slot or,
    /// the same for every thread, in a variable of the block's code.
    pub carried: Vec<bool>,
    /// The regions (by their first statement) that run once per block instead of once
    /// per thread: see [`Plan::runs_once`].
    once: Vec<*const Stmt>,
}

impl Plan {
    /// Whether region `r` runs once per block. Its code computes only values that are the
    /// same for every thread (a barrier loop's `t += 1`), from values that are too, and
    /// nothing in it can fail or touch memory, so one run leaves what each thread's run
    /// would: the block's threads then skip a loop that would load, add and store one
    /// slot word each.
    pub(crate) fn runs_once(&self, r: &[Stmt]) -> bool {
        r.first()
            .is_some_and(|s| self.once.contains(&(s as *const Stmt)))
    }

    /// How many regions run once per block.
    pub(crate) fn once_count(&self) -> usize {
        self.once.len()
    }
}

/// What a register's value may differ by between the running threads of a block.
#[derive(Clone, Copy, Default, PartialEq)]
struct Var {
    thread: bool,
    memory: bool,
}

impl Var {
    fn or(self, o: Var) -> Var {
        Var {
            thread: self.thread || o.thread,
            memory: self.memory || o.memory,
        }
    }
    fn uniform(self) -> bool {
        !self.thread && !self.memory
    }
}

pub(crate) fn has_barrier(ss: &[Stmt]) -> bool {
    ss.iter().any(|s| match s {
        Stmt::Inst(i) => matches!(i.op, Op::Barrier(..)),
        Stmt::If(_, t, e) => has_barrier(t) || has_barrier(e),
        Stmt::Loop { body, latch, .. } => has_barrier(body) || has_barrier(latch),
        _ => false,
    })
}

/// A kernel whose blocks run region by region: it has barriers or shared memory.
pub(crate) fn blockwise(k: &Kernel) -> bool {
    k.uses_block || !k.shared.is_empty() || has_barrier(&k.body)
}

/// The regions of a statement list, in order: runs of statements without barriers, and
/// barrier loops (whose bodies and latches hold further regions).
pub(crate) enum Part<'a> {
    Region(&'a [Stmt]),
    Loop(u32, &'a [Stmt], &'a [Stmt]),
}

pub(crate) fn parts(ss: &[Stmt]) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, s) in ss.iter().enumerate() {
        let cut = match s {
            Stmt::Inst(i) => matches!(i.op, Op::Barrier(..)),
            Stmt::Loop { body, latch, .. } => has_barrier(body) || has_barrier(latch),
            _ => false,
        };
        if !cut {
            continue;
        }
        if start < at {
            out.push(Part::Region(&ss[start..at]));
        }
        if let Stmt::Loop { id, body, latch } = s {
            out.push(Part::Loop(*id, body, latch));
        }
        start = at + 1;
    }
    if start < ss.len() {
        out.push(Part::Region(&ss[start..]));
    }
    out
}

/// The plan of a barrier kernel, or why it stays interpreted.
pub(crate) fn plan(k: &Kernel) -> Result<Plan, String> {
    if !k.local.is_empty() {
        return Err("local arrays in a kernel with barriers".into());
    }
    let a = Analysis::new(k);
    let mut regions = Vec::new();
    a.structure(&k.body, &[], &mut regions)?;
    // Registers seen per region; a barrier loop's regions run again, so what they use
    // must survive the regions between. Only a register some region may read before
    // writing it carries a value between regions: the others (a region's temporaries,
    // a loop counter it starts) would only cost a load and a store per thread, and their
    // values would live through the whole region.
    //
    // A register every thread holds alike needs no slot either, where every thread runs
    // every region (no thread returns) so that the variable after a region's thread loop
    // holds the last thread's value, which is each thread's: unless a region looped over
    // the threads both reads its value from before and sets it, when the second thread
    // would read the first one's.
    let n = k.regs.len();
    let alike = !clamp::returns(&k.body, &mut Vec::new());
    // bounded: one count per register of a compiled kernel, as the flags below.
    let mut seen = vec![0u32; n];
    // bounded: one flag per register.
    let mut again = vec![false; n];
    // bounded: one flag per register.
    let mut exposed = vec![false; n];
    // Per region: the registers it reads before writing, those it writes, and whether it
    // may run once.
    let mut each = Vec::new();
    for (r, in_loop) in &regions {
        let (used, defined) = touched(r, n);
        for (x, u) in used.iter().enumerate() {
            if *u {
                seen[x] += 1;
                again[x] |= *in_loop;
            }
        }
        // bounded: one flag per register of a compiled kernel.
        let mut def = vec![false; n];
        // bounded: as `def`.
        let mut first = vec![false; n];
        read_first(r, &mut def, &mut first);
        for (e, f) in exposed.iter_mut().zip(&first) {
            *e |= f;
        }
        each.push((first, defined, alike && a.once(r)));
    }
    // A region runs once only where every register it sets is held alike; one that then
    // runs per thread may unshare what it reads and sets, so settle both together (each
    // round turns at least one region per thread, or ends).
    let mut shared;
    loop {
        shared = (0..n)
            .map(|x| alike && a.var[x].uniform())
            .collect::<Vec<bool>>();
        for (first, defined, once) in &each {
            for x in 0..n {
                if first[x] && defined[x] && !once {
                    shared[x] = false;
                }
            }
        }
        let mut settled = true;
        for (_, defined, once) in each.iter_mut() {
            if *once && (0..n).any(|x| defined[x] && !shared[x]) {
                *once = false;
                settled = false;
            }
        }
        if settled {
            break;
        }
    }
    let once = regions
        .iter()
        .zip(&each)
        .filter(|(_, (_, _, once))| *once)
        .map(|((r, _), _)| &r[0] as *const Stmt)
        .collect();
    let mut words = 1usize;
    let carried: Vec<bool> = (0..n)
        .map(|x| exposed[x] && (seen[x] > 1 || (seen[x] == 1 && again[x])))
        .collect();
    let slot = (0..n)
        .map(|x| {
            (carried[x] && !shared[x]).then(|| {
                words += 1;
                (words - 1) as u32
            })
        })
        .collect();
    let mut flat = 0u8;
    for (r, _) in &regions {
        flat |= a.races(k, r)?;
    }
    Ok(Plan {
        slot,
        words,
        flat,
        carried,
        once,
    })
}

/// The registers `ss` reads or writes (an `if`'s condition included), and those it writes.
pub(crate) fn touched(ss: &[Stmt], n: usize) -> (Vec<bool>, Vec<bool>) {
    // bounded: one flag per register of a compiled kernel.
    let (mut used, mut defined) = (vec![false; n], vec![false; n]);
    walk(ss, &mut |s| {
        if let Stmt::If(c, ..) = s {
            used[*c as usize] = true;
        }
    });
    each_inst(ss, &mut |i| {
        i.op.reads(|x| used[x as usize] = true);
        if let Some(d) = i.dst {
            used[d as usize] = true;
            defined[d as usize] = true;
        }
    });
    (used, defined)
}

/// Mark in `out` the registers `ss` may read before writing them, given `def`, those
/// written on every path to it (updated to those written on every path through it). A
/// loop's body and latch are followed once from its entry: a read there that an earlier
/// write of the same pass covers is covered in every iteration, and a `continue` may skip
/// the body's writes, so neither they nor the latch's count after the loop.
fn read_first(ss: &[Stmt], def: &mut [bool], out: &mut [bool]) {
    for s in ss {
        match s {
            Stmt::Inst(i) => {
                i.op.reads(|x| out[x as usize] |= !def[x as usize]);
                if let Some(d) = i.dst {
                    def[d as usize] = true;
                }
            }
            Stmt::If(c, t, e) => {
                out[*c as usize] |= !def[*c as usize];
                let (mut dt, mut de) = (def.to_vec(), def.to_vec());
                read_first(t, &mut dt, out);
                read_first(e, &mut de, out);
                for (d, (a, b)) in def.iter_mut().zip(dt.iter().zip(&de)) {
                    *d = *a && *b;
                }
            }
            Stmt::Loop { body, latch, .. } => {
                let mut db = def.to_vec();
                read_first(body, &mut db, out);
                let mut dl = def.to_vec();
                read_first(latch, &mut dl, out);
            }
            // Nothing after these runs on this path: no read there can see the entry value
            // through them, and the statements after are walked with the same `def`.
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
        }
    }
}

/// One access to a shared array inside a region.
struct Access {
    arr: u32,
    store: bool,
    atomic: bool,
    idx: Vec<Reg>,
    /// Conditions of the enclosing `if`s whose then-branch holds the access.
    guards: Vec<Reg>,
    in_loop: bool,
}

struct Analysis<'k> {
    k: &'k Kernel,
    var: Vec<Var>,
    /// The one instruction defining each register assigned exactly once.
    def: Vec<Option<&'k Op>>,
}

impl<'k> Analysis<'k> {
    fn new(k: &'k Kernel) -> Self {
        let n = k.regs.len();
        // bounded: one entry per register of a compiled kernel.
        let mut count = vec![0u32; n];
        // bounded: as `count`.
        let mut def = vec![None; n];
        each_inst(&k.body, &mut |i| {
            if let Some(d) = i.dst {
                count[d as usize] += 1;
            }
        });
        each_inst(&k.body, &mut |i| {
            if let Some(d) = i.dst.filter(|d| count[*d as usize] == 1) {
                def[d as usize] = Some(&i.op);
            }
        });
        let mut a = Analysis {
            k,
            // bounded: as `count`.
            var: vec![Var::default(); n],
            def,
        };
        // Dependencies only grow, so this ends within a pass per register.
        for _ in 0..n + 2 {
            let mut changed = false;
            a.walk(&k.body, Var::default(), &mut changed);
            if !changed {
                break;
            }
        }
        a
    }

    /// One pass of the dependency fixpoint: a value computed under a condition that
    /// differs between threads, or in a loop that threads leave at different times,
    /// differs too.
    fn walk(&mut self, ss: &[Stmt], ctl: Var, changed: &mut bool) {
        for s in ss {
            match s {
                Stmt::Inst(i) => {
                    let mut d = ctl;
                    i.op.reads(|r| d = d.or(self.var[r as usize]));
                    match &i.op {
                        Op::Special(Special::Tid(_) | Special::GlobalId(_) | Special::LaneId) => {
                            d.thread = true
                        }
                        Op::Load(..) | Op::Atomic(..) | Op::Rng(..) | Op::Barrier(..) => {
                            d.memory = true
                        }
                        _ => {}
                    }
                    if let Some(dst) = i.dst {
                        let cur = self.var[dst as usize];
                        let new = cur.or(d);
                        if new != cur {
                            self.var[dst as usize] = new;
                            *changed = true;
                        }
                    }
                }
                Stmt::If(c, t, e) => {
                    let inner = ctl.or(self.var[*c as usize]);
                    self.walk(t, inner, changed);
                    self.walk(e, inner, changed);
                }
                Stmt::Loop { body, latch, .. } => {
                    let mut lc = ctl;
                    self.jumps(body, Var::default(), &[], &mut lc);
                    self.jumps(latch, Var::default(), &[], &mut lc);
                    self.walk(body, lc, changed);
                    self.walk(latch, lc, changed);
                }
                _ => {}
            }
        }
    }

    /// Join into `out` the conditions under which a `break` or `continue` leaves or
    /// restarts the loop holding `ss` (loops nested in it, `inner`, are their own).
    fn jumps(&self, ss: &[Stmt], under: Var, inner: &[u32], out: &mut Var) {
        for s in ss {
            match s {
                Stmt::Break(id) | Stmt::Continue(id) if !inner.contains(id) => *out = out.or(under),
                Stmt::If(c, t, e) => {
                    let u = under.or(self.var[*c as usize]);
                    self.jumps(t, u, inner, out);
                    self.jumps(e, u, inner, out);
                }
                Stmt::Loop { id, body, latch } => {
                    let mut nested = inner.to_vec();
                    nested.push(*id);
                    self.jumps(body, under, &nested, out);
                    self.jumps(latch, under, &nested, out);
                }
                _ => {}
            }
        }
    }

    /// Whether region `r` may run once per block (see [`Plan::runs_once`]): straight or
    /// branching code of instructions that cannot fail, touch memory or tell threads
    /// apart, every register it reads or sets the same for every thread, and no way out
    /// but a barrier loop's `break` or `continue`.
    fn once(&self, r: &[Stmt]) -> bool {
        let same = |x: Reg| self.var[x as usize].uniform();
        let mut ok = !r.is_empty();
        walk(r, &mut |s| match s {
            Stmt::Inst(i) => {
                let pure = match &i.op {
                    Op::Const(_) | Op::Param(_) | Op::Copy(_) | Op::Cmp(..) | Op::Select(..) => {
                        true
                    }
                    Op::Dim(..) => true,
                    Op::Bin(op, ..) => matches!(
                        op,
                        Arith::Add
                            | Arith::Sub
                            | Arith::Mul
                            | Arith::BitAnd
                            | Arith::BitOr
                            | Arith::BitXor
                    ),
                    Op::Special(sp) => {
                        !matches!(sp, Special::Tid(_) | Special::GlobalId(_) | Special::LaneId)
                    }
                    _ => false,
                };
                let mut all = pure && i.dst.is_none_or(same);
                i.op.reads(|x| all &= same(x));
                ok &= all;
            }
            Stmt::If(c, ..) => ok &= same(*c),
            Stmt::Loop { .. } | Stmt::Exit => ok = false,
            Stmt::Break(_) | Stmt::Continue(_) => {}
        });
        ok
    }

    /// Check where barriers stand and collect the regions (with whether they run inside
    /// a barrier loop). `loops`: the barrier loops around `ss`.
    fn structure<'s>(
        &self,
        ss: &'s [Stmt],
        loops: &[u32],
        regions: &mut Vec<(&'s [Stmt], bool)>,
    ) -> Result<(), String> {
        for s in ss {
            if let Stmt::Inst(i) = s {
                if let Op::Barrier(kind, _) = i.op {
                    if kind != BarrierKind::Plain {
                        return Err("syncthreads_count, _and or _or".into());
                    }
                }
            }
        }
        for p in parts(ss) {
            match p {
                Part::Region(r) => {
                    if has_barrier(r) {
                        return Err("a barrier in divergent control flow".into());
                    }
                    if !loops.is_empty() {
                        self.leaves(r, loops, false, &[])?;
                    }
                    regions.push((r, !loops.is_empty()));
                }
                Part::Loop(id, body, latch) => {
                    let mut inner = loops.to_vec();
                    inner.push(id);
                    self.structure(body, &inner, regions)?;
                    self.structure(latch, &inner, regions)?;
                }
            }
        }
        Ok(())
    }

    /// A region inside barrier loops leaves or restarts them only where every running
    /// thread does, and no thread returns there.
    fn leaves(
        &self,
        ss: &[Stmt],
        loops: &[u32],
        varying: bool,
        inner: &[u32],
    ) -> Result<(), String> {
        let divergent = || Err("a barrier in a loop threads leave at different times".into());
        for s in ss {
            match s {
                Stmt::Break(id) | Stmt::Continue(id) => {
                    if inner.contains(id) {
                        continue;
                    }
                    if !loops.contains(id) || varying || !inner.is_empty() {
                        return divergent();
                    }
                }
                Stmt::Exit => return Err("return inside a loop with barriers".into()),
                Stmt::If(c, t, e) => {
                    let v = varying || !self.var[*c as usize].uniform();
                    self.leaves(t, loops, v, inner)?;
                    self.leaves(e, loops, v, inner)?;
                }
                Stmt::Loop { id, body, latch } => {
                    let mut nested = inner.to_vec();
                    nested.push(*id);
                    self.leaves(body, loops, varying, &nested)?;
                    self.leaves(latch, loops, varying, &nested)?;
                }
                Stmt::Inst(_) => {}
            }
        }
        Ok(())
    }

    /// `r` through copies and widening integer casts.
    fn canon(&self, r: Reg) -> Reg {
        let mut r = r;
        for _ in 0..self.k.regs.len() {
            match self.def[r as usize] {
                Some(Op::Copy(src)) => r = *src,
                Some(Op::Cast(src))
                    if widening(self.k.regs[*src as usize], self.k.regs[r as usize]) =>
                {
                    r = *src
                }
                _ => break,
            }
        }
        r
    }

    /// The axis of a thread index (`threadIdx` or `cuda.grid` along it), if `r` is one.
    fn thread_axis(&self, r: Reg) -> Option<u8> {
        match self.def[self.canon(r) as usize]? {
            Op::Special(Special::Tid(a) | Special::GlobalId(a)) => Some((*a).min(2)),
            _ => None,
        }
    }

    fn is_tid_x(&self, r: Reg) -> bool {
        matches!(
            self.def[self.canon(r) as usize],
            Some(Op::Special(Special::Tid(0)))
        )
    }

    /// Whether a region's threads can race on shared memory (an error) and, if not,
    /// which block axes the proof needs to be 1.
    fn races(&self, k: &Kernel, r: &[Stmt]) -> Result<u8, String> {
        let mut acc = Vec::new();
        collect(r, &mut Vec::new(), false, &mut acc);
        let mut defined = vec![false; k.regs.len()];
        each_inst(r, &mut |i| {
            if let Some(d) = i.dst {
                defined[d as usize] = true;
            }
        });
        let mut flat = 0u8;
        for j in 0..k.shared.len() as u32 {
            let mine: Vec<&Access> = acc.iter().filter(|a| a.arr == j).collect();
            if !mine.iter().any(|a| a.store || a.atomic) {
                continue;
            }
            if let [one] = mine.as_slice() {
                if !one.in_loop {
                    continue;
                }
            }
            if mine.iter().any(|a| a.atomic) {
                return Err(format!("threads may race on shared array {j}"));
            }
            if let Some(f) = self.own(&mine) {
                flat |= f;
                continue;
            }
            if self.halving(&mine, &defined) {
                flat |= 0b110;
                continue;
            }
            return Err(format!("threads may race on shared array {j}"));
        }
        Ok(flat)
    }

    /// Every access at one index made of thread indices: the axes it leaves out must be 1.
    fn own(&self, acc: &[&Access]) -> Option<u8> {
        let idx: Vec<Reg> = acc[0].idx.iter().map(|r| self.canon(*r)).collect();
        let same = acc
            .iter()
            .all(|a| a.idx.iter().map(|r| self.canon(*r)).eq(idx.iter().copied()));
        if !same {
            return None;
        }
        let mut covered = 0u8;
        for r in &idx {
            covered |= 1 << self.thread_axis(*r)?;
        }
        Some(!covered & 0b111)
    }

    /// The halving step of a tree reduction: stores at `[tid]` under `tid < u`, loads at
    /// `[tid]`, `[tid + u]` or `[k]` under `tid == k`, with `u` uniform and unchanged in
    /// the region: writers lie below `u`, and a thread reads another's element only at or
    /// above it.
    fn halving(&self, acc: &[&Access], defined: &[bool]) -> bool {
        // The value `u` stands for, equal for every thread and the same at the guard and
        // at the access: a copy made before the region may hold an older value unless
        // what it copies is assigned once.
        let base = |r: Reg| -> Option<Reg> {
            let (mut r, mut fresh) = (r, true);
            if !self.var[r as usize].uniform() {
                return None;
            }
            for _ in 0..self.k.regs.len() {
                let next = match self.def[r as usize] {
                    Some(Op::Copy(src)) => *src,
                    Some(Op::Cast(src))
                        if widening(self.k.regs[*src as usize], self.k.regs[r as usize]) =>
                    {
                        *src
                    }
                    _ => break,
                };
                fresh &= defined[r as usize];
                r = next;
            }
            let stable = self.def[r as usize].is_some() || (!defined[r as usize] && fresh);
            (stable && self.var[r as usize].uniform()).then_some(r)
        };
        let guard_u = |g: Reg| -> Vec<Reg> {
            let mut out = Vec::new();
            let mut stack = vec![g];
            while let Some(c) = stack.pop() {
                match self.def[self.canon(c) as usize] {
                    Some(Op::Bin(Arith::BitAnd, x, y)) => stack.extend([*x, *y]),
                    Some(Op::Cmp(Cmp::Lt, x, y)) if self.is_tid_x(*x) => {
                        out.extend(base(*y));
                    }
                    _ => {}
                }
            }
            out
        };
        let mut u = None;
        for a in acc {
            let [ix] = a.idx.as_slice() else {
                return false;
            };
            if a.store {
                if !self.is_tid_x(*ix) {
                    return false;
                }
                let us: Vec<Reg> = a.guards.iter().flat_map(|g| guard_u(*g)).collect();
                let Some(&first) = us.first() else {
                    return false;
                };
                if u.is_some_and(|x| !us.contains(&x)) {
                    return false;
                }
                u.get_or_insert(first);
            }
        }
        let Some(u) = u else { return false };
        // A load at `[k]` under `tid == k` reads the thread's own element too.
        let pinned = |a: &Access| {
            let ix = self.canon(a.idx[0]);
            let mut stack = a.guards.clone();
            while let Some(c) = stack.pop() {
                match self.def[self.canon(c) as usize] {
                    Some(Op::Bin(Arith::BitAnd, x, y)) => stack.extend([*x, *y]),
                    Some(Op::Cmp(Cmp::Eq, x, y))
                        if (self.is_tid_x(*x) && self.canon(*y) == ix)
                            || (self.is_tid_x(*y) && self.canon(*x) == ix) =>
                    {
                        return true;
                    }
                    _ => {}
                }
            }
            false
        };
        acc.iter().filter(|a| !a.store).all(|a| {
            let ix = a.idx[0];
            if self.is_tid_x(ix) || pinned(a) {
                return true;
            }
            match self.def[self.canon(ix) as usize] {
                Some(Op::Bin(Arith::Add, x, y)) => {
                    (self.is_tid_x(*x) && base(*y) == Some(u))
                        || (self.is_tid_x(*y) && base(*x) == Some(u))
                }
                _ => false,
            }
        })
    }
}

/// Whether a cast from `from` to `to` keeps every value of `from` (integers only).
fn widening(from: DType, to: DType) -> bool {
    from.is_integer()
        && to.is_integer()
        && (to.itemsize() > from.itemsize()
            || (to.itemsize() == from.itemsize() && to.is_signed() == from.is_signed()))
        && (to.is_signed() || !from.is_signed())
}

fn collect(ss: &[Stmt], guards: &mut Vec<Reg>, in_loop: bool, out: &mut Vec<Access>) {
    for s in ss {
        match s {
            Stmt::Inst(i) => {
                let (a, idx, store, atomic) = match &i.op {
                    Op::Load(a, idx) => (a, idx, false, false),
                    Op::Store(a, idx, _) => (a, idx, true, false),
                    Op::Atomic(_, a, idx, _) => (a, idx, false, true),
                    _ => continue,
                };
                if let ArrRef::Shared(j) = a {
                    out.push(Access {
                        arr: *j,
                        store,
                        atomic,
                        idx: idx.clone(),
                        guards: guards.clone(),
                        in_loop,
                    });
                }
            }
            Stmt::If(c, t, e) => {
                guards.push(*c);
                collect(t, guards, in_loop, out);
                guards.pop();
                collect(e, guards, in_loop, out);
            }
            Stmt::Loop { body, latch, .. } => {
                collect(body, guards, true, out);
                collect(latch, guards, true, out);
            }
            _ => {}
        }
    }
}
