"""A modal filled in and submitted on the fake Discord: a type-5 interaction answering the modal the bot opened
(callback type 9) in answer to an earlier interaction. Discord shows a modal to the one who opened it alone."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.devdiscord.protocol import INTERACTION_MODAL

if TYPE_CHECKING:
    from bot.devdiscord.api import FakeDiscord, Invocation


async def submit_modal(fake: FakeDiscord, opened: Invocation, user: str, values: Mapping[str, str]) -> Invocation:
    """``user`` fills in the modal the bot opened in answer to ``opened`` (its text inputs by custom_id) and submits
    it; refused (AssertionError, as the fake's other misuses) when no modal was opened, the user is not the one
    who opened it, or a field is not the modal's."""
    from bot.devdiscord.api import Invocation

    modal = opened.record.modal
    if modal is None:
        raise AssertionError("the bot opened no modal in answer to this interaction")
    author = fake.user(user)
    if author.id != opened.record.user_id:
        raise AssertionError(f"{user} cannot submit a modal opened for another user")
    fields = {c.get("custom_id") for row in modal.get("components") or [] for c in row.get("components") or []}
    unknown = sorted(set(values) - fields)
    if unknown:
        raise AssertionError(f"the modal has no field {', '.join(unknown)}: its fields are {sorted(map(str, fields))}")
    data = {"custom_id": modal.get("custom_id"), "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]} for key, value in values.items()]}
    record = await fake.server.create_interaction(INTERACTION_MODAL, guild_id=opened.record.guild_id,
                                                  channel_id=opened.record.channel_id, user_id=author.id, data=data)
    return Invocation(fake, record)
