"""Cells of tests/python/test_cpython_parity.py about `hashlib` (the md5/sha1/sha2 digests,
incremental update and copy, str and unknown-name errors), `hmac` and `uuid` (parsing, fields,
name-based uuid3/uuid5, ordering; uuid1/uuid4 are random, so only their deterministic
properties are printed), as CPython 3.11 gives them."""

PYSTD = [
    ("hashlib_digests", """
import hashlib
for n in ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"]:
    h = hashlib.new(n, b"hello"); h.update(bytearray(b" world")); c = h.copy(); c.update(b"!")
    print(h.name, h.digest_size, h.block_size, h.hexdigest(), c.hexdigest()[:20], len(h.digest()))
print(hashlib.md5().hexdigest(), hashlib.sha256(b"abc").digest()[:4], hashlib.new("SHA1", b"x").hexdigest())
"""),
    ("hashlib_errors", """
import hashlib
for bad in [lambda: hashlib.md5("abc"), lambda: hashlib.sha256().update("x"),
            lambda: hashlib.new("foo"), lambda: hashlib.sha1(123)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("hmac_digests", """
import hmac, hashlib
h = hmac.new(b"key", b"The quick brown fox", hashlib.sha256)
print(h.hexdigest(), h.name, h.digest_size, h.block_size)
print(hmac.new(b"k" * 100, b"msg", "md5").hexdigest(), hmac.digest(b"k", b"m", "sha1").hex())
g = h.copy(); g.update(b"!"); print(g.hexdigest()[:16], h.hexdigest()[:16])
print(hmac.compare_digest(b"abc", b"abc"), hmac.compare_digest("abc", "abd"), hmac.compare_digest(b"a", b"ab"))
for bad in [lambda: hmac.new(b"key", b"msg"), lambda: hmac.compare_digest("a", b"a")]:
    try:
        bad()
    except TypeError as e:
        print(e)
"""),
    ("uuid_parse_and_fields", """
import uuid
u = uuid.UUID("{12345678-1234-5678-1234-567812345678}")
print(u, repr(u), u.hex, u.int, u.urn, u.version, u.variant)
print(u.fields, u.bytes, u.bytes_le, u.time_low, u.node, u.clock_seq, u.time)
for v in [uuid.UUID("urn:uuid:12345678123456781234567812345678"), uuid.UUID(bytes=u.bytes),
          uuid.UUID(bytes_le=u.bytes_le), uuid.UUID(fields=u.fields), uuid.UUID(int=u.int)]:
    print(v == u, hash(v) == hash(u), int(v) == u.int)
w = uuid.UUID(int=5, version=4)
print(w, w.version, w > u, sorted([u, w])[0] is w, u == str(u), len({u, uuid.UUID(str(u))}))
"""),
    ("uuid_name_based_and_random", """
import uuid
print(uuid.uuid3(uuid.NAMESPACE_DNS, "python.org"), uuid.uuid5(uuid.NAMESPACE_URL, "http://x"))
print(uuid.uuid5(uuid.NAMESPACE_OID, "1.2"), uuid.uuid3(uuid.NAMESPACE_X500, "cn=a"))
r = uuid.uuid4(); t = uuid.uuid1()
print(r.version, r.variant, len(str(r)), r != uuid.uuid4(), t.version, t.variant, len(t.hex))
for bad in [lambda: uuid.UUID("xyz"), lambda: uuid.UUID(), lambda: uuid.UUID(int=-1),
            lambda: uuid.UUID(bytes=b"ab"), lambda: uuid.UUID(int=1, version=9)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""),
]
