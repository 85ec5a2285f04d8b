"""The web app wired to a live runner: what ``uno-table serve`` and ``uno-table demo`` run.

:func:`build_app` makes the Flask app (:func:`web.create_app`) with a
:class:`~uno_table.live.LiveRunner` as its live side, submits the opening events, binds
the runner to the game service (its own store connection in the live thread, the
service's verdicts told to the runner, the pile's top given to the healer) and starts
it. ``from uno_table.live import build_app`` still works.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tracker.rules import RuleSet

if TYPE_CHECKING:
    from uno_table.live import LiveRunner


def build_app(
    *,
    source: str | None,
    players: list[str],
    rules: RuleSet | str,
    db: str,
    token: str | None,
    layout: str | None = None,
    layout_file: str | None = None,
    new_match: bool = False,
    loop: bool = False,
    realtime: bool = True,
    recognizer: Any = None,
    prepare: Callable[[LiveRunner], None] | None = None,
    models_dir: str | None = None,
    referee_script: list[dict[str, Any]] | None = None,
    video_fps: float = 15.0,
    opening: list[dict[str, Any]] | None = None,
    heal: bool = True,
) -> tuple[Any, LiveRunner | None]:
    """The web app wired to a live runner (or to none when ``source`` is None).

    ``opening`` events (e.g. the demo's deal) are submitted before the camera starts.
    ``layout_file`` is where the camera check (``/camera``) saves the table's layout.
    ``heal`` (default): the game service infers what the camera missed, with the
    camera's view of the pile as evidence (docs/healing.md); False: the bare tracker.
    """
    from uno_table.deck_setup import DeckSetup
    from uno_table.live import LiveRunner
    from web import NoLive, create_app, service_of
    from web.store import Store

    runner = (
        None
        if source is None
        else LiveRunner(
            source,
            players,
            layout=layout,
            loop=loop,
            realtime=realtime,
            recognizer=recognizer,
            prepare=prepare,
            models_dir=models_dir,
            referee_script=referee_script,
        )
    )
    app = create_app(
        {
            "DATABASE": db,
            "RULES": rules,
            "PLAYERS": players,
            "REFEREE_TOKEN": token,
            "NEW_MATCH": new_match,
            "LIVE": runner or NoLive("no video source (--source none)"),
            "VIDEO_FPS": video_fps,
            "DECK": DeckSetup(models_dir, live=runner),
            "HEAL": heal,
            # Where the camera check saves the table's layout.
            "LAYOUT_FILE": layout_file,
        }
    )
    service = service_of(app)
    if opening:
        store = Store.open(app.config["DATABASE"])
        try:
            for event in opening:
                service.submit(event, store, source="system")
        finally:
            store.close()
    if runner is not None:
        store_box: dict[str, Store] = {}

        def submit(event: dict[str, Any], source: str) -> dict[str, Any]:
            # The live thread keeps one connection of its own.
            if "store" not in store_box:
                store_box["store"] = Store.open(app.config["DATABASE"])
            verdict: dict[str, Any] = service.submit(
                event, store_box["store"], source=source
            ).verdict
            return verdict

        def observe_top(top: str | None, t: float) -> dict[str, Any] | None:
            if "store" not in store_box:
                store_box["store"] = Store.open(app.config["DATABASE"])
            done = service.observe_top(top, t, store_box["store"])
            return None if done is None else dict(done.verdict)

        runner.observe_top = observe_top
        service.listeners.append(runner.notify)
        runner.start(submit)
    return app, runner
