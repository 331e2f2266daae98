"""Cells of tests/python/test_cpython_parity.py about NumPy's file formats (issue 16, point 5):
np.save/np.load (.npy bytes as NumPy writes them), np.savez/np.savez_compressed and the NpzFile
np.load returns, np.savetxt and np.loadtxt. Each cell writes into the kernel's own empty working
directory and reads its file back, so the bytes NumPy itself writes are compared too."""

NPIO = [
    ("npio_save_load_bytes", """
import numpy as np
a = np.arange(6, dtype=np.int32).reshape(2, 3)
np.save("a.npy", a)
raw = open("a.npy", "rb").read()
print(len(raw), raw[:10], raw[10:70].decode("latin-1"), raw[-24:])
b = np.load("a.npy")
print(b, b.dtype, b.shape, b.flags['C_CONTIGUOUS'])
f = np.asfortranarray(np.linspace(0, 1, 6).reshape(3, 2))
np.save("f", f)
raw = open("f.npy", "rb").read()
print(raw[10:80].decode("latin-1"))
g = np.load("f.npy")
print(g, g.flags['F_CONTIGUOUS'], (g == f).all())
for dt in ["float32", "bool", "uint8", "int64", "complex128"]:
    x = np.array([1, 0, 3], dtype=dt)
    np.save("x.npy", x)
    y = np.load("x.npy")
    print(dt, open("x.npy", "rb").read()[10:60].decode("latin-1"), y, y.dtype)
np.save("s.npy", np.float64(2.5))
print(np.load("s.npy"), np.load("s.npy").shape)
"""),
    ("npio_savez_npzfile", """
import numpy as np
a = np.arange(4)
b = np.eye(2)
np.savez("z", a, b, w=np.array([1.5, 2.5]))
with np.load("z.npz") as d:
    print(sorted(d.files))
    print(d["arr_0"], d["arr_1"], d["w"])
np.savez_compressed("c.npz", x=np.zeros((3, 3)), y=np.arange(5.0))
d = np.load("c.npz")
print(d.files, d["x"].shape, d["y"])
d.close()
try:
    np.load("z.npz")["nope"]
except KeyError as e:
    print("KeyError", e)
"""),
    ("npio_savetxt_formats", """
import numpy as np
x = np.array([[1.0, 2.5], [-3.25, 4e10]])
np.savetxt("t.txt", x)
print(open("t.txt").read())
np.savetxt("t.txt", x, fmt="%.3f", delimiter=",", header="a,b", footer="end")
print(open("t.txt").read())
np.savetxt("t.txt", x, fmt=["%d", "%10.2e"], comments="// ", header="h1\\nh2")
print(open("t.txt").read())
np.savetxt("t.txt", np.arange(3), fmt="%i", newline=";")
print(open("t.txt").read())
np.savetxt("t.txt", np.array([[1, 2], [3, 4]]), fmt="%d %d")
print(open("t.txt").read())
try:
    np.savetxt("t.txt", x, fmt="%d %d %d")
except ValueError as e:
    print("ValueError", e)
"""),
    ("npio_loadtxt_options", """
import numpy as np
open("d.txt", "w").write("# comment\\n1 2 3\\n4 5 6  # tail\\n7 8 9\\n")
print(np.loadtxt("d.txt"))
print(np.loadtxt("d.txt", dtype=int, usecols=(0, 2)))
print(np.loadtxt("d.txt", skiprows=2))
print(np.loadtxt("d.txt", skiprows=1, max_rows=2))
a, b, c = np.loadtxt("d.txt", unpack=True)
print(a, b, c)
print(np.loadtxt("d.txt", usecols=1, ndmin=2).shape)
open("c.csv", "w").write("x,y\\n1.5,2\\n3,4.25\\n")
print(np.loadtxt("c.csv", delimiter=",", skiprows=1))
open("e.txt", "w").write("1 2\\n3 x\\n")
try:
    np.loadtxt("e.txt")
except ValueError as e:
    print("ValueError", e)
open("r.txt", "w").write("1 2\\n3\\n")
try:
    np.loadtxt("r.txt")
except ValueError as e:
    print("ValueError", e)
np.savetxt("rt.txt", np.arange(6.0).reshape(2, 3) / 7)
print(np.loadtxt("rt.txt") == np.arange(6.0).reshape(2, 3) / 7)
"""),
    ("np_load_of_malformed_files_raises", """
import numpy as np
def show(path, data):
    open(path, 'wb').write(data)
    try:
        np.load(path)
    except Exception as e:
        print(path, type(e).__name__)
show('bad1.npy', b'\\x93NUMPY\\x01\\x00\\x10\\x00{garbage}       \\n')
show('bad2.npy', b'\\x93NUMPY\\x01\\x00\\xff\\xff' + b'x' * 10)
show('empty.npy', b'')
np.savez('ok.npz', a=np.arange(5))
data = open('ok.npz', 'rb').read()
show('trunc.npz', data[:len(data) // 2])
open('bad.txt', 'w').write('1 2 3\\n4 5\\nx y z\\n')
try:
    np.loadtxt('bad.txt')
except Exception as e:
    print('bad.txt', type(e).__name__)
"""),
]
