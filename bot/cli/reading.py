"""What the read-only commands (`legatus map`, `chart`, `state`, `ledger`) read: through the stdlib reader of a
SQLite store (bot/store/reader.py) when it can, else through the service. Both fold the campaign the same way and
raise the same CampaignNotFound, so a command cannot tell which answered but by its speed."""
from __future__ import annotations

import os
from typing import Any

from bot.render.history import state_at_close
from bot.service.data_dir import DATA_DIR
from bot.store.reader import open_store
from engine.ruleset import Ruleset


def _service(db: str | os.PathLike[str] | None) -> Any:
    from bot.service.legatus import Legatus
    from bot.store.db import open_engine

    return Legatus(open_engine(db))


def folded(db: str | os.PathLike[str] | None, campaign: str | None, turn: int | None = None) -> tuple[Ruleset, Any]:
    """The campaign's ruleset and game state, now or when turn ``turn`` closed (TurnNotPlayed if it has not)."""
    store = open_store(db)
    if store is None:
        from bot.render.history import folded_at_turn

        return folded_at_turn(_service(db), campaign, turn)
    try:
        record = store.campaign(campaign)
        ruleset, fold = store.fold(record, DATA_DIR)
        if turn is None:
            return ruleset, fold.state
        # The fold now (from the snapshot, with the events after it) says which turns have closed: the log is
        # replayed only up to the close asked for.
        return ruleset, state_at_close(ruleset, store.events(record), turn, now=fold)
    finally:
        store.close()


def chain_warning_of(db: str | os.PathLike[str] | None, campaign: str | None) -> list[str]:
    """The campaign's "test chain: not verifiable" line, or none (bot/service/chain_warning.py): from its first
    event alone where the store can be read directly (a `legatus state` should not read the whole log for it)."""
    from bot.service.chain_warning import chain_warning, export_warning

    store = open_store(db)
    if store is None:
        return export_warning(export(db, campaign))
    try:
        return chain_warning(store.created(store.campaign(campaign)))
    finally:
        store.close()


def export(db: str | os.PathLike[str] | None, campaign: str | None) -> str:
    """The campaign's log as exported: one event per line, as stored."""
    store = open_store(db)
    if store is None:
        return str(_service(db).export(campaign))
    try:
        return store.export(store.campaign(campaign))
    finally:
        store.close()
