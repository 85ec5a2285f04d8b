"""The ultralytics environment, set before ultralytics is imported anywhere.

Offline (no hub, no GitHub asset downloads), no automatic ``pip install`` of missing
packages, and a project-local, git-ignored settings folder. ``vision/__init__.py``
imports this module first, so ``import vision.anything`` is enough; code outside
``vision`` that imports ultralytics directly must import :mod:`vision.yolo_env` first.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
MODELS_DIR = PROJECT_ROOT / "models"
CONFIG_DIR = Path(os.environ.get("YOLO_CONFIG_DIR") or PROJECT_ROOT / ".ultralytics")

os.environ["YOLO_OFFLINE"] = "1"
os.environ["YOLO_AUTOINSTALL"] = "false"
os.environ["YOLO_CONFIG_DIR"] = str(CONFIG_DIR)
CONFIG_DIR.mkdir(parents=True, exist_ok=True)
