"""The line every view of a campaign not drawn from quicknet carries (/ledger, /state, the CLI's ledger, state and
export): "test chain: not verifiable", or that its log names a chain it does not use (engine/chance/pinned_chain.py).
A quicknet or lottery campaign gets no line."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.chance.pinned_chain import campaign_chain


def chain_warning(created: Mapping[str, Any]) -> list[str]:
    """The warning for the campaign whose ``campaign.created`` data this is, as a list of zero or one line."""
    warning = campaign_chain(created).warning
    return [f"⚠ {warning}"] if warning else []


def log_warning(events: Sequence[Any]) -> list[str]:
    """The same for a log's events (``campaign.created`` first)."""
    return chain_warning(events[0].data) if events else []


def export_warning(text: str) -> list[str]:
    """The same for an exported log's text (one event a line, ``campaign.created`` first)."""
    import json

    first = text.split("\n", 1)[0]
    return chain_warning(json.loads(first).get("data") or {}) if first.strip() else []
