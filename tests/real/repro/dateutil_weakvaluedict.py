"""python-dateutil 2.7.5 -> 2.9.0 (3.14, 3.15): `cls.__instances.get(key, None)` in the tz factory
metaclasses' __call__. The class attribute `__instances` was a dict and became a
weakref.WeakValueDictionary (an instance of a Python class). Shows: CPython specializes a load of
a class attribute through a metaclass (LOAD_ATTR_CLASS_WITH_METACLASS_CHECK) only when the
attribute's value has an immutable type (dict); when its type is a mutable (heap) class such as
WeakValueDictionary, attempts fail (the value's class could gain __get__ later) and the load stays
generic LOAD_ATTR. Same work, same receivers: only the cache's type changed."""
import dis, weakref

def make(cache_factory):
    class Factory(type):
        def __init__(cls, *args, **kwargs):
            cls.__instances = cache_factory()
        def __call__(cls, name):
            instance = cls.__instances.get(name, None)
            if instance is None:
                instance = cls.__instances.setdefault(name, type.__call__(cls, name))
            return instance
    class tz(metaclass=Factory):
        def __init__(self, name): self.name = name
    keep = [tz(f"n{i % 4}") for i in range(100)]
    return [i.opname for i in dis.get_instructions(Factory.__call__, adaptive=True)
            if i.opname.startswith("LOAD_ATTR") and "instances" in i.argrepr]

print("base, dict:               ", make(dict))
print("head, WeakValueDictionary:", make(weakref.WeakValueDictionary))
class MyDict(dict): pass
print("control, dict subclass:   ", make(MyDict))
