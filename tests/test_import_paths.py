"""Modules split in two keep their old import paths: every name that code, benchmarks
and docs import from ``web.game``, ``web.api``, ``vision.recognition``,
``tracker.simulate``, ``uno_table.live``, ``synth.video``, ``synth.training``,
``web.deck_session`` and ``vision.source`` still imports from there, and is the same
object as in its new home."""

from __future__ import annotations

import importlib

import pytest

MOVED = {
    "tracker.simulate": {
        "tracker.simulate_table": ["ACTIONS", "NAMES", "RoundOver", "SimTable"],
        "tracker.simulate_turns": ["Simulator"],
        "tracker.simulate_mistakes": ["MISTAKES"],
    },
    "uno_table.live": {
        "uno_table.live_app": ["build_app"],
        "uno_table.live_link": ["ObserveTop", "ServiceLink", "Submit"],
        "uno_table.live_frames": ["LatestFrame", "cards_by_seat"],
        "uno_table.live_layout": ["LayoutInbox"],
    },
    "web.game": {
        "web.game_core": ["GameCore"],
        "web.game_values": [
            "ASK",
            "INFERRED",
            "RULES_EVENT",
            "ServiceError",
            "Submitted",
            "history_size",
            "is_rules_change",
            "resolve_rules",
            "rounds_of",
        ],
        "tracker": ["Game"],
    },
    "web.api": {
        "web.api_common": [
            "DISCARD_LIMIT",
            "REPEATED_HEADER",
            "_bad_event",
            "_discard_the_rest",
            "_ext",
            "_http_error",
            "_service",
            "_service_error",
            "_small_int",
            "error",
            "json_body",
            "presented_token",
            "referee_only",
        ],
        "web.api_export": [
            "MAX_ID_DIGITS",
            "_match_id",
            "export_events",
            "export_scores",
            "matches",
            "scores_csv",
        ],
        "web.api_write": [
            "CORRECT_KEYS",
            "MATCH_KEYS",
            "RESOLVE_KEYS",
            "RULES_KEYS",
            "change_rules",
            "correct",
            "new_match",
            "post_event",
            "resolve",
        ],
    },
    "vision.recognition": {
        "vision.card_finder": [
            "CardFinder",
            "Letterbox",
            "_card_shaped",
            "_has_card_shape",
            "_needs_margin",
        ],
        "vision.focus": ["Box", "_xyxy", "focus_merge", "focus_roi"],
        "vision.wild_inks": ["WILD_INK", "WILDS", "shows_wild_inks"],
        "vision.model_set": ["load_model_set"],
        "vision.model_files": [
            "CLASSIFIER_HEAD_FILE",
            "CLASSIFIER_META",
            "CLASSIFIER_ONNX",
            "CLASSIFIER_PT",
            "DECK_CLASSIFIER_FILE",
            "DECK_FILE",
            "DeckCalibration",
            "DeckFileError",
            "ModelFilesMissing",
            "base_head",
            "classifier_digest",
        ],
        "vision.geometry": ["warp_crop"],
        "vision.yolo_env": ["MODELS_DIR"],
    },
    "synth.video": {
        "synth.video_plan": ["Event", "_Clip", "_pass_over", "_plan", "_seat_from_clip"],
        "synth.video_motion": [
            "_blurred",
            "_cards_at",
            "_clip_state",
            "_ease_in_out",
            "_ease_out",
            "_lerp",
            "_mean",
        ],
        "synth.game_script": ["DEFAULT_PLAYERS", "script_game", "simulated_game"],
        "synth.oracle": ["OracleDetector"],
        "synth.painter": ["FrameCard"],
    },
    "synth.training": {
        "synth.training_data": [
            "_box_corners",
            "_game_frames",
            "_polygon_iou",
            "_write_cut_crops",
            "heap_label",
            "write_detector_cut_crops",
            "write_video_cut_crops",
            "write_video_frame_dataset",
        ],
    },
    "web.deck_session": {
        "web.deck_vision": [
            "DeckError",
            "DeckVision",
            "Found",
            "LabelledCard",
            "Progress",
            "Quad",
            "Reading",
        ],
        "web.deck_state": [
            "HELD_BACK_EVERY",
            "STAGES",
            "DeckCard",
            "DeckPhoto",
            "Job",
            "held_back",
        ],
    },
    "vision.source": {
        "vision.capture": [
            "Capture",
            "Frame",
            "Image",
            "_default_opener",
            "read_video",
            "source_kind",
            "video_fps",
        ],
    },
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_moved_names_import_from_their_old_module(old: str) -> None:
    module = importlib.import_module(old)
    for new, names in MOVED[old].items():
        home = importlib.import_module(new)
        for name in names:
            assert getattr(module, name) is getattr(home, name), f"{old}.{name}"


def test_the_classes_stay_where_they_were() -> None:
    from vision.recognition import CardRecognizer
    from web.game import GameService

    assert CardRecognizer.__module__ == "vision.recognition"
    assert GameService.__module__ == "web.game"
    from tracker.simulate import Simulator, simulate
    from uno_table.live import LiveRunner

    assert LiveRunner.__module__ == "uno_table.live"
    assert simulate.__module__ == "tracker.simulate"
    assert Simulator.__module__ == "tracker.simulate_turns"
    from synth.video import DemoVideo, RenderResult, ensure_demo_video, render_video

    for kept in (DemoVideo, RenderResult, ensure_demo_video, render_video):
        assert kept.__module__ == "synth.video"
    from synth.training import base_models_dir, train_classifier, train_detector

    for kept in (base_models_dir, train_classifier, train_detector):
        assert kept.__module__ == "synth.training"
    from web.deck_session import DeckSession

    assert DeckSession.__module__ == "web.deck_session"
    from vision.source import FrameSource, open_source

    assert FrameSource.__module__ == open_source.__module__ == "vision.source"
