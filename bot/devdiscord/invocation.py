"""An interaction the fake Discord sent to the bot, as a test sees it: what the bot answered, and waits for it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.devdiscord import model, payloads
from bot.devdiscord.protocol import InteractionRecord

if TYPE_CHECKING:
    from bot.devdiscord.api import FakeDiscord


class Invocation:
    """An interaction the fake sent to the bot; await what the bot answered."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self._fake = fake
        self.record = record

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE data as sent."""
        return self.record.payload

    @property
    def callback(self) -> dict[str, Any] | None:
        """The body the bot POSTed to /interactions/{id}/{token}/callback, if any yet."""
        return self.record.callback

    @property
    def original(self) -> dict[str, Any] | None:
        """The response message as it stands now (after edits), or None."""
        return self._message(self.record.original_message_id)

    @property
    def followups(self) -> list[dict[str, Any]]:
        return [m for m in (self._message(i) for i in self.record.followup_ids) if m is not None]

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    def _message(self, message_id: str | None) -> dict[str, Any] | None:
        message = self._fake.world.messages.get(message_id or "")
        if message is None or message.deleted:
            return None
        return payloads.message_payload(self._fake.world, message)

    async def wait_callback(self, timeout: float = 5.0) -> dict[str, Any]:
        await self._fake.wait_until(lambda: self.record.callback is not None, timeout,
                                    f"the bot to answer interaction {self.record.command_name or self.id}")
        assert self.record.callback is not None
        return self.record.callback

    async def wait_reply(self, timeout: float = 5.0) -> dict[str, Any]:
        """The visible response message, once it is no longer 'thinking' (immediate reply, or deferral followed by
        an edit of @original or a first follow-up)."""
        def ready() -> dict[str, Any] | None:
            message = self._fake.world.messages.get(self.record.original_message_id or "")
            if message is None or message.deleted or message.flags & model.FLAG_LOADING:
                return None
            return payloads.message_payload(self._fake.world, message)

        return await self._fake.wait_until(ready, timeout, f"a reply to {self.record.command_name or self.id}")

    async def wait_followup(self, index: int = 0, timeout: float = 5.0) -> dict[str, Any]:
        """The index-th follow-up message (0 = the first)."""
        await self._fake.wait_until(lambda: len(self.record.followup_ids) > index, timeout,
                                    f"follow-up #{index + 1} to {self.record.command_name or self.id}")
        message = self._message(self.record.followup_ids[index])
        assert message is not None
        return message
