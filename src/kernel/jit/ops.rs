//! Lowering of the IR's value operations (casts, arithmetic, comparisons, unary and
//! math functions) and of loads and stores, each mirroring the interpreter's
//! `scalar_ops` on canonical register bits: integers sign- or zero-extended to 64 bits,
//! booleans 0/1. Anything more than a machine instruction calls the interpreter's own
//! function through a helper.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I16, I32, I64, I8};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;
use cranelift_module::Module;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp, Unary};
use crate::kernel::exec::scalar_ops::scalar_bits;
use crate::kernel::ir::{MathFn, Reg};
use crate::kernel::jit::helpers::{code, ARITH, MATH, UNARY};
use crate::kernel::jit::lower::{flags, Lower, Unsupported};

impl<M: Module> Lower<'_, '_, M> {
    pub(super) fn cast(&mut self, x: Value, from: DType, to: DType) -> Result<Value, Unsupported> {
        let b = &mut self.b;
        Ok(match (from, to) {
            _ if from == to => x,
            (DType::F32 | DType::F64, DType::Bool) => {
                let z = zero(b, from);
                let r = b.ins().fcmp(FloatCC::NotEqual, x, z);
                b.ins().uextend(I64, r)
            }
            (_, DType::Bool) => {
                let r = b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
                b.ins().uextend(I64, r)
            }
            (DType::F64, DType::F32) => b.ins().fdemote(F32, x),
            (DType::F32, DType::F64) => b.ins().fpromote(F64, x),
            (DType::F32 | DType::F64, DType::U64) => b.ins().fcvt_to_uint_sat(I64, x),
            (DType::F32 | DType::F64, _) => {
                let i = b.ins().fcvt_to_sint_sat(I64, x);
                wrap(b, i, to)
            }
            // u64 -> float rounds in a sequence of its own: the Rust conversion is the
            // reference, so call it.
            (DType::U64, DType::F32 | DType::F64) => {
                let codes = [dt_code(from), dt_code(to)];
                let [f, t] = codes.map(|c| self.b.ins().iconst(I64, c));
                let bits = self.call1("nb_cast", &[x, f, t])?;
                from_bits(&mut self.b, bits, to)
            }
            (_, DType::F32) => b.ins().fcvt_from_sint(F32, x),
            (_, DType::F64) => b.ins().fcvt_from_sint(F64, x),
            _ => wrap(b, x, to),
        })
    }

    pub(super) fn bin(
        &mut self,
        op: Arith,
        dt: DType,
        a: Value,
        b: Value,
    ) -> Result<Value, Unsupported> {
        let ins = self.b.ins();
        if dt.is_float() {
            return Ok(match op {
                Arith::Add => ins.fadd(a, b),
                Arith::Sub => ins.fsub(a, b),
                Arith::Mul => ins.fmul(a, b),
                Arith::Div => ins.fdiv(a, b),
                // Python's min/max: the second operand only when strictly smaller/larger.
                Arith::Min => {
                    let lt = ins.fcmp(FloatCC::LessThan, b, a);
                    self.b.ins().select(lt, b, a)
                }
                Arith::Max => {
                    let gt = ins.fcmp(FloatCC::GreaterThan, b, a);
                    self.b.ins().select(gt, b, a)
                }
                _ => {
                    let name = if dt == DType::F32 {
                        "nb_bin_f32"
                    } else {
                        "nb_bin_f64"
                    };
                    let o = self.b.ins().iconst(I64, code(&ARITH, &op));
                    self.call1(name, &[o, a, b])?
                }
            });
        }
        let signed = !matches!(dt, DType::U8 | DType::U16 | DType::U32 | DType::U64);
        let r = match op {
            Arith::Add => ins.iadd(a, b),
            Arith::Sub => ins.isub(a, b),
            Arith::Mul => ins.imul(a, b),
            Arith::BitAnd => ins.band(a, b),
            Arith::BitOr => ins.bor(a, b),
            Arith::BitXor => ins.bxor(a, b),
            Arith::LShift => ins.ishl(a, b),
            Arith::RShift if signed => ins.sshr(a, b),
            Arith::RShift => ins.ushr(a, b),
            Arith::Min if signed => ins.smin(a, b),
            Arith::Min => ins.umin(a, b),
            Arith::Max if signed => ins.smax(a, b),
            Arith::Max => ins.umax(a, b),
            // Division, modulo and powers by zero or of negatives: the interpreter's code.
            _ => {
                let codes = [code(&ARITH, &op), dt_code(dt)];
                let [o, d] = codes.map(|c| self.b.ins().iconst(I64, c));
                return self.call1("nb_bin_int", &[o, d, a, b]);
            }
        };
        Ok(wrap(&mut self.b, r, dt))
    }

