//! Array views in compiled code: basic slicing (`a[i:j:k]`, `a[i, :]`), partial indexing
//! (`a[i]` of a 2-D array) and `arr.reshape(shape)`.
//!
//! Arrays are never values in registers (see [`ArrRef`]), so a view stays a compile-time
//! value: its base array plus, per base axis, how a view index reaches it. Every access
//! through a view is rewritten here into a plain access of the base array, so both
//! executors need nothing new but [`Op::CheckIndex`], which checks an index against the
//! view's own (narrower) extents and raises the same IndexError as a plain array.

use ruff_python_ast::Expr;
use ruff_text_size::{Ranged, TextRange};

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp, Unary};
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, Op, Reg};
use crate::kernel::types::numba_name;
use crate::numba::frontend::expr::{expr, scalar};
use crate::numba::frontend::{FnCtx, Val};
use crate::py::error::PyResult;

/// How one axis of the base array is seen through a view.
#[derive(Clone, Debug)]
pub enum Axis {
    /// Kept whole: the view's index goes to the base unchanged, so the base access's own
    /// bounds check (with negative wraparound) applies and no registers are needed.
    Full,
    /// Removed by an integer index (`a[i]`, `a[i, :]`).
    Fixed(Reg),
    /// Sliced: view index `k` (0 <= k < len) is base index `start + k * step`.
    Slice { start: Reg, step: Reg, len: Reg },
}

#[derive(Clone, Debug)]
pub struct ArrView {
    pub base: ArrRef,
    pub dtype: DType,
    /// One per axis of the base array.
    pub axes: Vec<Axis>,
    /// `reshape`: the view's shape over the base's elements taken in C order (the base is
    /// then a whole array: every axis `Full`).
    pub reshape: Option<Vec<Reg>>,
}

/// One item of a subscript: an integer index or a slice's optional bounds.
pub enum Item {
    Index(Reg),
    Slice(Option<Reg>, Option<Reg>, Option<Reg>),
}

fn k64(b: &mut Builder, v: i64) -> Reg {
    b.konst(Scalar::I64(v))
}
fn bin(b: &mut Builder, op: Arith, x: Reg, y: Reg) -> Reg {
    b.emit(DType::I64, Op::Bin(op, x, y))
}
fn lt(b: &mut Builder, x: Reg, y: Reg) -> Reg {
    b.emit(DType::Bool, Op::Cmp(Cmp::Lt, x, y))
}
fn sel(b: &mut Builder, c: Reg, x: Reg, y: Reg) -> Reg {
    b.emit(DType::I64, Op::Select(c, x, y))
}

/// Python's negative wraparound of an index already known to be in `-n..n`.
fn wrap(b: &mut Builder, i: Reg, n: Reg) -> Reg {
    let zero = k64(b, 0);
    let neg = lt(b, i, zero);
    let up = bin(b, Arith::Add, i, n);
    sel(b, neg, up, i)
}

impl ArrView {
    pub fn whole(base: ArrRef, dtype: DType, ndim: usize) -> ArrView {
        ArrView {
            base,
            dtype,
            axes: vec![Axis::Full; ndim], // bounded: ndim of a typed array
            reshape: None,
        }
    }

    /// Row `i` of an array (`a[i]`): the leading axis fixed, the others whole.
    pub fn row(base: ArrRef, dtype: DType, ndim: usize, i: Reg) -> ArrView {
        let mut v = ArrView::whole(base, dtype, ndim);
        v.axes[0] = Axis::Fixed(i);
        v
    }

    pub fn of(v: &Val) -> Option<ArrView> {
        match v {
            Val::Array(a, d, n) => Some(ArrView::whole(*a, *d, *n)),
            Val::View(v) => Some((**v).clone()),
            _ => None,
        }
    }

    /// A whole array stays a plain array value, so code that never slices lowers as before.
    pub fn into_val(self) -> Val {
        if self.reshape.is_none() && self.axes.iter().all(|a| matches!(a, Axis::Full)) {
            Val::Array(self.base, self.dtype, self.axes.len())
        } else {
            Val::View(Box::new(self))
        }
    }

    /// Base axes the view still has, in order.
    fn visible(&self) -> Vec<usize> {
        (0..self.axes.len())
            .filter(|&ax| !matches!(self.axes[ax], Axis::Fixed(_)))
            .collect()
    }

