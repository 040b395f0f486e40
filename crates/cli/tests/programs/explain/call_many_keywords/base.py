"""A record built with fifteen keyword arguments in a hot loop."""


class Field:
    def __init__(self, *, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0, j=0, k=0, l=0, m=0, n=0, o=0, p=0):
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.e = e
        self.f = f
        self.g = g
        self.h = h
        self.i = i
        self.j = j
        self.k = k
        self.l = l
        self.m = m
        self.n = n
        self.o = o
        self.p = p


def build(count):
    out = []
    for _ in range(count):
        out.append(Field(
            a=0,
            b=1,
            c=2,
            d=3,
            e=4,
            f=5,
            g=6,
            h=7,
            i=8,
            j=9,
            k=10,
            l=11,
            m=12,
            n=13,
            o=14,
        ))
    return out


def main():
    total = 0
    for _ in range(200):
        total += len(build(100))
    print(total)


main()
