//! Clipping data to the neighbourhood of the view before plotters sees it. plotters maps
//! data to `i32` pixels and adds offsets to them, so a coordinate far outside explicit axis
//! limits (`plt.plot([1e300, -1e300], ...)` with `plt.xlim(0, 1)`) overflowed its pixel
//! arithmetic (a panic in debug builds, wrapped lines in release). Everything drawn is first
//! cut to the view widened by one view on every side: what is visible is unchanged, and
//! every pixel coordinate stays within a few times the plot's size.

/// The view `[x0, x1] x [y0, y1]` widened by its own size on every side.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    x: (f64, f64),
    y: (f64, f64),
}

impl Window {
    pub fn around(x: std::ops::Range<f64>, y: std::ops::Range<f64>) -> Window {
        let widen = |lo: f64, hi: f64| {
            let (lo, hi) = (lo.min(hi), lo.max(hi));
            let span = (hi - lo).max(f64::MIN_POSITIVE);
            (lo - span, hi + span)
        };
        Window {
            x: widen(x.start, x.end),
            y: widen(y.start, y.end),
        }
    }

    pub fn contains(&self, p: (f64, f64)) -> bool {
        (self.x.0..=self.x.1).contains(&p.0) && (self.y.0..=self.y.1).contains(&p.1)
    }

    /// A value held inside the window's x (or y) range: for the edges of rectangles.
    pub fn clamp_x(&self, v: f64) -> f64 {
        v.clamp(self.x.0, self.x.1)
    }
    pub fn clamp_y(&self, v: f64) -> f64 {
        v.clamp(self.y.0, self.y.1)
    }

    /// The part of segment `a`–`b` inside the window (Liang–Barsky), if any. A cut end is
    /// put exactly on the window's edge and its other coordinate interpolated from the
    /// slope, which stays accurate when the far end is at 1e300 (interpolating both
    /// coordinates by a parameter loses everything to cancellation there).
    fn segment(&self, a: (f64, f64), b: (f64, f64)) -> Option<((f64, f64), (f64, f64))> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        // (t, the edge that sets it: Some((is_x, value))).
        let (mut t0, mut e0) = (0.0f64, None);
        let (mut t1, mut e1) = (1.0f64, None);
        for (p, q, edge) in [
            (-dx, a.0 - self.x.0, (true, self.x.0)),
            (dx, self.x.1 - a.0, (true, self.x.1)),
            (-dy, a.1 - self.y.0, (false, self.y.0)),
            (dy, self.y.1 - a.1, (false, self.y.1)),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let t = q / p;
                if p < 0.0 && t > t0 {
                    (t0, e0) = (t, Some(edge));
                } else if p > 0.0 && t < t1 {
                    (t1, e1) = (t, Some(edge));
                }
            }
        }
        if t0 > t1 || !(t0.is_finite() && t1.is_finite()) {
            return None;
        }
        let on = |edge: Option<(bool, f64)>, keep: (f64, f64)| match edge {
            None => keep,
            Some((true, x)) => (x, self.clamp_y(a.1 + (x - a.0) * (dy / dx))),
            Some((false, y)) => (self.clamp_x(a.0 + (y - a.1) * (dx / dy)), y),
        };
        Some((on(e0, a), on(e1, b)))
    }

    /// A polyline cut into the runs that lie inside the window.
    pub fn polyline(&self, run: Vec<(f64, f64)>) -> Vec<Vec<(f64, f64)>> {
        if run.iter().all(|&p| self.contains(p)) {
            return vec![run];
        }
        if run.len() == 1 {
            return vec![];
        }
        let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
        let mut open = false;
        for w in run.windows(2) {
            match self.segment(w[0], w[1]) {
                Some((s, e)) => {
                    if !open || s != w[0] {
                        out.push(vec![s]);
                    }
                    // invariant: a run was pushed above unless the previous segment left one open
                    out.last_mut().expect("a run was pushed").push(e);
                    open = e == w[1];
                }
                None => open = false,
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_points_are_cut_to_the_widened_view_and_visible_parts_keep_their_slope() {
        let w = Window::around(0.0..1.0, 0.0..1.0);
        // Inside: untouched.
        assert_eq!(
            w.polyline(vec![(0.0, 0.0), (1.0, 1.0)]),
            vec![vec![(0.0, 0.0), (1.0, 1.0)]]
        );
        // A segment from inside to 1e300: cut at x = 2, on the same line.
        let close = |r: &[Vec<(f64, f64)>], want: &[(f64, f64)]| {
            r.len() == 1
                && r[0].len() == want.len()
                && r[0]
                    .iter()
                    .zip(want)
                    .all(|(a, b)| (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9)
        };
        let r = w.polyline(vec![(0.5, 0.5), (1e300, 0.5)]);
        assert!(close(&r, &[(0.5, 0.5), (2.0, 0.5)]), "{r:?}");
        // Through the view from far away on both sides.
        let r = w.polyline(vec![(-1e300, 0.25), (1e300, 0.25)]);
        assert!(close(&r, &[(-1.0, 0.25), (2.0, 0.25)]), "{r:?}");
        // A slanted segment keeps its line: y = x / 4 from (0, 0) to x = 1e300 is cut at
        // x = 2, y = 0.5.
        let r = w.polyline(vec![(0.0, 0.0), (1e300, 0.25e300)]);
        assert!(close(&r, &[(0.0, 0.0), (2.0, 0.5)]), "{r:?}");
        // Out, then in again: two runs.
        let r = w.polyline(vec![(0.5, 0.5), (1e300, 0.5), (0.5, 0.75)]);
        assert_eq!(r.len(), 2);
        // Entirely outside: nothing.
        assert!(w.polyline(vec![(1e300, 1e300), (2e300, 1e300)]).is_empty());
        assert!(w.polyline(vec![(1e300, 0.0)]).is_empty());
    }
}
