"""Secure hashes and message digests (md5, sha1, sha2), as CPython's hashlib.

A hash object keeps the chunks fed to it and digests them in _hashlib on demand, so copy()
is a copy of the chunk list."""

import _hashlib

_SIZES = {
    "md5": (16, 64),
    "sha1": (20, 64),
    "sha224": (28, 64),
    "sha256": (32, 64),
    "sha384": (48, 128),
    "sha512": (64, 128),
}

algorithms_guaranteed = frozenset(_SIZES)
algorithms_available = frozenset(_SIZES)
__all__ = ("md5", "sha1", "sha224", "sha256", "sha384", "sha512", "new",
           "algorithms_guaranteed", "algorithms_available")


def _chunk(data):
    if isinstance(data, str):
        raise TypeError("Strings must be encoded before hashing")
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    raise TypeError("object supporting the buffer API required")


class HASH:
    def __init__(self, name, data=b""):
        self._name = name
        self._parts = []
        if data:
            self._parts.append(_chunk(data))
        elif not isinstance(data, (bytes, bytearray)):
            _chunk(data)

    @property
    def name(self):
        return self._name

    @property
    def digest_size(self):
        return _SIZES[self._name][0]

    @property
    def block_size(self):
        return _SIZES[self._name][1]

    def update(self, data):
        self._parts.append(_chunk(data))

    def digest(self):
        return _hashlib.digest(self._name, self._parts)

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = HASH(self._name)
        other._parts = list(self._parts)
        return other

    def __repr__(self):
        return "<%s _hashlib.HASH object @ 0x%x>" % (self._name, id(self))


def new(name, data=b"", *, usedforsecurity=True):
    if not isinstance(name, str):
        raise TypeError("new() argument 'name' must be str, not %s" % type(name).__name__)
    key = name.lower()
    if key not in _SIZES:
        raise ValueError("unsupported hash type " + name)
    return HASH(key, data)


def md5(string=b"", *, usedforsecurity=True):
    return HASH("md5", string)


def sha1(string=b"", *, usedforsecurity=True):
    return HASH("sha1", string)


def sha224(string=b"", *, usedforsecurity=True):
    return HASH("sha224", string)


def sha256(string=b"", *, usedforsecurity=True):
    return HASH("sha256", string)


def sha384(string=b"", *, usedforsecurity=True):
    return HASH("sha384", string)


def sha512(string=b"", *, usedforsecurity=True):
    return HASH("sha512", string)
