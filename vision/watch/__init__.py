"""The watcher's rules, one module per kind of event, reading the card tracker's tracks:
:mod:`~vision.watch.plays`, :mod:`~vision.watch.fans` (several cards at once),
:mod:`~vision.watch.draws`, :mod:`~vision.watch.takebacks`, :mod:`~vision.watch.seats`;
their shared state in :mod:`~vision.watch.state`. :class:`vision.watcher.Watcher`
puts them together."""
