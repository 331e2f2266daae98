//! Charts of the session itself: `%timeit_chart` (every `%timeit` side by side), the
//! `%%timeline` of device work per stream, and the `%ledger` one-line summary.

use base64::Engine as _;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde_json::{Map, Value as Json};

use crate::device::ledger::{LedgerEvent, LedgerKind};
use crate::interp::timing::format_time;
use crate::interp::timing::TimeitHistory;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::pyplot::render::{encode_png, ensure_font, FONT};

/// Bytes as people read them: `20.0 MB`, `512 B` (decimal units, as bandwidths are quoted).
pub fn human_bytes(b: usize) -> String {
    let b = b as f64;
    for (unit, scale) in [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)] {
        if b >= scale {
            return format!("{:.1} {unit}", b / scale);
        }
    }
    format!("{} B", b as u64)
}

fn ms(seconds: f64) -> String {
    format!("{:.3} ms", seconds * 1e3)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Totals of one kind of event: (count, bytes, seconds).
fn totals(events: &[LedgerEvent], kind: LedgerKind) -> (usize, usize, f64) {
    events
        .iter()
        .filter(|e| e.kind == kind)
        .fold((0, 0, 0.0), |(n, b, t), e| {
            (n + 1, b + e.bytes, t + e.duration)
        })
}

/// One line for `%ledger on`: what moved in a cell; None when nothing moved or ran.
pub fn ledger_summary(events: &[LedgerEvent]) -> Option<String> {
    let mut parts = Vec::new();
    for (kind, arrow) in [
        (LedgerKind::HtoD, "H\u{2192}D"),
        (LedgerKind::DtoH, "D\u{2192}H"),
        (LedgerKind::DtoD, "D\u{2192}D"),
    ] {
        let (n, bytes, secs) = totals(events, kind);
        if n > 0 {
            let implicit = events
                .iter()
                .filter(|e| e.kind == kind && !e.explicit)
                .count();
            let extra = if implicit > 0 {
                format!(", {implicit} implicit")
            } else {
                String::new()
            };
            parts.push(format!(
                "{} {arrow} ({}{extra}, {})",
                human_bytes(bytes),
                plural(n, "copy", "copies"),
                format_time(secs, 3)
            ));
        }
    }
    let (kernels, _, ksecs) = totals(events, LedgerKind::Kernel);
    let (allocs, abytes, _) = totals(events, LedgerKind::Alloc);
    if parts.is_empty() && kernels == 0 && allocs == 0 {
        return None;
    }
    let mut line = if parts.is_empty() {
        "moved nothing between host and device".to_string()
    } else {
        format!("moved {}", parts.join(", "))
    };
    if kernels > 0 {
        line.push_str(&format!(
            "; {}, {}",
            plural(kernels, "kernel", "kernels"),
            format_time(ksecs, 3)
        ));
    }
    if allocs > 0 {
        line.push_str(&format!(
            "; allocated {} in {}",
            human_bytes(abytes),
            plural(allocs, "array", "arrays")
        ));
    }
    Some(line)
}

fn png_display(rt: &mut Runtime, rgb: &[u8], w: u32, h: u32, text: String) -> PyResult<()> {
    let png = encode_png(rgb, w, h, 100.0).map_err(PyErr::runtime_error)?;
    let mut data = Map::new();
    data.insert(
        "image/png".into(),
        Json::String(base64::engine::general_purpose::STANDARD.encode(png)),
    );
    data.insert("text/plain".into(), Json::String(text));
    rt.frontend.display(data, Map::new(), None, false);
    Ok(())
}

fn draw_rgb(
    w: u32,
    h: u32,
    f: impl FnOnce(&DrawingArea<BitMapBackend, Shift>) -> Result<(), String>,
) -> PyResult<Vec<u8>> {
    ensure_font();
    // bounded: 900 px wide, a band per existing row
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| PyErr::runtime_error(e.to_string()))?;
        f(&root).map_err(|e| PyErr::runtime_error(format!("could not draw the chart: {e}")))?;
        root.present()
            .map_err(|e| PyErr::runtime_error(e.to_string()))?;
    }
    Ok(buf)
}

