"""The bot's buttons: handled by their custom ids (``LegatusBot.on_interaction``), so discord.py need not keep them.

discord.py stores every view sent with a message until it times out; a view with no timeout (the buttons must work
for as long as a turn lasts, days) stays for the life of the process, one per message with buttons: months of them
in a long campaign. A view stopped before it is sent is never stored, and its buttons work all the same.
"""
from __future__ import annotations

import discord


def unkept_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.stop()
    return view
