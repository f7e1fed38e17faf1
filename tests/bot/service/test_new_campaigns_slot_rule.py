"""A lottery campaign created now names slot rule 2 in its campaign.created (engine/chance/lottery_slots.py), so its
free rolls never share a wheel of a draw; a campaign of another randomness keeps the event it always had."""
from __future__ import annotations

from bot.service.legatus import Legatus
from tests.conftest import PLAYERS
from tests.log_tools import events_of


def test_a_new_lottery_campaign_takes_one_number_per_wheel(service: Legatus) -> None:
    """Attacker: none needed; the linked slots of rule 1 must not reach a campaign created from now on."""
    service.import_draws("\n".join(f"2023/01/{d:02d}\t{w}\t{i + 1}\t{i + 11}\t{i + 21}\t{i + 31}\t{i + 41}"
                                   for d in (3, 5) for i, w in enumerate(("BA", "CA", "FI", "GE", "MI", "NA", "PA",
                                                                          "RM", "RN", "TO", "VE"))), "import:t.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    assert events_of(service, "c")[0].data["lottery_slots"] == 2
    service.post("gm", "/turn open 2023-01-03")
    for i in range(5):
        assert service.post("gm", f"/roll 1d6 r{i}").changed
    rolls = service.state("c")["rolls"]
    assert [(r["draw"], r["wheel"], r["position"]) for r in rolls] == [
        ("2023-01-05", "PA", 1), ("2023-01-05", "RM", 1), ("2023-01-05", "TO", 1), ("2023-01-05", "VE", 1),
        ("2023-01-05", "BA", 4)]


def test_a_drand_campaign_keeps_its_created_event(service: Legatus) -> None:
    """Attacker: none; a field a drand campaign does not use stays out of its log."""
    service.create_campaign("d", "mare-nostrum", "gm", dict(PLAYERS), randomness="drand")
    assert "lottery_slots" not in events_of(service, "d")[0].data
