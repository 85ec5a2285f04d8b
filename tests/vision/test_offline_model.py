"""The committed model loads and predicts with every network connection made to fail."""

from __future__ import annotations

import socket
from typing import Any, NoReturn

import numpy as np
import pytest

from synth.render.scene import SceneStyle, compose_scene


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        attempts.append(args)
        raise OSError("network access is disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


@pytest.mark.parametrize("backend", ["openvino", "onnx", "torch"])
def test_committed_model_predicts_offline(no_network: list[Any], backend: str) -> None:
    from vision.detector import CardRecognizer

    rec = CardRecognizer.load(backend=backend)
    style = SceneStyle(card_width=(0.16, 0.2), hand_prob=0.0, glare_prob=0.0, blur_prob=0.0)
    scene = compose_scene(
        np.random.default_rng(11), cards=["green-4"], size=(480, 640), style=style
    )
    dets = rec.detect(scene.image)
    assert "green-4" in dets.card
    assert no_network == []  # nothing even tried
