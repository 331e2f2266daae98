//! Module functions declared with one Python parameter list (`Module::def`): arguments
//! bind by name from it, argument errors are those of the real callable (a NumPy function
//! written in Python, NumPy's C parser, a Cython function of `np.random`, an Argument
//! Clinic function of `math`), and `?` shows it. Expected strings are NumPy 2.3.5's and
//! CPython 3.11's output for the same code.

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
    s.run("import numpy as np\nimport math").ok();
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
    ] {
        let c = s.run(code);
        c.ok();
        let text = c.outcome.payload[0]["data"]["text/plain"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(text.contains(sig), "{code}: {text}");
    }
}
