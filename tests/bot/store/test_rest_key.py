"""Which key keeps the secrets at rest, and what the bot says when it has none."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.schedule.clock import FixedClock
from bot.service.legatus import INTERNAL_ERROR, Legatus
from bot.store import at_rest
from bot.store.db import open_engine
from bot.store.rest_key import NoRestKey, default_key_path, rest_keys

SECRET = {"content": {"card": 4}, "salt": "00" * 16}


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No server key, and a state folder of the test's own."""
    monkeypatch.delenv("LEGATUS_SECRET_KEY", raising=False)
    monkeypatch.delenv("LEGATUS_SECRET_KEY_FILE", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


def test_the_key_at_rest_is_derived_not_the_server_key_itself(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "a server key")
    (key,) = rest_keys()
    assert len(key) == 32 and b"a server key" not in key
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "another server key")
    assert rest_keys() != [key]


def test_systemd_s_state_directory_comes_first(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", f"{bare / 'unit'}:{bare / 'other'}")
    assert default_key_path() == bare / "unit" / "secret.key"
    monkeypatch.delenv("STATE_DIRECTORY")
    assert default_key_path() == bare / "state" / "legatus" / "secret.key"


def test_a_key_file_variable_naming_nothing_is_said_and_no_key_is_made(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEGATUS_SECRET_KEY_FILE", str(bare / "missing.key"))
    with pytest.raises(NoRestKey, match="LEGATUS_SECRET_KEY_FILE=.* cannot be read"):
        rest_keys()
    assert not default_key_path().exists()


def test_what_was_sealed_under_the_bot_s_own_key_still_opens_once_a_server_key_is_set(
        bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content, salt = at_rest.seal_row(1, 2, SECRET)
    assert default_key_path().is_file()
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "set later")
    assert len(rest_keys()) == 2
    assert at_rest.open_row(1, 2, content, salt) == SECRET
    again, _ = at_rest.seal_row(1, 2, SECRET)  # new rows: under the server key's
    monkeypatch.setenv("XDG_STATE_HOME", str(bare / "elsewhere"))  # the bot's own file gone
    assert at_rest.open_row(1, 2, again, "") == SECRET
    with pytest.raises(at_rest.SealedKeyMissing, match="LEGATUS_SECRET_KEY"):
        at_rest.open_row(1, 2, content, salt)


def test_a_sealed_order_with_no_key_to_be_had_is_refused_in_one_line(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator set no key and the state folder cannot be written: the bid is not taken, and the answer says
    what to set; nothing is half-written."""
    (bare / "state").write_text("a file where the folder should be", encoding="utf-8")
    monkeypatch.setenv("LEGATUS_RULESETS", "blind-auction=tests.games.blind_auction:load")
    service = Legatus(open_engine(bare / "a.db"), clock=FixedClock(datetime(2026, 11, 1, 12, tzinfo=timezone.utc)))
    assert service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"}).changed
    events = service.export()
    said = service.post("ann", "hand 9 4 2").render()
    assert INTERNAL_ERROR not in said and "LEGATUS_SECRET_KEY" in said, said
    assert service.export() == events
    service.engine.dispose()


def test_a_key_file_made_later_by_another_process_is_tried_too(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process with the server key asked for keys before a process without one made the bot's own file: rows
    sealed under that file's key still open here."""
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "a server key")
    assert len(rest_keys()) == 1
    monkeypatch.delenv("LEGATUS_SECRET_KEY")
    content, salt = at_rest.seal_row(1, 2, SECRET)  # the other process, with no server key: makes the file
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "a server key")
    assert at_rest.open_row(1, 2, content, salt) == SECRET
