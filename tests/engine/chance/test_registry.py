"""The registry of sources (engine/chance/registry.py): which sources there are, what each says about itself, and
the one place that says when a binding's value is public (verify's timing and an undo's refusal both read it)."""
from __future__ import annotations

import ast
import datetime as dt

from engine.chance import registry
from engine.chance.source import Source
from engine.chance.sources import commit_reveal, drand, lottery
from engine.lotto import BINDING_MARGIN
from tests.fixture_paths import REPO

UTC = dt.timezone.utc
QUICKNET = (1692803367, 3)


def test_the_registered_sources_and_the_ones_a_campaign_may_choose() -> None:
    assert registry.NAMES[:3] == ("lottery", "drand", "commit-reveal")
    assert registry.offered_names() == ("lottery", "drand", "commit-reveal")
    assert [registry.get(n) for n in ("lottery", "drand", "commit-reveal")] == [
        lottery.SOURCE, drand.SOURCE, commit_reveal.SOURCE]
    assert registry.get("dice") is None
    assert all(isinstance(s, Source) for s in registry.SOURCES) and len(set(registry.NAMES)) == len(registry.SOURCES)


def test_every_event_that_brings_a_public_value_has_exactly_one_source() -> None:
    kinds = registry.record_kinds()
    assert len(kinds) == len(set(kinds))
    assert {k: registry.recording(k) for k in ("draw.recorded", "draw.cancelled", "beacon.recorded", "random.recorded")} \
        == {"draw.recorded": lottery.SOURCE, "draw.cancelled": lottery.SOURCE, "beacon.recorded": drand.SOURCE,
            "random.recorded": commit_reveal.SOURCE}
    assert registry.recording("order") is None


def test_what_each_source_says_of_itself() -> None:
    said = {s.name: (s.verifiable, s.drand, s.lottery, s.seed, s.clocked) for s in registry.offered()}
    assert said == {"lottery": (True, False, True, False, True), "drand": (True, True, False, False, True),
                    "commit-reveal": (True, True, False, True, False)}
    assert lottery.SOURCE.margin is BINDING_MARGIN
    assert drand.SOURCE.margin == commit_reveal.SOURCE.margin == dt.timedelta(seconds=6)
    assert lottery.SOURCE.created_fields() == {"lottery_slots": 2}
    assert commit_reveal.SOURCE.created_fields() == {"mix": "drand"}
    assert drand.SOURCE.created_fields() == {}
    # What a game reads of a source instead of its name: the range one public number covers, its values in words.
    assert {s.name: (s.span, s.values_words) for s in registry.SOURCES} == {
        "lottery": (90, "lottery draws"), "drand": (None, "drand rounds"),
        "commit-reveal": (None, "commit-reveal numbers"), "fixed": (None, "fixed values")}


def test_the_moment_a_value_is_public() -> None:
    moment = lottery.SOURCE.moment
    assert moment("2023-07-05", QUICKNET) == dt.datetime(2023, 7, 5, 18, 0, tzinfo=UTC)  # 20:00 in Rome, summer UTC+2
    assert moment("2023-01-05", QUICKNET) == dt.datetime(2023, 1, 5, 19, 0, tzinfo=UTC)  # winter UTC+1
    assert moment("2023-13-01", QUICKNET) is None
    assert drand.SOURCE.moment("1", (1000, 3)) == dt.datetime.fromtimestamp(1000, tz=UTC)
    assert drand.SOURCE.moment("2", (1000, 3)) == dt.datetime.fromtimestamp(1003, tz=UTC)
    assert drand.SOURCE.moment("1", QUICKNET) == dt.datetime.fromtimestamp(1692803367, tz=UTC)
    assert drand.SOURCE.moment("x", QUICKNET) is None
    assert drand.SOURCE.moment("-5", QUICKNET) is None
    assert commit_reveal.SOURCE.moment("label", QUICKNET) is None


def test_what_a_binding_waits_for_follows_a_mixed_label_to_its_round() -> None:
    assert registry.behind("lottery", "2023-01-05") == (lottery.SOURCE, "2023-01-05")
    assert registry.behind("drand", "123") == (drand.SOURCE, "123")
    assert registry.behind("commit-reveal", "turn-1:roll-3:omen@drand:11") == (drand.SOURCE, "11")
    assert registry.behind("commit-reveal", "turn-1:roll-3:omen") is None  # the seed alone: no clock
    assert registry.behind("dice", "1") is None
    assert registry.public_moment("commit-reveal", "omen@drand:2", (1000, 3)) == (
        drand.SOURCE, "2", dt.datetime.fromtimestamp(1003, tz=UTC))
    assert registry.public_moment("drand", "x", (1000, 3)) is None


def test_what_the_shell_offers_a_campaign_with_each_event() -> None:
    assert registry.DEFAULT == "lottery"
    assert registry.choices_words() == "'lottery', 'drand' or 'commit-reveal'"
    assert drand.SOURCE.rounds_offered({}) is True
    assert lottery.SOURCE.rounds_offered({"mix": "drand"}) is False
    assert commit_reveal.SOURCE.rounds_offered({"mix": "drand"}) is True
    assert commit_reveal.SOURCE.rounds_offered({}) is False  # created before labels were mixed: the seed alone


def test_no_shared_module_names_a_source_so_a_new_one_touches_only_its_own() -> None:
    """The shell and the engine's shared modules (everything but the sources themselves and the games) ask a source
    through the registry or name it by its module's constant: a string literal equal to a source's name or prefix in
    one of them would be a place a new source has to be added by hand."""
    words = {*registry.NAMES, *(f"{name}:" for name in registry.NAMES)}
    shared = [*(REPO / "bot").rglob("*.py"), *(REPO / "engine").glob("*.py"), *(REPO / "engine" / "chance").glob("*.py"),
              *(REPO / "engine" / "tabletop").rglob("*.py")]
    named = [f"{path.relative_to(REPO)}:{node.lineno} {node.value!r}" for path in shared
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Constant) and node.value in words]
    assert len(shared) > 200 and named == []
