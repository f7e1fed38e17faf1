"""The handlers every face of Legatus goes through: Discord, the console and the command line.

A post is read line by line: each order or command becomes an event, which the ruleset accepts or
refuses with its reason. Accepted events of one post are written in one transaction, after the draws
they wait for (if the store has them) are recorded too. Nothing is half-applied: a line the rules refuse
changes nothing, and an unexpected failure rolls the whole post back and says so without a traceback.

Posts that arrive together are applied in one transaction (``post_many``, fed by ``bot/service/post_queue.py``):
each inside its own SAVEPOINT, so a post that fails is rolled back alone and the others are kept, and one commit
covers them all. A post costs about a millisecond this way; a commit of its own per post, with the write lock
taken anew each time, made one SQLite writer the limit of the whole bot (bench/discord_latency.py).
"""
from __future__ import annotations

import logging
import secrets as secrets_module
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any
from collections.abc import Callable, Sequence

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session

from bot.schedule.clock import Clock
from bot.service.first_seals import seal_at_creation
from bot.service.next_steps import first_step
from bot.service.post_reading import PostReading, PostRequest, _Batch, _Posting, head_line
from bot.service.public_values import BOT
from bot.service.replies import Reply
from bot.store import campaign_secret
from bot.store.at_rest import SealedKeyMissing
from bot.store.campaign_names import CampaignNotFound, pick
from bot.store.db import lock_campaign, writer
from bot.store.campaigns import (
    CampaignRow, append_event, event_values, export_log, find_campaign, find_campaign_by_channel,
    insert_rows, last_seqs, list_campaigns, load_events,
)
from bot.store.log_damage import DamagedLog, checked_export
from bot.store.session_post_store import SessionPostStore
from bot.store.store_faults import DISK_FULL, disk_full
from bot.store import draws as draw_store
from engine import commit_reveal
from engine.chance import registry as chance_sources
from engine.events import Event, Rejection
from engine.ledger import GENESIS, event_hash
from engine.log import CREATED, Folded, start
from engine.ruleset import OffersOptions, Ruleset, VersionsRules, rules_digest
from engine.rulesets import load_ruleset
from engine.takeback import CLOCK_RULES, UNDO_RULES

log = logging.getLogger("legatus")
from bot.service.data_dir import DATA_DIR  # noqa: E402  (re-exported: bot.service.DATA_DIR)


class _Conflict(Exception):
    """Another process wrote first (SQLite busy past its timeout, or the same next event number): try again."""


# How often a post is tried when other writers keep coming first; each try folds the newer log again.
POST_ATTEMPTS = 10
# The commit-reveal rule written into a new campaign's first event. Campaigns made before rule 2 name none and keep
# their own; tests set this to RULE_SEED to make a campaign exactly as the bot made them then.
RULE_OF_NEW_CAMPAIGNS = commit_reveal.RULE_AT_ONCE


def _is_conflict(exc: Exception) -> bool:
    said = str(getattr(exc, "orig", exc))
    return ("uq_event_campaign_seq" in said or "event.campaign_id, event.seq" in said or "locked" in said
            or "busy" in said or "deadlock" in said)


INTERNAL_ERROR = ("Legatus hit an internal error reading this post; nothing was changed. The GM has the details in "
                  "the log.")


@dataclass(frozen=True)
class Change:
    """What one post (or one recorded draw) did to a campaign: for observers such as the scheduler."""

    campaign: str
    campaign_id: int
    events: tuple[Event, ...]
    to_act_before: tuple[str, ...]
    to_act_after: tuple[str, ...]
    state: Any  # the ruleset's state after the change (read only)
    ruleset: Any = None  # the campaign's ruleset: read the state only through it
    summary: Any = None  # ruleset.summary(state)

    @cached_property
    def public(self) -> dict[str, Any]:
        """The public view after the change, made only if an observer reads it: it grows with the campaign."""
        return self.ruleset.public_view(self.state)


