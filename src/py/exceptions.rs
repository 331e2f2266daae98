//! The exception classes nbcuda knows, with their bases: Python's built-in hierarchy plus
//! NumPy's, Numba's, IPython's and nbcuda's own. `except`, `isinstance`, `hasattr` and the
//! native code that catches an error all ask [`ExcClass::is_subclass_of`], so catching a
//! base class catches every subclass everywhere.

/// A known exception class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExcClass {
    BaseException,
    Exception,
    KeyboardInterrupt,
    SystemExit,
    /// Raised inside a generator by its `close()`.
    GeneratorExit,
    ArithmeticError,
    ZeroDivisionError,
    OverflowError,
    FloatingPointError,
    AssertionError,
    AttributeError,
    /// `dataclasses.FrozenInstanceError`: an AttributeError.
    FrozenInstanceError,
    ImportError,
    ModuleNotFoundError,
    LookupError,
    IndexError,
    KeyError,
    MemoryError,
    EOFError,
    BufferError,
    TimeoutError,
    NameError,
    UnboundLocalError,
    OSError,
    FileNotFoundError,
    FileExistsError,
    IsADirectoryError,
    NotADirectoryError,
    PermissionError,
    /// `io.UnsupportedOperation`: both an OSError and a ValueError.
    UnsupportedOperation,
    /// `subprocess.SubprocessError` and `CalledProcessError`, raised by `%%bash`.
    SubprocessError,
    CalledProcessError,
    RuntimeError,
    NotImplementedError,
    RecursionError,
    StopIteration,
    SyntaxError,
    IndentationError,
    TypeError,
    ValueError,
    UnicodeError,
    UnicodeDecodeError,
    UnicodeEncodeError,
    /// `json.JSONDecodeError`: a ValueError.
    JSONDecodeError,
    Warning,
    UserWarning,
    RuntimeWarning,
    DeprecationWarning,
    /// NumPy's: both a ValueError and an IndexError.
    AxisError,
    /// NumPy's warning for a cast that drops imaginary parts.
    ComplexWarning,
    /// NumPy's: a TypeError.
    UFuncTypeError,
    /// `numpy.linalg.LinAlgError`: a ValueError.
    LinAlgError,
    NumbaError,
    TypingError,
    NumbaWarning,
    NumbaPerformanceWarning,
    CudaError,
    CudaAPIError,
    CudaDriverError,
    CudaSupportError,
    /// IPython's error for a misused magic.
    UsageError,
    /// A bug in nbcuda, shown in the cell instead of ending the session.
    InternalError,
}

use ExcClass::*;

/// Every known class with its name and direct bases, in the order `builtins` lists them.
const TABLE: &[(ExcClass, &str, &[ExcClass])] = &[
    (BaseException, "BaseException", &[]),
    (Exception, "Exception", &[BaseException]),
    (KeyboardInterrupt, "KeyboardInterrupt", &[BaseException]),
    (SystemExit, "SystemExit", &[BaseException]),
    (ArithmeticError, "ArithmeticError", &[Exception]),
    (ZeroDivisionError, "ZeroDivisionError", &[ArithmeticError]),
    (OverflowError, "OverflowError", &[ArithmeticError]),
    (FloatingPointError, "FloatingPointError", &[ArithmeticError]),
    (AssertionError, "AssertionError", &[Exception]),
    (AttributeError, "AttributeError", &[Exception]),
    (
        FrozenInstanceError,
        "FrozenInstanceError",
        &[AttributeError],
    ),
    (ImportError, "ImportError", &[Exception]),
    (ModuleNotFoundError, "ModuleNotFoundError", &[ImportError]),
    (LookupError, "LookupError", &[Exception]),
    (IndexError, "IndexError", &[LookupError]),
    (KeyError, "KeyError", &[LookupError]),
    (MemoryError, "MemoryError", &[Exception]),
    (EOFError, "EOFError", &[Exception]),
    (BufferError, "BufferError", &[Exception]),
    (NameError, "NameError", &[Exception]),
    (UnboundLocalError, "UnboundLocalError", &[NameError]),
    (OSError, "OSError", &[Exception]),
    (FileNotFoundError, "FileNotFoundError", &[OSError]),
    (FileExistsError, "FileExistsError", &[OSError]),
    (IsADirectoryError, "IsADirectoryError", &[OSError]),
    (NotADirectoryError, "NotADirectoryError", &[OSError]),
    (PermissionError, "PermissionError", &[OSError]),
    (TimeoutError, "TimeoutError", &[OSError]),
    (
        UnsupportedOperation,
        "UnsupportedOperation",
        &[OSError, ValueError],
    ),
    (SubprocessError, "SubprocessError", &[Exception]),
    (CalledProcessError, "CalledProcessError", &[SubprocessError]),
    (RuntimeError, "RuntimeError", &[Exception]),
    (NotImplementedError, "NotImplementedError", &[RuntimeError]),
    (RecursionError, "RecursionError", &[RuntimeError]),
    (StopIteration, "StopIteration", &[Exception]),
    (GeneratorExit, "GeneratorExit", &[BaseException]),
    (SyntaxError, "SyntaxError", &[Exception]),
    (IndentationError, "IndentationError", &[SyntaxError]),
    (TypeError, "TypeError", &[Exception]),
    (ValueError, "ValueError", &[Exception]),
    (UnicodeError, "UnicodeError", &[ValueError]),
    (UnicodeDecodeError, "UnicodeDecodeError", &[UnicodeError]),
    (UnicodeEncodeError, "UnicodeEncodeError", &[UnicodeError]),
    (JSONDecodeError, "JSONDecodeError", &[ValueError]),
    (Warning, "Warning", &[Exception]),
    (UserWarning, "UserWarning", &[Warning]),
    (RuntimeWarning, "RuntimeWarning", &[Warning]),
    (DeprecationWarning, "DeprecationWarning", &[Warning]),
    (AxisError, "AxisError", &[ValueError, IndexError]),
    (ComplexWarning, "ComplexWarning", &[RuntimeWarning]),
    (UFuncTypeError, "UFuncTypeError", &[TypeError]),
    (LinAlgError, "LinAlgError", &[ValueError]),
    (NumbaError, "NumbaError", &[Exception]),
    (TypingError, "TypingError", &[NumbaError]),
    (NumbaWarning, "NumbaWarning", &[Warning]),
    (
        NumbaPerformanceWarning,
        "NumbaPerformanceWarning",
        &[NumbaWarning],
    ),
    (CudaError, "CudaError", &[Exception]),
    (CudaAPIError, "CudaAPIError", &[CudaError]),
    (CudaDriverError, "CudaDriverError", &[CudaError]),
    (CudaSupportError, "CudaSupportError", &[CudaError]),
    (UsageError, "UsageError", &[Exception]),
    (InternalError, "InternalError", &[Exception]),
];

