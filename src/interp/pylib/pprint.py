"""Pretty printing: pprint, pformat, pp and PrettyPrinter. A container whose repr does not
fit the width is broken one element per line, indented under its opening bracket, with
CPython 3.11's widths (dicts sorted by key unless sort_dicts=False; compact packs lists)."""


__all__ = ['pprint', 'pformat', 'pp', 'PrettyPrinter', 'isreadable', 'isrecursive', 'saferepr']


class _SortKey:
    # Sorting mixed key types falls back to ordering by type name, as CPython's does.
    def __init__(self, obj):
        self.obj = obj

    def __lt__(self, other):
        try:
            return self.obj < other.obj
        except TypeError:
            return (str(type(self.obj)), id(self.obj)) < (str(type(other.obj)), id(other.obj))


def _sorted_items(d):
    return sorted(d.items(), key=lambda kv: _SortKey(kv[0]))


class PrettyPrinter:
    def __init__(self, indent=1, width=80, depth=None, stream=None, *, compact=False,
                 sort_dicts=True, underscore_numbers=False):
        if indent < 0:
            raise ValueError('indent must be >= 0')
        if depth is not None and depth <= 0:
            raise ValueError('depth must be > 0')
        if not width:
            raise ValueError('width must be != 0')
        self._indent = indent
        self._width = width
        self._depth = depth
        self._stream = stream
        self._compact = compact
        self._sort_dicts = sort_dicts

    def pformat(self, obj):
        out = []
        self._format(obj, out, 0, 0, 1)
        return ''.join(out)

    def pprint(self, obj):
        text = self.pformat(obj) + '\n'
        if self._stream is not None:
            self._stream.write(text)
        else:
            print(text, end='')

    def isreadable(self, obj):
        return True

    def isrecursive(self, obj):
        return False

    def _repr(self, obj, level):
        """The one-line form, with containers past `depth` shown as ... and dicts sorted."""
        kind = type(obj)
        # Sets print as repr() does on one line (CPython sorts them only when broken).
        if kind in (dict, list, tuple) and obj:
            if self._depth is not None and level > self._depth:
                return {dict: '{...}', list: '[...]', tuple: '(...)'}[kind]
            if kind is dict:
                items = _sorted_items(obj) if self._sort_dicts else obj.items()
                inner = ', '.join(f'{self._repr(k, level + 1)}: {self._repr(v, level + 1)}'
                                  for k, v in items)
                return '{' + inner + '}'
            inner = ', '.join(self._repr(v, level + 1) for v in obj)
            if kind is list:
                return '[' + inner + ']'
            return '(' + inner + (',)' if len(obj) == 1 else ')')
        return repr(obj)

    def _format(self, obj, out, indent, allowance, level):
        rep = self._repr(obj, level)
        kind = type(obj)
        if len(rep) > self._width - indent - allowance and kind in (dict, list, tuple, set) \
                and obj and (kind is set or self._depth is None or level <= self._depth):
            if kind is dict:
                out.append('{' + ' ' * (self._indent - 1))
                items = _sorted_items(obj) if self._sort_dicts else list(obj.items())
                self._dict_items(items, out, indent, allowance + 1, level + 1)
                out.append('}')
                return
            opening = {list: '[', tuple: '(', set: '{'}[kind]
            closing = {list: ']', tuple: ',)' if len(obj) == 1 else ')', set: '}'}[kind]
            elems = sorted(obj, key=_SortKey) if kind is set else list(obj)
            out.append(opening)
            self._items(elems, out, indent, allowance + len(closing), level + 1)
            out.append(closing)
            return
        if kind is str and len(rep) > self._width - indent - allowance:
            out.append(self._long_str(obj, indent, allowance, level))
            return
        out.append(rep)

    def _dict_items(self, items, out, indent, allowance, level):
        indent += self._indent
        for i, (key, value) in enumerate(items):
            last = i == len(items) - 1
            krep = self._repr(key, level)
            out.append(krep + ': ')
            self._format(value, out, indent + len(krep) + 2, allowance if last else 1, level)
            if not last:
                out.append(',\n' + ' ' * indent)

    def _items(self, elems, out, indent, allowance, level):
        indent += self._indent
        if self._indent > 1:
            out.append(' ' * (self._indent - 1))
        newline = ',\n' + ' ' * indent
        room = full = self._width - indent + 1
        sep = ''
        for i, elem in enumerate(elems):
            last = i == len(elems) - 1
            if last:
                full -= allowance
                room -= allowance
            if self._compact:
                rep = self._repr(elem, level)
                need = len(rep) + 2
                if room < need:
                    room = full
                    if sep:
                        sep = newline
                if room >= need:
                    room -= need
                    out.append(sep + rep)
                    sep = ', '
                    continue
            out.append(sep)
            sep = newline
            self._format(elem, out, indent, allowance if last else 1, level)

    def _long_str(self, text, indent, allowance, level):
        """A long string as adjacent literals broken after whitespace, in parentheses at
        the top level."""
        if level == 1:
            indent += 1
            allowance += 1
        width = self._width - indent
        chunks = []
        lines = text.splitlines(True)
        for i, line in enumerate(lines):
            last_line = i == len(lines) - 1
            if len(repr(line)) <= width - (allowance if last_line else 0):
                chunks.append(repr(line))
                continue
            words = []
            start = 0
            for j in range(1, len(line) + 1):
                if j == len(line) or (line[j - 1].isspace() and not line[j].isspace()):
                    words.append(line[start:j])
                    start = j
            current = ''
            for j, word in enumerate(words):
                limit = width - (allowance if last_line and j == len(words) - 1 else 0)
                if len(repr(current + word)) > limit:
                    if current:
                        chunks.append(repr(current))
                    current = word
                else:
                    current += word
            if current:
                chunks.append(repr(current))
        if len(chunks) == 1:
            return chunks[0]
        body = ('\n' + ' ' * indent).join(chunks)
        return '(' + body + ')' if level == 1 else body


def pformat(object, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True,
            underscore_numbers=False):
    return PrettyPrinter(indent=indent, width=width, depth=depth, compact=compact,
                         sort_dicts=sort_dicts).pformat(object)


def pprint(object, stream=None, indent=1, width=80, depth=None, *, compact=False,
           sort_dicts=True, underscore_numbers=False):
    PrettyPrinter(stream=stream, indent=indent, width=width, depth=depth, compact=compact,
                  sort_dicts=sort_dicts).pprint(object)


def pp(object, *args, sort_dicts=False, **kwargs):
    pprint(object, *args, sort_dicts=sort_dicts, **kwargs)


def saferepr(object):
    return PrettyPrinter()._repr(object, 1)


def isreadable(object):
    return True


def isrecursive(object):
    return False
