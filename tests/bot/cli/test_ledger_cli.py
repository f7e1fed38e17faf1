"""`legatus ledger`, through argparse, on a whole campaign played on the real draws."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bot.cli.ledger import add_commands
from engine import canonical


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers(metavar="COMMAND"))
    args = parser.parse_args(argv)
    return int(args.func(args))


def last_hash(log: Path) -> str:
    return str(json.loads(log.read_text(encoding="utf-8").splitlines()[-1])["hash"])


def test_the_current_turn_and_the_head(played_campaign: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    db, log = played_campaign
    assert run(["ledger", "--db", str(db), "--json"]) == 0
    ledger = json.loads(capsys.readouterr().out)
    assert ledger["head"] == last_hash(log) and len(ledger["head"]) == 64
    assert ledger["turn"] > 1 and all(r["turn"] == ledger["turn"] for r in ledger["rolls"])
    assert run(["ledger", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"Turn {ledger['turn']} (")
    assert any("order of play and events: lottery draw" in line for line in out)
    assert out[-1].startswith(f"Hash chain head: {ledger['last_seq']}:{last_hash(log)} (SEQ:HASH")


def test_every_turn(played_campaign: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = played_campaign
    assert run(["ledger", "--db", str(db), "--all", "--json"]) == 0
    ledger = json.loads(capsys.readouterr().out)
    turns = {r["turn"] for r in ledger["rolls"]}
    assert len(turns) > 1 and len(ledger["rolls"]) > 10
    assert all(r["values"] is not None for r in ledger["rolls"] if r["turn"] < ledger["turn"])
    assert run(["ledger", "--db", str(db), "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = next(r for r in ledger["rolls"] if isinstance(r["id"], int))
    assert any(
        line.startswith(f"#{first['id']} turn {first['turn']} {first['purpose']}")
        and first["where"] in line and f"-> {first['values'][0]}: {first['outcome']}" in line
        for line in lines
    ), lines[:5]


def test_a_new_campaign_and_an_unknown_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.store.db import open_engine
    from bot.service.legatus import Legatus

    db = tmp_path / "c.db"
    Legatus(open_engine(db)).create_campaign("camp", "mare-nostrum", "gm", {"Romans": "scipio"})
    assert run(["ledger", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "The campaign has not started" in out and "No roll bound in turn 0." in out
    assert run(["ledger", "--db", str(db), "--campaign", "nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_the_ledger_shows_gm_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli.ledger import build_ledger, render
    from tests.engine.mare_nostrum.test_gm_roll import NEXT_DAY, RULESET, Campaign, draw

    c = Campaign()
    c.roll("2d6", "siege of Numantia")
    c.roll("1d7")
    c.add("draw.recorded", "legatus", draw(NEXT_DAY, [28, 36]))
    assert c.folded is not None
    ledger = build_ledger(RULESET, c.folded.state, c.folded.head, c.folded.last_seq, every_turn=True)
    lines = render(ledger)
    assert any("gm roll: lottery draw 2023-01-05, wheel PA, number 1 -> 28: die 1 = 4" in line for line in lines), lines
    assert canonical.dumps(ledger)  # JSON-clean


def test_a_changed_event_breaks_the_chain_and_is_refused(
    played_campaign: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    import sqlite3

    db, _ = played_campaign
    copy = tmp_path / "changed.db"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as plain:
        # Someone edits an old event in the file, keeping its stored hash: the recomputed chain no longer follows.
        changed = plain.execute("UPDATE event SET body = replace(body, '\"actor\":\"antiochus\"', '\"actor\":\"philip\"') "
                                "WHERE seq = (SELECT min(seq) FROM event WHERE actor = 'antiochus')").rowcount
    assert changed == 1
    assert run(["ledger", "--db", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "does not verify" in err and "does not match the hash chain" in err and "Traceback" not in err


def test_a_changed_event_is_refused_in_words_with_no_snapshot_to_start_from(
    played_campaign: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """As above, on a store with no snapshot (a restore drops them; one not sealed by this bot is ignored): the fold
    walks the whole log, so the chain is checked first and the answer is a line, not a traceback."""
    import sqlite3

    db, _ = played_campaign
    copy = tmp_path / "changed.db"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as plain:
        plain.execute("DELETE FROM snapshot")
        plain.execute("UPDATE event SET body = replace(body, '\"actor\":\"antiochus\"', '\"actor\":\"philip\"') "
                      "WHERE seq = (SELECT min(seq) FROM event WHERE actor = 'antiochus')")
    assert run(["ledger", "--db", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "does not verify" in err and "does not match the hash chain" in err and "Traceback" not in err
