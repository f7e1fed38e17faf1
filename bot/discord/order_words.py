"""One-click orders that still need words: a prompt's (or a hand's) choice holding a placeholder, e.g.
``counter 1 <what you give> for <what you ask>``, is a button labelled by what comes before it ("counter 1"); the
click opens a modal asking for the words, and the submission is posted as the clicker's own order, the beginning
of the choice followed by the words typed, through the same path and checks as a typed line. The console and
``legatus post`` take the same line typed whole."""
from __future__ import annotations

import re
from typing import Any

import discord

WORDS_BUTTON = "legatus:words:"  # + the choice with its placeholder
WORDS_MODAL = "legatus:words-modal:"  # + the choice
WORDS_FIELD = "words"
PLACEHOLDER = re.compile(r"<[^<>]+>")
CUSTOM_ID_LIMIT = 100  # Discord's limit on a component's custom_id


def needs_words(choice: str) -> bool:
    return PLACEHOLDER.search(choice) is not None


def beginning(choice: str) -> str:
    """What the clicker's order starts with: the choice up to its first placeholder ("counter 1")."""
    match = PLACEHOLDER.search(choice)
    return (choice[:match.start()] if match else choice).strip()


def fits(choice: str) -> bool:
    return len(WORDS_MODAL + choice) <= CUSTOM_ID_LIMIT


def words_button(choice: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=beginning(choice)[:80] + "…", custom_id=WORDS_BUTTON + choice,
                             style=discord.ButtonStyle.secondary)


def words_modal(choice: str) -> discord.ui.Modal:
    """The modal of a choice: one line of words, described by the choice's placeholders."""
    asked = " ".join(choice[len(beginning(choice)):].split())  # "<what you give> for <what you ask>"
    modal = discord.ui.Modal(title=beginning(choice)[:45] or "Your order", custom_id=WORDS_MODAL + choice)
    modal.add_item(discord.ui.TextInput(label=asked[:45] or "the rest of the order", custom_id=WORDS_FIELD,
                                        placeholder=asked[:100], max_length=400))
    return modal


def submitted(data: object) -> tuple[str, str] | None:
    """(the modal's custom id, the words typed) from a modal submission's data, or None if it holds no words
    field of ours."""
    if not isinstance(data, dict):
        return None
    custom_id = str(data.get("custom_id", ""))
    for row in data.get("components") or []:
        for item in (row.get("components") or []) if isinstance(row, dict) else []:
            if isinstance(item, dict) and item.get("custom_id") == WORDS_FIELD:
                return custom_id, str(item.get("value") or "")
    return None


def order_of(choice: str, words: str) -> str:
    """The line posted for the clicker: the choice's beginning and the words typed (on one line: a modal's line
    breaks would make several orders of one answer)."""
    return f"{beginning(choice)} {' '.join(words.split())}".strip()


async def words_interaction(bot: Any, interaction: discord.Interaction) -> bool:
    """The interactions of choices that need words, and of the seat's notices in DMs (bot/discord/party_notices.py):
    a button opening a modal, a modal submitted, a hand-menu pick that needs words. False: none of these."""
    from bot.discord.answers import run_text_command
    from bot.discord.hand_menu import HAND_SELECT, picked

    data: dict[str, Any] = dict(interaction.data) if isinstance(interaction.data, dict) else {}
    custom_id = str(data.get("custom_id", ""))
    if interaction.type is discord.InteractionType.modal_submit:
        words = submitted(data)
        if words is None:
            return False
        if not await bot.party.clicked(interaction, words[0], words[1]) and words[0].startswith(WORDS_MODAL):
            await run_text_command(bot, interaction, order_of(words[0][len(WORDS_MODAL):], words[1]), offer_undo=True)
        return True
    if interaction.type is not discord.InteractionType.component:
        return False
    order = picked(data) if custom_id == HAND_SELECT else None
    if custom_id.startswith(WORDS_BUTTON) or order is not None and needs_words(order):
        await interaction.response.send_modal(words_modal(order or custom_id[len(WORDS_BUTTON):]))
        return True
    return bool(await bot.party.clicked(interaction, custom_id))
