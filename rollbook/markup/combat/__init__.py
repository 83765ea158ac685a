"""The ``combat`` fence: the fence (``fence``), the widget's HTML (``render``), odds (``odds``)."""
