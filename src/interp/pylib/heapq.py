"""Heap queue: a list kept as a binary min-heap, where a[k] <= a[2*k+1] and a[k] <= a[2*k+2]."""

__all__ = ['heappush', 'heappop', 'heapify', 'heapreplace', 'merge',
           'nlargest', 'nsmallest', 'heappushpop']


def _sift_up(heap, start, pos):
    # Move heap[pos] towards the root (not above `start`) while it is smaller than its parent.
    item = heap[pos]
    while pos > start:
        parent = (pos - 1) >> 1
        if item < heap[parent]:
            heap[pos] = heap[parent]
            pos = parent
        else:
            break
    heap[pos] = item


def _sift_down(heap, pos):
    # Move the hole at `pos` down to a leaf along the smaller children, then sift the
    # item back up: fewer comparisons than stopping early, and the same order CPython keeps.
    end = len(heap)
    start = pos
    item = heap[pos]
    child = 2 * pos + 1
    while child < end:
        right = child + 1
        if right < end and not heap[child] < heap[right]:
            child = right
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    heap[pos] = item
    _sift_up(heap, start, pos)


def heappush(heap, item):
    """Push item onto heap, keeping the heap invariant."""
    heap.append(item)
    _sift_up(heap, 0, len(heap) - 1)


def heappop(heap):
    """Pop the smallest item off the heap, keeping the heap invariant."""
    if not heap:
        raise IndexError('index out of range')
    last = heap.pop()
    if heap:
        smallest = heap[0]
        heap[0] = last
        _sift_down(heap, 0)
        return smallest
    return last


def heapreplace(heap, item):
    """Pop the smallest item, then push item (the heap's size is unchanged)."""
    if not heap:
        raise IndexError('index out of range')
    smallest = heap[0]
    heap[0] = item
    _sift_down(heap, 0)
    return smallest


def heappushpop(heap, item):
    """Push item, then pop the smallest item, faster than the two calls."""
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        _sift_down(heap, 0)
    return item


def heapify(x):
    """Turn list x into a heap, in place, in linear time."""
    for i in reversed(range(len(x) // 2)):
        _sift_down(x, i)


def nsmallest(n, iterable, key=None):
    """The n smallest items of iterable, smallest first (ties keep their order)."""
    if key is None:
        return sorted(iterable)[:n] if n > 0 else []
    return sorted(iterable, key=key)[:n] if n > 0 else []


def nlargest(n, iterable, key=None):
    """The n largest items of iterable, largest first (ties keep their order)."""
    if n <= 0:
        return []
    if key is None:
        return sorted(iterable, reverse=True)[:n]
    return sorted(iterable, key=key, reverse=True)[:n]


def merge(*iterables, key=None, reverse=False):
    """Merge sorted iterables into one sorted iterator."""
    items = []
    for it in iterables:
        items.extend(it)
    return iter(sorted(items, key=key, reverse=reverse))
