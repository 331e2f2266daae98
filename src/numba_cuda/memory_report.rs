//! `%memory`: the live device allocations and totals.

use std::collections::HashMap;

use crate::device::api::shape_str;
use crate::device::state::{self, DeviceState};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

fn human(bytes: usize) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The device view of one of nbcuda's own device objects, without side effects (no copies,
/// no use-after-free error: freed arrays have no bytes to report).
fn peek_view(v: &Value) -> Option<crate::device::DeviceView> {
    if let Some(d) = v.downcast::<crate::numba_cuda::devicearray::DeviceNDArray>() {
        return Some(d.view.clone());
    }
    if let Value::Object(o) = v {
        if let Some(view) = crate::numba_cuda::interop::other_kinds_view(o.as_any()) {
            return Some(view);
        }
    }
    v.downcast::<crate::numba_cuda::smart::SmartArray>()
        .and_then(|s| s.peek_gpu())
}

/// The `%memory` report: one line per live device allocation reachable from `names`
/// (variable name, shape, dtype, bytes), then used/free/total.
pub fn memory_report(rt: &mut Runtime, names: &[(String, Value)]) -> String {
    if rt.state::<DeviceState>().device.is_none() {
        return "No device memory in use (the device starts when a cell first uses it).\n".into();
    }
    // Group variables by allocation.
    let mut by_alloc: HashMap<u64, (Vec<String>, String, usize)> = HashMap::new();
    let mut order = Vec::new();
    for (name, v) in names {
        let Some(view) = peek_view(v) else {
            continue;
        };
        if view.alloc.bytes == 0 || rt.state::<DeviceState>().freed.contains_key(&view.alloc.id) {
            continue;
        }
        let e = by_alloc.entry(view.alloc.id).or_insert_with(|| {
            order.push(view.alloc.id);
            (
                Vec::new(),
                format!("{} {}", shape_str(&view.shape), view.dtype.name()),
                view.alloc.bytes,
            )
        });
        e.0.push(name.clone());
    }
    let (free, total) = match state::device(rt) {
        Ok(d) => d.backend().memory_info(),
        Err(_) => (0, 0),
    };
    let used = total - free;
    let mut out = String::new();
    if order.is_empty() {
        out.push_str("No device arrays are held by variables.\n");
    } else {
        out.push_str(&format!(
            "{:<24} {:<28} {:>12}\n",
            "Variable", "Shape / dtype", "Bytes"
        ));
        let mut named = 0;
        for id in &order {
            let (vars, desc, bytes) = &by_alloc[id];
            named += bytes;
            out.push_str(&format!(
                "{:<24} {:<28} {:>12}\n",
                vars.join(", "),
                desc,
                bytes
            ));
        }
        if used > named {
            out.push_str(&format!(
                "{:<24} {:<28} {:>12}\n",
                "(unnamed)",
                "temporaries / views freed later",
                used - named
            ));
        }
    }
    out.push_str(&format!(
        "Device memory: {} used, {} free, {} total\n",
        human(used),
        human(free),
        human(total)
    ));
    out
}
