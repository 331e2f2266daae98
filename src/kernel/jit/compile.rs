//! One kernel specialisation compiled to native code: which lowering its analyses pick
//! (blockwise regions, lockstep rounds, any order, flat grid-stride loops), the host ISA,
//! the interpreter's helpers declared as imports, the function `lower.rs` builds, and the
//! typed IR, Cranelift IR and machine code `NBCUDA_JIT_DUMP` prints.

use std::collections::HashMap;
use std::time::Instant;

use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};

use crate::kernel::ir::Kernel;
use crate::kernel::jit::helpers::Ctx;
use crate::kernel::jit::{affine, flat, helpers, lockstep, lower, order, regions, JitCode};

pub(super) fn compile(k: &Kernel, share: &[usize]) -> Result<JitCode, String> {
    let start = Instant::now();
    let plan = if regions::blockwise(k) {
        Some(regions::plan(k)?)
    } else {
        None
    };
    let ord = if plan.is_none() && lockstep::lockstep(k).is_none() {
        order::of(k, &affine::analyse(k, None))
    } else {
        None
    };
    // `lower.rs` builds the flat code for the same analysis.
    let grid_stride = plan.as_ref().map_or_else(|| flat::of(k), |_| None);
    let mut flag_builder = settings::builder();
    flag_builder
        .set("opt_level", "speed")
        .map_err(|e| e.to_string())?;
    let isa = cranelift_native::builder()
        .map_err(|e| e.to_string())?
        .finish(settings::Flags::new(flag_builder))
        .map_err(|e| e.to_string())?;
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    let table = helpers::table();
    for (name, ptr, _, _) in &table {
        jb.symbol(*name, *ptr);
    }
    let mut module = JITModule::new(jb);
    let ptr_ty = module.target_config().pointer_type();
    let mut ids = HashMap::new();
    for (name, _, params, ret) in &table {
        let mut sig = module.make_signature();
        let ty = |t: &helpers::Ty| match t {
            helpers::Ty::I => ptr_ty,
            helpers::Ty::F32 => cranelift_codegen::ir::types::F32,
            helpers::Ty::F64 => cranelift_codegen::ir::types::F64,
        };
        for p in params {
            sig.params.push(cranelift_codegen::ir::AbiParam::new(ty(p)));
        }
        if let Some(r) = ret {
            sig.returns
                .push(cranelift_codegen::ir::AbiParam::new(ty(r)));
        }
        let id = module
            .declare_function(name, Linkage::Import, &sig)
            .map_err(|e| e.to_string())?;
        ids.insert(*name, id);
    }
    let mut ctx = module.make_context();
    lower::kernel_signature(&mut ctx.func.signature);
    let mut fctx = FunctionBuilderContext::new();
    {
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        lower::Lower::build(b, &mut module, &ids, k, share, plan.as_ref(), ord.as_ref())?;
    }
    let id = module
        .declare_function("kernel", Linkage::Local, &ctx.func.signature)
        .map_err(|e| e.to_string())?;
    let dump = std::env::var_os("NBCUDA_JIT_DUMP").is_some();
    if dump {
        eprintln!(
            "nbcuda jit: {} typed IR\n{:#?}\nnbcuda jit: {} Cranelift IR\n{}",
            k.name,
            k.body,
            k.name,
            ctx.func.display()
        );
        ctx.set_disasm(true);
    }
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("{e:?}"))?;
    if let Some(vcode) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
        // The IR as optimised (hoisted, merged): what the machine code was selected from.
        eprintln!(
            "nbcuda jit: {} optimised IR\n{}\nnbcuda jit: {} machine code\n{vcode}",
            k.name,
            ctx.func.display(),
            k.name
        );
    }
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let ptr = module.get_finalized_function(id);
    // SAFETY: `ptr` is the finalised code of a function built with `kernel_signature`
    // (one pointer-sized argument, one i64 result, the platform's C calling convention).
    let entry =
        unsafe { std::mem::transmute::<*const u8, unsafe extern "C" fn(*mut Ctx) -> i64>(ptr) };
    Ok(JitCode {
        entry,
        compile_time: start.elapsed(),
        lockstep: lockstep::lockstep(k).is_some(),
        words: plan.as_ref().map_or(0, |p| p.words),
        flat: plan.as_ref().map_or(0, |p| p.flat),
        once: plan.as_ref().map_or(0, |p| p.once_count()),
        order: ord,
        grid_stride,
        module: Some(module),
    })
}
