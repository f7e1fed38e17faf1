"""The `legatus` command line: the offline face of the bot, through the same handlers as Discord."""
from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.one_command import OnlyCommand, named_command
from bot.store.log_damage import DamagedLog
from engine import canonical
from engine.events import Event, Rejection
from engine.log import replay
from engine.quote import quote
from engine.chance import registry as chance_sources
from engine.rulesets import load_ruleset

if TYPE_CHECKING:  # imported where used: a command's start-up loads only what it needs
    from sqlalchemy import Engine

    from bot.service.legatus import Legatus

EXIT_USAGE = 2
EXIT_FAILED = 1
# `legatus post`: the post was read but some of its lines were refused (documented in `legatus post --help`).
EXIT_REFUSED = 3
EXIT_OF = {"ok": 0, "refused": EXIT_REFUSED, "failed": EXIT_FAILED}  # a post's Reply.outcome
# `legatus verify`: no mismatch, but commit-reveal numbers still wait for their seed: not verified (any could be forged).
EXIT_UNREVEALED = 4


def main(argv: list[str] | None = None) -> int:
    """Run one command; ``argv`` None means this is the process's own command line (`legatus ...`)."""
    code = _dispatch(argv)
    if argv is None:
        # The process ends next: freezing the heap spares the interpreter's last garbage collections over every
        # object the imports made (about 150 ms of a command's start-up cost). Nothing is left unflushed or
        # unclosed by it: objects are still freed by reference counting. Not done when called as a function
        # (the tests), where the caller's process goes on.
        gc.freeze()
    return code


