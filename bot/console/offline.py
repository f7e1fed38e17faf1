"""The offline console: people type as they would in the campaign channel, `NAME> TEXT`."""
from __future__ import annotations

import contextlib
import re
import shlex
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from bot.service.legatus import CampaignNotFound, Legatus
from engine.rulesets import registered

DISCORD_TIME = re.compile(r"<t:(\d+):([FRf])>")


def readable(text: str) -> str:
    """Discord shows <t:UNIX:F> in each reader's own time zone; a terminal gets UTC written out."""
    from datetime import datetime, timezone

    def one(match: re.Match[str]) -> str:
        moment = datetime.fromtimestamp(int(match.group(1)), timezone.utc)
        return moment.strftime("%a %d %b %Y %H:%M UTC") if match.group(2) != "R" else "by"

    # "<t:..:R> (<t:..:F>)" is the pair the bot writes: keep only the written-out time.
    return re.sub(r"by \(([^()]*UTC)\)", r"\1", DISCORD_TIME.sub(one, text))


SPEAKER = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*[>:]\s?(.*)$")
HELP = """Type what a user posts, as NAME> TEXT (e.g. alice> build temple in Latium); a line without a
name speaks as the last speaker. Console commands:
  :new NAME [ruleset] SEAT=USER ... [gm=USER] [clock=live|historical] [randomness=drand|lottery|commit-reveal] [options=A,B]   create a campaign
  :import PATH          import lottery draws (official archive format)
  :use CAMPAIGN         switch campaign        :status   the status board
  :as NAME              set the speaker        :quit     leave"""


def interactive_with_scheduler(service: Legatus, campaign: str | None, author: str | None, stream: TextIO) -> int:
    """The console as the bot's offline face: deadlines, reminders and lottery fetches run while people type.

    SIGTERM or SIGINT stop it gracefully, as the Discord bot (bot/discord/bot.py): no job starts any more, the jobs
    running, the line being applied and the `legatus post` being served finish (at most DRAIN_SECONDS), exit 0."""
    import asyncio

    from bot.schedule.scheduler import DRAIN_SECONDS, STOP_SIGNALS, RecordingPoster, start_scheduler, stop_scheduler

    from bot.service.local_posts import LocalPosts

    console = Console(service, campaign, author)

    async def post(who: str, text: str, name: str | None) -> Any:
        return await asyncio.to_thread(service.post, who, text, name)

    async def run() -> int:
        loop = asyncio.get_running_loop()
        scheduler = await start_scheduler(service, RecordingPoster(echo=lambda text: print(f"\n[legatus] {readable(text)}", flush=True)))
        # `legatus post` from another terminal goes through this console's service while it runs.
        local = LocalPosts.of_store(service.engine, post)
        if local is not None:
            await local.start()
        # A daemon thread, not asyncio.to_thread: a stop must not wait for a line nobody types (the thread blocked
        # in readline is left behind at exit; the line it was applying, if any, is waited for below).
        typed: asyncio.Future[int] = loop.create_future()

        def failed(exc: BaseException) -> None:
            if not typed.done():
                typed.set_exception(exc)

        def finished(result: int) -> None:
            if not typed.done():
                typed.set_result(result)

        def read_lines() -> None:
            try:
                result = console.interactive(stream)
            except BaseException as exc:  # told to the loop, which reports it like any failure of the command
                tell(lambda: failed(exc))
            else:
                tell(lambda: finished(result))

        def tell(callback: Any) -> None:
            # A stop may have ended the run already (its terminal reached end of file as the process exited).
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(callback)

        stop = asyncio.Event()
        installed = []
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):  # no loop signals off Unix's main thread
                loop.add_signal_handler(sig, stop.set)
                installed.append(sig)
        threading.Thread(target=read_lines, name="legatus-console", daemon=True).start()
        stopping = loop.create_task(stop.wait())
        try:
            either: list[asyncio.Future[int] | asyncio.Task[bool]] = [typed, stopping]
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for sig in installed:
                loop.remove_signal_handler(sig)
            stopping.cancel()
            deadline = loop.time() + DRAIN_SECONDS
            if stop.is_set():
                print("legatus: stopping: no new line or job is taken; finishing what is under way", file=sys.stderr)
                console.stopping = True
            cut = await stop_scheduler(scheduler, timeout=DRAIN_SECONDS)
            if local is not None:  # the `legatus post` connections it accepted are answered first
                await local.close(max(0.0, deadline - loop.time()))
            # The line being applied ends its transaction; none starts after (Console.stopping).
            if not await asyncio.to_thread(console.busy.acquire, True, max(0.0, deadline - loop.time())):
                cut += 1
            if stop.is_set() and cut:
                # Said, so that an operator (and a test) knows the bound was reached, whatever the machine's speed.
                print(f"legatus: cut by the stop after {DRAIN_SECONDS:g} s: {cut} job(s) or line(s) left unfinished",
                      file=sys.stderr)
        return typed.result() if typed.done() and not stop.is_set() else 0

    return asyncio.run(run())


