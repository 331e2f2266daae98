"""Enumerations: Enum, IntEnum, StrEnum, Flag, IntFlag, auto and unique, behaving as
Python 3.11's do for the code people write with them (members by attribute, by value
`Color(1)` and by name `Color['RED']`, iteration, len, aliases, auto(), composite flags).

nbcuda's differences: IntEnum, StrEnum and IntFlag members compare, hash, convert and
do arithmetic as their values do, but are not instances of int or str;
`__members__` is a dict rather than a read-only mapping proxy; the functional API
`Enum('Name', 'A B')` is not provided."""

__all__ = ['EnumType', 'EnumMeta', 'Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag',
           'ReprEnum', 'auto', 'unique']


class auto:
    """Instances are replaced with an appropriate value for the member."""

    def __repr__(self):
        return 'auto()'


def _is_descriptor(value):
    if callable(value):
        return True
    return type(value).__name__ in ('property', 'classmethod', 'staticmethod')


class EnumType(type):
    """The metaclass of enumerations: members by value, by name, iteration and len."""

    def __call__(cls, value, *args, **kwargs):
        if args or kwargs:
            raise NotImplementedError(
                "the functional API (Enum('Name', names)) is not supported in nbcuda")
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        for member in cls._member_map_.values():
            if member._value_ == value:
                return member
        found = cls._missing_(value)
        if isinstance(found, cls):
            return found
        if found is not None:
            raise TypeError(f"error in {cls.__name__}._missing_: returned {found!r} "
                            f"instead of None or a valid member")
        raise ValueError(f"{value!r} is not a valid {cls.__qualname__}")

    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[name] for name in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError(
                "unsupported operand type(s) for 'in': '%s' and '%s'"
                % (type(member).__qualname__, type(cls).__qualname__))
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __repr__(cls):
        kind = 'flag' if Flag is not None and issubclass(cls, Flag) else 'enum'
        return f"<{kind} {cls.__name__!r}>"

    def __bool__(cls):
        return True

    @property
    def __members__(cls):
        return dict(cls._member_map_)


EnumMeta = EnumType

# Set once Flag exists; EnumType.__repr__ reads it.
Flag = None


def _members_of(cls):
    """Turn the plain class attributes of a new enumeration into its members."""
    for base in cls.__mro__[1:-1]:
        if base.__dict__.get('_member_names_'):
            raise TypeError(f"{cls!r} cannot extend {base!r}")
    cls._member_names_ = []
    cls._member_map_ = {}
    cls._value2member_map_ = {}
    own_init = None
    for klass in cls.__mro__[:-1]:
        if '__init__' in klass.__dict__:
            own_init = klass.__dict__['__init__']
            break
    values = []
    for name, value in list(cls.__dict__.items()):
        if name.startswith('_') or _is_descriptor(value):
            continue
        if isinstance(value, auto):
            value = cls._generate_next_value_(name, 1, len(cls._member_names_), values[:])
        value = cls._coerce_value_(value)
        values.append(value)
        existing = None
        for other in cls._member_map_.values():
            if other._value_ == value:
                existing = other
                break
        if existing is not None:
            # An alias: another name for the first member with this value.
            cls._member_map_[name] = existing
            setattr(cls, name, existing)
            continue
        member = object.__new__(cls)
        member._name_ = name
        member._value_ = value
        member._sort_order_ = len(cls._member_names_)
        if own_init is not None:
            own_init(member, *(value if isinstance(value, tuple) else (value,)))
        cls._member_names_.append(name)
        cls._member_map_[name] = member
        try:
            cls._value2member_map_[value] = member
        except TypeError:
            pass
        setattr(cls, name, member)


class Enum(metaclass=EnumType):
    """Base class of enumerations: a class whose attributes become its members."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _members_of(cls)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            try:
                return last + 1
            except TypeError:
                pass
        return start

    @classmethod
    def _coerce_value_(cls, value):
        return value

    @classmethod
    def _missing_(cls, value):
        return None

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        return f"{type(self).__name__}.{self._name_}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class ReprEnum(Enum):
    """Members whose str() and format() are their value's (IntEnum, StrEnum, IntFlag)."""

    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)


def _value_of(x):
    return x._value_ if isinstance(x, Enum) else x


