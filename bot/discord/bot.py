"""The Discord face of Legatus: campaigns in channels and forum threads, slash commands and plain orders.

Everything a user does goes through bot/service/legatus.py, exactly like the console. This module only adapts:
identities (a player is stored as ``<@user id>``, a campaign's GM as ``<@&role id>``), the GM check (the
campaign's GM role), threads and forum posts, and message limits. Mentions are off for the whole client
and opted in per message, for the player whose turn comes and nobody else.
"""
from __future__ import annotations

import asyncio
import io
import logging
import os
from collections import defaultdict
from typing import Any

import discord
from discord import app_commands

from bot.discord.output import split_message, turn_announcement, user_ids
from bot.service.replies import Reply
from bot.service.legatus import Legatus

log = logging.getLogger("legatus.discord")

API_BASE_SETTING = "DISCORD_API_BASE"


def apply_api_base() -> None:
    """Point discord.py at another API (the local fake Discord); production never sets it."""
    base = os.environ.get(API_BASE_SETTING, "").strip()
    if base:
        discord.http.Route.BASE = base.rstrip("/")
        log.info("Discord API base set to %s", discord.http.Route.BASE)


async def adopt_bot_gateway(client: discord.Client) -> None:
    """A plain Client dials Discord's default gateway; against another API, ask it where its gateway is."""
    import yarl
    from discord.gateway import DiscordWebSocket

    _, url, _ = await client.http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def identity(user: discord.abc.User) -> str:
    return f"<@{user.id}>"


def campaign_channel_id(channel: Any) -> str | None:
    """The channel that hosts a campaign: the channel itself, or the parent of a thread or forum post."""
    if channel is None:
        return None
    if isinstance(channel, discord.Thread):
        return str(channel.parent_id)
    return str(channel.id)


