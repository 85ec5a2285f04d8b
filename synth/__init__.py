"""The synthetic side: rendered cards, scenes and game videos, their ground truth, the
oracle recogniser that reads it, and the training data written from them.

Nothing at run time imports this package (``tests/test_foundation.py`` checks it):
the commands that render (``train``, ``render-video``, the demo's first-run video,
``replay --oracle``) import it inside the command. It depends on the runtime
(``vision.geometry``, ``vision.labels``, ``tracker``), never the other way round.
"""
