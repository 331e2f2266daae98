//! IPython.display: the MIME bundles and metadata IPython sends for JSON and Image, and
//! update_display / display handles.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nbcuda::engine::{Engine, ExecuteRequest};
use nbcuda::py::runtime::{Frontend, StreamName};
use serde_json::{json, Map, Value as Json};

/// (data, metadata, display_id, is_update) of every display message.
type Shown = Rc<RefCell<Vec<(Json, Json, Option<String>, bool)>>>;

struct Rec(Shown);

impl Frontend for Rec {
    fn stream(&mut self, _: StreamName, _: &str) {}
    fn display(
        &mut self,
        data: Map<String, Json>,
        md: Map<String, Json>,
        id: Option<&str>,
        update: bool,
    ) {
        self.0.borrow_mut().push((
            Json::Object(data),
            Json::Object(md),
            id.map(str::to_string),
            update,
        ));
    }
    fn clear_output(&mut self, _: bool) {}
    fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
        Err("no stdin".into())
    }
}

struct S {
    engine: Engine,
    n: u32,
}

impl S {
    fn new() -> S {
        S {
            engine: Engine::new(Arc::new(AtomicBool::new(false))),
            n: 0,
        }
    }
    /// Run a cell that must succeed; the display messages it sent.
    #[track_caller]
    fn shown(&mut self, code: &str) -> Vec<(Json, Json, Option<String>, bool)> {
        self.n += 1;
        let rec: Shown = Default::default();
        let req = ExecuteRequest {
            code,
            silent: false,
            store_history: true,
            allow_stdin: false,
            execution_count: self.n,
        };
        let out = self.engine.execute(&req, Box::new(Rec(rec.clone())));
        assert!(
            out.error.is_none(),
            "{code}: {:?}",
            out.error.map(|e| e.evalue)
        );
        let v = rec.borrow().clone();
        v
    }
}

/// The smallest valid PNG: a 1x1 image.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0,
    1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0a, 0x49, 0x44, 0x41, 0x54,
    0x78, 0x9c, 0x63, 0, 1, 0, 0, 5, 0, 1, 0x0d, 0x0a, 0x2d, 0xb4, 0, 0, 0, 0, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

fn b64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn json_sends_ipythons_metadata() {
    let mut s = S::new();
    let shown = s.shown("from IPython.display import JSON, display\ndisplay(JSON({'a': [1, 2]}))");
    let (data, md, _, _) = &shown[0];
    assert_eq!(data["application/json"], json!({"a": [1, 2]}));
    assert_eq!(data["text/plain"], "<IPython.core.display.JSON object>");
    assert_eq!(
        *md,
        json!({"application/json": {"expanded": false, "root": "root"}})
    );
    let shown = s.shown("display(JSON([1], expanded=True, root='top'))");
    assert_eq!(
        shown[0].1,
        json!({"application/json": {"expanded": true, "root": "top"}})
    );
    // As a cell's last expression the same bundle is the result (no display message).
    assert!(s.shown("JSON({'b': None})").is_empty());
}

#[test]
fn image_from_bytes_and_file_with_size_metadata() {
    let mut s = S::new();
    let dir = std::env::temp_dir().join(format!("nbcuda-img-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("dot.png");
    std::fs::write(&path, PNG).expect("write png");
    let bytes_lit: String = PNG.iter().map(|b| format!("\\x{b:02x}")).collect();
    let shown = s.shown(&format!(
        "from IPython.display import Image, display\ndisplay(Image(b'{bytes_lit}'))\n\
         display(Image(filename={:?}, width=100, height=50))",
        path.to_string_lossy()
    ));
    assert_eq!(shown.len(), 2);
    assert_eq!(shown[0].0["image/png"], b64(PNG));
    assert_eq!(
        shown[0].0["text/plain"],
        "<IPython.core.display.Image object>"
    );
    assert_eq!(shown[0].1, json!({}));
    assert_eq!(shown[1].0["image/png"], b64(PNG));
    assert_eq!(
        shown[1].1,
        json!({"image/png": {"width": 100, "height": 50}})
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn update_display_replaces_by_id() {
    let mut s = S::new();
    let shown = s.shown(
        "from IPython.display import display, update_display, HTML\n\
         h = display(HTML('<b>1</b>'), display_id=True)\n\
         h.update(HTML('<b>2</b>'))\n\
         display('x', display_id='fixed')\n\
         update_display('y', display_id='fixed')",
    );
    assert_eq!(shown.len(), 4);
    let id = shown[0].2.clone().expect("an id");
    assert!(!shown[0].3);
    assert_eq!(shown[0].0["text/html"], "<b>1</b>");
    assert_eq!(shown[1].2.as_deref(), Some(id.as_str()));
    assert!(shown[1].3, "update() is an update_display_data");
    assert_eq!(shown[1].0["text/html"], "<b>2</b>");
    assert_eq!(shown[2].2.as_deref(), Some("fixed"));
    assert!(!shown[2].3);
    assert_eq!(shown[3].0["text/plain"], "'y'");
    assert_eq!(shown[3].2.as_deref(), Some("fixed"));
    assert!(shown[3].3);
}

#[test]
fn ipython_display_functions_take_their_arguments_by_name() {
    // IPython 8's parameter names: HTML(data=None, url=None, filename=None, metadata=None),
    // clear_output(wait=False), update_display(obj, *, display_id), JSON(data=None, ...).
    let mut s = S::new();
    let shown = s.shown(
        "from IPython.display import HTML, JSON, clear_output, display, update_display\n\
         display(HTML(data='<b>x</b>'), display_id='d1')\n\
         clear_output(wait=True)\n\
         update_display(obj=HTML('<i>y</i>'), display_id='d1')\n\
         display(JSON(data={'a': 1}, root='top'))",
    );
    assert_eq!(shown.len(), 3);
    assert_eq!(shown[1].0["text/html"], "<i>y</i>");
    assert_eq!(shown[1].2.as_deref(), Some("d1"));
    assert!(shown[1].3);
    assert_eq!(shown[2].0["application/json"], json!({"a": 1}));
    assert_eq!(shown[2].1["application/json"]["root"], "top");
}
