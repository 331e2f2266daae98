//! Module functions declared with one Python parameter list (`Module::def`): arguments
//! bind by name from it, argument errors are those of the real callable (a NumPy function
//! written in Python, NumPy's C parser, a Cython function of `np.random`, an Argument
//! Clinic function of `math`, a C type's constructor in `itertools`), and `?` shows it.
//! Expected strings are NumPy 2.3.5's, Numba 0.68.1's and CPython 3.11's output for the
//! same code.

mod common;
use common::Session;

#[test]
fn arguments_bind_by_name_from_the_signature() {
    let mut s = Session::new();
    s.run("import numpy as np\nimport math").ok();
    for (code, want) in [
        ("np.zeros(shape=3)", "[0. 0. 0.]"),
        ("np.arange(start=1, stop=5)", "[1 2 3 4]"),
        ("np.arange(stop=5)", "[0 1 2 3 4]"),
        ("np.arange(5, step=2)", "[0 2 4]"),
        ("np.linspace(start=0, stop=1, num=3)", "[0.  0.5 1. ]"),
        ("np.full(shape=2, fill_value=7)", "[7 7]"),
        ("np.full_like([1, 2], 3, shape=(2, 2))", "[[3 3]\n [3 3]]"),
        ("np.eye(N=2, k=1)", "[[0. 1.]\n [0. 0.]]"),
        ("np.reshape(np.arange(4), shape=(2, 2))", "[[0 1]\n [2 3]]"),
        ("np.concatenate([[1], [2]], axis=0)", "[1 2]"),
        ("np.random.normal(loc=1.0, scale=0.0, size=2)", "[1. 1.]"),
        ("np.linalg.norm(x=[3, 4])", "5.0"),
        ("math.isclose(a=1.0, b=1.0)", "True"),
        ("math.prod([2, 3], start=4)", "24"),
        ("np.asarray([1, 2], dtype=float)", "[1. 2.]"),
        ("np.array([1, 2], ndmin=2)", "[[1 2]]"),
        ("np.ones(2, order='F').flags.f_contiguous", "True"),
        ("np.stack([[1], [2]], axis=1)", "[[1 2]]"),
        ("np.copy([1, 2], order='K')", "[1 2]"),
        ("np.transpose(a=[[1, 2]])", "[[1]\n [2]]"),
        ("np.size(np.zeros((2, 3)), axis=1)", "3"),
        ("np.isclose(a=1.0, b=1.1, rtol=0.2)", "True"),
        ("np.repeat([1, 2], repeats=2)", "[1 1 2 2]"),
    ] {
        assert_eq!(
            s.stdout(&format!("print({code})")),
            format!("{want}\n"),
            "{code}"
        );
    }
}

