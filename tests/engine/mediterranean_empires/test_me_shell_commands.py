"""The shell's commands Mediterranean Empires refuses (engine/mediterranean_empires/shell_commands.py): the lottery's
rulings on a campaign whose dice come from elsewhere, said in the words of the campaign's own source."""
from __future__ import annotations

import pytest

from engine.chance.book import ChanceBook
from engine.mediterranean_empires.shell_commands import FIRST_ORDER, refusals
from engine.mediterranean_empires.state import State


def _state(source: str) -> State:
    state = State(phase="stratagems")
    state.book = ChanceBook(source=source)
    return state


@pytest.mark.parametrize(("source", "words"), [
    ("drand", "drand rounds"), ("commit-reveal", "commit-reveal numbers"), ("fixed", "fixed values")])
def test_the_lottery_rulings_are_refused_in_the_words_of_the_campaign_source(source: str, words: str) -> None:
    said = refusals(_state(source))
    assert said["lotto confirm"] == said["lotto cancelled"] == f"this campaign's dice come from {words}, not from the lottery"


def test_a_lottery_campaign_takes_the_lottery_rulings() -> None:
    said = refusals(_state("lottery"))
    assert "lotto confirm" not in said and "lotto cancelled" not in said
    assert said["turn open"] == f"a game of Mediterranean Empires has no turn to open: it starts by itself; {FIRST_ORDER}"
