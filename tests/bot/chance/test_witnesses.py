"""Holes 3 and 9: "binding time is the operator's clock" and "anchors help only a verifier who has one".

Each binding is witnessed by something the operator does not hold: the bot's Discord message carrying the head,
whose id Discord stamps. ``legatus verify --witnesses FILE`` holds the log to them."""
from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import re
from dataclasses import replace
from pathlib import Path

from bot.cli.main import main
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.events import Event
from engine.ledger import GENESIS, event_hash
from tests.conftest import LOTTO, PLAYERS

ANCHOR = re.compile(r"Log head after this post: (\d+:[0-9a-f]{64})")
UTC = dt.timezone.utc
DISCORD_EPOCH_MS = 1420070400000  # Discord's snowflake epoch, 2015-01-01


def snowflake(moment: dt.datetime) -> str:
    """The id Discord would give a message sent at ``moment``."""
    return str((int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22)


def _verify(tmp_path: Path, log_text: str, *extra: str) -> tuple[int, str]:
    log = tmp_path / "log.jsonl"
    log.write_text(log_text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["verify", str(log), "--draws", str(LOTTO / "draws-2023-01.txt"), *extra])
    return code, out.getvalue()


def _jsonl(tmp_path: Path, messages: list[tuple[dt.datetime, str]]) -> str:
    path = tmp_path / "witnesses.jsonl"
    path.write_text("".join(json.dumps({"id": snowflake(at), "content": text}) + "\n" for at, text in messages))
    return str(path)


def _clock_set_back(tmp_path: Path) -> tuple[Legatus, list[str]]:
    """The operator holds the draws of January 2023 and sets the bot's clock back to the morning of the 5th: the
    turn opens on the draw of the 5th and a GM roll binds to the 7th, both already stored, both settled at once."""
    clock = FixedClock(dt.datetime(2023, 1, 31, 21, 0, tzinfo=UTC))  # the true time: every draw of the file held
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    clock.moment = dt.datetime(2023, 1, 5, 10, 0, tzinfo=UTC)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live").changed
    replies = [service.post("gm", "/turn open"), service.post("gm", "/roll 1d6 omen of the augurs")]
    assert all(r.changed for r in replies), [r.render() for r in replies]
    assert "Lottery draw of 2023-01-07 recorded." in replies[1].render()  # settled in the very post that bound it
    return service, [ANCHOR.findall(r.render())[-1] for r in replies]


def test_operator_with_the_clock_set_back_is_caught_by_the_discord_messages(tmp_path: Path) -> None:
    """Attacker: the operator, with the database and the clock. The log's stamps say 10:00 on the 5th; the bot's
    Discord messages carrying the heads were stamped by Discord on the 8th, after both draws were held."""
    service, heads = _clock_set_back(tmp_path)
    text = service.export("c")
    really = dt.datetime(2023, 1, 8, 9, 0, tzinfo=UTC)
    witnesses = _jsonl(tmp_path, [(really, f"…\nLog head after this post: {heads[0]}"),
                                  (really + dt.timedelta(minutes=1), f"…\nLog head after this post: {heads[1]}")])
    code, out = _verify(tmp_path, text, "--witnesses", witnesses)
    assert code == 1, out
    turn_seq, roll_seq = (int(h.split(":")[0]) for h in heads)
    message = snowflake(really)
    assert (f"MISMATCH event #{turn_seq - 1}, turn 1: order of play and events (roll #turn-1): first witnessed by "
            f"Discord message {message} at 2023-01-08T09:00:00Z, after 2023-01-05T18:50:00Z (the margin before its "
            "lottery value 2023-01-05, public at 2023-01-05T19:00:00Z): nothing outside the bot shows it bound in "
            "advance") in out, out
    assert (f"MISMATCH event #{roll_seq - 1}, turn 1: gm roll (roll #2): first witnessed by Discord message "
            f"{snowflake(really + dt.timedelta(minutes=1))} at 2023-01-08T09:01:00Z, after 2023-01-07T18:50:00Z") in out, out


def test_the_same_log_without_witnesses_says_its_times_rest_on_the_operators_clock(tmp_path: Path) -> None:
    """Attacker: the operator, with the clock. With no witness verify cannot see it; it must say what it could not
    check, and the draws recorded before they were held still give the clock away."""
    service, _ = _clock_set_back(tmp_path)
    code, out = _verify(tmp_path, service.export("c"))
    assert ("note: no anchor given: a log rewritten and re-hashed whole would pass these checks; give --expect-head "
            "or --witnesses") in out, out
    assert "binding(s) have no witness" in out and "rests on the log's own clock, the operator's" in out, out
    assert ("draw of 2023-01-05: recorded at 2023-01-05T10:00:00Z, before it was held (2023-01-05T19:00:00Z, 20:00 in "
            "Rome): the log's clock was wrong or set back") in out, out
    assert code == 1


def test_witnesses_in_time_pass(tmp_path: Path) -> None:
    """No attacker (the control): an honest bot, each head on Discord a second after its binding, long before
    the draw; the operator's clock and Discord's agree."""
    clock = FixedClock(dt.datetime(2023, 1, 2, 10, 0, tzinfo=UTC))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live").changed
    opened = service.post("gm", "/turn open")
    assert opened.changed, opened.render()
    head = ANCHOR.findall(opened.render())[-1]
    clock.moment = dt.datetime(2023, 1, 4, 12, 0, tzinfo=UTC)  # the draw comes in after it was held
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    witnesses = _jsonl(tmp_path, [(dt.datetime(2023, 1, 2, 10, 0, 1, tzinfo=UTC), f"Log head after this post: {head}")])
    code, out = _verify(tmp_path, service.export("c"), "--witnesses", witnesses)
    assert code == 0, out
    assert "no anchor given" not in out and "have no witness" not in out, out
    assert "note: 1 witness(es) of the log's head matched the log" in out, out


def _rehashed(events: list[Event]) -> str:
    head, lines = GENESIS, []
    for event in events:
        event = replace(event, hash="")
        event = replace(event, hash=event_hash(head, event))
        head = event.hash
        lines.append(event.to_line())
    return "\n".join(lines) + "\n"


def test_a_rehashed_rewrite_with_a_changed_die_is_caught_by_the_exported_channel(service: Legatus,
                                                                                   tmp_path: Path) -> None:
    """Attacker: the operator, with the database. They change a drawn number and re-hash the whole chain, and hand
    out that log; a verifier who exported the channel (DiscordChatExporter) holds it to the heads posted there."""
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    posts = [service.post("gm", "/turn open 2023-01-03"), service.post("antiochus", "peace treaty with Gauls")]
    heads = [ANCHOR.findall(p.render())[-1] for p in posts]
    events = [Event.from_dict(json.loads(line)) for line in service.export("c").splitlines()]
    n = max(i for i, e in enumerate(events) if e.kind == "draw.recorded")
    numbers = {w: list(v) for w, v in events[n].data["numbers"].items()}
    numbers["PA"][0] = numbers["PA"][0] % 90 + 1
    events[n] = replace(events[n], data={**events[n].data, "numbers": numbers})
    at = dt.datetime(2026, 11, 22, 12, 0, 5, tzinfo=UTC)
    export = {"guild": {"id": "1", "name": "g"}, "channel": {"id": "2", "name": "c"}, "messages": [
        {"id": snowflake(at + dt.timedelta(seconds=i)), "type": "Default",
         "timestamp": (at + dt.timedelta(seconds=i)).isoformat(), "timestampEdited": None,
         "content": f"…\nLog head after this post: {head}", "author": {"id": "9", "name": "Legatus", "isBot": True}}
        for i, head in enumerate(heads)]}
    (tmp_path / "channel.json").write_text(json.dumps(export))
    code, out = _verify(tmp_path, _rehashed(events), "--witnesses", str(tmp_path / "channel.json"))
    assert code == 1, out
    last_seq = heads[-1].split(":")[0]
    assert (f"MISMATCH event #{last_seq}: witness: Discord message {export['messages'][1]['id']}, seen "
            f"2026-11-22T12:00:06Z, showed event #{last_seq} with hash {heads[-1].split(':')[1][:16]}…") in out, out
    assert "the log was rewritten" in out


def test_a_head_typed_by_a_player_is_no_witness(service: Legatus, tmp_path: Path) -> None:
    """Attacker: a player with Discord, who types a made-up head line to make an honest log look rewritten."""
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    service.post("gm", "/turn open 2023-01-03")
    forged = {"messages": [{"id": snowflake(dt.datetime(2026, 11, 22, 13, 0, tzinfo=UTC)), "timestampEdited": None,
                            "content": f"Log head after this post: 2:{'ab' * 32}",
                            "author": {"id": "7", "name": "brennus", "isBot": False}}]}
    (tmp_path / "channel.json").write_text(json.dumps(forged))
    code, out = _verify(tmp_path, service.export("c"), "--witnesses", str(tmp_path / "channel.json"))
    assert code == 0 and "MISMATCH" not in out, out
    assert "warning: the witness file(s) hold no head line posted by the bot" in out, out


def test_an_anchor_with_the_time_it_was_seen_is_a_witness(tmp_path: Path) -> None:
    """Attacker: the operator with the clock, caught by a player who noted the head and when they saw it."""
    service, heads = _clock_set_back(tmp_path)
    code, out = _verify(tmp_path, service.export("c"), "--expect-head", f"{heads[1]}@2023-01-08T09:00:00Z")
    assert code == 1 and "first witnessed by anchor" in out and "after 2023-01-05T18:50:00Z" in out, out
    bad = _verify(tmp_path, service.export("c"), "--expect-head", f"{heads[1]}@yesterday")[1]
    assert "the time after '@' must be YYYY-MM-DDTHH:MM:SSZ (UTC)" in bad, bad


def test_a_witness_file_that_is_not_an_export_is_refused_saying_what_is(tmp_path: Path, service: Legatus) -> None:
    """Attacker: an outsider with the export, who hands over notes typed by hand instead of the channel's JSON."""
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    (tmp_path / "w.txt").write_text("Log head after this post: 1:abc\n")
    log = tmp_path / "log.jsonl"
    log.write_text(service.export("c"))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["verify", str(log), "--witnesses", str(tmp_path / "w.txt")])
    assert code == 1
    assert "w.txt:1: 'Log head after this post: 1:abc' is not JSON: give DiscordChatExporter's JSON export" in err.getvalue()
