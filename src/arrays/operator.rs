//! The operator vocabulary shared by every layer. [`Arith`], [`Cmp`], [`Unary`] and
//! [`MathFn`] are the computations: the kernel IR, the CPU executor, the CUDA C generator,
//! NumPy's ufuncs and CuPy all speak them ([`Ufunc1`] names NumPy's unary ufuncs in them,
//! `ufunc::Ufunc2` its binary ones). [`BinOp`] and [`UnaryOp`] are Python's operator syntax (`+`, `@`,
//! `<`, `~`), which the interpreter dispatches and maps onto the computations.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    MatMul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    LShift,
    RShift,
    BitAnd,
    BitOr,
    BitXor,
    // comparisons, for arrays (elementwise) and objects
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::MatMul => "@",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Pos,
    Invert,
}

/// Binary arithmetic and bitwise computations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    /// True division (kernels cast integers to float64 first, as Numba does).
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitAnd,
    BitOr,
    BitXor,
    LShift,
    RShift,
    Min,
    Max,
}

/// Comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Unary computations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    Neg,
    /// Logical not of a boolean.
    Not,
    Invert,
    Abs,
    /// Bits set (`cuda.popc`), leading zeros (`cuda.clz`), 1-based position of the lowest
    /// set bit or 0 (`cuda.ffs`), bits reversed (`cuda.brev`), in the type's width.
    Popc,
    Clz,
    Ffs,
    Brev,
}

impl BinOp {
    /// The arithmetic or bitwise computation of this operator, if it is one.
    pub fn arith(self) -> Option<Arith> {
        Some(match self {
            BinOp::Add => Arith::Add,
            BinOp::Sub => Arith::Sub,
            BinOp::Mul => Arith::Mul,
            BinOp::Div => Arith::Div,
            BinOp::FloorDiv => Arith::FloorDiv,
            BinOp::Mod => Arith::Mod,
            BinOp::Pow => Arith::Pow,
            BinOp::LShift => Arith::LShift,
            BinOp::RShift => Arith::RShift,
            BinOp::BitAnd => Arith::BitAnd,
            BinOp::BitOr => Arith::BitOr,
            BinOp::BitXor => Arith::BitXor,
            _ => return None,
        })
    }

    /// The comparison of this operator, if it is one.
    pub fn cmp(self) -> Option<Cmp> {
        Some(match self {
            BinOp::Eq => Cmp::Eq,
            BinOp::Ne => Cmp::Ne,
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            _ => return None,
        })
    }
}

/// `math.*` functions. Arguments and result share one float type except the predicates
/// (`isnan`...), which return boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFn {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log1p,
    Log2,
    Log10,
    Sqrt,
    Cbrt,
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Erf,
    Erfc,
    Gamma,
    Lgamma,
    Atan2,
    Pow,
    Hypot,
    Fmod,
    Copysign,
    /// IEEE 754 remainder (Python's `math.remainder`; NumPy's `remainder` is `%`).
    Remainder,
    Nextafter,
    IsNan,
    IsInf,
    IsFinite,
    Round,
}

impl MathFn {
    pub fn from_name(name: &str) -> Option<MathFn> {
        use MathFn::*;
        Some(match name {
            "sin" => Sin,
            "cos" => Cos,
            "tan" => Tan,
            "asin" | "arcsin" => Asin,
            "acos" | "arccos" => Acos,
            "atan" | "arctan" => Atan,
            "sinh" => Sinh,
            "cosh" => Cosh,
            "tanh" => Tanh,
            "asinh" | "arcsinh" => Asinh,
            "acosh" | "arccosh" => Acosh,
            "atanh" | "arctanh" => Atanh,
            "exp" => Exp,
            "exp2" => Exp2,
            "expm1" => Expm1,
            "log" => Log,
            "log1p" => Log1p,
            "log2" => Log2,
            "log10" => Log10,
            "sqrt" => Sqrt,
            "cbrt" => Cbrt,
            "fabs" => Fabs,
            "floor" => Floor,
            "ceil" => Ceil,
            "trunc" => Trunc,
            "erf" => Erf,
            "erfc" => Erfc,
            "gamma" => Gamma,
            "lgamma" => Lgamma,
            "atan2" | "arctan2" => Atan2,
            "pow" | "power" => Pow,
            "hypot" => Hypot,
            "fmod" => Fmod,
            "copysign" => Copysign,
            "nextafter" => Nextafter,
            "isnan" => IsNan,
            "isinf" => IsInf,
            "isfinite" => IsFinite,
            _ => return None,
        })
    }
    pub fn arity(self) -> usize {
        use MathFn::*;
        match self {
            Atan2 | Pow | Hypot | Fmod | Copysign | Remainder | Nextafter => 2,
            _ => 1,
        }
    }
    pub fn is_predicate(self) -> bool {
        matches!(self, MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite)
    }
    pub fn name(self) -> String {
        format!("{self:?}").to_lowercase()
    }
}

