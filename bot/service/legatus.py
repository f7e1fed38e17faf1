"""The handlers every face of Legatus goes through: Discord, the console and the command line.

A post is read line by line: each order or command becomes an event, which the ruleset accepts or
refuses with its reason. Accepted events of one post are written in one transaction, after the draws
they wait for (if the store has them) are recorded too. Nothing is half-applied: a line the rules refuse
changes nothing, and an unexpected failure rolls the whole post back and says so without a traceback.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any
from collections.abc import Callable

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session

from bot.schedule.clock import Clock, draw_moment, scheduled_draws_after
from bot.service.commands import Command, CommandError, help_text, parse_command, usage
from bot.service.replies import LineAnswer, Reply
from bot.service.roll_command import roll_event
from bot.store import campaign_secret
from bot.store import draws as draw_store
from bot.store.db import writer
from bot.store.campaigns import (
    CampaignRow, PostRow, append_event, export_log, find_campaign, find_campaign_by_channel, list_campaigns, load_events,
)
from engine import canonical, commit_reveal
from engine.events import Event, Rejection
from engine.ledger import GENESIS, event_hash
from engine.log import CREATED, Folded, replay, start, step, undo_target
from engine.lotto import missing_wheels
from engine.ruleset import Proposal, Ruleset
from engine.rulesets import load_ruleset

log = logging.getLogger("legatus")

DATA_DIR = Path(os.environ.get("LEGATUS_DATA", Path(__file__).resolve().parents[2] / "data"))
BOT = "legatus"
# How many coming draws each event offers for binding rolls.
OFFERED_DRAWS = 3


class CampaignNotFound(LookupError):
    pass


class _Conflict(Exception):
    """Another process wrote first (SQLite busy past its timeout, or the same next event number): try again."""


# How often a post is tried when other writers keep coming first; each try folds the newer log again.
POST_ATTEMPTS = 10


def _is_conflict(exc: Exception) -> bool:
    said = str(getattr(exc, "orig", exc))
    return "uq_event_campaign_seq" in said or "event.campaign_id, event.seq" in said or "locked" in said or "busy" in said


@dataclass(frozen=True)
class Change:
    """What one post (or one recorded draw) did to a campaign: for observers such as the scheduler."""

    campaign: str
    campaign_id: int
    events: tuple[Event, ...]
    to_act_before: tuple[str, ...]
    to_act_after: tuple[str, ...]
    state: Any  # the ruleset's state after the change (read only)
    public: dict[str, Any]  # the public view after the change


@dataclass
class _Posting:
    """One post being applied: the session, the campaign and its folded state, and the events so far."""

    session: Session
    campaign: CampaignRow
    ruleset: Ruleset
    folded: Folded
    author: str
    is_gm: bool = False  # the transport's check said so (the campaign's GM, or a member of its GM role)
    new_events: list[Event] = field(default_factory=list)

    @property
    def gm_actor(self) -> str:
        """Who GM decisions are recorded as: the campaign's GM identity, whoever of the GMs typed them."""
        return self.campaign.gm if self.is_gm else self.author


