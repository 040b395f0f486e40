"""beautifulsoup4 4.9.3 -> 4.12.3 (3.12, 3.13): `known_xml = None` moved from NavigableString's
body up to PageElement's, a base class of Tag and BeautifulSoup. Tag.__init__'s
`self.known_xml = ...` and PageElement._is_xml's `self.known_xml` now shadow a plain class
attribute. Shows: 3.12 and 3.13 specialize an instance attribute's store and load
(STORE_ATTR_INSTANCE_VALUE, LOAD_ATTR_INSTANCE_VALUE) only when no class in the MRO has a plain
(non-descriptor) attribute of that name; with one, both stay generic STORE_ATTR / LOAD_ATTR.
On 3.14 and 3.15 only the store stays generic STORE_ATTR; the load specializes
(LOAD_ATTR_INSTANCE_VALUE) either way, so there only the `self.known_xml = ...` stores regress."""
import dis


class Plain:
    pass


class WithDefault:
    known_xml = None  # head's PageElement


def make(base):
    class Tag(base):
        def __init__(self, v):
            self.name = "p"
            self.known_xml = v

        def is_xml(self):
            return self.known_xml

    return Tag


for base in (Plain, WithDefault):
    tag = make(base)
    for i in range(100):
        tag(i).is_xml()
    for f in (tag.__init__, tag.is_xml):
        print(base.__name__, f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.argval == "known_xml"])
