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


def NamedTuple(typename, fields=None, **kwargs):
    """`NamedTuple('Point', [('x', int), ('y', int)])`: a named tuple class."""
    import collections
    if fields is None:
        fields = list(kwargs.items())
    return collections.namedtuple(typename, [name for name, _ in fields])
