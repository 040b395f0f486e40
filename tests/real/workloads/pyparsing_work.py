"""pyparsing workload: three grammars a user would write — an arithmetic language with
infix_notation and packrat parsing, evaluated via parse actions; a log-line grammar run
with scan_string over a text blob; and a small INI/config grammar with Dict/Group results
— plus transform_string for a templating-style substitution. Uses the snake_case API that
pyparsing 3.1 and 3.2 both have. Deterministic; prints a CRC32 of the results."""

import zlib

import pyparsing as pp

pp.ParserElement.enable_packrat()

# --- arithmetic with variables, function calls and comparison ------------------------------
integer = pp.Word(pp.nums).set_parse_action(lambda t: int(t[0]))
real = pp.Regex(r"\d+\.\d*(?:[eE][-+]?\d+)?").set_parse_action(lambda t: float(t[0]))
ident = pp.Word(pp.alphas + "_", pp.alphanums + "_")
expr = pp.Forward()
call = pp.Group(ident("fn") + pp.Suppress("(") + pp.Opt(pp.DelimitedList(expr))("args")
                + pp.Suppress(")"))
operand = real | integer | call | ident
expr <<= pp.infix_notation(
    operand,
    [
        (pp.one_of("- +"), 1, pp.OpAssoc.RIGHT),
        ("**", 2, pp.OpAssoc.RIGHT),
        (pp.one_of("* / %"), 2, pp.OpAssoc.LEFT),
        (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT),
        (pp.one_of("< <= > >= == !="), 2, pp.OpAssoc.LEFT),
    ],
)
assignment = ident("target") + pp.Suppress("=") + expr("value") + pp.Suppress(";")
program = pp.OneOrMore(pp.Group(assignment))


def arith_src(i):
    return " ".join(
        f"v{k} = ({i} + x{k} * {k}.5) ** 2 - f{k}(a, b + {k}, -c) / (y % {k + 2}) >= {i * k};"
        for k in range(8)
    )


# --- log lines via scan_string -------------------------------------------------------------
ts = pp.Regex(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")("ts")
level = pp.one_of("DEBUG INFO WARNING ERROR")("level")
bare = pp.Word(pp.printables, exclude_chars='"')
kv = pp.Group(pp.Word(pp.alphas + "_")("k") + pp.Suppress("=") + (pp.QuotedString('"') | bare)("v"))
logger = pp.Suppress("[") + pp.Word(pp.alphanums + "._")("logger") + pp.Suppress("]")
log_line = ts + level + logger + pp.ZeroOrMore(kv)("fields")
LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"]
LOG = "\n".join(
    f"2024-03-{k % 28 + 1:02d}T10:{k % 60:02d}:{(k * 7) % 60:02d} {LEVELS[k % 4]} [svc.mod{k % 5}] "
    f'user=u{k} path="/api/v1/items/{k}" status={200 + k % 5} dur_ms={k * 3 % 997}'
    for k in range(300)
)

# --- config files ----------------------------------------------------------------------------
comment = pp.Regex(r"[;#][^\n]*")
section = pp.Suppress("[") + pp.Word(pp.alphanums + "_.-") + pp.Suppress("]")
value = pp.QuotedString('"') | pp.Regex(r"[^\n;#]+").set_parse_action(lambda t: t[0].strip())
entry = pp.Group(pp.Word(pp.alphanums + "_") + pp.Suppress("=") + value)
config = pp.Dict(pp.ZeroOrMore(pp.Group(section + pp.Dict(pp.ZeroOrMore(entry)))))
config.ignore(comment)


def config_src(i):
    return "\n".join(
        f"[section_{s}]\n; comment {s}\nname = \"value {i} {s}\"\ncount = {i * s}\n"
        f"path = /usr/lib/{s}\nflag = yes # note\n"
        for s in range(10)
    )


# --- transform_string: ${name} substitution ---------------------------------------------------
var_ref = pp.Combine(pp.Suppress("${") + ident + pp.Suppress("}"))
TEMPLATE = " ".join(f"item ${{name{k % 7}}} costs ${{price{k % 5}}} ;" for k in range(60))
SUBST = {f"name{k}": f"N{k}" for k in range(7)} | {f"price{k}": f"{k}.99" for k in range(5)}
var_ref.set_parse_action(lambda t: SUBST.get(t[0], "?"))

crc = 0
n = 0
for i in range(20):
    if i % 7 == 0:
        res = program.parse_string(arith_src(i), parse_all=True)
        n += len(res)
        crc = zlib.crc32(repr(res.as_list()).encode(), crc)
    if i % 10 == 0:
        for toks, start, end in log_line.scan_string(LOG):
            n += 1
            line = f"{toks['level']}{toks['logger']}{len(toks['fields'])}{start}"
            crc = zlib.crc32(line.encode(), crc)
    cfg = config.parse_string(config_src(i), parse_all=True)
    crc = zlib.crc32(repr(cfg.as_dict()).encode(), crc)
    if i % 2 == 0:
        crc = zlib.crc32(var_ref.transform_string(TEMPLATE).encode(), crc)
print(f"pyparsing: {n} results, crc {crc:08x}")
