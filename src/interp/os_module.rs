//! The `os` module as notebooks use it: the working directory, directory listing and
//! creation, removing files, `os.environ` (the process environment, live) and `os.path`
//! (posixpath's string rules: join, split parts, extensions, normalising).

use std::rc::Rc;

use crate::interp::shell::os_error;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style::{Clinic, Function};
use crate::py::value::{Args, Module, Object, Value};

/// What a C function of `os` takes as a path besides str and os.PathLike, which its
/// TypeError lists: an open file descriptor, or also None (`os.listdir`).
#[derive(Clone, Copy, PartialEq)]
enum Accepts {
    Path,
    PathOrFd,
    PathFdOrNone,
}

/// A path argument of an `os` C function (`path_converter`). A file descriptor is read
/// through /proc, where the process's open files are named.
fn c_path(fname: &str, v: Option<&Value>, accepts: Accepts) -> PyResult<String> {
    match v {
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(Value::Int(fd)) if accepts != Accepts::Path => Ok(format!("/proc/self/fd/{fd}")),
        Some(p) if crate::interp::pathlib_module::fspath(p).is_some() => {
            Ok(crate::interp::pathlib_module::fspath(p).unwrap_or_default())
        }
        other => Err(PyErr::type_error(format!(
            "{fname}: path should be string, bytes{}, not {}",
            match accepts {
                Accepts::Path => " or os.PathLike",
                Accepts::PathOrFd => ", os.PathLike or integer",
                Accepts::PathFdOrNone => ", os.PathLike, integer or None",
            },
            other.map_or_else(|| "NoneType".into(), |v| v.type_name())
        ))),
    }
}

/// A path argument of a posixpath function (Python code calling `os.fspath`).
fn fspath_arg(v: Option<&Value>) -> PyResult<String> {
    match v {
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(p) if crate::interp::pathlib_module::fspath(p).is_some() => {
            Ok(crate::interp::pathlib_module::fspath(p).unwrap_or_default())
        }
        other => Err(PyErr::type_error(format!(
            "expected str, bytes or os.PathLike object, not {}",
            other.map_or_else(|| "NoneType".into(), |v| v.type_name())
        ))),
    }
}

/// `dir_fd=` (or `src_dir_fd=`, `dst_dir_fd=`) for `path`: an absolute path ignores it, as
/// the `*at` calls do. nbcuda's `os` opens no descriptors a cell could pass, so a relative
/// path with one is refused, as CPython refuses it where the platform lacks those calls.
fn no_dir_fd(b: &Bound, slot: usize, path: &str, name: &str) -> PyResult<()> {
    if path.starts_with('/') || b.get(slot).is_none_or(|v| v.is_none()) {
        return Ok(());
    }
    Err(PyErr::not_implemented(format!(
        "{name} unavailable on this platform"
    )))
}

fn truthy_kw(rt: &mut Runtime, v: Option<&Value>) -> PyResult<bool> {
    match v {
        Some(v) => rt.truthy(v),
        None => Ok(false),
    }
}

