"""UUID objects (RFC 4122) and uuid1/3/4/5, as CPython's uuid, over hashlib and random."""

import hashlib as _hashlib
import random as _random
import time as _time
from enum import Enum

__all__ = ["UUID", "uuid1", "uuid3", "uuid4", "uuid5", "getnode", "SafeUUID",
           "NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID", "NAMESPACE_X500",
           "RESERVED_NCS", "RFC_4122", "RESERVED_MICROSOFT", "RESERVED_FUTURE"]

RESERVED_NCS = "reserved for NCS compatibility"
RFC_4122 = "specified in RFC 4122"
RESERVED_MICROSOFT = "reserved for Microsoft compatibility"
RESERVED_FUTURE = "reserved for future definition"

_int = int
_bytes = bytes


class SafeUUID(Enum):
    safe = 0
    unsafe = -1
    unknown = None


def _time_ns():
    return int(_time.time() * 1_000_000_000)


# uuid4's randomness must not follow the user's random.seed(), as CPython's os.urandom.
_rng = _random.Random(_time_ns() ^ id(object()))

_FIELD_BITS = (32, 16, 16, 8, 8, 48)


class UUID:
    # Not immutable as CPython's is: the interpreter has no object.__setattr__ to set the
    # fields past a refusing __setattr__.

    def __init__(self, hex=None, bytes=None, bytes_le=None, fields=None, int=None,
                 version=None, *, is_safe=SafeUUID.unknown):
        if [hex, bytes, bytes_le, fields, int].count(None) != 4:
            raise TypeError("one of the hex, bytes, bytes_le, fields, or int arguments must be given")
        if hex is not None:
            hex = hex.replace("urn:", "").replace("uuid:", "")
            hex = hex.strip("{}").replace("-", "")
            if len(hex) != 32:
                raise ValueError("badly formed hexadecimal UUID string")
            int = _int(hex, 16)
        if bytes_le is not None:
            if len(bytes_le) != 16:
                raise ValueError("bytes_le is not a 16-char string")
            bytes = (bytes_le[3::-1] + bytes_le[5:3:-1] + bytes_le[7:5:-1] + bytes_le[8:])
        if bytes is not None:
            if len(bytes) != 16:
                raise ValueError("bytes is not a 16-char string")
            int = _int.from_bytes(bytes, "big")
        if fields is not None:
            if len(fields) != 6:
                raise ValueError("fields is not a 6-tuple")
            for i, (value, bits) in enumerate(zip(fields, _FIELD_BITS)):
                if not 0 <= value < 1 << bits:
                    raise ValueError("field %d out of range (need a %d-bit value)" % (i + 1, bits))
            time_low, time_mid, time_hi_version, clock_seq_hi_variant, clock_seq_low, node = fields
            clock_seq = (clock_seq_hi_variant << 8) | clock_seq_low
            int = ((time_low << 96) | (time_mid << 80) | (time_hi_version << 64)
                   | (clock_seq << 48) | node)
        if not 0 <= int < 1 << 128:
            raise ValueError("int is out of range (need a 128-bit value)")
        if version is not None:
            if not 1 <= version <= 5:
                raise ValueError("illegal version number")
            int &= ~(0xC000 << 48)
            int |= 0x8000 << 48
            int &= ~(0xF000 << 64)
            int |= version << 76
        self.int = int
        self.is_safe = is_safe

    def __eq__(self, other):
        if isinstance(other, UUID):
            return self.int == other.int
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, UUID):
            return self.int < other.int
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, UUID):
            return self.int > other.int
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, UUID):
            return self.int <= other.int
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, UUID):
            return self.int >= other.int
        return NotImplemented

    def __hash__(self):
        return hash(self.int)

    def __int__(self):
        return self.int

    def __repr__(self):
        return "%s(%r)" % (self.__class__.__name__, str(self))

    def __str__(self):
        hex = "%032x" % self.int
        return "%s-%s-%s-%s-%s" % (hex[:8], hex[8:12], hex[12:16], hex[16:20], hex[20:])

    @property
    def bytes(self):
        return self.int.to_bytes(16, "big")

    @property
    def bytes_le(self):
        bytes = self.bytes
        return bytes[3::-1] + bytes[5:3:-1] + bytes[7:5:-1] + bytes[8:]

    @property
    def fields(self):
        return (self.time_low, self.time_mid, self.time_hi_version,
                self.clock_seq_hi_variant, self.clock_seq_low, self.node)

    @property
    def time_low(self):
        return self.int >> 96

    @property
    def time_mid(self):
        return (self.int >> 80) & 0xFFFF

    @property
    def time_hi_version(self):
        return (self.int >> 64) & 0xFFFF

    @property
    def clock_seq_hi_variant(self):
        return (self.int >> 56) & 0xFF

    @property
    def clock_seq_low(self):
        return (self.int >> 48) & 0xFF

    @property
    def time(self):
        return ((self.time_hi_version & 0x0FFF) << 48) | (self.time_mid << 32) | self.time_low

    @property
    def clock_seq(self):
        return ((self.clock_seq_hi_variant & 0x3F) << 8) | self.clock_seq_low

    @property
    def node(self):
        return self.int & 0xFFFFFFFFFFFF

    @property
    def hex(self):
        return "%032x" % self.int

    @property
    def urn(self):
        return "urn:uuid:" + str(self)

    @property
    def variant(self):
        if not self.int & (0x8000 << 48):
            return RESERVED_NCS
        if not self.int & (0x4000 << 48):
            return RFC_4122
        if not self.int & (0x2000 << 48):
            return RESERVED_MICROSOFT
        return RESERVED_FUTURE

    @property
    def version(self):
        if self.variant == RFC_4122:
            return (self.int >> 76) & 0xF
        return None


