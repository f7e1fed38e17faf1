"""The Discord face of Legatus: campaigns in channels and forum threads, slash commands and plain orders.

Everything a user does goes through bot/service/legatus.py, exactly like the console. This module only adapts:
identities (a player is stored as ``<@user id>``, a campaign's GM as ``<@&role id>``), the GM check (the
campaign's GM role), threads and forum posts, and message limits. Mentions are off for the whole client
and opted in per message, for the player whose turn comes and nobody else.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path
from collections import defaultdict
from collections.abc import AsyncIterator, Mapping
from typing import Any

import discord

from bot.discord.connection import (  # noqa: F401  (needed_intents, shard_options: read here by the tests)
    API_BASE_SETTING, StoppingTree, adopt_bot_gateway, apply_api_base, needed_intents, shard_options,
)
from bot.discord.answers import campaign_channel_id, deferred_campaign, run_text_command, say
from bot.discord.command_sync import SyncState, state_path, sync_commands
from bot.discord.game_commands import add_game_commands, game_specs
from bot.discord.shell_actions import state_message
from bot.discord.shell_tree import on_command_error, shell_tree
from bot.discord.hand_menu import HAND_SELECT, picked
from bot.discord.order_words import fits, needs_words, words_button, words_interaction
from bot.service.asks import is_question, question_text
from bot.discord.output import split_message, user_ids
from bot.discord.views import unkept_view
from bot.discord.typed_secrets import (
    DELETED, NOT_DELETABLE, STILL_THERE, may_delete, take_down, tell_owners,
)
from bot.schedule.scheduler import DRAIN_SECONDS, STOP_SIGNALS, NotPosted
from bot.service.replies import Reply
from bot.service.legatus import Legatus
from bot.store.shards import ALL, Shard
from bot.service.post_queue import PostQueue

log = logging.getLogger("legatus.discord")

# The custom id of a choice button: the prefix, then the order line it posts (e.g. "pass").
CHOICE_PREFIX = "legatus:choice:"
# The undo buttons: "undo my last order" (asks first), then the confirmation naming the order's number, or keep it.
UNDO_ASK = "legatus:undo"
UNDO_CONFIRM = "legatus:undo-confirm:"
UNDO_KEEP = "legatus:undo-keep"
# The gateway events that are new work; while stopping they are not taken (a message a stopped bot never saw is
# the same as one sent while it was down: nothing was applied, so nothing is half done).
NEW_WORK_EVENTS = frozenset({"on_message", "on_interaction"})


def identity(user: discord.abc.User) -> str:
    return f"<@{user.id}>"


class LegatusBot(discord.Client):
    def __init__(self, service: Legatus, *, guild_id: int | None = None, sync_state: Path | None = None,
                 shard: Shard = ALL, **options: Any) -> None:
        # Legatus has no voice: discord.py's warnings about voice libraries would only worry an operator.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(intents=needed_intents(), allowed_mentions=discord.AllowedMentions.none(),
                         **shard_options(shard), **options)
        self.service = service
        # The guilds this process serves: its gateway delivers only their events, its scheduler acts only for their
        # campaigns (bot/store/shards.py).
        self.shard = shard
        self.tree = StoppingTree(self)
        # A graceful stop (``close``): set once it began, so that no new post, command or job is taken.
        self.stopping = False
        self._stopped: asyncio.Future[None] | None = None
        # The work under way on the event loop that a stop waits for: posts and commands being handled, the
        # turn threads, heads-ups and status-board edits they set off.
        self._work: set[asyncio.Future[Any]] = set()
        self._stop_request: asyncio.Task[None] | None = None
        self.dev_guild = discord.Object(id=guild_id) if guild_id else None
        # Every post goes to one writer thread, which applies those queued together in one transaction (group
        # commit): a burst across campaigns is not a burst of threads fighting for SQLite's write lock.
        self.posts = PostQueue(service)
        # Per campaign: held by the scheduler while it checks then acts (a timeout pass); a post waits for it only
        # to enter the queue, so the posts of unrelated campaigns, or of one, never wait for each other here.
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        # The posts of each campaign queued and not yet answered (what the scheduler waits for before it acts).
        self._pending: dict[str, set[asyncio.Future[Reply]]] = defaultdict(set)
        # Each turn's thread (or forum post), opened when the turn first becomes playing and stored.
        from bot.discord.turn_threads import TurnThreads

        self.turn_places = TurnThreads(self)
        from bot.discord.status_board import StatusBoards

        self.boards = StatusBoards(self)
        from bot.discord.heads_up import HeadsUps

        self.heads_ups = HeadsUps(self)
        from bot.discord.catch_up import CatchUp

        # The posts made while the bot was away, read at start-up and after every gateway resume.
        self.catch_up = CatchUp(self)
        from bot.discord.edits import EditNotes

        self.edit_notes = EditNotes()  # an answered post edited afterwards: its author is told edits are not read
        from bot.discord.window_countdown import WindowCountdowns

        self.countdowns = WindowCountdowns(self)  # an open window's countdown, edited in place
        from bot.discord.party_notices import PartyNotices

        self.party = PartyNotices(self)  # what a seat alone is told, by DM, with its buttons
        from bot.discord.outbox import Outbox

        # Answers to posts, one sender per channel: a burst in a channel is answered in one or two messages.
        self.outbox = Outbox()
        self.local_posts: Any = None  # the socket `legatus post` uses while this bot runs (setup_hook)
        # Per user id: what was for them alone and could not reach them by DM, given with their next slash command's
        # answer (ephemeral). In memory only: a restart loses them, and the DM failure said where to look.
        self.notices: dict[int, list[str]] = defaultdict(list)
        # channel id -> campaign: every plain message asks, and a database read per message on the event loop
        # is what a burst of posts queues behind. Only hits are kept (a channel may get a campaign later).
        self._campaigns: dict[str, Any] = {}
        from bot.discord.campaign_channels import CampaignChannels

        # The channels that host a campaign: a message anywhere else is dropped with no database read at all.
        self.campaign_channels = CampaignChannels(service.engine)
        # The hash of the commands last synced, so that a restart with the same commands does not sync again.
        self.sync_state = SyncState(sync_state or state_path(service.engine))

        register_commands(self)

    async def setup_hook(self) -> None:
        if os.environ.get(API_BASE_SETTING, "").strip():
            await adopt_bot_gateway(self)
        from bot.discord.poster import DiscordPoster
        from bot.schedule.scheduler import start_scheduler

        # Deadlines, reminders and lottery fetches: the database is the truth, the scheduler is reconciled to it.
        self.scheduler = await start_scheduler(self.service, DiscordPoster(self, self.turn_places),
                                               campaign_lock=self.campaign_turn, shard=self.shard)
        # The turn's thread opens on any change that makes a turn playing: a post, a command, a recorded draw.
        mine = (self.turn_places, self.boards, self.heads_ups, self.countdowns)
        self.service.observers[:] = [o for o in self.service.observers if getattr(o, "__self__", None) not in mine]
        self.service.observers += [self.turn_places.observe, self.boards.observe, self.heads_ups.observe,
                                   self.countdowns.observe]
        from bot.discord.campaign_channels import CampaignChannels
        from bot.discord.catch_up import read_missed

        # A bot started before on the same service (tests, a restart in-process) no longer listens.
        self.service.created[:] = [h for h in self.service.created
                                   if not isinstance(getattr(h, "__self__", None), CampaignChannels)]
        self.service.created.append(self.campaign_channels.created)
        self.campaign_channels.found = lambda missed: self.track(asyncio.ensure_future(read_missed(self, missed)))
        await self.campaign_channels.reload()
        await sync_commands(self.tree, self.application_id, self.sync_state, self.dev_guild)
        if self.shard.whole:  # a sharded process's observers act for its guilds only: it serves no local posts
            from bot.service.local_posts import LocalPosts

            # `legatus post` on this machine goes through this bot's writer instead of a process of its own.
            self.local_posts = LocalPosts.of_store(self.service.engine, self.run_local_post)
            if self.local_posts is not None:
                await self.local_posts.start()

    def track(self, work: asyncio.Future[Any]) -> asyncio.Future[Any]:
        """Keep ``work`` (a task on this loop) until it ends: a stop waits for it."""
        self._work.add(work)
        work.add_done_callback(self._work.discard)
        return work

    async def tracked(self, coroutine: Any) -> Any:
        """Run ``coroutine`` as tracked work; for work handed to the loop from another thread (the observers run in
        the writer thread), whose future is not the loop's task."""
        task = asyncio.current_task()
        if task is not None:
            self.track(task)
        return await coroutine

    def _schedule_event(self, coro: Any, event_name: str, *args: Any, **kwargs: Any) -> Any:
        if self.stopping and event_name in NEW_WORK_EVENTS:
            log.info("stopping: %s not taken", event_name)
            return None
        task = super()._schedule_event(coro, event_name, *args, **kwargs)
        if event_name in NEW_WORK_EVENTS:
            self.track(task)
        return task

    def request_stop(self, signal_name: str) -> None:
        """A signal handler (run_bot): begin the graceful stop; a second signal while it drains changes nothing."""
        if self.stopping:
            log.warning("%s: already stopping (at most %g s)", signal_name, DRAIN_SECONDS)
            return
        log.warning("%s received: stopping gracefully", signal_name)
        # Kept (the loop holds its tasks weakly), not tracked: the stop does not wait for itself.
        self._stop_request = asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        """Stop: take no new work, let what is under way finish (at most DRAIN_SECONDS), then disconnect. A scheduled
        message cut by the bound stays claimed and unsent in the store, and the next start sends it."""
        if self._stopped is None:
            self._stopped = asyncio.ensure_future(self._drain_then_close())
        await asyncio.shield(self._stopped)

    async def _drain_then_close(self) -> None:
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS
        log.warning("stopping: no new posts, commands or jobs are taken; draining for at most %g s", DRAIN_SECONDS)
        left_jobs = 0
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None and scheduler.running:
            from bot.schedule.scheduler import stop_scheduler

            # First: no job starts from the stop on; the posts a running job waits for are applied meanwhile.
            left_jobs = await stop_scheduler(scheduler, self.shard, max(0.0, deadline - loop.time()))
        if self.local_posts is not None:  # no new connection; those accepted are answered (the writer still runs)
            await self.local_posts.close(max(0.0, deadline - loop.time()))
        self.boards.flush()
        left = await self._settle(deadline)
        # The writer applies what is queued; the rounds it writes may set off more (a board edit, a heads-up).
        await asyncio.to_thread(self.posts.close, max(0.0, deadline - loop.time()))
        left += await self._settle(deadline)
        if left or left_jobs:
            log.warning("stopped with %d tasks and %d jobs cut: a scheduled message they claimed is sent at the next "
                        "start, an answer they did not send is lost", left, left_jobs)
        else:
            log.warning("drained: every post taken was applied and answered, every job that began finished")
        await super().close()

    async def _settle(self, deadline: float) -> int:
        """Wait for the tracked work, the outbox's senders and the status boards' edits, and for what they set off
        meanwhile, until none is left or ``deadline``; returns how many were left."""
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        while True:
            pending = {w for w in self._work if not w.done() and w is not me} | self.outbox.busy() | self.boards.busy()
            if not pending:
                return 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                for work in pending:  # what was cut, for the operator who wonders what the next start resends
                    coroutine = work.get_coro() if isinstance(work, asyncio.Task) else None
                    log.warning("cut by the stop: %s, waiting in %s", getattr(coroutine, "__qualname__", None) or work,
                                _waiting_in(coroutine))
                return len(pending)
            await asyncio.wait(pending, timeout=remaining)

    def own_campaigns(self) -> int:
        from bot.store.campaigns import list_campaigns
        from sqlmodel import Session

        with Session(self.service.engine) as session:
            return sum(1 for c in list_campaigns(session) if self.shard.owns(c.guild_id))

    async def on_ready(self) -> None:
        campaigns = await asyncio.to_thread(self.own_campaigns)
        where = "" if self.shard.whole and self.shard.count == 1 else f" ({self.shard.describe()})"
        log.info("logged in as %s%s, %d guilds, %d campaigns", self.user, where, len(self.guilds), campaigns)
        self.catch_up.start("start-up")
        self.track(asyncio.ensure_future(self.heads_ups.finish_open()))  # what a kill cut between claim and record

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        await self.edit_notes.edited(self, payload)

    async def on_resumed(self) -> None:
        await self.campaign_channels.reload()  # campaigns another process created meanwhile
        # Discord replays the missed events of a resumed session, but not those of a session it dropped meanwhile.
        self.catch_up.start("a gateway resume")

    # --- plain messages --------------------------------------------------------------------------------------------

    def campaign_at(self, channel_id: str | None) -> Any:
        """The campaign hosted in ``channel_id`` (a channel or forum id), cached once found."""
        if not channel_id or not self.campaign_channels.hosts(channel_id):
            return None
        known = self._campaigns.get(channel_id)
        if known is None:
            known = self.service.campaign_for_channel(channel_id)
            if known is not None:
                self._campaigns[channel_id] = known
        return known

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is None or not message.content or message.author == self.user:
            return
        channel_id = campaign_channel_id(message.channel)
        # Another process may have created a campaign here: the set is read again on a miss, at a bounded rate.
        if not channel_id or not await self.campaign_channels.knows(channel_id, message.id):
            return
        campaign = self.campaign_at(channel_id)
        if campaign is None:
            return
        if not await self.catch_up.admit(message):
            return  # a catch-up read it from the channel's history first
        await self.handle_post(message, campaign)

    async def handle_post(self, message: discord.Message, campaign: Any, *, late: bool = False) -> None:
        """A post in a campaign's place, live or read ``late`` by the catch-up (bot/discord/catch_up.py)."""
        if message.content.strip().lower() == "/state":
            # Typed as a message: the same card as the slash command, not pages of JSON in the channel.
            embed, file = await state_message(self, campaign.name)
            await message.channel.send(embed=embed, file=file, reference=message, mention_author=False)
            return
        # A sealed order typed here is read by everyone until deleted: applied only where the bot may delete it
        # (the channel's computed permissions, checked before the post is read, not tried and hoped for).
        deletable = may_delete(message.channel)
        from bot.store.read_marks import Seen

        seen = Seen(campaign.id, str(message.channel.id), message.id) if campaign.id is not None else None
        reply = await self.run_post(campaign.name, message.author, message.content, campaign.gm_role_id,
                                    sealed_refused=None if deletable else NOT_DELETABLE, seen=seen)
        if not reply.answers:
            return  # table talk is left alone
        self.edit_notes.answered(message.id)
        gone = reply.carried_sealed_order and deletable and await take_down(message)
        view = await self.undo_button(campaign, message.author) if reply.changed else None
        await self.send_reply(message.channel, reply, reference=message, view=view, post_gone=gone, late=late)
        if reply.sealed:
            # Applied because the permission was there when checked; Discord may still refuse the delete (the
            # permission taken away meanwhile): then the author must know it stays.
            typed = DELETED if gone else STILL_THERE if reply.carried_sealed_order and deletable else None
            await self.tell_author(message, reply, preface=typed)
        await tell_owners(self, reply)

    async def tell_author(self, message: discord.Message, reply: Reply, *, preface: str | None = None) -> None:
        """A post with lines for its author alone (sealed orders, a refusal's private reason, /private): the channel
        got the answer without them; the author gets it whole, by DM, or with their next slash command's answer."""
        text = (preface + "\n" if preface else "") + reply.render()
        try:
            for chunk in split_message(text):
                await message.author.send(chunk)
        except discord.HTTPException:
            self.notices[message.author.id].append(text)
            await message.channel.send(
                f"{message.author.mention}: I could not send you a direct message (are they closed?); you get it "
                "with the answer to your next slash command here, e.g. /private.", mention_author=False)

    async def run_post(self, campaign: str, user: discord.abc.User, text: str, gm_role_id: str | None, *,
                       sealed_refused: str | None = None, seen: Any = None) -> Reply:
        is_gm = is_campaign_gm(user, gm_role_id)
        # Queued in arrival order (the lock is free unless the scheduler holds it, and then waiters enter in
        # order): the writer applies a campaign's posts in that order. A turn that becomes playing gets its thread
        # from the observer (bot/discord/turn_threads.py).
        return await self._queue(campaign, identity(user), text, is_gm, sealed_refused, seen)

    async def run_local_post(self, author: str, text: str, campaign: str | None) -> Reply:
        """A `legatus post` of this machine (bot/service/local_posts.py): queued like a channel's, and a GM as on
        the command line, by the campaign's GM identity."""
        if campaign is None:
            # The file's only campaign, named: its posts and the scheduler's hold on it are then ordered as a
            # channel's are (with several, the service refuses the post and says which to name).
            names = await asyncio.to_thread(self.service.campaign_names)
            campaign = names[0] if len(names) == 1 else None
        task = asyncio.current_task()
        if task is not None:
            self.track(task)  # the socket's handler, which answers the client: a stop waits for it
        return await self._queue(campaign, author, text, None)

    async def _queue(self, campaign: str | None, author: str, text: str, is_gm: bool | None,
                     sealed_refused: str | None = None, seen: Any = None) -> Reply:
        key = campaign or ""
        async with self._locks[key]:
            answer = asyncio.wrap_future(self.posts.submit(author, text, campaign, is_gm=is_gm,
                                                           sealed_refused=sealed_refused, seen=seen))
            pending = self._pending[key]
            pending.add(answer)
            answer.add_done_callback(pending.discard)
        return await answer

    @contextlib.asynccontextmanager
    async def campaign_turn(self, campaign: str) -> AsyncIterator[None]:
        """The scheduler's hold on a campaign while it checks then acts: the posts queued before are applied
        first, the posts sent meanwhile wait."""
        async with self._locks[campaign]:
            pending = list(self._pending[campaign])
            if pending:
                await asyncio.wait(pending)
            yield

    async def send_reply(self, channel: discord.abc.Messageable, reply: Reply, reference: discord.Message | None = None,
                         view: discord.ui.View | None = None, *, post_gone: bool = False, late: bool = False) -> None:
        text = reply.render(for_author=False)  # a channel: sealed lines stay unquoted
        if late:
            from bot.discord.catch_up import READ_LATE

            text = f"{READ_LATE}\n{text}"
        if reference is not None:
            # Through the channel's outbox: answers that wait together share a message (bot/discord/outbox.py).
            await self.outbox.answer(channel, reference, text, view, post_gone=post_gone)
        else:
            chunks = split_message(text)
            for i, chunk in enumerate(chunks):
                extra: dict[str, Any] = {"view": view} if view is not None and i == len(chunks) - 1 else {}
                await channel.send(chunk, mention_author=False, **extra)
        await self.ping(channel, reply)

    async def ping(self, channel: discord.abc.Messageable, reply: Reply) -> None:
        """Whose turn it is, said once, in the current turn's thread (the channel where there is none)."""
        ids = user_ids(reply.ping)
        if not ids:
            return
        target: Any = channel
        campaign = self.campaign_at(campaign_channel_id(channel))
        if campaign is not None and campaign.id is not None:
            try:
                target = await self.turn_places.destination(campaign.id)
            except NotPosted:
                target = channel
        mentions = " ".join(f"<@{i}>" for i in ids)
        private = await self.party.send(campaign, reply.ping)  # a seat's notices by DM (bot/discord/party_notices.py)
        buttons = self.choice_buttons(campaign.id if campaign is not None else None, reply.ping, private)
        await target.send(
            f"{mentions}: {self.what_is_asked(campaign.id if campaign is not None else None, reply.ping)}",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=i) for i in ids]),
            **({"view": buttons} if buttons is not None else {}),
        )

    def what_is_asked(self, campaign_id: int | None, players: list[str]) -> str:
        """"it is your turn." for a seat's orders (in turn, sealed, in a window); a question (a reaction, a bid, a vote)
        is said in the game's words, with its answers and what happens if none comes in time."""
        view = self.boards.current(campaign_id) if campaign_id is not None else None
        if view is None:
            return "it is your turn."
        wanted = set(players)
        modes = {seat: (mode, default) for seat, mode, default in view.asks}
        questions = [question_text(seat, what, choices, modes[seat][1]) for seat, what, choices in view.prompts
                     if view.players.get(seat) in wanted and seat in modes and is_question(modes[seat][0])]
        return " ".join(questions) if questions else "it is your turn."

    def choice_buttons(self, campaign_id: int | None, players: list[str],
                       leave_out: set[str] | frozenset[str] = frozenset()) -> discord.ui.View | None:
        """Buttons for the moves that need no typing (the prompts' ``choices``, e.g. "pass") of the seats these
        players hold. A click is posted as the clicker's own order (``on_interaction``): checked like a typed one."""
        view = self.boards.current(campaign_id) if campaign_id is not None else None
        if view is None:
            return None
        wanted = set(players)
        labels = [c for seat, _, choices in view.prompts if view.players.get(seat) in wanted for c in choices
                  if c not in leave_out]
        labels = [c for c in dict.fromkeys(labels) if len(CHOICE_PREFIX + c) <= 100 and fits(c)][:5]
        if not labels:
            return None
        buttons = unkept_view()
        for label in labels:  # a choice that needs words opens a modal for them (bot/discord/order_words.py)
            buttons.add_item(words_button(label) if needs_words(label) else discord.ui.Button(
                label=label[:80], custom_id=CHOICE_PREFIX + label, style=discord.ButtonStyle.secondary))
        return buttons

    async def undo_button(self, campaign: Any, user: discord.abc.User) -> discord.ui.View | None:
        """An "undo my last order" button for ``user``, only while they may take an order back (it is theirs, the
        latest decision, nothing random seen since, their turn still on); the click asks before undoing."""
        board = self.boards.current(campaign.id) if campaign.id is not None else None
        if board is not None and identity(user) not in {board.players.get(seat) for seat, _, _ in board.prompts}:
            return None  # not (or no longer) to act: no undo, and no database read for a burst of passes
        offer = await asyncio.to_thread(self.service.undo_offer, campaign.name, identity(user))
        if offer is None:
            return None
        view = unkept_view()
        view.add_item(discord.ui.Button(label="Undo my last order", custom_id=UNDO_ASK, style=discord.ButtonStyle.secondary))
        return view

    async def ask_before_undo(self, interaction: discord.Interaction) -> None:
        """The first click on "undo": say, to the clicker alone, which order would be taken back; undo on confirm."""
        campaign = await deferred_campaign(self, interaction, private=True)
        if campaign is None:
            return
        offer = await asyncio.to_thread(self.service.undo_offer, campaign.name, identity(interaction.user))
        if offer is None:
            # Not (or no longer) possible: the service's own answer says why (not yours, turn passed, rolled).
            reply = await self.run_post(campaign.name, interaction.user, "/undo", campaign.gm_role_id)
            await say(interaction, reply.render(), private=True, deferred_private=True)
            return
        seq, what = offer
        view = unkept_view()
        view.add_item(discord.ui.Button(label=f"Undo #{seq}", custom_id=f"{UNDO_CONFIRM}{seq}",
                                        style=discord.ButtonStyle.danger))
        view.add_item(discord.ui.Button(label="Keep it", custom_id=UNDO_KEEP, style=discord.ButtonStyle.secondary))
        await interaction.followup.send(f"Take back order #{seq}, {what}?", view=view, ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A choice button: the clicker posts its text, through the same path (and checks) as a typed order."""
        # A choice that needs words (its button, its modal) or a seat's notice in a DM: bot/discord/order_words.py.
        if await words_interaction(self, interaction) or interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        order = picked(interaction.data) if custom_id == HAND_SELECT else None
        if custom_id.startswith(CHOICE_PREFIX):
            await run_text_command(self, interaction, custom_id[len(CHOICE_PREFIX):], offer_undo=True)
        elif custom_id == UNDO_ASK:
            await self.ask_before_undo(interaction)
        elif custom_id.startswith(UNDO_CONFIRM) and custom_id[len(UNDO_CONFIRM):].isdigit():
            # Checked again by the service and the engine: the number must still be the clicker's latest order.
            await run_text_command(self, interaction, f"/undo {custom_id[len(UNDO_CONFIRM):]}")
        elif custom_id == HAND_SELECT and order is not None:
            await run_text_command(self, interaction, order, offer_undo=True)
        elif custom_id == UNDO_KEEP:
            await interaction.response.send_message("Kept: nothing was taken back.", ephemeral=True)


def _waiting_in(coroutine: Any) -> str:
    """Where a suspended coroutine waits: the innermost coroutine of its await chain, as file:line."""
    where = "?"
    depth = 0
    while coroutine is not None and depth < 50:
        frame = getattr(coroutine, "cr_frame", None) or getattr(coroutine, "ag_frame", None)
        if frame is not None and "asyncio" not in frame.f_code.co_filename:
            where = f"{frame.f_code.co_qualname} ({Path(frame.f_code.co_filename).name}:{frame.f_lineno})"
        coroutine = getattr(coroutine, "cr_await", None)
        depth += 1
    return where


def is_campaign_gm(user: discord.abc.User, gm_role_id: str | None) -> bool:
    if gm_role_id is None or not isinstance(user, discord.Member):
        return False
    return any(str(role.id) == gm_role_id for role in user.roles)


# --- slash commands ----------------------------------------------------------------------------------------------------
# Declared once with the typed ones (bot/service/shell_commands/); every command defers first (bot/discord/answers.py):
# nothing may stand between Discord's interaction and its acknowledgement, not even a database read, since the 3 s
# deadline covers a campaign lock held by another post.

def register_commands(bot: LegatusBot) -> None:
    """The shell's commands from their declarations (bot/discord/shell_tree.py), then every game's."""
    tree = bot.tree
    shell, groups, taken = shell_tree(bot)
    games = add_game_commands(bot, groups, taken, game_specs(bot.service.data_dir))
    for command in [*shell, *games]:
        tree.add_command(command)

    tree.error(on_command_error)


class AutoShardedLegatusBot(LegatusBot, discord.AutoShardedClient):
    """Every shard of ``shard_count`` in this one process (discord.py's AutoShardedClient): all guilds, one scheduler."""


def make_bot(service: Legatus, shard: Shard = ALL, **options: Any) -> LegatusBot:
    """One shard (``shard.id``): a plain client identifying as that shard. Only a count: the auto-sharded client."""
    if shard.id is None and shard.count > 1:
        return AutoShardedLegatusBot(service, shard=shard, **options)
    return LegatusBot(service, shard=shard, **options)


async def serve(bot: LegatusBot, token: str) -> None:
    """discord.py's ``Client.run`` without its signal handling: there SIGTERM killed the process outright and SIGINT
    closed the HTTP session under the posts being answered. Here both begin ``LegatusBot.close``, which drains
    first; ``start`` returns once it is done."""
    async with bot:
        loop = asyncio.get_running_loop()
        installed = []
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):  # no loop signals off Unix's main thread
                loop.add_signal_handler(sig, bot.request_stop, sig.name)
                installed.append(sig)
        try:
            await bot.start(token)
        finally:
            for sig in installed:
                loop.remove_signal_handler(sig)


def run_bot(token: str, db: str | None, shard: Shard = ALL) -> int:
    """Start the bot; a missing or refused token is one line and a non-zero exit, never a traceback."""
    from bot.store.db import open_engine

    apply_api_base()
    guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
    bot = make_bot(Legatus(open_engine(db)), shard, guild_id=int(guild) if guild.isdigit() else None)
    try:
        asyncio.run(serve(bot, token))
    except KeyboardInterrupt:  # Ctrl-C before the bot was up: nothing was taken yet, nothing to drain
        return 0
    except discord.LoginFailure:
        print("legatus: Discord refused the token in DISCORD_TOKEN (check the bot's token in the Developer Portal)")
        return 1
    except discord.ConnectionClosed as exc:
        if exc.code == 4011:
            print("legatus: Discord requires sharding for this many servers: run one process per shard with "
                  "LEGATUS_SHARD_COUNT and LEGATUS_SHARD_ID (or LEGATUS_SHARD_COUNT alone for all shards in one "
                  "process); see the README, \"Running sharded\"")
        elif exc.code == 4010:
            print(f"legatus: Discord refused the shard (LEGATUS_SHARD_ID must be below LEGATUS_SHARD_COUNT): {exc.reason}")
        else:
            print(f"legatus: Discord closed the gateway (code {exc.code}: {exc.reason or 'no reason given'})")
        return 1
    except discord.PrivilegedIntentsRequired:
        print("legatus: enable the Message Content intent for the bot in the Discord Developer Portal (Bot > Privileged Gateway Intents)")
        return 1
    except (OSError, discord.HTTPException) as exc:
        print(f"legatus: cannot reach Discord ({type(exc).__name__}); check the network and DISCORD_API_BASE")
        return 1
    return 0
