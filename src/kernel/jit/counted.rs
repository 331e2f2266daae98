//! Bounds checks hoisted out of counted loops, by loop versioning. In an innermost loop
//! `for c in range(start, stop)` (the counter stepping by one, tested against a bound the
//! loop never assigns before anything else in the body), an index that is the counter
//! plus loop-invariant values takes the values `[start + d, stop - 1 + d]` over the loop,
//! and one that is loop-invariant a single value: both known before the first iteration.
//! When every such access lies inside its array for the whole loop, a copy of the loop
//! without their checks runs; otherwise the usual checked copy. The proof covers every
//! iteration the loop could run (a `break` only runs fewer), so the fast copy has no
//! fault to raise where it runs, and a failed proof leaves the first fault to the checked
//! copy: the interpreter's, at its element.
//!
//! This is the shared tile read of a tiled matmul (`ta[tx, k] * tb[k, ty]`, `k` in
//! `range(TILE)`), and the contiguous slice each thread of `@cuda.reduce`'s partial pass
//! folds.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_module::Module;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::ir::{ArrRef, Inst, Kernel, Op, Reg, Stmt};
use crate::kernel::jit::lower::{Lower, Unsupported};

/// Bodies larger than this are lowered once (the fast copy doubles the code).
const MAX_STMTS: usize = 400;
/// Bounds on the counter's range and on each invariant part of an index, so that no sum
/// the proof (or the loop) makes can wrap: at most [`MAX_PARTS`] parts below 2^58 and a
/// counter within 2^61 stay within 2^62.
const CTR_RANGE: i64 = 1 << 61;
const PART_RANGE: i64 = 1 << 58;
const MAX_PARTS: usize = 8;

/// An index over one iteration: the counter (as the test saw it) if `ctr`, plus `k`, plus
/// (or, where `true`, minus) registers the loop never assigns.
#[derive(Clone, Debug, Default)]
struct Form {
    ctr: bool,
    k: i64,
    parts: Vec<(Reg, bool)>,
}

impl Form {
    fn add(&self, o: &Form, neg: bool) -> Option<Form> {
        if o.ctr && (self.ctr || neg) {
            return None;
        }
        let k = if neg {
            self.k.checked_sub(o.k)?
        } else {
            self.k.checked_add(o.k)?
        };
        let mut parts = self.parts.clone();
        parts.extend(o.parts.iter().map(|&(r, n)| (r, n ^ neg)));
        (k.abs() < PART_RANGE && parts.len() <= MAX_PARTS).then_some(Form {
            ctr: self.ctr || o.ctr,
            k,
            parts,
        })
    }
}

/// A counted loop whose accesses `accesses` (instruction address, array, index forms)
/// may be proven in range before it starts.
pub(super) struct Counted {
    pub(super) ctr: Reg,
    pub(super) stop: Reg,
    /// Where the body's test `if c < stop: ... else: break` stands.
    pub(super) test: usize,
    accesses: Vec<(usize, ArrRef, Vec<Form>)>,
}

fn count_defs(ss: &[Stmt], n: &mut HashMap<Reg, usize>, stmts: &mut usize) -> bool {
    for s in ss {
        *stmts += 1;
        match s {
            Stmt::Inst(i) => {
                if let Some(d) = i.dst {
                    *n.entry(d).or_default() += 1;
                }
            }
            Stmt::If(_, t, e) if !count_defs(t, n, stmts) || !count_defs(e, n, stmts) => {
                return false;
            }
            // Innermost loops only: nested copies would multiply.
            Stmt::Loop { .. } => return false,
            _ => {}
        }
    }
    true
}

/// The one definition `r` has in the whole kernel, if it is the int64 constant `v`.
pub(super) fn const_of(k: &Kernel, r: Reg) -> Option<i64> {
    let mut defs = Vec::new();
    crate::kernel::ir::each_inst(&k.body, &mut |i| {
        if i.dst == Some(r) {
            defs.push(&i.op);
        }
    });
    match defs.as_slice() {
        [Op::Const(Scalar::I64(v))] => Some(*v),
        _ => None,
    }
}

