"""The composition root: the only place that wires ``tracker``, ``vision`` and ``web``."""
