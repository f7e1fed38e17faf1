"""What anyone may read of a campaign, and a player's own settings: /state, /private, /ledger, /help, /settings, and
Discord's pictures and verification (/map, /chart, /verify)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.shell_commands.model import (
    TYPED_ONLY, Command, CommandError, DiscordFace, Option, ShellCommand, done,
)
from engine import canonical
from engine.events import Rejection
from engine.ruleset import Argument, CommandSpec

if TYPE_CHECKING:
    from bot.service.post_reading import PostReading, _Posting
    from bot.service.replies import LineAnswer


def _state(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    return done(line_no, command, "state", [canonical.dumps(posting.ruleset.public_view(posting.folded.state), indent=2),
                                            *reading._chain_warning(posting)])


def _private(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """What only the author's seat may see: the transports show it to them alone (Discord: ephemeral)."""
    from bot.service.replies import LineAnswer, menu_choices

    state = posting.folded.state
    seat = posting.ruleset.seat_of(state, posting.author)
    if seat is None:
        raise Rejection(f"you ({posting.author}) hold no seat in this campaign, so you have no private view")
    view = posting.ruleset.private_view(state, seat)
    return LineAnswer(line_no, command.text, True, f"private view of {seat}",
                      [canonical.dumps(view, indent=2)] if view else ["nothing private"], private=True,
                      choices=menu_choices(view))


def _ledger(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    entries = posting.ruleset.ledger(posting.folded.state)
    lines = [
        f"#{e['id']} turn {e['turn']} {e['purpose']}{' (' + str(e['seat']) + ')' if e.get('seat') else ''}: {e['where']}"
        + (f" -> {', '.join(str(v) for v in e['values'])}: {e['outcome']}" if e.get("values") is not None else " -> pending")
        + f" [{e['meaning']}]"
        for e in entries
    ] or ["No roll has been bound yet."]
    return done(line_no, command, "ledger", reading._chain_warning(posting) + lines
                + [f"Head of the log's hash chain: {posting.folded.last_seq}:{posting.folded.head}"])


def _help(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    from bot.service.commands import help_text, shell_refusals

    return done(line_no, command, help_text(posting.ruleset.commands(),
                                            leave_out=shell_refusals(posting.ruleset, posting.folded.state)))


def _player_settings(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """A player's own settings in this campaign (``/settings heads-up off``): shown, or changed for the author."""
    from bot.store.player_settings import DEFAULTS, VALUES, save_setting, setting

    assert posting.campaign.id is not None
    args = [a.lower() for a in command.args]
    if args and args[0] not in VALUES:
        raise CommandError(f"'{args[0][:40]}' is not a setting; settings: {', '.join(VALUES)} ({command.usage})")
    if len(args) > 2 or (len(args) == 2 and args[1] not in VALUES[args[0]]):
        wrong = " ".join(command.args[1:])[:40]
        raise CommandError(f"'{wrong}' is not a value of {args[0]}: write {' or '.join(VALUES[args[0]])}, "
                           f"e.g. /settings {args[0]} off")
    if len(args) == 2:
        save_setting(posting.session, posting.campaign.id, posting.author, args[0], args[1])
    shown = ", ".join(f"{n} {args[1] if len(args) == 2 and n == args[0] else setting(posting.session, posting.campaign.id, posting.author, n)}"
                      for n in DEFAULTS)
    return done(line_no, command, ("saved: " if len(args) == 2 else "your settings: ") + shown
                + " (heads-up: a message when you are next in the order of play)")


COMMANDS = (
    ShellCommand(
        CommandSpec("ledger", "The rolls of the campaign, their draws and outcomes"),
        _ledger, discord=DiscordFace("ledger", "The rolls of the campaign, their draws and outcomes",
                                     embed_title="Ledger of the rolls"),
    ),
    ShellCommand(
        CommandSpec("state", "The campaign at a glance, with its whole public state as a file"),
        # Typed: the public state as JSON; on Discord, the state card with that JSON attached.
        _state, discord=DiscordFace("state", "The campaign at a glance, with its whole public state as a file",
                                    action="state"),
    ),
    ShellCommand(
        CommandSpec("private", "What only your seat may see (your hand, your sealed orders)"),
        _private, discord=DiscordFace("private", "What only your seat may see (your hand, your sealed orders)",
                                      private=True),
    ),
    ShellCommand(
        CommandSpec("settings", "Your own settings in this campaign",
                    (Argument("setting", "choice", choices=("heads-up",), optional=True),
                     Argument("value", "choice", choices=("on", "off"), optional=True))),
        _player_settings, "/settings [heads-up on|off]",
        DiscordFace("settings heads-up", "A heads-up when you are next in the order of play",
                    (Option("value", "choice", optional=True, choices=(("on", "on"), ("off", "off"))),),
                    line=lambda v: f"/settings heads-up {v['value']}" if v["value"] else "/settings heads-up",
                    private=True),
    ),
    ShellCommand(CommandSpec("help", "Every command this campaign takes"), _help, discord=TYPED_ONLY),
    ShellCommand(
        CommandSpec("map", "The campaign's map, now or at the close of a past turn",
                    (Argument("turn", "number", optional=True),)),
        discord=DiscordFace("map", "The campaign's map, now or at the close of a past turn",
                            (Option("turn", "integer", optional=True),), action="map"),
    ),
    ShellCommand(
        CommandSpec("chart", "The campaign's history, turn by turn"),
        discord=DiscordFace("chart", "The campaign's history, turn by turn", action="chart"),
    ),
    ShellCommand(
        CommandSpec("verify", "Re-check every roll of this campaign; get its log"),
        discord=DiscordFace("verify", "Re-check every roll of this campaign; get its log", action="verify"),
    ),
)
