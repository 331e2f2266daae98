"""Generators of hostile cells for the fuzz test (test_fuzz.py).

Two generators, both driven by a seeded random.Random so a run is reproducible:

- `grammar_cell`: small Python programs from a grammar of statements and expressions
  (assignments, augmented assignments, if/for/while with bounded loops, functions,
  comprehensions, try/except, deep nesting, f-strings and format specs).
- `typed_cell`: calls over the builtins, str methods, NumPy and the device API with
  arguments drawn from hostile values: empty, negative, zero, huge (past any memory),
  NaN/inf, wrong types, odd dtypes and shapes, kernels launched with odd grids.

Sizes are either small (fast) or absurd (an immediate MemoryError/ValueError is the right
answer), never in between, so a healthy kernel runs every cell in milliseconds and a slow
cell means a bug (a hang or a missing check).
"""

import random

SMALL_INTS = ["0", "1", "2", "3", "-1", "-2", "7", "10", "255", "256", "-128"]
HUGE_INTS = ["10**12", "2**62", "-2**63", "2**63 - 1", "10**18", "2**40", "-10**15"]
FLOATS = ["0.0", "-0.0", "1.5", "-2.5", "1e308", "-1e308", "1e-310", "float('nan')", "float('inf')", "-float('inf')"]
STRS = ["''", "'a'", "'abc'", "'\\t'", "'{}'", "'{0}'", "'%d'", "'é'", "'\\x00'", "'a b c'"]
DTYPES = ["np.float32", "np.float64", "np.int8", "np.uint8", "np.int32", "np.int64", "np.uint64", "np.bool_", "np.int16"]
NAMES = ["a", "b", "c", "x", "y", "l", "d", "s", "t", "h"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    # ---- values -------------------------------------------------------------------
    def int_(self):
        return self.pick(HUGE_INTS) if self.chance(0.25) else self.pick(SMALL_INTS)

    def small(self):
        return self.pick(SMALL_INTS[:8])

    def scalar(self):
        k = self.r.randrange(5)
        if k == 0:
            return self.int_()
        if k == 1:
            return self.pick(FLOATS)
        if k == 2:
            return self.pick(STRS)
        if k == 3:
            return self.pick(["None", "True", "False", "()", "[]", "{}"])
        return self.pick(NAMES)

    def shape(self):
        k = self.r.randrange(6)
        if k == 0:
            return self.int_()
        if k == 1:
            return f"({self.small()},)"
        if k == 2:
            return f"({self.small()}, {self.small()})"
        if k == 3:
            return f"({self.int_()}, {self.int_()})"
        if k == 4:
            return "()"
        return f"({self.small()}, {self.small()}, {self.small()})"

    def array(self, depth=0):
        k = self.r.randrange(8 if depth < 2 else 4)
        if k == 0:
            return f"np.arange({self.small()})"
        if k == 1:
            return f"np.zeros({self.shape()}, dtype={self.pick(DTYPES)})"
        if k == 2:
            return f"np.ones({self.shape()})"
        if k == 3:
            return f"np.array([{self.scalar()}, {self.scalar()}])"
        if k == 4:
            return f"{self.array(depth + 1)}.reshape({self.shape()})"
        if k == 5:
            return f"{self.array(depth + 1)}[{self.index()}]"
        if k == 6:
            return f"({self.array(depth + 1)} {self.pick(['+', '-', '*', '/', '//', '%', '**', '@', '<', '=='])} {self.operand(depth + 1)})"
        return f"np.{self.pick(['sqrt', 'exp', 'log', 'abs', 'sin', 'floor', 'isnan'])}({self.array(depth + 1)})"

    def operand(self, depth):
        return self.array(depth) if self.chance(0.5) else self.scalar()

    def index(self):
        k = self.r.randrange(6)
        if k == 0:
            return self.int_()
        if k == 1:
            return f"{self.int_()}:{self.int_()}"
        if k == 2:
            return f"::{self.pick(['-1', '2', '0', '-3'])}"
        if k == 3:
            return f"{self.small()}, {self.small()}"
        if k == 4:
            return "..., None"
        return self.pick(["[0, -1]", "[True, False]", "'a'", "1.5", "()", "slice(None)"])

    # ---- expressions --------------------------------------------------------------
    def expr(self, depth=0):
        if depth > 3:
            return self.scalar()
        k = self.r.randrange(14)
        if k == 0:
            return f"({self.expr(depth + 1)} {self.pick(['+', '-', '*', '/', '//', '%', '**', '<<', '>>', '&', '|', '^', '<', '==', 'and', 'or', 'in', 'is'])} {self.expr(depth + 1)})"
        if k == 1:
            return f"{self.pick(['-', 'not ', '~', '+'])}{self.expr(depth + 1)}"
        if k == 2:
            return f"[{self.expr(depth + 1)} for {self.pick(NAMES)} in range({self.small()})]"
        if k == 3:
            return f"{{{self.expr(depth + 1)}: {self.expr(depth + 1)}}}"
        if k == 4:
            return f"({self.expr(depth + 1)}, {self.expr(depth + 1)})"
        if k == 5:
            return f"{self.expr(depth + 1)}[{self.index()}]"
        if k == 6:
            return f"f'{{{self.expr(depth + 1)}:{self.fmt_spec()}}}'"
        if k == 7:
            return f"({self.expr(depth + 1)} if {self.expr(depth + 1)} else {self.expr(depth + 1)})"
        if k == 8:
            return self.call(depth + 1)
        if k == 9:
            return self.array(depth)
        if k == 10:
            return f"(lambda {self.pick(NAMES)}: {self.expr(depth + 1)})({self.expr(depth + 1)})"
        return self.scalar()

    def fmt_spec(self):
        return self.pick(["", "d", ".2f", ">10", "^5", "x", "b", "e", ".3g", ",", "08.3f", "s", "%", "<{}".format(self.pick(["3", "0"])), "c", "n", ">1000000000000", ".99999f", "=+7"])

    def call(self, depth=0):
        k = self.r.randrange(4)
        if k == 0:
            f = self.pick(["len", "str", "repr", "int", "float", "abs", "round", "min", "max", "sorted", "sum", "list", "tuple", "set", "bool", "hash", "chr", "ord", "bin", "hex", "divmod", "pow", "range", "enumerate", "zip", "reversed", "any", "all", "isinstance", "format", "iter", "type", "dict", "id", "callable"])
            args = ", ".join(self.expr(depth + 1) for _ in range(self.r.randrange(4)))
            return f"{f}({args})"
        if k == 1:
            m = self.pick(["center", "ljust", "rjust", "zfill", "split", "join", "replace", "find", "count", "upper", "strip", "format", "startswith", "partition", "splitlines", "encode", "title", "isdigit"])
            args = ", ".join(self.expr(depth + 1) for _ in range(self.r.randrange(3)))
            return f"{self.pick(STRS)}.{m}({args})"
        if k == 2:
            m = self.pick(["sum", "mean", "std", "max", "argmax", "cumsum", "astype", "transpose", "copy", "tolist", "reshape", "ravel", "any", "nonzero", "sort", "fill"])
            arg = self.pick(["", self.int_(), f"axis={self.pick(['0', '1', '-1', '5', 'None'])}", self.pick(DTYPES)])
            return f"{self.array(depth)}.{m}({arg})"
        f = self.pick(["np.concatenate", "np.stack", "np.where", "np.clip", "np.linspace", "np.full", "np.eye", "np.tile", "np.random.rand", "np.random.randint", "np.argsort", "np.dot", "np.matmul", "np.isclose", "np.histogram", "np.unique"])
        args = ", ".join(self.pick([self.array(depth), self.int_(), self.shape(), self.scalar(), f"[{self.array(depth)}, {self.array(depth)}]"]) for _ in range(self.r.randrange(1, 4)))
        return f"{f}({args})"

    # ---- statements ---------------------------------------------------------------
    def stmt(self, depth=0):
        ind = "    " * depth
        k = self.r.randrange(12 if depth < 2 else 6)
        if k <= 2:
            return f"{ind}{self.pick(NAMES)} = {self.expr()}"
        if k == 3:
            return f"{ind}{self.pick(NAMES)} {self.pick(['+=', '*=', '-=', '//=', '|=', '**='])} {self.expr()}"
        if k == 4:
            return f"{ind}print({self.expr()})"
        if k == 5:
            return f"{ind}{self.expr()}"
        if k == 6:
            return f"{ind}if {self.expr()}:\n{self.stmt(depth + 1)}\n{ind}else:\n{self.stmt(depth + 1)}"
        if k == 7:
            return f"{ind}for {self.pick(NAMES)} in {self.pick(['range(' + self.small() + ')', self.pick(NAMES), self.array(), self.pick(STRS)])}:\n{self.stmt(depth + 1)}"
        if k == 8:
            # The counter and the body share a line, so shrinking cannot unbound the loop.
            body = self.pick([f"print({self.expr()})", f"{self.pick(NAMES)} = {self.expr()}", self.expr()])
            return f"{ind}_n = 0\n{ind}while _n < {self.small()}:\n{ind}    _n += 1; {body}"
        if k == 9:
            return f"{ind}def f({self.pick(NAMES)}, *args, k={self.scalar()}):\n{self.stmt(depth + 1)}\n{ind}    return {self.expr()}\n{ind}{self.pick(NAMES)} = f({self.expr()})"
        if k == 10:
            return f"{ind}try:\n{self.stmt(depth + 1)}\n{ind}except {self.pick(['Exception', 'ValueError', '(TypeError, IndexError)', 'KeyError as e'])}:\n{ind}    pass"
        return f"{ind}del {self.pick(NAMES)}"

    def grammar_cell(self):
        lines = [self.stmt() for _ in range(self.r.randrange(1, 5))]
        if self.chance(0.05):
            # Deep nesting of brackets or operators, past any sane depth.
            n = self.pick([150, 250, 1200, 60000])
            lines.append(self.pick(["(" * n + "1" + ")" * n, "[" * n + "]" * n, "x = " + "-" * n + "1", "x = " + "1+" * n + "1"]))
        return "\n".join(lines)

    # ---- the typed generator over the device API ----------------------------------
    def device_stmt(self):
        k = self.r.randrange(12)
        if k == 0:
            return f"d = cuda.to_device({self.array()})"
        if k == 1:
            return f"d = cuda.device_array({self.shape()}, dtype={self.pick(DTYPES)})"
        if k == 2:
            return "h = d.copy_to_host()"
        if k == 3:
            return f"d[{self.index()}] = {self.pick([self.scalar(), self.array()])}"
        if k == 4:
            return f"print(d[{self.index()}])"
        if k == 5:
            grid = self.pick(["1", "0", "-1", "2**31", "(2, 2)", "(1, 1, 1, 1)", self.small(), "1.5"])
            block = self.pick(["1", "32", "1024", "1025", "0", "(32, 32)", "(2, 2, 2)", self.small()])
            return f"fill_k[{grid}, {block}](d, {self.scalar()})"
        if k == 6:
            return "cuda.synchronize()"
        if k == 7:
            return f"d2 = d.reshape({self.shape()})"
        if k == 8:
            return f"s = cuda.stream(); d3 = cuda.to_device({self.array()}, stream=s); s.synchronize()"
        if k == 9:
            return f"r = add_u({self.pick(['d', self.array(), self.scalar()])}, {self.pick(['d', self.array(), self.scalar()])})"
        if k == 10:
            return f"print(d.{self.pick(['shape', 'dtype', 'size', 'strides', 'ndim', 'nbytes', 'T', 'alloc_size'])})"
        return f"sum_r({self.pick(['d', self.array()])})"

    def typed_cell(self):
        lines = [self.pick([self.device_stmt, lambda: f"print({self.call()})", lambda: f"x = {self.array()}"])() for _ in range(self.r.randrange(1, 5))]
        return "\n".join(lines)


DEVICE_PRELUDE = """import numpy as np
from numba import cuda, vectorize
d = cuda.device_array(8)
a = b = c = x = y = 1
l = [1, 2]
s = 'ab'
t = (1,)
h = np.arange(4)

@cuda.jit
def fill_k(arr, v):
    i = cuda.grid(1)
    if i < arr.size:
        arr[i] = v

@vectorize(['float64(float64, float64)'], target='cuda')
def add_u(p, q):
    return p + q

@cuda.reduce
def sum_r(p, q):
    return p + q
"""
