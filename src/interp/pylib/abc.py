"""Abstract base classes: a class deriving from ABC (or made by ABCMeta) cannot be
instantiated while a method marked @abstractmethod is left without an implementation, and
isinstance/issubclass also accept classes registered with, or accepted by the
__subclasshook__ of, an abstract class."""

__all__ = ['ABC', 'abstractmethod', 'ABCMeta']

# Registered subclasses by abstract class; registering with a class registers with the
# abstract classes it derives from too, so a lookup needs only the class's own list.
_registry = {}


def abstractmethod(funcobj):
    """Mark a method abstract: subclasses of ABC must override it before instantiation."""
    funcobj.__isabstractmethod__ = True
    return funcobj


class ABCMeta(type):
    """The metaclass of abstract classes (nbcuda checks abstract methods at instantiation)."""

    def register(cls, subclass):
        for base in cls.__mro__:
            if isinstance(base, ABCMeta):
                _registry.setdefault(base, []).append(subclass)
        return subclass

    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))

    def __subclasscheck__(cls, subclass):
        mro = getattr(subclass, '__mro__', None)
        if mro is not None and cls in mro:
            return True
        for known in _registry.get(cls, ()):
            if subclass is known or subclass == known:
                return True
            known_mro = getattr(known, '__mro__', None)
            if mro is not None and known_mro is not None and known in mro:
                return True
            # nbcuda's built-in types do not always compare equal to type(value) (range,
            # bytes); being built in, their names identify them.
            if mro is None and known_mro is None and \
                    getattr(subclass, '__name__', None) == getattr(known, '__name__', ''):
                return True
        hook = getattr(cls, '__subclasshook__', None)
        if hook is not None:
            ok = hook(subclass)
            if ok is not NotImplemented:
                return bool(ok)
        return False

    def __subclasshook__(cls, subclass):
        return NotImplemented


class ABC(metaclass=ABCMeta):
    """Base of abstract classes."""
