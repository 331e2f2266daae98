"""HMAC (RFC 2104) over hashlib's digests, as CPython's hmac."""

import hashlib as _hashlib

digest_size = None


def _bytes(data, what):
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    raise TypeError("%s: expected bytes or bytearray, but got %r" % (what, type(data).__name__))


def _constructor(digestmod):
    if isinstance(digestmod, str):
        return lambda d=b"": _hashlib.new(digestmod, d)
    if callable(digestmod):
        return digestmod
    return digestmod.new


class HMAC:
    blocksize = 64

    def __init__(self, key, msg=None, digestmod="", _copy_of=None):
        if _copy_of is not None:
            self._outer = _copy_of._outer.copy()
            self._inner = _copy_of._inner.copy()
            self.digest_size = _copy_of.digest_size
            self.block_size = _copy_of.block_size
            return
        if not isinstance(key, (bytes, bytearray)):
            raise TypeError("key: expected bytes or bytearray, but got %r" % type(key).__name__)
        if not digestmod:
            raise TypeError("Missing required parameter 'digestmod'.")
        make = _constructor(digestmod)
        self._outer = make()
        self._inner = make()
        self.digest_size = self._inner.digest_size
        self.block_size = self._inner.block_size
        key = bytes(key)
        if len(key) > self.block_size:
            key = make(key).digest()
        key = key + bytes(self.block_size - len(key))
        self._outer.update(bytes(b ^ 0x5C for b in key))
        self._inner.update(bytes(b ^ 0x36 for b in key))
        if msg is not None:
            self.update(msg)

    @property
    def name(self):
        return "hmac-" + self._inner.name

    def update(self, msg):
        self._inner.update(msg)

    def copy(self):
        return HMAC(b"", _copy_of=self)

    def digest(self):
        h = self._outer.copy()
        h.update(self._inner.digest())
        return h.digest()

    def hexdigest(self):
        return self.digest().hex()


def new(key, msg=None, digestmod=""):
    return HMAC(key, msg, digestmod)


def digest(key, msg, digest):
    return HMAC(key, msg, digest).digest()


def compare_digest(a, b):
    if isinstance(a, str) and isinstance(b, str):
        if not (a.isascii() and b.isascii()):
            raise TypeError("comparing strings with non-ASCII characters is not supported")
        a = a.encode()
        b = b.encode()
    else:
        for x in (a, b):
            if not isinstance(x, (bytes, bytearray)):
                raise TypeError("a bytes-like object is required, not '%s'" % type(x).__name__)
    if len(a) != len(b):
        return False
    diff = 0
    for x, y in zip(a, b):
        diff |= x ^ y
    return diff == 0
