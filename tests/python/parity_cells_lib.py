"""Cells of tests/python/test_cpython_parity.py: the libraries (the stdlib, IPython's escapes
and magics, NumPy). Each entry is (short name, source); the expected output is whatever
CPython/NumPy print for it in the same test run."""

# Point 5: the stdlib
STDLIB = [
    ("functools_partial_reduce", """
import functools, operator
base2 = functools.partial(int, base=2)
print(base2('1011'), functools.reduce(operator.mul, range(1, 6)), functools.reduce(lambda a, b: a + b, [], 'empty'))
p = functools.partial(pow, 2)
print(p(10), p.func is pow, p.args)
"""),
    ("functools_lru_cache", """
import functools
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(80), fib.cache_info())
fib.cache_clear()
print(fib.cache_info().currsize)
@functools.cache
def sq(x):
    print('computing', x)
    return x * x
print(sq(4), sq(4))
"""),
    ("functools_wraps", """
import functools
def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kw):
        print('calling', fn.__name__, args, kw)
        return fn(*args, **kw)
    return wrapper
@logged
def area(w, h=1):
    'Area of a rectangle.'
    return w * h
print(area(3, h=4), area.__name__, area.__doc__, area.__wrapped__(2))
"""),
    ("itertools_combinatorics", """
import itertools as it
print(list(it.product('ab', [1, 2])), len(list(it.product(range(3), repeat=3))))
print(list(it.permutations([1, 2, 3], 2)))
print(list(it.combinations('abcd', 2)), list(it.combinations_with_replacement('ab', 2)))
"""),
    ("itertools_streams", """
import itertools as it, operator
print(list(it.chain([1, 2], 'ab', (3,))), list(it.chain.from_iterable([[1], [2, 3]])))
print(list(it.accumulate([1, 2, 3, 4])), list(it.accumulate([1, 2, 3, 4], operator.mul)), list(it.accumulate([3, 1, 4], max)))
print(list(it.islice(it.count(10, 5), 4)), list(it.repeat('x', 3)), list(it.islice('abcdefg', 1, 6, 2)))
print(list(it.zip_longest('abc', [1], fillvalue='-')), list(it.takewhile(lambda x: x < 3, [1, 2, 5, 1])))
print([(k, list(g)) for k, g in it.groupby('aabbbc')], list(it.compress('abc', [1, 0, 1])), list(it.pairwise([1, 2, 3])))
"""),
    ("operator_module", """
import operator as op
rows = [('b', 2), ('a', 3), ('c', 1)]
print(sorted(rows, key=op.itemgetter(1)), op.itemgetter(0, 1)(rows[0]), op.add(2, 3), op.neg(4))
class O:
    size = 7
    def greet(self, who):
        return 'hi ' + who
print(op.attrgetter('size')(O()), op.methodcaller('greet', 'bob')(O()), op.truediv(7, 2), op.floordiv(7, 2))
print(op.contains([1, 2], 2), op.getitem('abc', 1), op.mod(7, 3), op.lt(1, 2), op.not_(0))
"""),
    ("collections_namedtuple", """
from collections import namedtuple
Point = namedtuple('Point', ['x', 'y'])
p = Point(1, y=2)
print(p, p.x + p.y, p[0], p._asdict(), p._replace(x=9), Point._fields, tuple(p))
x, y = p
print(x, y, p == (1, 2), isinstance(p, tuple), Point._make([5, 6]))
"""),
    ("collections_defaultdict_counter", """
from collections import defaultdict, Counter
dd = defaultdict(list)
for w in 'apple bob avocado banana cherry'.split():
    dd[w[0]].append(w)
print(dict(dd), dd['z'], len(dd))
c = Counter('mississippi')
print(c.most_common(2), c['s'], c['z'], sorted(c.elements())[:5])
c2 = Counter(a=3, b=1) + Counter(a=1, c=2)
print(c2, Counter(a=3) - Counter(a=5), c2.total())
"""),
    ("collections_ordereddict_deque", """
from collections import OrderedDict, deque
od = OrderedDict(a=1, b=2, c=3)
od.move_to_end('a')
print(list(od), od.popitem(last=False), od)
d = deque([1, 2, 3], maxlen=4)
d.appendleft(0); d.append(4)
print(d, d.maxlen)
d.rotate(1)
print(d, d.popleft(), d.pop(), list(d))
"""),
    ("textwrap_module", """
import textwrap
s = 'The quick brown fox jumps over the lazy dog and keeps running far away.'
print(textwrap.wrap(s, 20))
print(textwrap.fill(s, width=30))
print(textwrap.shorten(s, width=30), '|', textwrap.shorten('Hello  world', width=40))
print(textwrap.dedent('''
    def f():
        return 1
'''))
print(textwrap.indent('a\\nb\\n', '> '), end='')
"""),
    ("re_basics", """
import re
print(re.findall(r'\\d+', 'a1b22c333'), re.sub(r'(\\w+)@(\\w+)', r'\\2 at \\1', 'me@home you@work'))
m = re.match(r'(?P<key>\\w+)=(?P<val>\\d+)', 'width=42;')
print(m.group(0), m.group('key'), m.groups(), m.groupdict(), m.span(2), m.end())
print(re.split(r'[,;]\\s*', 'a, b;c,d'), re.fullmatch(r'[a-z]+', 'abc1'), bool(re.search('b+', 'abbb')))
"""),
    ("re_compiled_flags", """
import re
pat = re.compile(r'^(\\w+):\\s*(.*)$', re.MULTILINE)
text = 'Name: Ada\\nRole:  engineer\\nbad line'
print(pat.findall(text), [m.span() for m in pat.finditer(text)])
print(re.findall('hello', 'Hello HELLO hello', re.IGNORECASE), re.sub(r'\\s+', ' ', ' a \\t b\\n'))
print(re.findall(r'\\w+(?=!)', 'wow! nice. yes!'), re.sub(r'\\d', lambda m: str(int(m.group()) * 2), 'a1b4'))
print(re.escape('a.b*c'), pat.pattern[:6], re.subn('a', 'o', 'banana'))
"""),
    ("re_pos_endpos", """
import re
p = re.compile('a')
print(p.search('bab', 1), p.search('bab', 2), p.match('ba', 1), p.findall('aaaa', 1, 3), p.search('bab', endpos=1))
for call in (lambda: p.search('bab', pos=None), lambda: p.findall('aaa', None, 2), lambda: p.match('a', 0, None)):
    try:
        call()
    except TypeError as e:
        print(e)
"""),
    ("textwrap_indent_dedent_args", r"""
import textwrap
print(repr(textwrap.indent('a\n\n b\n', '> ', lambda l: True)), repr(textwrap.indent('a\n\n b\n', '> ')), repr(textwrap.indent('x\ny', '# ', predicate=lambda l: l.startswith('y'))))
for call in (lambda: textwrap.dedent(), lambda: textwrap.dedent('a', 'b'), lambda: textwrap.indent('a'), lambda: textwrap.dedent(5), lambda: textwrap.indent('a', 5)):
    try:
        call()
    except TypeError as e:
        print(e)
print(repr(textwrap.dedent(text='  a\n  b')))
"""),
    ("warnings_signatures", """
import warnings
for f in (lambda: warnings.warn(), lambda: warnings.filterwarnings(), lambda: warnings.simplefilter(), lambda: warnings.resetwarnings(1), lambda: warnings.warn('x', UserWarning, 1, None, 5), lambda: warnings.simplefilter('ignore', bogus=1)):
    try:
        f()
    except TypeError as e:
        print(e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    warnings.warn('careful', UserWarning)
    warnings.warn(message='two', category=DeprecationWarning, stacklevel=2)
    warnings.filterwarnings('ignore', message='skip.*')
    warnings.warn('skip me')
    warnings.warn('keep me')
print([(type(x.message).__name__, str(x.message)) for x in w])
warnings.resetwarnings()
"""),
    ("re_error", "import re\nre.compile('(unclosed')\n"),
    ("re_lookaround", r"""
import re
print(re.findall(r'\w+(?=!)', 'wow! nice. yes!'), re.findall(r'\b\w+\b(?![!.])', 'wow! nice. yes ok'))
print(re.findall(r'(?<=\$)\d+', 'cost $12, $7 and 9'), re.findall(r'(?<!\$)\b\d+', 'cost $12, $7 and 9'))
print(re.sub(r'(?<=a)b', 'X', 'abab cb'), re.split(r'(?<=[.!?]) ', 'Hi. You! Ok? yes'))
print(re.findall(r'(?i)(?<=A)b', 'ab AB'), re.findall(r'^(?=.*\d)\w+$', 'abc\na1c\n1', re.M))
print(re.compile(r'(?<!ab|cd)x').findall('abx cdx eex'), re.fullmatch(r'(?>a+)b', 'aab'), re.search(r'(?<=é)(.)', 'café!'))
print(re.findall('(?x) (\\d+)  # digits\n   (?= \\s* kg )  # look ahead', '3 kg 4 lb 12kg'))
try:
    re.compile(r'(?<=a+)b')
except re.error as e:
    print('error:', e)
"""),
    ("re_empty_matches", r"""
import re
print(re.sub('x*', '-', 'abxd'), re.findall(r'\d*', 'a12b'), re.split(r'\b', 'hi you'), re.findall(r'a{,2}', 'aaa'))
print(re.split(r'x*', 'axbc'), re.subn(r'(?=b)|c', '#', 'abcbé'), [m.span() for m in re.finditer(r'\w*', 'ab cé')], re.sub('', '-', 'éa'))
print(re.findall(r'(?<=a)|b', 'abab'), re.split(r'(?=[A-Z])', 'HelloWorldFoo'), re.findall('^', 'a\nb', re.M))
"""),
    ("re_backrefs", r"""
import re
print(re.findall(r'(\w)\1', 'hello bookkeeper'), re.search(r'\b(\w+) \1\b', 'it is is fine').group(1))
m = re.match(r'(?P<q>[\'"]).*?(?P=q)', '"quoted" rest')
print(m.group(), m.group('q'), m.span(), m.groupdict())
print(re.sub(r'(\w+)@(\w+)', r'\g<2> at \g<1>', 'me@home'), re.sub(r'(?P<w>\w+)', r'<\g<w>>', 'a bc'))
print(re.sub(r'(a)|b', r'[\1]', 'ab'), re.subn(r'(\d)(?=(\d{3})+$)', r'\1,', '1234567'))
print(repr(re.sub(r'(\w)(\w)', r'\2\1\n', 'abcd')), re.sub('(o)', r'\g<0>\\\1\t.', 'fo'))
for p in [r'(a)\2', r'(a\1)', r'(?P=x)', r'\1']:
    try:
        re.compile(p)
    except re.error as e:
        print('error:', e)
for rep in [r'\g<x>', r'\2', r'\g<2>', r'\g', r'\q', r'\g<1a>']:
    try:
        print(re.sub('(a)', rep, 'ab'))
    except (re.error, IndexError) as e:
        print(type(e).__name__, e)
"""),
    ("re_compiled_pos_endpos", r"""
import re
p = re.compile(r'\w+')
print(p.search('hello world', 3), p.search('hello world', 3, 8), p.match('hello world', 6), p.match('hello world', 5))
print(p.fullmatch('hello world', 6), p.fullmatch('hello world', 0, 5), p.fullmatch('hello world', 0, 6))
print(p.findall('ab cd ef', 1, 7), [m.span() for m in p.finditer('ab cd ef', -5, 100)], p.search('abc', 5), p.search('abc', 2, 1), p.findall('abc', 2, 1))
print(re.compile('^a').search('ba', 1), re.compile('a$').search('ab', 0, 1), re.compile(r'\bb').search('ab', 1), re.compile('(?<=a)b').match('ab', 1))
m = p.search('héllo wörld', 3, 9)
print(m, m.pos, m.endpos, m.string, m.re, m.span(), m.re is p)
print(re.compile(r'\d+$').search('12 34', endpos=2), p.search('hello', pos=2, endpos=4), re.compile(r'(\d)(\d)?').findall('1 23 4', 2))
print(repr(re.compile(r'\w+', re.I | re.M)), re.compile("it's"), re.compile('a\tb', re.S | re.X | re.A))
"""),
    ("re_dollar_newline_lookbehind", r"""
import re
print(re.search('a$', 'a\n'), re.search('a$', 'a\n\n'), re.findall('$', 'a\nb\n'), repr(re.sub('$', 'X', 'ab\n')))
print(re.match(r'\w+$', 'word\n'), re.fullmatch('x$', 'x\n'), re.search(r'[$]', 'a$\n'), re.findall(r'(\d)$', '1\n2\n'), re.findall(r'(?m)(\d)$', '1\n2\n'))
print(re.split(r'\s*$', 'a \nb \n'), re.search(r'a\Z', 'a\n'), re.compile('a$').search('a\nb', 0, 2), re.findall(r'[^]$]+$', 'a]b\n'))
for p in ['(?<=a|bc)x', '(?<!ab|c)x', '(?<=(a|bc))x', '(?<=a{1,2})x']:
    try:
        re.compile(p)
    except re.error as e:
        print(p, e)
print(re.findall('(?<=a|b)x', 'ax bx cx'), re.findall(r'(?<=\b)x', 'x ax'), re.findall(r'(?<=a{2})x', 'aax ax'))
"""),
    ("os_path", """
import os, os.path
print(os.path.join('data', 'raw', 'x.csv'), os.path.splitext('arch.tar.gz'), os.path.basename('/a/b/c.txt'))
print(os.path.dirname('/a/b/c.txt'), os.path.split('/a/b'), os.path.isabs('/x'), os.path.isabs('x'))
print(os.path.normpath('a//b/../c/.'), os.path.exists('surely-not-here'), os.sep, os.path.expanduser('~') == os.environ['HOME'])
"""),
    ("os_files", """
import os
os.makedirs('osdir/sub', exist_ok=True)
os.makedirs('osdir/sub', exist_ok=True)
for n in ['b.txt', 'a.txt']:
    with open(os.path.join('osdir', n), 'w') as f:
        f.write(n)
print(sorted(os.listdir('osdir')), os.path.isdir('osdir/sub'), os.path.isfile('osdir/a.txt'), os.path.getsize('osdir/a.txt'))
os.remove('osdir/a.txt')
os.rename('osdir/b.txt', 'osdir/c.txt')
print(sorted(os.listdir('osdir')), os.environ.get('NO_SUCH_VAR_X', 'unset'), os.getcwd() == os.path.abspath('.'))
try:
    os.makedirs('osdir/sub')
except FileExistsError as e:
    print(type(e).__name__, e.errno)
"""),
    ("pathlib_paths", """
from pathlib import Path
p = Path('data') / 'raw' / 'table.v2.csv'
print(p, p.name, p.stem, p.suffix, p.suffixes, p.parent, p.parts, p.with_suffix('.json'))
print(Path('/a/b').is_absolute(), Path('a/b').joinpath('c'), Path('x.txt').with_name('y.md'), repr(Path('q')))
"""),
    ("pathlib_files", """
from pathlib import Path
d = Path('pdir')
d.mkdir(exist_ok=True)
(d / 'one.txt').write_text('hello\\nworld\\n')
(d / 'two.txt').write_bytes(b'\\x00\\x01')
(d / 'skip.md').write_text('x')
print((d / 'one.txt').read_text().splitlines(), (d / 'two.txt').read_bytes(), (d / 'one.txt').exists())
print(sorted(p.name for p in d.glob('*.txt')), sorted(p.name for p in d.iterdir()), (d / 'one.txt').is_file(), d.is_dir())
(d / 'skip.md').unlink()
print((d / 'skip.md').exists(), (d / 'one.txt').stat().st_size)
"""),
    ("json_roundtrip", """
import json
data = {'b': [1, 2.5, None, True], 'a': {'x': 'é'}, 'c': 'q"uote'}
s = json.dumps(data)
print(s)
print(json.dumps(data, indent=2, sort_keys=True))
print(json.loads(s) == data, json.loads('[1, "a", {"k": false}]'), json.dumps('é', ensure_ascii=False))
print(json.dumps((1, 2)), json.dumps({1: 'int key'}), json.loads('3.0'), json.dumps(float('nan')))
"""),
    ("json_errors", """
import json
try:
    json.dumps({1, 2})
except TypeError as e:
    print('TypeError:', e)
try:
    json.loads('{"a": 1,}')
except json.JSONDecodeError as e:
    print(type(e).__name__, isinstance(e, ValueError), e.msg, e.pos)
json.loads('[1, 2')
"""),
    ("json_file", """
import json
with open('cfg.json', 'w') as f:
    json.dump({'n': 3, 'names': ['a', 'b']}, f)
with open('cfg.json') as f:
    print(json.load(f))
"""),
    ("random_seeded", """
import random
random.seed(42)
print(random.random(), random.randint(1, 100), random.choice('abcdef'), random.uniform(1, 2))
xs = list(range(10))
random.shuffle(xs)
print(xs, random.sample(range(100), 5), random.randrange(0, 50, 5))
random.seed(7)
print([random.randint(0, 9) for _ in range(8)], random.choices('xyz', k=4))
"""),
    ("random_gauss", """
import random
random.seed(1)
print(round(random.gauss(0, 1), 12), round(random.normalvariate(5, 2), 12), round(random.expovariate(2), 12))
r = random.Random(3)
print(r.random(), r.randint(0, 1000))
"""),
    ("string_module", """
import string
print(string.ascii_lowercase, string.ascii_uppercase[:5], string.digits, string.hexdigits)
print(string.punctuation, string.capwords('hello big   world'))
t = string.Template('$who likes ${what}s')
print(t.substitute(who='Ann', what='cat'), t.safe_substitute(who='Bo'))
"""),
    ("str_methods", """
s = '  Hello, World  '
print(s.strip(), s.lower(), s.split(','), ','.join(['a', 'b']), s.replace('l', 'L', 2))
print('abc'.center(9, '*'), 'x'.zfill(4), 'a-b-c'.rsplit('-', 1), 'Title case'.title(), 'ab'.startswith(('x', 'a')))
print('hello'.find('l'), 'hello'.rfind('l'), 'hello'.count('l'), 'a,b'.partition(','), 'ß'.upper(), 'abc'[::-1])
print('{:>6}|{:<6}|{:^6}|'.format('r', 'l', 'c'), '{0}{1}{0}'.format('a', 'b'), '{name}!'.format(name='x'))
"""),
    ("copy_module", """
import copy
a = [[1, 2], {'k': [3]}]
s = copy.copy(a)
d = copy.deepcopy(a)
a[0].append(99)
a[1]['k'].append(4)
print(s, d, s[0] is a[0], d[0] is a[0])
class C:
    def __init__(self):
        self.items = [1]
c = C()
c2 = copy.deepcopy(c)
c2.items.append(2)
print(c.items, c2.items)
"""),
    ("exec_eval", """
print(eval('1 + 2 * 3'), eval('x * 2', {'x': 21}), eval('a + b', {}, {'a': 1, 'b': 2}))
ns = {}
exec('def f(n):\\n    return n + 1\\ny = f(41)', ns)
print(ns['y'], ns['f'](1), sorted(k for k in ns if not k.startswith('__')))
exec('z = 5')
print(z, eval('[i ** 2 for i in range(4)]'))
"""),
    ("eval_syntax_error", """
try:
    eval('1 +')
except SyntaxError as e:
    print(type(e).__name__, e.msg)
"""),
    ("open_text", """
with open('notes.txt', 'w', encoding='utf-8') as f:
    f.write('first line\\n')
    print('second line', file=f)
    f.writelines(['third\\n', 'fourth'])
with open('notes.txt', 'a') as f:
    n = f.write('\\nfifth é')
print(n)
with open('notes.txt', encoding='utf-8') as f:
    print(f.readline(), end='')
    print(f.readlines())
with open('notes.txt') as f:
    print([ln.rstrip() for ln in f], f.closed)
print(f.closed, open('notes.txt').read().count('\\n'))
"""),
    ("open_binary", """
data = bytes(range(250, 256)) + b'abc'
with open('blob.bin', 'wb') as f:
    print(f.write(data))
with open('blob.bin', 'rb') as f:
    head = f.read(2)
    rest = f.read()
print(head, rest, len(head + rest), list(head), data.hex(), b'abc'.decode())
with open('blob.bin', 'rb') as f:
    f.seek(6)
    print(f.read(), f.tell())
"""),
    ("open_missing", "open('no_such_file.txt')\n"),
    ("textwrap_wrap_fill_shorten_args", """
import textwrap
print(textwrap.wrap(text="one two three four", width=9), textwrap.fill("one two three", 7, initial_indent="> "))
print(textwrap.shorten("Hello   there  world, how are you", 20), textwrap.shorten(width=12, text="a b c d e f g h"))
for call in [lambda: textwrap.wrap(), lambda: textwrap.wrap("a b", 5, 6), lambda: textwrap.shorten("abc"),
             lambda: textwrap.wrap(5), lambda: textwrap.fill("x", foo=1), lambda: textwrap.wrap("a", 3, width=4)]:
    try:
        print(call())
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
"""),
    ("time_platform_sys_signatures", """
import time, platform, sys
print(type(time.perf_counter()).__name__, type(time.perf_counter_ns()).__name__, time.sleep(0), platform.system())
for call in [lambda: time.perf_counter(1), lambda: time.monotonic(x=1), lambda: time.sleep(), lambda: time.sleep(0, 1),
             lambda: time.sleep(seconds=0), lambda: time.time(2), lambda: platform.machine(1), lambda: platform.system(x=1),
             lambda: sys.getrecursionlimit(5), lambda: sys.setrecursionlimit(), lambda: sys.setrecursionlimit(new_limit=50),
             lambda: sys.setrecursionlimit(2.5), lambda: sys.setrecursionlimit(0), lambda: time.sleep(-1), lambda: time.sleep("1")]:
    try:
        print(call())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
"""),
    ("capwords_copy_signatures", """
import string, copy
print(string.capwords(" hello   big  world "), string.capwords("a-b-c", sep="-"), string.capwords(s="x y"))
print(copy.deepcopy([1, [2, 3]], {}), copy.copy(x={1: 2}), copy.deepcopy(x=(1, [2])))
for call in [lambda: string.capwords(5), lambda: string.capwords(), lambda: string.capwords("a", "b", "c"),
             lambda: copy.copy(), lambda: copy.copy(1, 2), lambda: copy.deepcopy(), lambda: copy.deepcopy(1, y=2)]:
    try:
        print(call())
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
"""),
    ("dict_set_keys_by_hash_then_eq", """
class K:
    def __init__(self, v, h):
        self.v, self.h = v, h
    def __eq__(self, o):
        return isinstance(o, K) and self.v == o.v
    def __hash__(self):
        return self.h
a, b = K(1, 10), K(1, 20)
d = {a: 'a', b: 'b'}
print(len(d), d[a], d[b], a == b, d[K(1, 20)])
s = {a, b, K(1, 10)}
print(len(s), K(1, 20) in s, K(1, 30) in s)
class Never:
    def __eq__(self, o):
        return False
    def __hash__(self):
        return 7
n = Never()
print({n: 1}[n], n in {n}, Never() in {n}, len({n, Never()}))
class One:
    def __hash__(self):
        return 1
    def __eq__(self, o):
        return o == 1
print({1: 'int'}[One()], One() in {1, 2}, {One(): 'x'}.get(1), {One(): 'x'}.get(2))
calls = []
class C:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        calls.append((self.v, o.v))
        return o.v == self.v
    def __hash__(self):
        return self.v % 3
d = {}
for i in range(9):
    d[C(i)] = i
print(len(d), d[C(4)], calls)
"""),
    ("dict_set_key_errors", """
class Bad:
    def __hash__(self):
        raise ValueError('no hash')
for make in (lambda: {Bad(): 1}, lambda: {Bad()}, lambda: {}.get(Bad()), lambda: Bad() in {1}, lambda: {(1, Bad()): 2}):
    try:
        make()
    except ValueError as e:
        print('ValueError', e)
class BadEq:
    def __hash__(self):
        return 1
    def __eq__(self, o):
        raise KeyError('eq')
d = {BadEq(): 1}
try:
    d[BadEq()] = 2
except KeyError as e:
    print('KeyError', e, len(d))
print(d.get(2, 'absent'), len({BadEq(), 2} - {2}))
for make in (lambda: {[1]: 2}, lambda: {(1, [2]): 2}, lambda: {(1, {}): 2}, lambda: set([[1]])):
    try:
        make()
    except TypeError as e:
        print('TypeError', e)
hashes = []
class H:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        hashes.append(self.v)
        return hash(self.v)
    def __eq__(self, o):
        return isinstance(o, H) and o.v == self.v
a = {H(1), H(2)}
b = {H(2), H(3)}
print(sorted(hashes))
hashes.clear()
print(len(a | b), len(a & b), len(a - b), len(a ^ b), a <= b, a.isdisjoint(b), hashes)
d = {H(1): 1}
d[H(1)] = 2
print(d.get(H(1)), H(1) in d, hashes)
"""),
    ("dict_set_order_growth_mutation", """
d = {}
for i in range(1000):
    d[i] = i
for i in range(0, 1000, 3):
    del d[i]
for i in range(0, 30, 3):
    d[i] = -i
print(len(d), list(d)[:5], list(d)[-5:], sum(d.values()))
for n in (0, 1, 5, 8, 9, 100, 4097):
    t = {str(i): i for i in range(n)}
    u = set(range(n))
    print(n, len(t), len(u), all(t[str(i)] == i for i in range(n)), all(i in u for i in range(n)), n in u, str(n) in t)
d = {'a': 1, 'b': 2, 'c': 3}
del d['a']
d['a'] = 4
d.pop('b')
d['b'] = 5
print(d, list(d.items()), d.popitem(), d)
s = set()
for i in range(50):
    s.add(i)
for i in range(0, 50, 2):
    s.discard(i)
for i in range(0, 10, 2):
    s.add(i)
print(len(s), sorted(s)[:8], 4 in s, 12 in s)
for k in range(20):
    d = {i: i for i in range(k)}
    for i in range(k):
        del d[i]
        d[i] = i * 2
    assert list(d) == list(range(k)) and all(d[i] == i * 2 for i in range(k))
d = {1: 1, 2: 2}
try:
    for k in d:
        d[k + 10] = 0
except RuntimeError as e:
    print('RuntimeError', e)
s = {1, 2}
try:
    for k in s:
        s.add(k + 10)
except RuntimeError as e:
    print('RuntimeError', e)
d = {1: 1, 2: 2}
for k in d:
    d[k] = 5
print(d)
"""),
]

