"""Only the parser of the command a command line names: `legatus map ...` needs `map`'s, not the other fifteen.

argparse makes, for every command it is told of, a parser, a help formatter per argument (each asking the terminal's
size) and a gettext look-up per help string (each looking for translation files): about 10 ms of CPU for all of
`legatus`'s commands and subcommands, more than `legatus map` spends reading its campaign. ``build_parser`` (bot/cli/main.py) hands
the commands' ``add_parser`` calls to ``OnlyCommand``, which builds the named command's parser and skips the others.
A line that names no command (``legatus``, ``legatus --help``) or one that is not a command (a typo, which argparse
answers with the list of commands) gets every parser, as before.
"""
from __future__ import annotations

import argparse
from typing import Any, cast


def named_command(argv: list[str]) -> str | None:
    """The command ``argv`` starts with, if it starts with a word (the top level has no options of its own but -h)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


class Skipped:
    """What a command's parser is, and everything made from it, when the command line names another command:
    every call (``add_argument``, ``set_defaults``, ``add_subparsers``, ``add_parser``...) is taken and ignored."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> Skipped:
        return self


class OnlyCommand:
    """Stands for ``add_subparsers``'s action: ``add_parser`` builds the parser of ``command`` only; the rest is the
    action's own (``choices``: the parsers built, which a command's ``add_commands`` may look up)."""

    def __init__(self, sub: argparse._SubParsersAction[argparse.ArgumentParser], command: str) -> None:
        self.sub = sub
        self.command = command
        self.found = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sub, name)

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if name == self.command or self.command in kwargs.get("aliases", ()):
            self.found = True
            return self.sub.add_parser(name, **kwargs)
        # Typed as the parser its callers expect (bot/cli/main.py and the commands' add_commands): it takes the same
        # calls, and nothing reads it back.
        return cast(argparse.ArgumentParser, Skipped())
