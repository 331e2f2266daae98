//! Emitting IR: register allocation, nested statement blocks and source locations.

use crate::arrays::dtype::{DType, Scalar};
use crate::kernel::ir::{Inst, Kernel, Loc, Op, Reg, Stmt};
use crate::kernel::types::Ty;

#[derive(Clone)]
pub struct Builder {
    pub k: Kernel,
    blocks: Vec<Vec<Stmt>>,
    next_loop: u32,
    /// Current source location (index into `k.locs`).
    pub loc: u32,
    /// Registers written exactly once so far, with the constant when that write was one
    /// (see [`Builder::constant`]).
    single: std::collections::HashMap<Reg, Option<Scalar>>,
}

impl Builder {
    pub fn new(name: &str, params: Vec<Ty>) -> Builder {
        Builder {
            k: Kernel {
                name: name.to_string(),
                params,
                regs: Vec::new(),
                shared: Vec::new(),
                local: Vec::new(),
                consts: Vec::new(),
                body: Vec::new(),
                ret: None,
                locs: vec![Loc::default()],
                uses_block: false,
                par_loops: Vec::new(),
                hints: Default::default(),
                warnings: Vec::new(),
            },
            blocks: vec![Vec::new()],
            // Loop 0 is reserved for the kernel body itself.
            next_loop: 1,
            loc: 0,
            single: Default::default(),
        }
    }

    /// Record a location; identical consecutive locations are shared.
    pub fn set_loc(&mut self, function: &str, source: &str, start: usize) {
        let start = start.min(source.len());
        let line = source[..start].matches('\n').count() + 1;
        let ls = source[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let le = source[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(source.len());
        let text = source[ls..le].trim().to_string();
        if let Some(i) = self
            .k
            .locs
            .iter()
            .rposition(|l| l.function == function && l.line == line && l.text == text)
        {
            self.loc = i as u32;
            return;
        }
        self.k.locs.push(Loc {
            function: function.to_string(),
            line,
            text,
        });
        self.loc = (self.k.locs.len() - 1) as u32;
    }

    pub fn new_reg(&mut self, t: DType) -> Reg {
        self.k.regs.push(t);
        (self.k.regs.len() - 1) as Reg
    }
    pub fn ty(&self, r: Reg) -> DType {
        self.k.regs[r as usize]
    }
    pub fn new_loop_id(&mut self) -> u32 {
        self.next_loop += 1;
        self.next_loop - 1
    }

    pub fn push(&mut self, s: Stmt) {
        // invariant: the body's block is open from new() to finish(); begin/end pair up
        self.blocks.last_mut().expect("a block is open").push(s);
    }
    /// Emit an instruction with a fresh destination of type `t`.
    pub fn emit(&mut self, t: DType, op: Op) -> Reg {
        let dst = self.new_reg(t);
        self.emit_to(dst, op);
        dst
    }
    pub fn emit_to(&mut self, dst: Reg, op: Op) {
        let value = match &op {
            Op::Const(s) => Some(*s),
            // `N = 100` lowers to a constant copied into N's register: N is still constant
            // for shapes while that copy is its only write.
            Op::Copy(src) if self.ty(*src) == self.ty(dst) => self.constant(*src),
            _ => None,
        };
        self.single
            .entry(dst)
            .and_modify(|v| *v = None)
            .or_insert(value);
        let loc = self.loc;
        self.push(Stmt::Inst(Inst {
            dst: Some(dst),
            op,
            loc,
        }));
    }
    pub fn emit_void(&mut self, op: Op) {
        let loc = self.loc;
        self.push(Stmt::Inst(Inst { dst: None, op, loc }));
    }
    /// The value of a register whose only write so far is a constant: a literal argument
    /// of an inlined device function, which Numba treats as a compile-time constant (array
    /// shapes in `cuda.shared.array(n, ...)`).
    pub fn constant(&self, r: Reg) -> Option<Scalar> {
        self.single.get(&r).copied().flatten()
    }
    pub fn konst(&mut self, s: Scalar) -> Reg {
        self.emit(s.dtype(), Op::Const(s))
    }
    pub fn cast(&mut self, r: Reg, t: DType) -> Reg {
        if self.ty(r) == t {
            r
        } else {
            self.emit(t, Op::Cast(r))
        }
    }
    /// Store `src` into `dst`, converting.
    pub fn assign(&mut self, dst: Reg, src: Reg) {
        if self.ty(dst) == self.ty(src) {
            self.emit_to(dst, Op::Copy(src));
        } else {
            self.emit_to(dst, Op::Cast(src));
        }
    }

    pub fn open_blocks(&self) -> &[Vec<Stmt>] {
        &self.blocks
    }

    pub fn begin(&mut self) {
        self.blocks.push(Vec::new());
    }
    pub fn end(&mut self) -> Vec<Stmt> {
        self.blocks.pop().unwrap_or_default()
    }

    pub fn finish(mut self) -> Kernel {
        self.k.body = self.blocks.pop().unwrap_or_default();
        self.k.hints = crate::kernel::exec::plan::analyse(&self.k);
        self.k
    }
}
