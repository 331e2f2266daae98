"""Abstract base classes: a class deriving from ABC cannot be instantiated while a method
marked @abstractmethod is left without an implementation."""

__all__ = ['ABC', 'abstractmethod', 'ABCMeta']


def abstractmethod(funcobj):
    """Mark a method abstract: subclasses of ABC must override it before instantiation."""
    funcobj.__isabstractmethod__ = True
    return funcobj


class ABC:
    """Base of abstract classes (nbcuda checks abstract methods without a metaclass)."""


# nbcuda has no metaclasses; the name exists for code that only refers to it.
ABCMeta = type
