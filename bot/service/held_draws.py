"""Draws not held yet are not imported: numbers for a draw still to come can only be made up, and a roll bound to
that draw would then be known (or chosen) in advance by whoever imported them."""
from __future__ import annotations

from datetime import date, datetime, timezone

from bot.schedule.clock import draw_moment
from engine.lotto import parse_archive


def _stamp(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def without_unheld(text: str, now: datetime, source: str) -> tuple[str, list[str]]:
    """The archive text with the lines of draws not held by ``now`` blanked (line numbers stay as the user's
    editor shows them), and one refusal per such draw naming its lines and why."""
    lines = text.split("\n")
    unheld: dict[date, list[int]] = {}
    for entry in parse_archive(text, source).entries:
        if draw_moment(entry.date) > now:
            unheld.setdefault(entry.date, []).append(entry.line)
    refusals = []
    for day, numbers in sorted(unheld.items()):
        for number in numbers:
            lines[number - 1] = ""
        where = f"line {numbers[0]}" if len(numbers) == 1 else f"lines {min(numbers)}-{max(numbers)}"
        refusals.append(f"{source}: {where} (the draw of {day.isoformat()}): not held yet: it is held at 20:00 in Rome "
                        f"({_stamp(draw_moment(day))}) and it is now {_stamp(now)}; none of these lines was imported; "
                        "import them once the draw is held")
    return "\n".join(lines), refusals
