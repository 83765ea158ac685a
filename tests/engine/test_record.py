"""``@record``: frozen records made without exec behave as frozen dataclasses do."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from rollbook.engine.dice.nodes import Dice, Number
from rollbook.engine.messages import Message
from rollbook.engine.record import FrozenRecordError, field, record


@record(slots=True)
class Point:
    """A point, as a test record."""

    x: int
    y: int = 0
    order = 3  # a class attribute, not a field

    @property
    def total(self) -> int:
        """x + y."""
        return self.x + self.y


@dataclasses.dataclass(frozen=True, slots=True)
class PointDC:
    """The same as a dataclass, to compare with."""

    x: int
    y: int = 0


@record
class Bag:
    """A record with a mutable default."""

    name: str
    items: dict[str, Any] = field(default_factory=dict)


def test_fields_defaults_and_class_attributes() -> None:
    assert Point(1) == Point(1, 0) == Point(x=1) == Point(y=0, x=1)
    assert Point(2, 3).total == 5 and Point(2, 3).order == Point.order == 3
    assert Point.__match_args__ == ("x", "y")
    assert not hasattr(Point(1), "__dict__")  # slotted
    assert Point.__doc__ == "A point, as a test record."
    match Point(4, 5):
        case Point(a, b):
            assert (a, b) == (4, 5)


def test_equality_hash_and_repr_as_a_frozen_dataclass() -> None:
    assert Point(1, 2) != Point(2, 1)
    assert Point(1, 2) != (1, 2) and Point(1, 2) != PointDC(1, 2)  # same class only
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(2, 2)}) == 2
    assert repr(Point(1, 2)) == repr(PointDC(1, 2)).replace("PointDC", "Point")
    assert repr(Number(3, 0)) == "Number(value=3, pos=0)"


def test_immutable_and_copied_by_fields() -> None:
    point = Point(1, 2)
    with pytest.raises(FrozenRecordError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.y  # type: ignore[misc]
    assert copy.copy(point) == copy.deepcopy(point) == pickle.loads(pickle.dumps(point)) == point
    dice = Dice(2, "6", (1, 2, 3, 4, 5, 6), 1, (), None, 0, 3)
    assert pickle.loads(pickle.dumps(dice)) == dice


def test_a_factory_default_is_fresh_for_each_instance() -> None:
    one, two = Bag("a"), Bag("b")
    assert one.items == {} and one.items is not two.items
    assert Message("k").args == {} and Message("k").args is not Message("k").args


def test_wrong_arguments_say_which() -> None:
    with pytest.raises(TypeError, match="missing the argument 'x'"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 2 arguments, 3 given"):
        Point(1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected arguments"):
        Point(1, z=2)  # type: ignore[call-arg]
