//! The one checked path for memory whose size a cell chooses (`'a'.center(n)`, a format
//! width, `np.random.rand(n)`, a reduction's output, a figure's pixels). Rust aborts the
//! process when an allocation fails, so a size taken from user input is checked here
//! first: larger than the machine's physical memory, or refused by the allocator, it is a
//! MemoryError and the session lives. `tests/alloc_scan.rs` keeps every other
//! `with_capacity`, `vec![x; n]`, `repeat` and `resize` in `src/` to sizes that are
//! bounded by data that already exists (each such line says why).

use std::sync::OnceLock;

use crate::arrays::error::{ArrayError, ArrayResult};

/// Physical memory in bytes (8 GiB when it cannot be read): no single allocation a cell
/// asks for may exceed it, as the allocator would otherwise overcommit and the kernel be
/// killed when the pages are touched.
pub fn physical_memory() -> usize {
    static PHYS: OnceLock<usize> = OnceLock::new();
    *PHYS.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
            })
            .map(|kb| kb.saturating_mul(1024))
            .unwrap_or(8 << 30)
    })
}

/// MemoryError unless `count` items of `item_bytes` each may be allocated.
pub fn check(count: usize, item_bytes: usize, what: &str) -> ArrayResult<()> {
    match count.checked_mul(item_bytes.max(1)) {
        Some(b) if b <= physical_memory() => Ok(()),
        _ => Err(too_big(count, what)),
    }
}

fn too_big(count: usize, what: &str) -> ArrayError {
    ArrayError::memory_error(format!("cannot allocate {what} of {count} items"))
}

/// An empty vector with room for `count` items, or MemoryError.
pub fn vec_with_capacity<T>(count: usize, what: &str) -> ArrayResult<Vec<T>> {
    check(count, std::mem::size_of::<T>(), what)?;
    let mut v = Vec::new();
    v.try_reserve_exact(count) // bounded: checked just above
        .map_err(|_| too_big(count, what))?;
    Ok(v)
}

/// `vec![value; count]`, or MemoryError.
pub fn vec_filled<T: Clone>(value: T, count: usize, what: &str) -> ArrayResult<Vec<T>> {
    let mut v = vec_with_capacity(count, what)?; // bounded: the checked helper
    v.resize(count, value); // bounded: reserved above
    Ok(v)
}

/// `(0..count).map(f).collect()`, or MemoryError before anything is computed.
pub fn vec_from_fn<T>(count: usize, what: &str, f: impl FnMut(usize) -> T) -> ArrayResult<Vec<T>> {
    let mut v = vec_with_capacity(count, what)?; // bounded: the checked helper
    v.extend((0..count).map(f));
    Ok(v)
}

/// `piece` repeated `times` times, or MemoryError.
pub fn repeat_str(piece: &str, times: usize) -> ArrayResult<String> {
    let len = piece
        .len()
        .checked_mul(times)
        .ok_or_else(|| too_big(times, "a str"))?;
    let mut s = string_with_capacity(len)?; // bounded: the checked helper
    for _ in 0..times {
        s.push_str(piece);
    }
    Ok(s)
}

/// An empty string with room for `bytes`, or MemoryError.
pub fn string_with_capacity(bytes: usize) -> ArrayResult<String> {
    check(bytes, 1, "a str")?;
    let mut s = String::new();
    s.try_reserve_exact(bytes) // bounded: checked just above
        .map_err(|_| too_big(bytes, "a str"))?;
    Ok(s)
}

/// A size a person writes in an environment variable: `4GiB`, `512MiB`, `64KiB`, `2GB`,
/// `300M` (decimal, as `MB`), `1000` (bytes).
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let split = s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let num: f64 = num.trim().parse().ok()?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "kib" => 1024.0,
        "m" | "mb" => 1e6,
        "mib" => 1048576.0,
        "g" | "gb" => 1e9,
        "gib" => 1073741824.0,
        "t" | "tb" => 1e12,
        "tib" => 1099511627776.0,
        _ => return None,
    };
    (num >= 0.0).then_some((num * mult) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_past_physical_memory_are_memory_errors_not_aborts() {
        let e = vec_with_capacity::<f64>(1 << 60, "an array").unwrap_err();
        assert_eq!(
            e.to_string(),
            "MemoryError: cannot allocate an array of 1152921504606846976 items"
        );
        assert!(vec_filled(0u8, usize::MAX, "a list").is_err());
        assert!(repeat_str("ab", usize::MAX / 2 + 1).is_err());
        assert!(repeat_str(" ", physical_memory() + 1).is_err());
        assert_eq!(repeat_str("ab", 3).unwrap(), "ababab");
        assert_eq!(vec_from_fn(4, "a list", |i| i * i).unwrap(), [0, 1, 4, 9]);
        assert_eq!(vec_filled(7u8, 2, "a list").unwrap(), [7, 7]);
    }
}