#[test]
fn argument_errors_are_those_of_the_real_callable() {
    let mut s = Session::new();
    s.run("import numpy as np\nimport math\nimport os\nfrom numba import cuda")
        .ok();
    for (code, want) in [
        // NumPy's C parser.
        (
            "np.zeros(foo=1)",
            "zeros() got an unexpected keyword argument 'foo'",
        ),
        (
            "np.zeros()",
            "zeros() missing required argument 'shape' (pos 0)",
        ),
        (
            "np.zeros(1, 2, 3, 4, 5)",
            "zeros() takes from 1 to 3 positional arguments but 5 were given",
        ),
        (
            "np.zeros(3, shape=2)",
            "argument for zeros() given by name ('shape') and position (position 0)",
        ),
        (
            "np.array([1], 'f', True)",
            "array() takes from 1 to 2 positional arguments but 3 were given",
        ),
        ("np.arange()", "arange() requires stop to be specified."),
        (
            "np.arange(1, start=2)",
            "argument for arange() given by name ('start') and position (position 0)",
        ),
        // NumPy functions written in Python.
        (
            "np.linspace()",
            "linspace() missing 2 required positional arguments: 'start' and 'stop'",
        ),
        (
            "np.linspace(0, 1, foo=1)",
            "linspace() got an unexpected keyword argument 'foo'",
        ),
        (
            "np.ones()",
            "ones() missing 1 required positional argument: 'shape'",
        ),
        (
            "np.reshape([1], a=1)",
            "reshape() got some positional-only arguments passed as keyword arguments: 'a'",
        ),
        (
            "np.reshape([1, 2], 2, 'C', 3)",
            "reshape() takes from 1 to 3 positional arguments but 4 were given",
        ),
        (
            "np.full_like([1])",
            "full_like() missing 1 required positional argument: 'fill_value'",
        ),
        (
            "np.eye(2, 2, 0, float, 'C', None)",
            "eye() takes from 1 to 5 positional arguments but 6 were given",
        ),
        (
            "np.stack([[1]], 0, None, float)",
            "stack() takes from 1 to 3 positional arguments but 4 were given",
        ),
        (
            "np.linalg.inv(foo=1)",
            "inv() got an unexpected keyword argument 'foo'",
        ),
        (
            "np.linalg.solve([[1]])",
            "solve() missing 1 required positional argument: 'b'",
        ),
        (
            "np.dot(1)",
            "dot() missing 1 required positional argument: 'b'",
        ),
        (
            "np.can_cast('f')",
            "can_cast() missing 1 required positional argument: 'to'",
        ),
        (
            "np.histogram(foo=1)",
            "histogram() got an unexpected keyword argument 'foo'",
        ),
        (
            "np.around(1, foo=2)",
            "around() got an unexpected keyword argument 'foo'",
        ),
        (
            "np.testing.assert_allclose(1, 1, 1e-7, 0, True, '', True, False)",
            "assert_allclose() takes from 2 to 7 positional arguments but 8 were given",
        ),
        (
            "np.testing.assert_equal(1)",
            "assert_equal() missing 1 required positional argument: 'desired'",
        ),
        (
            "np.testing.assert_almost_equal(1, 1, foo=2)",
            "assert_almost_equal() got an unexpected keyword argument 'foo'",
        ),
        (
            "np.frompyfunc(1)",
            "frompyfunc() missing required argument 'nin' (pos 2)",
        ),
        (
            "np.frompyfunc(func=len, nin=1, nout=1)",
            "frompyfunc() takes at least 1 positional argument (0 given)",
        ),
        // np.random's Cython functions.
        (
            "np.random.normal(1, 2, 3, 4)",
            "normal() takes at most 3 positional arguments (4 given)",
        ),
        (
            "np.random.randint(size=3)",
            "randint() takes at least 1 positional argument (0 given)",
        ),
        (
            "np.random.uniform(1, low=2)",
            "uniform() got multiple values for keyword argument 'low'",
        ),
        (
            "np.random.permutation()",
            "permutation() takes exactly 1 positional argument (0 given)",
        ),
        // os's functions written in Python.
        (
            "os.getenv()",
            "getenv() missing 1 required positional argument: 'key'",
        ),
        (
            "os.makedirs()",
            "makedirs() missing 1 required positional argument: 'name'",
        ),
        // Numba's functions written in Python.
        (
            "cuda.is_cuda_array()",
            "is_cuda_array() missing 1 required positional argument: 'obj'",
        ),
        (
            "cuda.is_cuda_array(1, foo=2)",
            "is_cuda_array() got an unexpected keyword argument 'foo'",
        ),
        // math's Argument Clinic functions.
        ("math.sqrt(x=1)", "math.sqrt() takes no keyword arguments"),
        (
            "math.sqrt()",
            "math.sqrt() takes exactly one argument (0 given)",
        ),
        (
            "math.isclose(1, 2, foo=1)",
            "'foo' is an invalid keyword argument for isclose()",
        ),
        (
            "math.isclose(1)",
            "isclose() missing required argument 'b' (pos 2)",
        ),
        (
            "math.prod([1], 2)",
            "prod() takes exactly 1 positional argument (2 given)",
        ),
        (
            "math.perm(1, 2, 3)",
            "perm expected at most 2 arguments, got 3",
        ),
        ("math.comb(1)", "comb expected 2 arguments, got 1"),
        ("math.gcd(x=1)", "math.gcd() takes no keyword arguments"),
        ("math.pow(1)", "pow expected 2 arguments, got 1"),
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("TypeError"), "{code}");
        assert_eq!(c.evalue(), want, "{code}");
    }
}