/// The classes `builtins` provides by name: every Python builtin in the table (NumPy's,
/// Numba's and nbcuda's are reached through their modules or only caught by name).
pub const BUILTIN_NAMES: &[ExcClass] = &[
    BaseException,
    Exception,
    ArithmeticError,
    AssertionError,
    AttributeError,
    ImportError,
    IndexError,
    KeyError,
    KeyboardInterrupt,
    LookupError,
    MemoryError,
    EOFError,
    BufferError,
    TimeoutError,
    NameError,
    NotImplementedError,
    OverflowError,
    RuntimeError,
    StopIteration,
    GeneratorExit,
    TypeError,
    ValueError,
    ZeroDivisionError,
    Warning,
    UserWarning,
    SystemExit,
    FloatingPointError,
    ModuleNotFoundError,
    UnboundLocalError,
    OSError,
    FileNotFoundError,
    RecursionError,
    SyntaxError,
    IndentationError,
    RuntimeWarning,
    DeprecationWarning,
    FileExistsError,
    IsADirectoryError,
    NotADirectoryError,
    PermissionError,
    UnicodeError,
    UnicodeDecodeError,
    UnicodeEncodeError,
];

impl ExcClass {
    fn entry(self) -> &'static (ExcClass, &'static str, &'static [ExcClass]) {
        TABLE
            .iter()
            .find(|(c, _, _)| *c == self)
            .unwrap_or(&TABLE[1])
    }

    /// The class name Python shows.
    pub fn name(self) -> &'static str {
        self.entry().1
    }

    /// The direct base classes.
    pub fn bases(self) -> &'static [ExcClass] {
        self.entry().2
    }

    /// The class called `name`, if nbcuda knows it.
    pub fn from_name(name: &str) -> Option<ExcClass> {
        TABLE
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|(c, _, _)| *c)
    }

    /// The module that defines the class, as its repr names it (`builtins` for Python's).
    pub fn module(self) -> &'static str {
        match self {
            FrozenInstanceError => "dataclasses",
            UnsupportedOperation => "io",
            SubprocessError | CalledProcessError => "subprocess",
            JSONDecodeError => "json.decoder",
            AxisError | ComplexWarning => "numpy.exceptions",
            UFuncTypeError => "numpy._core._exceptions",
            LinAlgError => "numpy.linalg",
            NumbaError | TypingError | NumbaWarning | NumbaPerformanceWarning => {
                "numba.core.errors"
            }
            CudaError | CudaSupportError => "numba.cuda.cudadrv.error",
            CudaAPIError | CudaDriverError => "numba.cuda.cudadrv.driver",
            UsageError => "IPython.core.error",
            InternalError => "nbcuda",
            _ => "builtins",
        }
    }

    /// `issubclass(self, other)`.
    pub fn is_subclass_of(self, other: ExcClass) -> bool {
        self == other || self.bases().iter().any(|b| b.is_subclass_of(other))
    }
}

/// Whether an exception of class `ename` is caught by `except class_name`. Names nbcuda does
/// not know are caught by their own name and by `Exception`/`BaseException`.
pub fn name_is_subclass(ename: &str, class_name: &str) -> bool {
    if ename == class_name {
        return true;
    }
    let Some(base) = ExcClass::from_name(class_name) else {
        return false;
    };
    match ExcClass::from_name(ename) {
        Some(c) => c.is_subclass_of(base),
        None => Exception.is_subclass_of(base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_reaches_base_exception_through_its_bases() {
        for (c, name, _) in TABLE {
            assert!(c.is_subclass_of(BaseException), "{name}");
            assert_eq!(ExcClass::from_name(name), Some(*c));
            assert_eq!(c.name(), *name);
        }
    }

    #[test]
    fn subclass_checks_follow_python_numpy_and_numba() {
        assert!(name_is_subclass("ZeroDivisionError", "ArithmeticError"));
        assert!(name_is_subclass("AxisError", "ValueError"));
        assert!(name_is_subclass("AxisError", "IndexError"));
        assert!(name_is_subclass("RecursionError", "RuntimeError"));
        assert!(name_is_subclass("TypingError", "NumbaError"));
        assert!(name_is_subclass("CudaSupportError", "CudaError"));
        assert!(!name_is_subclass("KeyboardInterrupt", "Exception"));
        assert!(name_is_subclass("KeyboardInterrupt", "BaseException"));
        assert!(!name_is_subclass("ValueError", "TypeError"));
        assert!(name_is_subclass("SomethingNew", "Exception"));
        assert!(!name_is_subclass("SomethingNew", "ValueError"));
    }
}
