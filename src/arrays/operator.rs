//! The operator vocabulary shared by every layer. [`Arith`], [`Cmp`] and [`Unary`] are the
//! computations: the kernel IR, the CPU executor, the CUDA C generator, NumPy's ufuncs and
//! CuPy all speak them. [`BinOp`] and [`UnaryOp`] are Python's operator syntax (`+`, `@`,
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
