//! `print()` inside kernels on the CUDA device: the generated CUDA C appends one record per
//! printing thread to a device buffer (a hidden last kernel parameter, only for kernels
//! that print), and after the launch the host turns the records into the same text the CPU
//! executor prints, so the lines reach the cell's output on both devices.
//!
//! The buffer is an array of 64-bit words: a header of [`HEADER_WORDS`] words (records'
//! cursor in words, dropped-record count, capacity of the record area in words, unused),
//! then the records. A record is `site | thread << 32`, the linear block index, the
//! thread's print sequence number, and one word per value, holding the value's bits the way
//! the CPU executor keeps registers (floats as their IEEE bits, signed integers
//! sign-extended, unsigned ones zero-extended, bools as 0/1). A thread reserves its record
//! with one atomic add on the cursor; a record that does not fit is counted, not written,
//! and every later reservation lies further out, so the records below the cursor are
//! complete.

use crate::arrays::dtype::DType;
use crate::kernel::exec::scalar_ops::{f32b, f64b};
use crate::kernel::ir::{Kernel, Op, PrintArg};

/// Words before the first record.
pub const HEADER_WORDS: usize = 4;
/// Words of a record before its values.
pub const RECORD_HEAD_WORDS: usize = 3;
/// Record area per launch: 4 MiB, four times the driver's default printf FIFO.
pub const CAPACITY_WORDS: usize = (4 << 20) / 8;

/// One `print()` call of a kernel: literal text and typed values, in argument order.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String),
    Value(DType),
    /// Punctuation that binds to the next piece (`(`) or the previous one (`,`, `)`).
    Open(String),
    Close(String),
}

/// Join one `print()` call's pieces as Python does: single spaces between arguments, none
/// inside a tuple's punctuation (`(1, (2,), 3)`).
pub fn join<'a>(pieces: impl IntoIterator<Item = (&'a Piece, String)>) -> String {
    let mut out = String::new();
    let mut glued = true;
    for (piece, text) in pieces {
        if !glued && !matches!(piece, Piece::Close(_)) {
            out.push(' ');
        }
        out.push_str(&text);
        glued = matches!(piece, Piece::Open(_));
    }
    out
}

/// The piece of a print argument, given its register's dtype for values.
pub fn piece(a: &PrintArg, k: &Kernel) -> Piece {
    match a {
        PrintArg::Str(s) => Piece::Text(s.clone()),
        PrintArg::Reg(r) => Piece::Value(k.regs[*r as usize]),
        PrintArg::Open(s) => Piece::Open(s.clone()),
        PrintArg::Close(s) => Piece::Close(s.clone()),
    }
}

/// The print sites of a kernel in the order the code generator numbers them (statement
/// order, then-branch before else-branch, loop body before latch).
pub fn sites(k: &Kernel) -> Vec<Vec<Piece>> {
    let mut out = Vec::new();
    crate::kernel::ir::each_inst(&k.body, &mut |i| {
        if let Op::Print(args) = &i.op {
            out.push(args.iter().map(|a| piece(a, k)).collect());
        }
    });
    out
}

/// Whether a kernel calls `print()` (and so takes the hidden buffer parameter).
pub fn prints(k: &Kernel) -> bool {
    !sites(k).is_empty()
}

/// One printed value in the CPU executor's register representation, as `print()` shows it
/// (six decimals for floats, like Numba's `%f`; `True`/`False`; integers in full).
pub fn format_value(dtype: DType, bits: u64) -> String {
    match dtype {
        DType::F32 => format!("{:.6}", f32b(bits)),
        DType::F64 => format!("{:.6}", f64b(bits)),
        DType::U64 => bits.to_string(),
        DType::Bool => if bits != 0 { "True" } else { "False" }.to_string(),
        _ => (bits as i64).to_string(),
    }
}

/// One line of `print()` output (without its newline) from its values' bits.
pub fn format_line(site: &[Piece], values: &[u64]) -> String {
    let mut vals = values.iter();
    join(site.iter().map(|p| {
        let text = match p {
            Piece::Text(s) | Piece::Open(s) | Piece::Close(s) => s.clone(),
            Piece::Value(d) => format_value(*d, vals.next().copied().unwrap_or(0)),
        };
        (p, text)
    }))
}

/// A fresh header for a record area of `capacity_words`.
pub fn header(capacity_words: usize) -> [u8; HEADER_WORDS * 8] {
    let mut h = [0u8; HEADER_WORDS * 8];
    h[16..24].copy_from_slice(&(capacity_words as u64).to_le_bytes());
    h
}