/// The counted shape of loop `id`, or None when it is lowered once, with its checks.
pub(super) fn analyse(k: &Kernel, id: u32, body: &[Stmt], latch: &[Stmt]) -> Option<Counted> {
    let mut defs = HashMap::new();
    let mut stmts = 0;
    if !count_defs(body, &mut defs, &mut stmts)
        || !count_defs(latch, &mut defs, &mut stmts)
        || stmts > MAX_STMTS
    {
        return None;
    }
    // The step: `next = c + 1; c = next` ending the latch (`for ... in range`) or, with
    // no latch, the body.
    let tail = if latch.is_empty() { body } else { latch };
    let [.., Stmt::Inst(add), Stmt::Inst(copy)] = tail else {
        return None;
    };
    let (Op::Bin(Arith::Add, ctr, one), Some(next)) = (&add.op, add.dst) else {
        return None;
    };
    let ctr = *ctr;
    let reg_dt = |r: Reg| k.regs.get(r as usize).copied();
    if !matches!(copy.op, Op::Copy(r) if r == next)
        || copy.dst != Some(ctr)
        || reg_dt(ctr) != Some(DType::I64)
        || const_of(k, *one) != Some(1)
        || defs.get(&ctr) != Some(&1)
    {
        return None;
    }
    // The test `if c < stop: ... else: break`, before any other statement.
    let test = body.iter().position(|s| !matches!(s, Stmt::Inst(_)))?;
    let Stmt::If(cond, then, els) = &body[test] else {
        return None;
    };
    if !then.is_empty() || !matches!(els.as_slice(), [Stmt::Break(b)] if *b == id) {
        return None;
    }
    let cmp = body[..test].iter().rev().find_map(|s| match s {
        Stmt::Inst(i) if i.dst == Some(*cond) => Some(&i.op),
        _ => None,
    });
    let Some(Op::Cmp(Cmp::Lt, c, stop)) = cmp else {
        return None;
    };
    if *c != ctr || reg_dt(*stop) != Some(DType::I64) || defs.contains_key(stop) {
        return None;
    }
    let mut w = Walk {
        k,
        defs: &defs,
        accesses: Vec::new(),
    };
    let mut forms = HashMap::from([(
        ctr,
        Form {
            ctr: true,
            ..Form::default()
        },
    )]);
    w.stmts(&body[test + 1..], &mut forms);
    (!w.accesses.is_empty()).then_some(Counted {
        ctr,
        stop: *stop,
        test,
        accesses: w.accesses,
    })
}

struct Walk<'a> {
    k: &'a Kernel,
    /// How many times the loop assigns each register.
    defs: &'a HashMap<Reg, usize>,
    accesses: Vec<(usize, ArrRef, Vec<Form>)>,
}

impl Walk<'_> {
    fn dt(&self, r: Reg) -> Option<DType> {
        self.k.regs.get(r as usize).copied()
    }

    /// `r`'s form where it is read: as last assigned in this iteration, or the same in
    /// every iteration when the loop never assigns it.
    fn form(&self, forms: &HashMap<Reg, Form>, r: Reg) -> Option<Form> {
        if let Some(f) = forms.get(&r) {
            return Some(f.clone());
        }
        let dt = self.dt(r)?;
        (!self.defs.contains_key(&r) && !dt.is_float()).then(|| Form {
            parts: vec![(r, false)],
            ..Form::default()
        })
    }

    fn int64_form(&self, forms: &HashMap<Reg, Form>, r: Reg) -> Option<Form> {
        (self.dt(r) == Some(DType::I64))
            .then(|| self.form(forms, r))
            .flatten()
    }

    fn def(&self, forms: &HashMap<Reg, Form>, i: &Inst, d: Reg) -> Option<Form> {
        if self.dt(d) != Some(DType::I64) {
            return None;
        }
        match &i.op {
            Op::Const(Scalar::I64(v)) if v.abs() < PART_RANGE => Some(Form {
                k: *v,
                ..Form::default()
            }),
            Op::Copy(x) => self.int64_form(forms, *x),
            // An integer's canonical bits (sign- or zero-extended) are its int64 value.
            Op::Cast(x) => self.form(forms, *x),
            Op::Bin(Arith::Add, x, y) => self
                .int64_form(forms, *x)?
                .add(&self.int64_form(forms, *y)?, false),
            Op::Bin(Arith::Sub, x, y) => self
                .int64_form(forms, *x)?
                .add(&self.int64_form(forms, *y)?, true),
            _ => None,
        }
    }

    fn stmts(&mut self, ss: &[Stmt], forms: &mut HashMap<Reg, Form>) {
        for s in ss {
            match s {
                Stmt::Inst(i) => {
                    if let Op::Load(a, idx) | Op::Store(a, idx, _) = &i.op {
                        let f: Option<Vec<Form>> =
                            idx.iter().map(|r| self.form(forms, *r)).collect();
                        // Parameter arrays too (`@cuda.reduce`'s partial pass): with
                        // their address and extent loaded before the loop and the loop's
                        // blocks sealed in order (`lower.rs`), the unchecked copy keeps
                        // them in registers.
                        if let Some(f) = f.filter(|f| !f.is_empty()) {
                            self.accesses.push((i as *const Inst as usize, *a, f));
                        }
                    }
                    if let Some(d) = i.dst {
                        match self.def(forms, i, d) {
                            Some(f) => forms.insert(d, f),
                            None => forms.remove(&d),
                        };
                    }
                }
                Stmt::If(_, t, e) => {
                    for arm in [t, e] {
                        let mut inner = forms.clone();
                        self.stmts(arm, &mut inner);
                    }
                    // After the branches, what either assigned is unknown.
                    let mut n = HashMap::new();
                    let mut count = 0;
                    count_defs(t, &mut n, &mut count);
                    count_defs(e, &mut n, &mut count);
                    forms.retain(|r, _| !n.contains_key(r));
                }
                _ => {}
            }
        }
    }
}

