//! Shell escapes, the shell and file magics, `exit`, and `open()`. Expected outputs are
//! what ipykernel 7.4 (IPython 9.18) and CPython 3.11 print for the same cells, with two
//! differences nbcuda chooses: a child's output ends lines with `\n` where ipykernel's
//! pseudo-terminal gives `\r\n`, and `x = !cmd` gives a plain list of str where IPython
//! gives its `SList` (a list subclass). Files live in a fresh temporary directory per test.

mod common;
use common::Session;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A fresh directory under the system's temp dir.
fn temp_dir(tag: &str) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("nbcuda-shell-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.to_string_lossy().into_owned()
}

#[test]
fn shell_escape_streams_output_and_keeps_the_exit_code() {
    let mut s = Session::new();
    // ipykernel's child writes both streams to one terminal, shown on stdout in order.
    let c = s.run("!echo a; echo b >&2; echo c");
    c.ok();
    assert_eq!(c.out.stdout, "a\nb\nc\n");
    assert_eq!(c.result(), None);
    assert_eq!(s.stdout("!false\nprint(_exit_code)"), "1\n");
    assert_eq!(s.eval("!exit 3\n_exit_code"), "3");
    // A shell reports a child killed by signal n as 128 + n; IPython shows -n.
    assert_eq!(s.eval("!sh -c 'kill -TERM $$'\n_exit_code"), "-15");
    let c = s.run("!echo x &");
    assert_eq!(c.ename().as_deref(), Some("OSError"));
    assert_eq!(c.evalue(), "Background processes not supported.");
    // The child's stdin is empty: a command waiting for input ends instead of hanging.
    assert_eq!(s.stdout("!read line; echo \"got:$line\""), "got:\n");
}

#[test]
fn shell_escape_interpolates_as_ipython_does() {
    let mut s = Session::new();
    s.run("x = 5\nname = 'w.txt'\nclass P: pass\np = P()\np.v = 7")
        .ok();
    assert_eq!(
        s.stdout("!echo {x+1} $x $$x {name!r} '$x' $p.v {[1, 2][1:]}"),
        // `$$x` reaches the shell as `$x`, an unset shell variable.
        "6 5 w.txt $x 7 [2]\n"
    );
    // Any name that does not resolve leaves the whole line to the shell, as IPython.
    assert_eq!(s.stdout("!echo $nbcuda_unset {x}"), "{x}\n");
    assert_eq!(s.stdout("!echo {nope} $x"), "{nope}\n");
    let home = std::env::var("HOME").unwrap_or_default();
    assert_eq!(s.stdout("!echo $$HOME {{x}}"), format!("{home} {{x}}\n"));
    // Inside a function, its locals are visible.
    assert_eq!(s.stdout("def f(k):\n    !echo k={k}\nf(9)"), "k=9\n");
}

#[test]
fn captured_output_is_a_list_of_lines() {
    let mut s = Session::new();
    s.run("!exit 4").ok();
    assert_eq!(
        s.stdout("y = !echo a; echo b >&2; echo c; exit 1\nprint(y, type(y).__name__, _exit_code)"),
        "['a', 'b', 'c'] list 4\n"
    );
    assert_eq!(s.eval("!!echo hi"), "['hi']");
    assert_eq!(s.eval("n = 2\nz = !seq {n}\nz"), "['1', '2']");
}

