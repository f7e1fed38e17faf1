"""Turning a Reply into Discord messages: split under the limits, mentions off unless opted in."""
from __future__ import annotations

import re

DISCORD_LIMIT = 2000
MENTION = re.compile(r"^<@!?(\d+)>$")


def split_message(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """Chunks of at most ``limit`` characters, cut at line ends where possible, never losing a character."""
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            chunks.append(current)
            current = ""
        current += line
    if current:
        chunks.append(current)
    return [c.rstrip("\n") or "\u200b" for c in chunks] or ["\u200b"]


def user_ids(identities: list[str]) -> list[int]:
    """Discord user ids from the identities Legatus stores for players (``<@123>``)."""
    ids = []
    for identity in identities:
        match = MENTION.match(identity)
        if match:
            ids.append(int(match.group(1)))
    return ids


def turn_announcement(view: dict) -> str:  # type: ignore[type-arg]
    """The opening post of a turn: year, draw, order of play, events and each nation's actions."""
    lines = [f"**Turn {view['turn']} — {view['year']}** (lottery draw of {view['draw']})", "", "**Order of play**"]
    for i, nation in enumerate(view["order_of_play"], 1):
        n = view["nations"][nation]
        lines.append(f"{i}. {nation} — {n['player'] or 'no player'}: {n['actions_total']} action(s), treasury {n['treasury']}, stability {n['stability']}")
    lines += ["", "**Events**"]
    for nation, event in view["events"].items():
        where = f" ({event['province']})" if event.get("province") else ""
        lines.append(f"• {nation}: {event['name']} ({event['number']}){where}")
    pending = [b for b in view["battles"] if b["status"] in ("to_fight", "waiting_roll")]
    if pending:
        lines += ["", "**Battles already announced**"]
        lines += [f"• #{b['id']} {b['province'] or b['sea']}: {b['attacker']} against {b['defender'] or 'independent forces'}" for b in pending]
    return "\n".join(lines)
