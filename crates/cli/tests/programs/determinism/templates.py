"""Thirty "compiled templates", each a module-level function named `root` made by exec (as
Jinja2 compiles every template to a `root(context)`, from the pseudo-file "<template>", in
globals without `__name__`), rendered in a loop. Every `root` shares its module (`<template>`)
and qualname with the others: only their bodies tell them apart. `VARIANT=head`
changes some bodies the way a template engine's upgrade changes its generated code (an extra
escape call, a different loop helper), so base and head pair by evidence or not at all.
"""
import os
import sys

HEAD = os.environ.get("VARIANT") == "head"


def escape(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;")


class Ctx:
    __slots__ = ("title", "items", "user")

    def __init__(self, k):
        self.title = "page %d" % k
        self.items = list(range(k % 7 + 3))
        self.user = {"name": "u%d" % k, "admin": k % 3 == 0}


def template_source(k):
    body = ["def root(ctx):", "    out = []", "    out.append('<h%d>' + ctx.title)" % (k % 6 + 1)]
    if k % 3 == 0:
        body.append("    for i in ctx.items:")
        item = "escape(i)" if HEAD and k % 2 else "str(i)"
        body.append("        out.append('<li>' + %s)" % item)
    if k % 3 == 1:
        body.append("    name = ctx.user['name']")
        body.append("    out.append(name * %d)" % (k % 4 + 1))
    if k % 3 == 2:
        helper = "enumerate(ctx.items, 1)" if HEAD else "zip(range(1, 99), ctx.items)"
        body.append("    for n, i in %s:" % helper)
        body.append("        out.append('%%d:%%d' %% (n, i * %d))" % (k + 1))
    body.append("    return ''.join(out)")
    return "\n".join(body)


def compile_all():
    roots = []
    for k in range(30):
        ns = {"escape": escape}
        exec(compile(template_source(k), "<template>", "exec"), ns)
        roots.append(ns["root"])
    return roots


def main(rounds):
    roots = compile_all()
    ctxs = [Ctx(k) for k in range(30)]
    total = 0
    for _ in range(rounds):
        for root, ctx in zip(roots, ctxs):
            total += len(root(ctx))
    print(total)


main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
