"""lark workload: build three grammars once (a JSON grammar with the LALR parser and a
Transformer, an arithmetic/assignment language with LALR and a contextual lexer, and an
expression grammar with the Earley parser and its dynamic lexer) and parse many generated
inputs with each; the lexers, the parsers and tree building are the hot paths. The Earley
grammar is unambiguous: lark 1.1.7 resolves ambiguity in an order that depends on the
string hash seed, which would make the output vary. Deterministic; prints a CRC32."""

import zlib

from lark import Lark, Transformer, Tree

JSON_GRAMMAR = r"""
?start: value
?value: object | array | string | SIGNED_NUMBER -> number
      | "true" -> true | "false" -> false | "null" -> null
array  : "[" [value ("," value)*] "]"
object : "{" [pair ("," pair)*] "}"
pair   : string ":" value
string : ESCAPED_STRING
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
"""


class ToPython(Transformer):
    def string(self, s):
        return s[0][1:-1]

    def number(self, n):
        return float(n[0])

    def array(self, items):
        return [i for i in items if i is not None] if items != [None] else []

    def pair(self, kv):
        return tuple(kv)

    def object(self, pairs):
        return dict(p for p in pairs if p is not None)

    def true(self, _):
        return True

    def false(self, _):
        return False

    def null(self, _):
        return None


CALC_GRAMMAR = r"""
start: stmt+
?stmt: NAME "=" expr ";" -> assign
     | "print" expr ";" -> show
     | "if" expr "{" stmt* "}" ("else" "{" stmt* "}")? -> cond
?expr: expr "or" and_ -> or_ | and_
?and_: and_ "and" cmp -> and_op | cmp
?cmp: sum (CMP sum)? -> compare
?sum: sum "+" product -> add | sum "-" product -> sub | product
?product: product "*" atom -> mul | product "/" atom -> div | atom
?atom: NUMBER -> number | "-" atom -> neg | NAME -> var
     | NAME "(" [expr ("," expr)*] ")" -> call | "(" expr ")"
CMP: "<" | ">" | "==" | "!=" | "<=" | ">="
%import common.CNAME -> NAME
%import common.NUMBER
%import common.WS
%ignore WS
%ignore /#[^\n]*/
"""

EARLEY_GRAMMAR = r"""
start: sum
?sum: sum "+" prod -> add | sum "-" prod -> sub | prod
?prod: prod "*" atom -> mul | prod "/" atom -> div | atom
?atom: "(" sum ")" | NUMBER -> number | NAME -> var | NAME "(" sum ("," sum)* ")" -> call
%import common.CNAME -> NAME
%import common.NUMBER
%import common.WS
%ignore WS
"""

json_parser = Lark(JSON_GRAMMAR, parser="lalr", transformer=ToPython())
calc_parser = Lark(CALC_GRAMMAR, parser="lalr", lexer="contextual")
earley = Lark(EARLEY_GRAMMAR, parser="earley", lexer="dynamic")


def json_doc(i):
    rows = ", ".join(
        f'{{"id": {i * 100 + k}, "name": "user \\"{k}\\"", "score": {k * 1.5 - i}, '
        f'"active": {"true" if k % 2 else "false"}, "tags": ["t{k}", "u{i}", null], '
        f'"nested": {{"a": [{k}, {k + 1}, {{"deep": "x{k}"}}], "b": {{}}}}}}'
        for k in range(12)
    )
    return f'{{"page": {i}, "rows": [{rows}], "empty": [], "ok": true}}'


def program(i):
    lines = [f"# program {i}"]
    for k in range(15):
        lines.append(f"x{k} = {k} * ({i} + y{k % 3}) - f{k}(a, {k}, b + 2) / 3;")
        lines.append(f"if x{k} > {i} and x{k} != {k} or z < 1 "
                     f"{{ print x{k} + 1; total = total + x{k}; }} else {{ print -x{k}; }}")
    return "\n".join(lines)


def arith(i):
    terms = [str((i * 7 + k) % 97) if k % 3 else f"f{k}(x{k}, {k} * y)" for k in range(6 + i % 4)]
    half = len(terms) // 2
    return "(" + " + ".join(terms[:half]) + ") * " + " / ".join(terms[half:]) + f" - (a{i} - {i})"


def tree_size(t):
    return sum(1 for _ in t.iter_subtrees()) if isinstance(t, Tree) else 1


crc = 0
nodes = 0
for i in range(60):
    data = json_parser.parse(json_doc(i))
    crc = zlib.crc32(repr(sorted(data)).encode(), crc)
    nodes += len(data["rows"])
    tree = calc_parser.parse(program(i))
    nodes += tree_size(tree)
    crc = zlib.crc32(tree.pretty().encode(), crc)
for i in range(50):
    tree = earley.parse(arith(i))
    nodes += tree_size(tree)
    crc = zlib.crc32(str(tree).encode(), crc)
print(f"lark: {nodes} nodes, crc {crc:08x}")
