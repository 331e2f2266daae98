//! Python's `complex` and `cmath` against CPython 3.11: literals, arithmetic with ints
//! and floats, repr (`(1+2j)`, `(-0-1j)`, `1j`), hashing, parsing, errors, and the
//! `cmath` functions. Expected values were printed by CPython 3.11 for the same
//! expressions.

mod common;
use common::{outcome, Session};

/// What the expression gives: its repr, or `Name: message` for an exception.
fn check(s: &mut Session, cases: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for (expr, want) in cases {
        let got = outcome(s, expr);
        if got != *want {
            wrong.push(format!("{expr}: got {got:?}, CPython {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn complex_numbers_behave_as_cpython() {
    let mut s = Session::new();
    check(
        &mut s,
        &[
        ("complex(1, 2)", "(1+2j)"),
        ("1j", "1j"),
        ("2+3j", "(2+3j)"),
        ("-1j", "(-0-1j)"),
        ("complex(-0.0, -1)", "(-0-1j)"),
        ("complex(0.0, -1)", "-1j"),
        ("complex(float('nan'), float('inf'))", "(nan+infj)"),
        ("complex(1.5, -0.0)", "(1.5-0j)"),
        ("(1+2j).real, (1+2j).imag, (1+2j).conjugate()", "(1.0, 2.0, (1-2j))"),
        ("(1+2j) + 1, 1 + (1+2j), (1+2j) * 2.5, (1+2j) - (3-4j)", "((2+2j), (2+2j), (2.5+5j), (-2+6j))"),
        ("(1+2j) * (3-4j)", "(11+2j)"),
        ("(1+2j) / (3-4j)", "(-0.2+0.4j)"),
        ("1 / 1j", "-1j"),
        ("(1+2j) / 0", "ZeroDivisionError: complex division by zero"),
        ("(1+2j) ** 2", "(-3+4j)"),
        ("(1+1j) ** 0.5", "(1.0986841134678098+0.45508986056222733j)"),
        ("2 ** (1+1j)", "(1.5384778027279442+1.2779225526272695j)"),
        ("1j ** 1j", "(0.20787957635076193+0j)"),
        ("(1+2j) ** -2", "(-0.12-0.16j)"),
        ("0j ** -1", "ZeroDivisionError: 0.0 to a negative or complex power"),
        ("abs(3+4j)", "5.0"),
        ("(1+2j) == (1+2j), 1+0j == 1, 2.0 == 2+0j, 1j == 1", "(True, True, True, False)"),
        ("(1+2j) < (2+3j)", "TypeError: '<' not supported between instances of 'complex' and 'complex'"),
        ("1j > 0", "TypeError: '>' not supported between instances of 'complex' and 'int'"),
        ("hash(1+2j), hash(3+0j), hash(-1j), hash(1.5+2.5j)", "(2000007, 3, -2000006, 4611686018429387911)"),
        ("{1+0j: 'a'}[1], {2: 'b'}[2+0j]", "('a', 'b')"),
        ("complex('1+2j'), complex(' (3-4.5e1j) '), complex('-j'), complex('inf+nanj'), complex('1e3'), complex('2J')", "((1+2j), (3-45j), -1j, (inf+nanj), (1000+0j), 2j)"),
        ("complex('1+2')", "ValueError: complex() arg is a malformed string"),
        ("complex('1+2j', 3)", "TypeError: complex() can't take second arg if first is a string"),
        ("complex(1+2j, 3j)", "(-2+2j)"),
        ("complex()", "0j"),
        ("type(1j), isinstance(1j, complex), isinstance(1j, float)", "(<class 'complex'>, True, False)"),
        ("str(1+2j), f'{1+2j}', repr([1j, -2+0.5j])", "('(1+2j)', '(1+2j)', '[1j, (-2+0.5j)]')"),
        ("(1+2j) // 2", "TypeError: unsupported operand type(s) for //: 'complex' and 'int'"),
        ("(1+2j) % 2", "TypeError: unsupported operand type(s) for %: 'complex' and 'int'"),
        ("float(1j)", "TypeError: float() argument must be a string or a real number, not 'complex'"),
        ("int(1j)", "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'complex'"),
        ("bool(0j), bool(1j), not 0j", "(False, True, True)"),
        ("-(1+2j), +(1+2j)", "((-1-2j), (1+2j))"),
        ("sum([1j, 2, 3.5])", "(5.5+1j)"),
        ("complex(1e308, 1e308) * 2", "(inf+infj)"),
        ("abs(complex(1e308, 1e308))", "1.4142135623730951e+308"),
        ("10 ** 400 * 1j", "OverflowError: int too large to convert to float"),
        ],
    );
}

#[test]
fn cmath_matches_cpython() {
    let mut s = Session::new();
    s.run("import cmath").ok();
    check(
        &mut s,
        &[
        ("cmath.sqrt(-1)", "1j"),
        ("cmath.sqrt(2j)", "(1+1j)"),
        ("cmath.sqrt(-4+0j), cmath.sqrt(-4-0j)", "(2j, 2j)"),
        ("cmath.exp(1j * cmath.pi)", "(-1+1.2246467991473532e-16j)"),
        ("cmath.exp(1+1j)", "(1.4686939399158851+2.2873552871788423j)"),
        ("cmath.log(-1)", "3.141592653589793j"),
        ("cmath.log(1j, 2)", "2.266180070913597j"),
        ("cmath.log10(100j)", "(2+0.6821881769209206j)"),
        ("cmath.phase(-1), cmath.phase(1j), cmath.phase(-1-0j)", "(3.141592653589793, 1.5707963267948966, 3.141592653589793)"),
        ("cmath.polar(1+1j)", "(1.4142135623730951, 0.7853981633974483)"),
        ("cmath.rect(2, cmath.pi/2)", "(1.2246467991473532e-16+2j)"),
        ("cmath.rect(1, 0)", "(1+0j)"),
        ("cmath.pi, cmath.e, cmath.inf, cmath.infj, cmath.nanj", "(3.141592653589793, 2.718281828459045, inf, infj, nanj)"),
        ("cmath.isclose(1+1j, 1+1.0000000001j), cmath.isclose(1j, 2j)", "(True, False)"),
        ("cmath.isnan(complex(1, float('nan'))), cmath.isinf(cmath.infj), cmath.isfinite(1+1j)", "(True, True, True)"),
        ("cmath.log(0)", "ValueError: math domain error"),
        ("cmath.sin(1+1j), cmath.cos(1+1j), cmath.tan(1+1j)", "((1.2984575814159773+0.6349639147847361j), (0.8337300251311491-0.9888977057628651j), (0.2717525853195118+1.0839233273386946j))"),
        ("cmath.sinh(1+1j), cmath.cosh(1+1j), cmath.tanh(1+1j)", "((0.6349639147847361+1.2984575814159773j), (0.8337300251311491+0.9888977057628651j), (1.0839233273386946+0.2717525853195118j))"),
        ("cmath.sqrt(4), cmath.exp(0)", "((2+0j), (1+0j))"),
        ],
    );
}

#[test]
fn complex_format_specs_are_cpythons() {
    // CPython 3.11 printed this line for the same cell.
    let mut s = Session::new();
    assert_eq!(
        s.stdout("print(repr(format(1+2j, '.2f')), repr(format(-1.5-2j, '.1e')), repr(format(1j,'.3g')), repr(format(1+2j,'>12.1f')), repr(f'{3-4j:+.1f}'))"),
        "'1.00+2.00j' '-1.5e+00-2.0e+00j' '0+1j' '    1.0+2.0j' '+3.0-4.0j'\n"
    );
}

/// Complex NumPy arrays (issue 16): expected reprs printed by NumPy 2.3 for the same
/// expressions. Devices are real-only, so a complex array refused there is a TypeError,
/// never a failure inside the device code.
#[test]
fn complex_numpy_arrays_behave_as_numpy() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nimport cupy as cp\nz = np.array([1 + 2j, 3 - 1j])");
    check(
        &mut s,
        &[
            ("z", "array([1.+2.j, 3.-1.j])"),
            ("z[1]", "np.complex128(3-1j)"),
            (
                "np.array([1.5, 2j], dtype=np.complex64)",
                "array([1.5+0.j, 0. +2.j], dtype=complex64)",
            ),
            ("(z / 2j).dtype", "dtype('complex128')"),
            (
                "np.array([1, 2], dtype=np.int8) * np.complex64(1j)",
                "array([0.+1.j, 0.+2.j], dtype=complex64)",
            ),
            ("np.exp(np.array([0j]))", "array([1.+0.j])"),
            ("z.imag.sum()", "np.float64(1.0)"),
            ("np.zeros(2) + 1j", "array([0.+1.j, 0.+1.j])"),
            ("np.float64(2.0) * 1j", "np.complex128(2j)"),
        ],
    );
    for expr in ["cuda.to_device(z)", "cp.asarray(z)"] {
        let got = outcome(&mut s, expr);
        assert!(
            got.starts_with("TypeError: nbcuda's devices do not support complex arrays"),
            "{expr}: {got}"
        );
    }
}

#[test]
fn complex_part_functions_and_inverse_trig_match_numpy() {
    // Expected: NumPy 2's reprs for the same expressions.
    let mut s = Session::new();
    s.run("import numpy as np\nz = np.array([1 + 2j, 3 - 1j])");
    check(
        &mut s,
        &[
            ("np.real(z)", "array([1., 3.])"),
            ("np.imag(z)", "array([ 2., -1.])"),
            ("np.real(3)", "3"),
            ("np.imag(1+2j)", "2.0"),
            ("np.real(np.complex64(1-2j))", "np.float32(1.0)"),
            ("np.imag(np.float32(2))", "np.float32(0.0)"),
            ("np.angle(z)", "array([ 1.10714872, -0.32175055])"),
            ("np.angle(1j, deg=True)", "np.float64(90.0)"),
            ("np.angle([1, -1])", "array([0.        , 3.14159265])"),
            ("np.conj(z)", "array([1.-2.j, 3.+1.j])"),
            ("np.conjugate(1+2j)", "np.complex128(1-2j)"),
            ("np.conj(np.arange(3))", "array([0, 1, 2])"),
            (
                "np.arcsin(z)",
                "array([0.42707859+1.52857092j, 1.23309522-1.8241987j ])",
            ),
            (
                "np.arccos(np.complex64(0.5+2j))",
                "np.complex64(1.3497777-1.4657154j)",
            ),
            (
                "np.arctanh(2+0j)",
                "np.complex128(0.5493061443340549+1.5707963267948966j)",
            ),
            ("np.arcsinh(-1j)", "np.complex128(-0-1.5707963267948966j)"),
            (
                "np.arccosh(np.array([-2+0j]))",
                "array([1.3169579+3.14159265j])",
            ),
            (
                "np.arctan(np.array([0.5-0.25j]))",
                "array([0.48425449-0.20058662j])",
            ),
            ("np.float64 is np.double", "True"),
            ("np.longlong is np.int64", "False"),
        ],
    );
}
