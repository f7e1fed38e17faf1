"""The `legatus` command line, run as a real process on a real SQLite file."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LOTTO, PLAYERS


def legatus(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, input=stdin, env=full_env, timeout=120
    )


@pytest.fixture
def campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The campaign the tests play, made through the command line's entry point in this process (the set-up is
    not what these tests prove; two interpreters a test cost more than the rest of it)."""
    from bot.cli.main import main

    db = tmp_path / "camp.db"
    players = [arg for nation, user in PLAYERS.items() for arg in ("--player", f"{nation}={user}")]
    assert main(["new", "--db", str(db), "--ruleset", "mare-nostrum", *players]) == 0
    assert "Campaign 'mare-nostrum' created" in capsys.readouterr().out
    assert main(["lotto", "import", "--db", str(db), str(LOTTO / "draws-2023-01.txt")]) == 0
    assert "13 draws (143 wheel results) added" in capsys.readouterr().out
    return db


def test_a_turn_through_the_command_line(campaign: Path, tmp_path: Path) -> None:
    db = str(campaign)
    opened = legatus("post", "--db", db, "--as", "gm", "/turn open 2023-01-03")
    assert "Order of play: Seleucids (NA 90), Ptolemaics (GE 80), Macedonians (FI 40), Romans (MI 27), Carthaginians (BA 18), Gauls (CA 6)" in opened.stdout
    first = legatus("post", "--db", db, "--as", "antiochus", "build fortification in Syria\nwhat a nice day\nraise fleet in levantine")
    assert "✓ line 1" in first.stdout and "✓ line 3" in first.stdout and "line 2" not in first.stdout
    wrong = legatus("post", "--db", db, "--as", "scipio", "build temple in Latum", "--strict")
    assert wrong.returncode == 3  # some lines refused (`legatus post --help`)
    assert "unknown province 'Latum': did you mean Latium?" in wrong.stdout
    state = json.loads(legatus("state", "--db", db, "--json").stdout)
    assert state["turn"] == 1 and state["to_play"] == "Ptolemaics"
    assert state["provinces"]["Syria"]["fortification"] is True
    assert state["fleets"] == {"Mare Cyprium": {"Seleucids": 1}}
    assert state["events"]["Romans"] == {"name": "Invasion", "number": 38, "province": "Bruttium"}
    assert set(state) >= {"ruleset", "turn", "order_of_play", "nations", "provinces", "fleets", "events", "rolls", "winner"}
    log = tmp_path / "camp.log"
    assert legatus("export", "--db", db, "--out", str(log)).returncode == 0
    replayed = legatus("replay", str(log), "--json")
    assert replayed.returncode == 0
    assert replayed.stdout == legatus("state", "--db", db, "--json").stdout


def test_import_twice_changes_nothing_and_a_contradiction_is_refused(campaign: Path, tmp_path: Path) -> None:
    again = legatus("lotto", "import", "--db", str(campaign), str(LOTTO / "draws-2023-01.txt"))
    assert again.returncode == 0
    assert "0 draws (0 wheel results) added, 143 unchanged" in again.stdout
    forged = tmp_path / "forged.txt"
    forged.write_text("2023/01/03\tBA\t18\t60\t66\t51\t20\n", encoding="utf-8")
    refused = legatus("lotto", "import", "--db", str(campaign), str(forged))
    assert refused.returncode == 1
    assert "contradicts the stored draw of 2023/01/03 BA" in refused.stdout
    assert "the stored draw is kept" in refused.stdout


def test_console_script_and_interactive(campaign: Path, tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text(
        "# a transcript\n"
        "gm: /turn open 2023-01-03\n"
        "antiochus: build fortification in Syria\n"
        "  build suburbs in Syria\n",
        encoding="utf-8",
    )
    played = legatus("console", "--db", str(campaign), "--script", str(script))
    assert played.returncode == 0
    assert "✓ line 2 “build suburbs in Syria”" in played.stdout
    typed = legatus("console", "--db", str(campaign), stdin="ptolemy> build suburbs in Egypt\n:status\n:quit\n")
    assert typed.returncode == 0
    assert "Ptolemaics: build suburbs in Aegyptus" in typed.stdout
    assert "Turn 1 (290 BC)" in typed.stdout


def test_run_without_token_is_the_offline_console(tmp_path: Path) -> None:
    result = legatus("run", "--db", str(tmp_path / "fresh.db"), stdin="")
    assert result.returncode == 0
    assert "offline console" in result.stderr
    assert "No campaign in this database yet" in result.stdout


def test_bad_input_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    missing = legatus("lotto", "import", "--db", str(tmp_path / "x.db"), str(tmp_path / "nope.txt"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr and "Traceback" not in missing.stderr
    bad_player = legatus("new", "--db", str(tmp_path / "x.db"), "--player", "Romans")
    assert bad_player.returncode == 2 and "SEAT=USER" in bad_player.stderr
    no_database = legatus("state", "--db", str(tmp_path / "empty.db"))
    assert no_database.returncode == 2 and "there is no database at" in no_database.stderr
    assert not (tmp_path / "empty.db").exists()
    assert legatus("lotto", "import", "--db", str(tmp_path / "draws.db"), str(LOTTO / "draws-2023-01.txt")).returncode == 0
    no_campaign = legatus("state", "--db", str(tmp_path / "draws.db"))
    assert no_campaign.returncode == 2 and "holds no campaign" in no_campaign.stderr
    garbage = tmp_path / "garbage.log"
    garbage.write_text("not json\n", encoding="utf-8")
    broken = legatus("replay", str(garbage))
    assert broken.returncode == 1 and "garbage.log:1" in broken.stderr and "Traceback" not in broken.stderr


def test_lotto_list_shows_the_dates_a_turn_can_open_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main
    from tests.fixture_paths import LOTTO

    db = str(tmp_path / "c.db")
    assert main(["lotto", "list", "--db", db]) == 2  # a read never makes a database
    assert "there is no database at" in capsys.readouterr().err
    assert main(["new", "--db", db, "--ruleset", "mare-nostrum", "--player", "Romans=alice"]) == 0
    assert main(["lotto", "list", "--db", db]) == 0
    assert "No stored draw" in capsys.readouterr().out
    assert main(["lotto", "import", "--db", db, str(LOTTO / "draws-2023-01.txt")]) == 0
    capsys.readouterr()
    assert main(["lotto", "list", "--db", db, "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "2023-01-03 2023-01-05 2023-01-07" in out and "latest stored: 2023-01-31" in out
    assert main(["lotto", "list", "--db", db, "--from", "1e308"]) == 2
    assert "write a date as YYYY-MM-DD" in capsys.readouterr().err
    assert main(["lotto", "list", "--db", db, "--limit", "-5"]) == 2


def test_every_option_says_what_it_is_for() -> None:
    from bot.cli.main import build_parser

    def parsers(parser):  # type: ignore[no-untyped-def]
        yield parser
        for action in parser._actions:
            for sub in (getattr(action, "choices", None) or {}).values() if hasattr(action, "_name_parser_map") else ():
                yield from parsers(sub)

    missing = [
        f"{p.prog} {'/'.join(a.option_strings) or a.dest}"
        for p in parsers(build_parser()) for a in p._actions
        if not a.help and a.dest not in ("help", "command") and not hasattr(a, "_name_parser_map")
    ]
    assert missing == []