/// How wide `text` is drawn in the charts' 13 px label font, in pixels.
fn label_width(text: &str) -> u32 {
    ensure_font();
    (FONT, 13)
        .into_font()
        .box_size(text)
        .map(|(w, _)| w)
        .unwrap_or(text.chars().count() as u32 * 8)
}

/// A chart's right margin: room for half of its widest x tick label, since plotters
/// centres a label on its tick and the last tick may sit on the plot's right edge (the
/// `%timeit` chart's "100 ms" lost its last letters to a fixed 12 px margin).
fn right_margin(x_labels: &[String]) -> u32 {
    let widest = x_labels.iter().map(|l| label_width(l)).max().unwrap_or(0);
    (widest / 2 + 6).max(12)
}

fn shorten(s: &str, n: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= n {
        one_line
    } else {
        let cut: String = one_line.chars().take(n - 1).collect();
        format!("{cut}\u{2026}")
    }
}

/// `%timeit_chart`: one horizontal bar per `%timeit` of the session (mean per loop), with a
/// whisker from the fastest to the slowest run.
pub fn timeit_chart(rt: &mut Runtime) -> PyResult<()> {
    let records = rt.state::<TimeitHistory>().records.clone();
    if records.is_empty() {
        rt.print("No %timeit results yet: time some statements with %timeit, then %timeit_chart draws them side by side.\n");
        return Ok(());
    }
    let rows: Vec<(String, f64, f64, f64)> = records
        .iter()
        .map(|r| {
            let n = r.per_loop.len().max(1) as f64;
            let mean = r.per_loop.iter().sum::<f64>() / n;
            let lo = r.per_loop.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = r.per_loop.iter().cloned().fold(0.0, f64::max);
            (
                format!("[{}] {}", r.cell, shorten(&r.stmt, 44)),
                mean,
                lo.min(mean),
                hi.max(mean),
            )
        })
        .collect();
    let fastest = rows
        .iter()
        .map(|r| r.2)
        .fold(f64::INFINITY, f64::min)
        .max(1e-12);
    let slowest = rows
        .iter()
        .map(|r| r.3)
        .fold(0.0, f64::max)
        .max(fastest * 1.0001);
    let log = slowest / fastest > 100.0;
    let (w, h) = (900u32, 90 + 46 * rows.len() as u32);
    let label_w = rows.iter().map(|r| label_width(&r.0)).max().unwrap_or(80) + 20;
    let tx = |v: f64| if log { v.log10() } else { v };
    let (x0, x1) = if log {
        (fastest.log10().floor(), slowest.log10().ceil())
    } else {
        (0.0, slowest * 1.08)
    };
    let xlabel = |v: &f64| format_time(if log { 10f64.powf(*v) } else { *v }, 3);
    // Any tick's label is as wide as one of these: the ends, and a value with every digit.
    let ticks = right_margin(&[xlabel(&x0), xlabel(&x1), xlabel(&((x0 + x1) / 3.0))]);
    // Each bar's mean is written after its slowest run, which may be the plot's edge.
    let means = rows
        .iter()
        .map(|r| label_width(&format_time(r.1, 3)) + 10)
        .max()
        .unwrap_or(0);
    let margin_right = ticks.max(means);
    let n = rows.len();
    let rgb = draw_rgb(w, h, |root| {
        let err = |e: DrawingAreaErrorKind<_>| format!("{e}");
        let mut chart = ChartBuilder::on(root)
            .caption(
                "%timeit: mean per loop (whiskers: fastest to slowest run)",
                (FONT, 16),
            )
            .margin(12)
            .margin_right(margin_right)
            .x_label_area_size(36)
            .y_label_area_size(label_w.min(w / 2))
            .build_cartesian_2d(x0..x1, -0.5..(n as f64 - 0.5))
            .map_err(err)?;
        let ylabel = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                rows[n - 1 - i as usize].0.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n * 2 + 1)
            .y_label_formatter(&ylabel)
            .x_label_formatter(&xlabel)
            .x_labels(if log {
                ((x1 - x0) as usize + 1).clamp(2, 12)
            } else {
                6
            })
            .label_style((FONT, 13))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(220, 220, 220))
            .x_desc(if log {
                "time per loop (log scale)"
            } else {
                "time per loop"
            })
            .draw()
            .map_err(err)?;
        let base = if log { x0 } else { 0.0 };
        for (k, (_, mean, lo, hi)) in rows.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            let color = crate::pyplot::style::CYCLE[k % 10];
            chart
                .draw_series([Rectangle::new(
                    [(base, y - 0.32), (tx(*mean), y + 0.32)],
                    color.filled(),
                )])
                .map_err(err)?;
            let whisker = BLACK.stroke_width(2);
            chart
                .draw_series([
                    PathElement::new(vec![(tx(*lo), y), (tx(*hi), y)], whisker),
                    PathElement::new(vec![(tx(*lo), y - 0.15), (tx(*lo), y + 0.15)], whisker),
                    PathElement::new(vec![(tx(*hi), y - 0.15), (tx(*hi), y + 0.15)], whisker),
                ])
                .map_err(err)?;
            chart
                .draw_series([Text::new(
                    format_time(*mean, 3),
                    (tx(*hi), y - 0.1),
                    (FONT, 13).into_font().color(&BLACK),
                )])
                .map_err(err)?;
        }
        Ok(())
    })?;
    let text = rows
        .iter()
        .map(|(l, m, lo, hi)| {
            format!(
                "{l}: {} (fastest {}, slowest {})",
                format_time(*m, 3),
                format_time(*lo, 3),
                format_time(*hi, 3)
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    png_display(rt, &rgb, w, h, text)
}

fn kind_name(k: LedgerKind) -> &'static str {
    match k {
        LedgerKind::Alloc => "alloc",
        LedgerKind::Free => "free",
        LedgerKind::HtoD => "H\u{2192}D copy",
        LedgerKind::DtoH => "D\u{2192}H copy",
        LedgerKind::DtoD => "D\u{2192}D copy",
        LedgerKind::Memset => "memset",
        LedgerKind::Kernel => "kernel",
    }
}

fn kind_color(k: LedgerKind) -> RGBColor {
    match k {
        LedgerKind::HtoD => RGBColor(0x1f, 0x77, 0xb4),
        LedgerKind::DtoH => RGBColor(0xff, 0x7f, 0x0e),
        LedgerKind::DtoD => RGBColor(0x94, 0x67, 0xbd),
        LedgerKind::Memset => RGBColor(0x7f, 0x7f, 0x7f),
        LedgerKind::Kernel => RGBColor(0x2c, 0xa0, 0x2c),
        LedgerKind::Alloc => RGBColor(0x17, 0xbe, 0xcf),
        LedgerKind::Free => RGBColor(0xd6, 0x27, 0x28),
    }
}

/// The timeline's lanes, top to bottom: one per stream that copied or ran a kernel, in
/// stream order, then one for allocations; and the lane of each event.
pub fn timeline_lanes(events: &[LedgerEvent]) -> (Vec<String>, Vec<usize>) {
    let mut streams: Vec<u64> = events
        .iter()
        .filter(|e| !matches!(e.kind, LedgerKind::Alloc | LedgerKind::Free))
        .map(|e| e.stream)
        .collect();
    streams.sort_unstable();
    streams.dedup();
    let mut lanes: Vec<String> = streams.iter().map(|s| format!("stream {s}")).collect();
    lanes.push("memory".into());
    let of = events
        .iter()
        .map(|e| match e.kind {
            LedgerKind::Alloc | LedgerKind::Free => streams.len(),
            _ => streams.iter().position(|s| *s == e.stream).unwrap_or(0),
        })
        .collect();
    (lanes, of)
}

/// `%%timeline`: the cell's device work on a time axis, one lane per stream and one for
/// allocations, then a table of every event with bytes, durations and bandwidth.
pub fn timeline(rt: &mut Runtime, events: &[LedgerEvent]) -> PyResult<()> {
    if events.is_empty() {
        rt.print("%%timeline: this cell did no device work (no allocations, copies or kernels).\n");
        return Ok(());
    }
    let t0 = events.iter().map(|e| e.start).fold(f64::INFINITY, f64::min);
    let t1 = events
        .iter()
        .map(|e| e.start + e.duration)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (t1 - t0).max(1e-6);
    let (lanes, lane_of_event) = timeline_lanes(events);
    let lane_of = |i: usize| lane_of_event[i];
    let nl = lanes.len();
    let (w, h) = (900u32, 130 + 60 * nl as u32);
    let to_ms = |t: f64| (t - t0) * 1e3;
    let min_w = span * 1e3 / 400.0;
    let x_end = span * 1e3 * 1.02;
    let xlabel = |v: &f64| format!("{v:.2}");
    let margin_right = right_margin(&[xlabel(&0.0), xlabel(&x_end)]);
    let lane_w = lanes.iter().map(|l| label_width(l)).max().unwrap_or(60) + 20;
    let rgb = draw_rgb(w, h, |whole| {
        let err = |e: DrawingAreaErrorKind<_>| format!("{e}");
        // The legend gets its own column so it never hides a lane.
        let (root, key_area) = whole.split_horizontally(w - 190);
        let mut chart = ChartBuilder::on(&root)
            .caption("Device timeline", (FONT, 16))
            .margin(12)
            .margin_right(margin_right)
            .x_label_area_size(36)
            .y_label_area_size(lane_w.clamp(90, w / 3))
            .build_cartesian_2d(0.0..x_end, -0.5..(nl as f64 - 0.5))
            .map_err(err)?;
        let ylabel = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < nl {
                lanes[nl - 1 - i as usize].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(nl * 2 + 1)
            .y_label_formatter(&ylabel)
            .x_label_formatter(&xlabel)
            .x_desc("milliseconds since the cell's first device event")
            .label_style((FONT, 13))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .map_err(err)?;
        let mut seen = Vec::new();
        let mut key: Vec<(String, ShapeStyle)> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            let y = (nl - 1 - lane_of(i)) as f64;
            let c = kind_color(e.kind);
            let x = to_ms(e.start);
            let style = if e.explicit {
                c.filled()
            } else {
                c.mix(0.45).filled()
            };
            if e.duration <= 0.0 && matches!(e.kind, LedgerKind::Alloc | LedgerKind::Free) {
                chart
                    .draw_series([Rectangle::new([(x, y - 0.3), (x + min_w, y + 0.3)], style)])
                    .map_err(err)?;
            } else {
                let x1 = x + (e.duration * 1e3).max(min_w);
                chart
                    .draw_series([
                        Rectangle::new([(x, y - 0.3), (x1, y + 0.3)], style),
                        Rectangle::new(
                            [(x, y - 0.3), (x1, y + 0.3)],
                            BLACK.mix(0.6).stroke_width(1),
                        ),
                    ])
                    .map_err(err)?;
            }
            let kind_key = (e.kind as u8, e.explicit);
            if !seen.contains(&kind_key) {
                seen.push(kind_key);
                let name = if e.explicit || !matches!(e.kind, LedgerKind::HtoD | LedgerKind::DtoH) {
                    kind_name(e.kind).to_string()
                } else {
                    format!("{} (implicit)", kind_name(e.kind))
                };
                key.push((name, style));
            }
        }
        for (i, (name, style)) in key.iter().enumerate() {
            let y = 48 + 22 * i as i32;
            key_area
                .draw(&Rectangle::new([(8, y - 6), (26, y + 6)], *style))
                .map_err(err)?;
            key_area
                .draw(&Text::new(
                    name.clone(),
                    (32, y - 7),
                    (FONT, 13).into_font().color(&BLACK),
                ))
                .map_err(err)?;
        }
        Ok(())
    })?;
    let (table_html, table_text) = timeline_table(events, t0);
    png_display(
        rt,
        &rgb,
        w,
        h,
        format!("<device timeline: {} events on {} lanes>", events.len(), nl),
    )?;
    let mut data = Map::new();
    data.insert("text/html".into(), Json::String(table_html));
    data.insert("text/plain".into(), Json::String(table_text));
    rt.frontend.display(data, Map::new(), None, false);
    Ok(())
}

/// The event table (HTML and plain text), ordered by start, with per-direction totals.
pub fn timeline_table(events: &[LedgerEvent], t0: f64) -> (String, String) {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut html = String::from(
        "<table><thead><tr><th>kind</th><th>what</th><th>stream</th><th>bytes</th><th>start</th><th>duration</th><th>bandwidth</th></tr></thead><tbody>",
    );
    let mut text = format!(
        "{:<14} {:<24} {:>6} {:>10} {:>11} {:>11} {:>11}\n",
        "kind", "what", "stream", "bytes", "start", "duration", "bandwidth"
    );
    // In time order: the ledger records an event when it is known, and a copy on one
    // stream can be recorded after a kernel that started later on another.
    let mut ordered: Vec<&LedgerEvent> = events.iter().collect();
    ordered.sort_by(|a, b| a.start.total_cmp(&b.start));
    for e in ordered {
        let kind = if e.explicit {
            kind_name(e.kind).to_string()
        } else {
            format!("{} (implicit)", kind_name(e.kind))
        };
        let bw = if e.duration > 0.0 && e.bytes > 0 && !matches!(e.kind, LedgerKind::Kernel) {
            format!("{:.2} GB/s", e.bytes as f64 / e.duration / 1e9)
        } else {
            String::new()
        };
        let what = if e.kind == LedgerKind::Kernel {
            format!("{} grid {:?} block {:?}", e.label, e.grid, e.block)
        } else {
            e.label.clone()
        };
        let bytes = if e.bytes > 0 {
            human_bytes(e.bytes)
        } else {
            String::new()
        };
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&kind), esc(&what), e.stream, bytes, ms(e.start - t0), ms(e.duration), bw
        ));
        text.push_str(&format!(
            "{:<14} {:<24} {:>6} {:>10} {:>11} {:>11} {:>11}\n",
            kind,
            shorten(&what, 24),
            e.stream,
            bytes,
            ms(e.start - t0),
            ms(e.duration),
            bw
        ));
    }
    html.push_str("</tbody></table>");
    let mut total_lines = Vec::new();
    for (kind, arrow) in [
        (LedgerKind::HtoD, "H\u{2192}D"),
        (LedgerKind::DtoH, "D\u{2192}H"),
        (LedgerKind::DtoD, "D\u{2192}D"),
    ] {
        let (n, bytes, secs) = totals(events, kind);
        if n > 0 {
            total_lines.push(format!(
                "{arrow}: {} bytes ({}) in {}, {}",
                bytes,
                human_bytes(bytes),
                plural(n, "copy", "copies"),
                ms(secs)
            ));
        }
    }
    let (k, _, ks) = totals(events, LedgerKind::Kernel);
    if k > 0 {
        total_lines.push(format!("kernels: {}, {}", k, ms(ks)));
    }
    html.push_str(&format!(
        "<p><b>Totals</b>: {}</p>",
        esc(&total_lines.join("; "))
    ));
    text.push_str(&format!("Totals: {}\n", total_lines.join("; ")));
    (html, text)
}
