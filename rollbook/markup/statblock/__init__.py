"""The ``statblock`` fence: the fence (``fence``) and the creature card's HTML (``render``)."""
