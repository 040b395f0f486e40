"""The same module, with a module-level __getattr__ (PEP 562) that warns on a renamed name."""

import warnings


def area(w, h):
    return w * h


def __getattr__(name):
    if name == "surface":
        warnings.warn("geometry.surface is now geometry.area", DeprecationWarning, stacklevel=2)
        return area
    raise AttributeError(name)
