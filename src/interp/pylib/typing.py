"""Type hints: the names annotations are written with. As in CPython, nothing checks them;
subscripting gives an alias that prints as CPython's does and calls its origin."""

TYPE_CHECKING = False


def _type_repr(t):
    # CPython prints classes by qualified name (builtins bare), None as None, ... as ...
    if t is ...:
        return '...'
    if t is None:
        return 'None'
    if isinstance(t, list):
        return '[' + ', '.join(_type_repr(x) for x in t) + ']'
    if isinstance(t, type):
        module = getattr(t, '__module__', 'builtins')
        name = getattr(t, '__qualname__', t.__name__)
        return name if module == 'builtins' else module + '.' + name
    return repr(t)


class _Alias:
    """A subscripted typing name: `List[int]`, `Dict[str, float]`."""

    def __init__(self, form, args):
        self._form = form
        self.__origin__ = form._origin
        self.__args__ = args

    def __repr__(self):
        if self._form._name == 'Literal':
            inner = ', '.join(repr(a) for a in self.__args__)
        else:
            inner = ', '.join(_type_repr(a) for a in self.__args__)
        return 'typing.' + self._form._name + '[' + inner + ']'

    def __eq__(self, other):
        return (isinstance(other, _Alias) and self._form is other._form
                and self.__args__ == other.__args__)

    def __hash__(self):
        return hash((self._form._name, self.__args__))

    def __call__(self, *args, **kwargs):
        return self._form(*args, **kwargs)

    def __getitem__(self, params):
        # A generic alias filled in again (`Dict[str, T][int]`): keep the new arguments.
        return self._form[params]

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _UnionAlias(_Alias):
    def __repr__(self):
        args = self.__args__
        if len(args) == 2 and type(None) in args:
            other = args[0] if args[1] is type(None) else args[1]
            return 'typing.Optional[' + _type_repr(other) + ']'
        return 'typing.Union[' + ', '.join(_type_repr(a) for a in args) + ']'

    def __eq__(self, other):
        return isinstance(other, _UnionAlias) and set(self.__args__) == set(other.__args__)

    def __hash__(self):
        # Equal unions hold the same members in any order: hash what the order cannot change.
        return hash(len(self.__args__))


class _Form:
    """A typing name (`List`, `Optional`, `Any`)."""

    def __init__(self, name, origin=None):
        self._name = name
        self._origin = origin

    def __repr__(self):
        return 'typing.' + self._name

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        return _Alias(self, params)

    def __call__(self, *args, **kwargs):
        # As CPython's: the aliases of builtin containers point at the builtin instead.
        if self._origin is None:
            raise TypeError(self._name + ' cannot be instantiated')
        raise TypeError('Type ' + self._name + ' cannot be instantiated; use '
                        + self._origin.__name__ + '() instead')

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _UnionForm(_Form):
    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        args = []
        for p in params:
            if p is None:
                p = type(None)
            members = p.__args__ if isinstance(p, _UnionAlias) else (p,)
            for m in members:
                if m not in args:
                    args.append(m)
        if len(args) == 1:
            return args[0]
        return _UnionAlias(self, tuple(args))


class _OptionalForm(_Form):
    def __getitem__(self, param):
        return Union[param, None]


Any = _Form('Any')
NoReturn = _Form('NoReturn')
Never = _Form('Never')
Self = _Form('Self')
Union = _UnionForm('Union')
Optional = _OptionalForm('Optional')
Literal = _Form('Literal')
Final = _Form('Final')
ClassVar = _Form('ClassVar')
Annotated = _Form('Annotated')
Callable = _Form('Callable')
Type = _Form('Type', type)
List = _Form('List', list)
Dict = _Form('Dict', dict)
Set = _Form('Set', set)
FrozenSet = _Form('FrozenSet')
Tuple = _Form('Tuple', tuple)
DefaultDict = _Form('DefaultDict')
Counter = _Form('Counter')
Deque = _Form('Deque')
OrderedDict = _Form('OrderedDict')
Iterable = _Form('Iterable')
Iterator = _Form('Iterator')
Generator = _Form('Generator')
Sequence = _Form('Sequence')
MutableSequence = _Form('MutableSequence')
Mapping = _Form('Mapping')
MutableMapping = _Form('MutableMapping')
Collection = _Form('Collection')
Container = _Form('Container')
Hashable = _Form('Hashable')
Sized = _Form('Sized')
AbstractSet = _Form('AbstractSet')
Awaitable = _Form('Awaitable')
Coroutine = _Form('Coroutine')
SupportsInt = _Form('SupportsInt')
SupportsFloat = _Form('SupportsFloat')
SupportsIndex = _Form('SupportsIndex')
SupportsAbs = _Form('SupportsAbs')
Text = str
AnyStr = _Form('AnyStr')


class TypeVar:
    """A type variable: `T = TypeVar('T')`."""

    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        if self.__covariant__:
            return '+' + self.__name__
        if self.__contravariant__:
            return '-' + self.__name__
        return '~' + self.__name__

    def __or__(self, other):
        return Union[self, other]


class Generic:
    """Base of generic classes: `class Stack(Generic[T])`."""

    def __class_getitem__(cls, params):
        return cls


class Protocol(Generic):
    """Base of structural types: `class Drawable(Protocol)`."""


def cast(typ, val):
    """Return val unchanged: a note for type checkers."""
    return val


def overload(func):
    """Mark a signature for type checkers; the last definition is the one that runs."""
    return func


def final(f):
    """Mark a class or method final, for type checkers."""
    return f


def no_type_check(f):
    """Mark a function as not type-checked."""
    return f


