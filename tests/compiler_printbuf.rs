//! `print()` in kernels on the CUDA device: the host-side decoding of the print buffer must
//! give the text the CPU executor prints for the same values, and only printing kernels take
//! the hidden buffer parameter. No GPU needed: the bytes a kernel would write are built here.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::kernel::abi::KernelArg;
use nbcuda::kernel::codegen::cuda_source;
use nbcuda::kernel::exec::scalar_ops::scalar_bits;
use nbcuda::kernel::printbuf::{self, Piece, HEADER_WORDS};
use nbcuda::kernel::types::Ty;
use nbcuda::kernel::CompiledKernel;

/// The bits a generated kernel stores for value `v` printed as `dtype` (the CPU executor's
/// register representation, which the generated CUDA C reproduces).
fn bits(v: Scalar, dtype: DType) -> u64 {
    scalar_bits(&v.cast(dtype))
}

/// A print buffer holding `records` (site, thread, block, seq, values) in the given order.
fn buffer(records: &[(u32, u32, u64, u32, Vec<u64>)]) -> Vec<u8> {
    let mut words = Vec::new();
    for (site, tid, block, seq, vals) in records {
        words.extend([*site as u64 | (*tid as u64) << 32, *block, *seq as u64]);
        words.extend_from_slice(vals);
    }
    let mut out = vec![words.len() as u64, 0, printbuf::CAPACITY_WORDS as u64, 0];
    assert_eq!(out.len(), HEADER_WORDS);
    out.extend(words);
    out.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn value_types(k: &CompiledKernel, site: usize) -> Vec<DType> {
    printbuf::sites(&k.ir)[site]
        .iter()
        .filter_map(|p| match p {
            Piece::Value(d) => Some(*d),
            Piece::Text(_) | Piece::Open(_) | Piece::Close(_) => None,
        })
        .collect()
}

#[test]
fn decoded_values_match_the_cpu_executor_for_every_type() {
    let params = [
        Ty::Scalar(DType::I32),
        Ty::Scalar(DType::I64),
        Ty::Scalar(DType::U64),
        Ty::Scalar(DType::F32),
        Ty::Scalar(DType::F64),
        Ty::Scalar(DType::U8),
        Ty::Scalar(DType::F64),
    ];
    let k = kernel(
        "def p(a, b, c, d, e, f, g):\n    print('vals', a, b, c, d, e, f, g > 0, 'end')\n    print()\n",
        &params,
    );
    let args = [
        Scalar::I32(-7),
        Scalar::I64(i64::MIN),
        Scalar::U64(u64::MAX),
        Scalar::F32(1.0 / 3.0),
        Scalar::F64(-2.5e10),
        Scalar::U8(200),
        Scalar::F64(f64::NAN),
    ];
    let kargs: Vec<KernelArg> = args.iter().map(|s| KernelArg::Scalar(*s)).collect();
    let cpu = launch(&k, cfg(1, 1), &kargs).unwrap().printed;

    let types = value_types(&k, 0);
    assert_eq!(types.len(), 7, "seven values at the first print site");
    let mut vals: Vec<u64> = args[..6]
        .iter()
        .zip(&types)
        .map(|(v, d)| bits(*v, *d))
        .collect();
    // `g > 0` with g = NaN is False.
    vals.push(bits(Scalar::Bool(false), types[6]));
    let bytes = buffer(&[(1, 0, 0, 1, vec![]), (0, 0, 0, 0, vals)]);
    let gpu = printbuf::decode("p", &printbuf::sites(&k.ir), &bytes);
    assert_eq!(gpu, cpu);
    assert!(cpu.starts_with("vals -7 -9223372036854775808 18446744073709551615 0.333333"));
}

#[test]
fn lines_of_many_threads_come_out_in_the_cpu_executors_order() {
    let k = kernel(
        "def q(x):\n    i = cuda.threadIdx.x\n    b = cuda.blockIdx.x\n    print('t', b, i, x)\n    for j in range(2):\n        print(i * 10 + j)\n",
        &[Ty::Scalar(DType::F32)],
    );
    let cpu = launch(&k, cfg(2, 3), &[KernelArg::Scalar(Scalar::F32(2.5))])
        .unwrap()
        .printed;
    let (t0, t1) = (value_types(&k, 0), value_types(&k, 1));
    let mut records = Vec::new();
    for b in 0..2u64 {
        for t in 0..3u32 {
            let first = vec![
                bits(Scalar::I64(b as i64), t0[0]),
                bits(Scalar::I64(t as i64), t0[1]),
                bits(Scalar::F32(2.5), t0[2]),
            ];
            records.push((0, t, b, 0, first));
            for j in 0..2u32 {
                let v = bits(Scalar::I64((t * 10 + j) as i64), t1[0]);
                records.push((1, t, b, 1 + j, vec![v]));
            }
        }
    }
    // A GPU appends in whatever order its threads reach the atomic: scramble.
    records.reverse();
    records.swap(1, 7);
    let gpu = printbuf::decode("q", &printbuf::sites(&k.ir), &buffer(&records));
    assert_eq!(gpu, cpu);
    assert_eq!(cpu.lines().count(), 18);
}

#[test]
fn only_printing_kernels_take_the_hidden_buffer() {
    let quiet = kernel("def quiet(a):\n    a[0] = 1\n", &[arr1(DType::F32, 1)]);
    let src = cuda_source(&quiet);
    assert!(!src.contains("nb_print"), "{src}");

    let loud = kernel(
        "def loud(a):\n    if a[0] > 0:\n        print('pos', a[0])\n    else:\n        print('neg')\n    print(a[0], True)\n",
        &[arr1(DType::F32, 1)],
    );
    let src = cuda_source(&loud);
    assert!(
        src.contains("unsigned long long *nb_print, unsigned long long *nb_fault)"),
        "{src}"
    );
    assert!(!src.contains("vprintf"), "{src}");
    // One call per site, numbered in the order the host decodes them.
    let sites = printbuf::sites(&loud.ir);
    assert_eq!(sites.len(), 3);
    for (i, site) in sites.iter().enumerate() {
        let n = site.iter().filter(|p| matches!(p, Piece::Value(_))).count();
        let call = format!("nb_print_begin(nb_print, {i}u, {n}u, nb_print_seq++)");
        assert_eq!(src.matches(&call).count(), 1, "{call} in\n{src}");
    }
}

#[test]
fn tuples_and_dim3_print_as_python_writes_them() {
    // print((1, (2,), 3.0)) in CPython shows `(1, (2,), 3.0)`; kernels format floats with
    // six decimals, as Numba's %f does. cuda.threadIdx prints as a 3-tuple.
    let k = kernel(
        "def p(a, b):\n    t = (a, (b,), 2.5)\n    print('t', t, ())\n    print(cuda.threadIdx)\n",
        &[Ty::Scalar(DType::I64), Ty::Scalar(DType::F32)],
    );
    let cpu = launch(
        &k,
        cfg(1, 1),
        &[
            KernelArg::Scalar(Scalar::I64(3)),
            KernelArg::Scalar(Scalar::F32(1.5)),
        ],
    )
    .unwrap()
    .printed;
    assert_eq!(cpu, "t (3, (1.500000,), 2.500000) ()\n(0, 0, 0)\n");
    let (t0, t1) = (value_types(&k, 0), value_types(&k, 1));
    let first = vec![
        bits(Scalar::I64(3), t0[0]),
        bits(Scalar::F32(1.5), t0[1]),
        bits(Scalar::F64(2.5), t0[2]),
    ];
    let second = t1.iter().map(|d| bits(Scalar::I64(0), *d)).collect();
    let bytes = buffer(&[(0, 0, 0, 0, first), (1, 0, 0, 1, second)]);
    assert_eq!(printbuf::decode("p", &printbuf::sites(&k.ir), &bytes), cpu);
}
