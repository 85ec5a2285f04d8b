"""The detector entry point used by the rest of the system.

>>> from vision.detector import CardRecognizer
>>> rec = CardRecognizer.load()  # doctest: +SKIP
>>> dets = rec.detect(frame_bgr)  # doctest: +SKIP

``load()`` reads the committed weights from ``models/`` (CPU, offline); ``detect``
gives :class:`vision.detections.Detections` with canonical card names.

See :mod:`vision.recognition` for the two stages.
"""

from vision.recognition import CardRecognizer, DeckCalibration, ModelFilesMissing

__all__ = ["CardRecognizer", "DeckCalibration", "ModelFilesMissing"]
