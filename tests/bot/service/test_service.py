"""The handlers every transport shares: permissions, atomic posts, GM tools, and input that must not break them."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlmodel import Session, select

from bot.service.legatus import Legatus
from bot.store.campaigns import EventRow, PostRow
from tests.conftest import LOTTO, PLAYERS


@pytest.fixture
def started(service: Legatus) -> Legatus:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    assert service.post("gm", "/turn open 2023-01-03").ok
    return service


def event_count(service: Legatus) -> int:
    with Session(service.engine) as session:
        return len(session.exec(select(EventRow)).all())


def test_gm_commands_are_refused_to_players(started: Legatus) -> None:
    for command in ("/turn close", "/turn open 2023-01-05", "/gm pass Seleucids", "/gm undo", "/gm set stability Romans 7",
                    "/campaign assign Romans mallory"):
        reply = started.post("antiochus", command)
        assert not reply.ok
        assert "is for the GM (gm) only" in reply.render(), command
    assert started.state()["nations"]["Romans"]["stability"] == 5


def test_players_act_only_for_their_own_nation(started: Legatus) -> None:
    reply = started.post("antiochus", "/order Ptolemaics build suburbs in Aegyptus")
    assert "you can give orders only for your own seat (Seleucids), not for the Ptolemaics" in reply.render()
    stranger = started.post("mallory", "build suburbs in Syria")
    assert "you (mallory) play no nation in this campaign" in stranger.render()
    out_of_turn = started.post("scipio", "build suburbs in Latium")
    assert "it is not your turn: the Seleucids (antiochus) are playing now" in out_of_turn.render()
    gm_for_them = started.post("gm", "/order Seleucids build suburbs in Syria")
    assert gm_for_them.ok, gm_for_them.render()


def test_only_the_battles_players_or_gm_report_it(started: Legatus) -> None:
    for user in ("antiochus", "ptolemy", "philip", "scipio", "hanno", "brennus"):
        started.post(user, "pass")
    state = started.state()
    assert state["phase"] == "battles"
    refused = started.post("philip", "/battle Bruttium winner Romans")
    assert "only the two players of battle #1 (brennus, scipio) or the GM can report it" in refused.render()
    assert started.post("brennus", "/battle Bruttium winner Romans").ok  # the invaders' player concedes
    assert started.state()["battles"][0]["status"] == "lost"


def test_a_refused_line_changes_nothing_and_the_next_still_applies(started: Legatus) -> None:
    before = event_count(started)
    reply = started.post("antiochus", "build suburbs in Latium\nbuild suburbs in Syria")
    assert [a.ok for a in reply.answers] == [False, True]
    assert "Latium is not yours (it belongs to the Romans)" in reply.render()
    assert event_count(started) == before + 1


def test_every_post_is_kept_with_its_answer(started: Legatus) -> None:
    started.post("antiochus", "bild suburbs in Syria")
    started.post("antiochus", "lovely weather in Antioch")
    with Session(started.engine) as session:
        posts = session.exec(select(PostRow)).all()
    texts = [p.text for p in posts]
    assert "lovely weather in Antioch" in texts
    assert any("did you mean 'build'" in p.answer for p in posts)


def test_undo_is_refused_once_the_outcome_is_known_and_a_void_is_on_record(started: Legatus) -> None:
    """The treaty's draw is stored (historical clock): its outcome is known at once, so an undo would be a
    mulligan. The GM may only void it, which names the outcome it discards, and the slot stays burnt."""
    assert started.post("antiochus", "pass").ok
    reply = started.post("ptolemy", "peace treaty with Romans")
    assert "bound to the draw of 2023-01-05, wheel PA, 1st number" in reply.render()
    undo = started.post("gm", "/gm undo wrong nation")
    assert not undo.ok and "cannot be undone" in undo.render() and "/gm void" in undo.render()
    assert len(started.state()["rolls"]) == 1
    assert "needs its reason" in started.post("gm", "/gm void").render()
    void = started.post("gm", "/gm void wrong nation")
    assert "The GM voids event" in void.render() and "Outcomes discarded: roll #2 (peace treaty) = 55" in void.render()
    state = started.state()
    assert state["rolls"] == []
    assert state["nations"]["Ptolemaics"]["actions"] == 2
    again = started.post("ptolemy", "peace treaty with Romans")
    assert "wheel RM, 1st number" in again.render(), "the undone roll's slot is never handed out again"


def test_nothing_typed_can_break_a_post(started: Legatus) -> None:
    rng = random.Random(20260101)
    words = ["attack", "from", "build", "temple", "in", "Latium", "Syria", "/turn", "/battle", "winner", "/gm", "set",
             "pass", "naval", "battle", "against", "Romans", "\u0000", "🐘", "'", '"', "\\", "/order", "Seleucids",
             "amphibious", "through", "Mare Cyprium", "-1", "99999999999999999999", "%s", "{}", "\n", "@everyone"]
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        author = rng.choice(["antiochus", "gm", "ptolemy", "nobody"])
        reply = started.post(author, text)
        assert "internal error" not in reply.render(), text
    # Whatever was accepted, the log still replays to the same state.
    fresh = Legatus(started.engine)
    assert fresh.state() == started.state()


def test_undo_is_replayed_from_an_exported_log(started: Legatus, tmp_path: Path) -> None:
    from engine.events import Event
    from engine.log import replay
    from engine.rulesets import load_ruleset
    import json

    started.post("antiochus", "build suburbs in Syria")
    started.post("gm", "/gm undo misclick")
    events = [Event.from_dict(json.loads(line)) for line in started.export().splitlines()]
    folded = replay(load_ruleset("mare-nostrum", started.data_dir), events)
    assert folded.state.provinces["Syria"].suburbs is False
    assert started.state()["nations"]["Seleucids"]["actions"] == 2


def test_a_refused_order_keeps_the_turn_open_even_with_pass_after_it(started: Legatus) -> None:
    """The player must not lose their actions because one line was mistyped: the pass waits for a fixed post."""
    reply = started.post("antiochus", "build fortification in Atlantis\npass")
    lines = reply.render().splitlines()
    assert lines[0].startswith("✗ line 1") and lines[1].startswith("✗ line 2") and "not applied" in lines[1]
    assert "your turn stays open" in lines[1]
    state = started.state()
    assert state["to_play"] == "Seleucids" and state["nations"]["Seleucids"]["actions"] == 2
    assert not reply.changed


def test_a_mixed_post_says_exactly_which_lines_were_applied(started: Legatus) -> None:
    reply = started.post("antiochus", "build suburbs in Syria\nbuild temple in Atlantis")
    assert reply.answers[0].ok and not reply.answers[1].ok
    assert "Applied: line 1. Not applied: line 2 (a refused line changes nothing)." in reply.render()
    assert started.state()["nations"]["Seleucids"]["actions"] == 1 and reply.changed


def test_many_rolls_in_one_turn_run_over_to_later_draws(started: Legatus) -> None:
    """A busy GM may roll a hundred times in a turn: the slots of one draw run out, the rolls go to later ones."""
    for i in range(110):
        reply = started.post("gm", f"/roll 1d6 volley {i}")
        assert reply.ok, reply.render()
    draws = {r["draw"] for r in started.state()["rolls"]}
    assert len(draws) >= 3
