"""`legatus verify`: an exported log re-checked from public data alone (its draws, beacons and seed), what it prints
and its exit codes."""
from __future__ import annotations

import argparse

from bot.cli.main import EXIT_FAILED, EXIT_UNREVEALED, NotALog, fail, log_damage, read_log
from bot.store.log_damage import DamagedLog
from engine.events import Rejection
from engine.quote import quote
from engine.rulesets import load_ruleset


def verify_log(args: argparse.Namespace) -> int:
    """`legatus verify LOG [--draws ...] [--witnesses ...] [--expect-head ...]`: re-check an exported log."""
    from bot.service.legatus import DATA_DIR
    from engine.lotto import parse_archive
    from engine.verify import verify

    public: dict[str, dict[str, list[int]]] = {}
    from bot.cli.archive_file import UnreadableDraws, draws_text

    for path in args.draws:
        try:  # the official zip as it comes, or its text: as `legatus lotto import` reads it
            parsed = parse_archive(draws_text(path, path.read_bytes()), path.name)
        except OSError as exc:
            return fail(f"cannot read {path}: {exc.strerror}")
        except UnreadableDraws as exc:
            return fail(str(exc), EXIT_FAILED)
        for error in parsed.errors:
            print(f"warning: {error}")
        for draw in parsed.draws:
            public.setdefault(draw.date.isoformat(), {}).update({w: list(n) for w, n in draw.numbers.items()})
    try:
        events = read_log(args.log)
        ruleset = load_ruleset(str(events[0].data.get("ruleset")), DATA_DIR)
    except NotALog as exc:
        return fail(str(exc), EXIT_FAILED)
    except DamagedLog as exc:
        return fail(exc.message, EXIT_FAILED)
    except OSError as exc:
        return fail(f"cannot read {args.log}: {exc.strerror}")
    except (Rejection, IndexError, KeyError) as exc:
        return fail(f"{args.log} is not a campaign log: {quote(str(exc))}", 1)
    from bot.cli.witness_files import read_witness_files

    try:
        witnesses, unusable = read_witness_files(args.witnesses)
    except ValueError as exc:
        return fail(str(exc), EXIT_FAILED)
    for problem in unusable:
        print(f"warning: {problem}")
    if args.witnesses and not witnesses:
        print("warning: the witness file(s) hold no head line posted by the bot ('Log head after this post: "
              "SEQ:HASH'): export the campaign's channel itself, with the bot's messages")
    if not args.draws and any(e.kind == "draw.recorded" for e in events):
        return fail(f"{args.log} binds rolls to lottery draws: give the public archive with --draws PATH "
                    "(e.g. --draws storico01-oggi.txt)", EXIT_FAILED)
    try:
        result = verify(ruleset, events, public, expect_head=args.expect_head, witnesses=witnesses)
    except (Rejection, TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
        print(f"NOT verified: the log does not replay: {log_damage(events, exc)}")
        return EXIT_FAILED
    anchored = [f for f in result.findings if f.purpose == "anchor"]
    for finding in result.findings:
        print(f"MISMATCH {finding}")
    for note in result.notes:  # no mismatch, but the record a reader should weigh: historical, voids, typed draws
        print(f"note: {note}")
    for anchor in args.expect_head:
        if not any(f"'{anchor[:80]}'" in f.detail or f.seq == _anchor_seq(anchor) for f in anchored):
            print(f"anchor {anchor}: the log holds this event unchanged")
    summary = (
        f"{result.events} events, hash chain head {result.head[:16]}, {result.draws_checked} draws checked, "
        f"{result.rolls} rolls re-derived"
        + (f", {result.beacons_checked} drand beacon(s) checked offline" if result.beacons_checked else "")
        + (f", {result.numbers_checked} commit-reveal numbers {_numbers_checked_from(result.commit_reveal_rule)}"
           if result.numbers_checked else "")
    )
    if not result.ok:
        print(f"NOT verified: {len(result.findings)} mismatch(es); {summary}")
        return 1
    if result.awaiting_reveal:
        print(f"NOT verified: {result.awaiting_words()} (the GM reveals it with /campaign reveal); {summary}")
        return EXIT_UNREVEALED
    print(f"verified: {summary}: everything matches the public draws")
    return 0


def _numbers_checked_from(rule: int) -> str:
    from engine.commit_reveal import RULE_SEED

    return "recomputed from the revealed seed" if rule == RULE_SEED else "checked against their drand rounds"


def _anchor_seq(anchor: str) -> int | None:
    seq = anchor.partition(":")[0].strip()
    return int(seq) if seq.isdigit() else None
