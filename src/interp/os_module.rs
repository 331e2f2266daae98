//! The `os` module as notebooks use it: the working directory, directory listing and
//! creation, removing files, `os.environ` (the process environment, live) and `os.path`
//! (posixpath's string rules: join, split parts, extensions, normalising).

use std::rc::Rc;

use crate::interp::shell::os_error;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Object, Value};

fn str_arg(fname: &str, v: Option<&Value>) -> PyResult<String> {
    match v {
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(p) if crate::interp::pathlib_module::fspath(p).is_some() => {
            Ok(crate::interp::pathlib_module::fspath(p).unwrap_or_default())
        }
        Some(other) => Err(PyErr::type_error(format!(
            "{fname}: path should be string, bytes or os.PathLike, not {}",
            other.type_name()
        ))),
        None => Err(PyErr::type_error(format!(
            "{fname}() missing required argument: 'path'"
        ))),
    }
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
    m.func(
        "getcwd",
        "getcwd()",
        "The current working directory.",
        |_, _| {
            std::env::current_dir()
                .map(|p| Value::str(&p.to_string_lossy()))
                .map_err(|e| os_error(&e, None))
        },
    );
    m.func(
        "chdir",
        "chdir(path)",
        "Change the working directory.",
        |_, a| {
            let p = str_arg("chdir", a.pos.first())?;
            std::env::set_current_dir(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::None)
        },
    );
    m.func(
        "listdir",
        "listdir(path='.')",
        "The names in a directory, in the order the file system gives them.",
        |_, a| {
            let p = match a.pos.first() {
                None => ".".to_string(),
                v => str_arg("listdir", v)?,
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
    m.func(
        "stat",
        "stat(path)",
        "The file's metadata, as an os.stat_result.",
        |_, a| {
            let p = match a
                .pos
                .first()
                .and_then(crate::interp::pathlib_module::fspath)
            {
                Some(p) => p,
                None => str_arg("stat", a.pos.first())?,
            };
            let meta = std::fs::metadata(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(crate::interp::stat_result::stat_result(&meta))
        },
    );
    m.func("mkdir", "mkdir(path)", "Create one directory.", |_, a| {
        let p = str_arg("mkdir", a.pos.first())?;
        std::fs::create_dir(&p).map_err(|e| os_error(&e, Some(&p)))?;
        Ok(Value::None)
    });
    m.def(
        Function,
        "makedirs",
        "name, mode=511, exist_ok=False",
        "Create a directory and any missing parents.",
        |rt, b| {
            let p = str_arg("makedirs", b[0].as_ref())?;
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
            std::fs::create_dir_all(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::None)
        },
    );
    for name in ["remove", "unlink"] {
        m.func(
            name,
            &format!("{name}(path)"),
            "Delete a file.",
            move |_, a| {
                let p = str_arg(name, a.pos.first())?;
                std::fs::remove_file(&p).map_err(|e| os_error(&e, Some(&p)))?;
                Ok(Value::None)
            },
        );
    }
    m.func(
        "rename",
        "rename(src, dst)",
        "Rename (move) a file or directory.",
        |_, a| {
            let src = str_arg("rename", a.pos.first())?;
            let dst = str_arg("rename", a.pos.get(1))?;
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
    m.func(
        "rmdir",
        "rmdir(path)",
        "Delete an empty directory.",
        |_, a| {
            let p = str_arg("rmdir", a.pos.first())?;
            std::fs::remove_dir(&p).map_err(|e| os_error(&e, Some(&p)))?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "getenv",
        "key, default=None",
        "An environment variable, or default.",
        |_, b| {
            let k = str_arg("getenv", b[0].as_ref())?;
            Ok(match std::env::var_os(&k) {
                Some(v) => Value::str(&v.to_string_lossy()),
                None => b[1].clone().unwrap_or(Value::None),
            })
        },
    );
    Ok(Rc::new(m))
}

/// A yes/no question about a path (`os.path.isdir`).
type PathTest = fn(&std::path::Path) -> bool;

pub fn path_module() -> Rc<Module> {
    let m = Module::new("posixpath", "Path names as strings, with POSIX rules.");
    m.set("sep", Value::str("/"));
    m.func(
        "join",
        "join(a, *p)",
        "Join path parts; an absolute part starts over.",
        |_, a| {
            let mut out = str_arg("join", a.pos.first())?;
            for v in a.pos.iter().skip(1) {
                let part = str_arg("join", Some(v))?;
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
    let tests: [(&str, PathTest); 3] = [
        ("exists", |p| p.exists()),
        ("isfile", |p| p.is_file()),
        ("isdir", |p| p.is_dir()),
    ];
    for (name, test) in tests {
        m.func(
            name,
            &format!("{name}(path)"),
            "A test on the file system (False on any error).",
            move |_, a| {
                let p = str_arg(name, a.pos.first())?;
                Ok(Value::Bool(test(std::path::Path::new(&p))))
            },
        );
    }
    m.func(
        "isabs",
        "isabs(s)",
        "Whether the path starts at '/'.",
        |_, a| {
            let p = str_arg("isabs", a.pos.first())?;
            Ok(Value::Bool(p.starts_with('/')))
        },
    );
    m.func(
        "basename",
        "basename(p)",
        "The part after the last '/'.",
        |_, a| {
            let p = str_arg("basename", a.pos.first())?;
            Ok(Value::str(p.rsplit('/').next().unwrap_or("")))
        },
    );
    m.func(
        "dirname",
        "dirname(p)",
        "The part before the last '/'.",
        |_, a| {
            let p = str_arg("dirname", a.pos.first())?;
            Ok(Value::str(&dirname(&p)))
        },
    );
    m.func("split", "split(p)", "(dirname, basename).", |_, a| {
        let p = str_arg("split", a.pos.first())?;
        let base = p.rsplit('/').next().unwrap_or("").to_string();
        Ok(Value::tuple(vec![
            Value::str(&dirname(&p)),
            Value::str(&base),
        ]))
    });
    m.func(
        "splitext",
        "splitext(p)",
        "(root, extension); a leading dot is not an extension.",
        |_, a| {
            let p = str_arg("splitext", a.pos.first())?;
            let (root, ext) = splitext(&p);
            Ok(Value::tuple(vec![Value::str(root), Value::str(ext)]))
        },
    );
    m.func(
        "abspath",
        "abspath(p)",
        "The normalised absolute path.",
        |_, a| {
            let p = str_arg("abspath", a.pos.first())?;
            let full = if p.starts_with('/') {
                p
            } else {
                let cwd = std::env::current_dir().map_err(|e| os_error(&e, None))?;
                format!("{}/{p}", cwd.to_string_lossy())
            };
            Ok(Value::str(&normpath(&full)))
        },
    );
    m.func(
        "normpath",
        "normpath(p)",
        "Collapse '.', '..' and repeated '/'.",
        |_, a| {
            let p = str_arg("normpath", a.pos.first())?;
            Ok(Value::str(&normpath(&p)))
        },
    );
    m.func(
        "expanduser",
        "expanduser(p)",
        "'~' as the home directory.",
        |_, a| {
            let p = str_arg("expanduser", a.pos.first())?;
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
    m.func(
        "getsize",
        "getsize(path)",
        "The size of a file in bytes.",
        |_, a| {
            let p = str_arg("getsize", a.pos.first())?;
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
