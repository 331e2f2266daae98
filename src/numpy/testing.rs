//! `np.testing`: assert_allclose, assert_array_equal, assert_equal, assert_almost_equal,
//! raising AssertionError with NumPy-like reports.

use crate::arrays::operator::Cmp;
use std::rc::Rc;

use crate::arrays::elem::{broadcast_shapes, broadcast_to, read_vec, shape_str, B8};
use crate::arrays::format::{array2string, array_repr};
use crate::arrays::ufunc::{binary_ufunc, Ufunc2};
use crate::arrays::NdArray;
use crate::numpy::misc::isclose;
use crate::py::error::PyErr;
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

fn num_str(v: f64) -> String {
    let a = crate::arrays::elem::scalar_array(crate::arrays::dtype::Scalar::F64(v));
    let s = array2string(
        &crate::arrays::elem::broadcast_to(&a, &[1]).unwrap_or(a),
        " ",
        "",
        "",
    );
    s.trim_start_matches('[')
        .trim_end_matches(']')
        .trim()
        .to_string()
}

fn report(
    header: &str,
    x: &NdArray,
    y: &NdArray,
    ok: &[bool],
    names: (&str, &str),
    err_msg: &str,
) -> PyErr {
    let total = ok.len();
    let bad = ok.iter().filter(|&&o| !o).count();
    let xv = read_vec::<f64>(
        &broadcast_to(
            x,
            &broadcast_shapes(&[&x.shape, &y.shape]).unwrap_or_default(),
        )
        .unwrap_or(x.clone()),
    );
    let yv = read_vec::<f64>(
        &broadcast_to(
            y,
            &broadcast_shapes(&[&x.shape, &y.shape]).unwrap_or_default(),
        )
        .unwrap_or(y.clone()),
    );
    let mut max_abs = 0f64;
    let mut max_rel = 0f64;
    for i in 0..total.min(xv.len()).min(yv.len()) {
        if !ok[i] {
            let d = (xv[i] - yv[i]).abs();
            max_abs = max_abs.max(d);
            max_rel = max_rel.max(if yv[i] != 0.0 {
                d / yv[i].abs()
            } else {
                f64::INFINITY
            });
        }
    }
    let mut msg = format!("\n{header}\n");
    if !err_msg.is_empty() {
        msg.push_str(err_msg);
        msg.push('\n');
    }
    msg.push_str(&format!(
        "\nMismatched elements: {bad} / {total} ({}%)\n",
        g3(100.0 * bad as f64 / total.max(1) as f64)
    ));
    msg.push_str(&format!(
        "Max absolute difference among violations: {}\n",
        num_str(max_abs)
    ));
    msg.push_str(&format!(
        "Max relative difference among violations: {}\n",
        num_str(max_rel)
    ));
    msg.push_str(&format!(
        " {}: {}\n {}: {}",
        names.0,
        array_repr(x),
        names.1,
        array_repr(y)
    ));
    PyErr::new("AssertionError", msg)
}

fn shape_mismatch(header: &str, x: &NdArray, y: &NdArray, names: (&str, &str)) -> PyErr {
    PyErr::new(
        "AssertionError",
        format!(
            "\n{header}\n\n(shapes {}, {} mismatch)\n {}: {}\n {}: {}",
            shape_str(&x.shape),
            shape_str(&y.shape),
            names.0,
            array_repr(x),
            names.1,
            array_repr(y)
        ),
    )
}

fn compatible(x: &NdArray, y: &NdArray) -> bool {
    x.shape == y.shape || x.ndim() == 0 || y.ndim() == 0
}

