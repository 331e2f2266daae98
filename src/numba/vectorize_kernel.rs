//! The element-wise kernel behind `@vectorize`, built once per (input kinds, dtypes,
//! rank), and the layout decisions of a call: broadcast strides, and when the arrays may
//! be viewed as 1-D so the simpler kernel runs.

use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::abi::{ArrayArg, KernelArg};
use crate::kernel::builder::Builder;
use crate::kernel::ir::{ArrRef, Op, Special, Stmt};
use crate::kernel::types::{Layout, Ty};
use crate::kernel::CompiledKernel;
use crate::numba::frontend::{FnCtx, FnKind, Val};
use crate::py::error::PyResult;
use crate::py::function::Function;

/// How one input reaches the kernel.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InKind {
    Scalar(DType),
    Array(DType),
}

/// Build the element-wise kernel: inputs (scalars or `ndim`-D arrays broadcast to the
/// output), then the output array; the body is the user function inlined.
pub fn build_kernel(
    func: &Rc<Function>,
    ins: &[InKind],
    arg_tys: &[DType],
    ret: Option<DType>,
    ndim: usize,
) -> PyResult<CompiledKernel> {
    let mut params: Vec<Ty> = ins
        .iter()
        .map(|k| match k {
            InKind::Scalar(d) => Ty::Scalar(*d),
            InKind::Array(d) => Ty::Array {
                dtype: *d,
                ndim,
                layout: Layout::A,
            },
        })
        .collect();
    params.push(Ty::Array {
        dtype: ret.unwrap_or(DType::F64),
        ndim,
        layout: Layout::A,
    });
    let out = ArrRef::Param(ins.len() as u32);
    let mut b = Builder::new(&func.name, params);
    let mut cx = FnCtx::new(func.clone(), FnKind::Kernel, 0);
    use ruff_text_size::Ranged;
    let range = func.def.range();
    cx.set_loc(&mut b, func.def.name.range);
    let i = b.emit(DType::I64, Op::Special(Special::GlobalId(0)));
    let dims: Vec<u32> = (0..ndim)
        .map(|d| b.emit(DType::I64, Op::Dim(out, d as u8)))
        .collect();
    let mut total = dims[0];
    for d in &dims[1..] {
        total = b.emit(DType::I64, Op::Bin(Arith::Mul, total, *d));
    }
    let cond = b.emit(DType::Bool, Op::Cmp(Cmp::Lt, i, total));
    b.begin();
    let idx = if ndim == 1 {
        vec![i]
    } else {
        let mut rem = i;
        let mut idx = vec![0; ndim]; // bounded: one entry per dimension
        for d in (0..ndim).rev() {
            idx[d] = b.emit(DType::I64, Op::Bin(Arith::Mod, rem, dims[d]));
            rem = b.emit(DType::I64, Op::Bin(Arith::FloorDiv, rem, dims[d]));
        }
        idx
    };
    let mut vals = Vec::new();
    for (j, k) in ins.iter().enumerate() {
        let r = match k {
            InKind::Scalar(d) => b.emit(*d, Op::Param(j as u32)),
            InKind::Array(d) => b.emit(*d, Op::Load(ArrRef::Param(j as u32), idx.clone())),
        };
        vals.push(Val::Reg(b.cast(r, arg_tys[j])));
    }
    let r = crate::numba::frontend::inline::inline_call(
        &mut b,
        &mut cx,
        func.clone(),
        vals,
        Vec::new(),
        range,
    )?;
    let Val::Reg(r) = r else {
        return Err(cx.typing("a @vectorize function must return a number", range));
    };
    let rt = ret.unwrap_or(b.ty(r));
    let rr = b.cast(r, rt);
    b.emit_void(Op::Store(out, idx, rr));
    let body = b.end();
    b.push(Stmt::If(cond, body, vec![]));
    let last = b.k.params.len() - 1;
    b.k.params[last] = Ty::Array {
        dtype: rt,
        ndim,
        layout: Layout::A,
    };
    Ok(CompiledKernel::from_ir(b.finish()))
}

