//! matplotlib.pyplot through the interpreter: what a notebook user sees (reprs, inline
//! figures, errors) and what is drawn (decoded PNG pixels).

mod common;

use base64::Engine as _;
use common::Session;

/// Decode a PNG display into (width, height, RGB rows).
fn decode_png(b64: &str) -> (u32, u32, Vec<u8>) {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("valid base64");
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = dec.read_info().expect("valid PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn pngs(cell: &common::Cell) -> Vec<(u32, u32, Vec<u8>)> {
    cell.out
        .displays
        .iter()
        .filter_map(|(d, _, _)| d.get("image/png").and_then(|v| v.as_str()))
        .map(decode_png)
        .collect()
}

fn rows_with(rgb: &[u8], w: u32, color: [u8; 3]) -> Vec<usize> {
    let mut rows = Vec::new();
    for (r, row) in rgb.chunks(w as usize * 3).enumerate() {
        if row.chunks(3).any(|p| p == color) {
            rows.push(r);
        }
    }
    rows
}

#[test]
fn plot_shows_line2d_repr_and_an_inline_png_at_end_of_cell() {
    let mut s = Session::new();
    let c = s
        .run("import matplotlib.pyplot as plt\nplt.plot([0, 1, 2, 3], [0.5, 0.5, 0.5, 0.5], 'r-')");
    c.ok();
    let result = c.result().expect("execute_result");
    assert!(
        result.starts_with("[<matplotlib.lines.Line2D at 0x"),
        "{result}"
    );
    assert!(result.ends_with(">]"), "{result}");
    let imgs = pngs(&c);
    assert_eq!(imgs.len(), 1, "one figure shown");
    let (w, h, rgb) = &imgs[0];
    assert_eq!(
        (*w, *h),
        (640, 480),
        "matplotlib's default 6.4x4.8 in at 100 dpi"
    );
    let text = c.out.displays[0].0["text/plain"].as_str().unwrap();
    assert_eq!(text, "<Figure size 640x480 with 1 Axes>");
    // A constant series sits in the middle of the plot area: red only in a thin band of
    // rows around the middle of the image.
    let red = rows_with(rgb, *w, [255, 0, 0]);
    assert!(!red.is_empty(), "the red line is drawn");
    let (lo, hi) = (red[0], *red.last().unwrap());
    assert!(hi - lo <= 4, "a thin horizontal line, rows {lo}..{hi}");
    assert!(lo > 150 && hi < 330, "near the middle, rows {lo}..{hi}");
}

#[test]
fn show_emits_once_and_a_cell_without_plots_shows_nothing() {
    let mut s = Session::new();
    let c = s.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()");
    c.ok();
    assert_eq!(pngs(&c).len(), 1);
    let c = s.run("x = 1");
    c.ok();
    assert!(c.out.displays.is_empty());
    // Figures left open by a failing cell are still shown, as the inline backend does.
    let c = s.run("plt.plot([1, 2])\nraise ValueError('late')");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(pngs(&c).len(), 1);
}

#[test]
fn mismatched_lengths_raise_matplotlibs_value_error_and_session_continues() {
    let mut s = Session::new();
    let c = s.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 2, 3, 4])");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        c.evalue(),
        "x and y must have same first dimension, but have shapes (3,) and (4,)"
    );
    let c = s.run("plt.plot([1, 2], 'q')");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().contains("'q'"), "{}", c.evalue());
    assert_eq!(s.eval("1 + 1"), "2");
}

#[test]
fn labelling_calls_return_matplotlib_reprs() {
    let mut s = Session::new();
    s.run("import matplotlib.pyplot as plt").ok();
    assert_eq!(
        s.eval("plt.title('Waveform')"),
        "Text(0.5, 1.0, 'Waveform')"
    );
    assert_eq!(s.eval("plt.xlabel('sample')"), "Text(0.5, 0, 'sample')");
    assert_eq!(s.eval("plt.ylabel(\"it's\")"), "Text(0, 0.5, \"it's\")");
    assert_eq!(s.eval("plt.xlim(0, 10)\nplt.xlim()"), "(0.0, 10.0)");
    // Figures are closed after each cell: a new cell starts with empty axes.
    assert_eq!(s.eval("plt.ylim()"), "(0.0, 1.0)");
    let legend = s.eval("plt.plot([1, 2], label='a')\nplt.legend()");
    assert!(
        legend.starts_with("<matplotlib.legend.Legend at 0x"),
        "{legend}"
    );
}