#[test]
fn help_shows_the_declared_signature() {
    let mut s = Session::new();
    s.run(
        "import numpy as np\nimport math, cmath, os, itertools, functools\nfrom numba import cuda",
    )
    .ok();
    // inspect.signature's text for Python functions; the docstring's first line for C ones.
    for (code, sig) in [
        ("np.zeros?", "zeros(shape, dtype=float, order='C', *, like=None)"),
        (
            "np.linspace?",
            "linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None)",
        ),
        (
            "np.arange?",
            "arange([start,] stop[, step,], dtype=None, *, device=None, like=None)",
        ),
        (
            "np.array?",
            "array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, like=None)",
        ),
        (
            "np.reshape?",
            "reshape(a, /, shape=None, order='C', *, newshape=None, copy=None)",
        ),
        ("np.random.normal?", "normal(loc=0.0, scale=1.0, size=None)"),
        ("math.isclose?", "isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)"),
        ("math.sqrt?", "sqrt(x, /)"),
        (
            "cuda.device_array?",
            "device_array(shape, dtype=<class 'numpy.float64'>, strides=None, order='C', stream=0)",
        ),
        ("cuda.mapped?", "mapped(*arylist, **kws)"),
        ("cmath.log?", "log(z[, base])"),
        ("os.path.join?", "join(a, *p)"),
        ("os.listdir?", "listdir(path=None)"),
        ("itertools.islice?", "islice(iterable, stop) / islice(iterable, start, stop[, step])"),
        (
            "functools.lru_cache?",
            "lru_cache(maxsize=128, typed=False)",
        ),
    ] {
        let c = s.run(code);
        c.ok();
        let text = c.page_text();
        assert!(text.contains(sig), "{code}: {text}");
    }
}

