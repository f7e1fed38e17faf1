"""What a seat alone is told, by direct message, with its buttons: a game's private view may hold ``"notices"``,
each ``{"id", "text", "choices"}`` (Market Day: an offer with a sealed promise made to the seat, its promise and
its Accept, Decline and Counter…). When a post pings a player, each notice of their seat not sent before goes to
them by DM, and its choices leave the public ping: a hidden part, and the buttons that answer it, reach the
parties alone. A click in the DM (or the modal of a choice that needs words) is posted as the clicker's own order
in the campaign its button names, through the same path and checks as a typed line. The console and
``legatus post`` show the same notices in /private, whose choices are typed."""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.discord.views import unkept_view
from sqlmodel import Session

from bot.discord.order_words import beginning, needs_words, order_of
from bot.discord.output import split_message, user_ids
from bot.store.campaigns import CampaignRow

log = logging.getLogger("legatus.discord")

PARTY = "legatus:party:"  # + "<campaign id>:" + the choice: a button (or its modal) in a DM
CUSTOM_ID_LIMIT = 100


def party_id(campaign_id: int, choice: str) -> str:
    return f"{PARTY}{campaign_id}:{choice}"


def parse_party_id(custom_id: str) -> tuple[int, str] | None:
    """(campaign id, choice) of a DM button's (or modal's) custom id, or None if it is not one."""
    if not custom_id.startswith(PARTY):
        return None
    campaign, _, choice = custom_id[len(PARTY):].partition(":")
    return (int(campaign), choice) if campaign.isdigit() and choice else None


def notices_of(view: Any) -> list[dict[str, Any]]:
    """The well-formed notices of a private view (anything else is left alone)."""
    raw = view.get("notices") if isinstance(view, dict) else None
    return [n for n in raw or [] if isinstance(n, dict) and isinstance(n.get("id"), str) and isinstance(n.get("text"), str)]


def notice_buttons(campaign_id: int, choices: list[str]) -> discord.ui.View | None:
    fitting = [c for c in choices if isinstance(c, str) and len(party_id(campaign_id, c)) <= CUSTOM_ID_LIMIT][:5]
    if not fitting:
        return None
    view = unkept_view()  # handled by custom id: discord.py need not keep it (bot/discord/views.py)
    for choice in fitting:
        label = beginning(choice) + "…" if needs_words(choice) else choice
        view.add_item(discord.ui.Button(label=label[:80], custom_id=party_id(campaign_id, choice),
                                        style=discord.ButtonStyle.secondary))
    return view


class PartyNotices:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # (campaign id, player, notice id) already sent: in memory, so a restart may send a notice once more.
        self._sent: set[tuple[int, str, str]] = set()

    async def send(self, campaign: Any, players: list[str]) -> set[str]:
        """DM each pinged player the new notices of their seat; returns every choice a notice of theirs holds (the
        public ping leaves those out)."""
        if campaign is None or campaign.id is None or not players:
            return set()
        try:
            return await self._send(campaign, players)
        except Exception:  # a notice is a convenience: its failure must never stop the ping (the view has it all)
            log.exception("the notices of campaign %s were not sent", campaign.name)
            return set()

    async def _send(self, campaign: Any, players: list[str]) -> set[str]:
        ruleset, state = await asyncio.to_thread(self.bot.service.folded, campaign.name)
        private: set[str] = set()
        for player in players:
            seat = ruleset.seat_of(state, player)
            if seat is None:
                continue
            for notice in notices_of(ruleset.private_view(state, seat)):
                choices = [str(c) for c in notice.get("choices") or []]
                private.update(choices)
                key = (campaign.id, player, notice["id"])
                if key not in self._sent:
                    self._sent.add(key)
                    await self._tell(player, f"**{campaign.name}**: {notice['text']}",
                                     notice_buttons(campaign.id, choices))
        return private

    async def _tell(self, player: str, text: str, buttons: discord.ui.View | None) -> None:
        for uid in user_ids([player]):
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                chunks = split_message(text)
                for i, chunk in enumerate(chunks):
                    await user.send(chunk, **({"view": buttons} if buttons is not None and i == len(chunks) - 1 else {}))
            except discord.HTTPException:  # DMs closed: given with the answer to their next slash command
                self.bot.notices[uid].append(text + " (answer it in the campaign's channel: /private)")

    async def clicked(self, interaction: discord.Interaction, custom_id: str, words: str | None = None) -> bool:
        """A click on a notice's button (or its modal submitted, with ``words``): posted as the clicker's order in
        the campaign the button names. False if ``custom_id`` is not a notice's."""
        parsed = parse_party_id(custom_id)
        if parsed is None:
            return False
        campaign_id, choice = parsed
        if needs_words(choice) and words is None:
            from bot.discord.order_words import words_modal

            modal = words_modal(choice)
            modal.custom_id = custom_id  # its submission comes back here, with the campaign it belongs to
            await interaction.response.send_modal(modal)
            return True
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await asyncio.to_thread(_campaign, self.bot.service.engine, campaign_id)
        if row is None:
            await interaction.followup.send("That campaign no longer exists.", ephemeral=True)
            return True
        order = order_of(choice, words) if words is not None else choice
        reply = await self.bot.run_post(row.name, interaction.user, order, row.gm_role_id)
        for chunk in split_message(reply.render()):
            await interaction.followup.send(chunk, ephemeral=True)
        return True


def _campaign(engine: Any, campaign_id: int) -> CampaignRow | None:
    with Session(engine) as session:
        row = session.get(CampaignRow, campaign_id)
        if row is not None:
            session.expunge(row)
        return row
