"""The rules per event type, as :class:`~tracker.game.Game` applies them: one handler
per event type, taking a :class:`~tracker.handlers.common.Context`, the state and the
typed event; it changes the state in place and says ``(ok, alerts, changed)``.

* :mod:`tracker.handlers.common`: the context (rules, a verdict's extra) and the steps
  the rules share (seats, drawing, a refused play), :class:`~tracker.handlers.common.Bad`.
* :mod:`tracker.handlers.rounds`: ``round`` (the deal), ``flip`` (the starter card),
  ``end-round`` (the round scored).
* :mod:`tracker.handlers.plays`: ``play`` (who may play, which cards, their effect) and
  ``color``.
"""