/// The text a launch printed, from its buffer's header and record words (`bytes` holds at
/// least the header; records beyond it may be cut short). Lines come in block order, then
/// in each thread's print order, then by thread, which is the order the CPU executor prints
/// straight-line code in. Dropped or unreadable records end the text with a note.
pub fn decode(kernel_name: &str, sites: &[Vec<Piece>], bytes: &[u8]) -> String {
    let word = |i: usize| -> Option<u64> {
        let b = bytes.get(i * 8..i * 8 + 8)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    };
    let (Some(cursor), Some(dropped), Some(cap)) = (word(0), word(1), word(2)) else {
        return String::new();
    };
    let end = HEADER_WORDS + cursor.min(cap) as usize;
    let mut lines: Vec<(u64, u64, u64, String)> = Vec::new();
    let mut at = HEADER_WORDS;
    let mut damaged = false;
    while at < end {
        let (Some(w0), Some(block), Some(seq)) = (word(at), word(at + 1), word(at + 2)) else {
            damaged = true;
            break;
        };
        let Some(site) = sites.get((w0 & 0xffff_ffff) as usize) else {
            damaged = true;
            break;
        };
        let n = site.iter().filter(|p| matches!(p, Piece::Value(_))).count();
        let vals: Option<Vec<u64>> = (0..n).map(|i| word(at + RECORD_HEAD_WORDS + i)).collect();
        let Some(vals) = vals else {
            damaged = true;
            break;
        };
        lines.push((block, seq, w0 >> 32, format_line(site, &vals)));
        at += RECORD_HEAD_WORDS + n;
    }
    lines.sort_by_key(|l| (l.0, l.1, l.2));
    let mut out = String::new();
    for (_, _, _, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    if dropped > 0 {
        out.push_str(&format!(
            "[nbcuda] {dropped} more print() lines of kernel {kernel_name} were not kept: one launch keeps at most {} MiB of printed values. Print from fewer threads (e.g. only where cuda.grid(1) == 0) or launch smaller grids.\n",
            (CAPACITY_WORDS * 8) >> 20
        ));
    }
    if damaged {
        out.push_str(&format!(
            "[nbcuda] the print() records of kernel {kernel_name} could not all be read; the lines above are the readable ones.\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(words: &mut Vec<u64>, site: u64, tid: u64, block: u64, seq: u64, vals: &[u64]) {
        words.extend([site | tid << 32, block, seq]);
        words.extend_from_slice(vals);
    }

    fn bytes(cursor: u64, dropped: u64, cap: u64, records: &[u64]) -> Vec<u8> {
        [cursor, dropped, cap, 0]
            .iter()
            .chain(records)
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    #[test]
    fn records_come_out_in_block_sequence_thread_order() {
        let sites = vec![
            vec![Piece::Text("a".into()), Piece::Value(DType::I32)],
            vec![Piece::Value(DType::Bool)],
        ];
        let mut w = Vec::new();
        record(&mut w, 0, 1, 1, 0, &[(-3i64) as u64]);
        record(&mut w, 1, 0, 0, 1, &[1]);
        record(&mut w, 0, 1, 0, 0, &[7]);
        record(&mut w, 0, 0, 0, 0, &[6]);
        let text = decode("k", &sites, &bytes(w.len() as u64, 0, 1000, &w));
        assert_eq!(text, "a 6\na 7\nTrue\na -3\n");
    }

    #[test]
    fn dropped_records_are_reported_not_lost_silently() {
        let sites = vec![vec![Piece::Value(DType::U64)]];
        let mut w = Vec::new();
        record(&mut w, 0, 0, 0, 0, &[u64::MAX]);
        // The cursor ran past the capacity: only the first record was written.
        let text = decode("kern", &sites, &bytes(12, 2, 4, &w));
        assert!(text.starts_with("18446744073709551615\n"), "{text}");
        assert!(
            text.contains("2 more print() lines of kernel kern"),
            "{text}"
        );
    }

    #[test]
    fn a_damaged_buffer_yields_the_readable_lines_and_a_note() {
        let sites = vec![vec![Piece::Value(DType::F64)]];
        let mut w = Vec::new();
        record(&mut w, 0, 0, 0, 0, &[1.5f64.to_bits()]);
        record(&mut w, 9, 0, 0, 1, &[0]);
        let text = decode("k", &sites, &bytes(w.len() as u64, 0, 100, &w));
        assert!(text.starts_with("1.500000\n"), "{text}");
        assert!(text.contains("could not all be read"), "{text}");
        // A header cut short is no output, not a panic.
        assert_eq!(decode("k", &sites, &[0u8; 10]), "");
    }

    #[test]
    fn header_carries_the_capacity() {
        let h = header(1234);
        assert_eq!(u64::from_le_bytes(h[16..24].try_into().unwrap()), 1234);
        assert!(h[..16].iter().all(|&b| b == 0));
    }
}
