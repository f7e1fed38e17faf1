"""The GM's rulings on public draws and rolls: /lotto confirm, /lotto cancelled, /roll."""
from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from bot.schedule.clock import draw_moment
from bot.service.shell_commands.model import Command, CommandError, DiscordFace, Option, ShellCommand, done, quoted
from engine.chance.sources import lottery as lottery_source
from engine.events import Rejection
from engine.ruleset import Argument, CommandSpec

if TYPE_CHECKING:
    from bot.service.post_reading import PostReading, _Posting
    from bot.service.replies import LineAnswer

# A draw is ruled not held only a day after its time: a late publication is not a cancellation.
CANCEL_MARGIN = timedelta(hours=24)


def _day_and_more(command: Command, example: str) -> date:
    """The date a draw command starts with (``/lotto confirm DATE ...``), which must be followed by more."""
    if len(command.args) < 2:
        raise CommandError(f"usage: {command.usage}{example}")
    try:
        return date.fromisoformat(command.args[0])
    except ValueError:
        raise CommandError(f"'{command.args[0][:40]}' is not a date: write YYYY-MM-DD") from None


def _confirm(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """A GM types a draw the sources disagree on (or have not published): stored with the GM's name."""
    from bot.lottery.reconcile import confirm_by_gm
    from bot.service.draw_rulings import sources_word
    from bot.service.replies import LineAnswer

    day = _day_and_more(command, "")
    numbers = " ".join(command.args[1:])
    asked = sources_word(posting, day, reading.ask_lottery_sources)
    # In the post's own transaction: a post that fails later leaves no typed draw behind.
    outcome = confirm_by_gm(posting.session, day, numbers, posting.author, now=reading.clock.now, commit=False,
                            asked=asked)
    details = outcome.lines()
    if outcome.stored:
        # The stored draws changed: what this transaction read of them is read again.
        posting.batch.draw_dates.clear()
        posting.batch.first_draws.clear()
        posting.batch.no_draw.clear()
        details += reading._record_draws(posting)
    return LineAnswer(line_no, command.text, outcome.stored, f"the draw of {day.isoformat()}: {outcome.status.value}",
                      details)


def _cancelled(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """A draw the campaign waits for was never held (a strike, a moved draw): ruled so in the log, and the game
    binds its rolls again to draws still to come. Only once the lottery has visibly gone on without it: its
    publication time is long past, no source has it, and a later draw is stored. ``verify`` refuses the ruling
    if the public draws hold that date."""
    day = _day_and_more(command, ", e.g. /lotto cancelled 2026-12-26 no draw on Boxing Day")
    waited = {n.key for n in posting.ruleset.needs(posting.folded.state) if n.source == lottery_source.NAME}
    if day.isoformat() not in waited:
        shown = ", ".join(sorted(waited)) or "none"
        raise Rejection(f"this campaign does not wait for the draw of {day.isoformat()} (it waits for: {shown})")
    if posting.store.draw(day) is not None:
        raise Rejection(f"the draw of {day.isoformat()} is stored: it was held, so it cannot be ruled cancelled")
    from bot.service.draw_rulings import refuse_if_a_source_holds, sources_word

    asked = sources_word(posting, day, reading.ask_lottery_sources)
    refuse_if_a_source_holds(posting.session, day, asked)
    due = draw_moment(day) + CANCEL_MARGIN
    if posting.campaign.clock == "live" and reading.clock.now() < due:
        raise Rejection(f"the draw of {day.isoformat()} may still be published: a draw is ruled not held only "
                        f"from {due.strftime('%Y-%m-%d %H:%M %Z')} on")
    later = posting.store.draw_dates_after(day, 1)
    if not later:
        raise Rejection(f"no draw after {day.isoformat()} is stored: until the lottery has gone on without it, "
                        "the draw may just be late (legatus lotto fetch, or /lotto confirm a later draw)")
    data = {"date": day.isoformat(), "reason": " ".join(command.args[1:])[:200], "by": f"gm:{posting.author}",
            "next_held": later[0].isoformat()}
    details = reading._append(posting, "draw.cancelled", data, posting.gm_actor)
    details += [f"No source holds it, {asked.summary()}.", *reading._record_draws(posting)]
    return done(line_no, command, f"the draw of {day.isoformat()} ruled not held", details)


def _roll(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    from bot.service.roll_command import roll_event

    kind, data = roll_event(command.args)
    title = f"roll {data['dice']}{' ' + data['label'] if data['label'] else ''}"
    return done(line_no, command, title, reading._append(posting, kind, data, posting.gm_actor))


COMMANDS = (
    ShellCommand(
        CommandSpec("roll", "A roll the rules do not foresee, bound to the campaign's source (GM)",
                    (Argument("dice", help="e.g. 2d6, 1d90, 3d6+1"),
                     Argument("label", help="what it decides", optional=True, rest=True)),
                    gm_only=True),
        _roll, "/roll <dice> [label]",
        DiscordFace("roll", "A roll the rules do not foresee, bound to the campaign's source (GM)",
                    (Option("dice", description="e.g. 2d6, 1d90, 3d6+1"),
                     Option("label", description="what it decides", optional=True)),
                    line=lambda v: f"/roll {v['dice']} {quoted(str(v['label'])) if v['label'] else ''}".strip()),
    ),
    ShellCommand(
        CommandSpec("lotto confirm", "Type a lottery draw by hand when the sources disagree or are late",
                    (Argument("date", help="YYYY-MM-DD"),
                     Argument("numbers", help="WHEEL n1 n2 n3 n4 n5; WHEEL ... (every wheel)", rest=True)),
                    gm_only=True),
        _confirm, "/lotto confirm <YYYY-MM-DD> <WHEEL n1 n2 n3 n4 n5; WHEEL ...>",
        DiscordFace("gm confirm-draw", "Type a lottery draw by hand when the sources disagree or are late",
                    (Option("date", description="YYYY-MM-DD"),
                     Option("numbers", description="WHEEL n1 n2 n3 n4 n5; WHEEL ... (every wheel)")),
                    line=lambda v: f"/lotto confirm {v['date']} {v['numbers']}"),
    ),
    ShellCommand(
        CommandSpec("lotto cancelled", "Rule a lottery draw not held: its rolls bind to draws to come",
                    (Argument("date", help="YYYY-MM-DD, a draw the campaign waits for"),
                     Argument("reason", help="why, kept in the log", rest=True)),
                    gm_only=True),
        _cancelled, "/lotto cancelled <YYYY-MM-DD> <reason>",
        DiscordFace("gm cancelled-draw", "Rule a lottery draw not held: its rolls bind to draws to come",
                    (Option("date", description="YYYY-MM-DD, a draw the campaign waits for"),
                     Option("reason", description="why, kept in the log")),
                    line=lambda v: f"/lotto cancelled {v['date']} {v['reason']}"),
    ),
)
