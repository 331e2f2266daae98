//! The session's own charts: the %ledger line, the %%timeline chart and table, the
//! %timeit chart, and the per-column decimation of long series.

mod common;

use std::cell::{RefCell as StdRefCell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nbcuda::device::ledger::{LedgerEvent, LedgerKind};
use nbcuda::py::runtime::Runtime;
use nbcuda::py::runtime::{Frontend, StreamName};
use nbcuda::pyplot::figure::{Artist, AxesData, FigureData, Line};
use nbcuda::pyplot::style::LineStyle;
use serde_json::{Map, Value as Json};

type Displays = Rc<StdRefCell<Vec<Map<String, Json>>>>;

struct Rec(Displays, Rc<StdRefCell<String>>);

impl Frontend for Rec {
    fn stream(&mut self, _: StreamName, text: &str) {
        self.1.borrow_mut().push_str(text);
    }
    fn display(&mut self, data: Map<String, Json>, _: Map<String, Json>, _: Option<&str>, _: bool) {
        self.0.borrow_mut().push(data);
    }
    fn clear_output(&mut self, _: bool) {}
    fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
        Err("no input".into())
    }
}

fn runtime() -> (Runtime, Displays, Rc<StdRefCell<String>>) {
    let d: Displays = Default::default();
    let out: Rc<StdRefCell<String>> = Default::default();
    let rt = Runtime::new(
        Box::new(Rec(d.clone(), out.clone())),
        Arc::new(AtomicBool::new(false)),
    );
    (rt, d, out)
}

fn ev(
    kind: LedgerKind,
    stream: u64,
    start: f64,
    duration: f64,
    bytes: usize,
    explicit: bool,
) -> LedgerEvent {
    LedgerEvent {
        kind,
        stream,
        start,
        duration,
        bytes,
        label: match kind {
            LedgerKind::Kernel => "add_ufunc".into(),
            _ => "to_device".into(),
        },
        explicit,
        cell: 3,
        grid: [40, 1, 1],
        block: [128, 1, 1],
    }
}

fn sample_events() -> Vec<LedgerEvent> {
    vec![
        ev(LedgerKind::Alloc, 0, 1.0, 0.0, 4_000_000, true),
        ev(LedgerKind::HtoD, 0, 1.0, 0.002, 4_000_000, true),
        ev(LedgerKind::HtoD, 1, 1.001, 0.003, 6_000_000, false),
        ev(LedgerKind::Kernel, 1, 1.004, 0.0005, 0, true),
        ev(LedgerKind::DtoH, 1, 1.005, 0.001, 10_000_000, true),
    ]
}

#[test]
fn ledger_summary_names_bytes_copies_and_kernels() {
    let line = nbcuda::engine::charts::ledger_summary(&sample_events()).expect("something moved");
    assert_eq!(
        line,
        "moved 10.0 MB H\u{2192}D (2 copies, 1 implicit, 5 ms), 10.0 MB D\u{2192}H (1 copy, 1 ms); \
         1 kernel, 500 \u{3bc}s; allocated 4.0 MB in 1 array"
    );
    assert_eq!(nbcuda::engine::charts::ledger_summary(&[]), None);
}

#[test]
fn timeline_draws_a_chart_and_a_table_whose_totals_match_the_events() {
    let (mut rt, displays, _) = runtime();
    let events = sample_events();
    nbcuda::engine::charts::timeline(&mut rt, &events).unwrap();
    let d = displays.borrow();
    assert_eq!(d.len(), 2, "chart, then table");
    assert!(d[0].contains_key("image/png"));
    if let Ok(p) = std::env::var("NBCUDA_SAVE_TIMELINE") {
        use base64::Engine as _;
        let b = base64::engine::general_purpose::STANDARD
            .decode(d[0]["image/png"].as_str().unwrap())
            .unwrap();
        std::fs::write(p, b).unwrap();
    }
    let html = d[1]["text/html"].as_str().unwrap();
    assert_eq!(html.matches("<tr><td>").count(), events.len());
    let h2d: usize = events
        .iter()
        .filter(|e| e.kind == LedgerKind::HtoD)
        .map(|e| e.bytes)
        .sum();
    let d2h: usize = events
        .iter()
        .filter(|e| e.kind == LedgerKind::DtoH)
        .map(|e| e.bytes)
        .sum();
    assert!(html.contains(&format!("H\u{2192}D: {h2d} bytes")), "{html}");
    assert!(html.contains(&format!("D\u{2192}H: {d2h} bytes")), "{html}");
    assert!(html.contains("(implicit)"));
    // 4 MB in 2 ms is 2 GB/s.
    assert!(html.contains("2.00 GB/s"), "{html}");
}

