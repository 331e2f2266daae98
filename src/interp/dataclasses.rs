//! The `dataclasses` module: `@dataclass` (with `init`, `repr`, `eq`, `order`, `frozen`),
//! `field(default=..., default_factory=...)`, `fields`, `asdict`, `astuple`, `replace` and
//! `is_dataclass`. The generated methods are native functions installed in the class, so
//! they bind like methods written in the class body.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::class_tools::{NativeMethod, NotImplementedType};
use crate::interp::classes::{as_class, as_instance, Instance, UserClass};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Dict, Module, Object, Value};

/// `dataclasses.field(...)`: what the class body assigns to an annotated name.
#[derive(Clone)]
pub struct FieldSpec {
    pub default: Option<Value>,
    pub default_factory: Option<Value>,
    pub init: bool,
    pub repr: bool,
    pub compare: bool,
}

/// One field of a dataclass, as `dataclasses.fields()` returns it.
#[derive(Clone)]
pub struct Field {
    pub name: String,
    pub spec: FieldSpec,
    /// Set by `@dataclass(kw_only=True)`: `__init__` takes it by keyword only.
    pub kw_only: bool,
}

impl Object for FieldSpec {
    fn type_name(&self) -> String {
        "Field".into()
    }
    fn module_name(&self) -> String {
        "dataclasses".into()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Object for Field {
    fn type_name(&self) -> String {
        "Field".into()
    }
    fn module_name(&self) -> String {
        "dataclasses".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("Field(name='{}')", self.name))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "name" => Some(Value::str(&self.name)),
            "default" => Some(self.spec.default.clone().unwrap_or(Value::None)),
            "default_factory" => Some(self.spec.default_factory.clone().unwrap_or(Value::None)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The options of `@dataclass(...)`.
#[derive(Clone, Copy)]
struct Options {
    init: bool,
    repr: bool,
    eq: bool,
    order: bool,
    frozen: bool,
    unsafe_hash: bool,
    match_args: bool,
    kw_only: bool,
    slots: bool,
}

/// The fields of a dataclass, bases first, as recorded by the decorator.
fn fields_of(class: &UserClass) -> Option<Vec<Field>> {
    let holder = class.find("__dataclass_fields__")?;
    let list = holder.downcast::<FieldList>()?;
    Some(list.0.clone())
}

/// The recorded field list, kept as a class attribute as CPython does.
struct FieldList(Vec<Field>);

impl Object for FieldList {
    fn type_name(&self) -> String {
        "dict".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let names: Vec<String> = self.0.iter().map(|f| format!("'{}'", f.name)).collect();
        Ok(format!("{{{}}}", names.join(", ")))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn decorate(rt: &mut Runtime, class: Rc<UserClass>, opts: Options) -> PyResult<Value> {
    let mut fields: Vec<Field> = Vec::new();
    for base in class.mro.iter().rev() {
        for f in fields_of(base).unwrap_or_default() {
            fields.retain(|g| g.name != f.name);
            fields.push(f);
        }
    }
    for name in &class.annotations {
        let spec = match class.attrs.borrow().get(name) {
            Some(v) => match v.downcast::<FieldSpec>() {
                Some(spec) => spec.clone(),
                None => FieldSpec {
                    default: Some(v.clone()),
                    default_factory: None,
                    init: true,
                    repr: true,
                    compare: true,
                },
            },
            None => FieldSpec {
                default: None,
                default_factory: None,
                init: true,
                repr: true,
                compare: true,
            },
        };
        if let Some(d) = &spec.default {
            if matches!(d, Value::List(_) | Value::Dict(_) | Value::Set(_)) {
                return Err(PyErr::value_error(format!(
                    "mutable default {} for field {name} is not allowed: use default_factory",
                    crate::interp::builtins::type_of(rt, d)
                        .downcast::<crate::py::value::ClassObj>()
                        .map(|c| format!("<class '{}'>", c.name))
                        .unwrap_or_else(|| format!("<class '{}'>", d.type_name()))
                )));
            }
        }
        // As CPython: the class attribute is the default, or absent.
        match &spec.default {
            Some(d) => {
                class.attrs.borrow_mut().insert(name.clone(), d.clone());
            }
            None => {
                class.attrs.borrow_mut().shift_remove(name);
            }
        }
        fields.retain(|g| &g.name != name);
        fields.push(Field {
            name: name.clone(),
            spec,
            kw_only: opts.kw_only,
        });
    }
    let mut seen_default = false;
    for f in fields.iter().filter(|f| f.spec.init && !f.kw_only) {
        let has_default = f.spec.default.is_some() || f.spec.default_factory.is_some();
        if seen_default && !has_default {
            return Err(PyErr::type_error(format!(
                "non-default argument '{}' follows default argument",
                f.name
            )));
        }
        seen_default |= has_default;
    }
    let own = |name: &str| class.attrs.borrow().contains_key(name);
    let mut install: Vec<(&str, Value)> = Vec::new();
    if opts.init && !own("__init__") {
        install.push(("__init__", init_method(&class, fields.clone())));
    }
    if opts.repr && !own("__repr__") {
        install.push(("__repr__", repr_method(&class, fields.clone())));
    }
    if opts.eq && !own("__eq__") {
        install.push(("__eq__", compare_method(&class, &fields, BinOp::Eq)));
    }
    if opts.order {
        for (name, op) in [
            ("__lt__", BinOp::Lt),
            ("__le__", BinOp::Le),
            ("__gt__", BinOp::Gt),
            ("__ge__", BinOp::Ge),
        ] {
            install.push((name, compare_method(&class, &fields, op)));
        }
    }
    if (opts.unsafe_hash || (opts.eq && opts.frozen)) && !own("__hash__") {
        // CPython's rule: a frozen dataclass with eq hashes its compared fields' tuple.
        install.push(("__hash__", hash_method(&fields)));
    } else if opts.eq && !opts.frozen && !own("__hash__") {
        // CPython sets __hash__ to None: an eq=True, unfrozen dataclass is unhashable.
        install.push(("__hash__", Value::None));
    }
    if opts.match_args && !own("__match_args__") {
        // The positional sub-patterns of `case Point(x, y)`: the __init__ parameters.
        let names = fields.iter().filter(|f| f.spec.init);
        install.push((
            "__match_args__",
            Value::tuple(names.map(|f| Value::str(&f.name)).collect()),
        ));
    }
    let field_names: Vec<String> = fields.iter().map(|f| f.name.clone()).collect();
    let mut attrs = class.attrs.borrow_mut();
    for (name, v) in install {
        attrs.insert(name.to_string(), v);
    }
    attrs.insert(
        "__dataclass_fields__".into(),
        Value::object(FieldList(fields)),
    );
    drop(attrs);
    class.frozen.set(opts.frozen);
    if opts.slots {
        // CPython builds a new class with these slots; this one takes them in place.
        let names = field_names;
        let own: Vec<Value> = class
            .annotations
            .iter()
            .filter(|n| names.contains(n))
            .map(|n| Value::str(n))
            .collect();
        class
            .attrs
            .borrow_mut()
            .insert("__slots__".into(), Value::tuple(own));
        *class.slots.borrow_mut() = crate::interp::class_slots::instance_slots(&class, names);
    }
    Ok(Value::Object(class))
}

fn native(name: &str, f: impl Fn(&mut Runtime, Args) -> PyResult<Value> + 'static) -> Value {
    Value::object(NativeMethod(Value::builtin(
        name,
        "(self, ...)",
        "Generated by @dataclass.",
        f,
    )))
}

fn receiver(a: &Args) -> PyResult<Rc<Instance>> {
    a.pos
        .first()
        .and_then(as_instance)
        .ok_or_else(|| PyErr::type_error("dataclass method called without an instance"))
}

fn init_method(class: &Rc<UserClass>, fields: Vec<Field>) -> Value {
    let qualname = format!("{}.__init__", class.qualname);
    native("__init__", move |rt, a| {
        let this = receiver(&a)?;
        // CPython's order: the positional parameters, then the keyword-only ones.
        let mut params: Vec<&Field> = fields.iter().filter(|f| f.spec.init).collect();
        params.sort_by_key(|f| f.kw_only);
        let positional = params.iter().filter(|f| !f.kw_only).count();
        let given = &a.pos[1..];
        if given.len() > positional {
            return Err(PyErr::type_error(format!(
                "{qualname}() takes {} positional argument{} but {} were given",
                positional + 1,
                if positional == 0 { "" } else { "s" },
                given.len() + 1
            )));
        }
        let mut values: Vec<Option<Value>> = given.iter().cloned().map(Some).collect();
        values.resize(params.len(), None);
        for (k, v) in &a.kw {
            let Some(i) = params.iter().position(|f| *f.name == **k) else {
                return Err(PyErr::type_error(format!(
                    "{qualname}() got an unexpected keyword argument '{k}'"
                )));
            };
            if values[i].is_some() {
                return Err(PyErr::type_error(format!(
                    "{qualname}() got multiple values for argument '{k}'"
                )));
            }
            values[i] = Some(v.clone());
        }
        let (mut missing, mut missing_kw) = (Vec::new(), Vec::new());
        for (f, v) in params.iter().zip(values.iter_mut()) {
            if v.is_none() {
                *v = match (&f.spec.default, &f.spec.default_factory) {
                    (Some(d), _) => Some(d.clone()),
                    (None, Some(factory)) => Some(rt.call(factory, Args::default())?),
                    (None, None) if f.kw_only => {
                        missing_kw.push(format!("'{}'", f.name));
                        None
                    }
                    (None, None) => {
                        missing.push(format!("'{}'", f.name));
                        None
                    }
                };
            }
        }
        for (names, kind) in [(missing, "positional"), (missing_kw, "keyword-only")] {
            if !names.is_empty() {
                return Err(PyErr::type_error(format!(
                    "{qualname}() missing {} required {kind} argument{}: {}",
                    names.len(),
                    if names.len() == 1 { "" } else { "s" },
                    names.join(" and ")
                )));
            }
        }
        let mut attrs = this.attrs.borrow_mut();
        for (f, v) in params.iter().zip(values) {
            attrs.insert(f.name.clone(), v.unwrap_or(Value::None));
        }
        for f in fields.iter().filter(|f| !f.spec.init) {
            let v = match (&f.spec.default, &f.spec.default_factory) {
                (Some(d), _) => Some(d.clone()),
                (None, Some(factory)) => {
                    drop(attrs);
                    let v = rt.call(factory, Args::default())?;
                    attrs = this.attrs.borrow_mut();
                    Some(v)
                }
                _ => None,
            };
            if let Some(v) = v {
                attrs.insert(f.name.clone(), v);
            }
        }
        drop(attrs);
        this.call_special(rt, "__post_init__", vec![])?;
        Ok(Value::None)
    })
}

fn field_value(inst: &Instance, name: &str) -> PyResult<Value> {
    inst.attrs.borrow().get(name).cloned().ok_or_else(|| {
        PyErr::attribute_error(format!(
            "'{}' object has no attribute '{name}'",
            inst.class.name
        ))
    })
}

fn repr_method(class: &Rc<UserClass>, fields: Vec<Field>) -> Value {
    let qualname = class.qualname.clone();
    native("__repr__", move |rt, a| {
        let this = receiver(&a)?;
        let mut parts = Vec::new();
        for f in fields.iter().filter(|f| f.spec.repr) {
            let v = field_value(&this, &f.name)?;
            parts.push(format!("{}={}", f.name, crate::interp::repr::repr(rt, &v)?));
        }
        Ok(Value::str(&format!("{qualname}({})", parts.join(", "))))
    })
}

fn hash_method(fields: &[Field]) -> Value {
    let names: Vec<String> = fields
        .iter()
        .filter(|f| f.spec.compare)
        .map(|f| f.name.clone())
        .collect();
    native("__hash__", move |rt, a| {
        let this = receiver(&a)?;
        let tuple = Value::tuple(
            names
                .iter()
                .map(|n| field_value(&this, n))
                .collect::<PyResult<Vec<_>>>()?,
        );
        let hash = rt
            .state::<crate::interp::expr::InterpState>()
            .builtins
            .get("hash")
            .cloned()
            .ok_or_else(|| PyErr::internal("no hash builtin"))?;
        rt.call(&hash, Args::new(vec![tuple]))
    })
}

fn compare_method(class: &Rc<UserClass>, fields: &[Field], op: BinOp) -> Value {
    let names: Vec<String> = fields
        .iter()
        .filter(|f| f.spec.compare)
        .map(|f| f.name.clone())
        .collect();
    let class = Rc::downgrade(class);
    native("__eq__", move |rt, a| {
        let this = receiver(&a)?;
        let other = a.pos.get(1).and_then(as_instance);
        let same_class = class.upgrade().is_some_and(|c| {
            other.as_ref().is_some_and(|o| Rc::ptr_eq(&o.class, &c)) && Rc::ptr_eq(&this.class, &c)
        });
        let Some(other) = other.filter(|_| same_class) else {
            return Ok(Value::object(NotImplementedType));
        };
        let tuple = |i: &Instance| -> PyResult<Value> {
            Ok(Value::tuple(
                names
                    .iter()
                    .map(|n| field_value(i, n))
                    .collect::<PyResult<Vec<_>>>()?,
            ))
        };
        let (x, y) = (tuple(&this)?, tuple(&other)?);
        crate::interp::ops::compare(rt, op, &x, &y)
    })
}

/// The options of `dataclass(cls=None, /, *, init=True, ...)`, bound in signature order.
fn options(b: &Bound) -> PyResult<Options> {
    let flag = |i: usize, default: bool| match &b[i] {
        Some(Value::Bool(v)) => *v,
        _ => default,
    };
    let o = Options {
        init: flag(1, true),
        repr: flag(2, true),
        eq: flag(3, true),
        order: flag(4, false),
        frozen: flag(6, false),
        unsafe_hash: flag(5, false),
        match_args: flag(7, true),
        kw_only: flag(8, false),
        slots: flag(9, false),
    };
    if o.order && !o.eq {
        return Err(PyErr::value_error("eq must be true if order is true"));
    }
    Ok(o)
}

fn instance_arg(obj: Option<&Value>, fname: &str) -> PyResult<(Rc<Instance>, Vec<Field>)> {
    let inst = obj.and_then(as_instance);
    let fields = inst.as_ref().and_then(|i| fields_of(&i.class));
    match (inst, fields) {
        (Some(i), Some(f)) => Ok((i, f)),
        _ => Err(PyErr::type_error(format!(
            "{fname}() should be called on dataclass instances"
        ))),
    }
}

/// The `dataclasses` module.
pub fn module() -> Rc<Module> {
    let m = Module::new(
        "dataclasses",
        "Classes whose __init__, __repr__ and comparisons are generated from annotated fields.",
    );
    m.def(
        Function,
        "dataclass",
        "cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, \
         frozen=False, match_args=True, kw_only=False, slots=False, weakref_slot=False",
        "Generate __init__, __repr__ and __eq__ (and with order=True the orderings) from the class's annotated fields.",
        |rt, b| {
            let opts = options(&b)?;
            match b.get(0).and_then(as_class) {
                Some(class) => decorate(rt, class, opts),
                None => Ok(Value::builtin(
                    "dataclass",
                    "(cls)",
                    "The configured @dataclass decorator.",
                    move |rt, a| match a.pos.first().and_then(as_class) {
                        Some(class) => decorate(rt, class, opts),
                        None => Err(PyErr::type_error("dataclass() should be applied to a class")),
                    },
                )),
            }
        },
    );
    // `hash`, `metadata` and `kw_only` are accepted; a generated __hash__ and keyword-only
    // fields are not modelled.
    m.def(
        Function,
        "field",
        "*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, \
         compare=True, metadata=None, kw_only=MISSING",
        "Per-field options for a dataclass.",
        |_, b| {
            if b[0].is_some() && b[1].is_some() {
                return Err(PyErr::value_error(
                    "cannot specify both default and default_factory",
                ));
            }
            let flag = |i: usize| !matches!(b[i], Some(Value::Bool(false)));
            Ok(Value::object(FieldSpec {
                default: b[0].clone(),
                default_factory: b[1].clone(),
                init: flag(2),
                repr: flag(3),
                compare: flag(5),
            }))
        },
    );
    m.def(
        Function,
        "fields",
        "class_or_instance",
        "The fields of a dataclass, in order.",
        |_, b| {
            let v = b.value(0);
            let class = as_class(&v).or_else(|| as_instance(&v).map(|i| i.class.clone()));
            match class.and_then(|c| fields_of(&c)) {
                Some(f) => Ok(Value::tuple(f.into_iter().map(Value::object).collect())),
                None => Err(PyErr::type_error(
                    "must be called with a dataclass type or instance",
                )),
            }
        },
    );
    m.def(
        Function,
        "asdict",
        "obj, *, dict_factory=dict",
        "The fields of a dataclass instance as a dict (nested dataclasses too).",
        |rt, b| {
            let (inst, _) = instance_arg(b.get(0), "asdict")?;
            as_dict(rt, &inst, b.get(1))
        },
    );
    m.def(
        Function,
        "astuple",
        "obj, *, tuple_factory=tuple",
        "The field values of a dataclass instance as a tuple.",
        |rt, b| {
            let (inst, fields) = instance_arg(b.get(0), "astuple")?;
            let items = fields
                .iter()
                .map(|f| field_value(&inst, &f.name))
                .collect::<PyResult<Vec<_>>>()?;
            match b.get(1) {
                Some(factory) => rt.call(factory, Args::new(vec![Value::list(items)])),
                None => Ok(Value::tuple(items)),
            }
        },
    );
    m.def(
        Function,
        "replace",
        "obj, /, **changes",
        "A new instance with some fields changed.",
        |rt, a| {
            let (inst, fields) = instance_arg(a.get(0), "replace")?;
            let mut kw: Vec<(Rc<str>, Value)> = Vec::new();
            for f in fields.iter().filter(|f| f.spec.init) {
                let v = match a.kw.iter().find(|(k, _)| **k == *f.name) {
                    Some((_, v)) => v.clone(),
                    None => field_value(&inst, &f.name)?,
                };
                kw.push((Rc::from(f.name.as_str()), v));
            }
            if let Some((k, _)) =
                a.kw.iter()
                    .find(|(k, _)| !fields.iter().any(|f| *f.name == **k))
            {
                return Err(PyErr::type_error(format!(
                    "__init__() got an unexpected keyword argument '{k}'"
                )));
            }
            rt.call(&Value::Object(inst.class.clone()), Args { pos: vec![], kw })
        },
    );
    m.def(
        Function,
        "is_dataclass",
        "obj",
        "Whether obj is a dataclass or an instance of one.",
        |_, b| {
            let v = b.value(0);
            let class = as_class(&v).or_else(|| as_instance(&v).map(|i| i.class.clone()));
            Ok(Value::Bool(class.and_then(|c| fields_of(&c)).is_some()))
        },
    );
    m.set(
        "FrozenInstanceError",
        Value::object(crate::interp::objects::ExceptionType {
            name: "FrozenInstanceError".into(),
        }),
    );
    Rc::new(m)
}

/// `asdict`: nested dataclass instances become dicts too, each built by `factory` (called
/// with the list of `(name, value)` pairs, as CPython does) when one is given.
fn as_dict(rt: &mut Runtime, inst: &Rc<Instance>, factory: Option<&Value>) -> PyResult<Value> {
    let fields = fields_of(&inst.class).unwrap_or_default();
    let mut pairs = Vec::new();
    for f in fields {
        let v = field_value(inst, &f.name)?;
        let v = match as_instance(&v) {
            Some(i) if fields_of(&i.class).is_some() => as_dict(rt, &i, factory)?,
            _ => v,
        };
        pairs.push((f.name, v));
    }
    if let Some(factory) = factory {
        let items = pairs
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![Value::str(&k), v]))
            .collect();
        return rt.call(factory, Args::new(vec![Value::list(items)]));
    }
    let mut d = Dict::default();
    for (k, v) in pairs {
        d.insert_str(&k, v);
    }
    Ok(Value::Dict(Rc::new(RefCell::new(d))))
}
