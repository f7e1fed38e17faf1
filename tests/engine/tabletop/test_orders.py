"""Trade orders in plain words: what each word of a bundle is, and refusals that quote the word."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.tabletop import orders

MINE = orders.Vocabulary(resources=("oil",), cards=("goods.1", "goods.2"))
THEIRS = orders.Vocabulary(resources=("oil",), faces=("grain", "wine"))
SEATS = {"north": "North", "south": "South", "bob": "South"}


def test_an_offer_with_cards_money_resources_faces_a_promise_and_a_secret() -> None:
    read = orders.read_offer('offer goods.1, 2 money and 3 oils for 2 grain, wine and "safe passage" to bob '
                             "secretly I vote with you", MINE, THEIRS, SEATS)
    assert read == {
        "to": "South",
        "give": {"money": 2, "resources": {"oil": 3}, "cards": ["goods.1"], "faces": {}, "text": ""},
        "get": {"money": 0, "resources": {}, "cards": [], "faces": {"grain": 2, "wine": 1}, "text": "safe passage"},
        "secret": "I vote with you",
    }
    assert orders.read_offer("offer nothing for 1 money to everyone", MINE, THEIRS, SEATS)["to"] == "everyone"
    assert orders.read_offer("offer me a deal", MINE, THEIRS, SEATS) is None


@pytest.mark.parametrize("line, said", [
    ("offer goods.3 for 1 wine to South", "'goods.3' is not something you can give: name money, oil, goods.1, goods.2"),
    ("offer 1 money for 1 goods.1 to South", "'1 goods.1' is not something you can ask for: name money, oil, grain, wine"),
    ("offer 0 money for 1 wine to South", "'0 money': an amount is 1 to 1000000"),
    ("offer 1 money for 1 wine to West", "'West' is not a seat nor a player: offer to one of North, South or everyone"),
])
def test_a_bad_word_is_quoted_with_what_would_be_right(line: str, said: str) -> None:
    with pytest.raises(Rejection) as exc:
        orders.read_offer(line, MINE, THEIRS, SEATS)
    assert exc.value.reason.startswith(said)


def test_answers_and_counters() -> None:
    assert orders.read_answer("accept 3 with goods.4, goods.7") == ("accept", 3, ["goods.4", "goods.7"])
    assert orders.read_answer("Decline 2") == ("decline", 2, [])
    with pytest.raises(Rejection, match="'x' is not an offer number: write 'withdraw <number>', e.g. 'withdraw 3'"):
        orders.read_answer("withdraw x")
    assert orders.read_counter("counter 4 goods.2 for 2 wine", MINE, THEIRS) == {
        "offer": 4, "give": {"money": 0, "resources": {}, "cards": ["goods.2"], "faces": {}, "text": ""},
        "get": {"money": 0, "resources": {}, "cards": [], "faces": {"wine": 2}, "text": ""}, "secret": None}


def test_an_item_with_a_line_break_is_refused_by_name_not_crashed_on() -> None:
    # OFFER reads across lines (re.S), so a give or get may hold a line break: the item is quoted, never a crash.
    with pytest.raises(Rejection) as refused:
        orders.read_offer("offer 2 oil\nmore oil for wine to bob", MINE, THEIRS, SEATS)
    assert refused.value.reason == ("'2 oil\nmore oil' is not something you can give: name money, oil, goods.1, "
                                    "goods.2, or a promise in quotes")