/// NumPy's unary ufuncs (`np.negative`, `np.sin`, `np.isnan` ...), host and CuPy alike:
/// the kernels' own unary and math computations where NumPy's is the same one, and the few
/// NumPy adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ufunc1 {
    /// `negative`, `absolute`, `invert` and `logical_not`.
    Op(Unary),
    /// `sqrt`, `exp`, `sin`, `floor`, `rint` (`Round`), `fabs`, `isnan` ...
    Math(MathFn),
    Positive,
    Square,
    Sign,
    Deg2rad,
    Rad2deg,
    /// NumPy's own ufuncs computing what `deg2rad` and `rad2deg` do, under their names.
    Radians,
    Degrees,
    Reciprocal,
    Signbit,
    Conjugate,
}

impl Ufunc1 {
    /// Every unary ufunc by the names NumPy binds it to: its own first, then the aliases
    /// that are the same object (`np.abs is np.absolute`).
    pub const NAMES: &'static [(&'static str, Ufunc1)] = {
        use MathFn as M;
        use Ufunc1::*;
        &[
            ("negative", Op(Unary::Neg)),
            ("positive", Positive),
            ("absolute", Op(Unary::Abs)),
            ("abs", Op(Unary::Abs)),
            ("fabs", Math(M::Fabs)),
            ("square", Square),
            ("sign", Sign),
            ("sqrt", Math(M::Sqrt)),
            ("exp", Math(M::Exp)),
            ("exp2", Math(M::Exp2)),
            ("expm1", Math(M::Expm1)),
            ("log", Math(M::Log)),
            ("log2", Math(M::Log2)),
            ("log10", Math(M::Log10)),
            ("log1p", Math(M::Log1p)),
            ("sin", Math(M::Sin)),
            ("cos", Math(M::Cos)),
            ("tan", Math(M::Tan)),
            ("arcsin", Math(M::Asin)),
            ("arccos", Math(M::Acos)),
            ("arctan", Math(M::Atan)),
            ("sinh", Math(M::Sinh)),
            ("cosh", Math(M::Cosh)),
            ("tanh", Math(M::Tanh)),
            ("arcsinh", Math(M::Asinh)),
            ("arccosh", Math(M::Acosh)),
            ("arctanh", Math(M::Atanh)),
            ("floor", Math(M::Floor)),
            ("ceil", Math(M::Ceil)),
            ("trunc", Math(M::Trunc)),
            ("rint", Math(M::Round)),
            ("cbrt", Math(M::Cbrt)),
            ("deg2rad", Deg2rad),
            ("rad2deg", Rad2deg),
            ("radians", Radians),
            ("degrees", Degrees),
            ("reciprocal", Reciprocal),
            ("isnan", Math(M::IsNan)),
            ("isinf", Math(M::IsInf)),
            ("isfinite", Math(M::IsFinite)),
            ("logical_not", Op(Unary::Not)),
            ("invert", Op(Unary::Invert)),
            ("bitwise_not", Op(Unary::Invert)),
            ("signbit", Signbit),
            ("conjugate", Conjugate),
            ("conj", Conjugate),
        ]
    };

    pub fn from_name(name: &str) -> Option<Ufunc1> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, u)| *u)
    }

    /// The ufunc's `__name__`, which NumPy's messages use.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, u)| *u == self)
            .map_or("ufunc", |(n, _)| *n)
    }
}

/// Reductions over all elements or one axis, and the cumulative sums and products: host
/// NumPy's functions and methods, CuPy's and the ufuncs' `reduce`/`accumulate` all name them
/// here, and [`crate::arrays::reduce`] computes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    Sum,
    Prod,
    Mean,
    Var,
    Std,
    Min,
    Max,
    ArgMin,
    ArgMax,
    Any,
    All,
    CumSum,
    CumProd,
}

impl Reduce {
    /// Every reduction by the names NumPy binds it to: its own first, then the aliases
    /// (`np.amax` is `np.max`).
    pub const NAMES: &'static [(&'static str, Reduce)] = {
        use Reduce::*;
        &[
            ("sum", Sum),
            ("prod", Prod),
            ("mean", Mean),
            ("var", Var),
            ("std", Std),
            ("min", Min),
            ("amin", Min),
            ("max", Max),
            ("amax", Max),
            ("argmin", ArgMin),
            ("argmax", ArgMax),
            ("any", Any),
            ("all", All),
            ("cumsum", CumSum),
            ("cumprod", CumProd),
        ]
    };

    pub fn from_name(name: &str) -> Option<Reduce> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| *r)
    }

    /// The function's own name, which NumPy's messages use.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, r)| *r == self)
            .map_or("reduce", |(n, _)| *n)
    }
}
