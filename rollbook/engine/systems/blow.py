"""What a system declares for the combat widget's odds: which procedure tells a blow's chance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["BlowOdds"]


@dataclass(frozen=True)
class BlowOdds:
    """How to ask a system for the chance of an ordinary blow landing (`System.blow_odds`).

    Attributes:
        procedure: The procedure whose exact odds tell it (``attack``, ``defend``).
        params: Its parameters, from the attacker's and the defender's stat blocks.
        landing: The outcomes that mean the blow lands.
        lands_unless: True when ``landing`` lists the outcomes that mean it does not.
    """

    procedure: str
    params: dict[str, Any]
    landing: tuple[str, ...]
    lands_unless: bool = False
