//! Private copies of atomically updated arrays (histogram bins). When every access of an
//! integer array parameter is an atomic add/sub, and/or/xor or max/min (one family, the
//! old value unused), the final bits depend only on the multiset of operands, never on
//! their order: wrapping add and the bitwise and ordering operations are associative and
//! commutative. Each worker then updates its own copy, started at the operation's
//! identity, with plain load-op-store instead of a locked instruction, and the launch
//! folds every copy into the real array with the same operation when it ends, faulted or
//! interrupted too, so memory ends exactly as the interpreter leaves it.
//!
//! Whether a launch privatises is decided per worker at run time (`Ctx::private`): an
//! array too large to copy, one sharing memory with another argument, or a copy that
//! cannot be allocated keeps the native atomics on the real array, which mix freely
//! with other workers' copies for the same reason.

use std::sync::Mutex;
use std::thread::ThreadId;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{AtomicRmwOp, InstBuilder, Type, Value};
use cranelift_module::Module;

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::DType;
use crate::kernel::exec::mem::RawMem;
use crate::kernel::exec::ArrDesc;
use crate::kernel::ir::{ArrRef, AtomicOp, Kernel, Op, Reg, Stmt};
use crate::kernel::jit::helpers::JArr;
use crate::kernel::jit::lower::{flags, Lower};
use crate::kernel::types::Ty;

/// Bytes of one worker's copy at most: larger arrays keep native atomics (copies cost
/// memory, and folding them back costs time, per worker).
const MAX_BYTES: usize = 64 * 1024;

/// How a parameter's copies fold into the real array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Atomic add and sub (a copy holds the sum of the adds less the subs).
    Add,
    And,
    Or,
    Xor,
    Max,
    Min,
}

impl Fold {
    fn of(op: AtomicOp) -> Option<Fold> {
        Some(match op {
            AtomicOp::Add | AtomicOp::Sub => Fold::Add,
            AtomicOp::And => Fold::And,
            AtomicOp::Or => Fold::Or,
            AtomicOp::Xor => Fold::Xor,
            AtomicOp::Max => Fold::Max,
            AtomicOp::Min => Fold::Min,
            _ => return None,
        })
    }

    /// The element bits a copy starts with: `fold(x, identity) == x` for every `x`.
    fn identity(self, dt: DType) -> u64 {
        let signed = dt.is_signed();
        let wide = dt.itemsize() == 8;
        match (self, signed, wide) {
            (Fold::Add | Fold::Or | Fold::Xor, _, _) | (Fold::Max, false, _) => 0,
            (Fold::And, _, _) | (Fold::Min, false, _) => u64::MAX,
            (Fold::Max, true, true) => i64::MIN as u64,
            (Fold::Max, true, false) => i32::MIN as i64 as u64,
            (Fold::Min, true, true) => i64::MAX as u64,
            (Fold::Min, true, false) => i32::MAX as u64,
        }
    }

    /// `a fold b` on canonical register bits of `dt` (wrapping, as the atomics are).
    fn apply(self, dt: DType, a: u64, b: u64) -> u64 {
        let wrapped = match self {
            Fold::Add => a.wrapping_add(b),
            Fold::And => a & b,
            Fold::Or => a | b,
            Fold::Xor => a ^ b,
            // Canonical bits are sign- or zero-extended, so 64-bit order is the dtype's.
            Fold::Max if dt.is_signed() => (a as i64).max(b as i64) as u64,
            Fold::Max => a.max(b),
            Fold::Min if dt.is_signed() => (a as i64).min(b as i64) as u64,
            Fold::Min => a.min(b),
        };
        match dt {
            DType::I32 => wrapped as i32 as i64 as u64,
            DType::U32 => wrapped as u32 as u64,
            _ => wrapped,
        }
    }
}

/// Integer dtypes whose atomics are native read-modify-writes (`access.rs`).
fn native(dt: DType) -> bool {
    matches!(dt, DType::I32 | DType::U32 | DType::I64 | DType::U64)
}

