//! Dense solid lines drawn as one vertical span per pixel column.
//!
//! A waveform of millions of points crosses each pixel column many times, so what the eye
//! sees is the band between the column's lowest and highest value. plotters' 1-px line
//! rasteriser splits a steep segment into faint anti-aliased pixel pairs, which breaks such
//! a band into dots; drawing the band ourselves keeps it solid and joins each column to the
//! next, and costs one pass over the points instead of one line per point.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

/// One pixel column of a rasterised polyline: the rows `lo..=hi` at column `col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub col: i32,
    pub lo: i32,
    pub hi: i32,
}

/// The pixel spans of a polyline whose points (in backend pixels) never go left.
///
/// Each column covers its points' rows; the segment joining the last point of one column
/// to the first point of the next is shared between the columns it crosses (each column
/// takes the rows the segment passes at its left and right edges), so consecutive spans
/// always touch and the band has no gaps. Returns None when x goes backwards: such a
/// series is not a waveform and is drawn point to point instead.
pub fn column_spans(points: impl Iterator<Item = (f64, f64)>) -> Option<Vec<Span>> {
    let mut spans: Vec<Span> = Vec::new();
    // The previous point, kept in sub-pixel precision for the join.
    let mut prev: Option<(f64, f64)> = None;
    for (x, y) in points {
        let col = x.round() as i32;
        let row = y.round() as i32;
        match prev {
            Some((px, _)) if x < px => return None,
            Some((px, py)) if col != px.round() as i32 => {
                let pc = px.round() as i32;
                // The join enters each column at its left edge and leaves at its right.
                let at = |c: f64| -> i32 {
                    let t = ((c - px) / (x - px)).clamp(0.0, 1.0);
                    (py + (y - py) * t).round() as i32
                };
                extend(spans.last_mut(), at(pc as f64 + 0.5));
                for c in pc + 1..col {
                    let (a, b) = (at(c as f64 - 0.5), at(c as f64 + 0.5));
                    spans.push(Span {
                        col: c,
                        lo: a.min(b),
                        hi: a.max(b),
                    });
                }
                let entry = at(col as f64 - 0.5);
                spans.push(Span {
                    col,
                    lo: entry.min(row),
                    hi: entry.max(row),
                });
            }
            Some(_) => extend(spans.last_mut(), row),
            None => spans.push(Span {
                col,
                lo: row,
                hi: row,
            }),
        }
        prev = Some((x, y));
    }
    Some(spans)
}

fn extend(span: Option<&mut Span>, row: i32) {
    if let Some(s) = span {
        s.lo = s.lo.min(row);
        s.hi = s.hi.max(row);
    }
}

/// Fill the spans on `area` (absolute backend coordinates), `width` pixels thick, clipped to
/// the plot's pixel rectangle.
pub fn draw_spans<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spans: &[Span],
    clip: (Range<i32>, Range<i32>),
    width: u32,
    style: ShapeStyle,
) -> Result<(), String> {
    let before = (width.max(1) as i32 - 1) / 2;
    let after = width.max(1) as i32 / 2;
    let (xs, ys) = clip;
    let fill = ShapeStyle {
        filled: true,
        ..style
    };
    for s in spans {
        let x0 = (s.col - before).max(xs.start);
        let x1 = (s.col + after).min(xs.end - 1);
        let y0 = (s.lo - before).max(ys.start);
        let y1 = (s.hi + after).min(ys.end - 1);
        if x0 > x1 || y0 > y1 {
            continue;
        }
        // Filled rectangles exclude their bottom-right edge in both the bitmap and the
        // SVG backend.
        area.draw(&Rectangle::new([(x0, y0), (x1 + 1, y1 + 1)], fill))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Consecutive spans sit in consecutive columns and share at least one row, so the
    /// band is one 4-connected shape.
    fn assert_joined(spans: &[Span]) {
        for w in spans.windows(2) {
            assert_eq!(w[1].col, w[0].col + 1, "{spans:?}");
            assert!(w[1].lo <= w[0].hi && w[0].lo <= w[1].hi, "{spans:?}");
        }
    }

    #[test]
    fn a_steep_segment_covers_every_row_it_crosses() {
        let spans = column_spans([(0.0, 0.0), (3.0, 100.0)].into_iter()).unwrap();
        assert_eq!(spans.len(), 4);
        assert_joined(&spans);
        assert_eq!((spans[0].lo, spans[3].hi), (0, 100));
    }

    #[test]
    fn many_points_per_column_keep_their_extremes_and_gaps_are_bridged() {
        let pts = [(0.0, 5.0), (0.2, -7.0), (0.4, 9.0), (1.0, 1.0), (6.0, 11.0)];
        let spans = column_spans(pts.into_iter()).unwrap();
        assert_joined(&spans);
        assert_eq!((spans[0].lo, spans[0].hi), (-7, 9));
        assert_eq!(spans.last().unwrap().hi, 11);
        assert_eq!(spans.len(), 7);
    }

    #[test]
    fn x_going_backwards_is_refused() {
        assert!(column_spans([(0.0, 0.0), (2.0, 1.0), (1.0, 1.0)].into_iter()).is_none());
    }
}
