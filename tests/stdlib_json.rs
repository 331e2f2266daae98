//! The `json` module against CPython 3.11: dumps/dump formatting (separators, indent,
//! sort_keys, ensure_ascii, default=), loads/load values and hooks, and JSONDecodeError's
//! messages and positions. Expected outputs are CPython's for the same cells.

mod common;
use common::Session;

#[test]
fn dumps_matches_cpython_formatting() {
    let mut s = Session::new();
    s.run("import json").ok();
    let out = s.stdout("print(json.dumps({'a': [1, 2.5, None, True]}))\nprint(json.dumps([float('inf'), -float('inf'), float('nan'), 1e100, 1e-7, 0.1, 1/3, -0.0, 10**18, False]))\nprint(json.dumps({1: 2, None: 4, 2.5: 5, False: 1}), json.dumps('é😀\"\\\\\\n\\x01\\x7f', ensure_ascii=False), json.dumps('é😀\\t'))\nprint(json.dumps([1, 2, {'a': 3}], separators=(',', ':')), json.dumps({'k': set()}, default=sorted), json.dumps({(1, 2): 3, 'x': 1}, skipkeys=True))\nprint(json.dumps([]), json.dumps({}, indent=2), json.dumps([[]], indent=2), json.dumps((1, 'a')))");
    assert_eq!(out, "{\"a\": [1, 2.5, null, true]}\n[Infinity, -Infinity, NaN, 1e+100, 1e-07, 0.1, 0.3333333333333333, -0.0, 1000000000000000000, false]\n{\"1\": 2, \"null\": 4, \"2.5\": 5, \"false\": 1} \"é😀\\\"\\\\\\n\\u0001\u{7f}\" \"\\u00e9\\ud83d\\ude00\\t\"\n[1,2,{\"a\":3}] {\"k\": []} {\"x\": 1}\n[] {} [\n  []\n] [1, \"a\"]\n");
}

#[test]
fn dumps_indents_and_sorts_keys() {
    let mut s = Session::new();
    s.run("import json").ok();
    let out = s.stdout("print(json.dumps({'a': [1, 2.5, None, True], 'b': {}, 'c': [], 'é': 'ü'}, indent=2))\nprint(json.dumps({'b': [1, {'y': 1, 'x': 2}], 'a': (1, 2)}, indent='\\t', sort_keys=True))\nprint(json.dumps([1, [2]], indent=0), json.dumps({'a': 1, 'b': 2}, indent=1, separators=(';', '=')))");
    assert_eq!(out, "{\n  \"a\": [\n    1,\n    2.5,\n    null,\n    true\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"\\u00e9\": \"\\u00fc\"\n}\n{\n\t\"a\": [\n\t\t1,\n\t\t2\n\t],\n\t\"b\": [\n\t\t1,\n\t\t{\n\t\t\t\"x\": 2,\n\t\t\t\"y\": 1\n\t\t}\n\t]\n}\n[\n1,\n[\n2\n]\n] {\n \"a\"=1;\n \"b\"=2\n}\n");
}

#[test]
fn dumps_collections_as_their_bases() {
    let mut s = Session::new();
    s.run("import json\nfrom collections import OrderedDict, namedtuple, Counter, defaultdict")
        .ok();
    let out = s.stdout("P = namedtuple('P', 'x y')\nprint(json.dumps({'p': P(1, 2), 'c': Counter('aab'), 'o': OrderedDict(a=1), 'd': defaultdict(int, {'z': 0})}))");
    assert_eq!(
        out,
        "{\"p\": [1, 2], \"c\": {\"a\": 2, \"b\": 1}, \"o\": {\"a\": 1}, \"d\": {\"z\": 0}}\n"
    );
}

#[test]
fn dumps_unserializable_raises_typeerror() {
    let mut s = Session::new();
    s.run("import json").ok();
    let c = s.run("json.dumps({'s': {1, 2}})");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(c.evalue(), "Object of type set is not JSON serializable");
}

#[test]
fn dumps_bad_key_raises_typeerror() {
    let mut s = Session::new();
    s.run("import json").ok();
    let c = s.run("json.dumps({(1, 2): 3})");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(
        c.evalue(),
        "keys must be str, int, float, bool or None, not tuple"
    );
}

#[test]
fn dumps_nan_when_not_allowed() {
    let mut s = Session::new();
    s.run("import json").ok();
    let c = s.run("json.dumps([float('nan')], allow_nan=False)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        c.evalue(),
        "Out of range float values are not JSON compliant"
    );
}

