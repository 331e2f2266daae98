"""Timing small pieces of code: Timer, timeit, repeat and default_timer."""

import time

__all__ = ['Timer', 'timeit', 'repeat', 'default_timer']

default_timer = time.perf_counter
default_number = 1000000
default_repeat = 5


class Timer:
    """Time a statement (a string of code or a callable) after a setup, in a namespace of
    its own whose globals are `globals` (an empty dict by default)."""

    def __init__(self, stmt='pass', setup='pass', timer=default_timer, globals=None):
        self.timer = timer
        self._globals = {} if globals is None else globals
        self._locals = {}
        self._stmt_is_code = isinstance(stmt, str)
        self._setup_is_code = isinstance(setup, str)
        self._stmt = compile(stmt, '<timeit-src>', 'exec') if isinstance(stmt, str) else stmt
        self._setup = compile(setup, '<timeit-src>', 'exec') if isinstance(setup, str) else setup

    def timeit(self, number=default_number):
        """Seconds taken by `number` runs of the statement (setup runs once first)."""
        if self._setup_is_code:
            exec(self._setup, self._globals, self._locals)
        else:
            self._setup()
        stmt = self._stmt
        if not self._stmt_is_code:
            start = self.timer()
            for _ in range(number):
                stmt()
            return self.timer() - start
        g, l = self._globals, self._locals
        start = self.timer()
        for _ in range(number):
            exec(stmt, g, l)
        return self.timer() - start

    def repeat(self, repeat=default_repeat, number=default_number):
        """A list of `repeat` timings of `number` runs each."""
        return [self.timeit(number) for _ in range(repeat)]

    def autorange(self, callback=None):
        """Find a number of runs taking at least 0.2 seconds: (number, time)."""
        i = 1
        while True:
            for j in (1, 2, 5):
                number = i * j
                t = self.timeit(number)
                if callback is not None:
                    callback(number, t)
                if t >= 0.2:
                    return (number, t)
            i *= 10


def timeit(stmt='pass', setup='pass', timer=default_timer, number=default_number, globals=None):
    """Seconds taken by `number` runs of stmt."""
    return Timer(stmt, setup, timer, globals).timeit(number)


def repeat(stmt='pass', setup='pass', timer=default_timer, repeat=default_repeat,
           number=default_number, globals=None):
    """A list of `repeat` timings of `number` runs of stmt each."""
    return Timer(stmt, setup, timer, globals).repeat(repeat, number)
