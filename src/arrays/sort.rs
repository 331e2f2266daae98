//! Sorting that an interrupt can stop: a stable merge sort whose runs are sorted by the
//! standard library and merged in passes, with the interrupt flag read between runs and
//! every [`CHECK_EVERY`] merged items. A comparator cannot give up midway (sort_by may
//! panic on an inconsistent order), so sorting 10^8 items in one `sort_by` call would
//! hold an interrupt for seconds; here one run is the longest stretch without a check.
//!
//! `order` gives NumPy's sort order for any element: NaNs last, complex numbers by real
//! then imaginary part, and integers exactly (never through f64, where `2**53 + 1` and
//! `2**53` compare equal).

use std::cmp::Ordering;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::arrays::elem::Elem;

/// Items sorted by the standard library between interrupt checks.
const RUN: usize = 1 << 20;
/// Items merged between interrupt checks.
const CHECK_EVERY: usize = 1 << 20;

/// NumPy's sort order: NaNs after everything else (and equal to each other), complex
/// values lexicographically by (real, imaginary) with the same NaN rule per part.
pub fn order<T: Elem>(a: &T, b: &T) -> Ordering {
    if T::COMPLEX {
        let ((ar, ai), (br, bi)) = (a.to_c128(), b.to_c128());
        return nan_last(ar, br).then_with(|| nan_last(ai, bi));
    }
    a.partial_cmp(b).unwrap_or_else(|| {
        // Only a NaN is unordered, and only a NaN differs from itself.
        #[allow(clippy::eq_op)]
        let (an, bn) = (a != a, b != b);
        an.cmp(&bn)
    })
}

fn nan_last(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b)
        .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

/// Sort `v` stably by `cmp`. Returns false, leaving `v` in some permutation of its items,
/// when the interrupt flag `stop` was raised before it finished.
pub fn sort_stable<X: Copy>(
    v: &mut [X],
    cmp: impl Fn(&X, &X) -> Ordering,
    stop: &Option<Arc<AtomicBool>>,
) -> bool {
    let pending = || crate::arrays::interrupt::pending(stop);
    if v.len() <= RUN {
        v.sort_by(&cmp);
        return true;
    }
    for run in v.chunks_mut(RUN) {
        if pending() {
            return false;
        }
        run.sort_by(&cmp);
    }
    // Merge runs of width `w` pairwise from `src` into `dst`, doubling `w` each pass.
    let mut scratch: Vec<X> = v.to_vec(); // bounded: a copy of an existing slice
    let mut in_v = true;
    let mut w = RUN;
    let n = v.len();
    while w < n {
        let (src, dst): (&[X], &mut [X]) = if in_v {
            (&*v, &mut scratch[..])
        } else {
            (&scratch[..], &mut *v)
        };
        let mut lo = 0;
        let mut since_check = 0usize;
        while lo < n {
            let mid = (lo + w).min(n);
            let hi = (lo + 2 * w).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                // Right only when strictly smaller: equal items keep their order.
                if cmp(&src[j], &src[i]) == Ordering::Less {
                    dst[k] = src[j];
                    j += 1;
                } else {
                    dst[k] = src[i];
                    i += 1;
                }
                k += 1;
                since_check += 1;
                if since_check >= CHECK_EVERY {
                    since_check = 0;
                    if pending() {
                        return false;
                    }
                }
            }
            dst[k..k + (mid - i)].copy_from_slice(&src[i..mid]);
            let k = k + (mid - i);
            dst[k..k + (hi - j)].copy_from_slice(&src[j..hi]);
            lo = hi;
        }
        in_v = !in_v;
        w *= 2;
    }
    if !in_v {
        v.copy_from_slice(&scratch);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_runs_stably_and_in_numpy_order() {
        // Three runs and a ragged tail; keys repeat so stability is visible.
        let n = 3 * RUN + 12_345;
        let mut v: Vec<(i64, usize)> = (0..n).map(|i| (((i * 7919) % 1000) as i64, i)).collect();
        assert!(sort_stable(&mut v, |a, b| a.0.cmp(&b.0), &None));
        assert!(v
            .windows(2)
            .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
        let mut f = [f64::NAN, 1.0, -0.0, f64::NEG_INFINITY, 0.0];
        assert!(sort_stable(&mut f, order::<f64>, &None));
        assert_eq!(format!("{f:?}"), "[-inf, -0.0, 0.0, 1.0, NaN]");
        let mut big = [(1i64 << 53) + 1, 1 << 53];
        assert!(sort_stable(&mut big, order::<i64>, &None));
        assert_eq!(big, [1 << 53, (1 << 53) + 1]);
    }

    #[test]
    fn a_raised_flag_stops_a_long_sort() {
        let flag = Some(Arc::new(AtomicBool::new(true)));
        let mut v: Vec<u32> = (0..(2 * RUN as u32)).rev().collect();
        assert!(!sort_stable(&mut v, u32::cmp, &flag));
    }
}