#[test]
fn subplots_grid_of_axes() {
    let mut s = Session::new();
    let c = s.run(
        "import matplotlib.pyplot as plt\n\
         fig, ax = plt.subplots(1, 2, figsize=(8, 3))\n\
         ax[0].plot([1, 2, 3], 'g^')\n\
         ax[0].set_title('left')\n\
         ax[1].bar(['a', 'b', 'c'], [3, 1, 2], color='C1')\n\
         print(fig)\n\
         print(len(ax), ax[0])",
    );
    c.ok();
    assert_eq!(
        c.out.stdout,
        "<Figure size 800x300 with 2 Axes>\n2 <Axes: title={'center': 'left'}>\n"
    );
    let imgs = pngs(&c);
    assert_eq!(imgs.len(), 1);
    assert_eq!((imgs[0].0, imgs[0].1), (800, 300));
    // C1 is matplotlib's orange (#ff7f0e): the bars are drawn in it.
    assert!(!rows_with(&imgs[0].2, 800, [0xff, 0x7f, 0x0e]).is_empty());
    let c = s.run("fig, axs = plt.subplots(2, 2)\naxs[1, 1].scatter([1, 2], [3, 4])\naxs.shape");
    c.ok();
    assert_eq!(c.result().as_deref(), Some("(2, 2)"));
    let c = s.run("fig, axs = plt.subplots(2, 2)\naxs[2, 0]");
    assert_eq!(c.ename().as_deref(), Some("IndexError"));
}

#[test]
fn imshow_with_colormap_and_colorbar() {
    let mut s = Session::new();
    let c = s.run(
        "import matplotlib.pyplot as plt\n\
         img = plt.imshow([[0, 1, 2], [3, 4, 5]], cmap='gray')\n\
         plt.colorbar()\n\
         print(img)",
    );
    c.ok();
    assert!(c
        .out
        .stdout
        .starts_with("<matplotlib.image.AxesImage at 0x"));
    let imgs = pngs(&c);
    assert_eq!(imgs.len(), 1);
    // gray maps the minimum to black and the maximum to white: both appear as cells.
    assert!(!rows_with(&imgs[0].2, 640, [0, 0, 0]).is_empty());
    let c = s.run("plt.imshow([1, 2, 3])");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(c.evalue().contains("Invalid shape (3,)"), "{}", c.evalue());
}

#[test]
fn savefig_writes_png_and_svg() {
    let dir = std::env::temp_dir().join(format!("nbcuda-savefig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png_path = dir.join("w.png");
    let svg_path = dir.join("w.svg");
    let mut s = Session::new();
    s.run(&format!(
        "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.savefig({:?})\nplt.savefig({:?})",
        png_path.to_str().unwrap(),
        svg_path.to_str().unwrap()
    ))
    .ok();
    let png = std::fs::read(&png_path).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.contains("<svg"), "{}", &svg[..100.min(svg.len())]);
    let c = s.run("plt.savefig('x.pdf')");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pyplot_functions_bind_arguments_as_matplotlibs_signatures_do() {
    // Expected values printed by matplotlib 3.10 for the same calls.
    let mut s = Session::new();
    s.run("import matplotlib.pyplot as plt").ok();
    assert_eq!(s.eval("plt.suptitle(t='Top')"), "Text(0.5, 0.98, 'Top')");
    assert_eq!(
        s.eval("plt.subplots(nrows=1, ncols=2, figsize=(4, 2))[1].shape"),
        "(2,)"
    );
    assert_eq!(s.eval("plt.close(fig='all')"), "");
    for (code, message) in [
        (
            "plt.subplots(2, 1, True)",
            "subplots() takes from 0 to 2 positional arguments but 3 were given",
        ),
        (
            "plt.gcf(1)",
            "gcf() takes 0 positional arguments but 1 was given",
        ),
        (
            "plt.tight_layout(2.0)",
            "tight_layout() takes 0 positional arguments but 1 was given",
        ),
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("TypeError"), "{code}");
        assert_eq!(c.evalue(), message, "{code}");
    }
}