# Point 6: IPython
IPYTHON = [
    ("shell_echo", "!echo hello from the shell\n"),
    ("shell_capture", "x = !echo hi\nprint(x, len(x), x[0])\n"),
    ("shell_capture_lines", "lines = !printf 'a\\nb\\nc\\n'\nprint(list(lines), len(lines))\n"),
    ("shell_interpolation", "name = 'world'\nn = 3\n!echo hello {name} {n * 2}\n!echo dollar $name\n"),
    ("shell_in_loop", "for i in range(2):\n    !echo loop {i}\n"),
    ("writefile_magic", "%%writefile helper_script.py\nGREETING = 'from the script'\nprint(GREETING, 6 * 7)\n"),
    ("run_magic", "%run helper_script.py\nprint(GREETING.upper())\n"),
    ("shell_cat_after_writefile", "!cat helper_script.py\n"),
    ("env_magic", "%env PARITY_VAR=forty-two\nimport os\nprint(os.environ['PARITY_VAR'])\n"),
    ("env_magic_read", "v = %env PARITY_VAR\nprint(v)\n"),
    ("bash_magic", "%%bash\necho from bash\nfor i in 1 2; do echo $i; done\n"),
    ("pwd_magic", "import os\np = %pwd\nprint(p == os.getcwd())\n"),
]


