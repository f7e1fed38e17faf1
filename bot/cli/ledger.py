"""`legatus ledger`: the rolls bound this turn (or every turn), their outcomes, and the log's hash-chain head.

What the bot posts as its ledger, printed offline: anyone holding the export can check that the head printed
here is the head of the log they got. ``bot.cli.main`` adds the command with ``add_commands(subparsers)``.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine import canonical
from engine.events import Event, Rejection
from engine.ledger import GENESIS
from engine.log import link

EXIT_USAGE = 2


def add_commands(subparsers: Any) -> None:  # argparse's _SubParsersAction is private
    sp = subparsers.add_parser(
        "ledger",
        help="list the rolls bound this turn with their outcomes, and the hash-chain head",
        description=(
            "List every roll bound in the current turn (with --all: in every turn): the draw, wheel and position "
            "it is bound to, what the numbers mean, and its number and outcome once drawn; then the head of the "
            "log's hash chain, recomputed from the stored log."
        ),
    )
    sp.add_argument("--db", default=None, help="the SQLite file (default: $DATABASE_URL, else legatus.db)")
    sp.add_argument("--campaign", default=None, help="the campaign's name, when the file holds several")
    sp.add_argument("--all", action="store_true", help="every turn's bindings, not only the current turn's")
    sp.add_argument("--json", action="store_true", help="print the ledger as JSON")
    sp.set_defaults(func=cmd_ledger)


def cmd_ledger(args: argparse.Namespace) -> int:
    from bot.cli.reading import export, folded
    from bot.store.campaign_names import CampaignNotFound
    from bot.store.log_damage import DamagedLog

    try:
        text = export(args.db, args.campaign)
    except CampaignNotFound as exc:
        print(f"legatus: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DamagedLog as exc:
        print(f"legatus: {exc.message}", file=sys.stderr)
        return 1
    events = [Event.from_dict(json.loads(line)) for line in text.splitlines() if line.strip()]
    try:
        head, last_seq = chain_head(events)
    except Rejection as exc:
        print(f"legatus: the stored log does not replay: {exc.reason}", file=sys.stderr)
        return 1
    # Folded only once the chain holds: with no snapshot to start from (none yet, dropped by a restore, or not
    # the bot's), the fold walks the whole log, and a changed event would stop it with no word of why.
    try:
        ruleset, state = folded(args.db, args.campaign)
    except CampaignNotFound as exc:  # SealedKeyMissing too: the key at rest to give back
        print(f"legatus: {exc}", file=sys.stderr)
        return EXIT_USAGE
    ledger = build_ledger(ruleset, state, head, last_seq, every_turn=args.all)
    from bot.service.chain_warning import log_warning

    for warning in log_warning(events):  # a test chain: said first, in the JSON too
        ledger["warning"] = warning
    if args.json:
        print(canonical.dumps(ledger, indent=2))
    else:
        print("\n".join(render(ledger)))
    return 0


def chain_head(events: list[Event]) -> tuple[str, int]:
    """The head of the log's hash chain and its last seq, recomputed from the events, not read off the last one:
    a changed event or a gap is refused. Only the chain is walked: the state came from the service's fold, so
    the rules need not run over the whole log again."""
    head, last = GENESIS, 0
    for event in events:
        if event.seq != last + 1:
            raise Rejection(f"event #{event.seq} is out of order: the log ends at #{last}")
        head, last = link(head, event), event.seq
    return head, last


def build_ledger(ruleset: Any, state: Any, head: str, last_seq: int, *, every_turn: bool = False) -> dict[str, Any]:
    """The game's ledger (``ruleset.ledger``) for the current turn or every turn, with the chain's head."""
    summary = ruleset.summary(state)
    entries = [e for e in ruleset.ledger(state) if every_turn or e.get("turn") == summary.turn]
    return {
        "turn": summary.turn, "turn_label": summary.turn_label, "all_turns": every_turn, "rolls": entries,
        "head": head, "last_seq": last_seq, "anchor": f"{last_seq}:{head}",
    }


def render(ledger: dict[str, Any]) -> list[str]:
    turn = ledger["turn"]
    lines = [ledger["warning"]] if ledger.get("warning") else []
    lines.append(f"{ledger['turn_label']}." if turn else "The campaign has not started: no turn yet.")
    scope = "any turn" if ledger["all_turns"] else f"turn {turn}"
    if not ledger["rolls"]:
        lines.append(f"No roll bound in {scope}.")
    for e in ledger["rolls"]:
        who = f" ({e['seat']})" if e.get("seat") else ""
        values = e.get("values")
        result = "pending" if values is None else f"{', '.join(str(v) for v in values)}: {e.get('outcome')}"
        lines.append(f"#{e['id']} turn {e['turn']} {e['purpose']}{who}: {e['where']} -> {result} [{e.get('meaning', '')}]")
    lines.append(f"Hash chain head: {ledger['anchor']} (SEQ:HASH; check a copy with legatus verify LOG --expect-head {ledger['anchor']})")
    return lines
