"""A notation the engine refuses comes back with its caret display, for the dice box."""

from __future__ import annotations

from rollbook.engine import bridge


def test_bad_notation_carries_the_caret() -> None:
    reply = bridge.handle({"op": "roll", "expr": "3d6+", "seed": 1})
    assert reply["caret"] == "3d6+\n    ^"
    assert reply["error"].startswith("The notation ends too early")


def test_errors_without_a_position_have_no_caret() -> None:
    assert "caret" not in bridge.handle({"op": "roll", "expr": "1d6", "seed": -1})
