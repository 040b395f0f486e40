"""beautifulsoup4 4.9.3 -> 4.12.3 (3.14, 3.15): Tag.select's `soupsieve.select(selector, self,
namespaces, limit, **kwargs)` became `self.css.select(selector, namespaces, limit, **kwargs)`,
where `css` is a property returning a new `CSS` object (bs4/css.py). Shows: base's load of
`select` from a module specializes (LOAD_ATTR_MODULE); head's load of `select` from the `CSS`
instance stays generic LOAD_ATTR, because the call unpacks **kwargs, so the method is loaded as a
bound method (not in the method form that LOAD_ATTR_METHOD_WITH_VALUES specializes, which the
same call without **kwargs gets)."""
import dis
import types

soupsieve = types.ModuleType("soupsieve")


def select(selector, tag, namespaces=None, limit=0, **kwargs):
    return limit


soupsieve.select = select


class CSS:
    def __init__(self, tag):
        self.tag = tag

    def select(self, selector, namespaces=None, limit=0, **kwargs):
        return limit


class Tag:
    @property
    def css(self):
        return CSS(self)

    def base(self, selector, namespaces, limit, **kwargs):
        return soupsieve.select(selector, self, namespaces, limit, **kwargs)

    def head(self, selector, namespaces, limit, **kwargs):
        return self.css.select(selector, namespaces, limit, **kwargs)

    def head_without_kwargs(self, selector, namespaces, limit):
        return self.css.select(selector, namespaces, limit)


tag = Tag()
for i in range(200):
    tag.base("p", None, 0)
    tag.head("p", None, 0)
    tag.head_without_kwargs("p", None, 0)
for f in (Tag.base, Tag.head, Tag.head_without_kwargs):
    print(f.__name__, [(i.opname, i.argval) for i in dis.get_instructions(f, adaptive=True) if i.argval == "select"])
