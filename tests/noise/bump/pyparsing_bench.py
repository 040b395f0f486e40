"""A pyparsing workload for the library-bump pair (docs/engine.md, "Checked by hand"):
an `infix_notation` arithmetic grammar and a small config-file grammar, each parsing a
fixed set of inputs: ROUNDS arithmetic parses (cycling through the expressions) and ROUNDS
config parses (default 600 each). Written against the snake_case API that
both pyparsing 3.0.9 and 3.2.0 have, so the same file runs unchanged in both venvs
(scripts/bump-pairs.sh). Deterministic: no randomness, no clock.

    python pyparsing_bench.py [ROUNDS]
"""

import sys

import pyparsing as pp

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 600

# --- arithmetic: infix_notation with unary minus, power, */, +-, comparison -------------
integer = pp.Word(pp.nums).set_parse_action(lambda t: int(t[0]))
real = pp.Regex(r"\d+\.\d*").set_parse_action(lambda t: float(t[0]))
ident = pp.Word(pp.alphas + "_", pp.alphanums + "_")
operand = real | integer | ident

arith = pp.infix_notation(
    operand,
    [
        (pp.one_of("- +"), 1, pp.OpAssoc.RIGHT),
        ("**", 2, pp.OpAssoc.RIGHT),
        (pp.one_of("* / %"), 2, pp.OpAssoc.LEFT),
        (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT),
        (pp.one_of("< <= > >= == !="), 2, pp.OpAssoc.LEFT),
    ],
)

EXPRESSIONS = [
    "1 + 2 * 3",
    "(a + b) * (c - 4.5) / 2",
    "-x ** 2 + y % 7",
    "alpha * (beta + gamma * (delta - 1)) - 3.25",
    "n >= 10 * (m + 1)",
    "((1))",
    "a + b + c + d + e + f",
    "2 ** 3 ** 2 - -1",
]

# --- config: [section] headers, key = value lines, comments --------------------------------
comment = pp.Regex(r"#[^\n]*")
key = pp.Word(pp.alphas, pp.alphanums + "_.")
value = pp.quoted_string | pp.Regex(r"[^\n#]+")
entry = pp.Group(key + pp.Suppress("=") + value.set_parse_action(lambda t: t[0].strip()))
header = pp.Suppress("[") + pp.Word(pp.alphanums + "_-") + pp.Suppress("]")
section = pp.Group(header + pp.Group(pp.ZeroOrMore(entry)))
config = pp.ZeroOrMore(section).ignore(comment)

CONFIG = """
# service configuration
[server]
host = "example.org"
port = 8080
workers = 4   # per core
[database]
url = "postgres://db/app"
pool.size = 10
timeout = 2.5
[logging]
level = info
format = "%(asctime)s %(message)s"
"""


def run(rounds):
    total = 0
    for i in range(rounds):
        text = EXPRESSIONS[i % len(EXPRESSIONS)]
        total += len(arith.parse_string(text, parse_all=True).as_list())
        parsed = config.parse_string(CONFIG, parse_all=True)
        total += sum(len(body) for _name, body in parsed)
    return total


if __name__ == "__main__":
    print(run(ROUNDS))
