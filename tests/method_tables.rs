//! The declarative method tables (`py::methods`) of `list`, `tuple`, `dict`, `set`, `str`
//! and device arrays: every method is found by attribute lookup, listed by `dir()` and
//! offered by completion; `obj.method?` shows its signature; arguments bind by name from
//! the signature; and argument errors are CPython's. Expected strings are CPython 3.11.7's
//! output for the same code.

mod common;
use common::Session;

use nbcuda::interp::container_methods::{DICT, LIST, TUPLE};
use nbcuda::interp::sets::SET;
use nbcuda::interp::str_methods::STR;

/// (a Python expression of the type, that type's table names)
fn tables() -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("[1, 2]", LIST.names()),
        ("(1, 2)", TUPLE.names()),
        ("{'a': 1}", DICT.names()),
        ("{1, 2}", SET.names()),
        ("'ab'", STR.names()),
    ]
}

#[test]
fn every_table_name_is_found_by_lookup_and_listed_by_dir() {
    let mut s = Session::new();
    for (obj, names) in tables() {
        assert!(!names.is_empty());
        let listed = s.eval(&format!("dir({obj})"));
        for name in &names {
            assert!(
                listed.contains(&format!("'{name}'")),
                "{obj}: {name} not in {listed}"
            );
            let c = s.run(&format!("callable({obj}.{name})"));
            assert_eq!(c.result().as_deref(), Some("True"), "{obj}.{name}");
        }
    }
}

#[test]
fn every_table_name_is_offered_by_completion() {
    let mut s = Session::new();
    s.run("zl = [1]\nzt = (1,)\nzd = {1: 2}\nzs = {1}\nzstr = 'a'")
        .ok();
    for ((_, names), var) in tables().into_iter().zip(["zl", "zt", "zd", "zs", "zstr"]) {
        let code = format!("{var}.");
        let c = s.engine.complete(&code, code.chars().count());
        for name in names {
            assert!(
                c.types.iter().any(|(text, _)| *text == name),
                "{var}.{name} not offered: {:?}",
                c.types
            );
        }
    }
}

#[test]
fn the_names_cpython_lists_are_listed() {
    let mut s = Session::new();
    // CPython 3.11's public names of list, tuple and dict.
    assert_eq!(
        s.stdout("print([n for n in dir([]) if not n.startswith('_')])"),
        "['append', 'clear', 'copy', 'count', 'extend', 'index', 'insert', 'pop', 'remove', 'reverse', 'sort']\n"
    );
    assert_eq!(
        s.stdout("print([n for n in dir(()) if not n.startswith('_')])"),
        "['count', 'index']\n"
    );
    assert_eq!(
        s.stdout("print([n for n in dir({}) if not n.startswith('_')])"),
        "['clear', 'copy', 'fromkeys', 'get', 'items', 'keys', 'pop', 'popitem', 'setdefault', 'update', 'values']\n"
    );
}

#[test]
fn arguments_bind_by_name_from_the_signature() {
    let mut s = Session::new();
    for (code, want) in [
        ("'a,b'.split(sep=',')", "['a', 'b']"),
        ("'a,b,c'.split(',', maxsplit=1)", "['a', 'b,c']"),
        ("'a b c'.rsplit(maxsplit=1)", "['a b', 'c']"),
        ("[3, 1, 2].index(2, 1)", "2"),
        ("[1, 2, 1, 2].index(1, -2)", "2"),
        ("(1, 2, 1).index(1, 1, 3)", "2"),
        ("repr({}.get('k'))", "'None'"),
        ("dict.fromkeys('ab', 0)", "{'a': 0, 'b': 0}"),
        ("{}.fromkeys([1])", "{1: None}"),
        ("'ab'.center(6, '*')", "'**ab**'"),
        ("'{} {x}'.format(1, x=2)", "'1 2'"),
    ] {
        assert_eq!(s.eval(code), want, "{code}");
    }
    s.run("l = [3, 1, 2]\nl.sort(reverse=True)\nd = {}\nd.update([(1, 2)], k=3)")
        .ok();
    assert_eq!(s.eval("l, d"), "([3, 2, 1], {1: 2, 'k': 3})");
}

