"""``@record``: frozen records made without exec behave as frozen dataclasses do."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from rollbook.engine.dice.nodes import Dice, Number
from rollbook.engine.messages import Message
from rollbook.engine.record import FrozenRecordError, record


@record
class Point:
    """A point, as a test record."""

    x: int
    y: int
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


def test_fields_and_class_attributes() -> None:
    assert Point(1, 0) == Point(1, y=0) == Point(x=1, y=0) == Point(y=0, x=1)
    assert Point(2, 3).total == 5 and Point(2, 3).order == Point.order == 3
    assert Point.__match_args__ == ("x", "y")
    assert not hasattr(Point(1, 0), "__dict__")  # slotted
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


def test_a_message_without_arguments_gets_a_fresh_mapping() -> None:
    assert Message("k").args == {} and Message("k").args is not Message("k").args
    assert Message("k", {"a": 1}) == Message(key="k", args={"a": 1})


def test_wrong_arguments_say_which() -> None:
    with pytest.raises(TypeError, match="missing the argument 'y'"):
        Point(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 2 arguments, 3 given"):
        Point(1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected arguments"):
        Point(1, z=2)  # type: ignore[call-arg]
