//! The executor's instructions: arithmetic, special registers, loads and stores (with a
//! contiguous fast path), atomics, barriers, print and RNG draws, each over a block's
//! active lanes.

use std::sync::atomic::Ordering;

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::abi::KernelFault;
use crate::kernel::exec::scalar_ops::*;
use crate::kernel::exec::tags::Tag;
use crate::kernel::exec::{fault, ArrDesc, Block, Prepared};
use crate::kernel::ir::{AtomicOp, BarrierKind, Inst, MathFn, Op, PrintArg, RngKind, Special};

macro_rules! lanes {
    ($act:expr, $n:expr, |$l:ident| $body:expr) => {
        if $act.len() == $n {
            for $l in 0..$n {
                $body;
            }
        } else {
            for &l32 in $act.iter() {
                let $l = l32 as usize;
                $body;
            }
        }
    };
}

/// `d[l] = f(a[l])` over the active lanes; the full-block case is a zip the compiler can
/// vectorise (no per-lane bounds checks).
#[inline(always)]
fn map1(d: &mut [u64], a: &[u64], act: &[u32], n: usize, f: impl Fn(u64) -> u64) {
    if act.len() == n {
        for (o, x) in d[..n].iter_mut().zip(&a[..n]) {
            *o = f(*x);
        }
    } else {
        for &l in act {
            d[l as usize] = f(a[l as usize]);
        }
    }
}

/// `d[l] = f(a[l], b[l])` over the active lanes (see [`map1`]).
#[inline(always)]
fn map2(d: &mut [u64], a: &[u64], b: &[u64], act: &[u32], n: usize, f: impl Fn(u64, u64) -> u64) {
    if act.len() == n {
        for ((o, x), y) in d[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
            *o = f(*x, *y);
        }
    } else {
        for &l in act {
            let l = l as usize;
            d[l] = f(a[l], b[l]);
        }
    }
}

impl Block {
    /// Run `i` over the active lanes, reading every operand's lane data (the caller has
    /// materialised lazily tagged operands; see [`crate::kernel::exec::tags`]).
    pub(crate) fn inst_lanes(
        &mut self,
        p: &Prepared,
        i: &Inst,
        act: &[u32],
    ) -> Result<(), KernelFault> {
        #[cfg(target_arch = "x86_64")]
        if crate::kernel::exec::mem::has_avx2() {
            // SAFETY: the CPU supports AVX2 and FMA (checked at run time just above).
            return unsafe { self.inst_lanes_avx2(p, i, act) };
        }
        self.inst_lanes_generic(p, i, act)
    }

