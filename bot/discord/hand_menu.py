"""A seat's private view on Discord with its one-click orders: the ephemeral answer to /private carries a select
menu of the orders the game offers there (``private_view``'s "choices": a card to play, an offer to accept or
decline). A pick is posted as the picker's own order, through the same path and checks as a typed one: a menu
left open after the game moved on gets the game's refusal, never a stale action."""
from __future__ import annotations

import discord

from bot.discord.views import unkept_view

from bot.service.replies import Reply

HAND_SELECT = "legatus:hand"


def hand_menu(reply: Reply) -> discord.ui.View | None:
    choices = [c for a in reply.answers if a.private for c in a.choices]
    if not choices:
        return None
    menu: discord.ui.Select = discord.ui.Select(
        custom_id=HAND_SELECT, placeholder="Choose an order", min_values=1, max_values=1,
        options=[discord.SelectOption(label=c, value=c) for c in choices],
    )
    view = unkept_view()  # handled by custom id: discord.py need not keep it (bot/discord/views.py)
    view.add_item(menu)
    return view


def picked(data: object) -> str | None:
    """The order picked in the menu, from an interaction's data."""
    values = data.get("values") if isinstance(data, dict) else None
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        return None
    return values[0]
