//! The session's own charts: the %ledger line, the %%timeline chart and table, the
//! %timeit chart, and the per-column decimation of long series.

mod common;

use std::cell::{RefCell as StdRefCell, RefCell};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nbcuda::devices::{LedgerEvent, LedgerKind};
use nbcuda::display::figure::{Artist, AxesData, FigureData, Line};
use nbcuda::display::style::LineStyle;
use nbcuda::language::runtime::{Frontend, StreamName};
use nbcuda::language::Runtime;
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
    let line = nbcuda::display::ledger_summary(&sample_events()).expect("something moved");
    assert_eq!(
        line,
        "moved 10.0 MB H\u{2192}D (2 copies, 1 implicit, 5 ms), 10.0 MB D\u{2192}H (1 copy, 1 ms); \
         1 kernel, 500 \u{3bc}s; allocated 4.0 MB in 1 array"
    );
    assert_eq!(nbcuda::display::ledger_summary(&[]), None);
}

#[test]
fn timeline_draws_a_chart_and_a_table_whose_totals_match_the_events() {
    let (mut rt, displays, _) = runtime();
    let events = sample_events();
    nbcuda::display::timeline(&mut rt, &events).unwrap();
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
fn timeline_of_a_cell_without_device_work_says_so() {
    let (mut rt, displays, out) = runtime();
    nbcuda::display::timeline(&mut rt, &[]).unwrap();
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

/// A long noisy waveform drawn with and without per-column decimation gives the same
/// picture: the decimated series keeps, per pixel column, the first, lowest, highest and
/// last point in order, so the rasterised polyline covers the same pixels.
#[test]
fn decimated_long_series_draws_the_same_pixels() {
    let n = 2_000_000;
    let mut state = 12345u64;
    let y: Vec<f64> = (0..n)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let noise = ((state >> 33) as f64 / (1u64 << 31) as f64) - 0.5;
            (i as f64 / 40_000.0).sin() + 0.2 * noise
        })
        .collect();
    let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let mut fig = FigureData::new(1, 6.4, 4.8, 100.0);
    let mut ax = AxesData::default();
    ax.artists.push(Artist::Line(Line {
        x,
        y,
        color: plotters::style::RGBColor(0x1f, 0x77, 0xb4),
        width: 1.0,
        style: LineStyle::Solid,
        marker: None,
        marker_size: 6.0,
        alpha: 1.0,
        label: None,
    }));
    fig.axes.push(Rc::new(RefCell::new(ax)));
    let (full, w, h) = nbcuda::display::render::render_rgb(&fig, false).unwrap();
    let (thin, _, _) = nbcuda::display::render::render_rgb(&fig, true).unwrap();
    let differing = full
        .chunks(3)
        .zip(thin.chunks(3))
        .filter(|(a, b)| a != b)
        .count();
    let total = (w * h) as usize;
    assert_eq!(differing, 0, "{differing} of {total} pixels differ");
}