#[test]
fn argument_errors_are_cpythons() {
    let mut s = Session::new();
    for (code, want) in [
        (
            "[].append()",
            "list.append() takes exactly one argument (0 given)",
        ),
        (
            "[].append(1, 2)",
            "list.append() takes exactly one argument (2 given)",
        ),
        ("[].append(x=1)", "list.append() takes no keyword arguments"),
        ("[].clear(1)", "list.clear() takes no arguments (1 given)"),
        ("[].insert(1)", "insert expected 2 arguments, got 1"),
        ("[].pop(1, 2)", "pop expected at most 1 argument, got 2"),
        ("[].index()", "index expected at least 1 argument, got 0"),
        ("[].sort(1)", "sort() takes no positional arguments"),
        (
            "[].sort(foo=1)",
            "'foo' is an invalid keyword argument for sort()",
        ),
        (
            "'a'.split(1, 2, 3)",
            "split() takes at most 2 arguments (3 given)",
        ),
        (
            "'a'.split(foo=1)",
            "'foo' is an invalid keyword argument for split()",
        ),
        (
            "'a'.split(',', sep=',')",
            "argument for split() given by name ('sep') and position (1)",
        ),
        (
            "'a'.split(sep=',', maxsplit=1, x=2)",
            "split() takes at most 2 keyword arguments (3 given)",
        ),
        ("'a'.upper(1)", "str.upper() takes no arguments (1 given)"),
        (
            "'a'.replace('a')",
            "replace expected at least 2 arguments, got 1",
        ),
        ("'a'.find()", "find() takes at least 1 argument (0 given)"),
        ("'a'.find(x=1)", "str.find() takes no keyword arguments"),
        (
            "'a'.startswith('a', 1, 2, 3)",
            "startswith() takes at most 3 arguments (4 given)",
        ),
        (
            "'a'.zfill()",
            "str.zfill() takes exactly one argument (0 given)",
        ),
        ("{}.get()", "get expected at least 1 argument, got 0"),
        ("{}.get(k=1)", "dict.get() takes no keyword arguments"),
        ("{}.keys(1)", "dict.keys() takes no arguments (1 given)"),
        (
            "{}.update(1, 2)",
            "update expected at most 1 argument, got 2",
        ),
        (
            "().count(1, 2)",
            "tuple.count() takes exactly one argument (2 given)",
        ),
        (
            "set().add()",
            "set.add() takes exactly one argument (0 given)",
        ),
        ("set().union(x=1)", "set.union() takes no keyword arguments"),
        ("set().pop(1)", "set.pop() takes no arguments (1 given)"),
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("TypeError"), "{code}");
        assert_eq!(c.evalue(), want, "{code}");
    }
}

#[test]
fn help_shows_the_table_signature() {
    let mut s = Session::new();
    s.run("zs = 'a'\nzl = []\nzd = {}").ok();
    for (code, sig) in [
        ("zs.split?", "split(sep=None, maxsplit=-1)"),
        ("zl.append?", "append(object, /)"),
        ("zd.get?", "get(key, default=None, /)"),
        ("zl.sort?", "sort(*, key=None, reverse=False)"),
    ] {
        let c = s.run(code);
        c.ok();
        let text = c.page_text();
        assert!(text.contains(sig), "{code}: {text}");
    }
}

#[test]
fn device_array_methods_come_from_their_table() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np\nd = cuda.to_device(np.arange(6.0))")
        .ok();
    let names = nbcuda::numba_cuda::devicemethods::METHODS.names();
    assert_listed_and_callable(&mut s, "d", &names);
    // Numba's methods take these by name (numba/cuda/cudadrv/devicearray.py).
    assert_eq!(
        s.stdout("print(d.copy_to_host(stream=0)[-1], d.reshape(2, 3, order='C').shape, d.split(section=4)[1].shape)"),
        "5.0 (2, 3) (2,)\n"
    );
    let c = s.run("d.copy_to_host?");
    c.ok();
    let text = c.page_text();
    assert!(text.contains("copy_to_host(ary=None, stream=0)"), "{text}");
}

#[test]
fn str_arguments_that_must_be_str_reject_none() {
    let mut s = Session::new();
    // CPython 3.11 raises TypeError for each (its wording differs: "must be str, not NoneType").
    for code in [
        "'ab'.removeprefix(None)",
        "'ab'.find(None)",
        "'ab'.partition(None)",
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("TypeError"), "{code}");
    }
}

