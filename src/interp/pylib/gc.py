"""The garbage collector's interface. nbcuda frees each object (device arrays included)
when its last reference goes, so there is never garbage left to collect: collect() finds
nothing and returns 0."""

_enabled = True


def collect(generation=2):
    """Run a collection; returns how many unreachable objects it found (none here)."""
    if generation not in (0, 1, 2):
        raise ValueError('invalid generation')
    return 0


def enable():
    """Turn automatic collection on."""
    global _enabled
    _enabled = True


def disable():
    """Turn automatic collection off."""
    global _enabled
    _enabled = False


def isenabled():
    """Whether automatic collection is on."""
    return _enabled


def get_count():
    """The collection counts of the three generations."""
    return (0, 0, 0)


def get_threshold():
    """The collection thresholds of the three generations."""
    return (700, 10, 10)


def set_threshold(threshold0, threshold1=10, threshold2=10):
    """Set the collection thresholds (nothing depends on them here)."""
    return None
