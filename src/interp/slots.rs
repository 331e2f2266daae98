//! Function bodies compiled once into closures over numbered local slots, the fast path
//! for the code people time and call in loops. A body is compiled the first time its
//! function is called; a local name becomes an index into the frame's slot vector, so
//! reading or binding it hashes nothing, and each node's work (its operator, its constant,
//! its attribute name) is decided once instead of on every visit.
//!
//! The tree-walking evaluator (`expr.rs`, `stmt.rs`) stays the reference: a body that uses
//! anything this compiler does not take (nested functions and lambdas, classes,
//! `nonlocal`, imports, escapes, generator functions) runs there unchanged, so each
//! construct is either compiled with the walker's exact semantics (its errors located at
//! the same node, its operations the same `ops` functions) or not compiled at all.
//! `NBCUDA_EVAL=walk` turns the compiler off, to compare the two.
//!
//! Known differences from the walker, both as CPython behaves: `exec` and `locals()` in a
//! compiled body see a snapshot of the locals and cannot rebind them.
//!
//! Files: `slots.rs` (frames, the gate, calls and `%timeit` bodies), `slots_expr.rs`
//! (expressions), `slots_call.rs` (calls), `slots_fstring.rs` (f-strings),
//! `slots_genexpr.rs` (generator expressions),
//! `slots_stmt.rs` (statements and assignment targets), `slots_handlers.rs` (`try`,
//! `with`, bare `raise`).

use std::any::Any;
use std::rc::Rc;
use std::sync::OnceLock;

use ruff_python_ast::{self as ast, Stmt};
use ruff_text_size::TextRange;

use crate::interp::frame::{Ctx, Flow, ScopeKind};
use crate::interp::slots_expr::{expr, E};
use crate::interp::slots_stmt::{block, S};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::{Function, NameSet, Names, Scope};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// A compiled body: its statements, and the names of its slots (parameters first, in
/// order), which tracebacks, `locals()` and error messages need.
pub struct Code {
    pub names: Vec<Rc<str>>,
    pub body: Vec<S>,
    pub source: Rc<str>,
    pub origin: Rc<str>,
    pub fname: Rc<str>,
    /// Names the body declares `global`.
    pub globals_declared: NameSet,
    /// For a function taking only plain positional parameters, how many: calls with that
    /// many plain arguments put them straight into the first slots.
    pub positional: Option<usize>,
    /// A body that is one `return <expr>` (every lambda, most one-line functions): the
    /// expression and the statement's range, evaluated without the statement machinery.
    pub returns: Option<(E, TextRange)>,
    /// A cell's statement, where the globals are the locals: `exec` and `locals()` then
    /// read and bind the globals themselves, not a snapshot.
    pub module: bool,
}

/// A copy of `v`. The derived clone is out of line and hands its result back through
/// memory; the values calls pass around most (ints, functions) are copied here in place.
#[inline(always)]
pub fn share(v: &Value) -> Value {
    match v {
        Value::Int(i) => Value::Int(*i),
        Value::Object(o) => Value::Object(o.clone()),
        _ => v.clone(),
    }
}

pub fn empty_slots(n: usize) -> Slots {
    // bounded: one slot per local name of a body the compiler has walked
    smallvec::smallvec![None; n]
}

/// A frame's local slots: on the native stack for the small functions that are called
/// most, so a call allocates nothing for them.
pub type Slots = smallvec::SmallVec<[Option<Value>; 8]>;

/// One activation of compiled code. Its slots belong to the caller's native stack frame,
/// so starting a call moves nothing but a pointer.
pub struct Frame<'a> {
    pub slots: &'a mut [Option<Value>],
    pub globals: &'a Scope,
    pub enclosing: &'a [Scope],
    pub code: &'a Code,
    /// The function running, for `super()` and `locals()` through a snapshot frame.
    pub func: Option<&'a Function>,
    /// Exceptions being handled (for bare `raise`), innermost last.
    pub handling: Vec<PyErr>,
}

