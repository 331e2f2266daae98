"""Cells of tests/python/test_cpython_parity.py about `match` statements, metaclasses and
`__init_subclass__`, and the `enum` module built on them (issue 16, points 2 and 5)."""

PATTERNS = [
    ("match_literals_sequences_mappings", """
def describe(x):
    match x:
        case 0 | 1:
            return "small"
        case int(n) if n < 0:
            return f"negative {n}"
        case int() | float():
            return "number"
        case str() as s:
            return "string " + s
        case [a, b]:
            return f"pair {a} {b}"
        case [first, *rest]:
            return f"first {first} rest {rest}"
        case {"x": xv, **others}:
            return f"x={xv} others={others}"
        case None:
            return "none"
        case _:
            return "other"
for v in [0, 1, -5, 3.5, "hi", [1, 2], (1, 2, 3), {"x": 1, "y": 2}, None, {1, 2}, [], "ab", range(3)]:
    print(repr(v), describe(v))
match "go north".split():
    case ["go", direction]:
        print("going", direction)
    case ["quit"]:
        print("bye")
print(direction)
match (1, [2, 3]):
    case (a, [b, *c]) if a < b:
        print(a, b, c)
match 5:
    case True:
        print("true")
    case 5.0:
        print("five float")
"""),
    ("match_class_patterns", """
from dataclasses import dataclass
from collections import namedtuple
@dataclass
class Point:
    x: int
    y: int
def where(p):
    match p:
        case Point(x=0, y=0):
            return "origin"
        case Point(0, y):
            return f"y-axis {y}"
        case Point(x, 0):
            return f"x-axis {x}"
        case Point():
            return "elsewhere"
        case _:
            return "not a point"
print([where(p) for p in [Point(0, 0), Point(0, 3), Point(2, 0), Point(1, 1), 5]], Point.__match_args__)
Pair = namedtuple('Pair', 'left right')
match Pair(1, 2):
    case (l, r):
        print('as sequence', l, r)
class C:
    pass
try:
    match C():
        case C(1):
            print("no")
except TypeError as e:
    print("TypeError", e)
match {"a": 1}:
    case {"a": 1, "b": _}:
        print("no")
    case {"a": v}:
        print("a is", v)
"""),
    ("metaclass_call_and_protocols", """
class Singleton(type):
    _instances = {}
    def __call__(cls, *args, **kwargs):
        if cls not in cls._instances:
            cls._instances[cls] = super().__call__(*args, **kwargs)
        return cls._instances[cls]
class Config(metaclass=Singleton):
    def __init__(self, value=0):
        self.value = value
a = Config(1); b = Config(2)
print(a is b, a.value, type(Config).__name__, isinstance(Config, Singleton), isinstance(Config, type))
class Sub(Config):
    pass
print(type(Sub) is Singleton, Sub() is Sub(), Sub() is a)
class Meta(type):
    def __repr__(cls):
        return f"<Meta class {cls.__name__}>"
    def __len__(cls):
        return 42
    def describe(cls):
        return "I am " + cls.__name__
    @property
    def upper_name(cls):
        return cls.__name__.upper()
class Thing(metaclass=Meta):
    pass
print(repr(Thing), len(Thing), Thing.describe(), Thing.upper_name, type(Thing()).__name__)
class M1(type): pass
class M2(type): pass
class A(metaclass=M1): pass
class B(metaclass=M2): pass
try:
    class C(A, B): pass
except TypeError as e:
    print(e)
"""),
    ("init_subclass_keywords", """
class Plugin:
    registry = []
    def __init_subclass__(cls, name=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.plugin_name = name or cls.__name__.lower()
        Plugin.registry.append(cls)
class Csv(Plugin, name="csv"):
    pass
class Json(Plugin):
    pass
print([p.plugin_name for p in Plugin.registry])
for bad in ['class Bad(Plugin, colour="red"): pass', 'class Worse(object, flavour=1): pass']:
    try:
        exec(bad)
    except TypeError as e:
        print("TypeError", e)
"""),
    ("enum_members_values_names", """
from enum import Enum, auto, unique
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
print(Color.RED, repr(Color.RED), Color.RED.name, Color.RED.value)
print(Color(2), Color['BLUE'], len(Color), list(Color), repr(Color))
print(type(Color.RED), isinstance(Color.RED, Color), Color.RED is Color(1), Color.RED in Color)
print(Color.RED == Color.RED, Color.RED == 1, f"{Color.GREEN}", "{:>12}|".format(Color.GREEN))
print({Color.RED: "r"}[Color.RED], [c.name for c in reversed(Color)])
for bad in [lambda: Color(7), lambda: Color['PINK']]:
    try:
        bad()
    except (ValueError, KeyError) as e:
        print(type(e).__name__, e)
class Shape(Enum):
    SQUARE = 2
    DIAMOND = 1
    ALIAS_FOR_SQUARE = 2
print(Shape.ALIAS_FOR_SQUARE, list(Shape), Shape(2), list(Shape.__members__))
try:
    @unique
    class Mistake(Enum):
        ONE = 1
        THREE = 3
        FOUR = 3
except ValueError as e:
    print(e)
try:
    class More(Color):
        PINK = 17
except TypeError as e:
    print(e)
class Ordinal(Enum):
    FIRST = auto()
    SECOND = auto()
print(list(Ordinal), [o.value for o in Ordinal])
match Color.GREEN:
    case Color.RED:
        print("red")
    case Color.GREEN:
        print("green")
"""),
    ("enum_methods_init_and_int_str_flag", """
from enum import Enum, IntEnum, StrEnum, Flag, IntFlag, auto
class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
    @property
    def surface_gravity(self):
        return 6.67300E-11 * self.mass / (self.radius * self.radius)
    @classmethod
    def home(cls):
        return cls.EARTH
print(Planet.EARTH.value, round(Planet.EARTH.surface_gravity, 3), Planet.home(), type(Planet).__name__)
class Num(IntEnum):
    ONE = 1
    TWO = 2
print(Num.ONE, repr(Num.TWO), Num.ONE == 1, Num.TWO + 1, Num.ONE < Num.TWO, sorted([Num.TWO, Num.ONE]))
print([10, 20, 30][Num.TWO], int(Num.TWO), f"{Num.TWO:03d}", hash(Num.ONE) == hash(1))
class Perm(Flag):
    R = 4
    W = 2
    X = 1
rw = Perm.R | Perm.W
print(repr(rw), rw, Perm.R in rw, Perm.X in rw, bool(Perm.R & Perm.X), repr(Perm.R & Perm.X), repr(Perm))
print(list(rw), repr(~Perm.R))
class P2(IntFlag):
    A = auto()
    B = auto()
    C = auto()
print(list(P2), P2.A | P2.C, repr(P2.A | P2.C), P2.B == 2)
class Http(StrEnum):
    OK = auto()
    NOT_FOUND = "not found"
print(Http.OK, repr(Http.OK), Http.OK == "ok", Http.NOT_FOUND.upper())
"""),
]