#[test]
fn timeline_lanes_are_one_per_stream_then_memory() {
    let (lanes, of) = nbcuda::engine::charts::timeline_lanes(&sample_events());
    assert_eq!(lanes, ["stream 0", "stream 1", "memory"]);
    assert_eq!(of, [2, 0, 1, 1, 1]);
    // Only allocations: the memory lane alone.
    let (lanes, of) =
        nbcuda::engine::charts::timeline_lanes(&[ev(LedgerKind::Alloc, 4, 0.0, 0.0, 8, true)]);
    assert_eq!(lanes, ["memory"]);
    assert_eq!(of, [0]);
}

#[test]
fn timeline_of_a_cell_without_device_work_says_so() {
    let (mut rt, displays, out) = runtime();
    nbcuda::engine::charts::timeline(&mut rt, &[]).unwrap();
    assert!(displays.borrow().is_empty());
    assert!(out.borrow().contains("no device work"));
}

#[test]
fn timeit_chart_draws_every_timeit_of_the_session() {
    let mut s = common::Session::new();
    let c = s.run("%timeit_chart");
    c.ok();
    assert!(c.out.displays.is_empty());
    assert!(c.out.stdout.contains("No %timeit results yet"));
    s.run("%timeit -n 5 -r 3 x = 1").ok();
    s.run("%timeit -n 5 -r 3 y = [i for i in range(50)]").ok();
    let c = s.run("%timeit_chart");
    c.ok();
    assert_eq!(c.out.displays.len(), 1);
    let d = &c.out.displays[0].0;
    assert!(d.contains_key("image/png"));
    let text = d["text/plain"].as_str().unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.contains("x = 1") && text.contains("range(50)"),
        "{text}"
    );
}

const BLUE: [u8; 3] = [0x1f, 0x77, 0xb4];

fn line(x: Vec<f64>, y: Vec<f64>) -> Line {
    Line {
        x,
        y,
        color: plotters::style::RGBColor(BLUE[0], BLUE[1], BLUE[2]),
        width: 1.0,
        style: LineStyle::Solid,
        marker: None,
        marker_size: 6.0,
        alpha: 1.0,
        label: None,
    }
}

