"""The ``roll-list`` fence: a roll-table's lifecycle, its rows drawn as a numbered list."""

from __future__ import annotations

from rollbook.markup.fence_runner import formatter_for
from rollbook.markup.prescan import NAME_OF
from rollbook.markup.roll_list.render import list_body
from rollbook.markup.roll_table.fence import RollTableFence, validator
from rollbook.markup.roll_table.model import TableView

__all__ = ["RollListFence", "formatter", "validator"]


class RollListFence(RollTableFence):
    """``roll-list``: the same lifecycle, drawn as a numbered list."""

    NAME = NAME_OF["list"]
    KIND = "list"

    def body(self, view: TableView, anchor: str) -> str | None:
        """A numbered list (``roll_list.render``)."""
        return list_body(view)


# -- the names superfences' custom_fences configuration uses --------------------------------

formatter = formatter_for(RollListFence)
