"""`legatus dev-discord`: the fake Discord as a standalone server with a line prompt, to watch the bot work locally.

    legatus dev-discord --port 8765
    # in another shell, with the two printed lines in the environment:
    DISCORD_TOKEN=... DISCORD_API_BASE=http://127.0.0.1:8765/api/v10 legatus run

Then type `alice: build temple in Latium` (alice speaks in the current channel), `/gm turn status` (gm runs a
slash command), `:help` for the rest. Every REST call the bot makes is printed, its messages in full.
"""
from __future__ import annotations

import argparse
import asyncio
import re
import shlex
import sys
import threading
from typing import Any, Callable, TextIO

from bot.devdiscord.api import FakeDiscord, Invocation
from bot.devdiscord.model import DEV_PLAYERS, DevWorld, seed_dev_world
from bot.devdiscord.gateway_session import GatewayConnection
from bot.devdiscord.protocol import MESSAGE_CONTENT, RecordedRequest

HELP = """\
  NAME: TEXT              NAME posts TEXT in the current channel (\\n in TEXT starts a new line)
  NAME #CHANNEL: TEXT     ... in another channel or thread (by name)
  /NAME COMMAND [GROUP] [SUB] [ARGS]
                          NAME runs a slash command; ARGS are positional in the command's order (the last text
                          option takes the rest of the line) or name=value; quote with "..."
  :post NAME TITLE | TEXT NAME opens a post in the forum channel
  :in CHANNEL             change the current channel
  :users  :channels  :commands  :help  :quit"""


def cmd_dev_discord(args: argparse.Namespace) -> int:
    return asyncio.run(serve(args.host, args.port, token=args.token, stdin=sys.stdin, out=sys.stdout))


async def serve(host: str, port: int, *, token: str | None, stdin: TextIO, out: TextIO) -> int:
    async with FakeDiscord.start(host, port, token=token) as fake:
        dev = seed_dev_world(fake.world)
        console = DevConsole(fake, dev, out)
        console.banner()
        lines = _stdin_lines(stdin)
        while True:
            line = await lines.get()
            if line is None:
                # stdin ended (a script, or started in the background): keep serving until interrupted.
                await asyncio.Event().wait()
            elif not await console.handle(line):
                return 0