/// Render one line as the kernel sends it (PNG) and decode it again.
fn png_of(l: Line, xlim: Option<(f64, f64)>) -> (u32, u32, Vec<u8>) {
    let mut fig = FigureData::new(1, 6.4, 4.8, 100.0);
    let mut ax = AxesData::default();
    ax.artists.push(Artist::Line(l));
    ax.xlim = xlim;
    fig.axes.push(Rc::new(RefCell::new(ax)));
    let png = nbcuda::pyplot::render::render_png(&fig).unwrap();
    let dec = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Per pixel column, the (top, bottom) rows of the line colour, from the first to the last
/// column the line touches; panics naming the first column that is empty or has a gap.
fn line_columns(w: u32, h: u32, rgb: &[u8], color: [u8; 3]) -> Vec<(usize, usize, usize)> {
    let at = |x: usize, y: usize| {
        let i = (y * w as usize + x) * 3;
        rgb[i..i + 3] == color
    };
    let rows: Vec<Vec<usize>> = (0..w as usize)
        .map(|x| (0..h as usize).filter(|&y| at(x, y)).collect())
        .collect();
    let first = rows.iter().position(|r| !r.is_empty()).expect("line drawn");
    let last = rows.iter().rposition(|r| !r.is_empty()).unwrap();
    (first..=last)
        .map(|x| {
            let r = &rows[x];
            assert!(!r.is_empty(), "column {x} has no line pixels");
            let (top, bottom) = (r[0], *r.last().unwrap());
            assert_eq!(
                r.len(),
                bottom - top + 1,
                "column {x}: line pixels {top}..={bottom} have a gap"
            );
            (x, top, bottom)
        })
        .collect()
}

/// A steep zig-zag is a solid line: every column between the ends is covered without gaps,
/// and neighbouring columns touch.
#[test]
fn steep_lines_are_drawn_without_gaps() {
    let y = vec![0.0, 10.0, 0.0, 10.0, 0.0, 10.0];
    let x = (0..y.len()).map(|i| i as f64).collect();
    let (w, h, rgb) = png_of(line(x, y), None);
    let cols = line_columns(w, h, &rgb, BLUE);
    assert!(cols.len() > 400, "{} columns", cols.len());
    for p in cols.windows(2) {
        let ((_, t0, b0), (x1, t1, b1)) = (p[0], p[1]);
        assert!(
            t1 <= b0 + 1 && t0 <= b1 + 1,
            "column {x1} does not touch its neighbour"
        );
    }
}

/// 5,000,000 points: each pixel column of the picture spans exactly the range of the
/// samples that fall into it, computed here from the data. A single-sample spike and dip
/// must survive decimation in their own columns and nowhere else.
#[test]
fn a_five_million_point_waveform_draws_each_columns_min_and_max() {
    let n = 5_000_000usize;
    let spike = 2_500_000;
    let dip = 1_234_567;
    let envelope = |i: usize| 1.0 + i as f64 / n as f64;
    let y: Vec<f64> = (0..n)
        .map(|i| match i {
            _ if i == spike => 3.0,
            _ if i == dip => -3.0,
            _ if i % 2 == 0 => envelope(i),
            _ => -envelope(i),
        })
        .collect();
    let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
    // x limits at the data's ends: the line spans the whole plot area, whose columns are
    // the intervals [c, c + 1) of the linear x mapping.
    let (w, h, rgb) = png_of(line(x, y.clone()), Some((0.0, (n - 1) as f64)));
    let cols = line_columns(w, h, &rgb, BLUE);
    let (c0, width) = (cols[0].0 as f64, cols.len() as f64);
    let top = cols.iter().map(|c| c.1).min().unwrap() as f64;
    let bottom = cols.iter().map(|c| c.2).max().unwrap() as f64;
    // The extremes of the picture are the spike (3) and the dip (-3).
    let row = |v: f64| top + (3.0 - v) / 6.0 * (bottom - top);
    let pos = |i: usize| c0 + i as f64 / (n - 1) as f64 * width;
    let col_of = |i: usize| pos(i).floor() as usize;
    // Per column, the range of the samples certainly inside it (not within 2% of a pixel
    // of its edges) and of those that may be (including that 2%).
    let mut strict: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut loose: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let widen = |m: &mut BTreeMap<usize, (f64, f64)>, c: usize, v: f64| {
        let e = m.entry(c).or_insert((v, v));
        e.0 = e.0.max(v);
        e.1 = e.1.min(v);
    };
    for (i, &v) in y.iter().enumerate() {
        let p = pos(i);
        let f = p - p.floor();
        if (0.02..=0.98).contains(&f) {
            widen(&mut strict, p.floor() as usize, v);
        }
        for c in [(p - 0.02).floor(), (p + 0.02).floor()] {
            widen(&mut loose, c as usize, v);
        }
    }
    for &(x, t, b) in &cols {
        let (hi, lo) = loose[&x];
        let (own_hi, own_lo) = strict[&x];
        let t_ok = (row(hi) - 1.5..=row(own_hi) + 1.5).contains(&(t as f64));
        let b_ok = (row(own_lo) - 1.5..=row(lo) + 1.5).contains(&(b as f64));
        assert!(
            t_ok && b_ok,
            "column {x}: drawn rows {t}..={b}, data {own_lo:.3}..{own_hi:.3} -> rows {:.1}..{:.1}",
            row(own_hi),
            row(own_lo)
        );
    }
    let spike_col = col_of(spike);
    let dip_col = col_of(dip);
    for &(x, t, b) in &cols {
        if x.abs_diff(spike_col) > 1 {
            assert!(t as f64 > row(2.2), "column {x} reaches the spike's height");
        }
        if x.abs_diff(dip_col) > 1 {
            assert!((b as f64) < row(-2.2), "column {x} reaches the dip's depth");
        }
    }
}

/// A chart PNG from a display bundle, decoded: (width, height, RGB or RGBA bytes, bytes
/// per pixel).
fn decode_png(b64: &str) -> (usize, usize, Vec<u8>, usize) {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let bpp = info.line_size / info.width as usize;
    (info.width as usize, info.height as usize, buf, bpp)
}

/// The columns `cols` of the image that hold anything but white.
fn inked_columns(png: &(usize, usize, Vec<u8>, usize), cols: std::ops::Range<usize>) -> Vec<usize> {
    let (w, h, px, bpp) = png;
    cols.filter(|&x| {
        (0..*h).any(|y| {
            let i = (y * w + x) * bpp;
            px[i..i + 3] != [255, 255, 255]
        })
    })
    .collect()
}

/// The chart: a log axis up to 100 ms, whose last tick label "100 ms" sits on the
/// plot's right edge next to the slowest bar's "90.1 ms"; both must be drawn whole,
/// leaving the image's last columns blank.
#[test]
fn timeit_chart_tick_labels_are_not_clipped() {
    let mut s = common::Session::new();
    s.run("import time").ok();
    s.run("%timeit -n 1 -r 1 time.sleep(0.09)").ok();
    s.run("%timeit -n 100 -r 1 x = 1").ok();
    let c = s.run("%timeit_chart");
    c.ok();
    let b64 = c.out.displays[0].0["image/png"].as_str().unwrap();
    let png = decode_png(b64);
    let w = png.0;
    assert_eq!(inked_columns(&png, w - 4..w), Vec::<usize>::new());
    assert_eq!(inked_columns(&png, 0..4), Vec::<usize>::new());
}

/// The timeline's last x label ("120.00", drawn whole only with room for it) sits at the
/// plot's right edge, next to the legend column (the last 190 px): the columns just left
/// of the legend stay blank.
#[test]
fn timeline_tick_labels_are_not_clipped() {
    let (mut rt, displays, _) = runtime();
    let events = vec![
        ev(LedgerKind::HtoD, 0, 1.0, 0.06, 4_000_000, true),
        ev(LedgerKind::Kernel, 0, 1.06, 0.058039215686, 0, true),
    ];
    nbcuda::engine::charts::timeline(&mut rt, &events).unwrap();
    let b64 = displays.borrow()[0]["image/png"]
        .as_str()
        .unwrap()
        .to_string();
    let png = decode_png(&b64);
    let split = png.0 - 190;
    assert_eq!(inked_columns(&png, split - 4..split), Vec::<usize>::new());
}

#[test]
fn timeline_table_is_ordered_by_start() {
    // Recorded as a ledger can record them: the copy on stream 1 became known last.
    let events = vec![
        ev(LedgerKind::Kernel, 0, 1.004, 0.0005, 0, true),
        ev(LedgerKind::DtoH, 0, 1.005, 0.001, 8, true),
        ev(LedgerKind::HtoD, 1, 1.0, 0.003, 8, true),
    ];
    let (_, text) = nbcuda::engine::charts::timeline_table(&events, 1.0);
    let kinds: Vec<&str> = text
        .lines()
        .skip(1)
        .take(3)
        .map(|l| l.split("  ").next().unwrap().trim())
        .collect();
    assert_eq!(
        kinds,
        ["H\u{2192}D copy", "kernel", "D\u{2192}H copy"],
        "{text}"
    );
}
