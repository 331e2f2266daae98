//! The built-in device kernels (kernels/*.cu), embedded in the binary. Each source is
//! compiled on its own with the shared header in front.

const COMMON: &str = include_str!("../../../kernels/common.cuh");

/// (module name, CUDA C source without the shared header).
pub const SOURCES: &[(&str, &str)] = &[
    ("fill", include_str!("../../../kernels/fill.cu")),
    ("copy", include_str!("../../../kernels/copy.cu")),
    ("cast", include_str!("../../../kernels/cast.cu")),
    ("reduce", include_str!("../../../kernels/reduce.cu")),
    (
        "elementwise",
        include_str!("../../../kernels/elementwise.cu"),
    ),
];

/// The full, compilable source of one built-in module.
pub fn source(module: &str) -> Option<String> {
    SOURCES
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, body)| format!("{COMMON}\n{body}"))
}

/// Suffix of a dtype in built-in kernel names (`nb_fill_f32`).
pub fn dtype_suffix(d: crate::arrays::dtype::DType) -> &'static str {
    use crate::arrays::dtype::DType::*;
    match d {
        Bool => "bool",
        I8 => "i8",
        I16 => "i16",
        I32 => "i32",
        I64 => "i64",
        U8 => "u8",
        U16 => "u16",
        U32 => "u32",
        U64 => "u64",
        F16 => "f16",
        F32 => "f32",
        F64 => "f64",
        C64 => "c64",
        C128 => "c128",
    }
}

/// The entry points a module defines, read from the PTX NVRTC produced (`.entry name(`).
pub fn entries_in_ptx(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l
                .strip_prefix(".visible .entry ")
                .or_else(|| l.strip_prefix(".entry "))?;
            Some(rest.split('(').next()?.trim().to_string())
        })
        .collect()
}