#[test]
fn every_reduction_has_an_ndarray_method_taking_its_functions_parameters() {
    use nbcuda::arrays::operator::Reduce;
    use nbcuda::py::ndarray_methods::{reduction_function_sig, NDARRAY};
    for &(name, kind) in Reduce::NAMES {
        let spec = NDARRAY
            .find(kind.name())
            .unwrap_or_else(|| panic!("np.{name}: no ndarray method {}", kind.name()));
        let function = reduction_function_sig(kind);
        let rest = function.strip_prefix("a, ").expect("the array first");
        // NumPy's any/all methods take a dtype their module functions lack.
        let method = spec.sig.replace("dtype=None, ", "");
        assert_eq!(method, rest.replace("dtype=None, ", ""), "{name}");
    }
}

#[test]
fn cupy_array_methods_come_from_their_table() {
    let mut s = Session::new();
    s.run("import cupy as cp\nx = cp.arange(6.0)").ok();
    let names = nbcuda::cupy::array_methods::METHODS.names();
    assert_listed_and_callable(&mut s, "x", &names);
    // CuPy 13's signatures (cupy/_core/core.pyx), shown by `?` and bound by name.
    let c = s.run("x.get?");
    c.ok();
    let text = c.page_text();
    assert!(
        text.contains("get(stream=None, order='C', out=None, blocking=True)"),
        "{text}"
    );
    assert_eq!(
        s.stdout("print(x.get(stream=None)[-1], x.sum(axis=0, keepdims=True).shape, x.reshape(2, 3, order='C').shape)"),
        "5.0 (1,) (2, 3)\n"
    );
    // Cython's argument errors, as CuPy's methods give them.
    let c = s.run("x.sum(0, None, None, False, 5)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(
        c.evalue()
            .contains("sum() takes at most 4 positional arguments (5 given)"),
        "{}",
        c.evalue()
    );
}

#[test]
fn objects_with_index_subscript_sequences_and_operator_index() {
    let mut s = Session::new();
    // CPython 3.11: a 0-d integer array (CuPy's too) and any class with __index__ index a
    // list; operator.index gives the int.
    assert_eq!(
        s.stdout(
            "import cupy as cp, operator\nclass I:\n    def __index__(self): return 1\n\
             print([5, 6, 7][cp.arange(3)[2]], 'abc'[I()], operator.index(I()), operator.index(True))"
        ),
        "7 b 1 1\n"
    );
    let c = s.run("operator.index(1.5)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

#[test]
fn stream_and_event_methods_come_from_their_tables() {
    use nbcuda::numba_cuda::stream_objects::{EVENT, STREAM};
    let mut s = Session::new();
    s.run("from numba import cuda\nst = cuda.stream()\nev = cuda.event()")
        .ok();
    assert_listed_and_callable(&mut s, "st", &STREAM.names());
    assert_listed_and_callable(&mut s, "ev", &EVENT.names());
    // Numba's parameters (numba/cuda/cudadrv/driver.py), bound by name.
    assert_eq!(
        s.stdout(
            "ev.record(stream=st)\nst.add_callback(callback=lambda s, status, arg: print(status, arg), arg=3)\n\
             ev.synchronize()\nprint(ev.query(), ev.elapsed_time(evtend=ev))"
        ),
        "0 3\nTrue 0.0\n"
    );
    let c = s.run("ev.record?");
    c.ok();
    assert!(
        c.page_text().contains("record(stream=0)"),
        "{}",
        c.page_text()
    );
    let c = s.run("st.synchronize(1)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

#[test]
fn re_pattern_and_match_methods_come_from_their_tables() {
    use nbcuda::interp::re_module::{MATCH, PATTERN};
    let mut s = Session::new();
    s.run("import re\np = re.compile(r'(\\d)(x)?')\nm = p.search('a1')")
        .ok();
    assert_listed_and_callable(&mut s, "p", &PATTERN.names());
    assert_listed_and_callable(&mut s, "m", &MATCH.names());
    // CPython 3.11: pos/endpos and default by name; group's argument is positional-only.
    assert_eq!(
        s.stdout("print(p.search(string='a1b2', pos=2).span(), m.groups(default='-'), m.start(1))"),
        "(3, 4) ('1', '-') 1\n"
    );
    let c = s.run("m.span(group=1)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

/// Every name of a method table is listed by `dir(var)` and is callable as `var.name`.
fn assert_listed_and_callable(s: &mut Session, var: &str, names: &[String]) {
    assert!(!names.is_empty(), "{var}: an empty table");
    let listed = s.eval(&format!("dir({var})"));
    for name in names {
        assert!(
            listed.contains(&format!("'{name}'")),
            "{var}.{name} not in {listed}"
        );
        let c = s.run(&format!("callable({var}.{name})"));
        assert_eq!(c.result().as_deref(), Some("True"), "{var}.{name}");
    }
}