# Point 7: NumPy
NUMPY = [
    ("np_linalg_norm", """
import numpy as np
v = np.array([3.0, 4.0])
m = np.array([[1.0, 2.0], [3.0, 4.0]])
print(np.linalg.norm(v), np.linalg.norm(m), np.linalg.norm(v, 1), np.linalg.norm(v, np.inf))
print(np.linalg.norm(m, axis=0), np.linalg.norm(m, axis=1), np.linalg.norm(m, 'fro'), np.linalg.norm([1, 2, 2]))
"""),
    ("np_linalg_inv_solve_det", """
import numpy as np
a = np.array([[4.0, 7.0], [2.0, 6.0]])
print(np.linalg.inv(a))
print(np.linalg.det(a), np.linalg.det(np.array([[1, 2], [3, 4]])), np.linalg.det(np.eye(3)))
x = np.linalg.solve(a, np.array([1.0, 2.0]))
print(x, np.allclose(a @ x, [1, 2]), np.round(a @ np.linalg.inv(a), 12))
"""),
    ("np_linalg_singular", """
import numpy as np
try:
    np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))
except np.linalg.LinAlgError as e:
    print(type(e).__name__, e, isinstance(e, ValueError))
np.linalg.solve(np.zeros((2, 2)), np.ones(2))
"""),
    ("np_matmul_dot", """
import numpy as np
a = np.arange(6).reshape(2, 3)
b = np.arange(6).reshape(3, 2)
print(a @ b, np.matmul(a, b).dtype, np.dot(a, b).tolist(), a.dot(b).shape)
print(np.dot([1, 2, 3], [4, 5, 6]), np.arange(3) @ np.ones(3), (a * 1.5) @ b)
"""),
    ("np_matmul_mismatch", "import numpy as np\nnp.ones((2, 3)) @ np.ones((2, 3))\n"),
    ("np_tile_repeat", """
import numpy as np
print(np.tile([1, 2], 3), np.tile(np.array([[1, 2]]), (2, 2)), np.tile(np.arange(3), (2, 1)).shape)
print(np.repeat([1, 2], 2), np.repeat(np.array([[1, 2], [3, 4]]), 2, axis=0).tolist())
"""),
    ("np_fmod_copysign_nextafter", """
import numpy as np
print(np.fmod([-7, 7], 3), np.mod([-7, 7], 3), np.fmod(-7.5, 2), np.remainder(-7.5, 2))
print(np.copysign([1.0, 2.0], [-1, 1]), np.copysign(3, -0.0), np.nextafter(1.0, 2.0) - 1.0, np.nextafter(np.float32(1), np.float32(0)))
"""),
    ("np_finfo_iinfo", """
import numpy as np
print(np.finfo(np.float64).eps, np.finfo(np.float32).eps, np.finfo(np.float32).max, np.finfo(float).tiny)
print(np.iinfo(np.int16).max, np.iinfo(np.int16).min, np.iinfo(np.uint8).max, np.iinfo(np.int64).min, np.iinfo('int32').bits)
print(np.finfo(np.float16).bits, np.finfo(np.float64).dtype, np.iinfo(np.uint32).dtype)
"""),
    ("np_float16", """
import numpy as np
a = np.array([0.1, 1.5, 65504, 1e-5, -2.25], dtype=np.float16)
print(a, a.dtype, a.itemsize, a.nbytes, np.dtype('e'), np.dtype(np.half).char, np.dtype('f2').str)
x = np.float16(0.1)
print(x, repr(x), float(x), x * 2, type(x * 2).__name__, x + np.float32(1), repr(x + 1.0), repr(x + 1))
b = np.arange(5, dtype=np.float16) / 3
print(b, b.sum(), b.sum().dtype, b.mean(), b.max(), np.sqrt(b), b.cumsum(), b.tolist())
print(np.sqrt(np.arange(4, dtype=np.int8)).dtype, np.sin(np.array([True, False])), (np.arange(3, dtype=np.uint8) + np.float16(1)).dtype)
print((np.arange(3, dtype=np.int16) + np.float16(1)).dtype, (np.arange(3, dtype=np.int32) + np.float16(1)).dtype, np.result_type(np.float16, np.int8, 1.5))
print(np.array([1.0009765625, 2049]).astype(np.float16), np.float16(3.7).astype(np.int32), np.float16(1) / np.float16(3), np.nextafter(np.float16(1), np.float16(2)))
print(np.linspace(0, 1, 7).astype(np.float16), np.array([1000, 2], dtype=np.float16), np.array([2e6, 1e6], dtype=np.float32), str(np.float16(1000)), np.float16(1e-7))
print(np.arange(0, 1, 0.1, dtype=np.float16), np.modf(np.float16(2.75)), np.float16(7) // np.float16(2), np.float16(-7) % np.float16(2), repr(np.finfo(np.float16)))
"""),
    ("np_copyto", """
import numpy as np
a = np.zeros(3)
np.copyto(a, [1, 2, 3], where=[True, False, True]); print(a)
b = np.zeros(3, dtype=np.int64)
for dst, src in [(b, 1.5), ([1, 2], a), (b, np.ones(3)), (a, np.array([1+2j, 3j]))]:
    try:
        np.copyto(dst, src)
    except TypeError as e:
        print(e)
np.copyto(b, 7); np.copyto(a, 5, where=a > 1); print(b, a)
d = np.zeros((2, 3), dtype=np.float32)
np.copyto(d, np.arange(3)); np.copyto(b, np.array([1.7, -2.5, 3.2]), casting='unsafe')
print(d, d.dtype, b)
"""),
    ("np_flags", """
import numpy as np
a = np.arange(6).reshape(2, 3)
print(a.flags.c_contiguous, a.flags.f_contiguous, a.T.flags.c_contiguous, a.T.flags.f_contiguous)
print(a[:, ::2].flags.c_contiguous, a.flags['C_CONTIGUOUS'], a.flags.writeable, a[0].flags.owndata, a.flags.owndata)
a.flags.writeable = False
try:
    a[0, 0] = 5
except ValueError as e:
    print('ValueError:', e)
print(a[0, 0])
"""),
    ("np_asfortranarray", """
import numpy as np
a = np.arange(6).reshape(2, 3)
f = np.asfortranarray(a)
print(f.flags.f_contiguous, f.flags.c_contiguous, np.array_equal(a, f), f.strides, a.strides)
c = np.ascontiguousarray(f.T)
print(c.flags.c_contiguous, c.tolist(), np.asfortranarray(np.arange(3)).flags.f_contiguous)
"""),
    ("np_testing_almost_equal", """
import numpy as np
np.testing.assert_array_almost_equal([1.0, 2.0], [1.0, 2.0000001])
np.testing.assert_allclose([1.0, 2.0], [1.0, 2.0 + 1e-9])
np.testing.assert_array_equal(np.arange(3), [0, 1, 2])
try:
    np.testing.assert_array_almost_equal([1.0, 2.0, 3.1], [1.0, 2.0, 3.0])
except AssertionError as e:
    lines = str(e).strip().splitlines()
    print(type(e).__name__, lines[0], lines[2])
print('done')
"""),
    ("np_uint8_overflow", "import numpy as np\nnp.array([300], dtype=np.uint8)\n"),
    ("np_int_overflow_cases", """
import numpy as np
for f in [lambda: np.array([-1], dtype=np.uint16), lambda: np.int8(200), lambda: np.uint8(3) + 300,
          lambda: np.array([2**64], dtype=np.int64)]:
    try:
        print(f())
    except OverflowError as e:
        print('OverflowError:', e)
print(np.array([255], dtype=np.uint8) + 1, np.array([1.5, 2.7]).astype(np.uint8))
"""),
    ("np_random_seeded", """
import numpy as np
np.random.seed(0)
print(np.random.rand(3))
print(np.random.randint(0, 10, size=5), np.random.permutation(5))
a = np.arange(6)
np.random.shuffle(a)
print(a, np.random.choice(5, 3), np.random.choice(['a', 'b', 'c']))
"""),
    ("np_random_generator", """
import numpy as np
rng = np.random.default_rng(42)
print(rng.integers(0, 10, 5), rng.random(2), rng.permutation(4))
"""),
    ("np_scalar_aliases", """
import numpy as np
print(np.dtype(np.byte), np.dtype(np.ubyte), np.dtype(np.short), np.dtype(np.intc), np.dtype(np.int_), np.dtype(np.longlong))
print(np.dtype(np.single), np.dtype(np.double), np.dtype(np.csingle), np.dtype(np.uint), np.dtype(np.half), np.float64 is np.double)
"""),
    ("np_shapes", """
import numpy as np
a = np.array(range(6))
print(a, a.dtype, a.shape)
a.shape = (2, 3)
print(a, a.ndim, a.size, a.T.shape, a.reshape(-1, 2).shape, a.ravel(), np.array(range(0)).shape)
try:
    a.reshape(4)
except ValueError as e:
    print(e)
"""),
    ("np_axis_error", """
import numpy as np
try:
    np.sum(np.ones(3), axis=2)
except ValueError as e:
    print(type(e).__name__, e)
np.ones((2, 2)).mean(axis=-3)
"""),
    ("np_nan_inf_to_int", """
import numpy as np
import warnings
warnings.simplefilter('ignore')
print(np.array([1.9, -1.9]).astype(np.int32), np.array([np.inf]).astype(np.float32))
try:
    np.array([1, 2], dtype=int)[0] = np.nan
except ValueError as e:
    print('ValueError:', e)
try:
    int(np.float64('nan'))
except ValueError as e:
    print('ValueError:', e)
try:
    int(float('inf'))
except OverflowError as e:
    print('OverflowError:', e)
"""),
    ("np_printing_dtypes", """
import numpy as np
print(np.arange(3) * 1.5, (np.arange(3) * 1.5).dtype, np.arange(3) / 2, np.array([1, 2]) // 2)
print(np.linspace(0, 1, 5), np.array([1e-10, 1.0]), np.array([True, False]), np.array(['a', 'bc']))
print(np.float32(0.1), np.float64(0.1) * 3, np.int64(7) // 2, np.array([1, 2]).sum().dtype, repr(np.float64(1.5)))
"""),
    ("np_broadcast_error", "import numpy as np\nnp.ones(3) + np.ones(4)\n"),
    ("np_argwhere_flatnonzero", """
import numpy as np
a = np.array([[0, 3, 0], [4, 0, 5]])
print(np.argwhere(a), np.argwhere(a).shape, np.argwhere(a).dtype)
print(np.argwhere(a > 10).shape, np.argwhere(np.arange(5) % 2 == 0))
print(np.argwhere(np.float64(2.0)).shape, np.argwhere(0).shape, np.argwhere(np.zeros((2, 0, 3))).shape)
print(np.flatnonzero(a), np.flatnonzero([0.0, -1.5, 0.0, 2.0]), np.flatnonzero(np.zeros(3)).dtype)
"""),
    ("np_real_imag_angle_conj", r"""
import numpy as np
c = np.array([1+2j, -3-4j, 0.5j])
f = np.array([1.5, -2.0, 0.0])
print(np.real(c), np.imag(c), np.real(f), np.imag(f), np.real([1+2j, 3]), np.imag([1, 2]))
print(repr(np.real(3)), repr(np.imag(3)), repr(np.real(1+2j)), repr(np.imag(2.5)), repr(np.real(np.complex64(1-2j))), repr(np.imag(np.float32(2))), repr(np.imag(True)))
print(np.angle(c), np.angle(c, deg=True), np.angle(f), np.angle([1, -1, 1j]), repr(np.angle(1j)), repr(np.angle(-2, deg=True)))
print(np.angle(c.astype(np.complex64)), np.angle(np.float32([1, -1])), np.angle(c.astype(np.complex64), deg=True))
print(np.conj(c), np.conjugate(c), repr(np.conj(1+2j)), repr(np.conj(3)), np.conj([1, 2]), np.conj(f), np.conj(c.astype(np.complex64)))
r = np.real(c); r[0] = 9
print(c, np.real(c).dtype, np.imag(c.astype(np.complex64)).dtype, np.angle(np.array([1, 2], dtype=np.int32)).dtype)
"""),
    ("np_complex_inverse_trig", r"""
import numpy as np
z = np.array([0.5+0.5j, -2+0j, 2-0j, 3+1j, -0.3-2j, 1j, -1e-9+1j, 1e-9, 1e5-1e5j])
for f in [np.arcsin, np.arccos, np.arctan, np.arcsinh, np.arccosh, np.arctanh]:
    print(f.__name__, f(z))
print(np.arcsin(2+0j), np.arccos(np.complex64(0.5+2j)), np.arctanh(np.array([2, -2], dtype=np.complex64)), np.arcsinh(-1j))
"""),
    ("np_complex_warning", r"""
import numpy as np, warnings
c = np.array([1+2j, 3-1j])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(c.astype(np.float64), c.astype(int), c.astype(bool), np.float64(np.complex128(1+2j)), np.asarray(c, dtype=np.float32))
    f = np.zeros(2); f[:] = c; print(f, float(np.complex128(2+1j)), int(np.complex64(3+1j)))
print([(x.category.__name__, str(x.message)) for x in w], issubclass(np.exceptions.ComplexWarning, RuntimeWarning))
def store():
    f[0] = 1j
for bad in [lambda: np.float64(1+2j), lambda: np.array([1, 1+2j], dtype=float), lambda: np.array([1+2j], dtype=int), store]:
    try:
        bad()
    except TypeError as e:
        print(e)
with warnings.catch_warnings():
    warnings.simplefilter('error', np.exceptions.ComplexWarning)
    try:
        c.astype(np.float32)
    except np.exceptions.ComplexWarning as e:
        print('raised', e)
"""),
    ("np_type_alias_identity", """
import numpy as np
print(np.float64 is np.double, np.int_ is np.int64, np.intp is np.int64, np.longlong is np.int64, np.bool_ is np.bool)
print(np.single is np.float32, np.cdouble is np.complex128, np.uint is np.uint64, np.float32 is np.float64)
"""),
    ("np_sort_unique_histogram_options", """
import numpy as np
a=np.array([[3,1,2],[9,7,8]])
print(np.sort(a,axis=0)); print(np.sort(a,axis=None)); print(np.argsort(a,axis=0)); print(np.sort(a, axis=1))
b=np.array([[3,1,1],[2,3,np.nan],[np.nan,0,3]])
print(np.unique(b, return_index=True, return_inverse=True, return_counts=True))
print(np.unique([2,1,2,5], return_counts=True))
print(np.unique(b, equal_nan=False))
print(np.histogram([1,2,2,3,4], bins=3, weights=[1,2,3,4,5]))
print(np.histogram([1,2,2,3,4], bins=3, density=True))
print(np.histogram([1,2,2,3,4], bins=[0,1,3,5], weights=np.array([1,2,3,4,5]), density=True))
print(np.histogram([1,2,2,3,4], bins=3, weights=np.array([1,2,3,4,5],dtype=np.int32)))
print(np.count_nonzero([[0,1,2],[0,0,3]], axis=0), np.count_nonzero([[0,1,2],[0,0,3]], axis=1, keepdims=True), np.count_nonzero([[0,1,2],[0,0,3]]))
c = np.array([[5, 2], [1, 4]]); c.sort(axis=0); print(c)
print(np.unique(np.array([[1, 1], [2, 7]])))
"""),
    ("np_unary_loops_of_bool_and_ints", """
import numpy as np
b = np.array([True, False])
for f in ["square", "positive", "absolute", "sign", "negative", "invert", "reciprocal", "floor", "conjugate"]:
    try:
        r = getattr(np, f)(b)
        print(f, r.dtype, r)
    except TypeError as e:
        print(f, type(e).__name__, e)
for dt in [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64]:
    print(np.dtype(dt).name, np.reciprocal(np.array([0, 1, 2, 1, 3], dtype=dt)), np.reciprocal(np.array([5], dtype=dt)))
print(np.reciprocal(np.array([-1, -2, 1], dtype=np.int32)))
"""),
    ("np_fmax_fmin_skip_nan", """
import numpy as np
v = np.array([1.5, np.nan, -2.0, np.nan])
w = np.array([np.nan, 0.5, -3.0, np.nan])
print(np.fmax(v, w), np.fmin(v, w), np.maximum(v, w), np.fmax(np.nan, 2.0), np.fmin(3, np.array([1, 5])))
try:
    np.array([1.0]) & np.array([2.0])
except TypeError as e:
    print(e)
"""),
]
