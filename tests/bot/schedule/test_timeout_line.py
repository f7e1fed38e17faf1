"""What the scheduler posts for a seat whose time ran out, through the boundary: the game's /gm pass if it has one
(the reason stays on record), else the prompt's own default given by the GM for the seat, else nothing (the GM
decides)."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.schedule.scheduler import timeout_line
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine import rulesets
from tests.conftest import LOTTO, PLAYERS
from tests.games import blind_auction
from tests.games.mediterranean_empires_players import standard_set_up


def test_each_game_gets_its_own_timeout_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, blind_auction.RULESET_ID, blind_auction.load)
    service = Legatus(open_engine(tmp_path / "t.db"))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    service.create_campaign("mare", "mare-nostrum", "gm", dict(PLAYERS))
    assert service.post("gm", "/turn open 2023-01-03", "mare").ok
    first = service.state("mare")["order_of_play"][0]
    assert timeout_line(service, "mare", first) == f"/gm pass {first} timeout"

    service.create_campaign("sea", "mediterranean-empires", "gm", {"Player A": "ann", "Player B": "bob"})
    # The set-up (3.1-3.2) has no default a deadline could apply: the GM is told.
    assert timeout_line(service, "sea", "Player A") is None
    standard_set_up(service, "sea")
    line = timeout_line(service, "sea", "Player A")
    assert line == '/order "Player A" draw'
    # The GM's /order for a seat whose name has a space: applied for that seat, as its player would.
    applied = service.post("gm", line, "sea")
    assert applied.ok and "draw" in applied.render(), applied.render()

    service.create_campaign("auction", blind_auction.RULESET_ID, "gm", {"North": "alice", "South": "bob"})
    assert timeout_line(service, "auction", "North") is None, "no default: the GM decides"
