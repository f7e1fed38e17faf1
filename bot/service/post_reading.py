"""Reading a post against a campaign's state, line by line, over a post store (``bot/store/post_store.py``).

Each order or command becomes an event, which the ruleset accepts or refuses with its reason; the events, the
sealed contents and the snapshot go to the store of the post's transaction. ``Legatus`` (bot/service/legatus.py)
runs it over SQLAlchemy, with batches, retries and observers; ``bot/service/direct_post.py`` runs it over Python's
own sqlite3 for `legatus post` with no bot running. This module imports no SQLAlchemy, so that the second stays
light; what it needs of SQLAlchemy-only stores (deadlines, settings) it imports where it is used.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from bot.schedule.clock import draw_moment, scheduled_draws_after
from bot.service.commands import Command, CommandError, help_text, parse_command, shell_refusals, usage
from bot.service.hidden_refusals import owner_note, refusal_reason
from bot.service.next_steps import next_steps
from bot.service.post_record import recorded
from bot.service.public_values import BOT, PublicValues
from bot.service.replies import LineAnswer, Reply
from bot.service.roll_command import roll_event
from bot.store.fold_key import EVERY, snapshot_key
from bot.store.log_damage import check_stored, replayed, walk_due
from bot.store.post_store import PostStore, with_secrets
from engine import canonical
from engine.events import Event, Rejection
from engine.ledger import event_hash
from engine.log import Folded, replay, seen_after, step, undo_target
from engine.ruleset import Proposal, Ruleset
from engine.rulesets import load_ruleset
from engine.secrets import digest as seal_digest

if TYPE_CHECKING:  # SQLAlchemy's table module, which this module does not load (see above)
    from bot.store.read_marks import Seen

# A draw is ruled not held only a day after its time: a late publication is not a cancellation.
CANCEL_MARGIN = timedelta(hours=24)


def _after_first_argument(line: str) -> str:
    """The rest of ``/order <seat> <order>`` after the seat, which may be quoted ("Player A") or one word."""
    body = line.strip().split(None, 1)[1].lstrip()
    if body[:1] in ('"', "'") and body.find(body[0], 1) > 0:
        return body[body.find(body[0], 1) + 1:].strip()
    return body.split(None, 1)[1] if len(body.split(None, 1)) > 1 else ""


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


def _day_and_more(command: Command, example: str) -> date:
    """The date a draw command starts with (``/lotto confirm DATE ...``), which must be followed by more."""
    if len(command.args) < 2:
        raise CommandError(f"usage: {usage(command.name)}{example}")
    try:
        return date.fromisoformat(command.args[0])
    except ValueError:
        raise CommandError(f"'{command.args[0][:40]}' is not a date: write YYYY-MM-DD") from None


def head_line(folded: Folded) -> str:
    """The line that publishes the log's head, as `legatus verify` reads it back from an export of the channel."""
    return f"Log head after this post: {folded.last_seq}:{folded.head}"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class PostReading(PublicValues):
    """The reading of posts, mixed into a service that sets ``data_dir``, ``clock``, ``salt``, ``beacons`` and the
    caches ``_folds``, ``_rulesets``, ``_draws`` and ``_summaries``."""

    data_dir: Any
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
        for nation in posting.ruleset.to_act(posting.folded.state):
            player = getattr(posting.ruleset, "player_of")(posting.folded.state, nation)
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
        known = getattr(self.beacons, "newest", None) if any(d.startswith("drand:") for d in draws) else None
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
        resolution = posting.ruleset.resolve(kind, text)  # type: ignore[attr-defined]
        if resolution.name is None:
            raise Rejection(resolution.error or f"unknown {kind} '{text}'")
        return str(resolution.name)

    def _run(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        name, args = command.name, command.args
        state = posting.folded.state
        ok = lambda message, details=(): LineAnswer(line_no, command.text, True, message, list(details))  # noqa: E731
        game_commands = {c.name for c in posting.ruleset.commands()}
        refusals = shell_refusals(posting.ruleset, state)
        if name in refusals and name not in game_commands:
            raise CommandError(f"/{name} is not part of {posting.ruleset.title}: {refusals[name]}")
        if name in ("turn status", "status"):
            from bot.service.deadline_text import deadline_lines, seat_players

            players = seat_players(posting.ruleset, state)
            deadlines = deadline_lines(posting.store.turn_deadlines(posting.campaign.id), players)
            steps = next_steps(posting.ruleset, state)
            return ok("status", posting.ruleset.status(state).splitlines() + (["Now:"] + steps if steps else [])
                      + ["Deadlines:"] + deadlines)
        if name in ("gm extend", "gm deadline"):
            self._require_gm(posting, command)
            return self._deadline_command(posting, line_no, command)
        if name == "help":
            return ok(help_text(posting.ruleset.commands(), leave_out=refusals))
        if name == "state":
            return ok("state", [canonical.dumps(posting.ruleset.public_view(state), indent=2),
                                *self._chain_warning(posting)])
        if name == "ledger":
            return ok("ledger", self._ledger_lines(posting))
        if name == "settings":
            return self._player_settings(posting, line_no, command)
        if name == "undo":
            return self._player_undo(posting, line_no, command)
        if name == "private":
            # What only the author's seat may see: the transports show it to them alone (Discord: ephemeral).
            seat = posting.ruleset.seat_of(state, posting.author)
            if seat is None:
                raise Rejection(f"you ({posting.author}) hold no seat in this campaign, so you have no private view")
            view = posting.ruleset.private_view(state, seat)
            return LineAnswer(line_no, command.text, True, f"private view of {seat}",
                              [canonical.dumps(view, indent=2)] if view else ["nothing private"], private=True)
        if name in ("turn open", "turn close"):
            # The shell binds the turn to its lottery draw (first stored or scheduled on or after the date asked);
            # the game decides what opening or closing a turn means, or that it has no such thing.
            self._require_gm(posting, command)
            game_args = list(self._turn_draw(posting, args)) if name == "turn open" else []
            proposal = posting.ruleset.read_command(state, posting.author, name, game_args, is_gm=posting.is_gm)
            return self._propose(posting, replace(proposal, line_no=line_no, text=command.text), posting.gm_actor)
        if name in game_commands:
            proposal = posting.ruleset.read_command(state, posting.author, name, args, is_gm=posting.is_gm)
            return self._propose(posting, replace(proposal, line_no=line_no, text=command.text), posting.gm_actor)
        if name == "order":
            return self._order_for(posting, line_no, command)
        if name in ("gm undo", "gm void"):
            self._require_gm(posting, command)
            target = undo_target(posting.folded)
            if target is None:
                raise Rejection(f"there is nothing to {name.split()[1]}")
            if name == "gm void" and not args:
                raise CommandError("a void needs its reason, kept on record: /gm void <reason>, e.g. /gm void wrong nation")
            if name == "gm undo" and seen_after(posting.folded, target) is None:  # a recorded value says it first
                from engine.log import undo_refusal

                late = undo_refusal(posting.ruleset, posting.folded, target, self._now(), player=False)
                if late is not None:
                    raise Rejection(late)
            data = {"target": target.seq, "reason": " ".join(args)}
            return ok(f"{name.split()[1]} event #{target.seq}",
                      self._append(posting, name.replace(" ", "."), data, posting.gm_actor))
        if name in ("gm lock", "gm unlock"):
            self._require_gm(posting, command)
            data = {"locked": name == "gm lock", "reason": " ".join(args)}
            return ok(name.split()[1] + " the orders", self._append(posting, "gm.lock", data, posting.gm_actor))
        if name == "campaign assign":
            self._require_gm(posting, command)
            if len(args) != 2:
                raise CommandError(f"usage: {usage(name)}")
            try:
                nation = self._resolve(posting, "nation", args[0])
            except Rejection:
                # A game without nations names its seats ("North"): the boundary's own vocabulary for a place.
                nation = self._resolve(posting, "seat", args[0])
            return ok(f"{args[1]} plays the {nation}", self._append(posting, "player.assigned", {"nation": nation, "player": args[1]}, posting.gm_actor))
        if name == "campaign settings":
            return self._settings_command(posting, line_no, command)
        if name == "campaign reveal":
            self._require_gm(posting, command)
            return ok("reveal the commit-reveal seed", self._reveal(posting))
        if name == "lotto confirm":
            self._require_gm(posting, command)
            return self._confirm_draw(posting, line_no, command)
        if name == "lotto cancelled":
            self._require_gm(posting, command)
            return self._cancelled_draw(posting, line_no, command)
        if name == "roll":
            self._require_gm(posting, command)
            kind, data = roll_event(args)
            title = f"roll {data['dice']}{' ' + data['label'] if data['label'] else ''}"
            return ok(title, self._append(posting, kind, data, posting.gm_actor))
        raise CommandError(f"'{command.text}' is not available here; {help_text()}")

    def _player_undo(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """A player takes back their own latest order while their turn is still theirs: ``/undo`` says which order
        that would be (nothing changes), ``/undo <its number>`` takes it back. The engine checks it again."""
        from engine.log import PLAYER_UNDO, describe, player_undo_target, undo_refusal

        target = player_undo_target(posting.ruleset, posting.folded, posting.author)
        late = undo_refusal(posting.ruleset, posting.folded, target, self._now(), player=True)
        if late is not None:
            raise Rejection(late)
        if not command.args:
            return LineAnswer(line_no, command.text, True, f"your latest order is #{target.seq}: {describe(target)}; "
                              f"to take it back, confirm with /undo {target.seq}")
        number = command.args[0].lstrip("#")
        if len(command.args) > 1 or not number.isdigit():
            raise CommandError(f"'{' '.join(command.args)[:40]}' is not an order number: write /undo {target.seq} "
                               f"to take back {describe(target)}, or /undo to see it first")
        return LineAnswer(line_no, command.text, True, f"take back order #{number}",
                          self._append(posting, PLAYER_UNDO, {"target": int(number)}, posting.author))

    def _player_settings(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """A player's own settings in this campaign (``/settings heads-up off``): shown, or changed for the author."""
        from bot.store.player_settings import DEFAULTS, VALUES, save_setting, setting

        assert posting.campaign.id is not None
        args = [a.lower() for a in command.args]
        if args and args[0] not in VALUES:
            raise CommandError(f"'{args[0][:40]}' is not a setting; settings: {', '.join(VALUES)} "
                               f"({usage(command.name)})")
        if len(args) > 2 or (len(args) == 2 and args[1] not in VALUES[args[0]]):
            wrong = " ".join(command.args[1:])[:40]
            raise CommandError(f"'{wrong}' is not a value of {args[0]}: write {' or '.join(VALUES[args[0]])}, "
                               f"e.g. /settings {args[0]} off")
        if len(args) == 2:
            save_setting(posting.session, posting.campaign.id, posting.author, args[0], args[1])
        shown = ", ".join(f"{n} {args[1] if len(args) == 2 and n == args[0] else setting(posting.session, posting.campaign.id, posting.author, n)}"
                          for n in DEFAULTS)
        return LineAnswer(line_no, command.text, True, ("saved: " if len(args) == 2 else "your settings: ") + shown
                          + " (heads-up: a message when you are next in the order of play)")

    def _reveal(self, posting: _Posting) -> list[str]:
        """Publish the campaign's commit-reveal seed in the log (seed.revealed); the engine checks it against the
        commitment and binds no roll to it any more."""
        from bot.store import campaign_secret

        assert posting.campaign.id is not None
        row = posting.session.get(campaign_secret.CampaignSecretRow, posting.campaign.id)
        if row is None:
            raise Rejection("this campaign draws its rolls from the lottery: it has no seed to reveal")
        seed = campaign_secret.seed_of(posting.session, posting.campaign.id)
        if seed is None:
            raise Rejection("the seed is made from the server key, which is not set here "
                            f"({campaign_secret.KEY_ENV} or {campaign_secret.KEY_FILE_ENV}): nothing revealed")
        messages = self._append(posting, "seed.revealed", {"seed": seed}, posting.gm_actor)
        row.revealed_at = self.clock.now()
        posting.session.add(row)
        return messages

    def _settings_command(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """Deadlines and timeouts of the campaign: shown to anyone, changed by the GM."""
        from bot.store.schedule_tables import save_settings, settings_for

        assert posting.campaign.id is not None
        changes: dict[str, Any] = {}
        for arg in command.args:
            key, sep, value = arg.partition("=")
            if not sep:
                raise CommandError(f"'{arg}': write key=value; {usage(command.name)}")
            if key in ("player_hours", "remind_hours_before"):
                from bot.service.deadlines import parse_hours

                try:  # finite, and within a year: inf or 1e308 would overflow every deadline made from it
                    changes[key] = parse_hours(value, key, minimum=0, inclusive=key == "remind_hours_before")
                except ValueError as exc:
                    raise CommandError(f"{exc}; {usage(command.name)}") from None
            else:
                changes[key] = value
        if changes:
            self._require_gm(posting, command)
            try:  # in the post's own transaction (it holds the write lock): saved with the post, or not at all
                save_settings(self.engine, posting.campaign.id, session=posting.session, **changes)
            except (ValueError, LookupError) as exc:
                raise CommandError(f"{exc}; {usage(command.name)}") from None
        current = settings_for(posting.session, posting.campaign.id)
        shown = (f"time zone {current.timezone}, {current.player_hours:g}h per player, reminder "
                 f"{current.remind_hours_before:g}h before, on timeout: {current.on_timeout}")
        return LineAnswer(line_no, command.text, True, ("settings saved: " if changes else "settings: ") + shown)

    def ask_lottery_sources(self, day: date) -> Any:
        """What every lottery source says of ``day`` now (bot/lottery/asking.py): the sources the environment names,
        unless ``lottery_sources`` was set (a test's own site)."""
        asker = getattr(self, "lottery_sources", None)
        if asker is None:
            from bot.lottery.asking import env_asker

            asker = self.lottery_sources = env_asker()
        return asker(day)

    def _confirm_draw(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """A GM types a draw the sources disagree on (or have not published): stored with the GM's name."""
        from bot.lottery.reconcile import confirm_by_gm

        day = _day_and_more(command, "")
        numbers = " ".join(command.args[1:])
        from bot.service.draw_rulings import sources_word

        asked = sources_word(posting, day, self.ask_lottery_sources)
        # In the post's own transaction: a post that fails later leaves no typed draw behind.
        outcome = confirm_by_gm(posting.session, day, numbers, posting.author, now=self.clock.now, commit=False,
                                asked=asked)
        details = outcome.lines()
        if outcome.stored:
            # The stored draws changed: what this transaction read of them is read again.
            posting.batch.draw_dates.clear()
            posting.batch.first_draws.clear()
            posting.batch.no_draw.clear()
            details += self._record_draws(posting)
        return LineAnswer(line_no, command.text, outcome.stored, f"the draw of {day.isoformat()}: {outcome.status.value}", details)

    def _cancelled_draw(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """A draw the campaign waits for was never held (a strike, a moved draw): ruled so in the log, and the game
        binds its rolls again to draws still to come. Only once the lottery has visibly gone on without it: its
        publication time is long past, no source has it, and a later draw is stored. ``verify`` refuses the ruling
        if the public draws hold that date."""
        day = _day_and_more(command, ", e.g. /lotto cancelled 2026-12-26 no draw on Boxing Day")
        waited = {n.key for n in posting.ruleset.needs(posting.folded.state) if n.source == "lottery"}
        if day.isoformat() not in waited:
            shown = ", ".join(sorted(waited)) or "none"
            raise Rejection(f"this campaign does not wait for the draw of {day.isoformat()} (it waits for: {shown})")
        if posting.store.draw(day) is not None:
            raise Rejection(f"the draw of {day.isoformat()} is stored: it was held, so it cannot be ruled cancelled")
        from bot.service.draw_rulings import refuse_if_a_source_holds, sources_word

        asked = sources_word(posting, day, self.ask_lottery_sources)
        refuse_if_a_source_holds(posting.session, day, asked)
        due = draw_moment(day) + CANCEL_MARGIN
        if posting.campaign.clock == "live" and self.clock.now() < due:
            raise Rejection(f"the draw of {day.isoformat()} may still be published: a draw is ruled not held only "
                            f"from {due.strftime('%Y-%m-%d %H:%M %Z')} on")
        later = posting.store.draw_dates_after(day, 1)
        if not later:
            raise Rejection(f"no draw after {day.isoformat()} is stored: until the lottery has gone on without it, "
                            "the draw may just be late (legatus lotto fetch, or /lotto confirm a later draw)")
        data = {"date": day.isoformat(), "reason": " ".join(command.args[1:])[:200], "by": f"gm:{posting.author}",
                "next_held": later[0].isoformat()}
        details = self._append(posting, "draw.cancelled", data, posting.gm_actor)
        details += [f"No source holds it, {asked.summary()}.", *self._record_draws(posting)]
        return LineAnswer(line_no, command.text, True, f"the draw of {day.isoformat()} ruled not held", details)

    def _deadline_command(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        from bot.service.deadlines import MAX_HOURS, extend_deadline, parse_hours, set_deadline

        if len(command.args) < 2:
            raise CommandError(f"usage: {usage(command.name)}")
        nation = self._resolve(posting, "nation", command.args[0])
        try:  # every number and date is range-checked there (a year either way): ValueError says what is right
            if command.name == "gm extend":
                hours = parse_hours(command.args[1], "the extension", minimum=-MAX_HOURS, inclusive=True)
                text = extend_deadline(self, posting.campaign.name, nation, hours, posting.author, clock=self.clock,
                                       session=posting.session)
            else:
                text = set_deadline(self, posting.campaign.name, nation, " ".join(command.args[1:]), posting.author,
                                    clock=self.clock, session=posting.session)
        except ValueError as exc:
            raise CommandError(f"{exc}; e.g. /gm extend {nation} 24 or /gm deadline {nation} 2026-12-01 20:00") from None
        return LineAnswer(line_no, command.text, "no running deadline" not in text and not text.startswith("no campaign"), text)

    def _turn_draw(self, posting: _Posting, args: list[str]) -> tuple[str, str]:
        if args:
            try:
                requested = date.fromisoformat(args[0].replace("/", "-"))
            except ValueError:
                raise CommandError(f"'{args[0]}' is not a date: write /turn open YYYY-MM-DD, e.g. /turn open 2023-01-03") from None
        else:
            requested = None
        if posting.campaign.clock == "live":
            moment = self.clock.now()
            if requested is not None and not moment.date() - timedelta(days=366) <= requested <= moment.date() + timedelta(days=366):
                raise CommandError(f"'{args[0][:40]}' is more than a year from today ({moment.date().isoformat()}): a live "
                                   "campaign opens its turns on coming draws, e.g. /turn open (the next draw)")
            if requested is not None:
                moment = max(moment, datetime.combine(requested, datetime.min.time(), tzinfo=moment.tzinfo))
            day = scheduled_draws_after(moment, 1)[0]
            return day.isoformat(), (requested or day).isoformat()
        if requested is None:
            raise CommandError("this campaign plays on past draws: say which, e.g. /turn open 2023-01-03")
        if requested not in posting.batch.first_draws:
            posting.batch.first_draws[requested] = posting.store.first_draw_day_on_or_after(requested)
        day = posting.batch.first_draws[requested]
        if day is None:
            latest = posting.store.latest_draw_date()
            raise Rejection(
                f"no stored lottery draw on or after {requested.isoformat()} (the latest stored is "
                f"{latest.isoformat() if latest else 'none'}): import the draws first (legatus lotto import)"
            )
        return day.isoformat(), requested.isoformat()

    def _order_for(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        if len(command.args) < 2:
            seats = posting.ruleset.seats(posting.folded.state)
            example = f'/order "{seats[0].name}" <its order>' if seats else "/order <seat> <its order>"
            raise CommandError(f"usage: {usage(command.name)} (for example {example})")
        try:
            nation = self._resolve(posting, "nation", command.args[0])
        except Rejection:
            # A game without nations names its seats ("North"), as /campaign assign reads them.
            nation = self._resolve(posting, "seat", command.args[0])
        seat = posting.ruleset.seat_of(posting.folded.state, posting.author)
        if not posting.is_gm and seat != nation:
            raise Rejection(f"you can give orders only for your own nation ({seat or 'none'}), not for the {nation}")
        text = _after_first_argument(command.text)
        proposals = posting.ruleset.read_post(posting.folded.state, posting.author, text, nation=nation)
        if not proposals:
            raise CommandError(f"'{text}' is not an order; {usage(command.name)}")
        actor = posting.gm_actor if seat != nation else posting.author
        return self._propose(posting, replace(proposals[0], line_no=line_no, text=command.text), actor)

    def _ledger_lines(self, posting: _Posting) -> list[str]:
        entries = posting.ruleset.ledger(posting.folded.state)
        lines = [
            f"#{e['id']} turn {e['turn']} {e['purpose']}{' (' + str(e['seat']) + ')' if e.get('seat') else ''}: {e['where']}"
            + (f" -> {', '.join(str(v) for v in e['values'])}: {e['outcome']}" if e.get("values") is not None else " -> pending")
            + f" [{e['meaning']}]"
            for e in entries
        ] or ["No roll has been bound yet."]
        return (self._chain_warning(posting) + lines
                + [f"Head of the log's hash chain: {posting.folded.last_seq}:{posting.folded.head}"])

    def _chain_warning(self, posting: _Posting) -> list[str]:
        from bot.service.chain_warning import log_warning

        return log_warning(posting.folded.effective)
