//! `print()` in compiled code: each argument's pieces as Python shows them (tuples,
//! `cuda.threadIdx` as `(x, y, z)`), and CUDA's limit of 32 items, past which Numba warns
//! and the kernel prints its raw format string.

use ruff_text_size::TextRange;

use crate::arrays::dtype::DType;
use crate::kernel::builder::Builder;
use crate::kernel::ir::{Op, PrintArg};
use crate::numba::frontend::expr::{describe, scalar};
use crate::numba::frontend::{FnCtx, Val};
use crate::py::error::PyResult;

/// `print(*args)`.
pub fn lower_print(
    b: &mut Builder,
    cx: &mut FnCtx,
    args: Vec<Val>,
    range: TextRange,
) -> PyResult<Val> {
    if args.len() > PRINT_MAX_ITEMS {
        // CUDA's vprintf takes at most 32 arguments: Numba warns and the kernel
        // prints its raw format string instead.
        let mut fmts = Vec::with_capacity(args.len());
        for a in &args {
            fmts.push(print_format(b, a));
        }
        b.k.warnings.push((
            "NumbaWarning".into(),
            "CUDA print() cannot print more than 32 items. The raw format string will be emitted by the kernel instead.".into(),
        ));
        b.emit_void(Op::Print(vec![PrintArg::Str(fmts.join(" "))]));
        return Ok(Val::None);
    }
    let mut out = Vec::new();
    for a in args {
        print_arg(b, cx, a, &mut out, range)?;
    }
    b.emit_void(Op::Print(out));
    Ok(Val::None)
}

/// The most items one kernel `print()` shows (the limit of CUDA's vprintf).
const PRINT_MAX_ITEMS: usize = 32;

/// The printf conversion Numba's CUDA `print()` uses for one argument, shown verbatim when
/// a call has too many items.
fn print_format(b: &Builder, a: &Val) -> String {
    match a {
        Val::Reg(r) => {
            let d = b.ty(*r);
            if d.is_float() {
                "%f".into()
            } else if d == DType::Bool {
                "%s".into()
            } else if d.is_signed() {
                "%lld".into()
            } else {
                "%llu".into()
            }
        }
        Val::Tuple(items) => {
            let inner: Vec<String> = items.iter().map(|x| print_format(b, x)).collect();
            if inner.len() == 1 {
                format!("({},)", inner[0])
            } else {
                format!("({})", inner.join(", "))
            }
        }
        Val::Path(_) => "(%d, %d, %d)".into(),
        _ => "%s".into(),
    }
}

/// The pieces `print()` shows for one argument: tuples as Python writes them
/// (`(1, (2,), 3.000000)`), `cuda.threadIdx` and friends as `(x, y, z)`.
fn print_arg(
    b: &mut Builder,
    cx: &mut FnCtx,
    a: Val,
    out: &mut Vec<PrintArg>,
    range: TextRange,
) -> PyResult<()> {
    match a {
        Val::Str(s) => out.push(PrintArg::Str(s)),
        Val::Reg(r) => out.push(PrintArg::Reg(r)),
        Val::None => out.push(PrintArg::Str("None".into())),
        Val::Tuple(items) => {
            out.push(PrintArg::Open("(".into()));
            let n = items.len();
            for (i, it) in items.into_iter().enumerate() {
                if i > 0 {
                    out.push(PrintArg::Close(",".into()));
                }
                print_arg(b, cx, it, out, range)?;
            }
            if n == 1 {
                out.push(PrintArg::Close(",".into()));
            }
            out.push(PrintArg::Close(")".into()));
        }
        Val::Path(p)
            if matches!(
                p.as_str(),
                "cuda.threadIdx" | "cuda.blockIdx" | "cuda.blockDim" | "cuda.gridDim"
            ) =>
        {
            let mut xyz = Vec::new();
            for c in ["x", "y", "z"] {
                let v = Val::Path(p.clone());
                xyz.push(crate::numba::frontend::expr::attribute(b, cx, v, c, range)?);
            }
            print_arg(b, cx, Val::Tuple(xyz), out, range)?;
        }
        other => match scalar(b, cx, other.clone(), range) {
            Ok(r) => out.push(PrintArg::Reg(r)),
            Err(_) => {
                return Err(cx.typing(
                    format!("cannot print {} in a kernel", describe(b, &other)),
                    range,
                ))
            }
        },
    }
    Ok(())
}