#[test]
fn an_interrupt_ends_the_child_within_a_second() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut s = Session::with_interrupt(flag.clone());
    let interrupt_soon = |flag: &Arc<AtomicBool>| {
        let f = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            f.store(true, Ordering::SeqCst);
        })
    };
    // As in IPython, the child is ended and the cell goes on, with -SIGINT kept.
    let t = interrupt_soon(&flag);
    let start = Instant::now();
    let c = s.run("!sleep 30\nprint('after', _exit_code)");
    t.join().ok();
    c.ok();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(c.out.stdout, "after -2\n");
    // A child that ignores SIGINT is killed.
    let t = interrupt_soon(&flag);
    let start = Instant::now();
    let c = s.run("!trap '' INT; sleep 30\nprint(_exit_code)");
    t.join().ok();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(c.out.stdout, "-9\n");
    // A capture cannot give a result: it raises.
    let t = interrupt_soon(&flag);
    let c = s.run("z = !sleep 30");
    t.join().ok();
    assert_eq!(c.ename().as_deref(), Some("KeyboardInterrupt"));
    // %%bash, as IPython's script magic: a message, then CalledProcessError.
    let t = interrupt_soon(&flag);
    let start = Instant::now();
    let c = s.run("%%bash\nsleep 30");
    t.join().ok();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(c.out.stdout, "Process was interrupted.\n");
    assert_eq!(c.ename().as_deref(), Some("CalledProcessError"));
    assert_eq!(
        c.evalue(),
        "Command 'b'sleep 30\\n'' died with <Signals.SIGINT: 2>."
    );
    assert!(!flag.load(Ordering::SeqCst));
}

#[test]
fn bash_and_sh_cell_magics() {
    let mut s = Session::new();
    let c = s.run("%%bash\necho out; echo err >&2\nfor i in 1 2; do echo $i; done");
    c.ok();
    assert_eq!(c.out.stdout, "out\n1\n2\n");
    assert_eq!(c.out.stderr, "err\n");
    let c = s.run("%%bash\necho out; echo err >&2; exit 2");
    assert_eq!(c.out.stdout, "out\n");
    assert_eq!(c.out.stderr, "err\n");
    assert_eq!(c.ename().as_deref(), Some("CalledProcessError"));
    assert_eq!(
        c.evalue(),
        "Command 'b'echo out; echo err >&2; exit 2\\n'' returned non-zero exit status 2."
    );
    assert_eq!(s.stdout("%%sh\necho $0"), "sh\n");
    let c = s.run("%lsmagic");
    assert!(
        c.out.stdout.contains("%%bash  %%sh  %%writefile"),
        "{}",
        c.out.stdout
    );
    assert!(
        c.out.stdout.contains("%run  %pwd  %cd  %env"),
        "{}",
        c.out.stdout
    );
}

