"""The ``roll-list`` fence: a roll-table drawn as a numbered list (``fence``, ``render``)."""
