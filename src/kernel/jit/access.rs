//! Array accesses in native code: the interpreter's bounds check (negative indices wrap
//! once, a failure raises its IndexError through `nb_index_fault`), element offsets from
//! strides or, for C-contiguous arrays, from the shape alone, checks already made on the
//! path reused, view checks, and atomics (native read-modify-writes where one instruction
//! gives the interpreter's bits, its helper otherwise).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    AtomicRmwOp, DataFlowGraph, InstBuilder, InstructionData, Opcode, StackSlotData, StackSlotKind,
    Value, ValueDef,
};
use cranelift_frontend::Variable;
use cranelift_module::Module;

use crate::arrays::dtype::DType;
use crate::kernel::ir::{ArrRef, AtomicOp, Inst, Reg};
use crate::kernel::jit::helpers::{code, ATOMIC};
use crate::kernel::jit::lower::{ArrVals, Checked, Lower, Unsupported};
use crate::kernel::jit::ops::{from_bits, to_bits};

/// How deep [`peel`] and [`konst`] look through additions and products: an unrolled
/// loop's counter is a chain of `+ 1` as long as its trip count.
const PEEL_DEPTH: u32 = 64;

/// `v` as a constant, when it is one built from constants by `+` and `*`.
pub(super) fn konst(dfg: &DataFlowGraph, v: Value, depth: u32) -> Option<i64> {
    let ValueDef::Result(inst, _) = dfg.value_def(v) else {
        return None;
    };
    match dfg.insts[inst] {
        InstructionData::UnaryImm {
            opcode: Opcode::Iconst,
            imm,
        } => Some(imm.bits()),
        InstructionData::Binary { opcode, args } if depth > 0 => {
            let (a, b) = (
                konst(dfg, args[0], depth - 1)?,
                konst(dfg, args[1], depth - 1)?,
            );
            match opcode {
                Opcode::Iadd => Some(a.wrapping_add(b)),
                Opcode::Imul => Some(a.wrapping_mul(b)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `v` split into a part that varies (None when nothing does) and the constant added to
/// it, `v = part + c` in wrapping 64-bit arithmetic.
fn peel(dfg: &DataFlowGraph, v: Value, depth: u32) -> (Option<Value>, i64) {
    if let Some(c) = konst(dfg, v, depth) {
        return (None, c);
    }
    if depth > 0 {
        if let ValueDef::Result(inst, _) = dfg.value_def(v) {
            if let InstructionData::Binary {
                opcode: Opcode::Iadd,
                args,
            } = dfg.insts[inst]
            {
                for (a, b) in [(args[0], args[1]), (args[1], args[0])] {
                    if let Some(c) = konst(dfg, b, depth - 1) {
                        let (part, d) = peel(dfg, a, depth - 1);
                        return (part, c.wrapping_add(d));
                    }
                }
            }
        }
    }
    (Some(v), 0)
}

impl<M: Module> Lower<'_, '_, M> {
    /// The element's byte offset from element 0 and its address, after the
    /// interpreter's bounds check (negative indices wrap once; a failure raises its
    /// IndexError through `nb_index_fault`).
    pub(super) fn address(
        &mut self,
        i: &Inst,
        av: &ArrVals,
        idx: &[Reg],
    ) -> Result<(Value, Value), Unsupported> {
        if idx.len() != av.shape.len() || idx.iter().any(|r| self.dt(*r).is_float()) {
            return Err("index does not match the array".into());
        }
        let raw: Vec<Value> = idx.iter().map(|r| self.reg(*r)).collect();
        if raw.is_empty() {
            return Ok((self.b.ins().iconst(I64, 0), av.base));
        }
        let isz = av.dtype.itemsize() as i64;
        let hit = self.checked.iter().find(|c| {
            c.idx == idx && c.shape == av.shape && c.strides == av.strides && c.isz == isz
        });
        if let Some(c) = hit {
            let rel = c.rel;
            return Ok((rel, self.b.ins().iadd(av.base, rel)));
        }
        if self.proven.contains(&(i as *const Inst as usize)) {
            // In range for every thread of the block (`affine.rs`): no check to make.
            return Ok(self.offset_and_address(av, isz, idx, &raw));
        }
        // The usual access has every index in [0, n): one unsigned compare per axis. A
        // negative index (wrapped once, as Python does) or a fault takes the cold path.
        let inside: Vec<Value> = raw
            .iter()
            .zip(&av.shape)
            .map(|(&x, &n)| self.b.ins().icmp(IntCC::UnsignedLessThan, x, n))
            .collect();
        let ok = self.all(&inside);
        // The paths meet on the indices, and the offset is computed where the access is
        // made: Cranelift then folds the scaling into the load's or store's address.
        let idx_vars: Vec<Variable> = raw.iter().map(|_| self.b.declare_var(I64)).collect();
        let (fast, slow, cont) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.seal_block(fast);
        self.b.seal_block(slow);
        self.b.switch_to_block(fast);
        for (v, &x) in idx_vars.iter().zip(&raw) {
            self.b.def_var(*v, x);
        }
        self.b.ins().jump(cont, &[]);

        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let mut wrapped = Vec::new();
        let mut inside = Vec::new();
        for (&x, &n) in raw.iter().zip(&av.shape) {
            let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
            let plus = self.b.ins().iadd(x, n);
            let w = self.b.ins().select(neg, plus, x);
            inside.push(self.b.ins().icmp(IntCC::UnsignedLessThan, w, n));
            wrapped.push(w);
        }
        let ok = self.all(&inside);
        let (slow_ok, bad) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(ok, slow_ok, &[], bad, &[]);
        self.b.seal_block(slow_ok);
        self.b.seal_block(bad);
        self.b.switch_to_block(slow_ok);
        for (v, &w) in idx_vars.iter().zip(&wrapped) {
            self.b.def_var(*v, w);
        }
        self.b.ins().jump(cont, &[]);
        self.b.seal_block(cont);
        self.b.switch_to_block(bad);
        self.b.set_cold_block(bad);
        self.index_fault(i, av.slot as i64, &raw)?;

        self.b.switch_to_block(cont);
        let merged: Vec<Value> = idx_vars.iter().map(|v| self.b.use_var(*v)).collect();
        Ok(self.offset_and_address(av, isz, idx, &merged))
    }

    /// The byte offset and address of in-range indices `w`, remembered for the accesses
    /// after it. A constant part of a C-contiguous array's linear index (the `k` of
    /// `t[x, k]` in an unrolled loop) is added last, where the load's addressing mode
    /// takes it as its displacement: added first, it costs each access its own `lea`.
    fn offset_and_address(
        &mut self,
        av: &ArrVals,
        isz: i64,
        idx: &[Reg],
        w: &[Value],
    ) -> (Value, Value) {
        let (var, bytes) = match av.contiguous() {
            true => {
                let lin = self.linear(av, w);
                let (lin, c) = peel(&self.b.func.dfg, lin, PEEL_DEPTH);
                let scaled = match lin {
                    Some(lin) => self.b.ins().imul_imm_s(lin, isz),
                    None => self.b.ins().iconst(I64, 0),
                };
                (scaled, c.wrapping_mul(isz))
            }
            false => (self.strided(av, w), 0),
        };
        let at = self.b.ins().iadd(av.base, var);
        let (rel, at) = match bytes {
            0 => (var, at),
            c => (
                self.b.ins().iadd_imm_s(var, c),
                self.b.ins().iadd_imm_s(at, c),
            ),
        };
        self.remember(av, isz, idx, rel);
        (rel, at)
    }

    fn remember(&mut self, av: &ArrVals, isz: i64, idx: &[Reg], rel: Value) {
        self.checked.push(Checked {
            shape: av.shape.clone(),
            strides: av.strides.clone(),
            isz,
            idx: idx.to_vec(),
            rel,
        });
    }

    /// True (nonzero) when every flag is.
    pub(super) fn all(&mut self, conds: &[Value]) -> Value {
        let mut acc = conds[0];
        for &f in &conds[1..] {
            acc = self.b.ins().band(acc, f);
        }
        acc
    }

    /// The row-major linear index of in-range indices `w` of a C-contiguous array.
    fn linear(&mut self, av: &ArrVals, w: &[Value]) -> Value {
        let mut lin = w[0];
        for (ax, &x) in w.iter().enumerate().skip(1) {
            let scaled = self.b.ins().imul(lin, av.shape[ax]);
            lin = self.b.ins().iadd(scaled, x);
        }
        lin
    }

    /// The byte offset of in-range indices `w` of a strided array from element 0.
    fn strided(&mut self, av: &ArrVals, w: &[Value]) -> Value {
        let mut rel = self.b.ins().imul(w[0], av.strides[0]);
        for (ax, &x) in w.iter().enumerate().skip(1) {
            let part = self.b.ins().imul(x, av.strides[ax]);
            rel = self.b.ins().iadd(rel, part);
        }
        rel
    }

    /// Store `vals` in a stack slot, call `nb_index_fault` and leave through `fail`.
    pub(super) fn index_fault(
        &mut self,
        i: &Inst,
        slot: i64,
        vals: &[Value],
    ) -> Result<(), Unsupported> {
        let ss = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (vals.len().max(1) * 8) as u32,
            3,
        ));
        for (k, v) in vals.iter().enumerate() {
            self.b.ins().stack_store(I64, *v, ss, (k * 8) as i32);
        }
        let ptr = self.b.ins().stack_addr(I64, ss, 0);
        let n = if slot < 0 { vals.len() / 2 } else { vals.len() };
        let consts = [i.loc as i64, slot, n as i64];
        let [loc, s, n] = consts.map(|c| self.b.ins().iconst(I64, c));
        let (tl, bl) = (self.tlin(), self.block_lin());
        let ctx = self.ctx;
        self.call("nb_index_fault", &[ctx, loc, s, ptr, n, tl, bl])?;
        self.b.ins().jump(self.fail, &[]);
        Ok(())
    }

    pub(super) fn check_view(
        &mut self,
        i: &Inst,
        idx: &[Reg],
        dims: &[Reg],
    ) -> Result<(), Unsupported> {
        if idx.len() != dims.len() || idx.is_empty() || idx.len() > 3 {
            return Err("view check of an odd shape".into());
        }
        let xs: Vec<Value> = idx.iter().chain(dims).map(|r| self.reg(*r)).collect();
        let n = idx.len();
        let mut bad: Option<Value> = None;
        for ax in 0..n {
            let (x, d) = (xs[ax], xs[n + ax]);
            let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
            let wrapped = self.b.ins().iadd(x, d);
            let w = self.b.ins().select(neg, wrapped, x);
            let lo = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, w, 0);
            let hi = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, w, d);
            let b1 = self.b.ins().bor(lo, hi);
            bad = Some(match bad {
                Some(o) => self.b.ins().bor(o, b1),
                None => b1,
            });
        }
        let bad = bad.ok_or("empty view check")?;
        let (cont, cold) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(bad, cold, &[], cont, &[]);
        self.b.switch_to_block(cold);
        self.b.set_cold_block(cold);
        self.index_fault(i, -1, &xs)?;
        self.b.switch_to_block(cont);
        Ok(())
    }

    pub(super) fn atomic(
        &mut self,
        i: &Inst,
        op: AtomicOp,
        a: ArrRef,
        idx: &[Reg],
        vals: &[Reg],
        dt: DType,
    ) -> Result<Value, Unsupported> {
        let av = self.arr(a)?;
        if av.dtype != dt || vals.is_empty() {
            return Err("atomic of an odd type".into());
        }
        let (rel, addr) = self.address(i, &av, idx)?;
        let v0 = self.reg(vals[0]);
        // Integer read-modify-writes are native atomic instructions, which leave memory
        // and the old value exactly as the interpreter's CAS loop does (max and min store
        // the old value again where the interpreter leaves it: the same bits).
        let native = match dt {
            DType::I32 | DType::U32 => Some(I32),
            DType::I64 | DType::U64 => Some(I64),
            _ => None,
        };
        let signed = dt.is_signed();
        let rmw = match op {
            AtomicOp::Add => Some(AtomicRmwOp::Add),
            AtomicOp::Sub => Some(AtomicRmwOp::Sub),
            AtomicOp::And => Some(AtomicRmwOp::And),
            AtomicOp::Or => Some(AtomicRmwOp::Or),
            AtomicOp::Xor => Some(AtomicRmwOp::Xor),
            AtomicOp::Exch => Some(AtomicRmwOp::Xchg),
            AtomicOp::Max if signed => Some(AtomicRmwOp::Smax),
            AtomicOp::Max => Some(AtomicRmwOp::Umax),
            AtomicOp::Min if signed => Some(AtomicRmwOp::Smin),
            AtomicOp::Min => Some(AtomicRmwOp::Umin),
            _ => None,
        };
        if let (Some(rmw), Some(ty)) = (rmw, native) {
            let v = if ty == I32 {
                self.b.ins().ireduce(I32, v0)
            } else {
                v0
            };
            let old = self.rmw(a, rmw, ty, addr, v);
            return Ok(match dt {
                DType::I32 => self.b.ins().sextend(I64, old),
                DType::U32 => self.b.ins().uextend(I64, old),
                _ => old,
            });
        }
        let b0 = to_bits(&mut self.b, v0, dt);
        let b1 = match vals.get(1) {
            Some(r) => {
                let x = self.reg(*r);
                to_bits(&mut self.b, x, dt)
            }
            None => self.b.ins().iconst(I64, 0),
        };
        let consts = [av.slot as i64, code(&ATOMIC, &op), i.loc as i64];
        let [s, o, loc] = consts.map(|c| self.b.ins().iconst(I64, c));
        let (tl, bl) = (self.tlin(), self.block_lin());
        let ctx = self.ctx;
        let off = self.b.ins().iadd(av.offset, rel);
        let old = self.call1("nb_atomic", &[ctx, s, off, o, b0, b1, loc, tl, bl])?;
        self.check_status();
        Ok(from_bits(&mut self.b, old, dt))
    }
}
