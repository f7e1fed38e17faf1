"""Where the service gets drand beacons: a client over the configured relays, asked only for rounds already due.

A post never waits on the network for a round still to come: ``BeaconSource(round)`` answers None until the
round's time has passed, and None again when no relay gives a verified beacon yet (the scheduler's fetch, or the
next post, tries again). Beacons are kept once verified: a round never changes.

Configuration: ``LEGATUS_DRAND_RELAYS`` (bot/drand/relays.py) and ``LEGATUS_DRAND_CHAIN``, a JSON file naming
another chain (``name``, ``hash``, ``public_key``, ``genesis``, ``period``), for a test network; quicknet else.
Another chain is used only with ``LEGATUS_DRAND_TEST_CHAIN=1`` as well, and its campaigns are marked "test chain:
not verifiable" (engine/chance/pinned_chain.py): whoever holds its key knows every roll before it is bound.
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
from engine.chance.pinned_chain import (  # noqa: F401  (chain_from_dict, chain_to_dict: re-exported)
    NOT_VERIFIABLE, TEST_MARK, CampaignChain, chain_from_dict, chain_to_dict, describe, is_quicknet, same_chain,
)

log = logging.getLogger("legatus.drand")


CHAIN_ENV = "LEGATUS_DRAND_CHAIN"
TEST_ENV = "LEGATUS_DRAND_TEST_CHAIN"


class WrongChain(ValueError):
    """A beacon asked for a campaign pinned to another chain than this source's; the message says which."""


class ChainRefused(ValueError):
    """No new campaign may draw from this bot's drand chain; the message says why and what would be right."""


def test_mode_from_env(environ: Mapping[str, str] = os.environ) -> bool:
    """The operator's explicit opt-in to a chain other than quicknet (a test network)."""
    return environ.get(TEST_ENV, "").strip().lower() in ("1", "true", "yes")


def chain_from_env(environ: Mapping[str, str] = os.environ) -> Chain:
    path = environ.get(CHAIN_ENV)
    if not path:
        return QUICKNET
    try:
        return chain_from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{CHAIN_ENV}={path[:80]}: not a chain file ({exc}); write JSON with name, hash, "
                         "public_key, genesis and period, or unset it for quicknet") from None


# How long the bot's source asks no relay again after they all failed: one drand period (quicknet: 3 s).
RELAYS_DOWN_PAUSE = 3.0