#[test]
fn dumps_circular_reference() {
    let mut s = Session::new();
    s.run("import json").ok();
    let c = s.run("l = [1]; l.append(l); json.dumps(l)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(c.evalue(), "Circular reference detected");
}

#[test]
fn dumps_sort_keys_mixed_types() {
    let mut s = Session::new();
    s.run("import json").ok();
    let c = s.run("json.dumps({1: 2, 'a': 3}, sort_keys=True)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(
        c.evalue(),
        "'<' not supported between instances of 'str' and 'int'"
    );
}

#[test]
fn loads_values() {
    let mut s = Session::new();
    s.run("import json").ok();
    let out = s.stdout("print(json.loads('{\"a\":1, \"a\":2, \"b\":3}'), json.loads(' [NaN, Infinity, -Infinity, 1E5, 1.5e-3, \"\\\\u00e9\", -0, -0.0, 0.5e+2, \"\\\\ud83d\\\\ude00\", \"\\\\/\\\\n\\\\t\\\\\"\", 1e400] '))\nprint(json.loads('{\"x\": {\"y\": [true, false, null, {}, []]}}'), json.loads(b'[1, \"\\xc3\\xa9\"]'))\nprint(json.loads('{\"a\": 1.5, \"b\": 2}', parse_float=str, parse_int=float), json.loads('[{\"b\":1,\"a\":2}]', object_pairs_hook=list), json.loads('{\"a\": {\"b\": 1}}', object_hook=len))");
    assert_eq!(out, "{'a': 2, 'b': 3} [nan, inf, -inf, 100000.0, 0.0015, 'é', 0, -0.0, 50.0, '😀', '/\\n\\t\"', inf]\n{'x': {'y': [True, False, None, {}, []]}} [1, 'é']\n{'a': '1.5', 'b': 2.0} [[('b', 1), ('a', 2)]] 1\n");
}

#[test]
fn loads_errors_name_the_position() {
    let mut s = Session::new();
    s.run("import json").ok();
    let out = s.stdout("for t in ['', '[1,]', '{\"a\":1,}', '{\"a\" 1}', '{a:1}', '[1 2]', '\"abc', '\"a\\\\qb\"', '\"a\\\\u12zz\"', '\"a\\x01\"', '[1] x', 'nul', '-', '01', '1.', '{\"a\":1', '[', '\\n\\n  [1,\\n  x]', ' ', '\"abc\\\\', '[1,\\n2,,]', '{\"a\":1}}']:\n    try:\n        json.loads(t)\n    except json.JSONDecodeError as e:\n        print(e)");
    assert_eq!(out, "Expecting value: line 1 column 1 (char 0)\nExpecting value: line 1 column 4 (char 3)\nExpecting property name enclosed in double quotes: line 1 column 8 (char 7)\nExpecting ':' delimiter: line 1 column 6 (char 5)\nExpecting property name enclosed in double quotes: line 1 column 2 (char 1)\nExpecting ',' delimiter: line 1 column 4 (char 3)\nUnterminated string starting at: line 1 column 1 (char 0)\nInvalid \\escape: line 1 column 3 (char 2)\nInvalid \\uXXXX escape: line 1 column 4 (char 3)\nInvalid control character at: line 1 column 3 (char 2)\nExtra data: line 1 column 5 (char 4)\nExpecting value: line 1 column 1 (char 0)\nExpecting value: line 1 column 1 (char 0)\nExtra data: line 1 column 2 (char 1)\nExtra data: line 1 column 2 (char 1)\nExpecting ',' delimiter: line 1 column 7 (char 6)\nExpecting value: line 1 column 2 (char 1)\nExpecting value: line 4 column 3 (char 10)\nExpecting value: line 1 column 2 (char 1)\nUnterminated string starting at: line 1 column 1 (char 0)\nExpecting value: line 2 column 3 (char 6)\nExtra data: line 1 column 8 (char 7)\n");
}

#[test]
fn loads_error_is_a_valueerror() {
    let mut s = Session::new();
    s.run("import json").ok();
    let out = s.stdout(
        "try:\n    json.loads('[1,]')\nexcept ValueError as e:\n    print(type(e).__name__, e)",
    );
    assert_eq!(
        out,
        "JSONDecodeError Expecting value: line 1 column 4 (char 3)\n"
    );
}

#[test]
fn loads_rejects_non_strings() {
    let mut s = Session::new();
    s.run("import json").ok();
    let c = s.run("json.loads(5)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(
        c.evalue(),
        "the JSON object must be str, bytes or bytearray, not int"
    );
}

#[test]
fn dump_and_load_through_files() {
    let mut s = Session::new();
    s.run("import json, os").ok();
    let out = s.stdout("p = '/tmp/nbcuda_json_test.json'\nwith open(p, 'w') as f:\n    json.dump({'a': [1, 2], 'b': 'x'}, f, indent=1)\nwith open(p) as f:\n    print(json.load(f))\nprint(open(p).read())\nos.remove(p)");
    assert_eq!(
        out,
        "{'a': [1, 2], 'b': 'x'}\n{\n \"a\": [\n  1,\n  2\n ],\n \"b\": \"x\"\n}\n"
    );
}

#[test]
fn json_decode_error_fields_match_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import json\ntry:\n    json.loads('{\"a\": 1,}')\nexcept json.JSONDecodeError as e:\n    print(type(e).__name__, isinstance(e, ValueError), e.msg, e.pos, e.lineno, e.colno)\ntry:\n    json.loads('[1,\\n 2')\nexcept ValueError as e:\n    print(e.msg, '|', e.pos, e.lineno, e.colno, '|', e)");
    assert_eq!(out, "JSONDecodeError True Expecting property name enclosed in double quotes 8 1 9\nExpecting ',' delimiter | 6 2 3 | Expecting ',' delimiter: line 2 column 3 (char 6)\n");
}