#[test]
fn stdlib_functions_bind_and_refuse_as_cpython() {
    let mut s = Session::new();
    s.run(
        "import os, itertools as it, functools, operator, cmath, json, re\n\
         from numba import cuda\n\
         from numba.cuda.cudadrv import devicearray, driver, devices\n\
         import numpy as np",
    )
    .ok();
    for (code, want) in [
        // os's C functions (posix) and posixpath's Python ones.
        (
            "os.getcwd(1)",
            "posix.getcwd() takes no arguments (1 given)",
        ),
        (
            "os.getcwd(x=1)",
            "posix.getcwd() takes no keyword arguments",
        ),
        (
            "os.chdir()",
            "chdir() missing required argument 'path' (pos 1)",
        ),
        (
            "os.chdir('a', 'b')",
            "chdir() takes at most 1 argument (2 given)",
        ),
        (
            "os.listdir(1.5)",
            "listdir: path should be string, bytes, os.PathLike, integer or None, not float",
        ),
        (
            "os.stat()",
            "stat() missing required argument 'path' (pos 1)",
        ),
        (
            "os.mkdir(1.5)",
            "mkdir: path should be string, bytes or os.PathLike, not float",
        ),
        (
            "os.rename('a')",
            "rename() missing required argument 'dst' (pos 2)",
        ),
        (
            "os.path.basename(1)",
            "expected str, bytes or os.PathLike object, not int",
        ),
        (
            "os.path.join('a', 1)",
            "join() argument must be str, bytes, or os.PathLike object, not 'int'",
        ),
        (
            "os.path.isdir(1.5)",
            "stat: path should be string, bytes, os.PathLike or integer, not float",
        ),
        (
            "os.path.basename()",
            "basename() missing 1 required positional argument: 'p'",
        ),
        ("os.getenv(1)", "str expected, not int"),
        // itertools' C types.
        ("it.cycle()", "cycle expected 1 argument, got 0"),
        (
            "it.cycle(iterable=[1])",
            "cycle() takes no keyword arguments",
        ),
        (
            "it.islice([1])",
            "islice expected at least 2 arguments, got 1",
        ),
        (
            "it.islice([1], stop=1)",
            "islice() takes no keyword arguments",
        ),
        (
            "it.accumulate([1], None, 3)",
            "accumulate() takes at most 2 positional arguments (3 given)",
        ),
        (
            "it.zip_longest([1], foo=1)",
            "zip_longest() got an unexpected keyword argument",
        ),
        ("it.starmap(len)", "starmap expected 2 arguments, got 1"),
        (
            "it.pairwise([1], [2])",
            "pairwise expected 1 argument, got 2",
        ),
        (
            "it.groupby([1], None, 3)",
            "groupby() takes at most 2 arguments (3 given)",
        ),
        (
            "it.takewhile(predicate=len, iterable=[])",
            "takewhile() takes no keyword arguments",
        ),
        (
            "it.repeat(1, None)",
            "'NoneType' object cannot be interpreted as an integer",
        ),
        (
            "it.count(foo=1)",
            "'foo' is an invalid keyword argument for count()",
        ),
        (
            "it.product([1], foo=1)",
            "'foo' is an invalid keyword argument for product()",
        ),
        // functools and operator.
        (
            "functools.reduce(function=len, iterable=[])",
            "reduce() takes no keyword arguments",
        ),
        (
            "functools.reduce(len)",
            "reduce expected at least 2 arguments, got 1",
        ),
        (
            "functools.partial()",
            "type 'partial' takes at least one argument",
        ),
        (
            "functools.lru_cache(1, 2, 3)",
            "lru_cache() takes from 0 to 2 positional arguments but 3 were given",
        ),
        (
            "functools.cmp_to_key()",
            "cmp_to_key() missing required argument 'mycmp' (pos 1)",
        ),
        (
            "operator.add(a=1, b=2)",
            "_operator.add() takes no keyword arguments",
        ),
        (
            "operator.neg()",
            "_operator.neg() takes exactly one argument (0 given)",
        ),
        (
            "operator.getitem([1])",
            "getitem expected 2 arguments, got 1",
        ),
        // cmath's Argument Clinic functions.
        (
            "cmath.sqrt()",
            "cmath.sqrt() takes exactly one argument (0 given)",
        ),
        ("cmath.sqrt(z=1)", "cmath.sqrt() takes no keyword arguments"),
        (
            "cmath.log(1, 2, 3)",
            "log expected at most 2 arguments, got 3",
        ),
        ("cmath.rect(1)", "rect expected 2 arguments, got 1"),
        (
            "cmath.isclose(1, 2, foo=3)",
            "'foo' is an invalid keyword argument for isclose()",
        ),
        // json and re, written in Python.
        (
            "json.dumps(1, foo=2)",
            "JSONEncoder.__init__() got an unexpected keyword argument 'foo'",
        ),
        (
            "json.loads('1', foo=2)",
            "JSONDecoder.__init__() got an unexpected keyword argument 'foo'",
        ),
        (
            "json.dumps(1, 2)",
            "dumps() takes 1 positional argument but 2 were given",
        ),
        (
            "re.match('a')",
            "match() missing 1 required positional argument: 'string'",
        ),
        (
            "re.escape(1)",
            "decoding to str: need a bytes-like object, int found",
        ),
        // Numba's functions, written in Python.
        (
            "cuda.pinned_array_like(np.zeros(2), stream=0)",
            "pinned_array_like() got an unexpected keyword argument 'stream'",
        ),
        (
            "cuda.mapped_array_like(np.zeros(2), 0, False, False, 5)",
            "mapped_array_like() takes from 1 to 4 positional arguments but 5 were given",
        ),
        (
            "cuda.device_array_like()",
            "device_array_like() missing 1 required positional argument: 'ary'",
        ),
        (
            "cuda.event(True, 2)",
            "event() takes from 0 to 1 positional arguments but 2 were given",
        ),
        (
            "cuda.event(timing=True, foo=1)",
            "event() got an unexpected keyword argument 'foo'",
        ),
        (
            "cuda.list_devices(1)",
            "list_devices() takes 0 positional arguments but 1 was given",
        ),
        (
            "cuda.current_context(0, 1)",
            "get_context() takes from 0 to 1 positional arguments but 2 were given",
        ),
        (
            "cuda.as_cuda_array()",
            "as_cuda_array() missing 1 required positional argument: 'obj'",
        ),
        (
            "devicearray.auto_device(1, 0, True, False, 5)",
            "auto_device() takes from 1 to 4 positional arguments but 5 were given",
        ),
        (
            "driver.host_to_device(1, 2)",
            "host_to_device() missing 1 required positional argument: 'size'",
        ),
        (
            "devices.get_context(0, 1)",
            "get_context() takes from 0 to 1 positional arguments but 2 were given",
        ),
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("TypeError"), "{code}");
        assert_eq!(c.evalue(), want, "{code}");
    }
    for (code, ename, want) in [
        (
            "it.combinations([1], -1)",
            "ValueError",
            "r must be non-negative",
        ),
        (
            "it.permutations([1], -1)",
            "ValueError",
            "r must be non-negative",
        ),
        (
            "re.compile(re.compile('a'), re.I)",
            "ValueError",
            "cannot process flags argument with a compiled pattern",
        ),
        // Numba asserts on cuda.mapped's **kws.
        (
            "cuda.mapped(np.zeros(2), foo=1)",
            "AssertionError",
            "Only accept 'stream' as keyword.",
        ),
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some(ename), "{code}");
        assert_eq!(c.evalue(), want, "{code}");
    }
}

