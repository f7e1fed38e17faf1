"""The `legatus` command line (``bot.cli:main``): the offline face of the bot, through the same handlers as Discord.

Kept light: building the parser imports only argparse and the subcommands' own small modules; each handler
imports what it needs when it runs.
"""
from bot.cli.main import main, read_log

__all__ = ["main", "read_log"]
