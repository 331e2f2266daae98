"""Context-manager helpers: @contextmanager, suppress, nullcontext, closing, ExitStack."""

__all__ = ['contextmanager', 'suppress', 'nullcontext', 'closing', 'ExitStack',
           'AbstractContextManager']


class AbstractContextManager:
    """A base whose __enter__ returns self."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return None


class _GeneratorContextManager(AbstractContextManager):
    # Runs the generator to its yield on entry, and on exit either on to its end or, when
    # the block raised, throws the exception in at the yield.

    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)
        self.func, self.args, self.kwds = func, args, kwds

    def __call__(self, func):
        # Used as a decorator: each call runs inside a fresh manager.
        outer = self

        def inner(*args, **kwds):
            with _GeneratorContextManager(outer.func, outer.args, outer.kwds):
                return func(*args, **kwds)
        return inner

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        if value is None:
            value = typ()
        try:
            self.gen.throw(value)
        except StopIteration as exc:
            return exc is not value
        except BaseException as exc:
            if exc is value:
                return False
            raise
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    """Make a generator function that yields once into a context manager."""
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)
    helper.__name__ = func.__name__
    helper.__doc__ = func.__doc__
    return helper


class suppress(AbstractContextManager):
    """Ignore the given exception types inside the block."""

    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __exit__(self, exctype, excinst, exctb):
        return exctype is not None and issubclass(exctype, self._exceptions)


class nullcontext(AbstractContextManager):
    """A context manager that does nothing; `as` gives enter_result."""

    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        return None


class closing(AbstractContextManager):
    """Call thing.close() when the block ends."""

    def __init__(self, thing):
        self.thing = thing

    def __enter__(self):
        return self.thing

    def __exit__(self, *exc_info):
        self.thing.close()


class ExitStack(AbstractContextManager):
    """Enter any number of context managers; exit them in reverse order."""

    def __init__(self):
        self._exits = []

    def enter_context(self, cm):
        result = cm.__enter__()
        self._exits.append(cm.__exit__)
        return result

    def push(self, exit):
        self._exits.append(exit if callable(exit) else exit.__exit__)
        return exit

    def callback(self, callback, *args, **kwds):
        def _exit(exc_type, exc, tb):
            callback(*args, **kwds)
        self._exits.append(_exit)
        return callback

    def pop_all(self):
        new = ExitStack()
        new._exits = self._exits
        self._exits = []
        return new

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, exc_type, exc, tb):
        suppressed = False
        pending = None
        while self._exits:
            cb = self._exits.pop()
            try:
                if cb(exc_type, exc, tb):
                    suppressed = True
                    exc_type, exc, tb = None, None, None
            except BaseException as e:
                pending = e
                exc_type, exc, tb = type(e), e, None
        if pending is not None:
            raise pending
        return suppressed