def runtime_checkable(cls):
    """Mark a protocol class as usable with isinstance (nbcuda checks nothing)."""
    return cls


def NewType(name, tp):
    """A distinct name for a type, for type checkers: calling it returns its argument."""
    def new_type(x):
        return x
    new_type.__name__ = name
    new_type.__supertype__ = tp
    return new_type


def get_origin(tp):
    """The unsubscripted origin of an alias (`list` for `List[int]`), else None."""
    if isinstance(tp, _UnionAlias):
        return Union
    if isinstance(tp, _Alias):
        return tp.__origin__ if tp.__origin__ is not None else tp._form
    return None


def get_args(tp):
    """The arguments of an alias (`(int,)` for `List[int]`), else ()."""
    if isinstance(tp, _Alias):
        return tp.__args__
    return ()


class _NamedTupleMeta(type):
    """`class P(NamedTuple): x: int` makes P a record class: fields from the annotations,
    defaults from the values, methods from the body; calling NamedTuple itself is the
    functional form."""

    def __call__(cls, *args, **kwargs):
        if cls is NamedTuple:
            return _functional_namedtuple(*args, **kwargs)
        return super().__call__(*args, **kwargs)


def _functional_namedtuple(typename, fields=None, **kwargs):
    import collections
    if fields is None:
        fields = list(kwargs.items())
    return collections.namedtuple(typename, [name for name, _ in fields])


class NamedTuple(metaclass=_NamedTupleMeta):
    """Base of class-syntax named tuples (nbcuda keeps the values in a tuple; the instance
    acts as that tuple: indexing, unpacking, len, ==, hash, +)."""

    def __init_subclass__(cls, **kwargs):
        annotations = cls.__dict__.get('__annotations__', {})
        fields = tuple(annotations)
        defaults = {}
        for name in fields:
            if name.startswith('_'):
                raise ValueError(f'Field names cannot start with an underscore: {name!r}')
            value = cls.__dict__.get(name, _NO_DEFAULT)
            if value is not _NO_DEFAULT:
                defaults[name] = value
            elif defaults:
                raise TypeError(f'Non-default namedtuple field {name} cannot follow default '
                                f'field{"s" if len(defaults) > 1 else ""} '
                                f'{", ".join(defaults)}')
        cls._fields = fields
        cls._field_defaults = defaults
        cls.__annotations__ = dict(annotations)
        for i, name in enumerate(fields):
            setattr(cls, name, property(lambda self, i=i: self._values[i]))

    def __init__(self, *args, **kwargs):
        cls = type(self)
        fields = cls._fields
        where = f'{cls.__name__}.__new__()'
        if len(args) > len(fields):
            raise TypeError(f'{where} takes {len(fields) + 1} positional arguments but '
                            f'{len(args) + 1} were given')
        values = list(args)
        for name in fields[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in cls._field_defaults:
                values.append(cls._field_defaults[name])
            else:
                missing = [f for f in fields[len(values):]
                           if f not in kwargs and f not in cls._field_defaults]
                quoted = [repr(m) for m in missing]
                listed = quoted[0] if len(quoted) == 1 else \
                    ', '.join(quoted[:-1]) + (',' if len(quoted) > 2 else '') + \
                    ' and ' + quoted[-1]
                raise TypeError(f'{where} missing {len(missing)} required positional '
                                f'argument{"s" if len(missing) > 1 else ""}: {listed}')
        for name in kwargs:
            if name in fields:
                raise TypeError(f"{where} got multiple values for argument '{name}'")
            raise TypeError(f"{where} got an unexpected keyword argument '{name}'")
        # The fields are read-only properties, so assigning one fails as in CPython.
        self._values = tuple(values)

    def __repr__(self):
        inner = ', '.join(f'{n}={v!r}' for n, v in zip(self._fields, self._values))
        return f'{type(self).__name__}({inner})'

    def __getitem__(self, i):
        return self._values[i]

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        return iter(self._values)

    def __contains__(self, x):
        return x in self._values

    def __eq__(self, other):
        return self._values == (other._values if isinstance(other, NamedTuple) else other)

    def __lt__(self, other):
        return self._values < (other._values if isinstance(other, NamedTuple) else other)

    def __hash__(self):
        return hash(self._values)

    def __add__(self, other):
        return self._values + tuple(other)

    def count(self, x):
        return self._values.count(x)

    def index(self, x):
        return self._values.index(x)

    def _asdict(self):
        return dict(zip(self._fields, self._values))

    def _replace(self, **changes):
        values = self._asdict()
        for name in changes:
            if name not in values:
                raise ValueError(f'Got unexpected field names: {list(changes)!r}')
        values.update(changes)
        return type(self)(**values)

    @classmethod
    def _make(cls, iterable):
        return cls(*iterable)


_NO_DEFAULT = object()


class _TypedDictMeta(type):
    def __call__(cls, *args, **kwargs):
        return dict(*args, **kwargs)

    def __instancecheck__(cls, instance):
        raise TypeError('TypedDict does not support instance and class checks')


class TypedDict(metaclass=_TypedDictMeta):
    """`class Movie(TypedDict): title: str`: calling Movie(...) makes a plain dict."""


def get_type_hints(obj, globalns=None, localns=None, include_extras=False):
    """The annotations of a class (its bases' first) or function, None as type(None)."""
    hints = {}
    if isinstance(obj, type):
        for base in reversed(obj.__mro__):
            hints.update(getattr(base, '__dict__', {}).get('__annotations__', {}))
    else:
        hints.update(getattr(obj, '__annotations__', None) or {})
    return {k: type(None) if v is None else v for k, v in hints.items()}
