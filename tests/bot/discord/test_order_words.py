"""Choices that need words: the button's label, the modal's field, the line posted for the clicker."""
from __future__ import annotations

from bot.discord.order_words import (
    WORDS_BUTTON, WORDS_FIELD, WORDS_MODAL, beginning, fits, needs_words, order_of, submitted, words_button, words_modal,
)

CHOICE = "counter 3 <what you give> for <what you ask>"


def test_a_choice_with_a_placeholder_is_a_button_opening_a_modal() -> None:
    assert needs_words(CHOICE) and not needs_words("accept 3") and not needs_words("a < b")
    assert beginning(CHOICE) == "counter 3"
    button = words_button(CHOICE)
    assert (button.label, button.custom_id) == ("counter 3…", WORDS_BUTTON + CHOICE)
    modal = words_modal(CHOICE).to_dict()
    assert (modal["title"], modal["custom_id"]) == ("counter 3", WORDS_MODAL + CHOICE)
    (field,) = [c for row in modal["components"] for c in row["components"]]
    assert (field["custom_id"], field["label"], field["max_length"]) == (WORDS_FIELD, "<what you give> for <what you ask>", 400)
    assert fits(CHOICE) and not fits("counter 3 <" + "x" * 90 + ">")


def test_the_submission_is_the_beginning_and_the_words_on_one_line() -> None:
    data = {"custom_id": WORDS_MODAL + CHOICE,
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": WORDS_FIELD, "value": " goods.4\nfor 3 money "}]}]}
    assert submitted(data) == (WORDS_MODAL + CHOICE, " goods.4\nfor 3 money ")
    assert order_of(CHOICE, " goods.4\nfor 3 money ") == "counter 3 goods.4 for 3 money"
    assert submitted({**data, "custom_id": "legatus:party:4:" + CHOICE}) == ("legatus:party:4:" + CHOICE, " goods.4\nfor 3 money ")
    assert submitted({"custom_id": WORDS_MODAL + CHOICE, "components": []}) is None
    assert submitted(None) is None