def _dispatch(argv: list[str] | None) -> int:
    parser = build_parser(named_command(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("LEGATUS_LOG", "WARNING"), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not getattr(args, "func", None):
        args = parser.parse_args(["run", *([] if argv is None else argv)])
    if hasattr(args, "db"):
        from bot.cli.db_target import problem

        wrong = problem(args.db, creates=getattr(args, "creates_db", False))
        if wrong is not None:
            return fail(wrong)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except NotALog as exc:
        return fail(str(exc), EXIT_FAILED)
    except DamagedLog as exc:
        return fail(exc.message, EXIT_FAILED)
    except Exception as exc:
        failure = database_problem(exc, getattr(args, "db", None))
        if failure is not None:
            logging.getLogger("legatus").debug("database failed", exc_info=True)
            return fail(failure, EXIT_FAILED)  # no user ever sees a traceback; the log has it for the operator
        logging.getLogger("legatus").debug("command failed", exc_info=True)
        return fail(f"internal error ({type(exc).__name__}); run with LEGATUS_LOG=DEBUG for details", 1)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every command's parser; with ``command``, only that one's (bot/cli/one_command.py), if it is one."""
    p = argparse.ArgumentParser(prog="legatus", description="Legatus: a GM bot for play-by-forum strategy campaigns.")
    every = p.add_subparsers(metavar="COMMAND")
    sub = every if command is None else OnlyCommand(every, command)

    def db_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", default=None, help="the SQLite file (default: $DATABASE_URL, else legatus.db)")
        sp.add_argument("--campaign", default=None, help="the campaign's name, when the file holds several")

    sp = sub.add_parser("run", help="run the bot (Discord with DISCORD_TOKEN; else the offline console)")
    db_arg(sp)
    sp.add_argument("--shard-id", default=None, metavar="N",
                    help="run only this Discord shard (0 to count-1; default: $LEGATUS_SHARD_ID, else every shard)")
    sp.add_argument("--shard-count", default=None, metavar="N",
                    help="how many shards the bot's processes share (default: $LEGATUS_SHARD_COUNT, else 1); "
                         "without --shard-id one process runs them all")
    sp.set_defaults(func=cmd_run, creates_db=True)

    sp = sub.add_parser("new", help="create a campaign")
    db_arg(sp)
    sp.add_argument("--ruleset", default=None,
                    help="the game's id (default: the registry's default); one of engine/rulesets.py's or "
                         "registered by LEGATUS_RULESETS")
    sp.add_argument("--name", default=None, help="the campaign's name (default: the ruleset's id)")
    sp.add_argument("--player", action="append", default=[], metavar="SEAT=USER",
                    help="who plays which seat (nation, side), e.g. --player SEAT=alice; repeat for each")
    sp.add_argument("--gm", default="gm", help="the GM's name: commands posted as this name are the GM's")
    sp.add_argument("--clock", choices=("historical", "live"), default="historical",
                    help="historical: play on stored past draws; live: bind rolls to future draws (default historical)")
    sp.add_argument("--randomness", choices=chance_sources.offered_names(), default=None,
                    help="where the game's rolls come from: drand quicknet rounds still to come (verified beacons), "
                         "lottery slots of coming draws, or a seed committed to now and revealed by the GM at the end "
                         "(/campaign reveal) (default: the game's own choice)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME",
                    help="a campaign option of the game (an optional rule, a scenario); repeat for each")
    sp.set_defaults(func=cmd_new, creates_db=True)

    lotto = sub.add_parser("lotto", help="lottery results").add_subparsers(metavar="ACTION")
    sp = lotto.add_parser("import", help="import draws in the official archive format")
    db_arg(sp)
    sp.add_argument("path", type=Path,
                    help="an archive text (YYYY/MM/DD WHEEL n1..n5 per line) or the operator's history zip as it is")
    sp.set_defaults(func=cmd_lotto_import, creates_db=True)
    sp = lotto.add_parser("list", help="the stored draws a historical campaign can open a turn on")
    db_arg(sp)
    sp.add_argument("--from", dest="start", default=None, metavar="YYYY-MM-DD", help="only draws on or after this day")
    sp.add_argument("--limit", type=int, default=20, help="how many dates to show (default 20)")
    sp.set_defaults(func=cmd_lotto_list)
    from bot.cli.lotto_fetch import add_commands as add_lotto_fetch

    add_lotto_fetch(lotto)

    sp = sub.add_parser(
        "post", help="post a message as a user, exactly like a Discord message",
        description="Post a message as a user, exactly like a Discord message.",
        epilog=(f"exit status: 0 every line accepted (or no order in it); {EXIT_REFUSED} some lines refused (the "
                "others were applied; each refused line says why); 1 the post could not be read, nothing changed; "
                "2 bad usage, e.g. text that is not UTF-8"),
    )
    db_arg(sp)
    sp.add_argument("--as", dest="author", required=True, metavar="NAME", help="who posts (a player's or the GM's name)")
    sp.add_argument("--strict", action="store_true",
                    help=f"kept for old scripts: a refused line now always exits {EXIT_REFUSED}")
    sp.add_argument("text", help="the message (UTF-8); '-' reads it from standard input")
    sp.set_defaults(func=cmd_post)

    sp = sub.add_parser("state", help="print the campaign's state")
    db_arg(sp)
    sp.add_argument("--json", action="store_true", help="the whole public state as JSON (default: the status board)")
    sp.set_defaults(func=cmd_state)

    sp = sub.add_parser("export", help="write the campaign's event log")
    db_arg(sp)
    sp.add_argument("--out", type=Path, required=True, help="the file to write the log to (one JSON event per line)")
    sp.set_defaults(func=cmd_export)

    sp = sub.add_parser("replay", help="rebuild a campaign from an exported log")
    sp.add_argument("log", type=Path, help="an exported log (legatus export)")
    sp.add_argument("--json", action="store_true", help="the rebuilt public state as JSON (default: the status board)")
    sp.set_defaults(func=cmd_replay)

    sp = sub.add_parser(
        "verify", help="re-check a campaign's log against the public lottery results",
        description="Exit 0: verified, everything matches. 1: a mismatch (or a log that does not replay). "
                    "4: no mismatch, but commit-reveal numbers still wait for their seed (a campaign made before "
                    "commit_reveal_rule 2 whose GM has not run /campaign reveal): not verified.")
    sp.add_argument("log", type=Path, help="an exported log (legatus export), checked against the public values")
    sp.add_argument("--draws", type=Path, action="append", default=[], metavar="PATH",
                    help="public draws in the official archive format (repeatable); needed when rolls came from the "
                         "lottery, not for drand beacons or a commit-reveal seed (their values are in the log)")
    sp.add_argument("--expect-head", action="append", default=[], metavar="SEQ:HASH[@YYYY-MM-DDTHH:MM:SSZ]",
                    help="an anchor the bot published ('Log head after this post: SEQ:HASH'): the log must hold "
                         "that event with that hash, else it was cut or rewritten; with @TIME (UTC, when you saw "
                         "it) it also witnesses that the bindings before it were made by then (repeatable)")
    sp.add_argument("--witnesses", action="append", default=[], type=Path, metavar="FILE",
                    help="an export of the campaign's channel (DiscordChatExporter's JSON, or JSON lines "
                         "{\"id\": ..., \"content\": ...}): each head the bot posted is held to the log, at the "
                         "time Discord gave its message, and each binding must be witnessed before its draw or "
                         "round (repeatable)")
    sp.set_defaults(func=cmd_verify)

    from bot.cli.ledger import add_commands as add_ledger

    add_ledger(sub)
    from bot.cli.backup import add_commands as add_backup

    add_backup(sub)
    from bot.cli.render import add_commands as add_render

    add_render(sub)

    from bot.cli.dev_discord import add_commands as add_dev_discord

    add_dev_discord(sub)

    sp = sub.add_parser("console", help="play interactively (NAME> TEXT) or from a transcript")
    db_arg(sp)
    sp.add_argument("--script", type=Path, default=None, help="a transcript of 'NAME: TEXT' lines")
    sp.add_argument("--as", dest="author", default=None, help="who speaks when a line names nobody")
    sp.set_defaults(func=cmd_console, creates_db=True)
    if isinstance(sub, OnlyCommand) and not sub.found:
        return build_parser()  # not a command: argparse's answer lists them all
    return p


def check_writable(engine: Engine) -> None:
    from bot.store.db import check_writable as probe

    probe(engine)


def _service(args: argparse.Namespace) -> Legatus:
    from bot.store.db import open_engine
    from bot.service.legatus import Legatus

    return Legatus(open_engine(args.db))


def fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"legatus: {message}", file=sys.stderr)
    return code


def _quiet_stdout() -> None:
    """The reader of standard output is gone (`legatus ... | head`): send what is left nowhere, so that Python's
    flush at exit does not print a BrokenPipeError of its own."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def emit(text: str, code: int) -> int:
    """Print a command's answer and return its exit code, which stays the answer's even when nobody reads it: a
    refused post piped into `head` still exits 3."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        _quiet_stdout()
    return code


def cmd_new(args: argparse.Namespace) -> int:
    players: dict[str, str] = {}
    for item in args.player:
        nation, sep, user = item.partition("=")
        if not sep or not nation.strip() or not user.strip():
            return fail(f"--player '{item[:80]}': write SEAT=USER, e.g. --player 'Player A'=alice")
        players[nation.strip()] = user.strip()
    from engine.rulesets import DEFAULT

    args.ruleset = args.ruleset or DEFAULT
    service = _service(args)
    reply = service.create_campaign(
        args.name or args.ruleset, args.ruleset, args.gm, players, clock=args.clock, randomness=args.randomness,
        options=args.option,
    )
    print(reply.render())
    return 0 if reply.changed else 1


def cmd_lotto_list(args: argparse.Namespace) -> int:
    """The stored draws, so a GM picks a date that exists for ``/turn open`` on a historical campaign."""
    import datetime as dt

    from sqlmodel import Session

    from bot.store import draws as draw_store
    from bot.store.db import open_engine

    if not 1 <= args.limit <= 10_000:
        return fail(f"--limit {args.limit}: give 1 to 10000")
    try:
        start = dt.date.fromisoformat(args.start) if args.start else dt.date(1871, 1, 1)
    except ValueError:
        return fail(f"--from {str(args.start)[:40]}: write a date as YYYY-MM-DD, e.g. 2023-01-03")
    with Session(open_engine(args.db)) as session:
        first = draw_store.first_draw_on_or_after(session, start)
        dates = [first.date] if first is not None else []
        if first is not None:
            dates += draw_store.draw_dates_after(session, first.date, args.limit - 1)
        latest = draw_store.latest_draw_date(session)
    if not dates:
        print("No stored draw" + (f" on or after {start.isoformat()}" if args.start else "")
              + ": import some with legatus lotto import FILE (the operator's history zip works as it is).")
        return 0
    print(f"Stored draws a turn can open on (latest stored: {latest.isoformat() if latest else '-'}):")
    print(" ".join(d.isoformat() for d in dates))
    return 0


def cmd_lotto_import(args: argparse.Namespace) -> int:
    from bot.lottery.formats import ARCHIVE_MEMBER, Unusable, archive_text, is_zip

    try:
        raw = args.path.read_bytes()
    except OSError as exc:
        return fail(f"cannot read {args.path}: {exc.strerror}")
    try:
        # The official history zip is read as it comes: its one member is the archive text.
        text = archive_text(raw) if is_zip(raw) else read_utf8(str(args.path), raw)
    except Unusable as exc:
        return fail(f"{args.path}: {exc.problem}; give the official zip holding {ARCHIVE_MEMBER}, or that text file")
    except ValueError:
        return fail(f"{args.path} is not a text file in the archive format (YYYY/MM/DD<TAB>WHEEL<TAB>n1..n5) "
                    f"nor the official zip holding {ARCHIVE_MEMBER}")
    service = _service(args)
    # "import:<file>": verify names such draws as imported, not fetched from two agreeing sources.
    report, progress = service.import_draws(text, f"import:{args.path.name}")
    print(report.summary())
    for line in [*report.errors, *report.conflicts, *report.incomplete]:
        print(f"  {line}")
    for name, messages in progress.items():
        print(f"Campaign '{name}':")
        for m in messages:
            print(f"  {m}")
    return 1 if report.conflicts or report.errors or report.incomplete else 0


def not_utf8(where: str, data: bytes, error: UnicodeDecodeError) -> str:
    bad = data[error.start:error.end]
    return (f"{where} is not UTF-8 (byte 0x{bad[:1].hex()} at position {error.start}): "
            "save it as UTF-8 (most editors: 'Save with encoding') and try again")


def read_utf8(where: str, data: bytes) -> str:
    """Bytes as strict UTF-8 text (a BOM dropped); ValueError with `not_utf8`'s message otherwise."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(not_utf8(where, data, exc)) from None


def cmd_post(args: argparse.Namespace) -> int:
    try:
        if args.text == "-":
            text = read_utf8("standard input", sys.stdin.buffer.read())
        else:
            # Python decodes argv with surrogateescape: bytes that were not UTF-8 come back as they were typed.
            text = read_utf8("the text", os.fsencode(args.text))
    except ValueError as exc:
        return fail(str(exc))
    from bot.cli.post_client import BotDidNotAnswer, post_through_bot

    try:
        served = post_through_bot(args.db, args.author, text, args.campaign)
    except BotDidNotAnswer as exc:
        return fail(str(exc), EXIT_FAILED)
    if served is not None:  # a running bot serves this file: it wrote the post
        return emit(served.text, EXIT_OF.get(served.outcome, EXIT_FAILED))
    from bot.service.direct_post import post_directly

    direct = post_directly(args.db, args.author, text, args.campaign)
    if direct is not None:  # written here over sqlite3, as the service writes it
        return emit(direct.render(), EXIT_OF[direct.outcome])
    service = _service(args)
    check_writable(service.engine)  # a read-only database says so here, not as an internal error after the post
    reply = service.post(args.author, text, args.campaign)
    return emit(reply.render(), EXIT_OF[reply.outcome])


def cmd_state(args: argparse.Namespace) -> int:
    from bot.cli.reading import chain_warning_of, folded
    from bot.store.campaign_names import CampaignNotFound

    try:
        ruleset, state = folded(args.db, args.campaign)
        warning = chain_warning_of(args.db, args.campaign)
    except CampaignNotFound as exc:
        return fail(str(exc))
    for line in warning:  # a test chain: on stderr with --json, which keeps stdout JSON
        print(line, file=sys.stderr if args.json else sys.stdout)
    print(canonical.dumps(ruleset.public_view(state), indent=2) if args.json else ruleset.status(state))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from bot.service.legatus import CampaignNotFound

    if not args.out.parent.is_dir():
        return fail(f"cannot write {args.out}: there is no folder {args.out.parent}; create it first or give another --out")
    try:
        text = _service(args).export(args.campaign)
    except CampaignNotFound as exc:
        return fail(str(exc))
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        return fail(f"cannot write {args.out}: {exc.strerror or exc}; nothing else was changed", EXIT_FAILED)
    print(f"{text.count(chr(10))} events written to {args.out}")
    from bot.service.chain_warning import export_warning

    for line in export_warning(text):
        print(line)  # the log says it too, in campaign.created
    return 0


class NotALog(Rejection):
    """The file given as a log is no Legatus log at all (binary, empty, not JSON lines)."""


def database_problem(exc: BaseException, db: str | None) -> str | None:
    """One line for a database SQLite (or another engine) refuses to use, or None for any other failure."""
    from sqlalchemy.exc import DBAPIError

    if not isinstance(exc, DBAPIError):
        return None
    said = str(getattr(exc, "orig", exc)).strip()
    where = db or os.environ.get("DATABASE_URL") or "legatus.db"
    if "not a database" in said or "malformed" in said:
        return (f"{where} is not a Legatus database (SQLite says: {quote(said)}): give the right --db, "
                "or restore a backup (legatus restore)")
    if "readonly" in said or "read-only" in said:
        return (f"cannot write {where}: the database is read-only (SQLite says: {quote(said)}); nothing was "
                "changed: give the bot's user write access to the file and its folder")
    if "unable to open" in said:
        return f"cannot open the database {where} (SQLite says: {quote(said)}): check the path and its folder"
    if "locked" in said or "busy" in said:
        return f"the database {where} is busy (SQLite says: {quote(said)}): try again in a moment"
    return f"the database {where} failed: {quote(said)}"


def read_log(path: Path) -> list[Event]:
    """A log's events; NotALog (with one line saying why) if the file is none."""
    try:
        text = read_utf8(str(path), path.read_bytes())
    except ValueError as exc:
        raise NotALog(str(exc)) from None
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            events.append(Event.from_dict(json.loads(line)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise NotALog(f"{path}:{number}: not an event of a Legatus log ({quote(str(exc))})") from None
    if not events:
        raise NotALog(f"{path} holds no event: give a log written by legatus export")
    return events


def log_damage(events: list[Event], exc: BaseException) -> str:
    """Why a log that crashed the rules is bad: its first break in the hash chain, else the error itself."""
    from engine.ledger import chain_problems

    problems = chain_problems(events)
    if problems:
        seq, problem = problems[0]
        return f"event #{seq} {problem} (hash chain)"
    reason = exc.reason if isinstance(exc, Rejection) else f"{type(exc).__name__}: {exc}"
    return f"an event the rules cannot read ({quote(reason)})"


def cmd_replay(args: argparse.Namespace) -> int:
    from bot.service.legatus import DATA_DIR

    try:
        events = read_log(args.log)
        ruleset = load_ruleset(str(events[0].data.get("ruleset")), DATA_DIR)
        folded = replay(ruleset, events)
    except NotALog as exc:
        return fail(str(exc), EXIT_FAILED)
    except DamagedLog as exc:
        return fail(exc.message, EXIT_FAILED)
    except OSError as exc:
        return fail(f"cannot read {args.log}: {exc.strerror}")
    except KeyError as exc:
        return fail(str(exc.args[0]))
    except Rejection as exc:
        return fail(f"the log does not replay: {exc.reason}", 1)
    except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
        # A changed event the rules cannot even read: say what the hash chain says about it.
        return fail(f"the log does not replay: {log_damage(events, exc)}", 1)
    if args.json:
        print(canonical.dumps(ruleset.public_view(folded.state), indent=2))
    else:
        print(ruleset.status(folded.state))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from bot.cli.verify_command import verify_log

    return verify_log(args)


def cmd_console(args: argparse.Namespace) -> int:
    from bot.console.offline import Console

    console = Console(_service(args), args.campaign, args.author)
    if args.script is not None:
        try:
            return console.play_script(args.script.read_text(encoding="utf-8"))
        except OSError as exc:
            return fail(f"cannot read {args.script}: {exc.strerror}")
    return console.interactive(sys.stdin)


def cmd_run(args: argparse.Namespace) -> int:
    from bot.store.backup import BackupError, sqlite_path
    from bot.store.db import database_url
    from bot.store.running import running

    try:
        held = sqlite_path(database_url(args.db))
    except BackupError:
        held = None
    with running(held):  # `legatus restore` refuses to replace the store while this bot holds it
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from bot.store.shards import ALL, SHARD_COUNT, SHARD_ID, shard_from

    try:
        shard = shard_from(args.shard_id if args.shard_id is not None else os.environ.get(SHARD_ID),
                           args.shard_count if args.shard_count is not None else os.environ.get(SHARD_COUNT))
    except ValueError as exc:
        return fail(str(exc))
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        from bot.console.offline import interactive_with_scheduler

        print("No DISCORD_TOKEN set: starting the offline console (type :help).", file=sys.stderr)
        if shard != ALL:
            print(f"({shard.describe()} applies to Discord only: the console serves every campaign.)", file=sys.stderr)
        return interactive_with_scheduler(_service(args), args.campaign, None, sys.stdin)
    from bot.discord.bot import run_bot

    return run_bot(token, args.db, shard)


if __name__ == "__main__":
    sys.exit(main())
