"""`Node` sets `flag` on its instances in `__init__`; the sibling `Leaf` has `flag = None` in
its own body, so no class `Node` inherits from defines `flag`."""


class Element:
    kind = "element"


class Node(Element):
    def __init__(self, k):
        self.k = k
        self.flag = k % 2 == 0


class Leaf(Element):
    flag = None


def build(count):
    return [Node(i) for i in range(count)]


for _ in range(300):
    nodes = build(200)
print(sum(n.k for n in nodes if n.flag), Leaf.flag)
