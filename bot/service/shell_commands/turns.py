"""The commands of the turns and their orders: /turn open|close|status, /status, /order, /undo."""
from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from bot.schedule.clock import scheduled_draws_after
from bot.service.shell_commands.model import (
    TYPED_ONLY, Command, CommandError, DiscordFace, Option, ShellCommand, done,
)
from engine.events import Rejection
from engine.ruleset import Argument, CommandSpec

if TYPE_CHECKING:
    from bot.service.post_reading import PostReading, _Posting
    from bot.service.replies import LineAnswer


def _after_first_argument(line: str) -> str:
    """The rest of ``/order <seat> <order>`` after the seat, which may be quoted ("Player A") or one word."""
    body = line.strip().split(None, 1)[1].lstrip()
    if body[:1] in ('"', "'") and body.find(body[0], 1) > 0:
        return body[body.find(body[0], 1) + 1:].strip()
    return body.split(None, 1)[1] if len(body.split(None, 1)) > 1 else ""


def turn_draw(reading: PostReading, posting: _Posting, args: list[str]) -> tuple[str, str]:
    """The lottery draw a turn opens on (first stored or scheduled on or after the date asked), and that date."""
    if args:
        try:
            requested = date.fromisoformat(args[0].replace("/", "-"))
        except ValueError:
            raise CommandError(f"'{args[0]}' is not a date: write /turn open YYYY-MM-DD, e.g. /turn open 2023-01-03") from None
    else:
        requested = None
    if posting.campaign.clock == "live":
        moment = reading.clock.now()
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
    first = posting.batch.first_draws[requested]
    if first is None:
        latest = posting.store.latest_draw_date()
        stored = f"the latest stored is {latest.isoformat()}" if latest else "no draw is stored yet"
        raise Rejection(f"no stored lottery draw on or after {requested.isoformat()} ({stored}): import the draws "
                        f"first (legatus lotto import)")
    return first.isoformat(), requested.isoformat()


def _turn(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    # The shell binds the turn to its lottery draw; the game decides what opening or closing a turn means, or that
    # it has no such thing.
    game_args = list(turn_draw(reading, posting, command.args)) if command.name == "turn open" else []
    proposal = posting.ruleset.read_command(posting.folded.state, posting.author, command.name, game_args,
                                            is_gm=posting.is_gm)
    return reading._propose(posting, replace(proposal, line_no=line_no, text=command.text), posting.gm_actor)


def _status(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    from bot.service.deadline_text import deadline_lines, seat_players
    from bot.service.next_steps import next_steps

    state = posting.folded.state
    players = seat_players(posting.ruleset, state)
    deadlines = deadline_lines(posting.store.turn_deadlines(posting.campaign.id), players)
    steps = next_steps(posting.ruleset, state)
    return done(line_no, command, "status", posting.ruleset.status(state).splitlines()
                + (["Now:"] + steps if steps else []) + ["Deadlines:"] + deadlines)


def _order_for(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    if len(command.args) < 2:
        seats = posting.ruleset.seats(posting.folded.state)
        example = f'/order "{seats[0].name}" <its order>' if seats else "/order <seat> <its order>"
        raise CommandError(f"usage: {command.usage} (for example {example})")
    try:
        seat = reading._resolve(posting, "nation", command.args[0])
    except Rejection:
        # A game without nations names its seats ("North"), as /campaign assign reads them.
        seat = reading._resolve(posting, "seat", command.args[0])
    own = posting.ruleset.seat_of(posting.folded.state, posting.author)
    if not posting.is_gm and own != seat:
        raise Rejection(f"you can give orders only for your own seat ({own or 'none'}), not for the {seat}")
    text = _after_first_argument(command.text)
    proposals = posting.ruleset.read_post(posting.folded.state, posting.author, text, seat=seat)
    if not proposals:
        raise CommandError(f"'{text}' is not an order; {command.usage}")
    actor = posting.gm_actor if own != seat else posting.author
    return reading._propose(posting, replace(proposals[0], line_no=line_no, text=command.text), actor)


def _player_undo(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """A player takes back their own latest order while their turn is still theirs: ``/undo`` says which order
    that would be (nothing changes), ``/undo <its number>`` takes it back. The engine checks it again."""
    from engine.log import PLAYER_UNDO, describe, player_undo_target, undo_refusal

    target = player_undo_target(posting.ruleset, posting.folded, posting.author)
    late = undo_refusal(posting.ruleset, posting.folded, target, reading._now(), player=True)
    if late is not None:
        raise Rejection(late)
    if not command.args:
        return done(line_no, command, f"your latest order is #{target.seq}: {describe(target)}; "
                    f"to take it back, confirm with /undo {target.seq}")
    number = command.args[0].lstrip("#")
    if len(command.args) > 1 or not number.isdigit():
        raise CommandError(f"'{' '.join(command.args)[:40]}' is not an order number: write /undo {target.seq} "
                           f"to take back {describe(target)}, or /undo to see it first")
    return done(line_no, command, f"take back order #{number}",
                reading._append(posting, PLAYER_UNDO, {"target": int(number)}, posting.author))


COMMANDS = (
    ShellCommand(
        CommandSpec("turn open", "Open the next turn on a lottery draw (GM)",
                    (Argument("date", help="YYYY-MM-DD: the first draw on or after it (default: the next draw)",
                              optional=True),), gm_only=True),
        _turn, "/turn open [YYYY-MM-DD]",
        DiscordFace("turn open", "Open the next turn on a lottery draw (GM)",
                    (Option("date", description="YYYY-MM-DD: the first draw on or after it (default: the next draw)",
                            optional=True),),
                    line=lambda v: f"/turn open {v['date']}" if v["date"] else "/turn open"),
    ),
    ShellCommand(
        CommandSpec("turn close", "Close the turn once nothing is pending (GM)", gm_only=True),
        _turn, discord=DiscordFace("turn close", "Close the turn once nothing is pending (GM)"),
    ),
    ShellCommand(
        CommandSpec("turn status", "Who has played, who is up, what is pending"),
        _status, discord=DiscordFace("turn status", "Who has played, who is up, what is pending",
                                     line=lambda v: "/status", embed_title="Status board"),
    ),
    ShellCommand(CommandSpec("status", "Who has played, who is up, what is pending"), _status, discord=TYPED_ONLY),
    ShellCommand(
        # Typed, for a seat (a GM's for anyone's); on Discord, the author's own orders, one per line.
        CommandSpec("order", "Give an order for a seat (the GM: for any seat)",
                    (Argument("seat", "seat"), Argument("order", rest=True))),
        _order_for, "/order <seat> <order>",
        DiscordFace("order", "Give one or more orders (one per line)", (Option("orders"),),
                    line=lambda v: str(v["orders"]).replace(" | ", "\n"), offer_undo=True),
    ),
    ShellCommand(
        CommandSpec("undo", "Take back your latest order while your turn lasts",
                    (Argument("order number", "number", optional=True),)),
        _player_undo, "/undo [order number]",
        # The question is the asker's alone; the undo itself is shown to the table.
        DiscordFace("undo", "Take back your latest order while your turn lasts",
                    (Option("order", "integer", "its number; leave it out to see first which order that is",
                            optional=True),),
                    line=lambda v: "/undo" if v["order"] is None else f"/undo {v['order']}",
                    private=lambda v: v["order"] is None),
    ),
)