class Legatus(PostReading):
    engine: Engine

    def __init__(self, engine: Engine, data_dir: Path = DATA_DIR, clock: Clock | None = None) -> None:
        from bot.service.plugins import load_plugins

        load_plugins()
        self.engine = engine
        self.data_dir = data_dir
        self.clock = clock or Clock()
        self._folds: dict[int, Folded] = {}  # committed folds only: a rolled-back post never lands here
        # Campaign rows by name, detached from their session: a row is never changed after its creation, and
        # a query per post to find it again cost as much as the rules' own work.
        self._rows: dict[str, CampaignRow] = {}
        self._writer = writer(engine)
        self._rulesets: dict[str, Ruleset] = {}
        self._draws: dict[str, tuple[Any, str]] = {}
        # The summary of each campaign's committed state, by campaign id: (state, summary). A post needs the summary
        # of the state it starts from, which the post before it computed (a headline is dozens of lines to build).
        self._summaries: dict[int, tuple[Any, Any]] = {}
        # Called after every committed change (deadlines, posting the map, ...). Errors are logged, never raised.
        self.observers: list[Callable[[Change], None]] = []
        # Called with each campaign's row once its creation is committed (the bot's set of campaign channels).
        self.created: list[Callable[[CampaignRow], None]] = []
        # round -> a verified drand beacon, or None while it is not produced or not fetched (bot/drand/).
        self.beacons: Callable[[int], Any] | None = None
        # day -> what every lottery source says of it now (bot/lottery/asking.py), asked before a GM's ruling on a
        # draw; None: the sources the environment names.
        self.lottery_sources: Callable[[date], Any] | None = None
        # The salt of each content sealed (a bid, the stratagem pick key, a marker drawn): 128 random bits from the
        # OS. A test may put a repeatable source here; a live bot never should (the pick key keys every pick).
        self.salt: Callable[[], str] = lambda: secrets_module.token_hex(16)

    # --- campaigns ---------------------------------------------------------------------------------------------------

    def create_campaign(
        self,
        name: str,
        ruleset_id: str,
        gm: str,
        players: dict[str, str],
        clock: str = "historical",
        guild_id: str | None = None,
        channel_id: str | None = None,
        gm_role_id: str | None = None,
        randomness: str | None = None,
        options: list[str] | None = None,
    ) -> Reply:
        """``randomness``: where the rolls beyond the order of play and the events come from: "lottery" (slots
        of coming draws) or "commit-reveal" (a seed made here, kept in campaign_secret, its SHA-256 published
        in the ``campaign.created`` event). ``options``: the game's campaign options chosen (optional rules, a
        scenario), by the names its ruleset lists in ``options``; the ruleset checks them when the campaign starts."""
        reply = Reply()
        try:
            ruleset = load_ruleset(ruleset_id, self.data_dir)
        except KeyError as exc:
            return reply.note(str(exc.args[0]))
        randomness = randomness or ruleset.randomness
        if clock not in ("historical", "live"):
            return reply.note(f"unknown clock '{clock}': use 'live' (real time) or 'historical' (past draws)")
        source = chance_sources.get(randomness)
        if source is None or not source.offered:  # a source for scenario tests is never a campaign's
            return reply.note(f"unknown randomness '{randomness[:40]}': use {chance_sources.choices_words()}")
        options = [o.strip() for o in options or [] if o.strip()]
        if options and not (isinstance(ruleset, OffersOptions) and ruleset.options):
            return reply.note(f"{ruleset.title} has no campaign options; '{options[0][:40]}' cannot be chosen")
        with Session(self._writer) as session:  # read-then-write: the write lock first, or SQLite is busy
            if find_campaign(session, name) is not None:
                return reply.note(f"a campaign called '{name}' already exists in this database")
            digest = rules_digest(ruleset)
            data: dict[str, Any] = {
                "ruleset": ruleset_id, "gm": gm, "players": players, "clock": clock, "digest": digest,
                "randomness": randomness,
                # An undo is refused once a value it would take back is public by the clock; ids never reused.
                UNDO_RULES: CLOCK_RULES,
            }
            if options:  # only when chosen: a campaign without options keeps the event it always had
                data["options"] = options
            # The game's reading of its rules a new campaign follows; older logs keep theirs.
            if isinstance(ruleset, VersionsRules):
                data["rules_version"] = ruleset.rules_version
            data.update(source.created_fields())  # the source's newest rules; older logs keep theirs
            chain_line = ""
            if source.drand:
                from bot.drand.beacons import ChainRefused, campaign_fields

                try:  # quicknet, or a test chain the operator opted into, marked so
                    chain_fields, chain_line = campaign_fields(self._beacon_source)
                except ChainRefused as exc:
                    return reply.note(f"no campaign created: {exc}")
                data.update(chain_fields)
            if source.seed and RULE_OF_NEW_CAMPAIGNS != commit_reveal.RULE_SEED:
                # Its numbers come from the drand round mixed in alone, checkable at once (engine/commit_reveal.py).
                data[commit_reveal.RULE_FIELD] = RULE_OF_NEW_CAMPAIGNS
            nonce = seed = None
            if source.seed:
                try:  # the seed is HMAC(server key, nonce): the database holds the nonce only
                    nonce = campaign_secret.new_nonce()
                    seed = campaign_secret.derive_seed(campaign_secret.server_key(), nonce)
                except campaign_secret.NoServerKey as exc:
                    return reply.note(f"no campaign created: {exc}")
            if seed is not None:
                data["commitment"] = commit_reveal.commitment(commit_reveal.key(seed))
            event = Event(seq=1, kind=CREATED, actor=gm, data=data, at=self._now())
            event = replace(event, hash=event_hash(GENESIS, event))
            try:
                folded, _ = start(ruleset, event)
            except Rejection as exc:
                return reply.note(exc.reason)
            if channel_id is not None and find_campaign_by_channel(session, channel_id) is not None:
                return reply.note("this channel already hosts a campaign: use another channel or forum")
            row = CampaignRow(
                name=name, ruleset=ruleset_id, gm=gm, clock=clock, guild_id=guild_id, channel_id=channel_id,
                gm_role_id=gm_role_id,
            )
            session.add(row)
            session.flush()
            assert row.id is not None
            append_event(session, row.id, event)
            if seed is not None:
                session.add(campaign_secret.CampaignSecretRow(campaign_id=row.id, seed=str(nonce)))
            folded, sealed = seal_at_creation(self, session, row, ruleset, folded)
            session.commit()
            self._folds[row.id] = folded
            for hook in list(self.created):
                hook(row)
            seats = ", ".join(f"{n} ({p})" for n, p in sorted(players.items())) or "no players yet"
            reply.changed = True
            return reply.note(
                f"Campaign '{name}' created ({ruleset.title}, GM {gm}, {clock} clock): {seats}. " + chain_line
                + "".join(f"{m} " for m in sealed)
                + (
                    (f"Rolls beyond the order of play and the events come from a drand round bound with each roll, "
                     "each number checkable by anyone as soon as it is recorded; " if RULE_OF_NEW_CAMPAIGNS
                     != commit_reveal.RULE_SEED else
                     f"Rolls beyond the order of play and the events come from a commit-reveal seed mixed with a "
                     f"drand round bound with each roll; ")
                    + f"the commit-reveal seed's commitment (SHA-256) is {data['commitment']}, published now in the "
                    "log; the GM reveals the seed at the end with /campaign reveal. "
                    if seed is not None else ""
                )
                + first_step(ruleset, folded.state)
            )

    def campaign_for_channel(self, channel_id: str) -> CampaignRow | None:
        with Session(self.engine) as session:
            return find_campaign_by_channel(session, channel_id)

    def campaign_for_channel_name(self, name: str) -> CampaignRow | None:
        with Session(self.engine) as session:
            return find_campaign(session, name)

    def ruleset_of(self, campaign: str | None) -> Ruleset:
        with Session(self.engine) as session:
            return load_ruleset(self._campaign(session, campaign).ruleset, self.data_dir)

    def campaign_names(self) -> list[str]:
        with Session(self.engine) as session:
            return [c.name for c in list_campaigns(session)]

    def _campaign(self, session: Session, name: str | None) -> CampaignRow:
        if name is not None and name in self._rows:
            return self._rows[name]
        row = find_campaign(session, name)
        if row is not None:
            session.expunge(row)  # read only from here on, by any thread, whatever becomes of this session
            self._rows[row.name] = row
        if row is None:
            pick(name, [c.name for c in list_campaigns(session)])  # raises CampaignNotFound saying why
            raise CampaignNotFound(f"no campaign called '{name}'")  # a campaign made between the two reads
        return row

    # --- reading --------------------------------------------------------------------------------------------------------

    def state(self, campaign: str | None = None) -> dict[str, Any]:
        ruleset, state = self.folded(campaign)
        return ruleset.public_view(state)

    def folded(self, campaign: str | None = None) -> tuple[Ruleset, Any]:
        """The campaign's ruleset and its current state (read only)."""
        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            ruleset, folded = self._fold(SessionPostStore(session), row)
            return ruleset, folded.state

    def state_card(self, campaign: str | None = None) -> Any:
        """The state at a glance (bot/service/state_card.py): turn, phase, who is to play, standings, the JSON."""
        from bot.service.chain_warning import log_warning
        from bot.service.state_card import state_card

        with Session(self.engine) as session:
            ruleset, folded = self._fold(SessionPostStore(session), self._campaign(session, campaign))
        return state_card(ruleset, folded.state, *log_warning(folded.effective))

    def summary(self, campaign: str | None = None) -> Any:
        """The game's summary (engine.ruleset.Summary): turn, its label, phase, whether it is over, the headline."""
        ruleset, state = self.folded(campaign)
        return ruleset.summary(state)

    def status(self, campaign: str | None = None) -> str:
        ruleset, state = self.folded(campaign)
        return ruleset.status(state)

    def export(self, campaign: str | None = None) -> str:
        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            assert row.id is not None
            return checked_export(export_log(session, row.id), row.name)

    # --- posting --------------------------------------------------------------------------------------------------------

    def _post_batch(self, requests: Sequence[PostRequest]) -> list[Reply]:
        """One attempt at ``requests`` in one transaction (``post_many`` retries it); raises ``_Conflict`` when
        another writer came first, and then nothing was written."""
        batch = _Batch()
        replies: list[Reply] = []
        applied: list[tuple[_Posting, tuple[str, ...]] | None] = []
        try:
            # expire_on_commit=False: touching a row after the commit must not start another (write-locked)
            # transaction, which could time out after the posts were committed and make a retry apply them twice.
            with Session(self._writer, expire_on_commit=False) as session:
                rows: list[CampaignRow | CampaignNotFound] = []
                for request in requests:
                    try:
                        rows.append(self._campaign(session, request.campaign))
                    except CampaignNotFound as exc:
                        rows.append(exc)
                # Every campaign's lock in one order (PostgreSQL; SQLite holds the database's): two processes
                # writing batches over the same campaigns then queue instead of deadlocking.
                ids = sorted({r.id for r in rows if isinstance(r, CampaignRow) and r.id is not None})
                for campaign_id in ids:
                    lock_campaign(session, campaign_id)
                batch.last_seqs = last_seqs(session, ids)
                for request, row in zip(requests, rows):
                    if isinstance(row, CampaignNotFound):
                        replies.append(Reply.unread(str(row)))
                        applied.append(None)
                        continue
                    reply, done = self._post_in_savepoint(session, request, row, batch)
                    replies.append(reply)
                    applied.append(done)
                insert_rows(session, batch.events, batch.posts)
                seen = [r.seen for r in requests if r.seen is not None]
                if seen:  # read and answered (applied or refused) with the posts: a catch-up takes none again
                    from bot.store.read_marks import mark_read

                    mark_read(session, seen)
                session.commit()
        except (IntegrityError, OperationalError) as exc:
            if _is_conflict(exc):  # nothing was committed: ``post_many`` folds again and re-applies the posts
                raise _Conflict(str(exc)) from exc
            if disk_full(exc):  # the operator's to fix, not a bug: one line in the log, the reason to the author
                log.error("a transaction of %d post(s) failed, the disk is full; nothing was changed", len(requests))
                return [Reply.unread(DISK_FULL) for _ in requests]
            log.exception("a transaction of %d post(s) failed; nothing was changed", len(requests))
            return [Reply.unread(INTERNAL_ERROR) for _ in requests]
        except Exception:  # a bug must never reach a player as a traceback, nor leave half a post applied
            log.exception("a transaction of %d post(s) failed; nothing was changed", len(requests))
            return [Reply.unread(INTERNAL_ERROR) for _ in requests]
        self._folds.update(batch.folds)  # committed now
        self._draws.update(batch.found_draws)
        for done in applied:
            if done is not None and done[0].campaign.id is not None and done[0]._summary is not None:
                self._summaries[done[0].campaign.id] = done[0]._summary
        for reply, done in zip(replies, applied):
            if done is not None:
                posting = done[0]
                reply.changed = bool(posting.new_events)
                reply.ping = self._to_ping(posting) if posting.new_events else []
        self._notify_all([done for done in applied if done is not None])
        return replies

    def _post_in_savepoint(self, session: Session, request: PostRequest, row: CampaignRow,
                           batch: _Batch) -> tuple[Reply, tuple[_Posting, tuple[str, ...]] | None]:
        """Apply one post of a batch inside its own SAVEPOINT: on any failure it is rolled back alone (an error
        answer, nothing of it written) and the batch goes on; a conflict with another writer aborts the batch."""
        reply = Reply()
        try:
            with session.begin_nested():
                posting, before, post_row = self._apply_post(SessionPostStore(session), request, row, batch, reply)
        except DamagedLog as exc:  # nothing is added to a log that no longer verifies: the way out is a backup
            log.error("post by %s refused: %s", request.author, exc.of(row.name).message)
            return Reply.unread(exc.of(row.name).message), None
        except (IntegrityError, OperationalError) as exc:
            if _is_conflict(exc) or disk_full(exc):  # the batch fails as a whole: no post of it is kept
                raise
            log.exception("post by %s failed; nothing was changed", request.author)
            return Reply.unread(INTERNAL_ERROR), None
        except SealedKeyMissing as exc:  # the campaign's secrets need a key this bot lacks: say which, change nothing
            log.error("post by %s not read: %s", request.author, exc)
            return Reply.unread(str(exc)), None
        except Exception:  # a bug must never reach a player as a traceback, nor leave half a post applied
            log.exception("post by %s failed; nothing was changed", request.author)
            return Reply.unread(INTERNAL_ERROR), None
        assert row.id is not None
        batch.folds[row.id] = posting.folded
        batch.events += [event_values(row.id, event) for event in posting.new_events]
        batch.posts.append(post_row)
        return reply, (posting, before)

    def _notify(self, posting: _Posting, before: tuple[str, ...]) -> None:
        self._notify_all([(posting, before)])

    def _notify_all(self, done: Sequence[tuple[_Posting, tuple[str, ...]]]) -> None:
        """Tell the observers what the committed posts changed, in their order. An observer with ``observe_many``
        gets them all at once (the scheduler writes every deadline they move in one transaction)."""
        changes = []
        for posting, before in done:
            if not posting.new_events:
                continue
            assert posting.campaign.id is not None
            changes.append(Change(
                campaign=posting.campaign.name, campaign_id=posting.campaign.id, events=tuple(posting.new_events),
                to_act_before=before, to_act_after=tuple(posting.ruleset.to_act(posting.folded.state)),
                state=posting.folded.state, ruleset=posting.ruleset, summary=posting.summary(),
            ))
        if not changes:
            return
        for observer in list(self.observers):
            many = getattr(observer, "observe_many", None)
            try:
                if many is not None:
                    many(changes)
                    continue
                for change in changes:
                    try:
                        observer(change)
                    except Exception:  # one change's failure must not hide the next from this observer
                        log.exception("observer %r failed on campaign %s", observer, change.campaign)
            except Exception:  # an observer's failure must not undo or hide a committed post
                log.exception("observer %r failed on %d change(s)", observer, len(changes))

    # --- commands -------------------------------------------------------------------------------------------------------

    def undo_offer(self, campaign: str | None, author: str) -> tuple[int, str] | None:
        """The order ``author`` could take back now (its number, in words), or None: whether to offer the button."""
        from engine.log import describe, player_undo_target

        with Session(self.engine) as session:
            ruleset, folded = self._fold(SessionPostStore(session), self._campaign(session, campaign))
        try:
            target = player_undo_target(ruleset, folded, author)
        except Rejection:
            return None
        return target.seq, describe(target)

    def verify(self, campaign: str | None = None, witnesses: Sequence[Any] = ()) -> tuple[Any, str]:
        """Re-check the campaign's log against the sources' draws (a GM-typed one only where two sources agree on it,
        else it is reported unchecked): the result and the log, which anyone can check again with
        `legatus verify LOG --draws <the official archive>`. ``witnesses``: heads seen outside the bot
        (engine/witness.py), e.g. its own Discord messages."""
        from bot.service.verify_draws import public_draws
        from engine.verify import verify

        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            assert row.id is not None
            text = export_log(session, row.id)
            events = load_events(session, row.id)
            ruleset = load_ruleset(row.ruleset, self.data_dir)
            # The sources' word, never a GM's typing checked against itself (bot/service/verify_draws.py).
            public = public_draws(session, events)
        return verify(ruleset, events, public, witnesses=witnesses), text

    # --- lottery --------------------------------------------------------------------------------------------------------

    def import_draws(self, text: str, source: str) -> tuple[draw_store.ImportReport, dict[str, list[str]]]:
        """Store the draws already held (by the service's clock), then let every campaign waiting for one move on."""
        from bot.service.held_draws import without_unheld

        text, unheld = without_unheld(text, self.clock.now(), source)
        with Session(self.engine) as session:
            report = draw_store.import_archive(session, text, source)
        report.errors[:0] = unheld
        progress: dict[str, list[str]] = {}
        for name in self.campaign_names():
            messages = self.pump(name)
            if messages:
                progress[name] = messages
        return report, progress

    def pump(self, campaign: str | None = None) -> list[str]:
        """Record the public values the campaign waits for that are now at hand (a drand round come), with nobody
        posting; what the bot seals of its own on the way (a stratagem marker drawn) goes to the private store."""
        with Session(self._writer) as session:
            row = self._campaign(session, campaign)
            assert row.id is not None
            lock_campaign(session, row.id)  # as a post does: another process's post waits (PostgreSQL)
            store = SessionPostStore(session)
            ruleset, folded = self._fold(store, row)
            posting = _Posting(store, row, ruleset, folded, BOT)
            before = tuple(ruleset.to_act(folded.state))
            messages = self._record_draws(posting)
            for event in posting.new_events:
                append_event(session, row.id, event)
            if posting.new_events:
                self._keep_beside_the_log(posting)
            session.commit()
            self._folds[row.id] = posting.folded
        self._notify(posting, before)
        if posting.new_events:
            # What the bot records with nobody posting changes the chain too: its message publishes the head.
            messages.append(head_line(posting.folded))
        return messages

    # --- posting, retried (issue 12: concurrent writers) ----------------------------------------------------------

    def post(self, author: str, text: str, campaign: str | None = None, *, is_gm: bool | None = None) -> Reply:
        """Read a post as ``author``. ``is_gm`` comes from the transport's own permission check (Discord: the
        campaign's GM role); left out, only the campaign's GM identity itself is a GM."""
        return self.post_many([PostRequest(author, text, campaign, is_gm)])[0]

    def post_many(self, requests: Sequence[PostRequest]) -> list[Reply]:
        """Apply posts in their order, in one transaction (one commit for them all), each answered as if posted
        alone: a post that fails is rolled back alone, inside its SAVEPOINT, and the others are kept.

        The transaction takes the write lock at its start (``bot.store.db.writer``), so on SQLite two writers
        never interleave. Should another writer still come first (the lock held past SQLite's busy timeout, or,
        on other databases, the same next event number), nothing was written: the posts are read again on the
        newer log, a few times, before their authors are told to post again."""
        from bot.service.draw_rulings import with_sources_asked

        # A GM's ruling on a draw asks the lottery sources now, before the transaction and its write lock.
        requests = [with_sources_asked(r, self.ask_lottery_sources) for r in requests]
        replies: list[Reply | None] = [self._not_text(r) for r in requests]
        todo = [i for i, reply in enumerate(replies) if reply is None]
        self._warm_folds([requests[i] for i in todo])
        for attempt in range(1, POST_ATTEMPTS + 1):
            if not todo:
                break
            try:
                done = self._post_batch([requests[i] for i in todo])
            except _Conflict as exc:
                # The cached folds stay: each is of committed events, and the next attempt folds the other writer's
                # events onto it (``_fold``). Dropped, every retry folded cold inside the write lock (0.5 s and
                # more), and the other writers' waits grew past SQLite's busy timeout in turn.
                log.info("%d post(s) met another writer (attempt %d): %s", len(todo), attempt, exc)
                continue
            for i, reply in zip(todo, done):
                replies[i] = reply
            todo = []
        for i in todo:
            log.warning("post by %s gave up after %d attempts: the database stayed busy", requests[i].author,
                        POST_ATTEMPTS)
            replies[i] = Reply.unread(f"The campaign was too busy to take this post after {POST_ATTEMPTS} tries; "
                                      "nothing was changed: please post it again.")
        return [r for r in replies if r is not None]

    def _warm_folds(self, requests: Sequence[PostRequest]) -> None:
        """Fold the campaigns this process holds no fold of yet, before the write lock: a reader never waits (WAL),
        and the first post of a process (the snapshot read, the whole chain walked) held the lock for 0.4 to 0.7 s
        against 0.01 s warm, so eight processes starting together kept the last one waiting past SQLite's busy
        timeout. Inside the lock only the events since are folded. A campaign that names a drand chain (its rolls
        wait for drand rounds) gets the beacon source made too: the first making imports an HTTP client, 0.25 s,
        and seconds on a loaded machine. A campaign that cannot be folded is left to the post's own attempt, which
        answers why."""
        cold = {r.campaign for r in requests
                if (r.campaign is None and not self._folds)
                or (r.campaign is not None and (r.campaign not in self._rows
                                                or self._rows[r.campaign].id not in self._folds))}
        for name in cold:
            try:
                with Session(self.engine) as session:
                    _, folded = self._fold(SessionPostStore(session), self._campaign(session, name))
                if folded.effective and "drand_chain" in folded.effective[0].data:
                    self._beacon_source()
            except Exception:
                log.debug("campaign %r not folded before its post", name, exc_info=True)

    @staticmethod
    def _not_text(request: PostRequest) -> Reply | None:
        for who, value in (("post", request.text), ("author's name", request.author)):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                # Only a broken transport or a non-UTF-8 command line can send this; say where, store nothing.
                return Reply.unread(f"The {who} is not valid text: character {exc.start + 1} is not Unicode (it came "
                                    "from bytes that are not UTF-8); nothing was changed. Send it as UTF-8 text.")
            if "\x00" in value:
                # SQLite would keep it, PostgreSQL refuses it: refused alike on both, before anything is read.
                line = value.count("\n", 0, value.index("\x00")) + 1
                return Reply.unread(f"The {who} holds a NUL character (\\x00) on line {line}, which no text may hold; "
                                    "nothing was changed. Remove it and post again.")
        return None
