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
from engine.mare_nostrum.context import ordinal

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
    from bot.store.db import open_engine
    from bot.service.legatus import CampaignNotFound, Legatus

    service = Legatus(open_engine(args.db))
    try:
        view = service.state(args.campaign)
        text = service.export(args.campaign)
    except CampaignNotFound as exc:
        print(f"legatus: {exc}", file=sys.stderr)
        return EXIT_USAGE
    events = [Event.from_dict(json.loads(line)) for line in text.splitlines() if line.strip()]
    try:
        head, last_seq = chain_head(events)
    except Rejection as exc:
        print(f"legatus: the stored log does not replay: {exc.reason}", file=sys.stderr)
        return 1
    ledger = build_ledger(view, head, last_seq, every_turn=args.all)
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


def build_ledger(view: dict[str, Any], head: str, last_seq: int, *, every_turn: bool = False) -> dict[str, Any]:
    turn = view.get("turn") or 0
    rolls = [r for r in view.get("rolls", []) if every_turn or r["turn"] == turn]
    gm_rolls = {g["id"]: g for g in view.get("gm_rolls", [])}
    return {
        "turn": turn,
        "draw": view.get("draw"),
        "all_turns": every_turn,
        "rolls": rolls,
        "gm_rolls": [g for g in gm_rolls.values() if every_turn or g["turn"] == turn],
        "head": head,
        "last_seq": last_seq,
    }


def render(ledger: dict[str, Any]) -> list[str]:
    turn = ledger["turn"]
    lines = []
    if turn:
        lines.append(
            f"Turn {turn}: order of play and events from the draw of {ledger['draw']} "
            "(each nation's wheel, its 1st to 3rd numbers)."
        )
    else:
        lines.append("The campaign has not started: no turn yet.")
    scope = "any turn" if ledger["all_turns"] else f"turn {turn}"
    if not ledger["rolls"]:
        lines.append(f"No roll bound in {scope}.")
    for r in ledger["rolls"]:
        who = f" ({r['nation']})" if r.get("nation") else ""
        result = "pending" if r["number"] is None else f"{r['number']}: {r['outcome']}"
        where = (f"commit-reveal label {r['label']}" if r.get("label") else
                 f"draw {r['draw']} wheel {r['wheel']} {ordinal(r['position'])} number")
        lines.append(f"#{r['id']} turn {r['turn']} {r['purpose'].replace('_', ' ')}{who}: {where} -> {result} [{r['meaning']}]")
    for g in ledger["gm_rolls"]:
        label = f" {g['label']}" if g["label"] else ""
        total = "pending" if g["total"] is None else f"dice {g['values']}, total {g['total']}"
        lines.append(f"GM roll #{g['id']} turn {g['turn']}: {g['dice']}{label} (by {g['by']}) -> {total}")
    lines.append(f"Hash chain head: {ledger['head']} (after event #{ledger['last_seq']})")
    return lines
