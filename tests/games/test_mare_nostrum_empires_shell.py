"""Mare Nostrum: Empires through the shell with no change to it: the console, the store, sealed commerce offers
revealed together, the row's hidden shuffle bound to a drand beacon from a relay on 127.0.0.1 and keyed by the deck
key the bot seals at the creation, a whole 3-player game to the three titles
(tests/games/mare_nostrum_empires_players.py), then the export replayed and verified."""
from __future__ import annotations

import json
from pathlib import Path

from engine.events import Event
from engine.mare_nostrum_empires import rules_version as versions
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.games.mare_nostrum_empires_players import create, ok, private, rest_of_game, say, table


def test_a_whole_game_through_the_console_then_verified(tmp_path: Path) -> None:
    with table(tmp_path / "mne.db") as t:
        service, console = t.service, t.console
        create(t)
        assert "Row: " in service.status()
        ok(console, "ann> offer wine, tax")
        ok(console, "bob> offer oil, tax")
        # Sealed until all are in: nobody else reads an offer, in the state or in their private view.
        assert service.state()["commerce"]["offers"]["Romans"]["tokens"] is None
        assert "wine" not in json.dumps(service.state()["commerce"])
        assert private(console, "cat")["offer"] is None and private(console, "ann")["offer"] == ["wine", "tax"]
        ok(console, "cat> offer wheat, tax")
        assert service.state()["commerce"]["offers"]["Romans"]["tokens"] == ["wine", "tax"]
        refused = say(console, "ann> take oil from Greeks")
        assert "Carthaginians picks now, not Romans" in refused
        rest_of_game(t)
        summary = service.summary()
        assert summary.over and summary.winner == "Romans", service.status()
        assert private(console, "ann")["tiles"] == ["Caesar"]

        log = [json.loads(line) for line in service.export().splitlines()]
        assert all("secret" not in e for e in log), "the export never carries the private store"
        # Every commerce offer (6), the row's five tiles turned up (each sealed by the bot, then revealed) and, at
        # the end, the deck key that keys the row's hidden order.
        revealed = [e["data"]["seq"] for e in log if e["kind"] == "secret.revealed"]
        sealed = {e["seq"]: e["data"]["key"] for e in log if e["kind"] == "secret.sealed"}
        assert len(revealed) == 12 and sorted(sealed[s] for s in revealed if s in sealed) == [
            "deck-key", "row.1", "row.2", "row.3", "row.4", "row.5"]
        assert log[1]["kind"] == "secret.sealed" and log[1]["data"]["key"] == "deck-key"  # before any post
        assert log[0]["data"]["rules_version"] == versions.NEWEST  # a new campaign follows the newest rules
        result = verify(load_ruleset("mare-nostrum-empires", service.data_dir), [Event.from_dict(e) for e in log], {})
        assert_verified_but_for_the_test_chain(result)
