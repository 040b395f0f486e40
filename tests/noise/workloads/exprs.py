"""A parser library's shape: tokenizer, recursive-descent parser to an AST, an evaluator."""
import math
import re

TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\d+)|(\*\*|[-+*/%(),])|([A-Za-z_]\w*))")


class Num:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def eval(self, env):
        return self.value


class Var:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def eval(self, env):
        return env[self.name]


class BinOp:
    __slots__ = ("op", "left", "right")

    def __init__(self, op, left, right):
        self.op, self.left, self.right = op, left, right

    def eval(self, env):
        a, b = self.left.eval(env), self.right.eval(env)
        op = self.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if op == "%":
            return a % b
        return a ** b


class Call:
    __slots__ = ("fn", "args")

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def eval(self, env):
        return FUNCS[self.fn](*[a.eval(env) for a in self.args])


FUNCS = {"sqrt": math.sqrt, "max": max, "min": min, "abs": abs}


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        num, op, name = m.groups()
        out.append(("num", float(num)) if num else ("op", op) if op else ("name", name))
        pos = m.end()
    return out


class Parser:
    def __init__(self, tokens):
        self.tokens, self.i = tokens, 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def expr(self):
        node = self.term()
        while self.peek()[1] in ("+", "-"):
            node = BinOp(self.take()[1], node, self.term())
        return node

    def term(self):
        node = self.power()
        while self.peek()[1] in ("*", "/", "%"):
            node = BinOp(self.take()[1], node, self.power())
        return node

    def power(self):
        node = self.atom()
        if self.peek()[1] == "**":
            self.take()
            node = BinOp("**", node, self.power())
        return node

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return Num(value)
        if kind == "name":
            if self.peek()[1] == "(":
                self.take()
                args = [self.expr()]
                while self.peek()[1] == ",":
                    self.take()
                    args.append(self.expr())
                self.take()
                return Call(value, args)
            return Var(value)
        if value == "(":
            node = self.expr()
            self.take()
            return node
        if value == "-":
            return BinOp("-", Num(0.0), self.atom())
        raise SyntaxError(value)


SOURCES = ["1 + 2 * x - y / 4", "sqrt(x * x + y * y) % 7", "max(x, y, 3) ** 2 - min(x, 1)",
           "(x + 1) * (y - 2) / (abs(x - y) + 1)", "-x + 2 ** 3 ** 0.5"]


def main():
    total = 0.0
    for round_ in range(600):
        for src in SOURCES:
            tree = Parser(tokenize(src)).expr()
            for x in range(8):
                total += tree.eval({"x": float(x), "y": float(round_ % 5 + 1)})
    print(round(total, 3))


main()