/// The array parameters (index, fold) whose every access is an atomic of one family
/// whose old value no instruction reads, of a native integer dtype, at most 64 of them.
pub fn plan(k: &Kernel) -> Vec<(usize, Fold)> {
    /// Per parameter: None before any access, Some(None) once disqualified.
    type Seen = Vec<Option<Option<Fold>>>;
    fn walk(ss: &[Stmt], seen: &mut Seen, olds: &mut Vec<(usize, Reg)>, read: &mut Vec<Reg>) {
        for s in ss {
            match s {
                Stmt::Inst(i) => {
                    i.op.reads(|r| read.push(r));
                    let (a, fold) = match &i.op {
                        Op::Atomic(op, a, _, _) => {
                            if let (ArrRef::Param(p), Some(d)) = (a, i.dst) {
                                olds.push((*p as usize, d));
                            }
                            (a, Fold::of(*op))
                        }
                        Op::Load(a, _) | Op::Store(a, _, _) | Op::Rng(_, a, _) => (a, None),
                        _ => continue,
                    };
                    let ArrRef::Param(p) = a else { continue };
                    let Some(e) = seen.get_mut(*p as usize) else {
                        continue;
                    };
                    *e = match (*e, fold) {
                        (None, f) => Some(f),
                        (Some(Some(g)), Some(f)) if g == f => Some(Some(f)),
                        _ => Some(None),
                    };
                }
                Stmt::If(c, t, e) => {
                    read.push(*c);
                    walk(t, seen, olds, read);
                    walk(e, seen, olds, read);
                }
                Stmt::Loop { body, latch, .. } => {
                    walk(body, seen, olds, read);
                    walk(latch, seen, olds, read);
                }
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Exit => {}
            }
        }
    }
    // bounded: at most 64 entries.
    let mut seen: Seen = vec![None; k.params.len().min(64)];
    let (mut olds, mut read) = (Vec::new(), Vec::new());
    walk(&k.body, &mut seen, &mut olds, &mut read);
    seen.iter()
        .enumerate()
        .filter_map(|(p, s)| {
            let fold = (*s)??;
            let Ty::Array { dtype, .. } = k.params[p] else {
                return None;
            };
            let used = olds.iter().any(|&(q, d)| q == p && read.contains(&d));
            (native(dtype) && !used).then_some((p, fold))
        })
        .collect()
}

impl<M: Module> Lower<'_, '_, M> {
    /// The read-modify-write `rmw` of `v` at `addr` (array `a`), giving the old value: a
    /// native atomic, or for a parameter [`plan`] takes, a plain load-op-store while the
    /// worker runs with a private copy of it (`Ctx::private`).
    pub(super) fn rmw(
        &mut self,
        a: ArrRef,
        rmw: AtomicRmwOp,
        ty: Type,
        addr: Value,
        v: Value,
    ) -> Value {
        // `Lower` read the mask at entry exactly when `plan` takes some parameter.
        let (p, mask) = match (a, self.private) {
            (ArrRef::Param(p), Some(mask))
                if plan(self.k).iter().any(|&(q, _)| q == p as usize) =>
            {
                (p, mask)
            }
            _ => return self.b.ins().atomic_rmw(ty, flags(), rmw, addr, v),
        };
        let bit = self.b.ins().band_imm_s(mask, 1i64 << p);
        let (plain, shared, cont) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(bit, plain, &[], shared, &[]);
        self.b.switch_to_block(plain);
        let old = self.b.ins().load(ty, flags(), addr, 0);
        let new = self.plain_op(rmw, old, v);
        self.b.ins().store(flags(), new, addr, 0);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(shared);
        // Its result unused, the native atomic needs no old value in a register (x86: a
        // locked add rather than xadd), and no value is merged across the branches.
        self.b.ins().atomic_rmw(ty, flags(), rmw, addr, v);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
        // `plan` took the array because no instruction reads this old value.
        self.b.ins().iconst(ty, 0)
    }

    fn plain_op(&mut self, rmw: AtomicRmwOp, x: Value, y: Value) -> Value {
        let pick = |cc: IntCC| Some(cc);
        let cmp = match rmw {
            AtomicRmwOp::Smax => pick(IntCC::SignedGreaterThan),
            AtomicRmwOp::Umax => pick(IntCC::UnsignedGreaterThan),
            AtomicRmwOp::Smin => pick(IntCC::SignedLessThan),
            AtomicRmwOp::Umin => pick(IntCC::UnsignedLessThan),
            _ => None,
        };
        if let Some(cc) = cmp {
            let keep = self.b.ins().icmp(cc, x, y);
            return self.b.ins().select(keep, x, y);
        }
        match rmw {
            AtomicRmwOp::Sub => self.b.ins().isub(x, y),
            AtomicRmwOp::And => self.b.ins().band(x, y),
            AtomicRmwOp::Or => self.b.ins().bor(x, y),
            AtomicRmwOp::Xor => self.b.ins().bxor(x, y),
            // `plan` admits only the families above and add.
            _ => self.b.ins().iadd(x, y),
        }
    }
}

/// One parameter's copies in a launch.
struct Slot {
    param: usize,
    fold: Fold,
    dtype: DType,
    shape: Vec<usize>,
}

/// A launch's private copies: which parameters get them, and each worker thread's.
pub(crate) struct Privates {
    slots: Vec<Slot>,
    /// Per worker thread, one copy per slot (a thread runs one chunk at a time, so its
    /// copies are never updated by two calls at once).
    copies: Mutex<Vec<(ThreadId, Vec<Buffer>)>>,
}

