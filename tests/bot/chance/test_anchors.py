"""Hole: "a log cut short or rewritten and re-hashed still verifies". Every post that binds a roll or opens a turn
publishes the head ``SEQ:HASH``; ``legatus verify LOG --expect-head SEQ:HASH`` catches a log that lacks it or differs."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.service.legatus import Legatus
from engine.events import Event
from engine.ledger import GENESIS, event_hash
from tests.conftest import LOTTO, PLAYERS

ANCHOR = re.compile(r"Log head after this post: (\d+:[0-9a-f]{64})")


def _played(service: Legatus) -> tuple[list[str], str]:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    anchors = []
    opened = service.post("gm", "/turn open 2023-01-03")
    anchors += ANCHOR.findall(opened.render())
    bound = service.post("antiochus", "peace treaty with Gauls")
    assert bound.changed, bound.render()
    anchors += ANCHOR.findall(bound.render())
    for player, order in (("antiochus", "peace treaty with Romans"), ("ptolemy", "peace treaty with Romans")):
        more = service.post(player, order)
        assert more.changed, more.render()
        anchors += ANCHOR.findall(more.render())
    talk = service.post("brennus", "nice weather in Gaul")
    assert not ANCHOR.findall(talk.render())  # nothing bound, no turn opened: no anchor to publish
    return anchors, service.export("c")


def _rehashed(events: list[Event]) -> str:
    head, lines = GENESIS, []
    for seq, event in enumerate(events, 1):
        event = replace(event, seq=seq, hash="")
        event = replace(event, hash=event_hash(head, event))
        head = event.hash
        lines.append(event.to_line())
    return "\n".join(lines) + "\n"


def _verify(tmp_path: Path, text: str, *anchors: str) -> tuple[int, str]:
    log = tmp_path / "log.jsonl"
    log.write_text(text)
    argv = ["verify", str(log), "--draws", str(LOTTO / "draws-2023-01.txt")]
    for anchor in anchors:
        argv += ["--expect-head", anchor]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue()


def test_binding_posts_publish_the_head_and_verify_checks_it(service: Legatus, tmp_path: Path) -> None:
    anchors, text = _played(service)
    assert len(anchors) == 4
    events = [Event.from_dict(json.loads(line)) for line in text.splitlines()]
    assert anchors[-1] == f"{events[-1].seq}:{events[-1].hash}"
    code, out = _verify(tmp_path, text, *anchors)
    assert code == 0, out
    assert "anchor" in out and anchors[-1] in out


@pytest.mark.parametrize("cut", [1, 2, 3, 4, 5])
def test_a_log_cut_short_is_caught_by_the_anchor(service: Legatus, tmp_path: Path, cut: int) -> None:
    anchors, text = _played(service)
    lines = text.splitlines()
    assert len(lines) > cut
    code, out = _verify(tmp_path, "\n".join(lines[:-cut]) + "\n", anchors[-1])
    assert code != 0 and "the log was cut" in out, out


def test_swapped_and_rehashed_events_are_caught_by_the_anchor(service: Legatus, tmp_path: Path) -> None:
    anchors, text = _played(service)
    events = [Event.from_dict(json.loads(line)) for line in text.splitlines()]
    i = next(n for n in range(2, len(events) - 1) if events[n].kind != events[n + 1].kind)
    events[i], events[i + 1] = events[i + 1], events[i]
    code, out = _verify(tmp_path, _rehashed(events), anchors[-1])
    assert code != 0 and ("the log was rewritten" in out or "the log was cut" in out), out


def test_a_changed_roll_rehashed_is_caught_by_the_anchor(service: Legatus, tmp_path: Path) -> None:
    anchors, text = _played(service)
    events = [Event.from_dict(json.loads(line)) for line in text.splitlines()]
    drawn = [n for n, e in enumerate(events) if e.kind == "draw.recorded"]
    assert drawn
    n = drawn[-1]
    numbers = {w: list(v) for w, v in events[n].data["numbers"].items()}
    numbers["PA"][0] = numbers["PA"][0] % 90 + 1
    events[n] = replace(events[n], data={**events[n].data, "numbers": numbers})
    rehashed = _rehashed(events)
    code, out = _verify(tmp_path, rehashed, anchors[-1])
    assert code != 0 and "the log was rewritten" in out, out
    # Without the anchor the chain itself is whole: only the anchor says the log is not the one published.
    assert "hash chain:" not in _verify(tmp_path, rehashed)[1]


def test_a_malformed_anchor_is_refused_with_what_is_right(tmp_path: Path, service: Legatus) -> None:
    _, text = _played(service)
    code, out = _verify(tmp_path, text, "12:abc")
    assert code != 0 and "'12:abc' is not SEQ:HASH" in out, out
