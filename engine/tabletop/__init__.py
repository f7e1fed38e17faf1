"""Pieces every card and market game shares, one idea per module, all pure: decks declared as data and shuffled
from public chance (``decks``, ``shuffle``), what a seat holds under seal (``hands``), trades (``trades``), open
windows (``windows``), auctions (``auctions``), votes (``votes``) and chains of prompts (``chains``). A game keeps
them in its state and calls them from ``apply``; the shell sees them only through the ruleset boundary."""
