"""Follow-ups longer than one Discord message: every part sent, in order, none dropped.

A /verify verdict lists every mismatch and note, and a sealed hand read back to its author can be long; cutting
them at 2,000 characters would hide exactly the lines a reader needs (the last mismatch, the last card)."""
from __future__ import annotations

from typing import Any

import discord

from bot.discord.output import split_message


async def follow_up_whole(interaction: discord.Interaction, text: str, *, file: discord.File | None = None,
                          ephemeral: bool = False) -> list[Any]:
    """Sends ``text`` as as many follow-ups as it needs, in order; ``file`` goes with the first part, so the
    verdict's opening and the log it speaks of arrive together. Returns the messages sent."""
    sent: list[Any] = []
    for i, part in enumerate(split_message(text) or [""]):
        if i == 0 and file is not None:
            sent.append(await interaction.followup.send(part, file=file, ephemeral=ephemeral, wait=True))
        else:
            sent.append(await interaction.followup.send(part, ephemeral=ephemeral, wait=True))
    return sent
