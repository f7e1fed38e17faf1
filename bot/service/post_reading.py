"""Reading a post against a campaign's state, line by line, over a post store (``bot/store/post_store.py``).

Each order or command becomes an event, which the ruleset accepts or refuses with its reason; the events, the
sealed contents and the snapshot go to the store of the post's transaction. ``Legatus`` (bot/service/legatus.py)
runs it over SQLAlchemy, with batches, retries and observers; ``bot/service/direct_post.py`` runs it over Python's
own sqlite3 for `legatus post` with no bot running. This module imports no SQLAlchemy, so that the second stays
light; what it needs of SQLAlchemy-only stores (deadlines, settings) it imports where it is used.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING, Any

from bot.service import shell_commands
from bot.service.commands import Command, CommandError, parse_command, shell_refusals
from bot.service.hidden_refusals import owner_note, refusal_reason
from bot.service.post_record import recorded
from bot.service.public_values import BOT, PublicValues
from bot.service.replies import LineAnswer, Reply
from bot.service.window_pings import pinged_again, window_asked
from bot.store.fold_key import EVERY, snapshot_key
from bot.store.log_damage import check_stored, replayed, walk_due
from bot.store.post_store import PostStore, with_secrets
from engine.chance.sources import drand as drand_source
from engine.events import Event, Rejection
from engine.ledger import event_hash
from engine.log import Folded, replay, step
from engine.ruleset import Proposal, Ruleset
from engine.rulesets import load_ruleset
from engine.secrets import digest as seal_digest

if TYPE_CHECKING:  # SQLAlchemy's table module, which this module does not load (see above)
    from bot.store.read_marks import Seen

@dataclass(frozen=True)
class PostRequest:
    """One post to apply: who wrote what, in which campaign (None: the only one), and whether the transport
    found them a GM (None: only the campaign's GM identity is)."""

    author: str
    text: str
    campaign: str | None = None
    is_gm: bool | None = None
    # Set by a transport that received the post where others read it and cannot take it down (Discord: no Manage
    # Messages in the channel): every sealed order of the post is refused with this reason, applied nowhere.
    sealed_refused: str | None = None
    # What the lottery sources said, asked before the transaction, of each day the post rules on
    # (bot/service/draw_rulings.py); None: not asked yet.
    asked: dict[date, Any] | None = None
    # The message it came as (a Discord post): marked read in the post's own transaction (bot/store/read_marks.py).
    seen: Seen | None = None


@dataclass
class _Batch:
    """What the posts of one transaction share: the folds they made (not committed yet, so not in the service's
    cache), the last event number of each campaign when the transaction began (read once for all its posts), the
    stored draw dates read (the draw table changes within a transaction only by ``/lotto confirm``, which clears
    them), and the rows of the posts kept so far, inserted together before the commit."""

    folds: dict[int, Folded] = field(default_factory=dict)
    last_seqs: dict[int, int] | None = None
    draw_dates: dict[str, list[date]] = field(default_factory=dict)
    first_draws: dict[date, date | None] = field(default_factory=dict)  # /turn open: first stored draw on or after
    found_draws: dict[str, tuple[Any, str]] = field(default_factory=dict)  # complete draws read (PublicValues)
    no_draw: set[str] = field(default_factory=set)  # days without a complete draw in this transaction
    events: list[dict[str, Any]] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Posting:
    """One post being applied: the store of its transaction, the campaign and its folded state, the events so far."""

    store: PostStore
    campaign: Any  # bot.store.campaigns.CampaignRow, or the direct writer's record: id, name, gm, clock, ruleset
    ruleset: Ruleset
    folded: Folded
    author: str
    is_gm: bool = False  # the transport's check said so (the campaign's GM, or a member of its GM role)
    sealed_refused: str | None = None  # PostRequest.sealed_refused
    new_events: list[Event] = field(default_factory=list)
    batch: _Batch = field(default_factory=_Batch)
    asked: dict[date, Any] = field(default_factory=dict)  # the sources' word on the days the post rules on
    _summary: tuple[Any, Any] | None = None  # (state, its summary): asked for several times per event
    # The seats an open window asked before the post, with their choices: pinged again only for something new.
    window_asked: dict[str, frozenset[str]] = field(default_factory=dict)

    @property
    def session(self) -> Any:
        """The SQLAlchemy session (deadlines, settings, typed draws): NeedsFullStore on the direct writer."""
        return self.store.session

    @property
    def gm_actor(self) -> str:
        """Who GM decisions are recorded as: the campaign's GM identity, whoever of the GMs typed them."""
        return self.campaign.gm if self.is_gm else self.author

    def summary(self) -> Any:
        """``ruleset.summary`` of the current state, computed once per state (a headline is dozens of lines)."""
        state = self.folded.state
        if self._summary is None or self._summary[0] is not state:
            self._summary = (state, self.ruleset.summary(state))
        return self._summary[1]


def head_line(folded: Folded) -> str:
    """The line that publishes the log's head, as `legatus verify` reads it back from an export of the channel."""
    return f"Log head after this post: {folded.last_seq}:{folded.head}"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class PostReading(PublicValues):
    """The reading of posts, mixed into a service that sets ``data_dir``, ``clock``, ``salt``, ``beacons`` and the
    caches ``_folds``, ``_rulesets``, ``_draws`` and ``_summaries``."""

    data_dir: Any
    engine: Any  # the SQLAlchemy engine (Legatus) that settings are saved with
    # day -> what every lottery source says of it now (bot/lottery/asking.py); None: the sources the environment names.
    lottery_sources: Callable[[date], Any] | None = None
    # Walk the whole stored chain when a campaign is first folded from its snapshot: a long-running service does,
    # once per campaign; a one-post process (the direct writer) leaves it to the snapshot boundaries.
    walks_cold_logs: bool = True
    _folds: dict[int, Folded]
    _rulesets: dict[str, Ruleset]
    _summaries: dict[int, tuple[Any, Any]]

    def _ruleset(self, ruleset_id: str) -> Ruleset:
        """The loaded ruleset (engine/rulesets.py caches it too, but resolves the data folder's path per call)."""
        known = self._rulesets.get(ruleset_id)
        if known is None:
            known = self._rulesets[ruleset_id] = load_ruleset(ruleset_id, self.data_dir)
        return known

    def _fold(self, store: PostStore, campaign: Any, batch: _Batch | None = None) -> tuple[Ruleset, Folded]:
        ruleset = self._ruleset(campaign.ruleset)
        assert campaign.id is not None
        # This transaction's own posts first (not committed yet), else memory (a running bot), else the stored
        # snapshot (a fresh process), else the whole log.
        if batch is not None and campaign.id in batch.folds:
            # An earlier post of this transaction, which holds the write lock (SQLite) or the campaign's lock
            # (PostgreSQL) since before it read the log: nothing can have come in between. Its events wait in the
            # batch, not in the table yet.
            return ruleset, batch.folds[campaign.id]
        warm = self._folds.get(campaign.id)
        cached = warm or store.snapshot(campaign.id, self._snapshot_key(ruleset))
        if cached is None:
            folded = replayed(lambda: replay(ruleset, with_secrets(store, campaign.id, store.events(campaign.id))),
                              lambda: store.events(campaign.id), campaign.name)
        else:
            if warm is None and self.walks_cold_logs:
                # A long-running service meets this campaign for the first time (it just started, or the file was
                # restored): the snapshot says nothing of the rows before it, so the whole chain is walked once.
                check_stored(lambda: store.events(campaign.id), campaign.name)
            # Another process sharing the store may have written since: the batch read every campaign's last event
            # number at its start (one query); otherwise one indexed read. Nothing new, usually.
            last = batch.last_seqs.get(campaign.id) if batch is not None and batch.last_seqs is not None else None

            def fold_new() -> Folded:
                folded = cached
                new = store.events(campaign.id, cached.last_seq) if last is None or last > cached.last_seq else []
                for event in with_secrets(store, campaign.id, new, cached.last_seq) if new else ():
                    folded, _ = step(ruleset, folded, event)
                return folded

            folded = replayed(fold_new, lambda: store.events(campaign.id), campaign.name)
        self._folds[campaign.id] = folded  # committed events only: this transaction wrote none for this campaign
        return ruleset, folded

    def _snapshot_key(self, ruleset: Ruleset) -> str:
        return snapshot_key(ruleset, self.data_dir)

    def _apply_post(self, store: PostStore, request: PostRequest, row: Any, batch: _Batch,
                    reply: Reply) -> tuple[_Posting, tuple[str, ...], dict[str, Any]]:
        """Read the post against the campaign's state; returns it, who was to act before, and the post's record.
        What the post writes besides its events and record (sealed contents, deadlines, settings, a typed draw,
        the snapshot) goes into the store, inside the post's savepoint."""
        author, text = request.author, request.text
        assert row.id is not None
        ruleset, folded = self._fold(store, row, batch)
        gm = (author == row.gm) if request.is_gm is None else request.is_gm
        posting = _Posting(store, row, ruleset, folded, author, is_gm=gm, batch=batch, asked=dict(request.asked or {}),
                           _summary=self._summaries.get(row.id), sealed_refused=request.sealed_refused)
        before = tuple(ruleset.to_act(folded.state))
        posting.window_asked = window_asked(ruleset.prompts(folded.state))
        # Public values that came in since the last post (a drand round now produced) are recorded first,
        # so the post is read against the state everyone can now know.
        reply.notes.extend(self._record_draws(posting))
        self._read(posting, text, reply)
        if posting.new_events and walk_due(folded.last_seq, posting.folded.last_seq, EVERY):
            # Whoever holds the campaign in memory never reads the older rows again: at each snapshot boundary the
            # whole stored chain is walked, so a row damaged under a running writer stops the log from growing.
            check_stored(lambda: store.events(row.id), row.name)
        if posting.new_events:
            # Every post that changed the chain publishes the head: Discord stamps the message, so it witnesses
            # when each binding existed (`legatus verify --witnesses`), and any later copy is held to it.
            reply.note(head_line(posting.folded))
        self._keep_beside_the_log(posting)
        kept_text, kept_answer = recorded(text, reply)  # a sealed line is not kept as typed: bot/service/post_record.py
        post_row = {
            "campaign_id": row.id, "author": author, "text": kept_text, "answer": kept_answer,
            "first_seq": posting.new_events[0].seq if posting.new_events else None,
            "last_seq": posting.new_events[-1].seq if posting.new_events else None, "at": utcnow(),
        }
        store.flush()  # inside the savepoint: a row the database refuses fails this post, not the batch
        return posting, before, post_row

    def _keep_beside_the_log(self, posting: _Posting) -> None:
        """What a fold's new events leave beside the log, in the posting's transaction: the sealed contents (the
        private store, never exported) and the campaign's snapshot."""
        assert posting.campaign.id is not None
        for event in posting.new_events:
            if event.secret is not None:
                posting.store.keep_sealed(posting.campaign.id, event.seq, event.secret)
        posting.store.keep_snapshot(posting.campaign.id, self._snapshot_key(posting.ruleset), posting.folded)

    def _to_ping(self, posting: _Posting) -> list[str]:
        users = []
        asked = {p.seat for p in posting.ruleset.prompts(posting.folded.state)
                 if not pinged_again(p, posting.window_asked)} if posting.window_asked else set()
        for seat in posting.ruleset.to_act(posting.folded.state):
            if seat in asked:
                continue
            player = posting.ruleset.player_of(posting.folded.state, seat)
            if player and player != posting.author:
                users.append(player)
        return users

    def _read(self, posting: _Posting, text: str, reply: Reply) -> None:
        lines = text.splitlines() or [text]
        commands = {i + 1: line for i, line in enumerate(lines) if line.strip().startswith("/")}
        proposals = {p.line_no: p for p in posting.ruleset.read_post(posting.folded.state, posting.author, text)}
        seat = posting.ruleset.seat_of(posting.folded.state, posting.author)
        for line_no in sorted(set(commands) | set(proposals)):
            saved, count = posting.folded, len(posting.new_events)
            acting = seat is not None and seat in posting.ruleset.to_act(posting.folded.state)
            # The lines that give up the rest of a turn without acting ("pass"): the prompt's choices and default.
            yielding = {c.strip().lower() for p in posting.ruleset.prompts(posting.folded.state) if p.seat == seat
                        for c in (*p.choices, p.on_timeout or "")}
            text_here = (commands.get(line_no) or proposals[line_no].text).strip().lower()
            if line_no in commands:
                answer = self._command(posting, line_no, commands[line_no])
            else:
                answer = self._propose(posting, proposals[line_no])
            refused = [a.line_no for a in reply.answers if not a.ok]
            if (answer.ok and refused and acting and text_here in yielding
                    and seat not in posting.ruleset.to_act(posting.folded.state)):
                # A post is all or nothing when it ends the author's turn: a refused order above would be lost.
                posting.folded, posting.new_events[count:] = saved, []
                answer = LineAnswer(
                    answer.line_no, answer.text, False,
                    f"not applied: it would end your turn, but line {', '.join(map(str, refused))} of this post was "
                    "refused; fix that line and post again (your turn stays open)",
                )
            reply.answers.append(answer)
        if not reply.answers:
            reply.note("No order found in this post (table talk is left alone).")
        elif any(a.ok for a in reply.answers) and not all(a.ok for a in reply.answers):
            done = [str(a.line_no) for a in reply.answers if a.ok]
            failed = [str(a.line_no) for a in reply.answers if not a.ok]
            reply.note(f"Applied: line {', '.join(done)}. Not applied: line {', '.join(failed)} (a refused line "
                       "changes nothing).")

    def _propose(self, posting: _Posting, proposal: Proposal, actor: str | None = None) -> LineAnswer:
        sealed = proposal.secret is not None
        if proposal.error is not None or proposal.kind is None:
            return LineAnswer(proposal.line_no, proposal.text, False, proposal.error or "not understood", sealed=sealed)
        if sealed and posting.sealed_refused is not None:
            return LineAnswer(proposal.line_no, proposal.text, False,
                              f"{proposal.understood}: refused: {posting.sealed_refused}", sealed=True)
        try:
            messages = self._append(posting, proposal.kind, proposal.data, actor, secret=proposal.secret)
        except Rejection as exc:
            state = posting.folded.state
            seat = posting.ruleset.seat_of(state, posting.author)
            reason, own = refusal_reason(exc, seat)
            owner = posting.ruleset.player_of(state, exc.hidden_of) if exc.hidden_of is not None else None
            return LineAnswer(proposal.line_no, proposal.text, False, f"{proposal.understood}: refused: {reason}",
                              sealed=sealed, reason_private=own,
                              owner_note=owner_note(exc, seat, owner, proposal.text, proposal.understood))
        return LineAnswer(proposal.line_no, proposal.text, True, proposal.understood, messages, sealed=sealed)

    def _append(self, posting: _Posting, kind: str, data: dict[str, Any], actor: str | None = None, *,
                secret: dict[str, Any] | None = None) -> list[str]:
        """Apply one event (raising Rejection if refused), then record any draw it now waits for. A sealed order
        carries only the digest of its content in the public log; the content goes to the private store."""
        sealed = None
        if secret is not None:
            sealed = {"content": secret, "salt": self.salt()}
            data = {**data, "sealed": seal_digest(secret, sealed["salt"])}
        event = self._event(posting, kind, data, actor or posting.author)
        if sealed is not None:
            event = replace(event, secret=sealed)
        folded, messages = step(posting.ruleset, posting.folded, event)
        posting.folded = folded
        posting.new_events.append(event)
        return list(messages) + self._record_draws(posting)

    def _event(self, posting: _Posting, kind: str, data: dict[str, Any], actor: str) -> Event:
        if actor != posting.author and posting.author != BOT:
            data = {**data, "by": posting.author}  # which of the GMs it was: the trace names them
        draws = tuple(self._offered_draws(posting))
        # A drand campaign's event says the newest round the bot held: a lower bound on its time (docs/randomness.md 4).
        known = getattr(self.beacons, "newest", None) if any(d.startswith(drand_source.PREFIX) for d in draws) else None
        event = Event(
            seq=posting.folded.last_seq + 1, kind=kind, actor=actor, data=data, at=self._now(), draws=draws,
            known_round=known if isinstance(known, int) else None,
        )
        return replace(event, hash=event_hash(posting.folded.head, event))

    def _now(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")

    def _command(self, posting: _Posting, line_no: int, line: str) -> LineAnswer:
        try:
            command = parse_command(line, posting.ruleset.commands())
            return self._run(posting, line_no, command)
        except CommandError as exc:
            return LineAnswer(line_no, line.strip(), False, str(exc))
        except Rejection as exc:
            return LineAnswer(line_no, line.strip(), False, f"refused: {exc.reason}")

    def _require_gm(self, posting: _Posting, command: Command) -> None:
        if not posting.is_gm:
            raise Rejection(f"/{command.name} is for the GM ({posting.campaign.gm}) only")

    def _resolve(self, posting: _Posting, kind: str, text: str) -> str:
        resolution = posting.ruleset.resolve(kind, text)
        if resolution.name is None:
            raise Rejection(resolution.error or f"unknown {kind} '{text}'")
        return str(resolution.name)

    def _run(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """The one dispatch of a typed command: the game's refusal of a shell command it has no use for, then the
        GM check of a GM-only one, then its handler (bot/service/shell_commands/); a game's command goes to the
        game's ``read_command``."""
        shell = shell_commands.typed_commands(shell_commands.SHELL).get(command.name)
        if shell is None or shell.handler is None:
            proposal = posting.ruleset.read_command(posting.folded.state, posting.author, command.name, command.args,
                                                    is_gm=posting.is_gm)
            return self._propose(posting, replace(proposal, line_no=line_no, text=command.text), posting.gm_actor)
        refusals = shell_refusals(posting.ruleset, posting.folded.state)
        if command.name in refusals:
            raise CommandError(f"/{command.name} is not part of {posting.ruleset.title}: {refusals[command.name]}")
        if shell.spec.gm_only:
            self._require_gm(posting, command)
        return shell.handler(self, posting, line_no, command)

    def ask_lottery_sources(self, day: date) -> Any:
        """What every lottery source says of ``day`` now (bot/lottery/asking.py): the sources the environment names,
        unless ``lottery_sources`` was set (a test's own site)."""
        asker = self.lottery_sources
        if asker is None:
            from bot.lottery.asking import env_asker

            asker = self.lottery_sources = env_asker()
        return asker(day)

    def _chain_warning(self, posting: _Posting) -> list[str]:
        from bot.service.chain_warning import log_warning

        return log_warning(posting.folded.effective)
