//! The Python interpreter: statements, expressions, builtins, attribute access, repr,
//! IPython magics and escapes, completion and help. It reaches NumPy, Numba, CuPy and
//! pyplot only through the registries and hooks of `py/`.
//!
//! | file | holds |
//! |---|---|
//! | `assist.rs` | Developer assistance: completion and inspection (`obj?`). |
//! | `attrs.rs` | Attribute access: modules, objects, NumPy values and numbers (str, list, dict, tuple and set methods come from their tables), and `str.format`'s formatter. |
//! | `bigint.rs` | Int arithmetic with Python semantics: the i64 fast path, big-integer results past 64 bits with their size bounded before the work, `pow(a, b, m)`, correctly rounded true division, radix text and parsing. |
//! | `builtins.rs` | Python's builtins, as far as the subset goes. |
//! | `builtins_attrs.rs` | The attribute builtins (`hasattr`, `getattr`, `setattr`, `delattr`) and `ascii`. |
//! | `builtins_format.rs` | The number-formatting builtins: `format`, `bin`, `oct`, `hex` and `round` (half to even, through the decimal string). |
//! | `builtins_iter.rs` | The builtins that consume iterables: containers built from iterables (list, tuple, set, dict), ordering (sorted, reversed, min, max), folds (sum, any, all), the lazy helpers nbcuda materialises as lists (enumerate, zip, map, filter; lazy when an input is a lazy iterator, generator or `iter()` iterator), and iter/next. |
//! | `bytes.rs` | `bytes`: the builtin constructor and the methods binary files need (`hex`, `decode`). |
//! | `class_tools.rs` | The objects classes are built from: bound methods, `staticmethod`, `classmethod`, `property`, `super()`, `NotImplemented`, and `issubclass`. |
//! | `classes.rs` | Classes defined in cells: the `class` statement, C3 method resolution order, instances, attribute lookup and the special methods through which instances take part in Python's protocols. |
//! | `collections_dicts.rs` | The dict subclasses of `collections`: `defaultdict` and `OrderedDict`, each a shared dict whose plain methods are the interpreter's own. |
//! | `collections_counter.rs` | `collections.Counter`: counts with `most_common` in CPython's order, `update`/`subtract`, `elements`, `total` and the multiset operators. |
//! | `collections_deque.rs` | `collections.deque`: a ring buffer, optionally bounded by `maxlen`. |
//! | `collections_module.rs` | The `collections` module: `namedtuple` (native classes whose instances act as tuples with named fields) and the module table. |
//! | `compare.rs` | Equality, identity and ordering with Python semantics: container `==`, `is`, the ordering of `sorted`/`min`/`max`, and the comparison operators. |
//! | `container_methods.rs` | The method tables of `list`, `tuple` and `dict` (name, signature, doc and body once each, via `py::methods`): lookup, `dir()`, completion and `?` all read them. |
//! | `complex.rs` | Python's `complex`: arithmetic with CPython's algorithms (Smith's division, integer powers by squaring), its repr and string parsing, and the `cmath` module. |
//! | `dataclasses.rs` | The `dataclasses` module: `@dataclass` with generated `__init__`, `__repr__` and comparisons, `field`, `fields`, `asdict`, `astuple`, `replace`. |
//! | `dynamic.rs` | Builtins that run code in, or read, the calling frame: `exec`, `eval`, `globals()` and `locals()`. |
//! | `expr.rs` | Expression evaluation. |
//! | `files.rs` | The builtin `open()`: text and binary files on `std::fs` with CPython's modes, errors and file methods. |
//! | `frame.rs` | Execution frames: where names live while a cell or a function body runs, and how errors get their source positions. |
//! | `func_modules.rs` | Standard modules about functions and iteration: `operator`, `functools` (`partial`, `reduce`), and the combinatoric iterators of `itertools` (`product`, `combinations`, `permutations`, computed up front). |
//! | `functools_wrappers.rs` | `functools.wraps`, `update_wrapper` and `cmp_to_key`. |
//! | `generator_machine.rs` | The resumable machine a generator body runs on: frames for blocks, loops, `try`, `with`, `yield from` and generator-expression levels, stepped until the body yields or finishes. |
//! | `generators.rs` | Generators (functions with `yield`, generator expressions) run lazily on a resumable machine of frames; statements without `yield` run on the ordinary interpreter. |
//! | `instance_protocols.rs` | How instances of cell-defined classes take part in Python's protocols (repr, attributes, calls, subscripts, operators, iteration, len, truth, `with`, rich display, equality) through their special methods. |
//! | `ipython.rs` | `IPython.display`: display, update_display, clear_output and the rich objects (HTML, Markdown, JSON, Image) with the MIME bundles IPython sends. |
//! | `iterators.rs` | Native lazy iterators, and pulling items one at a time from any iterable (lazy iterators, generators, ranges, user iterators). |
//! | `itertools_lazy.rs` | The lazy iterators of `itertools`: `count`, `repeat`, `cycle`, `islice`, `accumulate`, `chain`, `zip_longest`, `takewhile`, `dropwhile`, `filterfalse`, `starmap`, `compress`, `pairwise`, `groupby`, `combinations_with_replacement`. |
//! | `json_module.rs` | The `json` module: `dumps`/`dump` with CPython's exact output and `loads`/`load` with CPython's scanner rules and `JSONDecodeError` messages. |
//! | `lib_modules.rs` | Small standard modules: `string` (constants), `copy` (`copy`, `deepcopy`), and `functools.lru_cache`/`cache`. |
//! | `magics.rs` | IPython magics (`%timeit`, `%time`, `%who`, ...), `obj?` help, and nbcuda's own (`%timeit_chart`, `%%timeline`, `%ledger`, `%memory`). |
//! | `matching.rs` | `match` statements: value, singleton, sequence (with `*rest`), mapping (with `**rest`), class (`__match_args__`), `as` and or-patterns, guards. |
//! | `math_module.rs` | The `math` module: C's functions with CPython's errors (domain → ValueError, overflow → OverflowError), `log` of ints of any size, `fsum`, and exact `factorial`/`comb`/`perm`/`gcd`/`lcm`/`isqrt`. |
//! | `metaclasses.rs` | Metaclasses deriving from `type`: their `__call__`, `__iter__`, `__len__`, `__contains__`, `__getitem__`, `__repr__` and attributes answer for the class; `__init_subclass__`. |
//! | `imports.rs` | Where an import finds a module: registered ones, `name.py` files and packages on `sys.path`, the pure-Python standard modules of `pylib/`; `from m import *`, `importlib`. |
//! | `modules.rs` | The registered standard modules' table and the small ones: `time`, `sys`, `platform` (`math` is in `math_module.rs`). |
//! | `nesting.rs` | Limits checked before parsing: nesting deeper than CPython allows is refused, so the parser's recursion cannot overflow the stack. |
//! | `objects.rs` | Small built-in object types: `object()` instances, `range`, exception classes and instances, `dict` views. |
//! | `operator_getters.rs` | `operator.itemgetter`, `attrgetter` and `methodcaller`: callable objects with CPython's reprs. |
//! | `os_module.rs` | The `os` module: working directory, listing and creating directories, removing files, `os.environ` on the live process environment, and `os.path`'s string rules. |
//! | `pylib/*.py` | Standard modules written in Python, our own code: `abc` (`ABC`, `ABCMeta`, `abstractmethod`, checked by `classes.rs` at instantiation), `_collections_abc*` (`collections.abc`, with `_collections_chainmap`'s `ChainMap`), `datetime` (with `_datetime_clock`, `_datetime_format`), `bisect`, `contextlib`, `gc`, `heapq`, `io` (`StringIO`, `BytesIO`), `logging` (loggers, handlers, formatters, `basicConfig`), `hashlib` (over `hashlib_module.rs`), `hmac`, `uuid`, `pprint`, `timeit`, `typing`. |
//! | `hashlib_module.rs` | `_hashlib`: MD5, SHA-1 and SHA-2 digests of byte chunks, for `pylib/hashlib.py`. |
//! | `params.rs` | Binding a call's arguments to a function's parameters, with CPython's TypeError wording. |
//! | `percent_format.rs` | `str % args`, printf-style: mapping keys, flags, `*` widths, every conversion, CPython's errors. |
//! | `ops.rs` | Operations on values with Python semantics: truth, arithmetic, iteration, length, subscripts. |
//! | `pathlib_module.rs` | `pathlib.Path`: CPython's normalisation, the `/` operator, name parts, and file-system methods (`exists`, `read_text`/`write_text`, `mkdir`, `iterdir`, `glob`, ...). |
//! | `random_module.rs` | The `random` module and `random.Random`: CPython's Mersenne Twister, seeding and number algorithms, so seeded cells draw what CPython draws. |
//! | `random_sampling.rs` | `random`'s sequence functions (`choices`, `shuffle`, `sample`) with CPython's exact algorithms. |
//! | `re_module.rs` | The `re` module: compile, search, match, fullmatch, findall, finditer, sub, subn, split, escape, and the Pattern and Match objects (groups, spans, replacement templates). |
//! | `re_pattern.rs` | Compiled patterns on the `fancy-regex` crate (look-around and backreferences, plain parts on the `regex` crate's automata): Python's syntax translated, CPython's compile errors, and the match sequence; a backtrack limit raises RuntimeError instead of hanging. |
//! | `re_syntax.rs` | CPython's `re.error` messages and positions for common pattern mistakes (unclosed group or set, stray `)`, nothing or too much to repeat, bad escape, a backreference to a missing or open group). |
//! | `repr.rs` | `repr()`, `str()`, IPython's pretty printing of results, float formatting and the format specification mini-language, as CPython and IPython print them. |
//! | `scopes.rs` | A function's local names, decided once per definition as CPython's compiler does, so that reading one before it is bound raises `UnboundLocalError`. |
//! | `slots.rs` | The fast path: function bodies and `%timeit` statements compiled once into closures over numbered local slots (frames, the gate that leaves everything else to the walker, calls). |
//! | `slots_call.rs` | Calls in compiled bodies: arguments, a compiled callee's slots filled in place, `append`/`add` without a bound method, frame builtins on a snapshot. |
//! | `slots_fstring.rs` | f-strings in compiled bodies, formatted as the walker formats them. |
//! | `slots_genexpr.rs` | Generator expressions in compiled code: one `for`, a body that needs none of the enclosing body's slots, run lazily on its own frame. |
//! | `slots_handlers.rs` | `try`, `with` and bare `raise` in compiled bodies; `except ... as name` unbinds the name afterwards, as in CPython. |
//! | `slots_expr.rs` | Expressions and comprehensions compiled with the walker's semantics (comprehension variables in hidden slots). |
//! | `slots_stmt.rs` | Statements and assignment targets compiled with the walker's semantics. |
//! | `frozenset.rs` | `frozenset`: an immutable set sharing set's table, hashable as CPython hashes it. |
//! | `bytearray.rs` | `bytearray`: a mutable byte sequence with list's mutators and bytes' readers. |
//! | `class_slots.rs` | `__slots__`: instances without a `__dict__`, limited to the declared names. |
//! | `traceback_module.rs` | The exception being handled: `sys.exc_info()` and the `traceback` module's text (`format_exc`, `print_exc`, `format_exception`). |
//! | `traceback_obj.rs` | Traceback objects (`tb_lineno`, `tb_next`, `tb_frame`) for `__exit__` and `__traceback__`. |
//! | `struct_seq.rs` | Struct sequences (named tuples of the runtime): `sys.float_info`, `sys.int_info`, `sys.hash_info`, `time.struct_time`. |
//! | `time_calendar.rs` | `time`'s calendar functions: `gmtime`, `localtime`, `mktime`, `strftime`, `asctime`, `ctime`, the zone constants. |
//! | `float_hex.rs` | `float.hex()` and `float.fromhex()`: a float written exactly in hexadecimal. |
//! | `sets.rs` | `set` on the dict's hash table: methods, operators and subset comparisons. |
//! | `shell.rs` | Shell escapes as ipykernel runs them: `!cmd` streamed into the cell with `_exit_code`, `x = !cmd` and `!!cmd` captured as lines, IPython's `{expr}`/`$name` interpolation, and the interruptible child processes behind them and `%%bash`. |
//! | `shell_magics.rs` | The magics about the shell and files: `%%bash`, `%%sh`, `%%writefile`, `%run`, `%pwd`, `%cd`, `%env`, and `exit`/`quit` with ipykernel's `ask_exit` payload. |
//! | `stmt.rs` | Statement execution. |
//! | `text_modules.rs` | Small text-handling standard modules: `textwrap` (`dedent`, `indent`). |
//! | `stat_result.rs` | `os.stat_result`, returned by `os.stat` and `Path.stat()`: metadata fields by name and index, with CPython's repr. |
//! | `str_methods.rs` | The method table of `str` (name, signature, doc and body once each, via `py::methods`), with CPython's edge rules: whitespace `split` with `maxsplit`, `rsplit`, `partition`, `removeprefix`, `center`'s odd pad, `zfill` after a sign. |
//! | `str_methods_more.rs` | The rarer `str` methods' bodies: `casefold`, `encode`, `expandtabs`, `isdecimal`/`isidentifier`/`isprintable`/`istitle`, `translate` and `str.maketrans`. |
//! | `string_template.rs` | `string.capwords` and `string.Template` (`substitute`, `safe_substitute`) with CPython's placeholder rules. |
//! | `subscript.rs` | Subscripts (`x[k]`, `x[k] = v`, `del x[k]`) on lists, tuples, strings, dicts and objects, and the dict entry helpers they share with literals and builtins. |
//! | `timing.rs` | `%timeit` and `%time`: IPython's algorithm and exact output format. |
//! | `type_attrs.rs` | The attributes of the builtin types themselves (`str.upper` as an unbound method, `int.from_bytes`, `dict.fromkeys`) and the special methods of builtin values (`[].__len__`). |
//! | `warnings_module.rs` | The `warnings` module: the filter list (`filterwarnings`, `simplefilter`, `resetwarnings`), `catch_warnings` with `record=True`, and the hook through which native code's warnings pass the same filters. |
//!

