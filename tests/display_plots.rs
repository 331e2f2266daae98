//! What each pyplot call draws, read back from the decoded PNG (bar heights, grid lines,
//! line widths, figure sizes, scatter markers, colormaps), when SVG rides along, and the
//! data sources a plot accepts (device and CuPy arrays) with what the ledger says.

mod common;

use base64::Engine as _;
use common::Session;

struct Png {
    w: usize,
    h: usize,
    rgb: Vec<u8>,
}

impl Png {
    fn px(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.w + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
    /// Rows of column `x` that have exactly `color`.
    fn rows_in_col(&self, x: usize, color: [u8; 3]) -> Vec<usize> {
        (0..self.h).filter(|&y| self.px(x, y) == color).collect()
    }
    fn count(&self, color: [u8; 3]) -> usize {
        self.rgb.chunks(3).filter(|p| *p == color).count()
    }
}

fn decode(b64: &str) -> Png {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("valid base64");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("valid PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("one frame");
    buf.truncate(info.buffer_size());
    Png {
        w: info.width as usize,
        h: info.height as usize,
        rgb: buf,
    }
}

/// The one figure a cell showed.
fn figure(s: &mut Session, code: &str) -> Png {
    let c = s.run(code);
    c.ok();
    let pngs: Vec<Png> = c
        .out
        .displays
        .iter()
        .filter_map(|(d, _, _)| d.get("image/png").and_then(|v| v.as_str()))
        .map(decode)
        .collect();
    assert_eq!(pngs.len(), 1, "one figure from {code:?}");
    pngs.into_iter().next().unwrap()
}

fn session() -> Session {
    let mut s = Session::new();
    s.run("import matplotlib.pyplot as plt\nimport numpy as np")
        .ok();
    s
}

const RED: [u8; 3] = [255, 0, 0];

/// Runs of consecutive indices.
fn runs(v: &[usize]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &i in v {
        match out.last_mut() {
            Some(r) if r.1 + 1 == i => r.1 = i,
            _ => out.push((i, i)),
        }
    }
    out
}

#[test]
fn hist_returns_counts_and_edges_and_draws_bars_of_those_heights() {
    let mut s = session();
    s.run("counts, edges, bars = plt.hist([1, 2, 2, 3, 3, 3, 3], bins=3)")
        .ok();
    assert_eq!(s.eval("counts.tolist()"), "[1.0, 2.0, 4.0]");
    assert_eq!(s.eval("len(edges)"), "4");
    assert_eq!(s.eval("float(edges[0]), float(edges[3])"), "(1.0, 3.0)");
    let img = figure(
        &mut s,
        "plt.hist([1, 2, 2, 3, 3, 3, 3], bins=3, color='red')",
    );
    // Hist bars touch: the red block spans all three; measure each at its middle column.
    let cols: Vec<usize> = (0..img.w)
        .filter(|&x| !img.rows_in_col(x, RED).is_empty())
        .collect();
    let (a, b) = (cols[0], *cols.last().unwrap());
    assert_eq!(cols.len(), b - a + 1, "one solid block of bars");
    let heights: Vec<usize> = [1, 3, 5]
        .iter()
        .map(|k| img.rows_in_col(a + (b - a) * k / 6, RED).len())
        .collect();
    let unit = heights[0] as f64;
    for (h, want) in heights.iter().zip([1.0, 2.0, 4.0]) {
        let ratio = *h as f64 / unit;
        assert!((ratio - want).abs() < 0.05, "heights {heights:?}");
    }
}

/// A light-gray run across most of a row: a horizontal grid line.
fn grid_rows(img: &Png) -> usize {
    (0..img.h)
        .filter(|&y| {
            let row: Vec<[u8; 3]> = (0..img.w).map(|x| img.px(x, y)).collect();
            let gray = |p: &[u8; 3]| p[0] == p[1] && p[1] == p[2] && (150..250).contains(&p[0]);
            row.iter().filter(|p| gray(p)).count() > img.w / 2
        })
        .count()
}

#[test]
fn grid_draws_light_lines_across_the_plot_and_is_off_by_default() {
    let mut s = session();
    let plain = figure(&mut s, "plt.plot([0, 1], [0, 1])");
    let gridded = figure(&mut s, "plt.plot([0, 1], [0, 1])\nplt.grid(True)");
    assert_eq!(grid_rows(&plain), 0);
    assert!(grid_rows(&gridded) >= 3, "{}", grid_rows(&gridded));
}

#[test]
fn linewidth_makes_the_line_thicker() {
    let mut s = session();
    let thickness = |img: &Png| img.rows_in_col(img.w / 2, RED).len();
    let thin = figure(&mut s, "plt.plot([0, 1], [5, 5], color='red')");
    let thick = figure(&mut s, "plt.plot([0, 1], [5, 5], color='red', linewidth=6)");
    let (t1, t6) = (thickness(&thin), thickness(&thick));
    assert!((1..=2).contains(&t1), "linewidth 1: {t1} rows");
    assert!(t6 >= 3 * t1 && t6 >= 5, "linewidth 6: {t6} rows, 1: {t1}");
}

#[test]
fn figure_size_and_dpi_give_the_png_size() {
    let mut s = session();
    let img = figure(
        &mut s,
        "plt.figure(figsize=(3, 2), dpi=50)\nplt.plot([1, 2])",
    );
    assert_eq!((img.w, img.h), (150, 100));
    let img = figure(&mut s, "plt.figure(figsize=(5, 2.5))\nplt.plot([1, 2])");
    assert_eq!((img.w, img.h), (500, 250));
    let c = s.run("fig = plt.figure(dpi=200)\nprint(fig)");
    c.ok();
    assert_eq!(c.out.stdout, "<Figure size 1280x960 with 0 Axes>\n");
}

#[test]
fn closed_figures_are_not_shown() {
    let mut s = session();
    let c = s.run("plt.plot([1, 2])\nplt.close()");
    c.ok();
    assert!(c.out.displays.is_empty());
    let c = s.run(
        "fig = plt.figure()\nplt.plot([1, 2])\nplt.figure()\nplt.plot([3, 1])\nplt.close(fig)",
    );
    c.ok();
    assert_eq!(c.out.displays.len(), 1, "only the figure left open");
    let c = s.run("plt.figure()\nplt.plot([1])\nplt.figure()\nplt.plot([2])\nplt.close('all')");
    c.ok();
    assert!(c.out.displays.is_empty());
}

#[test]
fn scatter_draws_one_marker_per_point_where_the_point_is() {
    let mut s = session();
    let img = figure(
        &mut s,
        "plt.scatter([1, 2, 3], [1, 3, 2], color='red')\nplt.xlim(0, 4)\nplt.ylim(0, 4)",
    );
    let cols: Vec<usize> = (0..img.w)
        .filter(|&x| !img.rows_in_col(x, RED).is_empty())
        .collect();
    let blobs = runs(&cols);
    assert_eq!(blobs.len(), 3, "three separate markers: {blobs:?}");
    // Each marker's centre row follows its y: y=1 lowest on screen, y=3 highest.
    let centre_row = |&(a, b): &(usize, usize)| {
        let r = img.rows_in_col((a + b) / 2, RED);
        (r[0] + r[r.len() - 1]) / 2
    };
    let rows: Vec<usize> = blobs.iter().map(centre_row).collect();
    assert!(rows[1] < rows[2] && rows[2] < rows[0], "{rows:?}");
    // Equal steps in data are equal steps on screen.
    let centres: Vec<usize> = blobs.iter().map(|&(a, b)| (a + b) / 2).collect();
    let (d1, d2) = (centres[1] - centres[0], centres[2] - centres[1]);
    assert!(d1.abs_diff(d2) <= 2, "{centres:?}");
}

#[test]
fn imshow_with_viridis_uses_its_colours_not_grays() {
    let mut s = session();
    let img = figure(
        &mut s,
        "plt.imshow([[0.0, 1.0], [0.5, 0.25]], cmap='viridis')",
    );
    // viridis runs from dark purple to yellow: both ends fill a quarter of the image each.
    let purple = |p: &[u8; 3]| p[2] as i32 > p[1] as i32 + 40 && p[0] > p[1] && p[1] < 40;
    let yellow = |p: &[u8; 3]| p[0] > 200 && p[1] > 200 && p[2] < 80;
    let all: Vec<[u8; 3]> = img.rgb.chunks(3).map(|p| [p[0], p[1], p[2]]).collect();
    let n_purple = all.iter().filter(|p| purple(p)).count();
    let n_yellow = all.iter().filter(|p| yellow(p)).count();
    assert!(n_purple > img.w * img.h / 20, "{n_purple}");
    assert!(n_yellow > img.w * img.h / 20, "{n_yellow}");
    // The minimum (top left) is purple, the maximum (top right) yellow.
    let top_left = all.iter().position(purple).unwrap();
    let top_right = all.iter().position(yellow).unwrap();
    assert!(top_left % img.w < top_right % img.w);
}

#[test]
fn svg_rides_along_only_when_it_is_the_smaller() {
    let mut s = session();
    let c = s.run("plt.plot([1, 3, 2])");
    c.ok();
    let d = &c.out.displays[0].0;
    let svg = d["image/svg+xml"]
        .as_str()
        .expect("a small plot has SVG too");
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    assert!(svg.len() < d["image/png"].as_str().unwrap().len());
    let c = s.run("x = np.arange(200000.0)\nplt.plot(x, np.sin(x / 1000.0) + x % 7)");
    c.ok();
    let d = &c.out.displays[0].0;
    assert!(d.contains_key("image/png"));
    assert!(!d.contains_key("image/svg+xml"), "a huge plot is PNG only");
}

#[test]
fn a_device_array_is_plotted_after_a_recorded_copy_to_the_host() {
    let mut s = session();
    s.run("from numba import cuda\nd = cuda.to_device(np.array([0.0, 1.0, 0.0, 1.0]))")
        .ok();
    s.run("%ledger on").ok();
    let c = s.run("plt.plot(d, color='red')");
    c.ok();
    assert!(
        c.out.stdout.contains("D\u{2192}H (1 copy"),
        "the ledger line names the copy: {:?}",
        c.out.stdout
    );
    let png = c.out.displays[0].0["image/png"].as_str().unwrap();
    let img = decode(png);
    // A zig-zag between two levels: red at two distinct extreme rows.
    assert!(img.count(RED) > 100);
}

#[test]
fn a_cupy_array_is_plotted() {
    let mut s = session();
    let img = figure(
        &mut s,
        "import cupy as cp\nplt.plot(cp.arange(10) * 2.0, color='red')",
    );
    let cols: Vec<usize> = (0..img.w)
        .filter(|&x| !img.rows_in_col(x, RED).is_empty())
        .collect();
    assert!(cols.len() > img.w / 2, "the line spans the plot");
    let c = s.run("import cupy as cp\nplt.plot(cp.arange(10))");
    assert!(c.result().unwrap().starts_with("[<matplotlib.lines.Line2D"));
}

#[test]
fn ledger_line_is_off_by_default_and_ledger_off_stops_it() {
    let mut s = session();
    let copy = "from numba import cuda\nd = cuda.to_device(np.zeros(1000))\nh = d.copy_to_host()";
    let out = s.stdout(copy);
    assert!(!out.contains("moved"), "off by default: {out:?}");
    s.run("%ledger on").ok();
    let out = s.stdout(copy);
    assert!(
        out.contains("moved") && out.contains("H\u{2192}D"),
        "{out:?}"
    );
    s.run("%ledger off").ok();
    let out = s.stdout(copy);
    assert!(!out.contains("moved"), "{out:?}");
    let c = s.run("%ledger sometimes");
    assert_eq!(c.ename().as_deref(), Some("UsageError"));
}

#[test]
fn timeline_has_one_lane_per_stream_that_did_work() {
    let mut s = session();
    let c = s.run(
        "%%timeline\n\
         from numba import cuda\n\
         s1 = cuda.stream()\n\
         s2 = cuda.stream()\n\
         a = cuda.to_device(np.ones(1000), stream=s1)\n\
         b = cuda.to_device(np.ones(1000), stream=s2)\n\
         cuda.synchronize()",
    );
    c.ok();
    let chart = c.out.displays[0].0["text/plain"].as_str().unwrap();
    assert!(
        chart.ends_with("on 3 lanes>"),
        "two streams and memory: {chart}"
    );
    let table = c.out.displays[1].0["text/plain"].as_str().unwrap();
    assert!(
        table.matches("H\u{2192}D").count() >= 2,
        "both copies listed: {table}"
    );
}

/// Non-finite and extreme data: every figure is drawn and the cell finishes. An all-NaN
/// image once gave its colorbar an infinite range, on which tick placement never ended.
#[test]
fn non_finite_and_extreme_data_are_drawn_without_hanging() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut s = Session::new();
        s.run("import numpy as np\nimport matplotlib.pyplot as plt")
            .ok();
        let c = s.run(
            "plt.imshow(np.full((4, 4), np.nan)); plt.colorbar(); plt.show()\n\
             a = np.arange(16.0).reshape(4, 4); a[1, 1] = np.nan; a[2, 2] = np.inf\n\
             plt.imshow(a); plt.colorbar(); plt.show()\n\
             plt.imshow(np.zeros((2, 2)), vmin=-1e308, vmax=1e308); plt.colorbar(); plt.show()\n\
             plt.plot([1, np.inf, 3]); plt.show()\n\
             plt.plot([np.nan, np.nan]); plt.show()\n\
             plt.scatter([1, 2], [np.inf, -np.inf]); plt.show()\n\
             plt.bar([1, 2], [1e308, -1e308]); plt.show()\n\
             plt.plot([1e300, -1e300], [1, 2]); plt.xlim(0, 1); plt.show()\n\
             plt.plot([0, 1], [0, 1], 'o-'); plt.xlim(1e-300, 2e-300); plt.show()\n\
             plt.bar([1, 2], [1e300, 5], edgecolor='k'); plt.ylim(0, 10); plt.show()\n\
             plt.scatter([1e300, 0.5], [0.5, 1e300]); plt.xlim(0, 1); plt.ylim(0, 1); plt.show()\n\
             print('done')",
        );
        let _ = tx.send((c.ename(), c.evalue(), c.out.stdout.clone()));
    });
    let (ename, evalue, stdout) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the cell finished within two minutes");
    assert_eq!(ename, None, "{evalue}");
    assert_eq!(stdout, "done\n");
}
