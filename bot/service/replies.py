"""What the bot answers: one answer per line of a post, plus announcements, rendered as text.

Discord and the console both render a Reply; neither builds answers of its own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


# What the others read in place of what is for the author alone.
REASON_ELSEWHERE = "refused (the reason goes to its author privately)"
PRIVATE_ELSEWHERE = "sent to its author privately (the /private command shows it to you alone)"


@dataclass
class LineAnswer:
    line_no: int | None
    text: str
    ok: bool
    message: str  # how the line was understood, or what is wrong with it
    details: list[str] = field(default_factory=list)  # what it caused, in order
    # The line carried a sealed order (Proposal.secret): its text and a refusal's reason (which may name what the
    # author holds) are for the author alone; what it caused in ``details`` is public.
    sealed: bool = False
    # The refusal's reason reads what the author's own seat keeps hidden (a count of markers, a sealed hand): for the
    # author alone; the line itself was typed in the open and may be quoted.
    reason_private: bool = False
    # The whole answer, message and details, is for its author alone (``/private``, a seat's private view).
    private: bool = False
    # A refusal of an order made for another's seat whose reason reads that seat's hidden holding: (the seat's
    # player, what they alone are told). The author read only that the order cannot be carried out.
    owner_note: tuple[str, str] | None = None
    # A private view's one-click orders (``private_view``'s "choices"): a menu for the author alone.
    choices: tuple[str, ...] = ()


@dataclass
class Reply:
    answers: list[LineAnswer] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Users the reply may ping (the player whose turn comes); everyone else is never mentioned.
    ping: list[str] = field(default_factory=list)
    changed: bool = False  # whether events were appended
    # The post was not read at all (no such campaign, not text, the database too busy, an internal error):
    # nothing changed, and the command line exits 1 rather than 0.
    failed: bool = False

    @property
    def outcome(self) -> str:
        """"failed" (nothing read), "refused" (some line), or "ok": how `legatus post` ends, whichever process
        wrote the post (bot/cli/main.py, bot/service/local_posts.py)."""
        return "failed" if self.failed else "refused" if not self.ok else "ok"

    @classmethod
    def unread(cls, note: str) -> "Reply":
        return cls(notes=[note], failed=True)

    @property
    def ok(self) -> bool:
        return all(a.ok for a in self.answers)

    @property
    def sealed(self) -> bool:
        """Some line is for its author's eyes only: a transport shows the full render to the author alone."""
        return any(a.sealed or a.reason_private or a.private for a in self.answers)

    @property
    def owner_notes(self) -> dict[str, list[str]]:
        """Per player, what a transport tells them alone (``LineAnswer.owner_note``)."""
        notes: dict[str, list[str]] = {}
        for a in self.answers:
            if a.owner_note is not None:
                notes.setdefault(a.owner_note[0], []).append(a.owner_note[1])
        return notes

    @property
    def carried_sealed_order(self) -> bool:
        """Some line of the post itself was a sealed order: typed where others read, it must not stay there."""
        return any(a.sealed for a in self.answers)

    def note(self, text: str) -> "Reply":
        self.notes.append(text)
        return self

    def render(self, *, for_author: bool = True) -> str:
        """The answer as text; ``for_author=False`` for everyone else's eyes: sealed lines are not quoted and their
        refusals not explained (the author gets those privately)."""
        out: list[str] = []
        for a in self.answers:
            where = f"line {a.line_no}" if a.line_no is not None else "command"
            mark = "✓" if a.ok else "✗"
            if a.private and not for_author:
                out.append(f"{mark} {where} \u201c{_clip(a.text)}\u201d: {PRIVATE_ELSEWHERE}")
                continue  # its details are the private view itself
            if a.sealed and not for_author:
                message = a.message if a.ok else REASON_ELSEWHERE
                out.append(f"{mark} {where} (a sealed order): {message}")
            elif a.reason_private and not for_author:
                out.append(f"{mark} {where} \u201c{_clip(a.text)}\u201d: {REASON_ELSEWHERE}")
            else:
                out.append(f"{mark} {where} \u201c{_clip(a.text)}\u201d: {a.message}")
            out.extend(f"    {d}" for d in a.details)
        out.extend(self.notes)
        return "\n".join(out)


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


MENU_LIMIT, CHOICE_CHARS = 25, 100  # Discord's select menu: 25 options of at most 100 characters


def menu_choices(view: dict[str, Any]) -> tuple[str, ...]:
    """The one-click orders a private view offers (its "choices"), as many as a menu holds."""
    raw = view.get("choices") if isinstance(view, dict) else None
    if not isinstance(raw, list):
        return ()
    return tuple(dict.fromkeys(c for c in raw if isinstance(c, str) and 0 < len(c) <= CHOICE_CHARS))[:MENU_LIMIT]