pub mod assist;
pub mod attrs;
pub mod bigint;
pub mod builtins;
pub mod builtins_attrs;
pub mod builtins_format;
pub mod builtins_iter;
pub mod bytearray;
pub mod bytes;
pub mod class_slots;
pub mod class_tools;
pub mod classes;
pub mod collections_counter;
pub mod collections_deque;
pub mod collections_dicts;
pub mod collections_module;
pub mod compare;
pub mod complex;
pub mod container_methods;
pub mod dataclasses;
pub mod dynamic;
pub mod expr;
pub mod files;
pub mod float_hex;
pub mod frame;
pub mod frozenset;
pub mod func_modules;
pub mod functools_wrappers;
pub mod generator_machine;
pub mod generators;
pub mod hashlib_module;
pub mod imports;
pub mod instance_protocols;
pub mod ipython;
pub mod iterators;
pub mod itertools_lazy;
pub mod json_module;
pub mod lib_modules;
pub mod magics;
pub mod matching;
pub mod math_module;
pub mod metaclasses;
pub mod modules;
pub mod nesting;
pub mod objects;
pub mod operator_getters;
pub mod ops;
pub mod os_module;
pub mod params;
pub mod pathlib_module;
pub mod percent_format;
pub mod random_module;
pub mod random_sampling;
pub mod re_module;
pub mod re_pattern;
pub mod re_syntax;
pub mod repr;
pub mod scopes;
pub mod sets;
pub mod shell;
pub mod shell_magics;
pub mod slots;
pub mod slots_call;
pub mod slots_expr;
pub mod slots_fstring;
pub mod slots_genexpr;
pub mod slots_handlers;
pub mod slots_stmt;
pub mod stat_result;
pub mod stmt;
pub mod str_methods;
pub mod str_methods_more;
pub mod string_template;
pub mod struct_seq;
pub mod subscript;
pub mod text_modules;
pub mod time_calendar;
pub mod timing;
pub mod traceback_module;
pub mod traceback_obj;
pub mod type_attrs;
pub mod warnings_module;

/// The interpreter's services for native code (see [`crate::py::runtime::InterpHooks`]).
pub fn hooks() -> crate::py::runtime::InterpHooks {
    crate::py::runtime::InterpHooks {
        call: expr::call_value,
        iterate: ops::iterate,
        truthy: ops::truthy,
        to_str: repr::to_str,
        builtin: |rt, name| rt.state::<expr::InterpState>().builtins.get(name).cloned(),
        warn: warnings_module::warn_hook,
    }
}
