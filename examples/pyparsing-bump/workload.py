"""A small, realistic pyparsing workload: an arithmetic grammar and a key=value config
grammar, each parsing a few hundred inputs. Run under two pyparsing versions (3.0.9 and
3.2.0) to get the library-bump pair of docs/web.md ("Link sizes")."""

import pyparsing as pp

ppc = pp.pyparsing_common


def arithmetic():
    operand = ppc.number | pp.Word(pp.alphas, pp.alphanums + "_")
    expr = pp.infix_notation(
        operand,
        [
            (pp.one_of("+ -"), 1, pp.OpAssoc.RIGHT),
            (pp.one_of("* /"), 2, pp.OpAssoc.LEFT),
            (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT),
        ],
    )
    return expr


def config():
    key = pp.Word(pp.alphas + "_", pp.alphanums + "_.")
    value = pp.QuotedString('"') | ppc.number | pp.Word(pp.printables, exclude_chars="#")
    comment = pp.Suppress("#" + pp.rest_of_line)
    entry = pp.Group(key + pp.Suppress("=") + value + pp.Optional(comment))
    section = pp.Group(pp.Suppress("[") + key + pp.Suppress("]") + pp.Group(pp.ZeroOrMore(entry)))
    return pp.ZeroOrMore(section)


def main():
    expr = arithmetic()
    total = 0
    for i in range(300):
        text = f"{i} * (x{i % 7} + {i / 3:.2f}) - -{i % 11} / y + 4 * (a - b{i % 5})"
        total += len(expr.parse_string(text, parse_all=True)[0])
    conf = config()
    doc = "\n".join(
        f'[section{s}]\nname = "svc{s}"\nport = {8000 + s}  # port\nratio = {s / 7:.3f}\npath = /srv/{s}\n'
        for s in range(40)
    )
    for _ in range(20):
        total += len(conf.parse_string(doc, parse_all=True))
    print(total)


if __name__ == "__main__":
    main()
