"""The watcher's rules, one module per kind of event, reading the card tracker's tracks:
:mod:`~vision.watch.plays`, :mod:`~vision.watch.fans` (several cards at once),
:mod:`~vision.watch.draws` (and :mod:`~vision.watch.arm_draws`, from arms),
:mod:`~vision.watch.takebacks`, :mod:`~vision.watch.seats`; each an object made with
the state they share (:class:`~vision.watch.state.WatcherState`) and the other rules
it asks, with a ``step(t, card) -> events`` where it makes events.
:class:`vision.watcher.Watcher` composes them."""
