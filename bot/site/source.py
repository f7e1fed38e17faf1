"""The campaigns a site is made of: each one's name and public export, read from the store the bot writes.

Only ``export`` is read (the log as `legatus export` writes it): the site never opens the sealed contents, the
private files nor the snapshots, so nothing but the public record can reach it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol


class Exporting(Protocol):
    """What the site needs of ``bot.service.Legatus``: the campaigns' names and their public exports."""

    def campaign_names(self) -> list[str]: ...

    def export(self, campaign: str | None = None) -> str: ...


def public_exports(service: Exporting, only: str | None = None) -> Iterable[tuple[str, str]]:
    names = service.campaign_names()
    if only is not None:
        names = [n for n in names if n == only] or [only]  # an unknown name: export() says CampaignNotFound
    for name in sorted(names, key=str.lower):
        yield name, service.export(name)


def exports_of(service: Any, only: str | None = None) -> list[tuple[str, str]]:
    return list(public_exports(service, only))


def revision(service: Any) -> tuple[tuple[str, int], ...]:
    """Each campaign's name and last event number, in one query: the live site is written again when it changes."""
    from sqlmodel import Session

    from bot.store.campaigns import last_seqs, list_campaigns

    with Session(service.engine) as session:
        rows = list_campaigns(session)
        seqs = last_seqs(session, [r.id for r in rows if r.id is not None])
    return tuple(sorted((r.name, seqs.get(r.id or 0, 0)) for r in rows))