impl Frame<'_> {
    /// Attach this frame's position to an error, as [`Ctx::locate`] does.
    pub fn locate(&self, err: PyErr, range: TextRange) -> PyErr {
        crate::interp::frame::locate_in(
            &self.code.origin,
            &self.code.fname,
            &self.code.source,
            err,
            range,
        )
    }

    /// A walker frame holding a snapshot of the bound locals, for the builtins that read
    /// or run code in the calling frame (`exec`, `eval`, `locals()`, `super()`); at module
    /// level, the cell's own frame.
    pub fn snapshot(&self) -> Ctx {
        if self.code.module {
            let mut ctx = Ctx::module(
                self.globals.clone(),
                self.code.source.clone(),
                self.code.origin.clone(),
            );
            ctx.fname = self.code.fname.clone();
            ctx.handling = self.handling.clone();
            return ctx;
        }
        let mut names = Names::default();
        for (name, v) in self.code.names.iter().zip(self.slots.iter()) {
            if let (Some(v), false) = (v, name.starts_with('<')) {
                names.insert(name.clone(), v.clone());
            }
        }
        let kind = self.func.and_then(method_kind).unwrap_or_default();
        Ctx {
            locals: Some(Rc::new(std::cell::RefCell::new(names))),
            globals: self.globals.clone(),
            enclosing: self.enclosing.to_vec(),
            declared_global: self.code.globals_declared.clone(),
            declared_nonlocal: Default::default(),
            static_locals: Some(Rc::new(
                self.code
                    .names
                    .iter()
                    .filter(|n| !n.starts_with('<'))
                    .cloned()
                    .collect(),
            )),
            source: self.code.source.clone(),
            origin: self.code.origin.clone(),
            fname: self.code.fname.clone(),
            handling: self.handling.clone(),
            kind,
        }
    }
}

/// What zero-argument `super()` needs of a method's frame.
pub fn method_kind(f: &Function) -> Option<ScopeKind> {
    let class = f.class_cell.borrow().as_ref().and_then(|w| w.upgrade())?;
    let self_param = crate::interp::params::first_param(f)?;
    Some(ScopeKind::Method {
        class: Value::Object(class),
        self_param: self_param.into(),
    })
}

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("NBCUDA_EVAL").map_or(true, |v| v != "walk"))
}

/// A function's compiled body, compiled on first use; None when the body uses something
/// only the walker runs.
pub fn code_of(f: &Function) -> Option<&Code> {
    let any = f.compiled.get_or_init(|| {
        let code = if enabled() && !f.is_generator {
            compile_function(f)
        } else {
            None
        };
        code.map(|c| Rc::new(c) as Rc<dyn Any>)
    });
    any.as_ref()?.downcast_ref::<Code>()
}

/// [`code_of`], shared: what a call site keeps to call `f` again without finding it.
pub fn shared_code_of(f: &Function) -> Option<Rc<Code>> {
    code_of(f)?;
    f.compiled.get()?.clone()?.downcast::<Code>().ok()
}

fn compile_function(f: &Function) -> Option<Code> {
    if !f.declared.nonlocal.is_empty() {
        return None;
    }
    let p = &f.def.parameters;
    let params: Vec<&str> = p
        .posonlyargs
        .iter()
        .chain(p.args.iter())
        .map(|a| a.parameter.name.id.as_str())
        .chain(p.vararg.iter().map(|a| a.name.id.as_str()))
        .chain(p.kwonlyargs.iter().map(|a| a.parameter.name.id.as_str()))
        .chain(p.kwarg.iter().map(|a| a.name.id.as_str()))
        .collect();
    let mut c = Compiler::new(
        &params,
        &f.local_names,
        &f.declared.global,
        f.source.clone(),
    );
    let (body, returns) = match &f.def.body[..] {
        [Stmt::Return(ast::StmtReturn {
            value: Some(e),
            range,
            ..
        })] => (Vec::new(), Some((expr(&mut c, e)?, *range))),
        body => (block(&mut c, body)?, None),
    };
    let plain = p.vararg.is_none() && p.kwarg.is_none() && p.kwonlyargs.is_empty();
    Some(Code {
        returns,
        names: c.names,
        body,
        source: f.source.clone(),
        origin: f.origin.clone(),
        fname: f.name.clone(),
        globals_declared: f.declared.global.clone(),
        positional: plain.then_some(p.posonlyargs.len() + p.args.len()),
        module: false,
    })
}

