//! `@njit(parallel=True)` with `prange`: which loops run in parallel, and how.
//!
//! A `prange` loop of a host function runs its iterations split into contiguous chunks
//! across rayon workers when the front end can see that iterations do not share scalar
//! state: no name assigned in the body (the loop variable included) is used anywhere else in
//! the function, and the body neither returns nor breaks out of the loop. Writes to arrays
//! (`out[i] = ...`, `out[i] += ...`) are allowed: as in Numba, `prange` is the user's promise
//! that iterations touch different elements. Everything else, notably scalar reductions
//! such as `s += a[i]`, runs serially, which gives the same result as Numba's parallel
//! reduction up to floating-point rounding order. Loops that need shared or local arrays,
//! and `prange` inside a CUDA kernel, also run serially.
//!
//! Each chunk runs on its own copy of the function's registers (the values computed before
//! the loop), with the loop counter and bound set to the chunk's first and past-the-end
//! iterations; memory is shared. Printed text is joined in chunk order and the first
//! fault of the lowest chunk is raised, so output matches the serial run.

use std::collections::HashSet;

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{self as ast, Expr, ExprContext, Stmt};
use ruff_text_size::{Ranged, TextRange};

/// True when the iterations of `lp` (a `for ... in prange(...)` inside `body`, the whole
/// function body) are independent by the rule in the module docs.
pub fn independent(body: &[Stmt], lp: &ast::StmtFor) -> bool {
    let mut control = Control { depth: 0, ok: true };
    for s in &lp.body {
        control.visit_stmt(s);
    }
    if !control.ok {
        return false;
    }
    let mut inner = Names::default();
    inner.visit_expr(&lp.target);
    for s in &lp.body {
        inner.visit_stmt(s);
    }
    let assigned: HashSet<&str> = inner
        .found
        .iter()
        .filter(|(_, _, store)| *store)
        .map(|(n, _, _)| *n)
        .collect();
    let mut all = Names::default();
    for s in body {
        all.visit_stmt(s);
    }
    let inside = |r: TextRange| lp.range.contains_range(r);
    !all.found
        .iter()
        .any(|(n, r, _)| !inside(*r) && assigned.contains(n))
}

#[derive(Default)]
struct Names<'a> {
    found: Vec<(&'a str, TextRange, bool)>,
}

impl<'a> Visitor<'a> for Names<'a> {
    fn visit_expr(&mut self, e: &'a Expr) {
        if let Expr::Name(n) = e {
            let store = matches!(n.ctx, ExprContext::Store | ExprContext::Del);
            self.found.push((n.id.as_str(), n.range(), store));
        }
        walk_expr(self, e);
    }
}

/// Rejects `return` anywhere in the body and `break` that leaves the prange loop itself.
struct Control {
    depth: usize,
    ok: bool,
}

impl<'a> Visitor<'a> for Control {
    fn visit_stmt(&mut self, s: &'a Stmt) {
        match s {
            Stmt::Return(_) => self.ok = false,
            Stmt::Break(_) if self.depth == 0 => self.ok = false,
            Stmt::For(_) | Stmt::While(_) => {
                self.depth += 1;
                walk_stmt(self, s);
                self.depth -= 1;
            }
            _ => walk_stmt(self, s),
        }
    }
}

use rayon::prelude::*;

use crate::kernel::abi::KernelFault;
use crate::kernel::exec::{Block, Prepared};
use crate::kernel::ir::ParLoop;

impl Block {
    /// Run the loop statement `s` described by `pl` for lane `l` in chunks across rayon
    /// workers. Ok(false) when it is not worth it or not possible (the caller then runs it
    /// serially); Ok(true) when the loop ran.
    pub(crate) fn run_par_loop(
        &mut self,
        p: &Prepared,
        s: &crate::kernel::ir::Stmt,
        pl: &ParLoop,
        l: usize,
    ) -> Result<bool, KernelFault> {
        if !self.shared.is_empty() || !self.local.is_empty() {
            return Ok(false);
        }
        // Forks copy the lane data, so every register must have it.
        self.materialise_all();
        let get = |r: u32| self.regs[r as usize][l] as i64 as i128;
        let (start, stop) = (get(pl.ctr), get(pl.stop));
        let step = pl.step.map(get).unwrap_or(1);
        let count = match step {
            0 => return Ok(false),
            st if st > 0 => {
                (stop - start).max(0).div_euclid(st) + ((stop - start).max(0) % st != 0) as i128
            }
            st => {
                (start - stop).max(0).div_euclid(-st) + ((start - stop).max(0) % -st != 0) as i128
            }
        };
        let workers = rayon::current_num_threads() as i128;
        if count < 2 || workers < 2 {
            return Ok(false);
        }
        let chunks = count.min(workers * 4);
        let forks: Vec<Block> = (0..chunks)
            .map(|c| {
                let (lo, hi) = (count * c / chunks, count * (c + 1) / chunks);
                let mut b = self.fork();
                b.regs[pl.ctr as usize][l] = (start + lo * step) as i64 as u64;
                b.regs[pl.stop as usize][l] = (start + hi * step) as i64 as u64;
                b
            })
            .collect();
        let stmt = std::slice::from_ref(s);
        let done: Vec<Result<String, KernelFault>> = forks
            .into_par_iter()
            .map(|mut b| {
                b.run(p, stmt, vec![l as u32])?;
                Ok(std::mem::take(&mut b.printed))
            })
            .collect();
        for r in done {
            self.printed.push_str(&r?);
        }
        self.regs[pl.ctr as usize][l] = (start + count * step) as i64 as u64;
        self.tags[pl.ctr as usize] = crate::kernel::exec::tags::Tag::Var;
        Ok(true)
    }
}
