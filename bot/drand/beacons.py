"""Where the service gets drand beacons: a client over the configured relays, asked only for rounds already due.

A post never waits on the network for a round still to come: ``BeaconSource(round)`` answers None until the
round's time has passed, and None again when no relay gives a verified beacon yet (the scheduler's fetch, or the
next post, tries again). Beacons are kept once verified: a round never changes.

Configuration: ``LEGATUS_DRAND_RELAYS`` (bot/drand/relays.py) and ``LEGATUS_DRAND_CHAIN``, a JSON file naming
another chain (``name``, ``hash``, ``public_key``, ``genesis``, ``period``), for a test network; quicknet else.
"""
from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.drand.client import DrandClient, DrandUnavailable, NotYet
from bot.drand.relays import relays_from_env
from engine.chance.drand import QUICKNET, Beacon, Chain

log = logging.getLogger("legatus.drand")


def chain_to_dict(chain: Chain) -> dict[str, Any]:
    return {"name": chain.name, "hash": chain.hash, "public_key": chain.public_key, "genesis": chain.genesis,
            "period": chain.period}


def chain_from_dict(data: Mapping[str, Any] | None) -> Chain:
    if not data:
        return QUICKNET
    return Chain(name=str(data["name"]), hash=str(data["hash"]), public_key=str(data["public_key"]),
                 genesis=int(data["genesis"]), period=int(data["period"]))


def chain_from_env(environ: Mapping[str, str] = os.environ) -> Chain:
    path = environ.get("LEGATUS_DRAND_CHAIN")
    if not path:
        return QUICKNET
    try:
        return chain_from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"LEGATUS_DRAND_CHAIN={path[:80]}: not a chain file ({exc}); write JSON with name, hash, "
                         "public_key, genesis and period, or unset it for quicknet") from None


class BeaconSource:
    def __init__(self, client: DrandClient, clock: Callable[[], float] = time.time) -> None:
        self.client = client
        self.clock = clock
        self._kept: dict[int, Beacon] = {}

    @property
    def chain(self) -> Chain:
        return self.client.chain

    @property
    def newest(self) -> int | None:
        """The newest round whose beacon this source verified: it was produced before anything done now."""
        return max(self._kept) if self._kept else None

    def __call__(self, round_number: int) -> Beacon | None:
        if round_number in self._kept:
            return self._kept[round_number]
        if self.client.chain.time_of(round_number) > self.clock():
            return None
        try:
            beacon = self.client.fetch(round_number, wait_up_to=0)
        except NotYet:
            return None
        except DrandUnavailable as exc:
            log.warning("%s", exc)
            return None
        self._kept[round_number] = beacon
        return beacon


def from_env(environ: Mapping[str, str] = os.environ) -> BeaconSource:
    timeout = float(environ.get("LEGATUS_DRAND_TIMEOUT", "5") or 5)
    return BeaconSource(DrandClient(chain_from_env(environ), relays_from_env(environ), timeout=timeout, attempts=2))