    pub fn ndim(&self) -> usize {
        match &self.reshape {
            Some(dims) => dims.len(),
            None => self.visible().len(),
        }
    }

    fn sliced(&self) -> bool {
        self.axes.iter().any(|a| matches!(a, Axis::Slice { .. }))
    }

    /// Extent of the view's axis `k` (int64).
    pub fn extent(&self, b: &mut Builder, k: usize) -> Reg {
        if let Some(dims) = &self.reshape {
            return dims[k];
        }
        let ax = self.visible()[k];
        match &self.axes[ax] {
            Axis::Slice { len, .. } => *len,
            _ => b.emit(DType::I64, Op::Dim(self.base, ax as u8)),
        }
    }

    pub fn shape(&self, b: &mut Builder) -> Vec<Reg> {
        (0..self.ndim()).map(|k| self.extent(b, k)).collect()
    }

    /// The base element at view index `idx` (one int64 register per view axis): the
    /// array and base indices for a Load, Store or Atomic. Emits the view's bounds check.
    pub fn element(&self, b: &mut Builder, idx: Vec<Reg>) -> (ArrRef, Vec<Reg>) {
        if let Some(dims) = &self.reshape {
            b.emit_void(Op::CheckIndex(idx.clone(), dims.clone()));
            // The C-order linear position, then the base index that holds it.
            let mut lin = k64(b, 0);
            for (i, n) in idx.iter().zip(dims) {
                let w = wrap(b, *i, *n);
                let scaled = bin(b, Arith::Mul, lin, *n);
                lin = bin(b, Arith::Add, scaled, w);
            }
            let mut out = vec![lin; self.axes.len()]; // bounded: ndim of a typed array
            for ax in (1..self.axes.len()).rev() {
                let n = b.emit(DType::I64, Op::Dim(self.base, ax as u8));
                // A zero extent means no element passes the check above; max() only
                // keeps the division defined.
                let one = k64(b, 1);
                let n = bin(b, Arith::Max, n, one);
                out[ax] = bin(b, Arith::Mod, lin, n);
                lin = bin(b, Arith::FloorDiv, lin, n);
            }
            out[0] = lin;
            return (self.base, out);
        }
        if self.sliced() {
            let shape = self.shape(b);
            b.emit_void(Op::CheckIndex(idx.clone(), shape));
        }
        let mut it = idx.into_iter();
        let out = self
            .axes
            .iter()
            .map(|a| match a {
                // invariant: callers pass one index per non-fixed axis (ndim() of them)
                Axis::Full => it.next().expect("one index per view axis"),
                Axis::Fixed(r) => *r,
                Axis::Slice { start, step, len } => {
                    // invariant: callers pass one index per non-fixed axis (ndim() of them)
                    let i = it.next().expect("one index per view axis");
                    let w = wrap(b, i, *len);
                    let off = bin(b, Arith::Mul, w, *step);
                    bin(b, Arith::Add, *start, off)
                }
            })
            .collect();
        (self.base, out)
    }

    /// The view `self[items]` for items that leave at least one axis.
    pub fn subscript(
        mut self,
        b: &mut Builder,
        cx: &FnCtx,
        items: Vec<Item>,
        range: TextRange,
    ) -> PyResult<ArrView> {
        if self.reshape.is_some() {
            return Err(cx.unsupported(
                "slicing or partial indexing of a reshaped array in a kernel (index single elements)",
                range,
            ));
        }
        let vis = self.visible();
        if items.len() > vis.len() {
            return Err(cx.typing(
                format!(
                    "cannot index a {}-dimensional array with {} indices",
                    vis.len(),
                    items.len()
                ),
                range,
            ));
        }
        for (item, ax) in items.into_iter().zip(vis) {
            self.axes[ax] = match (self.axes[ax].clone(), item) {
                (Axis::Full, Item::Index(i)) => Axis::Fixed(i),
                (Axis::Slice { start, step, len }, Item::Index(i)) => {
                    b.emit_void(Op::CheckIndex(vec![i], vec![len]));
                    let w = wrap(b, i, len);
                    let off = bin(b, Arith::Mul, w, step);
                    Axis::Fixed(bin(b, Arith::Add, start, off))
                }
                // `:` keeps the axis as it is.
                (a, Item::Slice(None, None, None)) => a,
                (Axis::Full, Item::Slice(lo, hi, st)) => {
                    let n = b.emit(DType::I64, Op::Dim(self.base, ax as u8));
                    let (start, step, len) = clamp(b, cx, n, lo, hi, st, range)?;
                    Axis::Slice { start, step, len }
                }
                (Axis::Slice { start, step, len }, Item::Slice(lo, hi, st)) => {
                    let (s2, st2, len2) = clamp(b, cx, len, lo, hi, st, range)?;
                    let off = bin(b, Arith::Mul, s2, step);
                    Axis::Slice {
                        start: bin(b, Arith::Add, start, off),
                        step: bin(b, Arith::Mul, step, st2),
                        len: len2,
                    }
                }
                (Axis::Fixed(_), _) => unreachable!("fixed axes are not visible"),
            };
        }
        Ok(self)
    }
}