class BeaconSource:
    """``test_chain``: the operator opted into a chain other than quicknet (``LEGATUS_DRAND_TEST_CHAIN=1``); without
    it such a chain serves no campaign.

    ``pause_after_failure`` (seconds, the bot's source: ``from_env``): a post asks for the rounds it waits for inside
    its transaction, which holds the database's write lock, so every other writer waits for the relays' answer. Such
    a source makes one pass over the relays, never sleeps for a backoff, and after the relays failed asks none of them
    again for that long (the scheduler's beacons job asks again every 5 s): relays that are down cost each process one
    pass per pause, not a pass and a backoff per round per post (with rolls waiting for many rounds, eight processes
    posting together held the lock for seconds each post and gave up their posts as "too busy")."""

    def __init__(self, client: DrandClient, clock: Callable[[], float] = time.time, *, test_chain: bool = False,
                 pause_after_failure: float = 0.0, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.clock = clock
        self.test_chain = test_chain
        self.pause_after_failure = pause_after_failure
        self.monotonic = monotonic
        # Until when (``monotonic``: a test's or replay's ``clock`` must not stretch it) no relay is asked again.
        self._quiet_until = 0.0
        self._tried: tuple[str, ...] = ()  # the relays the last failed pass asked
        self._kept: dict[int, Beacon] = {}
        # Rounds already produced that no relay gave, with the relays tried: what the players are told (beacon_pump).
        self.unreachable: dict[int, tuple[str, ...]] = {}

    @property
    def chain(self) -> Chain:
        return self.client.chain

    @property
    def is_test(self) -> bool:
        return not is_quicknet(self.chain)

    def creation_problem(self) -> str | None:
        """Why no new campaign may draw from this source (None: it may)."""
        if not self.is_test or self.test_chain:
            return None
        return (f"this bot is set to the drand chain {describe(self.chain)} ({CHAIN_ENV}), not quicknet "
                f"({QUICKNET.hash[:16]}…): whoever holds that chain's key would know every roll before it is bound. "
                f"Unset {CHAIN_ENV} to draw from quicknet, or, on a test network only, set {TEST_ENV}=1 as well: the "
                f"campaign is then marked '{NOT_VERIFIABLE}'")

    def refusal(self, pinned: CampaignChain) -> str | None:
        """Why this source must give no beacon to a campaign pinned to ``pinned`` (None: it may)."""
        if not same_chain(pinned.chain, self.chain):
            return (f"this campaign draws from the drand chain {describe(pinned.chain, key=True)}, but this bot "
                    f"fetches {describe(self.chain, key=True)}: its rolls wait until the bot is set to the "
                    "campaign's chain")
        if self.is_test and not self.test_chain:
            return (f"this campaign is on the test chain {describe(self.chain)}, but this bot is not in test mode "
                    f"({TEST_ENV}=1): its rolls wait")
        return None

    @property
    def newest(self) -> int | None:
        """The newest round whose beacon this source verified: it was produced before anything done now."""
        return max(self._kept) if self._kept else None

    def __call__(self, round_number: int, pinned: CampaignChain | None = None) -> Beacon | None:
        """The verified beacon of a round, or None until it is produced and fetched; WrongChain when ``pinned``,
        the chain of the campaign asking, is not this source's."""
        refused = self.refusal(pinned) if pinned is not None else None
        if refused:
            raise WrongChain(refused)
        if round_number in self._kept:
            return self._kept[round_number]
        if self.client.chain.time_of(round_number) > self.clock():
            return None
        if self.pause_after_failure and self.monotonic() < self._quiet_until:
            self.unreachable.setdefault(round_number, self._tried)
            return None
        try:
            beacon = self.client.fetch(round_number, wait_up_to=0, attempts=1 if self.pause_after_failure else None)
        except NotYet:
            return None
        except DrandUnavailable as exc:
            log.warning("%s", exc)
            self._tried = tuple(fault.relay for fault in exc.faults) or tuple(self.client.relays)
            self.unreachable[round_number] = self._tried
            self._quiet_until = self.monotonic() + self.pause_after_failure
            return None
        self.unreachable.pop(round_number, None)
        self._kept[round_number] = beacon
        return beacon


def from_env(environ: Mapping[str, str] = os.environ) -> BeaconSource:
    timeout = float(environ.get("LEGATUS_DRAND_TIMEOUT", "5") or 5)
    return BeaconSource(DrandClient(chain_from_env(environ), relays_from_env(environ), timeout=timeout, attempts=2),
                        test_chain=test_mode_from_env(environ), pause_after_failure=RELAYS_DOWN_PAUSE)


def campaign_fields(source: Callable[[], BeaconSource]) -> tuple[dict[str, Any], str]:
    """What a new drand or commit-reveal campaign's ``campaign.created`` says of its chain, and the sentence its
    announcement says it with; ChainRefused when the bot's chain may serve no new campaign."""
    try:
        chain_source = source()
    except ValueError as exc:  # a chain file or relay list that cannot be read: the message names it
        raise ChainRefused(str(exc)) from None
    problem = chain_source.creation_problem()
    if problem:
        raise ChainRefused(problem)
    chain = chain_source.chain
    # The chain's key goes into the log, so the campaign's beacons verify from the export alone.
    fields: dict[str, Any] = {"drand_chain": chain_to_dict(chain)}
    if not chain_source.is_test:
        return fields, (f"Its drand rounds come from quicknet, the League of Entropy's public chain, chain hash "
                        f"{chain.hash}: no one holds its key alone. ")
    fields[TEST_MARK] = NOT_VERIFIABLE
    return fields, (f"Its drand rounds come from the test chain '{chain.name}', chain hash {chain.hash}: "
                    f"{NOT_VERIFIABLE} (whoever holds its key knows every roll; legatus verify never passes it). ")
