"""The ``roll-table`` and ``roll-list`` fences: the fence (``fence``) and its HTML (``render``)."""