/// Python's `slice.indices(n)`: bounds clamped into the axis (negative ones counted from
/// the end), as (start, step, length), all int64.
fn clamp(
    b: &mut Builder,
    cx: &FnCtx,
    n: Reg,
    lo: Option<Reg>,
    hi: Option<Reg>,
    st: Option<Reg>,
    range: TextRange,
) -> PyResult<(Reg, Reg, Reg)> {
    let step = match st {
        Some(s) => s,
        None => k64(b, 1),
    };
    // The step's sign picks the defaults and the clamping range; a literal step (the
    // usual case) decides it here instead of at run time.
    let sign = b.constant(step).map(|c| c.as_i64());
    if sign == Some(0) {
        return Err(cx.err("ValueError", "slice step cannot be zero", range));
    }
    let zero = k64(b, 0);
    let pos = match sign {
        Some(_) => None,
        None => Some(b.emit(DType::Bool, Op::Cmp(Cmp::Gt, step, zero))),
    };
    let pick = |b: &mut Builder, up: Reg, down: Reg| match sign {
        Some(s) if s > 0 => up,
        Some(_) => down,
        // invariant: `pos` is Some exactly when the step's sign is not known (`sign` None)
        None => sel(b, pos.expect("a run-time step"), up, down),
    };
    let one = k64(b, 1);
    let minus1 = k64(b, -1);
    let last = bin(b, Arith::Sub, n, one);
    let low = pick(b, zero, minus1);
    let high = pick(b, n, last);
    let adjust = |b: &mut Builder, x: Reg| {
        let neg = lt(b, x, zero);
        let up = bin(b, Arith::Add, x, n);
        let x = sel(b, neg, up, x);
        let x = bin(b, Arith::Max, x, low);
        bin(b, Arith::Min, x, high)
    };
    let start = match lo {
        Some(x) => adjust(b, x),
        None => pick(b, zero, last),
    };
    let stop = match hi {
        Some(x) => adjust(b, x),
        None => pick(b, n, minus1),
    };
    // ceil(distance / |step|), never negative; max(|step|, 1) keeps a run-time zero step
    // from dividing by zero.
    let len_for = |b: &mut Builder, from: Reg, to: Reg, mag: Reg| {
        let d = bin(b, Arith::Sub, to, from);
        let d = bin(b, Arith::Add, d, mag);
        let d = bin(b, Arith::Sub, d, one);
        let q = bin(b, Arith::FloorDiv, d, mag);
        bin(b, Arith::Max, q, zero)
    };
    let len = match sign {
        Some(s) if s > 0 => len_for(b, start, stop, step),
        Some(_) => {
            let mag = b.emit(DType::I64, Op::Un(Unary::Neg, step));
            len_for(b, stop, start, mag)
        }
        None => {
            let neg = b.emit(DType::I64, Op::Un(Unary::Neg, step));
            let mag = b.emit(DType::I64, Op::Bin(Arith::Max, step, neg));
            let mag = bin(b, Arith::Max, mag, one);
            let up = len_for(b, start, stop, mag);
            let down = len_for(b, stop, start, mag);
            // invariant: `pos` is Some exactly when the step's sign is not known
            sel(b, pos.expect("a run-time step"), up, down)
        }
    };
    Ok((start, step, len))
}

/// True when a subscript has a slice (`a[1:]`, `a[i, :]`).
pub fn has_slice(slice: &Expr) -> bool {
    matches!(slice, Expr::Slice(_))
        || matches!(slice, Expr::Tuple(t) if t.elts.iter().any(|x| matches!(x, Expr::Slice(_))))
}

