//! The value model shared by the interpreter, the Python-facing modules and the devices:
//! `Value`, `PyErr`, `Runtime` (with the interpreter hooks and per-subsystem state), user
//! functions, the registries, and the Python face of host arrays. Uses only `arrays/`.
//!
//! | file | holds |
//! |---|---|
//! | `bigint.rs` | Python ints beyond 64 bits (`Value::BigInt`): normalising back to `Int`, the size cap, float conversion and exact comparison, CPython's hash, and decimal text with CPython's 4300-digit limit. |
//! | `dict.rs` | Python's `dict`: insertion-ordered entries with a hash index for keys whose equality needs no Python code, so lookups, inserts and deletes take constant time. |
//! | `error.rs` | Python exceptions as nbcuda raises them: a class name, a message, and the source positions the error passed through, rendered as a traceback with a caret under the offending code. |
//! | `exceptions.rs` | The exception classes nbcuda knows, with their bases: Python's built-in hierarchy plus NumPy's, Numba's, IPython's and nbcuda's own. |
//! | `flags.rs` | `ndarray.flags`: NumPy's flags object, read as a mapping or through attributes, for host, device and CuPy arrays. |
//! | `function.rs` | User-defined functions (`def` and `lambda`): what the interpreter calls and what the kernel compiler lowers. |
//! | `hash.rs` | Python's `hash()` for every hashable builtin (CPython's numeric and tuple hashes, FxHash for str and bytes), which dicts and sets file keys under, and the reduction of a `__hash__` result. |
//! | `methods.rs` | Declarative method tables for Python-facing types (`list`, `str`, `dict`, device arrays ...): name, signature, doc and body written once, and used for lookup, `dir()`, completion, `?` and binding arguments by name with CPython's TypeErrors. |
//! | `ndarray_attrs.rs` | The Python face of host arrays: what the interpreter calls for attribute access, indexing, operators, printing and conversion of NumPy arrays and scalars. |
//! | `ndarray_methods.rs` | ndarray attributes (`a.shape`, `a.T`) and the methods' declarative table (`a.reshape(...)`, `a.sum(axis=0)` ...): name, signature, doc and body once each. |
//! | `ndarray_shape.rs` | The shape manipulations the methods share with the `numpy` module: shape and axis arguments, `reshape` in C and Fortran order, `transpose`, `squeeze`, `ravel`. |
//! | `ndarray_repeat.rs` | `np.repeat` and `ndarray.repeat`: scalar or per-element repeats, flattened or along an axis, with NumPy's errors. |
//! | `promote.rs` | NEP 50 for Python scalars: the dtype a Python `int`, `float` or `bool` takes next to an array or NumPy scalar (the dtype table itself is [`crate::arrays::promote`]). |
//! | `records.rs` | Structured arrays of uint64 fields (Numba's xoroshiro128p states) with NumPy's face: `(n,)` shape, `np.void` records, field views, repr, `==`, `np.unique`. |
//! | `registry.rs` | The registries the engine fills and the interpreter reads: importable modules (built on first import, then cached for the session) and magics beyond the interpreter's own. |
//! | `runtime.rs` | The runtime context handed to every native function: the output channel to the frontend, the interrupt flag, and per-subsystem session state. |
//! | `signature.rs` | Python parameter lists parsed once and bound by name, with the TypeErrors of the callable imitated (Argument Clinic, `PyArg_ParseTuple`, a Python function, NumPy's C parser): shared by the method tables and declared module functions (`Module::def`). |
//! | `value.rs` | The value model shared by the interpreter and every native module. |
pub mod bigint;
pub mod dict;
pub mod error;
pub mod exceptions;
pub mod flags;
pub mod function;
pub mod hash;
pub mod methods;
pub mod ndarray_attrs;
pub mod ndarray_methods;
pub mod ndarray_repeat;
pub mod ndarray_shape;
pub mod promote;
pub mod records;
pub mod registry;
pub mod runtime;
pub mod signature;
pub mod value;
