"""Campaign options (a game's optional rules and scenarios) chosen by the GM when the campaign is created: through
the service, the offline console and the command line; the game checks the names, the log keeps them."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

from bot.console.offline import Console
from bot.service.legatus import Legatus
from tests.bot.cli.test_cli import legatus

ME = "mediterranean-empires"


def created_data(service: Legatus, name: str) -> dict:
    first = json.loads(service.export(name).splitlines()[0])
    assert first["kind"] == "campaign.created"
    return first["data"]


def test_options_go_into_the_created_event_and_the_game_state(service: Legatus) -> None:
    reply = service.create_campaign("vespers", ME, "gm", {}, randomness="lottery", options=["vespers", "Poison"])
    assert reply.changed, reply.render()
    assert created_data(service, "vespers")["options"] == ["vespers", "Poison"]
    assert service.state("vespers")["options"] == ["vespers", "poison"]
    assert "Game turn 1 (1282–1290)" in service.status("vespers")


def test_without_options_the_created_event_is_unchanged(service: Legatus) -> None:
    assert service.create_campaign("plain", ME, "gm", {}, randomness="lottery").changed
    assert "options" not in created_data(service, "plain")
    assert service.state("plain")["options"] == []


def test_an_unknown_option_is_refused_with_the_games_list(service: Legatus) -> None:
    reply = service.create_campaign("bad", ME, "gm", {}, randomness="lottery", options=["mutiny"])
    assert not reply.changed
    assert "unknown option 'mutiny': Mediterranean Empires has mercenaries (14.1 Mercenaries)" in reply.render()
    assert "vespers (13.0 The War of the Sicilian Vespers)" in reply.render()


def test_a_game_without_options_refuses_them(service: Legatus) -> None:
    reply = service.create_campaign("mn", "mare-nostrum", "gm", {}, options=["poison"])
    assert not reply.changed and "Mare Nostrum has no campaign options; 'poison' cannot be chosen" in reply.render()


def test_the_console_names_options(service: Legatus) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        Console(service).handle(f":new con {ME} randomness=lottery options=mercenaries,concessions")
    assert "Campaign 'con' created" in out.getvalue(), out.getvalue()
    assert service.state("con")["options"] == ["mercenaries", "concessions"]


def test_the_command_line_names_options(tmp_path: Path) -> None:
    db = tmp_path / "me.db"
    done = legatus("new", "--db", str(db), "--ruleset", ME, "--randomness", "lottery", "--option", "vespers",
                   "--option", "mercenaries")
    assert done.returncode == 0, done.stdout + done.stderr
    refused = legatus("new", "--db", str(tmp_path / "x.db"), "--ruleset", ME, "--randomness", "lottery",
                      "--option", "poisson")
    assert refused.returncode == 1 and "unknown option 'poisson'" in refused.stdout
