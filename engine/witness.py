"""Witnesses: the log's head as something outside the bot saw it, and when.

The timestamps in a log are the operator's clock: set it back and a roll appears bound before a draw whose numbers
were already known. A witness is a head ``SEQ:HASH`` together with a time the operator does not choose:

* a Discord message of the bot carrying ``Log head after this post: SEQ:HASH``; its id is a snowflake, whose
  timestamp Discord assigns (``(id >> 22) + 1420070400000`` ms); an edited message counts from its edit;
* an anchor the verifier saw themselves, ``SEQ:HASH@YYYY-MM-DDTHH:MM:SSZ``.

A witness whose hash matches the log at its ``SEQ`` proves that every event up to ``SEQ`` existed, as they are in
the log, at the witness's time. So a binding at ``seq`` is shown in advance when the earliest matching witness with
``SEQ >= seq`` is seen before its value is public (less the margin). A witness that does not match proves the log
was cut or rewritten since.

Export formats read (``read_witnesses``): DiscordChatExporter's JSON (``{"messages": [{"id", "timestamp",
"timestampEdited", "content", "author": {"isBot"}}]}``), a JSON array of Discord API messages (``id``,
``edited_timestamp``, ``content``, ``author.bot``), or JSON lines ``{"id": ..., "content": ...}`` (optionally
``edited``, an ISO time). A message whose author is marked as not a bot is left out: anyone may type a head line.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
HEAD_LINE = re.compile(r"Log head after this post: `?(\d+):([0-9a-f]{64})`?")
# The exporter's own "timestamp" is derived from the id: more than this apart, the file was edited by hand.
TIMESTAMP_SLACK = dt.timedelta(seconds=2)


@dataclass(frozen=True)
class Witness:
    seq: int
    digest: str
    seen: dt.datetime  # aware, UTC
    source: str  # "Discord message 1234" or "anchor 12:abcd…@…": named in findings

    @property
    def seen_text(self) -> str:
        return stamp(self.seen)


@dataclass(frozen=True)
class Binding:
    """A roll bound in a live campaign, and the latest moment a witness may show it (its value's time less the
    margin)."""

    seq: int
    turn: int | None
    purpose: str
    source: str  # "lottery" or "drand"
    key: str  # the draw's date or the round
    public_at: dt.datetime
    latest: dt.datetime


@dataclass(frozen=True)
class Problem:
    seq: int | None
    turn: int | None
    purpose: str
    detail: str


def stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def snowflake_time(snowflake: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=dt.timezone.utc)


def parse_time(text: str) -> dt.datetime | None:
    """An ISO time with its zone (``Z`` or an offset), as UTC; None when it is not one."""
    try:
        moment = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone(dt.timezone.utc) if moment.tzinfo is not None else None


def split_anchor(anchor: str) -> tuple[str, str | None]:
    """``SEQ:HASH@TIME`` -> ("SEQ:HASH", "TIME"); without ``@`` the time is None."""
    head, sep, when = anchor.strip().partition("@")
    return head, (when if sep else None)


def anchor_witness(anchor: str, seq: int, digest: str) -> Witness | str | None:
    """The witness an anchor with a time makes, a problem quoting it when its time cannot be read, or None (no
    time: the anchor checks the log's content only)."""
    _, when = split_anchor(anchor)
    if when is None:
        return None
    seen = parse_time(when)
    if seen is None:
        return (f"'{anchor[:100]}': the time after '@' must be YYYY-MM-DDTHH:MM:SSZ (UTC), e.g. "
                f"{seq}:{digest[:8]}…@2026-11-25T19:30:00Z")
    return Witness(seq, digest, seen, f"anchor {seq}:{digest[:16]}…@{stamp(seen)}")


def read_witnesses(text: str, name: str = "witnesses") -> tuple[list[Witness], list[str]]:
    """The head lines of an export of a campaign's channel, each with the time Discord gave its message; and what
    could not be used (quoting where). A file that is none of the formats raises ValueError saying what is."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise ValueError(f"{name} is empty: give an export of the campaign's channel (DiscordChatExporter's JSON, "
                         "or JSON lines {\"id\": ..., \"content\": ...})")
    messages: list[tuple[str, Any]] = []
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
        for number, line in enumerate(stripped.splitlines(), 1):
            if not line.strip():
                continue
            try:
                messages.append((f"{name}:{number}", json.loads(line)))
            except json.JSONDecodeError:
                raise ValueError(f"{name}:{number}: '{line.strip()[:60]}' is not JSON: give DiscordChatExporter's "
                                 "JSON export, or one {\"id\": ..., \"content\": ...} object per line") from None
    if isinstance(whole, dict) and isinstance(whole.get("messages"), list):
        messages = [(f"{name}: message {i}", m) for i, m in enumerate(whole["messages"], 1)]
    elif isinstance(whole, list):
        messages = [(f"{name}: message {i}", m) for i, m in enumerate(whole, 1)]
    elif isinstance(whole, dict):
        messages = [(f"{name}:1", whole)]
    elif whole is not None:
        raise ValueError(f"{name} is JSON but not an export of messages: give DiscordChatExporter's JSON "
                         "({\"messages\": [...]}) or one {\"id\": ..., \"content\": ...} object per line")
    witnesses: list[Witness] = []
    problems: list[str] = []
    for where, message in messages:
        found, problem = message_witnesses(where, message)
        witnesses.extend(found)
        if problem:
            problems.append(problem)
    return witnesses, problems


def message_witnesses(where: str, message: Any) -> tuple[list[Witness], str | None]:
    """The head lines of one message (a JSON object as an export holds it), or why it cannot be used."""
    if not isinstance(message, dict):
        return [], f"{where}: not a message object (a JSON object with id and content)"
    content = message.get("content")
    heads = HEAD_LINE.findall(content) if isinstance(content, str) else []
    if not heads:
        return [], None
    author = message.get("author")
    if isinstance(author, dict) and (author.get("isBot") is False or author.get("bot") is False):
        return [], None  # a person typed it: anyone can write a head line
    raw_id = str(message.get("id", "")).strip()
    if not raw_id.isdigit():
        return [], f"{where}: its id '{raw_id[:30]}' is not a Discord message id (a snowflake, digits only): skipped"
    seen = snowflake_time(int(raw_id))
    claimed = message.get("timestamp")
    if isinstance(claimed, str) and (at := parse_time(claimed)) is not None and abs(at - seen) > TIMESTAMP_SLACK:
        return [], (f"{where}: message {raw_id} says it was sent at {stamp(at)}, but its id says {stamp(seen)}: the "
                    "export was changed by hand; skipped")
    edited = next((message[k] for k in ("timestampEdited", "edited_timestamp", "edited") if message.get(k)), None)
    if edited is not None:
        at = parse_time(str(edited))
        if at is None:
            return [], f"{where}: message {raw_id} was edited at '{str(edited)[:40]}', which is not a time: skipped"
        seen = max(seen, at)  # its text may date from the edit only
    return [Witness(int(seq), digest, seen, f"Discord message {raw_id}") for seq, digest in heads], None


def check(hashes: dict[int, str], last_seq: int, witnesses: Sequence[Witness],
          bindings: Iterable[Binding]) -> tuple[list[Problem], list[Binding], list[str]]:
    """Hold the log to its witnesses: (problems, the bindings no witness covers, notes).

    ``hashes``: each event's hash by seq. A witness naming an event the log lacks, or with another hash, is a
    problem (cut, rewritten). A binding whose earliest matching witness came after its ``latest`` moment is a
    problem: nothing outside the bot shows it was bound before its value was public."""
    problems: list[Problem] = []
    good: list[Witness] = []
    for witness in witnesses:
        held = hashes.get(witness.seq)
        if held is None:
            problems.append(Problem(witness.seq, None, "witness",
                                    f"{witness.source}, seen {witness.seen_text}, showed the log at event "
                                    f"#{witness.seq}, but the log ends at #{last_seq}: the log was cut"))
        elif held != witness.digest:
            problems.append(Problem(witness.seq, None, "witness",
                                    f"{witness.source}, seen {witness.seen_text}, showed event #{witness.seq} with hash "
                                    f"{witness.digest[:16]}…, but the log has {held[:16]}… there: the log was "
                                    "rewritten"))
        else:
            good.append(witness)
    good.sort(key=lambda w: (w.seen, w.seq))
    unwitnessed: list[Binding] = []
    for binding in bindings:
        first = next((w for w in good if w.seq >= binding.seq), None)
        if first is None:
            unwitnessed.append(binding)
            continue
        if first.seen > binding.latest:
            problems.append(Problem(
                binding.seq, binding.turn, binding.purpose,
                f"first witnessed by {first.source} at {first.seen_text}, after {stamp(binding.latest)} (the margin "
                f"before its {binding.source} value {binding.key}, public at {stamp(binding.public_at)}): nothing "
                "outside the bot shows it bound in advance",
            ))
    notes = [f"{len(good)} witness(es) of the log's head matched the log"] if good else []
    return problems, unwitnessed, notes