/// Run a user function's compiled body (from [`code_of`]) on `args`.
pub fn run_call(rt: &mut Runtime, f: &Function, code: &Code, args: Args) -> PyResult<Value> {
    with_slots(code, |slots| {
        let p = &f.def.parameters;
        let n_pos = p.posonlyargs.len() + p.args.len();
        if args.kw.is_empty()
            && p.vararg.is_none()
            && p.kwarg.is_none()
            && p.kwonlyargs.is_empty()
            && args.pos.len() == n_pos
        {
            // The common call: parameters are the first slots, in order.
            for (slot, v) in slots.iter_mut().zip(args.pos) {
                *slot = Some(v);
            }
        } else {
            let mut bound = Names::default();
            crate::interp::params::bind_params(f, args, &mut bound)?;
            for (name, slot) in code.names.iter().zip(slots.iter_mut()) {
                if let Some(v) = bound.shift_remove(name) {
                    *slot = Some(v);
                }
            }
        }
        run_frame(rt, f, code, slots)
    })
}

/// Run `body` on fresh (unbound) slots for `code`, made where they are used: on the
/// native stack for the small bodies most calls run, so starting a call neither allocates
/// nor copies a slot vector.
pub fn with_slots<R>(code: &Code, body: impl FnOnce(&mut [Option<Value>]) -> R) -> R {
    const ON_STACK: usize = 8;
    let n = code.names.len();
    if n <= ON_STACK {
        let mut slots: [Option<Value>; ON_STACK] = Default::default();
        let r = body(&mut slots[..n]);
        // The body saw only the first n, so the rest are still empty: release those n
        // here and skip the drop glue's pass over all eight.
        for s in &mut slots[..n] {
            if let Some(v) = s.take() {
                crate::py::value::release(v);
            }
        }
        std::mem::forget(slots);
        r
    } else {
        // bounded: one slot per local name of a body the compiler has walked
        let mut slots = vec![None; n];
        body(&mut slots)
    }
}

/// Run a compiled function body on slots already holding its arguments.
pub fn run_frame(
    rt: &mut Runtime,
    f: &Function,
    code: &Code,
    slots: &mut [Option<Value>],
) -> PyResult<Value> {
    let mut frame = Frame {
        slots,
        globals: &f.globals,
        enclosing: &f.enclosing,
        code,
        func: Some(f),
        handling: Vec::new(),
    };
    if let Some((e, range)) = &code.returns {
        // Located at the statement, as the statement's own node locates what escapes it.
        return e(rt, &mut frame).map_err(|err| frame.locate(err, *range));
    }
    match run_block(rt, &mut frame, &code.body)? {
        Flow::Return(v) => Ok(v),
        _ => Ok(Value::None),
    }
}

/// Fresh slots for running `code` (a call's first slots are then its arguments).
pub fn call_slots(code: &Code) -> Slots {
    empty_slots(code.names.len())
}

fn run_block(rt: &mut Runtime, frame: &mut Frame, body: &[S]) -> PyResult<Flow> {
    for s in body {
        match s(rt, frame)? {
            Flow::Normal => {}
            other => return Ok(other),
        }
    }
    Ok(Flow::Normal)
}

