"""What the post table keeps of a post: its text and answer as anyone but its author may read them.

The post table is a record beside the log, in the database and in every backup. A line that carried a sealed order
(``LineAnswer.sealed``: a bid, a hand) is its author's alone; kept as typed, a copy of the database would show the
bid its digest hides. So such lines are kept as ``SEALED_LINE`` and the answer in its public form
(``Reply.render(for_author=False)``), which does not quote them.
"""
from __future__ import annotations

from bot.service.replies import Reply

SEALED_LINE = "(a sealed order: its text is not kept)"


def recorded(text: str, reply: Reply) -> tuple[str, str]:
    """(text, answer) for the post table."""
    sealed = {a.text.strip() for a in reply.answers if a.sealed and a.text.strip()}
    if not sealed:
        return text, reply.render()
    lines = [SEALED_LINE if line.strip() in sealed else line for line in text.splitlines()]
    kept = "\n".join(lines)
    if any(s in kept for s in sealed):  # a sealed order not on a line of its own: keep none of the post's text
        kept = SEALED_LINE
    return kept, reply.render(for_author=False)
