"""Frozen record classes made without ``exec``: what the engine's first roll imports.

``@dataclass`` writes each class's methods as source and compiles it; in Pyodide, right
after Python's start, that compiling cost the engine's first import about 9 ms a class at
full speed (the dice tree's 16 node classes were over half of everything a first roll
imports; a phone's processor is about four times slower). ``@record`` gives what
``@dataclass(frozen=True, slots=True)`` gives the classes that need no more: the fields
are the annotated names in order (no defaults: a class that wants one writes its own
``__init__``), instances are slotted and immutable, equal when of the same class with
equal fields, hashable, printed as ``Name(field=value, ...)``, matchable by position, and
copy and pickle by their fields.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, dataclass_transform

__all__ = ["FrozenRecordError", "record"]


class FrozenRecordError(AttributeError):
    """A field of a record was assigned or deleted."""


@dataclass_transform(frozen_default=True)
def record[T: type](cls: T) -> T:
    """Make ``cls`` a frozen, slotted record (the module's docstring says what that gives)."""
    own = cls.__dict__
    names = tuple(own.get("__annotations__") or _annotations(cls))
    namespace = {k: v for k, v in own.items() if k not in (*names, "__dict__", "__weakref__")}
    namespace["__slots__"] = names
    namespace["__match_args__"] = names
    title = cls.__qualname__
    setters: list[Callable[[Any, Any], None]] = []  # each field's slot, once the class is made

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if kwargs or len(args) != len(names):
            args = _arguments(title, names, args, kwargs)
        for set_slot, value in zip(setters, args, strict=True):
            set_slot(self, value)

    # attrgetter of several names gives a tuple (in C); of one name, the value itself.
    values: Callable[[Any], Any] = (
        attrgetter(*names)
        if len(names) > 1
        else ((lambda self: (getattr(self, names[0]),)) if names else (lambda self: ()))
    )

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    def __hash__(self: Any) -> int:
        return hash(values(self))

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{title}({inner})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r} of a {title}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r} of a {title}")

    def __reduce__(self: Any) -> tuple[type, tuple[Any, ...]]:
        return (self.__class__, values(self))

    methods = {
        "__init__": __init__,
        "__eq__": __eq__,
        "__hash__": __hash__,
        "__repr__": __repr__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__reduce__": __reduce__,
    }
    for name, method in methods.items():
        if name not in namespace:  # what the class writes itself stays
            method.__qualname__ = f"{title}.{name}"
            namespace[name] = method
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = title
    # A slot's own setter goes past the frozen __setattr__ (a class's own __init__ uses
    # object.__setattr__, as a frozen dataclass's does).
    setters.extend(made.__dict__[name].__set__ for name in names)
    return made


def _arguments(
    title: str, names: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, ...]:
    """Every field's value, in order, from arguments given by position and by name."""
    if len(args) > len(names):
        raise TypeError(f"{title}() takes {len(names)} arguments, {len(args)} given")
    rest = names[len(args) :]
    unexpected = sorted(set(kwargs) - set(rest))
    if unexpected:
        raise TypeError(f"{title}() got unexpected arguments {unexpected}")
    missing = [name for name in rest if name not in kwargs]
    if missing:
        raise TypeError(f"{title}() is missing the argument {missing[0]!r}")
    return (*args, *(kwargs[name] for name in rest))


def _annotations(cls: type) -> dict[str, Any]:
    # The field names, read without evaluating their types: with ``from __future__ import
    # annotations`` (every engine module) the class body keeps them as strings in its own
    # ``__annotations__``; without it, Python 3.14 keeps them behind ``__annotate__``.
    # (inspect.get_annotations would import inspect, one more module before a first roll.)
    return dict(getattr(cls, "__annotations__", {}))
