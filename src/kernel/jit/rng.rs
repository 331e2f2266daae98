//! xoroshiro128p draws in native code. A uniform draw is a few integer instructions on a
//! thread's two state words; calling the interpreter's helper for it cost more than the
//! rest of a Monte-Carlo kernel. The native draw is [`crate::kernel::rng`]'s `next` and
//! `unit_f64` written out (the same wrapping adds, xors, shifts and rotations, then an
//! exact conversion of the top 53 bits), so the bits match the interpreter's. Normal draws
//! (logarithm, cosine) and every state index outside the array keep the helper, which
//! raises the interpreter's error.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32, F64, I64};
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_module::Module;

use crate::arrays::dtype::DType;
use crate::kernel::ir::{ArrRef, Inst, Reg, RngKind};
use crate::kernel::jit::helpers::{code, RNG};
use crate::kernel::jit::lower::{flags, Lower, Unsupported};
use crate::kernel::jit::ops::from_bits;

impl<M: Module> Lower<'_, '_, M> {
    /// A draw of `kind` from `states[ix]`, as `dt` (the destination register's type).
    pub(super) fn rng(
        &mut self,
        i: &Inst,
        kind: RngKind,
        a: ArrRef,
        ix: Reg,
        dt: DType,
    ) -> Result<Value, Unsupported> {
        let av = self.arr(a)?;
        let index = self.reg(ix);
        // The helper returns the draw's own type's bits, read back as `dt`: only a
        // destination of that type takes the native value unchanged.
        let own = match kind {
            RngKind::UniformF32 => Some(DType::F32),
            RngKind::UniformF64 => Some(DType::F64),
            _ => None,
        };
        let native = own == Some(dt) && av.dtype == DType::U64 && av.shape.len() == 2;
        let result = self.b.declare_var(if native { cl_of(kind) } else { I64 });
        let done = self.b.create_block();
        if native {
            // The helper's own test: index in [0, n) and two words per state.
            let inside = self
                .b
                .ins()
                .icmp(IntCC::UnsignedLessThan, index, av.shape[0]);
            let two = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, av.shape[1], 2);
            let ok = self.b.ins().band(inside, two);
            let (fast, slow) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(ok, fast, &[], slow, &[]);
            self.b.switch_to_block(fast);
            let (o0, step) = if av.contiguous() {
                let row = self.b.ins().imul(index, av.shape[1]);
                (self.b.ins().imul_imm_s(row, 8), self.b.ins().iconst(I64, 8))
            } else {
                (self.b.ins().imul(index, av.strides[0]), av.strides[1])
            };
            let a0 = self.b.ins().iadd(av.base, o0);
            let a1 = self.b.ins().iadd(a0, step);
            let s0 = self.b.ins().load(I64, flags(), a0, 0);
            let s1 = self.b.ins().load(I64, flags(), a1, 0);
            let drawn = self.b.ins().iadd(s0, s1);
            let x = self.b.ins().bxor(s1, s0);
            let r55 = self.b.ins().rotl_imm_u(s0, 55);
            let sh = self.b.ins().ishl_imm_u(x, 14);
            let n0 = self.b.ins().bxor(r55, x);
            let n0 = self.b.ins().bxor(n0, sh);
            let n1 = self.b.ins().rotl_imm_u(x, 36);
            self.b.ins().store(flags(), n0, a0, 0);
            self.b.ins().store(flags(), n1, a1, 0);
            let top = self.b.ins().ushr_imm_u(drawn, 11);
            let f = self.b.ins().fcvt_from_sint(F64, top);
            let scale = self.b.ins().f64const(1.0 / (1u64 << 53) as f64);
            let unit = self.b.ins().fmul(f, scale);
            let v = if kind == RngKind::UniformF32 {
                self.b.ins().fdemote(F32, unit)
            } else {
                unit
            };
            self.b.def_var(result, v);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(slow);
            self.b.set_cold_block(slow);
        }
        let consts = [av.slot as i64, code(&RNG, &kind), i.loc as i64];
        let [s, kd, loc] = consts.map(|c| self.b.ins().iconst(I64, c));
        let (tl, bl) = (self.tlin(), self.block_lin());
        let ctx = self.ctx;
        let bits = self.call1("nb_rng", &[ctx, s, kd, index, loc, tl, bl])?;
        self.check_status();
        let v = from_bits(&mut self.b, bits, dt);
        if !native {
            return Ok(v);
        }
        self.b.def_var(result, v);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(self.b.use_var(result))
    }
}

/// The Cranelift type a uniform draw of `kind` produces.
fn cl_of(kind: RngKind) -> cranelift_codegen::ir::Type {
    if kind == RngKind::UniformF32 {
        F32
    } else {
        F64
    }
}