    pub(super) fn un(&mut self, op: Unary, dt: DType, a: Value) -> Result<Value, Unsupported> {
        let b = &mut self.b;
        Ok(match (op, dt) {
            (Unary::Not, _) | (Unary::Invert, DType::Bool) => {
                let bits = to_bits(b, a, dt);
                let r = b.ins().icmp_imm_s(IntCC::Equal, bits, 0);
                b.ins().uextend(I64, r)
            }
            (Unary::Neg, DType::F32 | DType::F64) => b.ins().fneg(a),
            (Unary::Abs, DType::F32 | DType::F64) => b.ins().fabs(a),
            (_, DType::F32 | DType::F64) => return Err("bit operation on a float".into()),
            (Unary::Neg, _) => {
                let r = b.ins().ineg(a);
                wrap(b, r, dt)
            }
            (Unary::Invert, _) => {
                let r = b.ins().bnot(a);
                wrap(b, r, dt)
            }
            (Unary::Abs, DType::U8 | DType::U16 | DType::U32 | DType::U64 | DType::Bool) => a,
            (Unary::Abs, _) => {
                let r = b.ins().iabs(a);
                wrap(b, r, dt)
            }
            _ => {
                let codes = [code(&UNARY, &op), dt_code(dt)];
                let [o, d] = codes.map(|c| self.b.ins().iconst(I64, c));
                return self.call1("nb_un", &[o, d, a]);
            }
        })
    }

    pub(super) fn math(&mut self, f: MathFn, xs: &[Reg], dt: DType) -> Result<Value, Unsupported> {
        let t = self.dt(*xs.first().ok_or("math without arguments")?);
        let a = self.reg(xs[0]);
        let fc = self.b.ins().iconst(I64, code(&MATH, &f));
        if f.is_predicate() {
            let bits = to_bits(&mut self.b, a, t);
            let d = self.b.ins().iconst(I64, dt_code(t));
            let z = self.b.ins().iconst(I64, 0);
            return self.call1("nb_math_bits", &[fc, d, bits, z]);
        }
        if !t.is_float() || t != dt {
            return Err("math of a non-float".into());
        }
        let b = match xs.get(1) {
            Some(r) => self.reg(*r),
            None => a,
        };
        // Correctly rounded or exact in IEEE arithmetic, so native instructions give
        // the library's bits.
        let ins = self.b.ins();
        Ok(match f {
            MathFn::Sqrt => ins.sqrt(a),
            MathFn::Fabs => ins.fabs(a),
            MathFn::Floor => ins.floor(a),
            MathFn::Ceil => ins.ceil(a),
            MathFn::Trunc => ins.trunc(a),
            MathFn::Round => ins.nearest(a),
            _ => {
                let name = if t == DType::F32 {
                    "nb_math_f32"
                } else {
                    "nb_math_f64"
                };
                self.call1(name, &[fc, a, b])?
            }
        })
    }
}

pub(super) fn dt_code(dt: DType) -> i64 {
    code(&DType::ALL, &dt)
}

pub(super) fn zero(b: &mut FunctionBuilder, dt: DType) -> Value {
    match dt {
        DType::F32 => b.ins().f32const(0.0),
        DType::F64 => b.ins().f64const(0.0),
        _ => b.ins().iconst(I64, 0),
    }
}

pub(super) fn constant(b: &mut FunctionBuilder, s: &Scalar, dt: DType) -> Value {
    let bits = scalar_bits(s);
    match dt {
        DType::F32 => b.ins().f32const(f32::from_bits(bits as u32)),
        DType::F64 => b.ins().f64const(f64::from_bits(bits)),
        _ => b.ins().iconst(I64, bits as i64),
    }
}

/// Canonical register bits of a value (float32 in the low 32 bits).
pub(super) fn to_bits(b: &mut FunctionBuilder, v: Value, dt: DType) -> Value {
    match dt {
        DType::F32 => {
            let i = b.ins().bitcast(I32, MemFlagsData::new(), v);
            b.ins().uextend(I64, i)
        }
        DType::F64 => b.ins().bitcast(I64, MemFlagsData::new(), v),
        _ => v,
    }
}

/// A register value from canonical bits.
pub(super) fn from_bits(b: &mut FunctionBuilder, bits: Value, dt: DType) -> Value {
    match dt {
        DType::F32 => {
            let i = b.ins().ireduce(I32, bits);
            b.ins().bitcast(F32, MemFlagsData::new(), i)
        }
        DType::F64 => b.ins().bitcast(F64, MemFlagsData::new(), bits),
        _ => bits,
    }
}

