//! `pathlib.Path` against CPython 3.11: normalisation, `/`, the name parts, and reading,
//! writing, listing and globbing real files. Expected outputs are CPython's for the same
//! cells.

mod common;
use common::Session;

#[test]
fn path_parts_and_operators() {
    let mut s = Session::new();
    s.run("from pathlib import Path").ok();
    let out = s.stdout("p = Path('/tmp/nbcuda_pl') / 'sub' / 'data.tar.gz'\nprint(p, repr(p), p.name, p.stem, p.suffix, p.suffixes, p.parent, p.parent.parent, p.parts)\nprint(Path('a//b/./c/'), Path(), Path('/'), Path('a', '/b', 'c'), 'x' / Path('y'), Path('a').parent, Path('/').parent, Path('.hidden').suffix, Path('f.').suffix)\nprint(Path('a/b.txt').with_suffix('.csv'), Path('a/b.txt').with_name('z.py'), Path('a/b.txt').with_stem('q'), Path('a').joinpath('b', 'c'))\nprint(Path('a') == Path('a/'), Path('a') == Path('b'), str(Path('a') / 'b'), Path('/x').is_absolute(), Path('x').is_absolute(), sorted([Path('a-b'), Path('a/b'), Path('a')]))");
    assert_eq!(out, "/tmp/nbcuda_pl/sub/data.tar.gz PosixPath('/tmp/nbcuda_pl/sub/data.tar.gz') data.tar.gz data.tar .gz ['.tar', '.gz'] /tmp/nbcuda_pl/sub /tmp/nbcuda_pl ('/', 'tmp', 'nbcuda_pl', 'sub', 'data.tar.gz')\na/b/c . / /b/c x/y . /  \na/b.csv a/z.py a/q.txt a/b/c\nTrue False a/b True False [PosixPath('a'), PosixPath('a/b'), PosixPath('a-b')]\n");
}

#[test]
fn path_reads_writes_and_globs() {
    let mut s = Session::new();
    s.run("from pathlib import Path\nimport os").ok();
    let out = s.stdout("base = Path('/tmp/nbcuda_pathlib_test')\n(base / 'sub' / 'deep').mkdir(parents=True, exist_ok=True)\n(base / 'sub').mkdir(exist_ok=True)\nprint(base.exists(), base.is_dir(), base.is_file())\nn = (base / 'a.txt').write_text('héllo\\nworld\\n')\n(base / 'b.csv').write_text('1,2')\n(base / 'sub' / 'c.txt').write_text('c')\n(base / 'sub' / 'deep' / 'd.txt').write_bytes(b'\\x00\\x01')\nprint(n, (base / 'a.txt').read_text(), (base / 'sub' / 'deep' / 'd.txt').read_bytes(), (base / 'a.txt').is_file())\nprint([p.name for p in sorted(base.iterdir())])\nprint([str(p) for p in sorted(base.glob('*.txt'))], len(sorted(base.glob('*'))), [p.name for p in sorted(base.rglob('*.txt'))], [p.name for p in sorted(base.glob('**/*.txt'))], [p.name for p in sorted(base.glob('sub/*'))])\nwith open(base / 'a.txt') as f:\n    print(f.readline().strip())\nwith (base / 'b.csv').open() as f:\n    print(f.read())\nprint(os.path.exists(base / 'b.csv'), sorted(os.listdir(base)))\nfor f in ['a.txt', 'b.csv', 'sub/c.txt', 'sub/deep/d.txt']:\n    (base / f).unlink()\n(base / 'b.csv').unlink(missing_ok=True)\nfor d in ['sub/deep', 'sub', '.']:\n    (base / d).rmdir()\nprint(base.exists())");
    assert_eq!(out, "True True False\n12 héllo\nworld\n b'\\x00\\x01' True\n['a.txt', 'b.csv', 'sub']\n['/tmp/nbcuda_pathlib_test/a.txt'] 3 ['a.txt', 'c.txt', 'd.txt'] ['a.txt', 'c.txt', 'd.txt'] ['c.txt', 'deep']\nhéllo\n1,2\nTrue ['a.txt', 'b.csv', 'sub']\nFalse\n");
}