    /// [`Block::inst_lanes`] compiled for AVX2, so its lane loops use 256-bit vectors.
    ///
    /// # Safety
    /// The CPU must support AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn inst_lanes_avx2(
        &mut self,
        p: &Prepared,
        i: &Inst,
        act: &[u32],
    ) -> Result<(), KernelFault> {
        self.inst_lanes_generic(p, i, act)
    }

    #[inline(always)]
    fn inst_lanes_generic(
        &mut self,
        p: &Prepared,
        i: &Inst,
        act: &[u32],
    ) -> Result<(), KernelFault> {
        let n = self.n;
        let Some(dst) = i.dst else {
            return self.effect(p, i, act);
        };
        let du = dst as usize;
        let dt = p.k.regs[du];
        let mut d = std::mem::take(&mut self.regs[du]);
        macro_rules! reg {
            ($r:expr) => {{
                let r = $r as usize;
                if r == du {
                    std::borrow::Cow::Owned(d.clone())
                } else {
                    std::borrow::Cow::Borrowed(&self.regs[r][..])
                }
            }};
        }
        let mut result = Ok(());
        match &i.op {
            Op::Const(s) => {
                let v = scalar_bits(s);
                lanes!(act, n, |l| d[l] = v);
            }
            Op::Param(k) => {
                let v = p.scalars[*k as usize];
                lanes!(act, n, |l| d[l] = v);
            }
            Op::Copy(r) => {
                let a = reg!(*r);
                map1(&mut d, &a, act, n, |x| x);
            }
            Op::Cast(r) => {
                let from = p.k.regs[*r as usize];
                let a = reg!(*r);
                // The casts Numba's typing inserts around float arithmetic get loops of
                // their own; the general one matches on both types for every lane.
                match (from, dt) {
                    (DType::F32, DType::F64) => map1(&mut d, &a, act, n, |x| bf64(f32b(x) as f64)),
                    (DType::F64, DType::F32) => map1(&mut d, &a, act, n, |x| bf32(f64b(x) as f32)),
                    (DType::I64, DType::F64) => map1(&mut d, &a, act, n, |x| bf64(x as i64 as f64)),
                    (DType::I64, DType::F32) => map1(&mut d, &a, act, n, |x| bf32(x as i64 as f32)),
                    (DType::I32, DType::F64) => map1(&mut d, &a, act, n, |x| bf64(x as i64 as f64)),
                    (DType::I32, DType::I64) => map1(&mut d, &a, act, n, |x| x),
                    _ => map1(&mut d, &a, act, n, |x| cast(x, from, dt)),
                }
            }
            Op::Bin(op, x, y) => {
                let (a, b) = (reg!(*x), reg!(*y));
                match dt {
                    // The common operations get a loop of their own (no per-lane match),
                    // which the compiler can vectorise.
                    DType::F32 => match op {
                        Arith::Add => map2(&mut d, &a, &b, act, n, |x, y| bf32(f32b(x) + f32b(y))),
                        Arith::Sub => map2(&mut d, &a, &b, act, n, |x, y| bf32(f32b(x) - f32b(y))),
                        Arith::Mul => map2(&mut d, &a, &b, act, n, |x, y| bf32(f32b(x) * f32b(y))),
                        Arith::Div => map2(&mut d, &a, &b, act, n, |x, y| bf32(f32b(x) / f32b(y))),
                        Arith::Max => map2(&mut d, &a, &b, act, n, |x, y| {
                            bf32(py_max(f32b(x), f32b(y)))
                        }),
                        Arith::Min => map2(&mut d, &a, &b, act, n, |x, y| {
                            bf32(py_min(f32b(x), f32b(y)))
                        }),
                        _ => lanes!(act, n, |l| d[l] =
                            bf32(bin_f32(*op, f32b(a[l]), f32b(b[l])))),
                    },
                    DType::F64 => match op {
                        Arith::Add => map2(&mut d, &a, &b, act, n, |x, y| bf64(f64b(x) + f64b(y))),
                        Arith::Sub => map2(&mut d, &a, &b, act, n, |x, y| bf64(f64b(x) - f64b(y))),
                        Arith::Mul => map2(&mut d, &a, &b, act, n, |x, y| bf64(f64b(x) * f64b(y))),
                        Arith::Div => map2(&mut d, &a, &b, act, n, |x, y| bf64(f64b(x) / f64b(y))),
                        Arith::Max => map2(&mut d, &a, &b, act, n, |x, y| {
                            bf64(py_max(f64b(x), f64b(y)))
                        }),
                        Arith::Min => map2(&mut d, &a, &b, act, n, |x, y| {
                            bf64(py_min(f64b(x), f64b(y)))
                        }),
                        _ => lanes!(act, n, |l| d[l] =
                            bf64(bin_f64(*op, f64b(a[l]), f64b(b[l])))),
                    },
                    DType::I64 => match op {
                        Arith::Add => map2(&mut d, &a, &b, act, n, |x, y| x.wrapping_add(y)),
                        Arith::Sub => map2(&mut d, &a, &b, act, n, |x, y| x.wrapping_sub(y)),
                        Arith::Mul => map2(&mut d, &a, &b, act, n, |x, y| x.wrapping_mul(y)),
                        _ => map2(&mut d, &a, &b, act, n, |x, y| {
                            bin_i64(*op, x as i64, y as i64) as u64
                        }),
                    },
                    _ => map2(&mut d, &a, &b, act, n, |x, y| bin(*op, dt, x, y)),
                }
            }
            Op::Cmp(c, x, y) => {
                let t = p.k.regs[*x as usize];
                let (a, b) = (reg!(*x), reg!(*y));
                match (t, c) {
                    (DType::I64, Cmp::Lt) => map2(&mut d, &a, &b, act, n, |x, y| {
                        ((x as i64) < (y as i64)) as u64
                    }),
                    (DType::I64, Cmp::Ge) => map2(&mut d, &a, &b, act, n, |x, y| {
                        ((x as i64) >= (y as i64)) as u64
                    }),
                    _ => map2(&mut d, &a, &b, act, n, |x, y| cmp(*c, t, x, y)),
                }
            }
            Op::Un(op, x) => {
                let a = reg!(*x);
                map1(&mut d, &a, act, n, |x| un(*op, dt, x));
            }
            Op::Math(f, xs) => {
                let t = p.k.regs[xs[0] as usize];
                let a = reg!(xs[0]);
                let b = if xs.len() > 1 { reg!(xs[1]) } else { a.clone() };
                if f.is_predicate() {
                    lanes!(act, n, |l| d[l] = math(*f, t, a[l], 0));
                } else if t == DType::F32
                    && act.len() == n
                    && matches!(f, MathFn::Sin | MathFn::Cos)
                {
                    crate::kernel::exec::math::sincos_f32_lanes(
                        &mut d[..n],
                        &a[..n],
                        *f == MathFn::Cos,
                    );
                } else if t == DType::F32 {
                    lanes!(act, n, |l| d[l] =
                        bf32(math_f32(*f, f32b(a[l]), f32b(b[l]))));
                } else {
                    lanes!(act, n, |l| d[l] =
                        bf64(math_f64(*f, f64b(a[l]), f64b(b[l]))));
                }
            }
            Op::Select(c, x, y) => {
                let (cc, a, b) = (reg!(*c), reg!(*x), reg!(*y));
                lanes!(act, n, |l| d[l] = if cc[l] != 0 { a[l] } else { b[l] });
            }
            Op::Special(s) => {
                let g = p.cfg.grid;
                let uniform = |v: u32| v as u64;
                let thr = self.threads;
                match s {
                    Special::Tid(k) => {
                        self.ensure_tids();
                        let t = &self.tids[*k as usize];
                        lanes!(act, n, |l| d[l] = t[l]);
                    }
                    // A 1-D block: the global id is the first block's first id plus the
                    // lane (a wide chunk's grid is 1-D, so its blocks follow on).
                    Special::GlobalId(0) if thr == self.bdim[0] as usize => {
                        let base = self.bidx[0] as u64 * thr as u64;
                        lanes!(act, n, |l| d[l] = base + l as u64);
                    }
                    // Wide chunks have a 1-D grid: blockIdx.x grows with the lane's block.
                    Special::GlobalId(0) if self.wide => {
                        self.ensure_tids();
                        let (t, bd) = (&self.tids[0], self.bdim[0] as u64);
                        let first = self.first;
                        lanes!(act, n, |l| d[l] = t[l] + (first + l / thr) as u64 * bd);
                    }
                    Special::Ctaid(0) if self.wide => {
                        let first = self.first;
                        lanes!(act, n, |l| d[l] = (first + l / thr) as u64);
                    }
                    Special::GlobalId(k) => {
                        self.ensure_tids();
                        let t = &self.tids[*k as usize];
                        let base = self.bidx[*k as usize] as u64 * self.bdim[*k as usize] as u64;
                        lanes!(act, n, |l| d[l] = t[l] + base);
                    }
                    Special::LaneId => lanes!(act, n, |l| d[l] = ((l % thr) % 32) as u64),
                    other => {
                        let v = uniform(match other {
                            Special::Ctaid(k) => self.bidx[*k as usize],
                            Special::Ntid(k) => self.bdim[*k as usize],
                            Special::Nctaid(k) => g[*k as usize],
                            _ => 32,
                        });
                        lanes!(act, n, |l| d[l] = v);
                    }
                }
            }
            Op::Dim(a, ax) => {
                let (desc, _) = self.arr(p, *a);
                let v = desc.shape[*ax as usize] as u64;
                lanes!(act, n, |l| d[l] = v);
            }
            Op::Load(a, idx) => {
                let (desc, per_lane) = self.arr(p, *a);
                let run = if idx.len() == 1 && per_lane == 0 {
                    self.run_for(act, idx[0], &desc)
                } else {
                    None
                };
                let uniform = per_lane == 0
                    && !act.is_empty()
                    && idx
                        .iter()
                        .all(|r| matches!(self.tags[*r as usize], Tag::Uni(_)));
                if let Some((l0, run)) = run {
                    desc.load_run(run, &mut d[l0..l0 + act.len()]);
                } else if uniform {
                    // Every lane reads the same element: check and load it once.
                    match self.offset(p, i, &desc, 0, idx, act[0] as usize) {
                        Ok(off) => match desc.mem.load(off, desc.dtype) {
                            Some(v) => lanes!(act, n, |l| d[l] = v),
                            None => result = Err(outside(self.where_(p, i, act[0] as usize))),
                        },
                        Err(e) => result = Err(e),
                    }
                } else if idx.len() == 1 && per_lane == 0 {
                    // The common 1-D case: one stride, one bound.
                    let ir = &self.regs[idx[0] as usize];
                    let (len, st) = (desc.shape[0], desc.strides[0]);
                    for &l in act {
                        let l = l as usize;
                        let mut ix = ir[l] as i64;
                        if ix < 0 {
                            ix += len;
                        }
                        let off = desc.offset.wrapping_add((ix as isize).wrapping_mul(st));
                        match desc.mem.load(off, desc.dtype) {
                            Some(v) if ix >= 0 && ix < len => d[l] = v,
                            _ => {
                                result = self.offset(p, i, &desc, 0, idx, l).map(|_| ());
                                if result.is_ok() {
                                    result = Err(fault(
                                        "IndexError",
                                        format!("misaligned access {}", self.where_(p, i, l)),
                                    ));
                                }
                                break;
                            }
                        }
                    }
                } else {
                    for &l in act {
                        match self.offset(p, i, &desc, per_lane, idx, l as usize) {
                            Ok(off) => match desc.mem.load(off, desc.dtype) {
                                Some(v) => d[l as usize] = v,
                                None => {
                                    result = Err(outside(self.where_(p, i, l as usize)));
                                    break;
                                }
                            },
                            Err(e) => {
                                result = Err(e);
                                break;
                            }
                        }
                    }
                }
            }
            Op::Atomic(op, a, idx, vals) => {
                let (desc, per_lane) = self.arr(p, *a);
                for &l in act {
                    let l = l as usize;
                    match self.offset(p, i, &desc, per_lane, idx, l) {
                        Ok(off) => {
                            let v0 = self.regs[vals[0] as usize][l];
                            let v1 = vals.get(1).map(|r| self.regs[*r as usize][l]).unwrap_or(0);
                            match atomic(&desc, off, *op, v0, v1) {
                                Some(v) => d[l] = v,
                                None => {
                                    result = Err(outside(self.where_(p, i, l)));
                                    break;
                                }
                            }
                        }
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
            }
            Op::Barrier(kind, pred) => {
                result = self.barrier_check(p, i, act);
                if result.is_ok() {
                    let pr = pred
                        .map(|r| self.regs[r as usize].clone())
                        .unwrap_or_default();
                    let count = act
                        .iter()
                        .filter(|&&l| pr.get(l as usize).copied().unwrap_or(0) != 0)
                        .count();
                    let v = match kind {
                        BarrierKind::Count => count as u64,
                        BarrierKind::And => (count == act.len()) as u64,
                        BarrierKind::Or => (count > 0) as u64,
                        BarrierKind::Plain => 0,
                    };
                    lanes!(act, n, |l| d[l] = v);
                }
            }
            Op::Rng(kind, a, ix) => {
                let (desc, _) = self.arr(p, *a);
                for &l in act {
                    let l = l as usize;
                    let ir = self.regs[*ix as usize][l] as i64;
                    match rng_draw(&desc, *kind, ir, || self.where_(p, i, l)) {
                        Ok(v) => d[l] = v,
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
            }
            other => {
                result = Err(fault(
                    "InternalError",
                    format!("instruction {other:?} has no destination"),
                ));
            }
        }
        self.regs[du] = d;
        result
    }

    pub(crate) fn barrier_check(
        &self,
        p: &Prepared,
        i: &Inst,
        act: &[u32],
    ) -> Result<(), KernelFault> {
        if act.len() != self.n - self.exited {
            let loc = p.k.locs.get(i.loc as usize).cloned().unwrap_or_default();
            return Err(fault(
                "RuntimeError",
                format!(
                    "divergent barrier: cuda.syncthreads() in kernel '{}' (line {}: `{}`) was reached by {} of the {} running threads of block ({}, {}, {}); on a GPU this deadlocks or corrupts data. Every thread of the block must reach the same syncthreads() call.",
                    p.k.name, loc.line, loc.text, act.len(), self.n - self.exited, self.bidx[0], self.bidx[1], self.bidx[2]
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn effect(
        &mut self,
        p: &Prepared,
        i: &Inst,
        act: &[u32],
    ) -> Result<(), KernelFault> {
        match &i.op {
            Op::Store(a, idx, v) => {
                let (desc, per_lane) = self.arr(p, *a);
                let run = if idx.len() == 1 && per_lane == 0 {
                    self.run_for(act, idx[0], &desc)
                } else {
                    None
                };
                if let Some((l0, run)) = run {
                    desc.store_run(run, &self.regs[*v as usize][l0..l0 + act.len()]);
                } else if idx.len() == 1 && per_lane == 0 {
                    let ir = &self.regs[idx[0] as usize];
                    let vr = &self.regs[*v as usize];
                    let (len, st) = (desc.shape[0], desc.strides[0]);
                    for &l in act {
                        let l = l as usize;
                        let mut ix = ir[l] as i64;
                        if ix < 0 {
                            ix += len;
                        }
                        let off = desc.offset.wrapping_add((ix as isize).wrapping_mul(st));
                        if ix < 0 || ix >= len || !desc.mem.store(off, desc.dtype, vr[l]) {
                            self.offset(p, i, &desc, 0, idx, l)?;
                            return Err(fault(
                                "IndexError",
                                format!("misaligned access {}", self.where_(p, i, l)),
                            ));
                        }
                    }
                } else {
                    for &l in act {
                        let off = self.offset(p, i, &desc, per_lane, idx, l as usize)?;
                        if !desc
                            .mem
                            .store(off, desc.dtype, self.regs[*v as usize][l as usize])
                        {
                            return Err(outside(self.where_(p, i, l as usize)));
                        }
                    }
                }
                Ok(())
            }
            Op::CheckIndex(idx, shape) => {
                for &l in act {
                    let l = l as usize;
                    let at = |r: &u32| self.regs[*r as usize][l] as i64;
                    let bad = idx.iter().zip(shape).any(|(ix, n)| {
                        let (ix, n) = (at(ix), at(n));
                        let w = if ix < 0 { ix.wrapping_add(n) } else { ix };
                        w < 0 || w >= n
                    });
                    if bad {
                        let index: Vec<i64> = idx.iter().map(at).collect();
                        let dims: Vec<i64> = shape.iter().map(at).collect();
                        return Err(fault(
                            "IndexError",
                            crate::kernel::abi::out_of_bounds_message(
                                &index,
                                &dims,
                                &self.where_(p, i, l),
                            ),
                        ));
                    }
                }
                Ok(())
            }
            Op::Barrier(_, _) => self.barrier_check(p, i, act),
            Op::Raise { ename, message } if !act.is_empty() => Err(fault(ename, message.clone())),
            Op::Raise { .. } => Ok(()),
            Op::Fence(_) => {
                std::sync::atomic::fence(Ordering::SeqCst);
                Ok(())
            }
            Op::Print(args) => {
                use crate::kernel::printbuf::{format_value, join, piece};
                let pieces: Vec<_> = args.iter().map(|a| piece(a, p.k)).collect();
                for &l in act {
                    let line = join(args.iter().zip(&pieces).map(|(a, pc)| {
                        let text = match a {
                            PrintArg::Str(s) | PrintArg::Open(s) | PrintArg::Close(s) => s.clone(),
                            PrintArg::Reg(r) => format_value(
                                p.k.regs[*r as usize],
                                self.regs[*r as usize][l as usize],
                            ),
                        };
                        (pc, text)
                    }));
                    self.printed.push_str(&line);
                    self.printed.push('\n');
                }
                Ok(())
            }
            other => Err(fault(
                "InternalError",
                format!("instruction {other:?} needs a destination"),
            )),
        }
    }
}

fn outside(at: String) -> KernelFault {
    fault(
        "IndexError",
        format!("access outside the array's memory {at}"),
    )
}

/// One xoroshiro128p draw from `states[ir]` (a uint64 array of shape (n, 2)), which
/// advances that state in place. `site` words where the draw happened, for its fault.
/// The interpreter and the JIT both draw through this, so their streams are the same.
pub(crate) fn rng_draw(
    desc: &ArrDesc,
    kind: RngKind,
    ir: i64,
    site: impl Fn() -> String,
) -> Result<u64, KernelFault> {
    if ir < 0 || ir >= desc.shape[0] || desc.ndim != 2 || desc.shape[1] < 2 {
        return Err(fault(
            "IndexError",
            format!(
                "random state index {ir} is out of bounds for {} states {}",
                desc.shape[0],
                site()
            ),
        ));
    }
    let o0 = desc.offset + ir as isize * desc.strides[0];
    let o1 = o0 + desc.strides[1];
    let (Some(s0), Some(s1)) = (desc.mem.load(o0, DType::U64), desc.mem.load(o1, DType::U64))
    else {
        return Err(fault(
            "IndexError",
            format!("random state outside memory {}", site()),
        ));
    };
    let mut st = [s0, s1];
    let v = match kind {
        RngKind::UniformF32 => bf32(crate::kernel::rng::uniform_f32(&mut st)),
        RngKind::UniformF64 => bf64(crate::kernel::rng::uniform_f64(&mut st)),
        RngKind::NormalF32 => bf32(crate::kernel::rng::normal_f32(&mut st)),
        RngKind::NormalF64 => bf64(crate::kernel::rng::normal_f64(&mut st)),
    };
    // Both words were loaded from these offsets just above, so they fit.
    let stored = desc.mem.store(o0, DType::U64, st[0]) && desc.mem.store(o1, DType::U64, st[1]);
    debug_assert!(stored);
    Ok(v)
}

/// An atomic operation on the element at byte `off` of `desc`: the old value, or None
/// when the element does not fit. The interpreter and the JIT's helper share it.
pub(crate) fn atomic(desc: &ArrDesc, off: isize, op: AtomicOp, v: u64, v2: u64) -> Option<u64> {
    let dt = desc.dtype;
    let m = &desc.mem;
    match op {
        AtomicOp::Add | AtomicOp::Sub => m.rmw(off, dt, |old| {
            Some(match (op, dt) {
                (AtomicOp::Add, DType::F32) => bf32(f32b(old) + f32b(v)),
                (AtomicOp::Sub, DType::F32) => bf32(f32b(old) - f32b(v)),
                (AtomicOp::Add, DType::F64) => bf64(f64b(old) + f64b(v)),
                (AtomicOp::Sub, DType::F64) => bf64(f64b(old) - f64b(v)),
                (AtomicOp::Add, _) => old.wrapping_add(v),
                _ => old.wrapping_sub(v),
            })
        }),
        AtomicOp::Max | AtomicOp::Min | AtomicOp::NanMax | AtomicOp::NanMin => {
            m.rmw(off, dt, |old| {
                let is_max = matches!(op, AtomicOp::Max | AtomicOp::NanMax);
                let nan_aware = matches!(op, AtomicOp::NanMax | AtomicOp::NanMin);
                if dt.is_float() {
                    let (a, b) = if dt == DType::F32 {
                        (f32b(old) as f64, f32b(v) as f64)
                    } else {
                        (f64b(old), f64b(v))
                    };
                    if nan_aware {
                        if b.is_nan() {
                            return None;
                        }
                        if a.is_nan() {
                            return Some(v);
                        }
                    } else if a.is_nan() || b.is_nan() {
                        return None;
                    }
                    let take = if is_max { b > a } else { b < a };
                    return if take { Some(v) } else { None };
                }
                let take = if dt.is_signed() {
                    if is_max {
                        (v as i64) > (old as i64)
                    } else {
                        (v as i64) < (old as i64)
                    }
                } else if is_max {
                    v > old
                } else {
                    v < old
                };
                if take {
                    Some(v)
                } else {
                    None
                }
            })
        }
        AtomicOp::And => m.rmw(off, dt, |old| Some(old & v)),
        AtomicOp::Or => m.rmw(off, dt, |old| Some(old | v)),
        AtomicOp::Xor => m.rmw(off, dt, |old| Some(old ^ v)),
        AtomicOp::Exch => m.rmw(off, dt, |_| Some(v)),
        AtomicOp::Inc => m.rmw(off, dt, |old| Some(if old >= v { 0 } else { old + 1 })),
        AtomicOp::Dec => m.rmw(off, dt, |old| {
            Some(if old == 0 || old > v { v } else { old - 1 })
        }),
        AtomicOp::Cas => m.rmw(off, dt, |old| if old == v { Some(v2) } else { None }),
    }
}
