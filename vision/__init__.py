"""Frames in, events out: sources, detector, calibration, watcher, renderer.

Knows nothing of ``web``. The ultralytics environment is fixed on import.
"""

from vision import yolo_env as _yolo_env  # noqa: F401  (must precede any ultralytics import)