/// A `%timeit` statement compiled as IPython compiles it, into a function whose locals are
/// every name it binds; None when it uses something only the walker runs. `ctx` is the
/// frame `%timeit` runs in (a nested scope of the cell), `source` the statement's text.
pub fn compile_timeit(ctx: &Ctx, stmt: &[Stmt], source: &str) -> Option<Code> {
    if !enabled() {
        return None;
    }
    let def = synthetic_def(stmt);
    let locals = crate::interp::scopes::local_names(&def);
    let mut declared = crate::py::function::Declarations::default();
    crate::interp::stmt::collect_declarations(&def.body, &mut declared);
    if !declared.nonlocal.is_empty() {
        return None;
    }
    let mut c = Compiler::new(&[], &locals, &declared.global, Rc::from(source));
    let body = block(&mut c, stmt)?;
    Some(Code {
        names: c.names,
        body,
        source: c.source,
        origin: ctx.origin.clone(),
        fname: ctx.fname.clone(),
        globals_declared: declared.global,
        positional: None,
        returns: None,
        module: false,
    })
}

/// Run a loop statement of a cell (module level, where every name is a global, so a
/// compiled statement and the walker's statements around it share all state) compiled;
/// None when it uses something only the walker runs. Compiled on each run: a loop's
/// iterations pay for it many times over.
pub fn run_module_loop(rt: &mut Runtime, ctx: &mut Ctx, s: &Stmt) -> Option<PyResult<Flow>> {
    if !enabled() || ctx.locals.is_some() {
        return None;
    }
    let mut c = Compiler::new(
        &[],
        &NameSet::default(),
        &NameSet::default(),
        ctx.source.clone(),
    );
    c.module = true;
    let body = block(&mut c, std::slice::from_ref(s))?;
    let code = Code {
        names: c.names,
        body,
        source: ctx.source.clone(),
        origin: ctx.origin.clone(),
        fname: ctx.fname.clone(),
        globals_declared: NameSet::default(),
        positional: None,
        returns: None,
        module: true,
    };
    let globals = ctx.globals.clone();
    let mut slots = empty_slots(code.names.len());
    let mut frame = Frame {
        slots: &mut slots,
        globals: &globals,
        enclosing: &[],
        code: &code,
        func: None,
        handling: std::mem::take(&mut ctx.handling),
    };
    let result = run_block(rt, &mut frame, &code.body);
    ctx.handling = frame.handling;
    Some(result)
}

/// The function IPython wraps a `%timeit` in, for deciding its local names.
fn synthetic_def(stmt: &[Stmt]) -> ast::StmtFunctionDef {
    let range = TextRange::default();
    ast::StmtFunctionDef {
        node_index: Default::default(),
        range,
        is_async: false,
        decorator_list: vec![],
        name: ast::Identifier::new("inner", range),
        type_params: None,
        parameters: Default::default(),
        returns: None,
        body: stmt.to_vec(),
    }
}

/// A frame for a compiled `%timeit`, kept across its loops as IPython's function's
/// locals are kept across its loop.
pub fn timeit_frame<'a>(
    code: &'a Code,
    ctx: &'a Ctx,
    enclosing: &'a [Scope],
    slots: &'a mut Slots,
) -> Frame<'a> {
    Frame {
        slots,
        globals: &ctx.globals,
        enclosing,
        code,
        func: None,
        handling: Vec::new(),
    }
}

pub fn run_timeit_body(rt: &mut Runtime, frame: &mut Frame) -> PyResult<()> {
    let code = frame.code;
    outside_function(run_block(rt, frame, &code.body)?)
}

fn outside_function(flow: Flow) -> PyResult<()> {
    match flow {
        Flow::Normal => Ok(()),
        _ => Err(PyErr::new(
            "SyntaxError",
            "'break', 'continue' or 'return' outside a loop or function",
        )),
    }
}

