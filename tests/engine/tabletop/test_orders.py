"""Trade orders in plain words: what each word of a bundle is, and refusals that quote the word."""
from __future__ import annotations

import dataclasses

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
    ("offer goods.3 for 1 wine to South", "'goods.3' is not something you can give: name money, oil, goods.1, goods.2, or a promise in quotes"),
    ("offer 1 money for 1 goods.1 to South", "'1 goods.1' is not something you can ask for: name money, oil, grain, wine, or a promise in quotes"),
    ("offer 0 money for 1 wine to South", "'0 money': an amount is 1 to 1000000"),
    ("offer 1 money for 1 wine to West", "'West' is not a seat nor a player: offer to one of North, South or everyone"),
])
def test_a_bad_word_is_quoted_with_what_would_be_right(line: str, said: str) -> None:
    with pytest.raises(Rejection) as exc:
        orders.read_offer(line, MINE, THEIRS, SEATS)
    assert exc.value.reason == said


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


def test_a_vocabulary_cannot_be_changed_once_a_game_has_given_it() -> None:
    """One vocabulary reads every seat's orders: changed by one reading, it would change what the next one accepts."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(THEIRS, "faces", ("gold",))
    assert THEIRS == orders.Vocabulary(resources=("oil",), faces=("grain", "wine")) and hash(THEIRS) == hash(
        orders.Vocabulary(resources=("oil",), faces=("grain", "wine")))


def test_an_amount_up_to_the_bound_is_taken_and_one_past_it_refused() -> None:
    assert orders.bundle("1000000 money", MINE, True)["money"] == 1000000
    with pytest.raises(Rejection) as past:
        orders.bundle("1000001 oil", MINE, True)
    assert past.value.reason == "'1000001 oil': an amount is 1 to 1000000"


def test_a_face_asked_for_in_the_plural_counts_under_its_name() -> None:
    assert orders.bundle("2 wines and grains", THEIRS, False)["faces"] == {"wine": 2, "grain": 1}
    with pytest.raises(Rejection) as giving:
        orders.bundle("2 wines", THEIRS, True)
    assert giving.value.reason == "'2 wines' is not something you can give: name money, oil, or a promise in quotes"


@pytest.mark.parametrize("line, read", [("accept 1", ("accept", 1, [])), ("withdraw 100000", ("withdraw", 100000, []))])
def test_an_offer_number_runs_from_1_to_100000(line: str, read: tuple[str, int, list[str]]) -> None:
    assert orders.read_answer(line) == read


@pytest.mark.parametrize("number", ["0", "100001"])
def test_an_offer_number_outside_1_to_100000_is_refused_quoting_it(number: str) -> None:
    with pytest.raises(Rejection) as refused:
        orders.read_answer(f"Accept {number}")
    assert refused.value.reason == f"'{number}' is not an offer number: write 'accept <number>', e.g. 'accept 3'"
