"""`legatus dev-discord`: the parser only; the fake Discord (bot.devdiscord) is imported when the command runs.

The bot's own start-up never loads the fake: this is the one module of ``bot`` that may import it.
"""
from __future__ import annotations

import argparse
from typing import Any


def add_commands(sub: Any) -> None:
    """Register `legatus dev-discord` on the `legatus` subparsers."""
    sp = sub.add_parser("dev-discord", help="run a fake Discord on this machine and watch the bot work against it")
    sp.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sp.add_argument("--port", type=int, default=8765, help="port to listen on (default 8765; 0 = any free port)")
    sp.add_argument("--token", default=None, help="the bot token to accept (default: a fixed fake token)")
    sp.set_defaults(func=cmd_dev_discord)


def cmd_dev_discord(args: argparse.Namespace) -> int:
    from bot.devdiscord.session import cmd_dev_discord as run

    return run(args)
