"""The campaign's shell commands (bot/service/shell_commands/campaign.py): a seat assigned by the boundary's own
vocabulary of seats, whatever a game calls them, and a seed revealed only where the campaign's source keeps one."""
from __future__ import annotations

from bot.service.legatus import Legatus
from tests.conftest import PLAYERS
from tests.log_tools import events_of


def test_a_seat_is_assigned_by_the_boundary_s_vocabulary_of_seats(service: Legatus) -> None:
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    assigned = service.post("gm", "/campaign assign carthaginians mallory")
    assert assigned.changed, assigned.render()
    # The log keeps the key "nation", as every log since the first; the name is the game's own spelling.
    assert events_of(service)[-1].data == {"nation": "Carthaginians", "player": "mallory"}
    refused = service.post("gm", "/campaign assign Atlantis mallory")
    assert not refused.changed
    assert refused.render() == ("✗ line 1 “/campaign assign Atlantis mallory”: refused: unknown nation 'Atlantis'; "
                                "nations are: Carthaginians, Gauls, Macedonians, Ptolemaics, Romans, Seleucids")


def test_a_campaign_without_a_seed_says_where_its_rolls_come_from(service: Legatus) -> None:
    service.create_campaign("l", "mare-nostrum", "gm", dict(PLAYERS), randomness="lottery")
    service.create_campaign("d", "mare-nostrum", "gm", dict(PLAYERS), randomness="drand")
    lottery = service.post("gm", "/campaign reveal", campaign="l")
    drand = service.post("gm", "/campaign reveal", campaign="d")
    assert not lottery.changed and not drand.changed
    assert lottery.render() == ("✗ line 1 “/campaign reveal”: refused: this campaign's rolls come from lottery draws: "
                                "it has no seed to reveal")
    assert drand.render() == ("✗ line 1 “/campaign reveal”: refused: this campaign's rolls come from drand rounds: "
                              "it has no seed to reveal")