pub fn module(rt: &mut Runtime) -> PyResult<Rc<Module>> {
    let m = Module::new(
        "os",
        "Operating system interfaces: files, directories, environment.",
    );
    m.set("sep", Value::str("/"));
    m.set("linesep", Value::str("\n"));
    m.set("name", Value::str("posix"));
    m.set("environ", Value::object(Environ));
    m.set(
        "path",
        Value::Module(crate::interp::modules::import(rt, "os.path")?),
    );
    // os's C functions belong to posix, as CPython's messages say (`posix.getcwd() takes
    // no arguments`).
    let posix = Module::new("posix", "");
    posix.def(
        Clinic,
        "getcwd",
        "",
        "Return a unicode string representing the current working directory.",
        |_, _| {
            std::env::current_dir()
                .map(|p| Value::str(&p.to_string_lossy()))
                .map_err(|e| os_error(&e, None))
        },
    );
    posix.def(
        Clinic,
        "chdir",
        "path",
        "Change the current working directory to the specified path.",
        |_, b| {
            let p = c_path("chdir", b.get(0), Accepts::PathOrFd)?;
            std::env::set_current_dir(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::None)
        },
    );
    posix.def(
        Clinic,
        "listdir",
        "path=None",
        "Return a list containing the names of the files in the directory.",
        |_, b| {
            let p = match b.get(0) {
                None | Some(Value::None) => ".".to_string(),
                v => c_path("listdir", v, Accepts::PathFdOrNone)?,
            };
            let rd = std::fs::read_dir(&p).map_err(|e| os_error(&e, Some(&p)))?;
            let mut names = Vec::new();
            for entry in rd {
                let entry = entry.map_err(|e| os_error(&e, Some(&p)))?;
                names.push(Value::str(&entry.file_name().to_string_lossy()));
            }
            Ok(Value::list(names))
        },
    );
    posix.def(
        Clinic,
        "stat",
        "path, *, dir_fd=None, follow_symlinks=True",
        "Perform a stat system call on the given path.",
        |rt, b| {
            let p = c_path("stat", b.get(0), Accepts::PathOrFd)?;
            no_dir_fd(&b, 1, &p, "dir_fd")?;
            let meta = if rt.truthy(&b.value(2))? {
                std::fs::metadata(&p)
            } else {
                std::fs::symlink_metadata(&p)
            };
            let meta = meta.map_err(|e| os_error(&e, Some(&p)))?;
            Ok(crate::interp::stat_result::stat_result(&meta))
        },
    );
    posix.def(
        Clinic,
        "mkdir",
        "path, mode=511, *, dir_fd=None",
        "Create a directory.",
        |_, b| {
            let p = c_path("mkdir", b.get(0), Accepts::Path)?;
            no_dir_fd(&b, 2, &p, "dir_fd")?;
            let mode = b.value(1).as_index()?;
            make_dir(&p, mode)?;
            Ok(Value::None)
        },
    );
    for (name, doc) in [
        ("remove", "Remove a file (same as unlink())."),
        ("unlink", "Remove a file (same as remove())."),
    ] {
        posix.def(Clinic, name, "path, *, dir_fd=None", doc, move |_, b| {
            let p = c_path(name, b.get(0), Accepts::Path)?;
            no_dir_fd(&b, 1, &p, "dir_fd")?;
            std::fs::remove_file(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::None)
        });
    }
    posix.def(
        Clinic,
        "rename",
        "src, dst, *, src_dir_fd=None, dst_dir_fd=None",
        "Rename a file or directory.",
        |_, b| {
            let src = c_path("rename", b.get(0), Accepts::Path)?;
            let dst = c_path("rename", b.get(1), Accepts::Path)?;
            no_dir_fd(&b, 2, &src, "src_dir_fd")?;
            no_dir_fd(&b, 3, &dst, "dst_dir_fd")?;
            std::fs::rename(&src, &dst).map_err(|e| {
                // CPython names both paths: "[Errno 2] No such file or directory: 'a' -> 'b'".
                let mut err = os_error(&e, Some(&src));
                err.message
                    .push_str(&format!(" -> {}", crate::interp::repr::str_repr(&dst)));
                err
            })?;
            Ok(Value::None)
        },
    );
    posix.def(
        Clinic,
        "rmdir",
        "path, *, dir_fd=None",
        "Remove a directory.",
        |_, b| {
            let p = c_path("rmdir", b.get(0), Accepts::Path)?;
            no_dir_fd(&b, 1, &p, "dir_fd")?;
            std::fs::remove_dir(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::None)
        },
    );
    for name in posix.names() {
        if let Some(f) = posix.get(&name) {
            m.set(&name, f);
        }
    }
    m.def(
        Function,
        "makedirs",
        "name, mode=511, exist_ok=False",
        "Create a directory and any missing parents.",
        |rt, b| {
            let p = fspath_arg(b.get(0))?;
            let exist_ok = truthy_kw(rt, b[2].as_ref())?;
            if std::path::Path::new(&p).exists() {
                if exist_ok && std::path::Path::new(&p).is_dir() {
                    return Ok(Value::None);
                }
                return Err(PyErr::new(
                    "FileExistsError",
                    format!(
                        "[Errno 17] File exists: {}",
                        crate::interp::repr::str_repr(&p)
                    ),
                ));
            }
            // The parents get the default mode and the leaf `mode`, as os.makedirs does.
            if let Some(parent) = std::path::Path::new(&p).parent() {
                if !parent.as_os_str().is_empty() {
                    std::fs::create_dir_all(parent).map_err(|e| os_error(&e, Some(&p)))?;
                }
            }
            make_dir(&p, b.value(1).as_index()?)?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "getenv",
        "key, default=None",
        "An environment variable, or default.",
        |_, b| {
            // os.environ's encodekey.
            let k = match b.get(0) {
                Some(Value::Str(s)) => s.to_string(),
                other => {
                    return Err(PyErr::type_error(format!(
                        "str expected, not {}",
                        other.map_or_else(|| "NoneType".into(), |v| v.type_name())
                    )))
                }
            };
            Ok(match std::env::var_os(&k) {
                Some(v) => Value::str(&v.to_string_lossy()),
                None => b[1].clone().unwrap_or(Value::None),
            })
        },
    );
    Ok(Rc::new(m))
}

/// `mkdir(path, mode)`: mode is masked by the umask, as mkdir(2) does.
fn make_dir(p: &str, mode: i64) -> PyResult<()> {
    use std::os::unix::fs::DirBuilderExt;
    let mode =
        u32::try_from(mode).map_err(|_| PyErr::new("OverflowError", "mode is out of range"))?;
    std::fs::DirBuilder::new()
        .mode(mode)
        .create(p)
        .map_err(|e| os_error(&e, Some(p)))
}

/// A yes/no question about a path (`os.path.isdir`).
type PathTest = fn(&std::path::Path) -> bool;

pub fn path_module() -> Rc<Module> {
    let m = Module::new("posixpath", "Path names as strings, with POSIX rules.");
    m.set("sep", Value::str("/"));
    m.def(
        Function,
        "join",
        "a, *p",
        "Join two or more pathname components, inserting '/' as needed.",
        |_, b| {
            let mut out = fspath_arg(b.get(0))?;
            for v in &b.rest {
                let part = match v {
                    Value::Str(s) => s.to_string(),
                    v => crate::interp::pathlib_module::fspath(v).ok_or_else(|| {
                        PyErr::type_error(format!(
                            "join() argument must be str, bytes, or os.PathLike object, not '{}'",
                            v.type_name()
                        ))
                    })?,
                };
                if part.starts_with('/') {
                    out = part;
                } else if out.is_empty() || out.ends_with('/') {
                    out.push_str(&part);
                } else {
                    out.push('/');
                    out.push_str(&part);
                }
            }
            Ok(Value::str(&out))
        },
    );
    let tests: [(&str, &'static str, &str, PathTest); 3] = [
        (
            "exists",
            "path",
            "Test whether a path exists.  Returns False for broken symbolic links",
            |p| p.exists(),
        ),
        (
            "isfile",
            "path",
            "Test whether a path is a regular file",
            |p| p.is_file(),
        ),
        (
            "isdir",
            "s",
            "Return true if the pathname refers to an existing directory.",
            |p| p.is_dir(),
        ),
    ];
    for (name, sig, doc, test) in tests {
        // genericpath calls os.stat, whose TypeError escapes; OSError means False.
        m.def(Function, name, sig, doc, move |_, b| {
            let p = c_path("stat", b.get(0), Accepts::PathOrFd)?;
            Ok(Value::Bool(test(std::path::Path::new(&p))))
        });
    }
    m.def(
        Function,
        "isabs",
        "s",
        "Test whether a path is absolute",
        |_, b| Ok(Value::Bool(fspath_arg(b.get(0))?.starts_with('/'))),
    );
    m.def(
        Function,
        "basename",
        "p",
        "Returns the final component of a pathname",
        |_, b| {
            let p = fspath_arg(b.get(0))?;
            Ok(Value::str(p.rsplit('/').next().unwrap_or("")))
        },
    );
    m.def(
        Function,
        "dirname",
        "p",
        "Returns the directory component of a pathname",
        |_, b| Ok(Value::str(&dirname(&fspath_arg(b.get(0))?))),
    );
    m.def(
        Function,
        "split",
        "p",
        "Split a pathname.  Returns tuple \"(head, tail)\" where \"tail\" is everything after the final slash.",
        |_, b| {
            let p = fspath_arg(b.get(0))?;
            let base = p.rsplit('/').next().unwrap_or("").to_string();
            Ok(Value::tuple(vec![
                Value::str(&dirname(&p)),
                Value::str(&base),
            ]))
        },
    );
    m.def(
        Function,
        "splitext",
        "p",
        "Split the extension from a pathname.",
        |_, b| {
            let p = fspath_arg(b.get(0))?;
            let (root, ext) = splitext(&p);
            Ok(Value::tuple(vec![Value::str(root), Value::str(ext)]))
        },
    );
    m.def(
        Function,
        "abspath",
        "path",
        "Return an absolute path.",
        |_, b| {
            let p = fspath_arg(b.get(0))?;
            let full = if p.starts_with('/') {
                p
            } else {
                let cwd = std::env::current_dir().map_err(|e| os_error(&e, None))?;
                format!("{}/{p}", cwd.to_string_lossy())
            };
            Ok(Value::str(&normpath(&full)))
        },
    );
    m.def(
        Function,
        "normpath",
        "path",
        "Normalize path, eliminating double slashes, etc.",
        |_, b| Ok(Value::str(&normpath(&fspath_arg(b.get(0))?))),
    );
    m.def(
        Function,
        "expanduser",
        "path",
        "Expand ~ and ~user constructions.  If user or $HOME is unknown, do nothing.",
        |_, b| {
            let p = fspath_arg(b.get(0))?;
            Ok(Value::str(
                &match (p.strip_prefix('~'), std::env::var("HOME")) {
                    (Some(rest), Ok(home)) if rest.is_empty() || rest.starts_with('/') => {
                        format!("{home}{rest}")
                    }
                    _ => p,
                },
            ))
        },
    );
    m.def(
        Function,
        "getsize",
        "filename",
        "Return the size of a file, reported by os.stat().",
        |_, b| {
            let p = c_path("stat", b.get(0), Accepts::PathOrFd)?;
            let md = std::fs::metadata(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::Int(i64::try_from(md.len()).unwrap_or(i64::MAX)))
        },
    );
    Rc::new(m)
}

/// posixpath.dirname: trailing slashes go unless the head is all slashes.
fn dirname(p: &str) -> String {
    let head = &p[..p.rfind('/').map_or(0, |i| i + 1)];
    if !head.is_empty() && head.chars().any(|c| c != '/') {
        head.trim_end_matches('/').to_string()
    } else {
        head.to_string()
    }
}

/// posixpath.splitext: the last dot of the last part, unless only dots precede it.
fn splitext(p: &str) -> (&str, &str) {
    let sep = p.rfind('/').map_or(0, |i| i + 1);
    if let Some(dot) = p.rfind('.').filter(|d| *d >= sep) {
        if p[sep..dot].chars().any(|c| c != '.') {
            return (&p[..dot], &p[dot..]);
        }
    }
    (p, "")
}

/// posixpath.normpath.
fn normpath(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let lead = if p.starts_with("//") && !p.starts_with("///") {
        "//"
    } else if p.starts_with('/') {
        "/"
    } else {
        ""
    };
    let mut parts: Vec<&str> = Vec::new();
    for comp in p.split('/') {
        match comp {
            "" | "." => {}
            ".." if !lead.is_empty() && parts.is_empty() => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let joined = format!("{lead}{}", parts.join("/"));
    if joined.is_empty() {
        ".".into()
    } else {
        joined
    }
}

/// `os.environ`: reads and writes go to the process environment, which children inherit.
struct Environ;

fn key_of(k: &Value) -> PyResult<String> {
    match k {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(PyErr::type_error(format!(
            "str expected, not {}",
            other.type_name()
        ))),
    }
}

fn env_pairs() -> Vec<(String, String)> {
    std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect()
}

impl Object for Environ {
    fn type_name(&self) -> String {
        "_Environ".into()
    }
    fn module_name(&self) -> String {
        "os".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let items: Vec<String> = env_pairs()
            .iter()
            .map(|(k, v)| {
                format!(
                    "{}: {}",
                    crate::interp::repr::str_repr(k),
                    crate::interp::repr::str_repr(v)
                )
            })
            .collect();
        Ok(format!("environ({{{}}})", items.join(", ")))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let k = key_of(key)?;
        match std::env::var_os(&k) {
            Some(v) => Ok(Value::str(&v.to_string_lossy())),
            None => Err(PyErr::key_error(crate::interp::repr::str_repr(&k))),
        }
    }
    fn set_item(&self, key: &Value, value: Value, _rt: &mut Runtime) -> PyResult<()> {
        let k = key_of(key)?;
        let v = key_of(&value)?;
        if k.is_empty() || k.contains(['=', '\0']) || v.contains('\0') {
            return Err(PyErr::value_error("illegal environment variable name"));
        }
        std::env::set_var(k, v);
        Ok(())
    }
    fn del_item(&self, key: &Value, _rt: &mut Runtime) -> PyResult<()> {
        let k = key_of(key)?;
        if std::env::var_os(&k).is_none() {
            return Err(PyErr::key_error(crate::interp::repr::str_repr(&k)));
        }
        std::env::remove_var(k);
        Ok(())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let pairs = |f: fn((String, String)) -> Value| -> Value {
            Value::list(env_pairs().into_iter().map(f).collect())
        };
        Ok(Some(match name {
            "get" => Value::method(
                &self,
                "_Environ.get",
                "get(key, default=None)",
                "The value of key, or default.",
                |_, _, a: Args| {
                    let k = key_of(a.pos.first().unwrap_or(&Value::None))?;
                    Ok(match std::env::var_os(&k) {
                        Some(v) => Value::str(&v.to_string_lossy()),
                        None => a.pos.get(1).cloned().unwrap_or(Value::None),
                    })
                },
            ),
            "keys" => Value::method(
                &self,
                "_Environ.keys",
                "keys()",
                "The variable names.",
                move |_, _, _| Ok(pairs(|(k, _)| Value::str(&k))),
            ),
            "values" => Value::method(
                &self,
                "_Environ.values",
                "values()",
                "The values.",
                move |_, _, _| Ok(pairs(|(_, v)| Value::str(&v))),
            ),
            "items" => Value::method(
                &self,
                "_Environ.items",
                "items()",
                "(name, value) pairs.",
                move |_, _, _| {
                    Ok(pairs(|(k, v)| {
                        Value::tuple(vec![Value::str(&k), Value::str(&v)])
                    }))
                },
            ),
            _ => return Ok(None),
        }))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(
            env_pairs()
                .into_iter()
                .map(|(k, _)| Value::str(&k))
                .collect(),
        ))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(env_pairs().len()))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