#[test]
fn writefile_and_run() {
    let dir = temp_dir("wf");
    let mut s = Session::new();
    s.run(&format!("d = {dir:?}")).ok();
    let path = format!("{dir}/w.py");
    assert_eq!(
        s.stdout("%%writefile {d}/w.py\nrv = 41 + 1"),
        format!("Writing {path}\n")
    );
    assert_eq!(
        s.stdout(&format!("%%writefile {path}\nrv = 40 + 1")),
        format!("Overwriting {path}\n")
    );
    assert_eq!(
        s.stdout(&format!(
            "%%writefile -a {path}\ndef twice():\n    return 2 * rv\n"
        )),
        format!("Appending to {path}\n")
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap_or_default(),
        "rv = 40 + 1\ndef twice():\n    return 2 * rv\n"
    );
    assert_eq!(
        s.stdout(&format!("%run {path}\nprint(rv, twice())")),
        "41 82\n"
    );
    // The file runs as the main module, as IPython's %run does.
    let main = format!("{dir}/m.py");
    std::fs::write(
        &main,
        "if __name__ == '__main__':\n    print('main', __file__.endswith('m.py'))\n",
    )
    .expect("write m.py");
    assert_eq!(s.stdout(&format!("%run {dir}/m")), "main True\n");
    assert_eq!(s.run("__file__").ename().as_deref(), Some("NameError"));
    let quoted = format!("{dir}/q q.txt");
    assert_eq!(
        s.stdout(&format!("%%writefile \"{quoted}\"\nhi")),
        format!("Writing {quoted}\n")
    );
    let c = s.run(&format!("%run {dir}/nope.py"));
    assert_eq!(c.ename().as_deref(), Some("Exception"));
    assert_eq!(c.evalue(), format!("File `'{dir}/nope.py'` not found."));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn env_magic() {
    let mut s = Session::new();
    assert_eq!(
        s.stdout("%env NBCUDA_SHELL_T=bar"),
        "env: NBCUDA_SHELL_T=bar\n"
    );
    assert_eq!(s.eval("%env NBCUDA_SHELL_T"), "'bar'");
    assert_eq!(
        s.stdout("%env NBCUDA_SHELL_U baz qux"),
        "env: NBCUDA_SHELL_U=baz qux\n"
    );
    assert_eq!(s.stdout("!echo $NBCUDA_SHELL_T"), "bar\n");
    assert_eq!(s.eval("e = %env\ne['NBCUDA_SHELL_U']"), "'baz qux'");
    let c = s.run("%env NBCUDA_SHELL_NONE");
    assert_eq!(c.ename().as_deref(), Some("UsageError"));
    assert_eq!(
        c.evalue(),
        "Environment does not have key: NBCUDA_SHELL_NONE"
    );
}

/// Everything that changes the process's working directory, in one test (tests run in
/// threads of one process); the directory is restored at the end.
#[test]
fn pwd_and_cd_change_the_working_directory() {
    let before = std::env::current_dir().expect("cwd");
    let dir = temp_dir("cd");
    let canonical = std::fs::canonicalize(&dir)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or(dir.clone());
    let mut s = Session::new();
    assert_eq!(s.eval("%pwd"), format!("'{}'", before.to_string_lossy()));
    assert_eq!(s.stdout(&format!("%cd {dir}")), format!("{canonical}\n"));
    assert_eq!(s.eval("%pwd"), format!("'{canonical}'"));
    // Children and open() follow it.
    assert_eq!(s.stdout("!pwd"), format!("{canonical}\n"));
    s.run("with open('rel.txt', 'w') as f:\n    f.write('here')")
        .ok();
    assert!(std::path::Path::new(&format!("{dir}/rel.txt")).exists());
    // A failed change says why, then where the session still is.
    assert_eq!(
        s.stdout("%cd /nbcuda/no/such/dir"),
        format!("[Errno 2] No such file or directory: '/nbcuda/no/such/dir'\n{canonical}\n")
    );
    assert_eq!(s.stdout("%cd -"), format!("{}\n", before.to_string_lossy()));
    assert_eq!(s.stdout(&format!("%cd -q {dir}")), "");
    std::env::set_current_dir(&before).expect("restore cwd");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_and_quit_ask_the_frontend_to_end() {
    let mut s = Session::new();
    let ask = |keep: bool| vec![serde_json::json!({"source": "ask_exit", "keepkernel": keep})];
    let c = s.run("exit");
    c.ok();
    assert_eq!(c.outcome.payload, ask(false));
    assert_eq!(c.result(), None);
    let c = s.run("quit()\nprint('still runs')");
    assert_eq!(c.out.stdout, "still runs\n");
    assert_eq!(c.outcome.payload, ask(false));
    assert_eq!(s.run("exit(keep_kernel=True)").outcome.payload, ask(true));
    assert!(s.run("print(1)").outcome.payload.is_empty());
    // A user's own `exit` is theirs.
    let c = s.run("exit = 3\nexit");
    assert!(c.outcome.payload.is_empty());
    assert_eq!(c.result().as_deref(), Some("3"));
}

#[test]
fn open_reads_and_writes_text_files() {
    let dir = temp_dir("open");
    let mut s = Session::new();
    s.run(&format!("d = {dir:?}\np = d + '/t.txt'")).ok();
    assert_eq!(
        s.stdout("f = open(p, 'w')\nprint(f.write('héllo\\nwörld\\n'), f.closed, f.name == p, f.mode)\nprint(repr(f) == \"<_io.TextIOWrapper name='\" + p + \"' mode='w' encoding='UTF-8'>\")\nf.close()\nprint(f.closed)"),
        "12 False True w\nTrue\nTrue\n"
    );
    assert_eq!(
        s.stdout("with open(p) as f:\n    print(repr(f.read(3)), repr(f.readline()), repr(f.readline()), repr(f.readline()))\nprint(f.closed)"),
        "'hél' 'lo\\n' 'wörld\\n' ''\nTrue\n"
    );
    assert_eq!(
        s.stdout("with open(p, 'a') as f:\n    f.writelines(['a\\n', 'b'])\nprint(open(p).readlines())\nprint([l for l in open(p)])"),
        "['héllo\\n', 'wörld\\n', 'a\\n', 'b']\n['héllo\\n', 'wörld\\n', 'a\\n', 'b']\n"
    );
    // CPython raises MemoryError here; nbcuda reads what there is.
    assert_eq!(s.stdout("print(len(open(p).read(10**12)))"), "15\n");
    assert_eq!(
        s.stdout("with open(p, 'w', encoding='latin-1') as f:\n    f.write('é\\r\\nx')\nprint(open(p, 'rb').read(), repr(open(p, encoding='latin-1').read()))"),
        "b'\\xe9\\r\\nx' 'é\\nx'\n"
    );
    assert_eq!(
        s.stdout("open(p, 'w').write('abc')\nf = open(p, 'r+')\nprint(f.read(1), f.tell(), f.seek(0), f.write('Z'), f.tell())\nf.close()\nprint(open(p).read())"),
        "a 1 0 1 1\nZbc\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn open_binary_files() {
    let dir = temp_dir("bin");
    let mut s = Session::new();
    s.run(&format!("d = {dir:?}\np = d + '/b.bin'")).ok();
    assert_eq!(
        s.stdout("with open(p, 'wb') as f:\n    print(f.write(b'\\x00\\xffab\\ncd'), type(f).__name__)\nprint(open(p, 'rb').read())\nwith open(p, 'rb') as f:\n    print(f.read(2), f.readline(), f.readlines(), type(f).__name__)"),
        "7 BufferedWriter\nb'\\x00\\xffab\\ncd'\nb'\\x00\\xff' b'ab\\n' [b'cd'] BufferedReader\n"
    );
    let c = s.run("open(p).read()");
    assert_eq!(c.ename().as_deref(), Some("UnicodeDecodeError"));
    assert_eq!(
        c.evalue(),
        "'utf-8' codec can't decode byte 0xff in position 1: invalid start byte"
    );
    assert_eq!(
        s.stdout("try:\n    open(p).read()\nexcept ValueError as e:\n    print('caught', type(e).__name__)"),
        "caught UnicodeDecodeError\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn open_raises_as_cpython() {
    let dir = temp_dir("err");
    let mut s = Session::new();
    s.run(&format!(
        "d = {dir:?}\np = d + '/t.txt'\nopen(p, 'w').close()"
    ))
    .ok();
    let cases = [
        (
            "open(d + '/missing.txt')",
            "FileNotFoundError",
            format!("[Errno 2] No such file or directory: '{dir}/missing.txt'"),
        ),
        (
            "open(d)",
            "IsADirectoryError",
            format!("[Errno 21] Is a directory: '{dir}'"),
        ),
        (
            "open(p, 'x')",
            "FileExistsError",
            format!("[Errno 17] File exists: '{dir}/t.txt'"),
        ),
        (
            "open(p, 'rw')",
            "ValueError",
            "must have exactly one of create/read/write/append mode".into(),
        ),
        (
            "open(p, 'rbt')",
            "ValueError",
            "can't have text and binary mode at once".into(),
        ),
        ("open(p, 'rr')", "ValueError", "invalid mode: 'rr'".into()),
        (
            "open(p, 'b')",
            "ValueError",
            "Must have exactly one of create/read/write/append mode and at most one plus".into(),
        ),
        (
            "open(p, 'rb', encoding='utf-8')",
            "ValueError",
            "binary mode doesn't take an encoding argument".into(),
        ),
        (
            "open(p).write('x')",
            "UnsupportedOperation",
            "not writable".into(),
        ),
        (
            "open(p, 'w').read()",
            "UnsupportedOperation",
            "not readable".into(),
        ),
        (
            "open(p, 'w').write(b'x')",
            "TypeError",
            "write() argument must be str, not bytes".into(),
        ),
        (
            "open(p, 'wb').write('x')",
            "TypeError",
            "a bytes-like object is required, not 'str'".into(),
        ),
        (
            "f = open(p)\nf.close()\nf.read()",
            "ValueError",
            "I/O operation on closed file.".into(),
        ),
    ];
    for (code, ename, evalue) in cases {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some(ename), "{code}");
        assert_eq!(c.evalue(), evalue, "{code}");
    }
    // The classes have CPython's bases.
    assert_eq!(
        s.stdout("for code in ['open(d + \"/nope\")', 'open(p).write(\"x\")', 'open(d)']:\n    try:\n        exec(code)\n    except OSError as e:\n        print(type(e).__name__, isinstance(e, ValueError))"),
        "FileNotFoundError False\nUnsupportedOperation True\nIsADirectoryError False\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn os_and_os_path() {
    let dir = temp_dir("os");
    let mut s = Session::new();
    s.run(&format!("d = {dir:?}")).ok();
    let cell = r#"import os
os.makedirs(d + '/a/b')
os.makedirs(d + '/a/b', exist_ok=True)
try:
    os.makedirs(d + '/a/b')
except FileExistsError as e:
    print(type(e).__name__, e)
open(d + '/a/f.txt', 'w').close()
print(sorted(os.listdir(d + '/a')), os.path.exists(d + '/a/f.txt'), os.path.isfile(d + '/a'), os.path.isdir(d + '/a'))
os.remove(d + '/a/f.txt')
print(os.path.exists(d + '/a/f.txt'))
try:
    os.remove(d + '/a/f.txt')
except FileNotFoundError as e:
    print(type(e).__name__, e)
try:
    os.listdir(d + '/nope')
except FileNotFoundError as e:
    print(type(e).__name__, e)
print(os.path.join('a', 'b', '/c', 'd'), os.path.join('a/', 'b'), os.path.join('a', ''))
print(os.path.basename('/x/y.tar.gz'), os.path.dirname('/x/y.tar.gz'), os.path.dirname('/x'), os.path.dirname('x'), os.path.dirname('//x//y'))
print(os.path.splitext('/x/y.tar.gz'), os.path.splitext('.bashrc'), os.path.splitext('a/..b'), os.path.splitext('noext'))
print(os.path.abspath('/a/./b/../c//d'), os.path.normpath('a/../../b'), os.path.normpath('//a/b'), os.path.normpath(''))
os.environ['NBCUDA_OS_T'] = 'v1'
print(os.environ['NBCUDA_OS_T'], os.environ.get('NBCUDA_OS_NONE', 'dflt'), 'NBCUDA_OS_T' in os.environ, os.getenv('NBCUDA_OS_T'))
del os.environ['NBCUDA_OS_T']
print('NBCUDA_OS_T' in os.environ)
try:
    os.environ['NBCUDA_OS_NONE']
except KeyError as e:
    print(type(e).__name__, e)
from os.path import join
print(join('p', 'q'), os.getcwd() == os.path.abspath('.'))"#;
    let expected = r#"FileExistsError [Errno 17] File exists: '{D}/a/b'
['b', 'f.txt'] True False True
False
FileNotFoundError [Errno 2] No such file or directory: '{D}/a/f.txt'
FileNotFoundError [Errno 2] No such file or directory: '{D}/nope'
/c/d a/b a/
y.tar.gz /x /  //x
('/x/y.tar', '.gz') ('.bashrc', '') ('a/..b', '') ('noext', '')
/a/c/d ../b //a/b .
v1 dflt True v1
False
KeyError 'NBCUDA_OS_NONE'
p/q True
"#;
    assert_eq!(s.stdout(cell), expected.replace("{D}", &dir));
    let _ = std::fs::remove_dir_all(&dir);
}