impl Privates {
    /// The copies `k`'s launch over `threads` threads gets for arrays `descs`: none for an
    /// array larger than [`MAX_BYTES`] or than the launch has threads (folding back would
    /// cost more than the atomics it saves), of more than 3 axes, or sharing memory with
    /// another array argument (whose reads must see the atomics).
    pub(crate) fn new(k: &Kernel, descs: &[ArrDesc], threads: usize) -> Privates {
        let mut slots = Vec::new();
        for (param, fold) in plan(k) {
            let d = &descs[param];
            if d.ndim > 3 || d.dtype.itemsize() == 0 {
                continue;
            }
            let shape: Vec<usize> = d.shape[..d.ndim].iter().map(|&n| n as usize).collect();
            let n: usize = shape.iter().product();
            let alone = super::alone(descs, param);
            if n == 0 || n > threads || n * d.dtype.itemsize() > MAX_BYTES || !alone {
                continue;
            }
            slots.push(Slot {
                param,
                fold,
                dtype: d.dtype,
                shape,
            });
        }
        Privates {
            slots,
            copies: Mutex::new(Vec::new()),
        }
    }

    /// Point `arrs` at the calling thread's copies (made on its first call) and return
    /// the `Ctx::private` mask for them: 0 when there are none or they cannot be made.
    pub(crate) fn attach(&self, arrs: &mut [JArr]) -> u64 {
        if self.slots.is_empty() {
            return 0;
        }
        let me = std::thread::current().id();
        let mut copies = self.copies.lock().unwrap_or_else(|e| e.into_inner());
        let at = match copies.iter().position(|(t, _)| *t == me) {
            Some(at) => at,
            None => {
                let Some(bufs) = self.slots.iter().map(fresh).collect::<Option<Vec<_>>>() else {
                    return 0;
                };
                copies.push((me, bufs));
                copies.len() - 1
            }
        };
        let mut mask = 0;
        for (s, buf) in self.slots.iter().zip(&copies[at].1) {
            let isz = s.dtype.itemsize();
            let st = crate::arrays::NdArray::c_strides(&s.shape, isz);
            let a = &mut arrs[s.param];
            a.base = buf.as_ptr();
            a.offset = 0;
            for (ax, &x) in st.iter().enumerate() {
                a.strides[ax] = x as i64;
            }
            mask |= 1u64 << s.param;
        }
        mask
    }

    /// Fold every worker's copies into the real arrays `descs` (with the atomics' own
    /// operation, so the result is the interpreter's whatever ran where).
    pub(crate) fn fold(self, descs: &[ArrDesc]) {
        let copies = self.copies.into_inner().unwrap_or_else(|e| e.into_inner());
        for (_, bufs) in &copies {
            for (s, buf) in self.slots.iter().zip(bufs) {
                let d = &descs[s.param];
                // SAFETY: the buffer is alive for this loop and written by no one now.
                let src = unsafe { RawMem::new(buf.as_ptr(), buf.len()) };
                let isz = s.dtype.itemsize();
                let mut dims = [1usize; 3];
                dims[..s.shape.len()].copy_from_slice(&s.shape);
                let mut k = 0isize;
                for i in 0..dims[0] {
                    for j in 0..dims[1] {
                        for l in 0..dims[2] {
                            let st = |ax: usize| if ax < d.ndim { d.strides[ax] } else { 0 };
                            let off = d.offset
                                + i as isize * st(0)
                                + j as isize * st(1)
                                + l as isize * st(2);
                            let mine = src.load(k * isz as isize, s.dtype);
                            let real = d.mem.load(off, s.dtype);
                            if let (Some(a), Some(b)) = (real, mine) {
                                // The launch proved every element in range (`in_range`).
                                let _ = d.mem.store(off, s.dtype, s.fold.apply(s.dtype, a, b));
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
    }
}

/// A copy of slot `s` holding its fold's identity; None when it cannot be allocated.
fn fresh(s: &Slot) -> Option<Buffer> {
    let n: usize = s.shape.iter().product();
    let isz = s.dtype.itemsize();
    // bounded: `Privates::new` took only copies of at most MAX_BYTES.
    let buf = Buffer::zeroed(n * isz).ok()?;
    let id = s.fold.identity(s.dtype);
    if id != 0 {
        // SAFETY: the buffer was just made and nothing else sees it yet.
        let mem = unsafe { RawMem::new(buf.as_ptr(), buf.len()) };
        for k in 0..n {
            let _ = mem.store((k * isz) as isize, s.dtype, id);
        }
    }
    Some(buf)
}