/// The interpreter's `wrap`: a 64-bit result cut to the width and signedness of `dt`.
pub(super) fn wrap(b: &mut FunctionBuilder, v: Value, dt: DType) -> Value {
    let narrow = |b: &mut FunctionBuilder, ty: Type, signed: bool| {
        let n = b.ins().ireduce(ty, v);
        if signed {
            b.ins().sextend(I64, n)
        } else {
            b.ins().uextend(I64, n)
        }
    };
    match dt {
        DType::I8 => narrow(b, I8, true),
        DType::I16 => narrow(b, I16, true),
        DType::I32 => narrow(b, I32, true),
        DType::U8 => narrow(b, I8, false),
        DType::U16 => narrow(b, I16, false),
        DType::U32 => narrow(b, I32, false),
        DType::Bool => {
            let r = b.ins().icmp_imm_s(IntCC::NotEqual, v, 0);
            b.ins().uextend(I64, r)
        }
        _ => v,
    }
}

pub(super) fn compare(b: &mut FunctionBuilder, c: Cmp, t: DType, x: Value, y: Value) -> Value {
    if t.is_float() {
        let cc = match c {
            Cmp::Eq => FloatCC::Equal,
            Cmp::Ne => FloatCC::NotEqual,
            Cmp::Lt => FloatCC::LessThan,
            Cmp::Le => FloatCC::LessThanOrEqual,
            Cmp::Gt => FloatCC::GreaterThan,
            Cmp::Ge => FloatCC::GreaterThanOrEqual,
        };
        return b.ins().fcmp(cc, x, y);
    }
    let unsigned = matches!(
        t,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 | DType::Bool
    );
    let cc = match (c, unsigned) {
        (Cmp::Eq, _) => IntCC::Equal,
        (Cmp::Ne, _) => IntCC::NotEqual,
        (Cmp::Lt, false) => IntCC::SignedLessThan,
        (Cmp::Le, false) => IntCC::SignedLessThanOrEqual,
        (Cmp::Gt, false) => IntCC::SignedGreaterThan,
        (Cmp::Ge, false) => IntCC::SignedGreaterThanOrEqual,
        (Cmp::Lt, true) => IntCC::UnsignedLessThan,
        (Cmp::Le, true) => IntCC::UnsignedLessThanOrEqual,
        (Cmp::Gt, true) => IntCC::UnsignedGreaterThan,
        (Cmp::Ge, true) => IntCC::UnsignedGreaterThanOrEqual,
    };
    b.ins().icmp(cc, x, y)
}

/// Load an element as a register value (the interpreter's `RawMem::load`).
pub(super) fn load(b: &mut FunctionBuilder, dt: DType, addr: Value) -> Value {
    let f = flags();
    let ins = b.ins();
    match dt {
        DType::Bool => {
            let v = ins.uload8(I64, f, addr, 0);
            let nz = b.ins().icmp_imm_s(IntCC::NotEqual, v, 0);
            b.ins().uextend(I64, nz)
        }
        DType::I8 => ins.sload8(I64, f, addr, 0),
        DType::U8 => ins.uload8(I64, f, addr, 0),
        DType::I16 => ins.sload16(I64, f, addr, 0),
        // float16 arrays never reach a device (transfers refuse them).
        DType::U16 | DType::F16 => ins.uload16(I64, f, addr, 0),
        DType::I32 => ins.sload32(f, addr, 0),
        DType::U32 => ins.uload32(f, addr, 0),
        // Complex arrays never reach a device (transfers refuse them).
        DType::I64 | DType::U64 | DType::C64 => ins.load(I64, f, addr, 0),
        DType::F32 => ins.load(F32, f, addr, 0),
        DType::F64 | DType::C128 => ins.load(F64, f, addr, 0),
    }
}

/// Store a register value as an element (the interpreter's `RawMem::store`).
pub(super) fn store(b: &mut FunctionBuilder, dt: DType, addr: Value, v: Value) {
    let f = flags();
    let ins = b.ins();
    match dt.itemsize() {
        1 if !dt.is_float() => {
            ins.istore8(f, v, addr, 0);
        }
        2 if !dt.is_float() => {
            ins.istore16(f, v, addr, 0);
        }
        4 if !dt.is_float() => {
            ins.istore32(f, v, addr, 0);
        }
        _ => {
            ins.store(f, v, addr, 0);
        }
    }
}
