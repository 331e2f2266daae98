"""collections.abc: the abstract container classes. isinstance accepts the built-in types
registered with them and, for the one-method classes (Iterable, Sized, Callable, ...), any
class defining the methods; classes deriving from Mapping, Sequence, Set and their mutable
forms get the mixin methods built on the abstract ones."""

from abc import ABCMeta, abstractmethod

__all__ = ['Awaitable', 'Coroutine', 'AsyncIterable', 'AsyncIterator', 'AsyncGenerator',
           'Hashable', 'Iterable', 'Iterator', 'Generator', 'Reversible', 'Sized',
           'Container', 'Callable', 'Collection', 'Set', 'MutableSet', 'Mapping',
           'MutableMapping', 'MappingView', 'KeysView', 'ItemsView', 'ValuesView',
           'Sequence', 'MutableSequence', 'ByteString']


def _defines(cls, *names):
    """CPython's structural test: each name is defined along the class's MRO and not None."""
    mro = getattr(cls, '__mro__', None)
    if mro is None:
        return NotImplemented
    for name in names:
        for base in mro:
            attrs = base.__dict__ if hasattr(base, '__dict__') else {}
            if name in attrs:
                if attrs[name] is None:
                    return NotImplemented
                break
        else:
            return NotImplemented
    return True


def _iterable(x):
    try:
        iter(x)
    except TypeError:
        return False
    return True


def _sized(x):
    try:
        len(x)
    except TypeError:
        return False
    return True


def _hashable(x):
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _iterator(x):
    return _iterable(x) and iter(x) is x


class _ProbingABCMeta(ABCMeta):
    """For the one-method classes: a value of a built-in type (which has no MRO to inspect)
    is checked by trying the operation itself."""

    def __instancecheck__(cls, instance):
        if ABCMeta.__instancecheck__(cls, instance):
            return True
        probe = _PROBES.get(cls)
        if probe is None or hasattr(type(instance), '__mro__'):
            return False
        return probe(instance)


def _one_trick(owner, *names):
    def hook(cls, subclass):
        if cls is owner[0]:
            return _defines(subclass, *names)
        return NotImplemented
    return classmethod(hook)


class Hashable(metaclass=_ProbingABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __hash__(self):
        return 0

    @classmethod
    def __subclasshook__(cls, subclass):
        if cls is not Hashable:
            return NotImplemented
        mro = getattr(subclass, '__mro__', None)
        if mro is None:
            return NotImplemented
        for base in mro:
            attrs = base.__dict__ if hasattr(base, '__dict__') else {}
            if '__hash__' in attrs:
                return attrs['__hash__'] is not None
            if '__eq__' in attrs:
                # Defining __eq__ without __hash__ makes instances unhashable.
                return False
        return True


class Awaitable(metaclass=ABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __await__(self):
        yield


class Coroutine(Awaitable):
    __module__ = 'collections.abc'

    @abstractmethod
    def send(self, value):
        raise StopIteration

    @abstractmethod
    def throw(self, typ, val=None, tb=None):
        raise typ if val is None else val

    def close(self):
        pass


class AsyncIterable(metaclass=ABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __aiter__(self):
        return self


class AsyncIterator(AsyncIterable):
    __module__ = 'collections.abc'

    @abstractmethod
    def __anext__(self):
        raise StopAsyncIteration


class AsyncGenerator(AsyncIterator):
    __module__ = 'collections.abc'

    @abstractmethod
    def asend(self, value):
        raise StopAsyncIteration


class Iterable(metaclass=_ProbingABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __iter__(self):
        while False:
            yield None


class Iterator(Iterable):
    __module__ = 'collections.abc'

    @abstractmethod
    def __next__(self):
        raise StopIteration

    def __iter__(self):
        return self


class Reversible(Iterable):
    __module__ = 'collections.abc'

    @abstractmethod
    def __reversed__(self):
        while False:
            yield None


class Generator(Iterator):
    __module__ = 'collections.abc'

    def __next__(self):
        return self.send(None)

    @abstractmethod
    def send(self, value):
        raise StopIteration

    @abstractmethod
    def throw(self, typ, val=None, tb=None):
        raise typ if val is None else val

    def close(self):
        try:
            self.throw(GeneratorExit)
        except (GeneratorExit, StopIteration):
            pass
        else:
            raise RuntimeError('generator ignored GeneratorExit')


class Sized(metaclass=_ProbingABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __len__(self):
        return 0


class Container(metaclass=_ProbingABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __contains__(self, x):
        return False


class Collection(Sized, Iterable, Container):
    __module__ = 'collections.abc'

    pass


class Callable(metaclass=_ProbingABCMeta):
    __module__ = 'collections.abc'

    @abstractmethod
    def __call__(self, *args, **kwds):
        return False


for _cls, _names in ((Awaitable, ('__await__',)),
                     (Coroutine, ('__await__', 'send', 'throw', 'close')),
                     (AsyncIterable, ('__aiter__',)),
                     (AsyncIterator, ('__anext__', '__aiter__')),
                     (AsyncGenerator, ('__aiter__', '__anext__', 'asend', 'athrow', 'aclose')),
                     (Iterable, ('__iter__',)), (Iterator, ('__iter__', '__next__')),
                     (Reversible, ('__reversed__', '__iter__')),
                     (Generator, ('__iter__', '__next__', 'send', 'throw', 'close')),
                     (Sized, ('__len__',)), (Container, ('__contains__',)),
                     (Collection, ('__len__', '__iter__', '__contains__')),
                     (Callable, ('__call__',))):
    _cls.__subclasshook__ = _one_trick([_cls], *_names)

def _hashable_value(x):
    # nbcuda's own mutable containers (deque, OrderedDict) do not refuse hash().
    return _hashable(x) and not isinstance(x, (MutableSequence, MutableMapping, MutableSet))


def _callable_value(x):
    # nbcuda's callable() also accepts some containers; no container is a callable.
    return callable(x) and (isinstance(x, type) or not _iterable(x))


_PROBES = {Iterable: _iterable, Sized: _sized, Hashable: _hashable_value,
           Callable: _callable_value,
           Iterator: _iterator, Collection: lambda x: _iterable(x) and _sized(x)}

from _collections_abc_mixins import (Set, MutableSet, Mapping, MutableMapping,  # noqa: E402
                                     MappingView, KeysView, ItemsView, ValuesView,
                                     Sequence, MutableSequence, ByteString)


def _register_collections(collections):
    """Called by the collections module as it is built."""
    MutableSequence.register(collections.deque)
    for t in (collections.OrderedDict, collections.defaultdict, collections.Counter):
        MutableMapping.register(t)


def _register_builtins():
    for t in (int, float, complex, str, bytes, tuple, bool, type(None), range, type):
        Hashable.register(t)
    Sequence.register(tuple)
    Sequence.register(str)
    Sequence.register(range)
    ByteString.register(bytes)
    MutableSequence.register(list)
    MutableSet.register(set)
    MutableMapping.register(dict)
    try:
        MutableSequence.register(bytearray)
        Set.register(frozenset)
        Hashable.register(frozenset)
    except NameError:
        pass

    def gen():
        yield None
    Generator.register(type(gen()))
    Iterator.register(type(iter(())))


_register_builtins()
del _cls, _names, _register_builtins
