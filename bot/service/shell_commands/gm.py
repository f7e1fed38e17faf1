"""The GM's corrections and deadlines: /gm undo|void|lock|unlock|extend|deadline. Every one leaves a trace in the log
or the deadline table; the dispatch checks the author is a GM before any of them runs."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.service.shell_commands.model import (
    TYPED_ONLY, Command, CommandError, DiscordFace, Option, ShellCommand, done, quoted,
)
from engine.events import Rejection
from engine.log import seen_after, undo_target
from engine.ruleset import Argument, CommandSpec

if TYPE_CHECKING:
    from bot.service.post_reading import PostReading, _Posting
    from bot.service.replies import LineAnswer


def _undo_or_void(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    word = command.name.split()[1]
    target = undo_target(posting.folded)
    if target is None:
        raise Rejection(f"there is nothing to {word}")
    if command.name == "gm void" and not command.args:
        raise CommandError("a void needs its reason, kept on record: /gm void <reason>, e.g. /gm void wrong nation")
    if command.name == "gm undo" and seen_after(posting.folded, target) is None:  # a recorded value says it first
        from engine.log import undo_refusal

        late = undo_refusal(posting.ruleset, posting.folded, target, reading._now(), player=False)
        if late is not None:
            raise Rejection(late)
    data = {"target": target.seq, "reason": " ".join(command.args)}
    return done(line_no, command, f"{word} event #{target.seq}",
                reading._append(posting, command.name.replace(" ", "."), data, posting.gm_actor))


def _lock(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    data = {"locked": command.name == "gm lock", "reason": " ".join(command.args)}
    return done(line_no, command, command.name.split()[1] + " the orders",
                reading._append(posting, "gm.lock", data, posting.gm_actor))


def _deadline(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    from bot.service.deadlines import MAX_HOURS, extend_deadline, parse_hours, set_deadline

    if len(command.args) < 2:
        raise CommandError(f"usage: {command.usage}")
    seat = reading._resolve(posting, "nation", command.args[0])
    try:  # every number and date is range-checked there (a year either way): ValueError says what is right
        if command.name == "gm extend":
            hours = parse_hours(command.args[1], "the extension", minimum=-MAX_HOURS, inclusive=True)
            text = extend_deadline(reading, posting.campaign.name, seat, hours, posting.author, clock=reading.clock,
                                   session=posting.session)
        else:
            text = set_deadline(reading, posting.campaign.name, seat, " ".join(command.args[1:]), posting.author,
                                clock=reading.clock, session=posting.session)
    except ValueError as exc:
        raise CommandError(f"{exc}; e.g. /gm extend {seat} 24 or /gm deadline {seat} 2026-12-01 20:00") from None
    from bot.service.replies import LineAnswer

    return LineAnswer(line_no, command.text, "no running deadline" not in text and not text.startswith("no campaign"),
                      text)


def _lock_line(values: Mapping[str, Any]) -> str:
    return f"/gm {'lock' if values['locked'] else 'unlock'} {values['reason'] or ''}".strip()


REASON = Argument("reason", help="why, kept in the log", optional=True, rest=True)

COMMANDS = (
    ShellCommand(
        CommandSpec("gm undo", "Take back the last decision (shown publicly)", (REASON,), gm_only=True),
        _undo_or_void, "/gm undo [reason]",
        DiscordFace("gm undo", "Take back the last decision (shown publicly)", (Option("reason", optional=True),),
                    line=lambda v: f"/gm undo {v['reason'] or ''}".strip()),
    ),
    ShellCommand(
        CommandSpec("gm void", "Set aside the last decision whose outcome is known (kept on record)",
                    (Argument("reason", rest=True),), gm_only=True),
        _undo_or_void, "/gm void <reason>",
        DiscordFace("gm void", "Set aside the last decision whose outcome is known (kept on record)",
                    (Option("reason"),), line=lambda v: f"/gm void {v['reason']}"),
    ),
    ShellCommand(
        CommandSpec("gm lock", "Lock the players' orders", (REASON,), gm_only=True),
        _lock, "/gm lock [reason]",
        DiscordFace("gm lock", "Lock (or unlock) the players' orders",
                    (Option("locked", "flag"), Option("reason", optional=True)), line=_lock_line),
    ),
    # On Discord, /gm lock's "locked" option says which.
    ShellCommand(CommandSpec("gm unlock", "Unlock the players' orders", (REASON,), gm_only=True),
                 _lock, "/gm unlock [reason]", TYPED_ONLY),
    ShellCommand(
        CommandSpec("gm extend", "Give the playing seat more time",
                    (Argument("seat", "seat"), Argument("hours", "number")), gm_only=True),
        _deadline, "/gm extend <seat> <hours>",
        DiscordFace("gm extend", "Give the playing seat more time", (Option("seat", "seat"), Option("hours", "number")),
                    line=lambda v: f"/gm extend {quoted(str(v['seat']))} {v['hours']}"),
    ),
    ShellCommand(
        CommandSpec("gm deadline", "Set a seat's deadline",
                    (Argument("seat", "seat"), Argument("when", help="YYYY-MM-DD HH:MM", rest=True)), gm_only=True),
        _deadline, "/gm deadline <seat> <YYYY-MM-DD HH:MM, in the campaign's time zone>", TYPED_ONLY,
    ),
)
