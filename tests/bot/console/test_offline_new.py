"""The console's `:new` takes the game's own source of chance when none is named, as `legatus new` and Discord do."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from bot.console.offline import Console
from bot.service.legatus import Legatus


def say(console: Console, line: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        console.handle(line)
    return out.getvalue()


def test_new_without_randomness_takes_the_games_own(service: Legatus) -> None:
    console = Console(service)
    assert "created" in say(console, ":new sea mediterranean-empires")
    say(console, ":new rome mare-nostrum Romans=cato")
    sources = {name: json.loads(service.export(name).splitlines()[0])["data"]["randomness"] for name in ("sea", "rome")}
    assert sources == {"sea": "drand", "rome": "lottery"}
    said = say(console, ":new dice mare-nostrum Romans=cato randomness=commit-reveal")
    assert "commit-reveal seed" in said, said


def test_a_refused_new_leaves_the_console_on_its_campaign(service: Legatus) -> None:
    console = Console(service)
    say(console, ":new rome mare-nostrum Romans=cato")
    refused = say(console, ":new tm trading-mediterranean Greece=ann Egypt=bob Rome=cid")
    assert refused == ("Trading in the Mediterranean is for 4 to 6 civilizations, not 3: name each seat and its "
                       "player\n")
    assert console.campaign == "rome"
    say(console, ":as cato")
    assert "no campaign called" not in say(console, "/status")