#[test]
fn options_once_accepted_and_ignored_now_act() {
    let mut s = Session::new();
    let dir = std::env::temp_dir().join(format!("nbcuda-specs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("target"), "x").unwrap();
    std::os::unix::fs::symlink(dir.join("target"), dir.join("link")).unwrap();
    s.run(&format!(
        "import os, itertools as it, functools, json, re\nfrom numba import cuda\nd = {:?}",
        dir.to_string_lossy()
    ))
    .ok();
    for (code, want) in [
        // mode= (0o700 is the same under the usual umasks, 022, 002 and 077).
        (
            "os.mkdir(d + '/m700', 0o700)\nprint(oct(os.stat(d + '/m700').st_mode & 0o777))",
            "0o700\n",
        ),
        (
            "os.makedirs(d + '/a/b', 0o700)\nprint(oct(os.stat(d + '/a/b').st_mode & 0o777))",
            "0o700\n",
        ),
        // follow_symlinks=False: the link itself (S_IFLNK), not the file (S_IFREG).
        (
            "print(oct(os.stat(d + '/link', follow_symlinks=False).st_mode & 0o170000), oct(os.stat(d + '/link').st_mode & 0o170000))",
            "0o120000 0o100000\n",
        ),
        // An absolute path ignores dir_fd, as the *at calls do.
        (
            "os.remove(d + '/target', dir_fd=3)\nprint(os.path.exists(d + '/target'))",
            "False\n",
        ),
        // lru_cache(typed=True) keeps 1, 1.0 and True apart; untyped, one int argument is
        // its own key, so 1.0 is still a miss after 1.
        (
            "@functools.lru_cache(typed=True)\ndef f(x): return x\nf(1); f(1.0); f(True)\nprint(f.cache_info())",
            "CacheInfo(hits=0, misses=3, maxsize=128, currsize=3)\n",
        ),
        (
            "@functools.lru_cache()\ndef g(x): return x\ng(1); g(1.0)\nprint(g.cache_info())",
            "CacheInfo(hits=0, misses=2, maxsize=128, currsize=2)\n",
        ),
        // json's **kw reaches JSONDecoder: strict=False lets control characters stand.
        ("print(repr(json.loads('\"a\\tb\"', strict=False)))", "'a\\tb'\n"),
        // re's functions bind by name; escape escapes only special characters.
        (
            "print(re.match(pattern='a', string='ab'))",
            "<re.Match object; span=(0, 1), match='a'>\n",
        ),
        ("print(re.escape('a@b-c d'))", "a@b\\-c\\ d\n"),
        (
            "print(re.sub(pattern='a', repl='b', string='aa', count=1))",
            "ba\n",
        ),
        // An explicit None is reduce's initial value.
        (
            "print(functools.reduce(lambda a, b: [a, b], [1], None))",
            "[None, 1]\n",
        ),
        (
            "print(list(it.islice(it.count(start=2, step=3), 3)))",
            "[2, 5, 8]\n",
        ),
        ("print(os.path.basename(p='x/y'))", "y\n"),
        ("print(hasattr(cuda, 'managed_array_like'))", "False\n"),
    ] {
        assert_eq!(s.stdout(code), want, "{code}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cupy_creation_options_act() {
    // CuPy mirrors NumPy here; expected values are NumPy's (CuPy's retstep is a float).
    let mut s = Session::new();
    s.run("import cupy as cp\nimport numpy as np").ok();
    for (code, want) in [
        (
            "print(cp.zeros_like(cp.arange(3), shape=(2, 2)))",
            "[[0 0]\n [0 0]]\n",
        ),
        (
            "print(cp.full_like(cp.arange(3), 7, shape=3, dtype=np.float32))",
            "[7. 7. 7.]\n",
        ),
        (
            "a, step = cp.linspace(0, 1, 5, retstep=True)\nprint(a, step)",
            "[0.   0.25 0.5  0.75 1.  ] 0.25\n",
        ),
        ("print(cp.linspace(0, 1, 1, retstep=True)[1])", "nan\n"),
        ("print(cp.array([1, 2, 3], ndmin=2).shape)", "(1, 3)\n"),
        (
            "out = np.zeros(3)\nr = cp.asnumpy(cp.arange(3.0), out=out)\nprint(r is out, out)",
            "True [0. 1. 2.]\n",
        ),
        ("print(cp.zeros(3, order='F').shape)", "(3,)\n"),
        // The reductions' keepdims=, ddof=, dtype= and out=.
        (
            "a = cp.arange(6.).reshape(2, 3)\nprint(cp.sum(a, axis=1, keepdims=True))\nprint(cp.sum(a, keepdims=True))",
            "[[ 3.]\n [12.]]\n[[15.]]\n",
        ),
        (
            "print(cp.var(a, ddof=1), cp.std(a, axis=0, ddof=1))",
            "3.5 [2.12132034 2.12132034 2.12132034]\n",
        ),
        ("print(cp.sum(cp.arange(3), dtype=np.float32).dtype)", "float32\n"),
        (
            "o = cp.zeros(3)\nr = cp.sum(a, axis=0, out=o)\nprint(r is o, o)",
            "True [3. 5. 7.]\n",
        ),
        (
            "print(cp.random.rand(2).shape, cp.random.randn(2, 3, dtype=np.float32).dtype)",
            "(2,) float32\n",
        ),
        // The ufuncs' out= (keyword or positional) and dtype=.
        (
            "o = cp.zeros(3)\nr = cp.sqrt(cp.arange(3.0) ** 2, out=o)\nprint(r is o, o)",
            "True [0. 1. 2.]\n",
        ),
        (
            "o = cp.zeros(2)\nr = cp.add(cp.ones(2), 1, o)\nprint(r is o, o)",
            "True [2. 2.]\n",
        ),
        (
            "print(cp.sqrt(cp.arange(3), dtype=np.float32).dtype)",
            "float32\n",
        ),
        (
            "o = cp.zeros(3)\nr = cp.maximum(cp.arange(3.), 1, out=o)\nprint(r is o, o)",
            "True [1. 1. 2.]\n",
        ),
        (
            "o = cp.zeros(3)\nr = cp.clip(cp.arange(3.), 0.5, 1.5, out=o)\nprint(r is o, o)",
            "True [0.5 1.  1.5]\n",
        ),
        (
            "o = cp.zeros((2, 2))\nr = cp.dot(cp.ones((2, 2)), cp.ones((2, 2)), out=o)\nprint(r is o, o)",
            "True [[2. 2.]\n [2. 2.]]\n",
        ),
        (
            "print(cp.minimum(cp.arange(3), 1, dtype=np.float32).dtype)",
            "float32\n",
        ),
    ] {
        assert_eq!(s.stdout(code), want, "{code}");
    }
    for (code, ename, want) in [
        (
            "cp.linspace(0, 1, -1)",
            "ValueError",
            "linspace with num<0 is not supported",
        ),
        (
            "cp.zeros_like(cp.arange(3), subok=True)",
            "TypeError",
            "subok is not supported yet",
        ),
        (
            "cp.zeros((2, 2), order='F')",
            "NotImplementedError",
            "order='F' is not supported by nbcuda's CuPy arrays, which are C-ordered",
        ),
        (
            "cp.zeros(3, foo=1)",
            "TypeError",
            "zeros() got an unexpected keyword argument 'foo'",
        ),
        (
            "cp.asarray()",
            "TypeError",
            "asarray() missing 1 required positional argument: 'a'",
        ),
        (
            "cp.random.rand(2, foo=1)",
            "TypeError",
            "rand() got unexpected keyword arguments foo",
        ),
        (
            "cp.sqrt(cp.arange(3), foo=1)",
            "TypeError",
            "Wrong arguments {'foo': 1}",
        ),
        (
            "cp.sqrt()",
            "TypeError",
            "Wrong number of arguments for sqrt",
        ),
        (
            "cp.sum(cp.arange(3), foo=1)",
            "TypeError",
            "sum() got an unexpected keyword argument 'foo'",
        ),
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some(ename), "{code}");
        assert_eq!(c.evalue(), want, "{code}");
    }
}