class _ValueBehaviour:
    """Comparison, hashing and arithmetic as the member's value does them."""

    def __eq__(self, other):
        return self._value_ == _value_of(other)

    def __ne__(self, other):
        return self._value_ != _value_of(other)

    def __lt__(self, other):
        return self._value_ < _value_of(other)

    def __le__(self, other):
        return self._value_ <= _value_of(other)

    def __gt__(self, other):
        return self._value_ > _value_of(other)

    def __ge__(self, other):
        return self._value_ >= _value_of(other)

    def __hash__(self):
        return hash(self._value_)

    def __add__(self, other):
        return self._value_ + _value_of(other)

    def __radd__(self, other):
        return _value_of(other) + self._value_

    def __mul__(self, other):
        return self._value_ * _value_of(other)

    def __rmul__(self, other):
        return _value_of(other) * self._value_

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return getattr(self._value_, name)


class _IntBehaviour(_ValueBehaviour):
    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __float__(self):
        return float(self._value_)

    def __sub__(self, other):
        return self._value_ - _value_of(other)

    def __rsub__(self, other):
        return _value_of(other) - self._value_

    def __truediv__(self, other):
        return self._value_ / _value_of(other)

    def __floordiv__(self, other):
        return self._value_ // _value_of(other)

    def __mod__(self, other):
        return self._value_ % _value_of(other)

    def __neg__(self):
        return -self._value_

    def __abs__(self):
        return abs(self._value_)


class IntEnum(_IntBehaviour, ReprEnum):
    """An Enum whose members are also used as ints."""

    @classmethod
    def _coerce_value_(cls, value):
        return int(value)


class StrEnum(_ValueBehaviour, ReprEnum):
    """An Enum whose members are also used as strings; auto() gives the lowercased name."""

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()

    @classmethod
    def _coerce_value_(cls, value):
        if not isinstance(value, str):
            raise TypeError(f"{value!r} is not a string")
        return value


class Flag(Enum):
    """Members combine with |, & , ^ and ~ into composite values of the same class."""

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        high = max(last_values)
        return 1 << high.bit_length()

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            return None
        everything = 0
        for m in cls._member_map_.values():
            everything |= m._value_
        if value & ~everything:
            return None
        member = object.__new__(cls)
        member._value_ = value
        names = [m._name_ for m in cls if m._value_ & value == m._value_ and m._value_]
        member._name_ = '|'.join(names) if names else None
        cls._value2member_map_[value] = member
        return member

    def __or__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(self._value_ | other._value_)

    def __and__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(self._value_ & other._value_)

    def __xor__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(self._value_ ^ other._value_)

    def __invert__(self):
        everything = 0
        for m in type(self):
            everything |= m._value_
        return type(self)(everything & ~self._value_)

    def __contains__(self, other):
        if not isinstance(other, type(self)):
            raise TypeError(
                "unsupported operand type(s) for 'in': '%s' and '%s'"
                % (type(other).__qualname__, type(self).__qualname__))
        return other._value_ & self._value_ == other._value_

    def __iter__(self):
        return iter([m for m in type(self) if m._value_ & self._value_ == m._value_
                     and m._value_])

    def __len__(self):
        return len(list(iter(self)))

    def __bool__(self):
        return bool(self._value_)

    def __repr__(self):
        if self._name_ is None:
            return f"<{type(self).__name__}: {self._value_!r}>"
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        if self._name_ is None:
            return f"{type(self).__name__}({self._value_!r})"
        return f"{type(self).__name__}.{self._name_}"


class IntFlag(_IntBehaviour, ReprEnum, Flag):
    """A Flag whose members are also used as ints."""

    def __str__(self):
        return str(self._value_)

    def __or__(self, other):
        if isinstance(other, int) and not isinstance(other, Enum):
            other = type(self)(other)
        return Flag.__or__(self, other)

    __ror__ = __or__

    def __and__(self, other):
        if isinstance(other, int) and not isinstance(other, Enum):
            other = type(self)(other)
        return Flag.__and__(self, other)

    __rand__ = __and__


def unique(enumeration):
    """Class decorator: raise ValueError when two names share one value."""
    duplicates = [(name, member._name_) for name, member in enumeration._member_map_.items()
                  if name != member._name_]
    if duplicates:
        listed = ', '.join(f"{alias} -> {name}" for alias, name in duplicates)
        raise ValueError(f"duplicate values found in {enumeration!r}: {listed}")
    return enumeration
