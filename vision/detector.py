"""The detector entry point used by the rest of the system.

>>> from vision.detector import CardRecognizer
>>> rec = CardRecognizer.load()             # doctest: +SKIP  (committed weights, CPU, offline)
>>> dets = rec.detect(frame_bgr)            # doctest: +SKIP  (Detections, canonical names)

See :mod:`vision.recognition` for the two stages.
"""

from vision.recognition import CardRecognizer, DeckCalibration, ModelFilesMissing

__all__ = ["CardRecognizer", "DeckCalibration", "ModelFilesMissing"]