class Legatus:
    def __init__(self, engine: Engine, data_dir: Path = DATA_DIR, clock: Clock | None = None) -> None:
        self.engine = engine
        self.data_dir = data_dir
        self.clock = clock or Clock()
        self._folds: dict[int, Folded] = {}
        # Called after every committed change (deadlines, posting the map, ...). Errors are logged, never raised.
        self.observers: list[Callable[[Change], None]] = []

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
        randomness: str = "lottery",
    ) -> Reply:
        """``randomness``: where the rolls beyond the order of play and the events come from: "lottery" (slots
        of coming draws) or "commit-reveal" (a seed made here, kept in campaign_secret, its SHA-256 published
        in the ``campaign.created`` event)."""
        reply = Reply()
        try:
            ruleset = load_ruleset(ruleset_id, self.data_dir)
        except KeyError as exc:
            return reply.note(str(exc.args[0]))
        if clock not in ("historical", "live"):
            return reply.note(f"unknown clock '{clock}': use 'live' (real time) or 'historical' (past draws)")
        if randomness not in ("lottery", "commit-reveal"):
            return reply.note(f"unknown randomness '{randomness}': use 'lottery' or 'commit-reveal'")
        with Session(self.engine) as session:
            if find_campaign(session, name) is not None:
                return reply.note(f"a campaign called '{name}' already exists in this database")
            digest = getattr(getattr(ruleset, "rules", None), "digest", "")
            data: dict[str, Any] = {
                "ruleset": ruleset_id, "gm": gm, "players": players, "clock": clock, "digest": digest,
                "randomness": randomness,
            }
            seed = campaign_secret.new_seed() if randomness == "commit-reveal" else None
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
                session.add(campaign_secret.CampaignSecretRow(campaign_id=row.id, seed=seed))
            session.commit()
            self._folds[row.id] = folded
            seats = ", ".join(f"{n} ({p})" for n, p in sorted(players.items())) or "no players yet"
            reply.changed = True
            return reply.note(
                f"Campaign '{name}' created ({ruleset.title}, GM {gm}, {clock} clock): {seats}. "
                + (
                    f"Rolls beyond the order of play and the events come from a commit-reveal seed; its commitment "
                    f"(SHA-256) is {data['commitment']}, published now in the log; the GM reveals the seed at the end "
                    "with /campaign reveal. " if seed is not None else ""
                )
                + "The GM opens turn 1 with /turn open <date>."
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
        row = find_campaign(session, name)
        if row is None:
            names = [c.name for c in list_campaigns(session)]
            if name is not None:
                raise CampaignNotFound(f"no campaign called '{name}'; campaigns here: {', '.join(names) or 'none'}")
            if not names:
                raise CampaignNotFound("this database holds no campaign yet: create one with `legatus new`")
            raise CampaignNotFound(f"this database holds several campaigns ({', '.join(names)}): name one with --campaign")
        return row

    def _fold(self, session: Session, campaign: CampaignRow) -> tuple[Ruleset, Folded]:
        ruleset = load_ruleset(campaign.ruleset, self.data_dir)
        assert campaign.id is not None
        cached = self._folds.get(campaign.id)
        if cached is None:
            folded = replay(ruleset, load_events(session, campaign.id))
        else:
            folded = cached
            for event in load_events(session, campaign.id, after_seq=cached.last_seq):
                folded, _ = step(ruleset, folded, event)
        self._folds[campaign.id] = folded
        return ruleset, folded

    # --- reading --------------------------------------------------------------------------------------------------------

    def state(self, campaign: str | None = None) -> dict[str, Any]:
        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            ruleset, folded = self._fold(session, row)
            return ruleset.public_view(folded.state)

    def status(self, campaign: str | None = None) -> str:
        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            ruleset, folded = self._fold(session, row)
            return ruleset.status(folded.state)

    def export(self, campaign: str | None = None) -> str:
        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            assert row.id is not None
            return export_log(session, row.id)

    # --- posting --------------------------------------------------------------------------------------------------------

    def _post_once(self, author: str, text: str, campaign: str | None = None, *, is_gm: bool | None = None) -> Reply:
        """One attempt at a post (``post`` retries it); raises ``_Conflict`` when another writer came first."""
        reply = Reply()
        try:
            with Session(writer(self.engine)) as session:
                row = self._campaign(session, campaign)
                ruleset, folded = self._fold(session, row)
                gm = (author == row.gm) if is_gm is None else is_gm
                posting = _Posting(session, row, ruleset, folded, author, is_gm=gm)
                before = tuple(ruleset.to_act(folded.state))
                self._read(posting, text, reply)
                assert row.id is not None
                for event in posting.new_events:
                    append_event(session, row.id, event)
                session.add(
                    PostRow(
                        campaign_id=row.id, author=author, text=text, answer=reply.render(),
                        first_seq=posting.new_events[0].seq if posting.new_events else None,
                        last_seq=posting.new_events[-1].seq if posting.new_events else None,
                    )
                )
                session.commit()
                self._folds[row.id] = posting.folded
                reply.changed = bool(posting.new_events)
                reply.ping = self._to_ping(posting) if posting.new_events else []
            self._notify(posting, before)
        except CampaignNotFound as exc:
            return Reply().note(str(exc))
        except (IntegrityError, OperationalError) as exc:
            if _is_conflict(exc):  # nothing was committed: ``post`` folds again and re-applies the post
                raise _Conflict(str(exc)) from exc
            log.exception("post by %s failed; nothing was changed", author)
            return Reply().note("Legatus hit an internal error reading this post; nothing was changed. The GM has the details in the log.")
        except Exception:  # a bug must never reach a player as a traceback, nor leave half a post applied
            log.exception("post by %s failed; nothing was changed", author)
            return Reply().note("Legatus hit an internal error reading this post; nothing was changed. The GM has the details in the log.")
        return reply

    def _notify(self, posting: _Posting, before: tuple[str, ...]) -> None:
        if not posting.new_events:
            return
        assert posting.campaign.id is not None
        change = Change(
            campaign=posting.campaign.name, campaign_id=posting.campaign.id, events=tuple(posting.new_events),
            to_act_before=before, to_act_after=tuple(posting.ruleset.to_act(posting.folded.state)),
            state=posting.folded.state, public=posting.ruleset.public_view(posting.folded.state),
        )
        for observer in self.observers:
            try:
                observer(change)
            except Exception:  # an observer's failure must not undo or hide a committed post
                log.exception("observer %r failed on campaign %s", observer, change.campaign)

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
        for line_no in sorted(set(commands) | set(proposals)):
            if line_no in commands:
                reply.answers.append(self._command(posting, line_no, commands[line_no]))
            else:
                reply.answers.append(self._propose(posting, proposals[line_no]))
        if not reply.answers:
            reply.note("No order found in this post (table talk is left alone).")

    def _propose(self, posting: _Posting, proposal: Proposal, actor: str | None = None) -> LineAnswer:
        if proposal.error is not None or proposal.kind is None:
            return LineAnswer(proposal.line_no, proposal.text, False, proposal.error or "not understood")
        try:
            messages = self._append(posting, proposal.kind, proposal.data, actor)
        except Rejection as exc:
            return LineAnswer(proposal.line_no, proposal.text, False, f"{proposal.understood}: refused: {exc.reason}")
        return LineAnswer(proposal.line_no, proposal.text, True, proposal.understood, messages)

    def _append(self, posting: _Posting, kind: str, data: dict[str, Any], actor: str | None = None) -> list[str]:
        """Apply one event (raising Rejection if refused), then record any draw it now waits for."""
        event = self._event(posting, kind, data, actor or posting.author)
        folded, messages = step(posting.ruleset, posting.folded, event)
        posting.folded = folded
        posting.new_events.append(event)
        return list(messages) + self._record_draws(posting)

    def _event(self, posting: _Posting, kind: str, data: dict[str, Any], actor: str) -> Event:
        if actor != posting.author and posting.author != BOT:
            data = {**data, "by": posting.author}  # which of the GMs it was: the trace names them
        event = Event(
            seq=posting.folded.last_seq + 1, kind=kind, actor=actor, data=data, at=self._now(),
            draws=tuple(self._offered_draws(posting)),
        )
        return replace(event, hash=event_hash(posting.folded.head, event))

    def _offered_draws(self, posting: _Posting) -> list[str]:
        state = posting.folded.state
        floor = getattr(state, "turn_draw", None)
        if not floor:
            return []
        if posting.campaign.clock == "live":
            moment = self.clock.now()
            return [d.isoformat() for d in scheduled_draws_after(moment, OFFERED_DRAWS) if d.isoformat() > floor]
        stored = draw_store.draw_dates_after(posting.session, date.fromisoformat(floor), OFFERED_DRAWS)
        if len(stored) < OFFERED_DRAWS:
            # Past the end of the stored draws, a roll waits for the next draws by the schedule.
            last = stored[-1] if stored else date.fromisoformat(floor)
            stored += scheduled_draws_after(draw_moment(last), OFFERED_DRAWS - len(stored))
        return [d.isoformat() for d in stored]

    def _record_draws(self, posting: _Posting) -> list[str]:
        """Record what the state waits for: lottery draws (when stored) and commit-reveal numbers, until it waits
        for nothing it can be given (a number may bind another roll, e.g. a GM die rolled again)."""
        messages: list[str] = []
        while True:
            before = len(posting.new_events)
            messages += self._record_lottery(posting)
            messages += self._record_random(posting)
            if len(posting.new_events) == before:
                return messages

    def _record_random(self, posting: _Posting) -> list[str]:
        """Derive each pending commit-reveal label's number from the campaign's seed, in one random.recorded event."""
        wanted = getattr(posting.ruleset, "wanted_numbers", None)
        labels = wanted(posting.folded.state) if wanted is not None else []
        if not labels:
            return []
        assert posting.campaign.id is not None
        seed = campaign_secret.seed_of(posting.session, posting.campaign.id)
        if seed is None:
            return [f"{len(labels)} commit-reveal roll(s) wait for a number, but this database holds no seed for the campaign. The GM must look into it."]
        key = commit_reveal.key(seed)
        numbers = {label: commit_reveal.roll(key, label, 1, 90) for label in labels}
        event = self._event(posting, "random.recorded", {"numbers": numbers}, BOT)
        try:
            posting.folded, new = step(posting.ruleset, posting.folded, event)
        except Rejection as exc:
            return [f"The commit-reveal numbers could not be recorded: {exc.reason}. The GM must look into it."]
        posting.new_events.append(event)
        shown = ", ".join(f"{label} = {n}" for label, n in numbers.items())
        return [f"Commit-reveal number{'s' if len(numbers) > 1 else ''} drawn from the seed: {shown}.", *new]

    def _record_lottery(self, posting: _Posting) -> list[str]:
        messages: list[str] = []
        recorded: set[str] = set()
        while True:
            pending = [d for d in posting.ruleset.wanted_draws(posting.folded.state) if d not in recorded]
            if not pending:
                return messages
            day = pending[0]
            recorded.add(day)
            draw = draw_store.get_draw(posting.session, date.fromisoformat(day))
            if draw is None or missing_wheels(draw):
                continue
            event = self._event(posting, "draw.recorded", draw.to_dict(), BOT)
            try:
                posting.folded, new = step(posting.ruleset, posting.folded, event)
            except Rejection as exc:
                messages.append(f"The draw of {day} could not be used: {exc.reason}. The GM must look into it.")
                continue
            posting.new_events.append(event)
            messages.append(f"Lottery draw of {day} recorded.")
            messages.extend(new)

    def _now(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")

    # --- commands -------------------------------------------------------------------------------------------------------

    def _command(self, posting: _Posting, line_no: int, line: str) -> LineAnswer:
        try:
            command = parse_command(line)
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
        if name in ("turn status", "status"):
            from bot.service.deadlines import status_board_deadlines

            deadlines = status_board_deadlines(self, posting.campaign.name)
            return ok("status", posting.ruleset.status(state).splitlines() + ["Deadlines:"] + deadlines)
        if name in ("gm extend", "gm deadline"):
            self._require_gm(posting, command)
            return self._deadline_command(posting, line_no, command)
        if name == "help":
            return ok(help_text())
        if name == "state":
            return ok("state", [canonical.dumps(posting.ruleset.public_view(state), indent=2)])
        if name == "ledger":
            return ok("ledger", self._ledger_lines(posting))
        if name == "turn open":
            self._require_gm(posting, command)
            draw, requested = self._turn_draw(posting, args)
            return ok(f"open the next turn on the draw of {draw}", self._append(posting, "turn.opened", {"draw": draw, "requested": requested}, posting.gm_actor))
        if name == "turn close":
            self._require_gm(posting, command)
            return ok("close the turn", self._append(posting, "turn.closed", {}, posting.gm_actor))
        if name == "battle":
            province, winner = self._battle_args(posting, args, command)
            return ok(f"battle in {province} won by {winner}", self._append(posting, "battle.reported", {"province": province, "winner": winner}, posting.gm_actor))
        if name == "order":
            return self._order_for(posting, line_no, command)
        if name == "gm pass":
            self._require_gm(posting, command)
            if not args:
                raise CommandError(f"usage: {usage(name)}")
            nation = self._resolve(posting, "nation", args[0])
            return ok(f"end the turn of the {nation}", self._append(posting, "gm.pass", {"nation": nation, "reason": " ".join(args[1:])}, posting.gm_actor))
        if name in ("gm undo", "gm void"):
            self._require_gm(posting, command)
            target = undo_target(posting.folded)
            if target is None:
                raise Rejection(f"there is nothing to {name.split()[1]}")
            if name == "gm void" and not args:
                raise CommandError("a void needs its reason, kept on record: /gm void <reason>, e.g. /gm void wrong nation")
            data = {"target": target.seq, "reason": " ".join(args)}
            return ok(f"{name.split()[1]} event #{target.seq}",
                      self._append(posting, name.replace(" ", "."), data, posting.gm_actor))
        if name in ("gm lock", "gm unlock"):
            self._require_gm(posting, command)
            data = {"locked": name == "gm lock", "reason": " ".join(args)}
            return ok(name.split()[1] + " the orders", self._append(posting, "gm.lock", data, posting.gm_actor))
        if name == "gm set":
            self._require_gm(posting, command)
            return self._gm_set(posting, line_no, command)
        if name == "campaign assign":
            self._require_gm(posting, command)
            if len(args) != 2:
                raise CommandError(f"usage: {usage(name)}")
            nation = self._resolve(posting, "nation", args[0])
            return ok(f"{args[1]} plays the {nation}", self._append(posting, "player.assigned", {"nation": nation, "player": args[1]}, posting.gm_actor))
        if name == "campaign settings":
            return self._settings_command(posting, line_no, command)
        if name == "campaign reveal":
            self._require_gm(posting, command)
            return ok("reveal the commit-reveal seed", self._reveal(posting))
        if name == "lotto confirm":
            self._require_gm(posting, command)
            return self._confirm_draw(posting, line_no, command)
        if name == "roll":
            self._require_gm(posting, command)
            kind, data = roll_event(args)
            title = f"roll {data['dice']}{' ' + data['label'] if data['label'] else ''}"
            return ok(title, self._append(posting, kind, data, posting.gm_actor))
        raise CommandError(f"'{command.text}' is not available here; {help_text()}")

    def _reveal(self, posting: _Posting) -> list[str]:
        """Publish the campaign's commit-reveal seed in the log (seed.revealed); the engine checks it against the
        commitment and binds no roll to it any more."""
        assert posting.campaign.id is not None
        row = posting.session.get(campaign_secret.CampaignSecretRow, posting.campaign.id)
        if row is None:
            raise Rejection("this campaign draws its rolls from the lottery: it has no seed to reveal")
        messages = self._append(posting, "seed.revealed", {"seed": row.seed}, posting.gm_actor)
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

    def _confirm_draw(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        """A GM types a draw the sources disagree on (or have not published): stored with the GM's name."""
        from bot.lottery.reconcile import confirm_by_gm

        if len(command.args) < 2:
            raise CommandError(f"usage: {usage(command.name)}")
        try:
            day = date.fromisoformat(command.args[0])
        except ValueError:
            raise CommandError(f"'{command.args[0]}' is not a date: write YYYY-MM-DD") from None
        numbers = " ".join(command.args[1:])
        # The post's own session: it holds the write lock, so a second session would wait for it in vain.
        outcome = confirm_by_gm(posting.session, day, numbers, posting.author, now=self.clock.now)
        posting.session.commit()
        details = outcome.lines()
        if outcome.stored:
            details += self._record_draws(posting)
        return LineAnswer(line_no, command.text, outcome.stored, f"the draw of {day.isoformat()}: {outcome.status.value}", details)

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
            if requested is not None:
                moment = max(moment, datetime.combine(requested, datetime.min.time(), tzinfo=moment.tzinfo))
            day = scheduled_draws_after(moment, 1)[0]
            return day.isoformat(), (requested or day).isoformat()
        if requested is None:
            raise CommandError("this campaign plays on past draws: say which, e.g. /turn open 2023-01-03")
        draw = draw_store.first_draw_on_or_after(posting.session, requested)
        if draw is None:
            latest = draw_store.latest_draw_date(posting.session)
            raise Rejection(
                f"no stored lottery draw on or after {requested.isoformat()} (the latest stored is "
                f"{latest.isoformat() if latest else 'none'}): import the draws first (legatus lotto import)"
            )
        return draw.date.isoformat(), requested.isoformat()

    def _battle_args(self, posting: _Posting, args: list[str], command: Command) -> tuple[str, str]:
        words = [a for a in args]
        lowered = [w.lower() for w in words]
        for marker in ("winner", "won", "victor"):
            if marker in lowered:
                i = lowered.index(marker)
                place, rest = words[:i], words[i + 1:]
                if rest and rest[0].lower() == "by":
                    rest = rest[1:]
                break
        else:
            raise CommandError(f"usage: {usage(command.name)} (for example /battle Baetica winner Gauls)")
        if not place or not rest:
            raise CommandError(f"usage: {usage(command.name)} (for example /battle Baetica winner Gauls)")
        province = self._resolve(posting, "province", " ".join(place))
        winner_text = " ".join(rest)
        resolved = posting.ruleset.resolve("side", winner_text)  # type: ignore[attr-defined]
        return province, resolved.name or winner_text

    def _order_for(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        if len(command.args) < 2:
            raise CommandError(f"usage: {usage(command.name)} (for example /order Romans build temple in Latium)")
        nation = self._resolve(posting, "nation", command.args[0])
        seat = posting.ruleset.seat_of(posting.folded.state, posting.author)
        if not posting.is_gm and seat != nation:
            raise Rejection(f"you can give orders only for your own nation ({seat or 'none'}), not for the {nation}")
        text = command.text.split(None, 2)[2]
        proposals = posting.ruleset.read_post(posting.folded.state, posting.author, text, nation=nation)
        if not proposals:
            raise CommandError(f"'{text}' is not an order; {usage(command.name)}")
        actor = posting.gm_actor if seat != nation else posting.author
        return self._propose(posting, replace(proposals[0], line_no=line_no, text=command.text), actor)

    def _gm_set(self, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
        args = command.args
        if len(args) < 3:
            raise CommandError(f"usage: {usage(command.name)}")
        what = args[0].lower()
        reason = " ".join(args[3:])
        if what in ("stability", "actions"):
            target: str = self._resolve(posting, "nation", args[1])
            value: Any = int(args[2]) if args[2].lstrip("-").isdigit() else None
            if value is None:
                raise CommandError(f"'{args[2]}' is not a number")
        elif what == "fleets":
            sea_nation = args[1].split("/", 1) if "/" in args[1] else None
            if sea_nation is None:
                raise CommandError("write the sea and the nation as <sea>/<nation>, e.g. /gm set fleets \"Mare Tyrrhenum/Romans\" 2")
            target = f"{self._resolve(posting, 'sea', sea_nation[0])}|{self._resolve(posting, 'nation', sea_nation[1])}"
            if not args[2].isdigit():
                raise CommandError(f"'{args[2]}' is not a number")
            value = int(args[2])
        elif what == "owner":
            target = self._resolve(posting, "province", args[1])
            value = None if args[2].lower() in ("independent", "none", "-") else self._resolve(posting, "nation", args[2])
        elif what in ("fortification", "suburbs", "temple"):
            target = self._resolve(posting, "province", args[1])
            flag = args[2].lower()
            if flag not in ("yes", "no", "on", "off", "true", "false", "1", "0"):
                raise CommandError(f"'{args[2]}': write yes or no")
            value = flag in ("yes", "on", "true", "1")
        else:
            raise CommandError(f"usage: {usage(command.name)}")
        data = {"what": what, "target": target, "value": value, "reason": reason}
        messages = self._append(posting, "gm.set", data, posting.gm_actor)
        return LineAnswer(line_no, command.text, True, f"set {what} of {target.replace('|', ' / ')} to {value}", messages)

    def _ledger_lines(self, posting: _Posting) -> list[str]:
        view = posting.ruleset.public_view(posting.folded.state)
        rolls = view.get("rolls", [])
        if not rolls:
            return ["No roll has been bound yet."]
        return [
            f"#{r['id']} turn {r['turn']} {r['purpose'].replace('_', ' ')}{' (' + r['nation'] + ')' if r['nation'] else ''}: "
            + (f"label {r['label']}" if "label" in r else f"draw {r['draw']} {r['wheel']} #{r['position']}")
            + f" -> {r['number'] if r['number'] is not None else 'pending'}"
            f"{': ' + r['outcome'] if r['number'] is not None else ''} [{r['meaning']}]"
            for r in rolls
        ]

    def verify(self, campaign: str | None = None) -> tuple[Any, str]:
        """Re-check the campaign's log against the stored draws (each agreed by two sources or a GM): the result
        and the log, which anyone can check again with `legatus verify LOG --draws <the official archive>`."""
        from engine.verify import verify

        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            assert row.id is not None
            text = export_log(session, row.id)
            events = load_events(session, row.id)
            ruleset = load_ruleset(row.ruleset, self.data_dir)
            public: dict[str, dict[str, list[int]]] = {}
            for event in events:
                if event.kind == "draw.recorded":
                    draw = draw_store.get_draw(session, date.fromisoformat(str(event.data["date"])))
                    if draw is not None:
                        public[draw.date.isoformat()] = {w: list(n) for w, n in draw.numbers.items()}
        return verify(ruleset, events, public), text

    # --- lottery --------------------------------------------------------------------------------------------------------

    def import_draws(self, text: str, source: str) -> tuple[draw_store.ImportReport, dict[str, list[str]]]:
        """Store the draws, then let every campaign waiting for one of them move on."""
        with Session(self.engine) as session:
            report = draw_store.import_archive(session, text, source)
        progress: dict[str, list[str]] = {}
        for name in self.campaign_names():
            messages = self.pump(name)
            if messages:
                progress[name] = messages
        return report, progress

    def pump(self, campaign: str | None = None) -> list[str]:
        with Session(self.engine) as session:
            row = self._campaign(session, campaign)
            ruleset, folded = self._fold(session, row)
            posting = _Posting(session, row, ruleset, folded, BOT)
            before = tuple(ruleset.to_act(folded.state))
            messages = self._record_draws(posting)
            assert row.id is not None
            for event in posting.new_events:
                append_event(session, row.id, event)
            session.commit()
            self._folds[row.id] = posting.folded
        self._notify(posting, before)
        return messages

    # --- posting, retried (issue 12: concurrent writers) ----------------------------------------------------------

    def post(self, author: str, text: str, campaign: str | None = None, *, is_gm: bool | None = None) -> Reply:
        """Read a post as ``author``. ``is_gm`` comes from the transport's own permission check (Discord: the
        campaign's GM role); left out, only the campaign's GM identity itself is a GM.

        A post is applied in one transaction that takes the write lock at its start (``bot.store.db.writer``), so
        on SQLite two posts never interleave. Should another writer still come first (the lock held past SQLite's
        busy timeout, or, on other databases, the same next event number), nothing was written: the post is read
        again on the newer log, a few times, before the player is told to post again."""
        for attempt in range(1, POST_ATTEMPTS + 1):
            try:
                return self._post_once(author, text, campaign, is_gm=is_gm)
            except _Conflict as exc:
                self._folds.clear()  # the cached folds may miss the other writer's events
                log.info("post by %s met another writer (attempt %d): %s", author, attempt, exc)
        log.warning("post by %s gave up after %d attempts: the database stayed busy", author, POST_ATTEMPTS)
        return Reply().note(f"The campaign was too busy to take this post after {POST_ATTEMPTS} tries; nothing was "
                            "changed: please post it again.")