impl<M: Module> Lower<'_, '_, M> {
    /// Loop `id`: when it is counted with accesses to prove, the proof, then a copy
    /// without their checks where it holds and the checked copy where it does not.
    pub(super) fn lower_loop(
        &mut self,
        id: u32,
        body: &[Stmt],
        latch: &[Stmt],
    ) -> Result<(), Unsupported> {
        let exit = self.b.create_block();
        // The loop may redefine any index before it comes round again.
        self.checked.clear();
        if let Some(c) = analyse(self.k, id, body, latch) {
            let (ok, sure) = self.counted_ok(&c)?;
            if !sure.is_empty() {
                let (fast, slow) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(ok, fast, &[], slow, &[]);
                // Sealed now, so the counter's start reaches both copies as itself (a
                // constant `unroll.rs` can read) and not as a block parameter.
                self.b.seal_block(fast);
                self.b.seal_block(slow);
                self.b.switch_to_block(fast);
                let added: Vec<usize> = sure
                    .into_iter()
                    .filter(|a| self.proven.insert(*a))
                    .collect();
                let k = self.k;
                let r = match self.unrolled(k, &c, body, latch, exit) {
                    Ok(true) => Ok(()),
                    Ok(false) => self.loop_copy(id, body, latch, exit),
                    Err(e) => Err(e),
                };
                for a in added {
                    self.proven.remove(&a);
                }
                r?;
                self.b.switch_to_block(slow);
            }
        }
        self.loop_copy(id, body, latch, exit)?;
        self.checked.clear();
        self.b.switch_to_block(exit);
        Ok(())
    }

    fn loop_copy(
        &mut self,
        id: u32,
        body: &[Stmt],
        latch: &[Stmt],
        exit: Block,
    ) -> Result<(), Unsupported> {
        let (head, latch_b) = (self.b.create_block(), self.b.create_block());
        self.checked.clear();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        self.loops.push((id, exit, latch_b));
        self.stmts(body)?;
        self.loops.pop();
        self.b.ins().jump(latch_b, &[]);
        self.b.switch_to_block(latch_b);
        self.stmts(latch)?;
        self.back_edge(head)
    }

    /// Nonzero when every access of `c` (those returned) is in range over the whole loop.
    fn counted_ok(&mut self, c: &Counted) -> Result<(Value, Vec<usize>), Unsupported> {
        let c0 = self.reg(c.ctr);
        let stop = self.reg(c.stop);
        let last = self.b.ins().iadd_imm_s(stop, -1);
        let mut conds = vec![
            self.b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThan, c0, -CTR_RANGE),
            self.b
                .ins()
                .icmp_imm_s(IntCC::SignedLessThan, stop, CTR_RANGE),
        ];
        let mut sure = Vec::new();
        for (at, a, forms) in &c.accesses {
            let av = self.arr(*a)?;
            if av.shape.len() != forms.len() {
                continue;
            }
            for (f, &n) in forms.iter().zip(&av.shape) {
                let mut d = self.b.ins().iconst(I64, f.k);
                for &(r, neg) in &f.parts {
                    let v = self.reg(r);
                    conds.push(
                        self.b
                            .ins()
                            .icmp_imm_s(IntCC::SignedGreaterThan, v, -PART_RANGE),
                    );
                    conds.push(
                        self.b
                            .ins()
                            .icmp_imm_s(IntCC::SignedLessThan, v, PART_RANGE),
                    );
                    d = if neg {
                        self.b.ins().isub(d, v)
                    } else {
                        self.b.ins().iadd(d, v)
                    };
                }
                let (lo, hi) = if f.ctr {
                    (self.b.ins().iadd(c0, d), self.b.ins().iadd(last, d))
                } else {
                    (d, d)
                };
                conds.push(
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, lo, 0),
                );
                conds.push(self.b.ins().icmp(IntCC::SignedLessThan, hi, n));
            }
            sure.push(*at);
        }
        Ok((self.all(&conds), sure))
    }
}