/// An integer index or slice bound as int64.
fn int_reg(b: &mut Builder, cx: &mut FnCtx, e: &Expr) -> PyResult<Reg> {
    let v = expr(b, cx, e)?;
    let r = scalar(b, cx, v, e.range())?;
    let t = b.ty(r);
    if t.is_float() {
        return Err(cx.typing(
            format!("array indices must be integers, got {}", numba_name(t)),
            e.range(),
        ));
    }
    Ok(b.cast(r, DType::I64))
}

/// The items of a subscript that has slices.
pub fn slice_items(b: &mut Builder, cx: &mut FnCtx, slice: &Expr) -> PyResult<Vec<Item>> {
    let elts: Vec<&Expr> = match slice {
        Expr::Tuple(t) => t.elts.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for e in elts {
        out.push(match e {
            Expr::Slice(s) => {
                let mut bound = |x: &Option<Box<Expr>>| -> PyResult<Option<Reg>> {
                    match x.as_deref() {
                        None | Some(Expr::NoneLiteral(_)) => Ok(None),
                        Some(x) => int_reg(b, cx, x).map(Some),
                    }
                };
                let lo = bound(&s.lower)?;
                let hi = bound(&s.upper)?;
                let st = bound(&s.step)?;
                Item::Slice(lo, hi, st)
            }
            Expr::EllipsisLiteral(_) => {
                return Err(cx.unsupported("'...' in an array index in a kernel", e.range()))
            }
            other => Item::Index(int_reg(b, cx, other)?),
        });
    }
    Ok(out)
}

/// `arr.reshape(shape)` / `arr.reshape(d0, d1, ...)` of a whole array; one dimension may
/// be -1 (inferred from the size). Elements are taken in C order.
pub fn reshape(
    b: &mut Builder,
    cx: &mut FnCtx,
    view: ArrView,
    args: Vec<Val>,
    range: TextRange,
) -> PyResult<Val> {
    if view.reshape.is_some() || !view.axes.iter().all(|a| matches!(a, Axis::Full)) {
        return Err(cx.unsupported(
            "reshape of an array view in a kernel (reshape the whole array)",
            range,
        ));
    }
    // The executors address at most 3 axes of an array.
    if view.axes.len() > 3 {
        return Err(cx.unsupported(
            "reshape in a kernel of an array with more than 3 dimensions",
            range,
        ));
    }
    let items = match args.as_slice() {
        [Val::Tuple(t)] => t.clone(),
        _ => args,
    };
    if items.is_empty() {
        return Err(cx.typing("reshape() needs a shape of at least one dimension", range));
    }
    let mut dims = Vec::new();
    for it in items {
        let r = scalar(b, cx, it, range)?;
        if !b.ty(r).is_integer() {
            return Err(cx.typing(
                format!(
                    "reshape() shape must be integers, got {}",
                    numba_name(b.ty(r))
                ),
                range,
            ));
        }
        dims.push(b.cast(r, DType::I64));
    }
    let fixed =
        |b: &Builder, d: Reg| matches!(b.constant(d).map(|c| c.as_i64()), Some(c) if c >= 0);
    if dims.iter().all(|d| fixed(b, *d)) {
        // No -1 to infer: registers for the size would be computed and never read.
        return Ok(Val::View(Box::new(ArrView {
            reshape: Some(dims),
            ..view
        })));
    }
    let mut size = k64(b, 1);
    for ax in 0..view.axes.len() {
        let n = b.emit(DType::I64, Op::Dim(view.base, ax as u8));
        size = bin(b, Arith::Mul, size, n);
    }
    let zero = k64(b, 0);
    let one = k64(b, 1);
    let mut known = one;
    for d in &dims {
        let f = match b.constant(*d).map(|c| c.as_i64()) {
            Some(c) if c >= 0 => *d,
            Some(_) => one,
            None => {
                let neg = lt(b, *d, zero);
                sel(b, neg, one, *d)
            }
        };
        known = bin(b, Arith::Mul, known, f);
    }
    let known = bin(b, Arith::Max, known, one);
    let missing = bin(b, Arith::FloorDiv, size, known);
    let dims = dims
        .into_iter()
        .map(|d| match b.constant(d).map(|c| c.as_i64()) {
            Some(c) if c >= 0 => d,
            Some(_) => missing,
            None => {
                let neg = lt(b, d, zero);
                sel(b, neg, missing, d)
            }
        })
        .collect();
    Ok(Val::View(Box::new(ArrView {
        reshape: Some(dims),
        ..view
    })))
}