/// Strides that view `shape`/`strides` as `target` (0 on broadcast axes).
pub(crate) fn bstrides(shape: &[usize], strides: &[isize], target: &[usize]) -> Vec<isize> {
    let off = target.len() - shape.len();
    (0..target.len())
        .map(|k| {
            if k < off || shape[k - off] == 1 {
                0
            } else {
                strides[k - off]
            }
        })
        .collect()
}

/// The kernel for the call's dimensions, and its 1-D twin for calls whose arrays are all
/// C-contiguous over the same shape: those index by the global id directly, which lets
/// the CPU device run them as typed loops (see [`crate::kernel::exec::stream`]).
pub(crate) struct Kernels {
    pub(crate) nd: Arc<CompiledKernel>,
    pub(crate) flat: Option<Arc<CompiledKernel>>,
}

impl Kernels {
    /// The kernel to launch with `kargs`, flattening the array arguments when it is the
    /// 1-D one.
    pub(crate) fn pick(&self, kargs: &mut [KernelArg]) -> Arc<CompiledKernel> {
        match &self.flat {
            Some(flat) if flatten(kargs) => flat.clone(),
            _ => self.nd.clone(),
        }
    }
}

/// View every array argument as 1-D when each is C-contiguous over one shape (axes of
/// extent 1 may have any stride); false, leaving them alone, otherwise.
fn flatten(kargs: &mut [KernelArg]) -> bool {
    let arrays: Vec<&ArrayArg> = kargs
        .iter()
        .filter_map(|a| match a {
            KernelArg::Array(x) => Some(x),
            KernelArg::Scalar(_) => None,
        })
        .collect();
    let contiguous = |x: &ArrayArg| {
        let mut want = x.dtype.itemsize() as isize;
        for (extent, stride) in x.shape.iter().zip(&x.strides).rev() {
            if *extent != 1 && *stride != want {
                return false;
            }
            want *= *extent as isize;
        }
        true
    };
    let Some(first) = arrays.first() else {
        return false;
    };
    if !arrays
        .iter()
        .all(|x| x.shape == first.shape && contiguous(x))
    {
        return false;
    }
    for a in kargs.iter_mut() {
        if let KernelArg::Array(x) = a {
            x.shape = vec![x.shape.iter().product()];
            x.strides = vec![x.dtype.itemsize() as isize];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrays::dtype::Scalar;
    use crate::kernel::abi::ArgMem;

    fn arg(shape: &[usize], strides: &[isize]) -> KernelArg {
        KernelArg::Array(ArrayArg {
            mem: ArgMem::Host(Arc::new(crate::arrays::buffer::Buffer::zeroed(8).unwrap())),
            offset: 0,
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            dtype: DType::F32,
        })
    }

    fn shape_of(a: &KernelArg) -> (Vec<usize>, Vec<isize>) {
        match a {
            KernelArg::Array(x) => (x.shape.clone(), x.strides.clone()),
            KernelArg::Scalar(_) => panic!("an array"),
        }
    }

    #[test]
    fn only_contiguous_arguments_of_one_shape_are_flattened() {
        let scalar = KernelArg::Scalar(Scalar::F32(1.0));
        let mut c = vec![arg(&[2, 3], &[12, 4]), scalar, arg(&[2, 3], &[12, 4])];
        assert!(flatten(&mut c));
        assert_eq!(shape_of(&c[0]), (vec![6], vec![4]));
        assert_eq!(shape_of(&c[2]), (vec![6], vec![4]));
        // An axis of extent 1 may have any stride (broadcasting gives it 0).
        let mut one = vec![arg(&[1, 3], &[0, 4]), arg(&[1, 3], &[12, 4])];
        assert!(flatten(&mut one));
        for (shape, strides) in [
            (vec![2, 3], vec![4, 8]),  // transposed
            (vec![2, 3], vec![0, 4]),  // broadcast rows
            (vec![2, 3], vec![24, 4]), // every other row
        ] {
            let mut v = vec![arg(&shape, &strides), arg(&[2, 3], &[12, 4])];
            assert!(!flatten(&mut v), "{shape:?} {strides:?}");
            assert_eq!(shape_of(&v[0]), (shape, strides));
        }
    }
}
