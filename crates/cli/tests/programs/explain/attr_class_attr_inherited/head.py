"""`flag = None` moved from the sibling `Leaf` up to the shared base class `Element`: every
`self.flag = …` in `Node.__init__` now shadows a class attribute `Node` inherits
(beautifulsoup4 4.12's `known_xml`, moved from `NavigableString` up to `PageElement`)."""


class Element:
    kind = "element"
    flag = None


class Node(Element):
    def __init__(self, k):
        self.k = k
        self.flag = k % 2 == 0


class Leaf(Element):
    pass


def build(count):
    return [Node(i) for i in range(count)]


for _ in range(300):
    nodes = build(200)
print(sum(n.k for n in nodes if n.flag), Leaf.flag)