_node = None


def getnode():
    """A random 48-bit node number with the multicast bit set (RFC 4122 4.5): nbcuda does
    not read hardware addresses."""
    global _node
    if _node is None:
        _node = _rng.getrandbits(48) | (1 << 40)
    return _node


_last_timestamp = None


def uuid1(node=None, clock_seq=None):
    global _last_timestamp
    nanoseconds = _time_ns()
    timestamp = nanoseconds // 100 + 0x01B21DD213814000
    if _last_timestamp is not None and timestamp <= _last_timestamp:
        timestamp = _last_timestamp + 1
    _last_timestamp = timestamp
    if clock_seq is None:
        clock_seq = _rng.getrandbits(14)
    time_low = timestamp & 0xFFFFFFFF
    time_mid = (timestamp >> 32) & 0xFFFF
    time_hi_version = (timestamp >> 48) & 0x0FFF
    clock_seq_low = clock_seq & 0xFF
    clock_seq_hi_variant = (clock_seq >> 8) & 0x3F
    if node is None:
        node = getnode()
    return UUID(fields=(time_low, time_mid, time_hi_version, clock_seq_hi_variant,
                        clock_seq_low, node), version=1)


def _name_bytes(name):
    # CPython 3.11 encodes the name unconditionally, so a bytes name is its TypeError.
    return _bytes(name, "utf-8")


def uuid3(namespace, name):
    digest = _hashlib.md5(namespace.bytes + _name_bytes(name)).digest()
    return UUID(bytes=digest[:16], version=3)


def uuid4():
    return UUID(int=_rng.getrandbits(128), version=4)


def uuid5(namespace, name):
    digest = _hashlib.sha1(namespace.bytes + _name_bytes(name)).digest()
    return UUID(bytes=digest[:16], version=5)


NAMESPACE_DNS = UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_URL = UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_OID = UUID("6ba7b812-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_X500 = UUID("6ba7b814-9dad-11d1-80b4-00c04fd430c8")