class LegatusBot(discord.Client):
    def __init__(self, service: Legatus, *, guild_id: int | None = None, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = True  # orders come as plain messages: this privileged intent is required
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(), **options)
        self.service = service
        self.tree = app_commands.CommandTree(self)
        self.dev_guild = discord.Object(id=guild_id) if guild_id else None
        # One post at a time per campaign: the fold and the log move in order.
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        # The thread (or forum post) of each campaign's current turn, where its announcements go.
        self.turn_threads: dict[str, int] = {}

        register_commands(self)

    async def setup_hook(self) -> None:
        if os.environ.get(API_BASE_SETTING, "").strip():
            await adopt_bot_gateway(self)
        from bot.discord.poster import DiscordPoster
        from bot.schedule.scheduler import start_scheduler

        # Deadlines, reminders and lottery fetches: the database is the truth, the scheduler is reconciled to it.
        self.scheduler = await start_scheduler(self.service, DiscordPoster(self), campaign_lock=self._locks.__getitem__)
        if self.dev_guild is not None:
            self.tree.copy_global_to(guild=self.dev_guild)
            await self.tree.sync(guild=self.dev_guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None and scheduler.running:
            scheduler.shutdown(wait=False)
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guild(s)", self.user, len(self.guilds))

    # --- plain messages --------------------------------------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is None or not message.content or message.author == self.user:
            return
        channel_id = campaign_channel_id(message.channel)
        campaign = self.service.campaign_for_channel(channel_id) if channel_id else None
        if campaign is None:
            return
        reply = await self.run_post(campaign.name, message.author, message.content, campaign.gm_role_id)
        if not reply.answers:
            return  # table talk is left alone
        await self.send_reply(message.channel, reply, reference=message)

    async def run_post(self, campaign: str, user: discord.abc.User, text: str, gm_role_id: str | None) -> Reply:
        is_gm = is_campaign_gm(user, gm_role_id)
        async with self._locks[campaign]:
            before = (await asyncio.to_thread(self.service.summary, campaign)).turn
            reply = await asyncio.to_thread(self.service.post, identity(user), text, campaign, is_gm=is_gm)
            if reply.changed:
                summary = await asyncio.to_thread(self.service.summary, campaign)
                if summary.turn > before and summary.playing:
                    await self.open_turn_thread(campaign, summary, reply)
            return reply


    async def open_turn_thread(self, campaign: str, summary: Any, reply: Reply) -> None:
        """Each turn gets its own forum post (in a forum) or thread (in a text channel), opened by the bot."""
        row = self.service.campaign_for_channel_name(campaign)
        channel = self.get_channel(int(row.channel_id)) if row and row.channel_id else None
        name = summary.turn_label[:100]
        text = split_message(turn_announcement(summary))
        try:
            if isinstance(channel, discord.ForumChannel):
                created = await channel.create_thread(name=name, content=text[0])
                thread: discord.Thread = created.thread
            elif isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
                await thread.send(text[0])
            else:
                return
            for chunk in text[1:]:
                await thread.send(chunk)
        except discord.HTTPException:
            log.warning("could not open the thread of turn %s of %s", summary.turn, campaign, exc_info=True)
            return
        self.turn_threads[campaign] = thread.id
        await self.ping(thread, reply)

    async def send_reply(self, channel: discord.abc.Messageable, reply: Reply, reference: discord.Message | None = None) -> None:
        chunks = split_message(reply.render())
        for i, chunk in enumerate(chunks):
            await channel.send(chunk, reference=reference if i == 0 else None, mention_author=False)
        await self.ping(channel, reply)

    async def ping(self, channel: discord.abc.Messageable, reply: Reply) -> None:
        ids = user_ids(reply.ping)
        if ids:
            mentions = " ".join(f"<@{i}>" for i in ids)
            await channel.send(
                f"{mentions}: it is your turn.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=i) for i in ids]),
            )


def is_campaign_gm(user: discord.abc.User, gm_role_id: str | None) -> bool:
    if gm_role_id is None or not isinstance(user, discord.Member):
        return False
    return any(str(role.id) == gm_role_id for role in user.roles)


# --- slash commands ----------------------------------------------------------------------------------------------------


EMBED_LIMIT = 4096


async def respond(interaction: discord.Interaction, reply: Reply, bot: LegatusBot, embed_title: str | None = None) -> None:
    if embed_title is not None and reply.answers and all(a.ok for a in reply.answers):
        # Boards read better as an embed: one card, up to 4,096 characters, in the campaign's own colours.
        body = "\n".join(line for a in reply.answers for line in a.details)
        chunks = split_message(body, EMBED_LIMIT)
        await interaction.response.send_message(embed=discord.Embed(title=embed_title, description=chunks[0], colour=0xB8860B))
        for chunk in chunks[1:]:
            await interaction.followup.send(embed=discord.Embed(description=chunk, colour=0xB8860B))
        return
    chunks = split_message(reply.render() or "Done.")
    await interaction.response.send_message(chunks[0])
    for chunk in chunks[1:]:
        await interaction.followup.send(chunk)
    if interaction.channel is not None:
        await bot.ping(interaction.channel, reply)  # type: ignore[arg-type]


def _campaign_here(bot: LegatusBot, interaction: discord.Interaction) -> Any:
    channel_id = campaign_channel_id(interaction.channel)
    return bot.service.campaign_for_channel(channel_id) if channel_id else None


async def run_text_command(bot: LegatusBot, interaction: discord.Interaction, text: str, embed_title: str | None = None) -> None:
    campaign = _campaign_here(bot, interaction)
    if campaign is None:
        await interaction.response.send_message(
            "No campaign lives in this channel. A server manager can start one here with /campaign create.", ephemeral=True
        )
        return
    reply = await bot.run_post(campaign.name, interaction.user, text, campaign.gm_role_id)
    await respond(interaction, reply, bot, embed_title)


def _names(bot: LegatusBot, interaction: discord.Interaction, kind: str) -> list[str]:
    campaign = _campaign_here(bot, interaction)
    if campaign is None:
        return []
    ruleset = bot.service.ruleset_of(campaign.name)
    vocabulary = getattr(ruleset, "vocabulary", None)
    if vocabulary is None:
        return []
    index = {"nation": vocabulary.nations, "province": vocabulary.provinces, "sea": vocabulary.seas}[kind]
    return list(index.names)


def _autocomplete(kind: str):  # type: ignore[no-untyped-def]
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        bot: LegatusBot = interaction.client  # type: ignore[assignment]
        low = current.lower()
        names = [n for n in _names(bot, interaction, kind) if low in n.lower()]
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    return complete


async def send_picture(bot: LegatusBot, interaction: discord.Interaction, turn: int | None, charts: bool) -> None:
    from bot.render.history import folded_at_turn
    from bot.render.pictures import pictures

    campaign = _campaign_here(bot, interaction)
    if campaign is None:
        await interaction.response.send_message("No campaign lives in this channel.", ephemeral=True)
        return
    await interaction.response.defer(thinking=True)
    try:
        ruleset, state = await asyncio.to_thread(folded_at_turn, bot.service, campaign.name, turn)
    except (LookupError, ValueError) as exc:
        await interaction.followup.send(str(exc.args[0] if exc.args else exc))
        return
    kinds = ("provinces", "stability") if charts else ()
    made = await asyncio.to_thread(pictures, ruleset, state, with_map=not charts, charts=kinds)
    if not made:
        await interaction.followup.send("No turn has been closed yet: the charts begin with the first closed turn.")
        return
    files = [discord.File(io.BytesIO(data), filename=name) for name, data in made]
    await interaction.followup.send(ruleset.summary(state).turn_label, files=files)


def quoted(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def register_commands(bot: LegatusBot) -> None:
    tree = bot.tree

    campaign = app_commands.Group(name="campaign", description="Set up and staff a campaign", guild_only=True)

    @campaign.command(name="create", description="Start a campaign in this channel or forum")
    @app_commands.describe(name="A name for the campaign", gm_role="Members of this role run the campaign",
                           clock="live: rolls bind to future draws (real campaigns)",
                           randomness="Rolls beyond order of play and events: lottery, or a seed revealed at the end")
    @app_commands.choices(
        ruleset=[app_commands.Choice(name="Mare Nostrum (290 BC)", value="mare-nostrum")],
        clock=[app_commands.Choice(name="live", value="live"), app_commands.Choice(name="historical", value="historical")],
        randomness=[app_commands.Choice(name="lottery", value="lottery"),
                    app_commands.Choice(name="commit-reveal", value="commit-reveal")],
    )
    async def create(interaction: discord.Interaction, name: str, gm_role: discord.Role,
                     ruleset: app_commands.Choice[str] | None = None,
                     clock: app_commands.Choice[str] | None = None,
                     randomness: app_commands.Choice[str] | None = None) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or not member.guild_permissions.manage_guild:
            await interaction.response.send_message("Only members who can manage this server can start a campaign.", ephemeral=True)
            return
        channel_id = campaign_channel_id(interaction.channel)
        reply = await asyncio.to_thread(
            bot.service.create_campaign, name, ruleset.value if ruleset else "mare-nostrum", f"<@&{gm_role.id}>", {},
            clock.value if clock else "live", str(interaction.guild_id), channel_id, str(gm_role.id),
            randomness.value if randomness else "lottery",
        )
        await respond(interaction, reply, bot)

    @campaign.command(name="assign", description="Give a nation to a player (or substitute a player)")
    @app_commands.autocomplete(nation=_autocomplete("nation"))
    async def assign(interaction: discord.Interaction, nation: str, player: discord.Member) -> None:
        await run_text_command(bot, interaction, f"/campaign assign {quoted(nation)} <@{player.id}>")

    @campaign.command(name="reveal", description="GM: publish the commit-reveal seed (no roll can be made after it)")
    async def reveal(interaction: discord.Interaction) -> None:
        await run_text_command(bot, interaction, "/campaign reveal")

    @campaign.command(name="settings", description="Deadlines: hours per player, reminder, timeout rule, time zone")
    @app_commands.choices(on_timeout=[app_commands.Choice(name="the player passes", value="pass"),
                                      app_commands.Choice(name="wait for the GM", value="wait")])
    async def settings(interaction: discord.Interaction, player_hours: float | None = None,
                       remind_hours_before: float | None = None, on_timeout: app_commands.Choice[str] | None = None,
                       timezone: str | None = None) -> None:
        pairs = {"player_hours": player_hours, "remind_hours_before": remind_hours_before,
                 "on_timeout": on_timeout.value if on_timeout else None, "timezone": timezone}
        text = " ".join(f"{k}={v}" for k, v in pairs.items() if v is not None)
        await run_text_command(bot, interaction, f"/campaign settings {text}".strip())

    turn = app_commands.Group(name="turn", description="Open, close and follow the turns", guild_only=True)

    @turn.command(name="open", description="Open the next turn on a lottery draw (GM)")
    @app_commands.describe(date="YYYY-MM-DD: the first draw on or after it (default: the next draw)")
    async def turn_open(interaction: discord.Interaction, date: str | None = None) -> None:
        await run_text_command(bot, interaction, f"/turn open {date}" if date else "/turn open")

    @turn.command(name="close", description="Close the turn once nothing is pending (GM)")
    async def turn_close(interaction: discord.Interaction) -> None:
        await run_text_command(bot, interaction, "/turn close")

    @turn.command(name="status", description="Who has played, who is up, what is pending")
    async def turn_status(interaction: discord.Interaction) -> None:
        await run_text_command(bot, interaction, "/status", embed_title="Status board")

    @app_commands.command(name="order", description="Give one or more orders (one per line)")
    @app_commands.guild_only()
    async def order(interaction: discord.Interaction, orders: str) -> None:
        await run_text_command(bot, interaction, orders.replace(" | ", "\n"))

    @app_commands.command(name="battle", description="Report the winner of a land battle")
    @app_commands.guild_only()
    @app_commands.autocomplete(province=_autocomplete("province"), winner=_autocomplete("nation"))
    @app_commands.describe(screenshot="the end screen of the Field of Glory battle, if you like")
    async def battle(interaction: discord.Interaction, province: str, winner: str,
                     screenshot: discord.Attachment | None = None) -> None:
        await run_text_command(bot, interaction, f"/battle {quoted(province)} winner {quoted(winner)}")
        if screenshot is not None:
            await interaction.followup.send(f"Screenshot of the battle in {province}, from {interaction.user.mention}: {screenshot.url}")

    @app_commands.command(name="ledger", description="The lottery bindings of the campaign and their outcomes")
    @app_commands.guild_only()
    async def ledger(interaction: discord.Interaction) -> None:
        await run_text_command(bot, interaction, "/ledger", embed_title="Ledger of the lottery bindings")

    gm = app_commands.Group(name="gm", description="GM tools; every use leaves a trace in the log", guild_only=True)

    @gm.command(name="pass", description="End the turn of the nation that is playing (a late player)")
    @app_commands.autocomplete(nation=_autocomplete("nation"))
    async def gm_pass(interaction: discord.Interaction, nation: str, reason: str | None = None) -> None:
        await run_text_command(bot, interaction, f"/gm pass {quoted(nation)} {reason or ''}".strip())

    @gm.command(name="undo", description="Take back the last decision (shown publicly)")
    async def gm_undo(interaction: discord.Interaction, reason: str | None = None) -> None:
        await run_text_command(bot, interaction, f"/gm undo {reason or ''}".strip())

    @gm.command(name="void", description="Set aside the last decision whose outcome is known (kept on record)")
    async def gm_void(interaction: discord.Interaction, reason: str) -> None:
        await run_text_command(bot, interaction, f"/gm void {reason}")

    @gm.command(name="confirm-draw", description="Type a lottery draw by hand when the sources disagree or are late")
    @app_commands.describe(date="YYYY-MM-DD", numbers="WHEEL n1 n2 n3 n4 n5; WHEEL ... (every wheel)")
    async def gm_confirm_draw(interaction: discord.Interaction, date: str, numbers: str) -> None:
        await run_text_command(bot, interaction, f"/lotto confirm {date} {numbers}")

    @gm.command(name="extend", description="Give the playing nation more time")
    @app_commands.autocomplete(nation=_autocomplete("nation"))
    async def gm_extend(interaction: discord.Interaction, nation: str, hours: float) -> None:
        await run_text_command(bot, interaction, f"/gm extend {quoted(nation)} {hours}")

    @gm.command(name="lock", description="Lock (or unlock) the players' orders")
    async def gm_lock(interaction: discord.Interaction, locked: bool, reason: str | None = None) -> None:
        await run_text_command(bot, interaction, f"/gm {'lock' if locked else 'unlock'} {reason or ''}".strip())

    @gm.command(name="set", description="Rule on one fact: stability, owner, buildings, fleets, actions")
    async def gm_set(interaction: discord.Interaction, what: str, target: str, value: str, reason: str | None = None) -> None:
        await run_text_command(bot, interaction, f"/gm set {what} {quoted(target)} {quoted(value)} {reason or ''}".strip())

    @app_commands.command(name="map", description="The campaign's map, now or at the close of a past turn")
    @app_commands.guild_only()
    async def map_command(interaction: discord.Interaction, turn: int | None = None) -> None:
        await send_picture(bot, interaction, turn, charts=False)

    @app_commands.command(name="chart", description="Provinces and stability of every nation, turn by turn")
    @app_commands.guild_only()
    async def chart_command(interaction: discord.Interaction) -> None:
        await send_picture(bot, interaction, None, charts=True)

    @app_commands.command(name="verify", description="Re-check every lottery number of this campaign; get its log")
    @app_commands.guild_only()
    async def verify_command(interaction: discord.Interaction) -> None:
        campaign_row = _campaign_here(bot, interaction)
        if campaign_row is None:
            await interaction.response.send_message("No campaign lives in this channel.", ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        result, log_text = await asyncio.to_thread(bot.service.verify, campaign_row.name)
        head = f"hash chain head `{result.head[:16]}`, {result.events} events, {result.rolls} rolls, {result.draws_checked} draws"
        if result.ok:
            text = f"✓ Every number matches the stored draws ({head})."
        else:
            text = f"✗ {len(result.findings)} mismatch(es) ({head}):\n" + "\n".join(f"• {f}" for f in result.findings[:20])
        text += "\nCheck it yourself: `legatus verify campaign.log --draws storico01-oggi.txt` with the operator's archive."
        log_file = discord.File(io.BytesIO(log_text.encode("utf-8")), filename=f"{campaign_row.name}.log")
        await interaction.followup.send(split_message(text)[0], file=log_file)

    @app_commands.command(name="roll", description="A roll the rules do not foresee, bound to the lottery (GM)")
    @app_commands.guild_only()
    @app_commands.describe(dice="e.g. 2d6, 1d90, 3d6+1", label="what it decides")
    async def roll_command(interaction: discord.Interaction, dice: str, label: str | None = None) -> None:
        await run_text_command(bot, interaction, f"/roll {dice} {quoted(label) if label else ''}".strip())

    for command in (campaign, turn, order, battle, ledger, gm, map_command, chart_command, verify_command, roll_command):
        tree.add_command(command)


def run_bot(token: str, db: str | None) -> int:
    """Start the bot; a missing or refused token is one line and a non-zero exit, never a traceback."""
    from bot.store.db import open_engine

    apply_api_base()
    guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
    bot = LegatusBot(Legatus(open_engine(db)), guild_id=int(guild) if guild.isdigit() else None)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print("legatus: Discord refused the token in DISCORD_TOKEN (check the bot's token in the Developer Portal)")
        return 1
    except discord.PrivilegedIntentsRequired:
        print("legatus: enable the Message Content intent for the bot in the Discord Developer Portal (Bot > Privileged Gateway Intents)")
        return 1
    except (OSError, discord.HTTPException) as exc:
        print(f"legatus: cannot reach Discord ({type(exc).__name__}); check the network and DISCORD_API_BASE")
        return 1
    return 0
