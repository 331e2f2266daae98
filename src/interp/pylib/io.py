"""In-memory text and byte streams: StringIO and BytesIO."""

__all__ = ['StringIO', 'BytesIO']


class _Memory:
    # What both streams share: a buffer, a position, and the closed flag.

    def _check(self):
        if self.closed:
            raise ValueError('I/O operation on closed file.')

    def getvalue(self):
        self._check()
        return self._buf

    def tell(self):
        self._check()
        return self._pos

    def seek(self, pos, whence=0):
        self._check()
        if whence == 0:
            if pos < 0:
                raise ValueError('Negative seek position ' + str(pos))
            self._pos = pos
        elif whence == 1:
            self._pos = max(0, self._pos + pos)
        else:
            self._pos = max(0, len(self._buf) + pos)
        return self._pos

    def read(self, size=-1):
        self._check()
        end = len(self._buf) if size is None or size < 0 else self._pos + size
        out = self._buf[self._pos:end]
        self._pos += len(out)
        return out

    def write(self, s):
        self._check()
        if not isinstance(s, type(self._buf)):
            raise TypeError(self._write_error(s))
        buf = self._buf
        if self._pos > len(buf):
            buf = buf + self._pad * (self._pos - len(buf))
        self._buf = buf[:self._pos] + s + buf[self._pos + len(s):]
        self._pos += len(s)
        return len(s)

    def readline(self, size=-1):
        self._check()
        buf, nl = self._buf, self._nl
        end = self._pos
        while end < len(buf) and buf[end:end + 1] != nl:
            end += 1
        end = min(end + 1, len(buf))
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = self._buf[self._pos:end]
        self._pos += len(out)
        return out

    def readlines(self, hint=-1):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def truncate(self, size=None):
        self._check()
        if size is None:
            size = self._pos
        self._buf = self._buf[:size]
        return size

    def close(self):
        self.closed = True

    def flush(self):
        self._check()

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        self._check()
        return iter(self.readlines())


class StringIO(_Memory):
    """A text stream kept in memory."""

    _pad = '\0'
    _nl = '\n'

    def __init__(self, initial_value='', newline='\n'):
        if initial_value is None:
            initial_value = ''
        if not isinstance(initial_value, str):
            raise TypeError('initial_value must be str or None, not ' + type(initial_value).__name__)
        self._buf = initial_value
        self._pos = 0
        self.closed = False

    def _write_error(self, s):
        return 'string argument expected, got ' + repr(type(s).__name__)


class BytesIO(_Memory):
    """A byte stream kept in memory."""

    _pad = b'\0'
    _nl = b'\n'

    def __init__(self, initial_bytes=b''):
        self._buf = bytes(initial_bytes)
        self._pos = 0
        self.closed = False

    def _write_error(self, s):
        return "a bytes-like object is required, not '" + type(s).__name__ + "'"

    def getbuffer(self):
        return self._buf