def _stdin_lines(stdin: TextIO) -> asyncio.Queue[str | None]:
    """Lines of stdin, read on a daemon thread: a blocked readline() must never keep the process from exiting."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        for line in stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\n"))
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, name="dev-discord-stdin", daemon=True).start()
    return queue


class DevConsole:
    """Turns prompt lines into user actions on the fake, and the bot's REST calls into readable lines."""

    def __init__(self, fake: FakeDiscord, dev: DevWorld, out: TextIO) -> None:
        self.fake = fake
        self.dev = dev
        self.out = out
        self.current = dev.channels["mare-nostrum"].id
        self._tasks: set[asyncio.Task[None]] = set()
        fake.on_request(self._show_request)
        fake.server.gateway_listeners.append(self._show_gateway)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def banner(self) -> None:
        d = self.dev
        self.say(f"Fake Discord listening on {self.fake.base_url} (gateway {self.fake.gateway_url})")
        self.say("")
        self.say("Start the bot against it with these lines in its environment:")
        self.say(f"DISCORD_TOKEN={self.fake.token}")
        self.say(f"DISCORD_API_BASE={self.fake.api_base}")
        self.say("")
        self.say(f"Guild '{d.guild.name}' ({d.guild.id}): #mare-nostrum ({d.channels['mare-nostrum'].id}), "
                 f"#campaign-forum forum ({d.channels['campaign-forum'].id})")
        self.say(f"Roles: GM ({d.roles['GM'].id}): gm; Player ({d.roles['Player'].id}): {', '.join(DEV_PLAYERS)}")
        self.say("")
        self.say("Type `alice: build temple in Latium`, `/gm turn status`, or :help. Ctrl-C (or :quit) stops.")

    # ---- input ---------------------------------------------------------------------------------------------

    async def handle(self, line: str) -> bool:
        """Act on one prompt line; False to stop."""
        line = line.strip()
        if not line or line.startswith("#!"):
            return True
        try:
            if line.startswith(":"):
                return await self._command(line)
            if line.startswith("/"):
                await self._slash(line[1:])
                return True
            found = re.fullmatch(r"([\w.-]+)(?:\s+#(.+?))?\s*:\s?(.*)", line, re.S)
            if found is None:
                self.say("?? write NAME: TEXT, /NAME COMMAND ..., or :help")
                return True
            name, channel, text = found.groups()
            target = self.fake.channel(channel).id if channel else self.current
            await self.fake.user_says(target, name, text.replace("\\n", "\n"))
        except (KeyError, LookupError, ValueError) as exc:
            self.say(f"!! {exc.args[0] if exc.args else exc}")
        return True

    async def _command(self, line: str) -> bool:
        word, _, rest = line[1:].partition(" ")
        if word in ("q", "quit", "exit"):
            return False
        if word == "help":
            self.say(HELP)
        elif word == "users":
            for user in self.fake.world.users.values():
                roles = [self.fake.world.roles[r].name for r in self.dev.guild.members[user.id].roles] \
                    if user.id in self.dev.guild.members else []
                self.say(f"  {user.username:10} {user.id}  {' '.join(roles)}{' (bot)' if user.bot else ''}")
        elif word == "channels":
            for channel in self.fake.world.guild_channels(self.dev.guild.id):
                kind = {0: "text", 4: "category", 15: "forum", 11: "thread", 12: "private thread"}.get(channel.type, "")
                mark = "*" if channel.id == self.current else " "
                self.say(f" {mark}#{channel.name:24} {channel.id}  {kind}")
        elif word == "commands":
            for command in self.fake.registered_commands:
                where = "guild" if command.get("guild_id") else "global"
                self.say(f"  /{command['name']} ({where}): {command.get('description', '')}")
                for option in command.get("options") or []:
                    self.say(f"      {option['name']}: {option.get('description', '')}")
            if not self.fake.registered_commands:
                self.say("  (the bot has registered no command yet)")
        elif word == "in":
            channel = self.fake.channel(rest.strip())
            self.current = channel.id
            self.say(f"now in #{channel.name}")
        elif word == "post":
            found = re.fullmatch(r"([\w.-]+)\s+(.+?)\s*\|\s*(.*)", rest.strip(), re.S)
            if found is None:
                self.say("?? :post NAME TITLE | TEXT")
                return True
            name, title, text = found.groups()
            thread, _ = await self.fake.user_posts(self.dev.channels["campaign-forum"].id, name, title,
                                                   text.replace("\\n", "\n"))
            self.say(f"{name} opened #{thread['name']} in #campaign-forum")
        else:
            self.say(f"?? unknown :{word} (try :help)")
        return True

    async def _slash(self, text: str) -> None:
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if len(words) < 2:
            raise ValueError("write /NAME COMMAND [ARGS], e.g. /gm turn status")
        user, name, args = words[0], words[1], words[2:]
        guild_id = self.fake.world.channels[self.current].guild_id
        command = self.fake.command(name, guild_id)
        if command is None:
            known = ", ".join(sorted(c["name"] for c in self.fake.registered_commands)) or "none yet"
            raise LookupError(f"/{name} is not registered (registered: {known})")
        schema = command.get("options") or []
        path: dict[str, str] = {}
        for kind, key in ((2, "group"), (1, "subcommand")):
            nested = [o for o in schema if o.get("type") == kind]
            if nested and args and args[0] in {o["name"] for o in nested}:
                path[key] = args.pop(0)
                schema = next(o for o in nested if o["name"] == path[key]).get("options") or []
        options = _fill_options(schema, args)
        invocation = await self.fake.invoke_slash(None, self.current, user, name, options, **path)
        task = asyncio.create_task(self._watch(invocation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch(self, invocation: Invocation) -> None:
        try:
            await invocation.wait_callback(timeout=self.fake.server.interaction_deadline + 0.5)
        except TimeoutError:
            self.say(f"!! the bot did not answer /{invocation.record.command_name} in time "
                     f"(Discord shows 'The application did not respond')")

    # ---- output --------------------------------------------------------------------------------------------

    def _where(self, channel_id: str) -> str:
        channel = self.fake.world.channels.get(channel_id)
        if channel is None:
            return channel_id
        if channel.type == 1:
            return f"DM with {self.fake.world.users[channel.recipients[0]].username}"
        return f"#{channel.name}"

    def _show_message(self, message: dict[str, Any], verb: str = "") -> None:
        flags = int(message.get("flags") or 0)
        where = self._where(message["channel_id"])
        who = message["author"]["username"]
        tags = []
        if flags & 64:
            tags.append("only the user sees it")
        if flags & 128:
            tags.append("thinking...")
        suffix = f" ({'; '.join(tags)})" if tags else ""
        self.say(f"[{where}] {who}{verb}:{suffix}")
        for text_line in (message.get("content") or "").splitlines():
            self.say(f"    {text_line}")
        for embed in message.get("embeds") or []:
            self.say(f"    | {embed.get('title') or ''}")
            for text_line in (embed.get("description") or "").splitlines():
                self.say(f"    | {text_line}")
            for fld in embed.get("fields") or []:
                self.say(f"    | {fld.get('name')}: {fld.get('value')}")
        for attachment in message.get("attachments") or []:
            self.say(f"    [file {attachment['filename']}, {attachment['size']} bytes: {attachment['url']}]")

    def _show_request(self, call: RecordedRequest) -> None:
        self.say(f"  bot -> {call.method} {call.path} {call.status}")
        body = call.response
        if not call.ok:
            self.say(f"  !! {body}")
            return
        if isinstance(body, dict) and "resource" in body and body["resource"].get("message"):
            self._show_message(body["resource"]["message"])
        elif isinstance(body, dict) and "author" in body and "channel_id" in body:
            self._show_message(body, " (edited)" if call.method == "PATCH" else "")
        elif isinstance(body, dict) and isinstance(body.get("message"), dict):
            self.say(f"[#{body.get('name')}] new forum post")
            self._show_message(body["message"])
        elif isinstance(body, dict) and "thread_metadata" in body and call.method == "POST":
            self.say(f"[#{body['name']}] new thread in {self._where(body['parent_id'])}")
        elif call.route.endswith("/callback") and isinstance(call.json, dict) and call.json.get("type") == 8:
            choices = [c.get("name") for c in (call.json.get("data") or {}).get("choices") or []]
            self.say(f"    choices: {', '.join(map(str, choices))}")
        elif isinstance(body, list) and call.method == "PUT" and "/commands" in call.path:
            self.say(f"    commands: {', '.join('/' + c['name'] for c in body)}")

    def _show_gateway(self, what: str, conn: GatewayConnection) -> None:
        session = conn.session
        if what == "identify" and session is not None:
            self.say(f"  bot connected to the gateway (intents {session.intents}, compress {conn.compress})")
            if not session.intents & MESSAGE_CONTENT:
                self.say("  !! the bot did not ask for the message content intent: it will see empty messages")
        elif what == "resume":
            self.say("  bot resumed its gateway session")
        elif what == "close":
            self.say(f"  bot disconnected from the gateway (close code {conn.close_code}, by the {conn.closed_by})")


def _fill_options(schema: list[dict[str, Any]], args: list[str]) -> dict[str, Any]:
    """Arguments to options: name=value pairs by name, the rest in the command's order; the last text option
    swallows what is left, so `/gm order Romans build temple in Latium` needs no quotes."""
    named: dict[str, Any] = {}
    positional: list[str] = []
    names = {o["name"] for o in schema}
    for arg in args:
        key, eq, value = arg.partition("=")
        if eq and key in names:
            named[key] = value
        else:
            positional.append(arg)
    free = [o for o in schema if o["name"] not in named]
    for i, option in enumerate(free):
        if not positional:
            break
        last_text = option.get("type") == 3 and all(o.get("type") != 3 for o in free[i + 1:])
        if last_text:
            named[option["name"]] = " ".join(positional)
            positional = []
        else:
            named[option["name"]] = positional.pop(0)
    if positional:
        raise ValueError(f"too many arguments: {' '.join(positional)}")
    return named


def main(argv: list[str] | None = None) -> int:
    """Run without the `legatus` entry point: python -m bot.devdiscord.session [--port N]."""
    from bot.cli.dev_discord import add_commands

    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["dev-discord", *(sys.argv[1:] if argv is None else argv)])
    handler: Callable[[argparse.Namespace], int] = args.func
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