/// Build `np.testing`.
pub fn module() -> Rc<Module> {
    let m = Module::new("numpy.testing", "NumPy's testing assertions.");
    m.def(
        Function,
        "assert_allclose",
        "actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg='', verbose=True, *, strict=False",
        "Raise AssertionError unless the arrays are equal within tolerance.",
        |rt, b| {
            let x = to_ndarray(rt, b[0].as_ref().unwrap_or(&Value::None))?;
            let y = to_ndarray(rt, b[1].as_ref().unwrap_or(&Value::None))?;
            let rtol = b[2]
                .as_ref()
                .map(|v| v.as_f64())
                .transpose()?
                .unwrap_or(1e-7);
            let atol = b[3]
                .as_ref()
                .map(|v| v.as_f64())
                .transpose()?
                .unwrap_or(0.0);
            let en = !matches!(b[4], Some(Value::Bool(false)));
            let err = b[5]
                .as_ref()
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_string();
            let header = format!(
                "Not equal to tolerance rtol={}, atol={}",
                crate::arrays::format::float_repr(rtol).trim_end_matches(".0"),
                fmt_tol(atol)
            );
            if !compatible(&x, &y) {
                return Err(shape_mismatch(&header, &x, &y, ("ACTUAL", "DESIRED")));
            }
            let ok: Vec<bool> = read_vec::<B8>(&isclose(&x, &y, rtol, atol, en)?)
                .iter()
                .map(|v| v.0 != 0)
                .collect();
            if ok.iter().all(|&o| o) {
                return Ok(Value::None);
            }
            Err(report(&header, &x, &y, &ok, ("ACTUAL", "DESIRED"), &err))
        },
    );
    for name in ["assert_array_equal", "assert_equal"] {
        m.def(
            Function,
            name,
            "actual, desired, err_msg='', verbose=True, *, strict=False",
            "Raise AssertionError unless the arrays are equal.",
            move |rt, b| {
                let (actual, desired) = (
                    b[0].as_ref().unwrap_or(crate::py::value::NONE),
                    b[1].as_ref().unwrap_or(crate::py::value::NONE),
                );
                if let Some((bad, n)) = crate::py::records::mismatches(actual, desired) {
                    if bad == 0 {
                        return Ok(Value::None);
                    }
                    return Err(PyErr::new(
                        "AssertionError",
                        format!("\nArrays are not equal\n\nMismatched elements: {bad} / {n}"),
                    ));
                }
                let x = to_ndarray(rt, b[0].as_ref().unwrap_or(&Value::None))?;
                let y = to_ndarray(rt, b[1].as_ref().unwrap_or(&Value::None))?;
                let err = b[2]
                    .as_ref()
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string();
                let header = "Arrays are not equal";
                if !compatible(&x, &y) {
                    return Err(shape_mismatch(header, &x, &y, ("ACTUAL", "DESIRED")));
                }
                let eq = binary_ufunc(Ufunc2::Cmp(Cmp::Eq), &x, &y, None)?;
                let xv = read_vec::<f64>(&x);
                let yv = read_vec::<f64>(&y);
                let ok: Vec<bool> = read_vec::<B8>(&eq)
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        v.0 != 0
                            || (xv.get(i).is_some_and(|a| a.is_nan())
                                && yv.get(i).is_some_and(|b| b.is_nan()))
                    })
                    .collect();
                if ok.iter().all(|&o| o) {
                    return Ok(Value::None);
                }
                Err(report(header, &x, &y, &ok, ("ACTUAL", "DESIRED"), &err))
            },
        );
    }
    // assert_array_almost_equal is the same test with 6 decimals by default.
    for (name, default, sig) in [
        (
            "assert_almost_equal",
            7,
            "actual, desired, decimal=7, err_msg='', verbose=True",
        ),
        (
            "assert_array_almost_equal",
            6,
            "actual, desired, decimal=6, err_msg='', verbose=True",
        ),
    ] {
        m.def(
            Function,
            name,
            sig,
            "Raise AssertionError unless abs(desired-actual) < 1.5 * 10**(-decimal).",
            move |rt, b| {
                let x = to_ndarray(rt, b[0].as_ref().unwrap_or(&Value::None))?;
                let y = to_ndarray(rt, b[1].as_ref().unwrap_or(&Value::None))?;
                let dec = b[2]
                    .as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(default);
                let tol = 1.5 * 10f64.powi(-(dec as i32));
                let header = format!("Arrays are not almost equal to {dec} decimals");
                if !compatible(&x, &y) {
                    return Err(shape_mismatch(&header, &x, &y, ("ACTUAL", "DESIRED")));
                }
                let ok: Vec<bool> = read_vec::<B8>(&isclose(&x, &y, 0.0, tol, true)?)
                    .iter()
                    .map(|v| v.0 != 0)
                    .collect();
                if ok.iter().all(|&o| o) {
                    return Ok(Value::None);
                }
                Err(report(&header, &x, &y, &ok, ("ACTUAL", "DESIRED"), ""))
            },
        );
    }
    Rc::new(m)
}

fn fmt_tol(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e16 {
        format!("{}", v as i64)
    } else {
        crate::arrays::format::float_repr(v)
    }
}

/// Python's `{:.3g}` for percentages in [0, 100].
fn g3(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let digits = v.abs().log10().floor() as i32 + 1;
    let dec = (3 - digits).max(0) as usize;
    let s = format!("{v:.dec$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}