class Console:
    def __init__(self, service: Legatus, campaign: str | None = None, author: str | None = None) -> None:
        self.service = service
        self.campaign = campaign
        self.author = author
        # Held while a line is handled; a graceful stop (interactive_with_scheduler) sets ``stopping``, after which
        # no line is taken, then waits for the line under way.
        self.busy = threading.Lock()
        self.stopping = False

    def interactive(self, stream: TextIO) -> int:
        names = self.service.campaign_names()
        if not names:
            print("No campaign in this database yet. Create one, e.g.:\n  :new demo GAME SEAT=alice SEAT=bob (GAME: one of "
                  f"{', '.join(registered())})\nType :help for more.")
        else:
            print(f"Campaigns: {', '.join(names)}. Type :help for help.")
        # Typed at a terminal, the prompt shows who speaks; piped in, each line is echoed with its speaker instead, so
        # the transcript reads "alice> pass" followed by its answer, never a prompt glued to the next answer.
        typed = hasattr(stream, "isatty") and stream.isatty()
        while True:
            try:
                if typed:
                    print(f"{self.author or ''}> ", end="", flush=True)
                line = stream.readline()
            except KeyboardInterrupt:
                print()
                return 0
            if not line:
                if typed:
                    print()
                return 0
            text = line.rstrip("\n")
            if not typed and text.strip():
                match = SPEAKER.match(text)
                speaker = match.group(1) if match else self.author
                shown = match.group(2) if match else text
                print(f"{speaker or '(nobody)'}> {shown}")
            with self.busy:
                if self.stopping:
                    return 0
                if self.handle(text) == "quit":
                    return 0

    def play_script(self, text: str) -> int:
        for post in self.posts(text.splitlines()):
            print(f"{post[0]}: {post[1]}" if post[0] else post[1])
            self.handle_post(*post)
        return 0

    @staticmethod
    def posts(lines: Iterable[str]) -> list[tuple[str | None, str]]:
        """Transcript lines: `NAME: TEXT`; an indented line continues the post above it; '#' lines are comments."""
        out: list[tuple[str | None, str]] = []
        for raw in lines:
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            if raw[:1].isspace() and out:
                who, text = out[-1]
                out[-1] = (who, text + "\n" + raw.strip())
                continue
            match = SPEAKER.match(raw)
            out.append((match.group(1), match.group(2)) if match else (None, raw.strip()))
        return out

    def handle(self, line: str) -> str | None:
        if not line.strip():
            return None
        if line.strip().startswith(":"):
            return self.meta(line.strip()[1:])
        match = SPEAKER.match(line)
        if match and not line.lstrip().startswith("/"):
            if match.group(2).startswith(":"):
                self.author = match.group(1)
                return self.meta(match.group(2)[1:])
            self.handle_post(match.group(1), match.group(2))
        else:
            self.handle_post(None, line)
        return None

    def handle_post(self, who: str | None, text: str) -> None:
        if who:
            self.author = who
        if not self.author:
            print("Who is speaking? Write NAME> TEXT, or set a speaker with :as NAME.")
            return
        print(readable(self.service.post(self.author, text, self.campaign).render()))

    def meta(self, command: str) -> str | None:
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        if verb in ("quit", "q", "exit"):
            return "quit"
        if verb == "help":
            print(HELP)
        elif verb == "as" and args:
            self.author = args[0]
        elif verb == "use" and args:
            self.campaign = args[0]
        elif verb == "status":
            try:
                print(self.service.status(self.campaign))
            except CampaignNotFound as exc:
                print(exc)
        elif verb == "import" and args:
            try:
                text = Path(args[0]).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                print(f"cannot read {args[0]}: {exc}")
                return None
            report, progress = self.service.import_draws(text, Path(args[0]).name)
            print(report.summary())
            for line in [*report.errors, *report.conflicts]:
                print(f"  {line}")
            for messages in progress.values():
                for m in messages:
                    print(f"  {m}")
        elif verb == "new" and args:
            self._new(args)
        else:
            print(f"unknown console command ':{command}'\n{HELP}")
        return None

    def _new(self, args: list[str]) -> None:
        name, rest = args[0], args[1:]
        from engine.rulesets import DEFAULT

        ruleset = DEFAULT  # the registry's default game, named there (the shell names none)
        if rest and "=" not in rest[0]:
            ruleset, rest = rest[0], rest[1:]
        # No randomness given: the game's own (``Ruleset.randomness``), as `legatus new` and Discord do.
        players, gm, clock = {}, "gm", "historical"
        randomness: str | None = None
        options: list[str] = []
        for item in rest:
            key, _, value = item.partition("=")
            if key.lower() == "gm":
                gm = value
            elif key.lower() == "clock":
                clock = value
            elif key.lower() == "randomness":
                randomness = value
            elif key.lower() == "options":
                options = [o for o in value.split(",") if o]
            elif value:
                players[key] = value
            else:
                print(f"'{item}': write SEAT=USER (e.g. Romans=alice)")
                return
        created = self.service.create_campaign(name, ruleset, gm, players, clock=clock, randomness=randomness,
                                               options=options)
        print(created.render())
        if created.changed:  # a refused creation leaves the console on the campaign it was on
            self.campaign = name