/// Where a name lives, decided at compile time.
#[derive(Clone)]
pub enum Place {
    Slot(usize),
    /// Declared `global`: module globals, then builtins.
    Global(Rc<str>),
    /// Not bound in the body: enclosing scopes, module globals, builtins.
    Free(Rc<str>),
}

/// Compile-time state: the slot of each local name, and comprehension variables (hidden
/// slots, innermost last) that shadow them.
pub struct Compiler {
    pub names: Vec<Rc<str>>,
    locals: rustc_hash::FxHashMap<Rc<str>, usize>,
    globals_declared: NameSet,
    hidden: Vec<(Rc<str>, usize)>,
    /// How many comprehensions enclose the node being compiled (`:=` inside one binds in
    /// the enclosing body, which the walker decides).
    pub comprehension_depth: usize,
    /// The text the AST's ranges index into (`{x=}` shows its source).
    pub source: Rc<str>,
    /// Module level: every name outside a comprehension is a global.
    module: bool,
    /// The names resolved outside the body (free or global), for a generator expression's
    /// body to prove it needs none of the enclosing body's slots.
    pub outside: std::cell::RefCell<Vec<Rc<str>>>,
}

impl Compiler {
    fn new(params: &[&str], locals: &NameSet, globals: &NameSet, source: Rc<str>) -> Compiler {
        let mut c = Compiler {
            names: Vec::new(),
            locals: Default::default(),
            globals_declared: globals.clone(),
            hidden: Vec::new(),
            comprehension_depth: 0,
            source,
            module: false,
            outside: Default::default(),
        };
        for p in params {
            c.add_local(Rc::from(*p));
        }
        // Sorted, so slot numbers do not depend on hash order.
        let mut rest: Vec<&Rc<str>> = locals
            .iter()
            .filter(|n| !c.locals.contains_key(*n))
            .collect();
        rest.sort();
        for n in rest {
            c.add_local(n.clone());
        }
        c
    }

    /// A compiler for a generator expression's body inside this one: its own slots (the
    /// expression's variables, added by the caller), other names resolved as here.
    pub fn for_genexpr(&self) -> Compiler {
        Compiler {
            names: Vec::new(),
            locals: Default::default(),
            globals_declared: self.globals_declared.clone(),
            hidden: Vec::new(),
            comprehension_depth: 1,
            source: self.source.clone(),
            module: self.module,
            outside: Default::default(),
        }
    }

    pub fn add_local(&mut self, name: Rc<str>) -> usize {
        let i = self.names.len();
        self.names.push(name.clone());
        self.locals.insert(name, i);
        i
    }

    pub fn place(&self, name: &str) -> Place {
        if let Some((_, i)) = self.hidden.iter().rev().find(|(n, _)| &**n == name) {
            return Place::Slot(*i);
        }
        if let Some(i) = self.locals.get(name) {
            return Place::Slot(*i);
        }
        self.outside.borrow_mut().push(Rc::from(name));
        if self.module || self.globals_declared.contains(name) {
            return Place::Global(Rc::from(name));
        }
        Place::Free(Rc::from(name))
    }

    /// A new hidden slot for a comprehension variable, visible until [`Compiler::pop_hidden`].
    pub fn push_hidden(&mut self, name: &str) -> usize {
        let i = self.names.len();
        // Hidden slots are named for error messages; the angle brackets keep them out of
        // `locals()` snapshots' way (no Python name has them).
        self.names
            .push(Rc::from(format!("<comprehension {name}>").as_str()));
        self.hidden.push((Rc::from(name), i));
        i
    }

    pub fn pop_hidden(&mut self, n: usize) {
        let keep = self.hidden.len().saturating_sub(n);
        self.hidden.truncate(keep);
    }
}

/// The error for reading a local before it is bound, as CPython words it.
pub fn unbound(name: &str) -> PyErr {
    PyErr::new(
        "UnboundLocalError",
        format!("cannot access local variable '{name}' where it is not associated with a value"),
    )
}