#[test]
fn path_missing_file_raises() {
    let mut s = Session::new();
    s.run("from pathlib import Path").ok();
    let c = s.run("Path('/tmp/nbcuda_pathlib_missing/nope.txt').read_text()");
    assert_eq!(c.ename().as_deref(), Some("FileNotFoundError"));
    assert_eq!(
        c.evalue(),
        "[Errno 2] No such file or directory: '/tmp/nbcuda_pathlib_missing/nope.txt'"
    );
}

#[test]
fn path_mkdir_existing_raises() {
    let mut s = Session::new();
    s.run("from pathlib import Path").ok();
    let c = s.run("Path('/tmp').mkdir()");
    assert_eq!(c.ename().as_deref(), Some("FileExistsError"));
    assert_eq!(c.evalue(), "[Errno 17] File exists: '/tmp'");
}

#[test]
fn glob_patterns_match_as_cpython() {
    let mut s = Session::new();
    s.run("from pathlib import Path").ok();
    let out = s.stdout("b = Path('/tmp/nbcuda_pathlib_glob')\nb.mkdir(exist_ok=True)\nfor n in ['a1.txt', 'b2.txt', 'c.csv', 'x[1].txt', '.hid.txt', 'abc']:\n    (b / n).write_text('')\nfor pat in ['*', '*.txt', '?1.*', '[ab]*', '[!a]*.txt', '*[0-9]*', 'a*c', '.*', 'x[[]1].txt', 'abc', 'nope']:\n    print(pat, [p.name for p in sorted(b.glob(pat))])\nfor n in ['a1.txt', 'b2.txt', 'c.csv', 'x[1].txt', '.hid.txt', 'abc']:\n    (b / n).unlink()\nb.rmdir()");
    assert_eq!(out, "* ['.hid.txt', 'a1.txt', 'abc', 'b2.txt', 'c.csv', 'x[1].txt']\n*.txt ['.hid.txt', 'a1.txt', 'b2.txt', 'x[1].txt']\n?1.* ['a1.txt']\n[ab]* ['a1.txt', 'abc', 'b2.txt']\n[!a]*.txt ['.hid.txt', 'b2.txt', 'x[1].txt']\n*[0-9]* ['a1.txt', 'b2.txt', 'x[1].txt']\na*c ['abc']\n.* ['.hid.txt']\nx[[]1].txt ['x[1].txt']\nabc ['abc']\nnope []\n");
}

#[test]
fn glob_rejects_partial_double_star() {
    let mut s = Session::new();
    s.run("from pathlib import Path").ok();
    let c = s.run("list(Path('/tmp').glob('a**'))");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        c.evalue(),
        "Invalid pattern: '**' can only be an entire path component"
    );
}

#[test]
fn path_stat_and_os_stat_match_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("from pathlib import Path\nimport os\nd = Path('/tmp/nbcuda_pl_stat')\nd.mkdir(exist_ok=True)\n(d / 'one.txt').write_text('hello\\nworld\\n')\nst = (d / 'one.txt').stat()\nprint(st.st_size, os.stat(d / 'one.txt').st_size, os.stat('/tmp/nbcuda_pl_stat/one.txt').st_size, type(st.st_mtime).__name__, st[6], len(st), d.stat().st_size > 0)\ntry:\n    Path('/tmp/nbcuda_pl_stat/missing').stat()\nexcept FileNotFoundError as e:\n    print('FileNotFoundError:', e)");
    assert_eq!(out, "12 12 12 float 12 10 True\nFileNotFoundError: [Errno 2] No such file or directory: '/tmp/nbcuda_pl_stat/missing'\n");
}
