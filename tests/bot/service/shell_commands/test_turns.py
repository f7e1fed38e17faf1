"""The turns' shell commands (bot/service/shell_commands/turns.py): a turn opened on a day with no stored lottery
draw is refused with what is stored and what to do."""
from __future__ import annotations

from bot.service.legatus import Legatus
from tests.conftest import PLAYERS
from tests.fixture_paths import REPO


def test_a_turn_opened_past_the_stored_draws_says_which_is_the_latest_or_that_none_is(service: Legatus) -> None:
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), "historical")
    empty = service.post("gm", "/turn open 2026-11-28")
    assert not empty.changed
    assert empty.render() == ("✗ line 1 “/turn open 2026-11-28”: refused: no stored lottery draw on or after "
                              "2026-11-28 (no draw is stored yet): import the draws first (legatus lotto import)")
    service.import_draws((REPO / "tests" / "data" / "lotto" / "draws-2023-01.txt").read_text(encoding="utf-8"),
                         "draws-2023-01.txt")
    late = service.post("gm", "/turn open 2026-11-28")
    assert late.render() == ("✗ line 1 “/turn open 2026-11-28”: refused: no stored lottery draw on or after "
                             "2026-11-28 (the latest stored is 2023-01-31): import the draws first (legatus lotto "
                             "import)")
    assert service.post("gm", "/turn open 2023-01-03").changed

