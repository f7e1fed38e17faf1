"""Which drand chain a campaign's beacons are checked against: quicknet, pinned in the code, whatever the log says.

A chain's public key decides which signatures are valid. Whoever holds a chain's secret key can sign any round in
advance, so a campaign on such a chain has every drand roll, every commit-reveal number mixed with it and every
stratagem pick known before it is bound. The log's ``campaign.created`` names the chain (``drand_chain``), but the
name is only a claim of whoever wrote the log: verify and the bot take the chain from here.

* No chain named, or quicknet named (hash, key, genesis, period, scheme all equal): quicknet.
* Another chain with the test mark (``drand_test_chain``, written by a bot run in test mode): that chain, to run a
  test network, and the campaign is "test chain: not verifiable" everywhere; verify never passes it.
* Another chain without the mark (an edited log or environment): quicknet, and a problem that verify reports. Its
  beacons are then checked against quicknet's key, which the operator's signatures do not satisfy.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.chance.drand import QUICKNET, Chain

TEST_MARK = "drand_test_chain"  # the key of campaign.created that marks a test chain
NOT_VERIFIABLE = "test chain: not verifiable"  # its value, and what every view of such a campaign says


@dataclass(frozen=True)
class CampaignChain:
    """The chain a campaign's beacons come from; ``test``: a test chain, ``problem``: the log names another chain
    than the one used, and why that is a fault."""

    chain: Chain
    test: bool = False
    problem: str | None = None

    @property
    def warning(self) -> str | None:
        """One line for every view of a campaign that cannot be verified (None for a quicknet campaign)."""
        if self.test:
            return (f"{NOT_VERIFIABLE}: the drand chain '{self.chain.name}' ({self.chain.hash[:16]}…) is not quicknet; "
                    "whoever holds its key knew every roll drawn from it")
        return self.problem


def chain_to_dict(chain: Chain) -> dict[str, Any]:
    return {"name": chain.name, "hash": chain.hash, "public_key": chain.public_key, "genesis": chain.genesis,
            "period": chain.period}


def chain_from_dict(data: Mapping[str, Any] | None) -> Chain:
    """The chain a ``drand_chain`` object describes (quicknet for none); KeyError, TypeError or ValueError if it
    cannot be read."""
    if not data:
        return QUICKNET
    return Chain(name=str(data["name"]), hash=str(data["hash"]), public_key=str(data["public_key"]),
                 genesis=int(data["genesis"]), period=int(data["period"]),
                 scheme=str(data.get("scheme") or QUICKNET.scheme))


def same_chain(a: Chain, b: Chain) -> bool:
    """Both name the same signatures and round times; the name is a label and decides nothing."""
    return (a.hash.lower(), a.public_key.lower(), a.genesis, a.period, a.scheme) == (
        b.hash.lower(), b.public_key.lower(), b.genesis, b.period, b.scheme)


def is_quicknet(chain: Chain) -> bool:
    return same_chain(chain, QUICKNET)


def describe(chain: Chain, key: bool = False) -> str:
    """The chain in a message; ``key``: with its public key too (two chains may share a name and a hash)."""
    return f"'{chain.name[:40]}' (hash {chain.hash[:16]}…" + (f", key {chain.public_key[:16]}…)" if key else ")")


def campaign_chain(created: Mapping[str, Any]) -> CampaignChain:
    """The pinned chain of the campaign whose ``campaign.created`` data this is."""
    named = created.get("drand_chain")
    marked = bool(created.get(TEST_MARK))
    try:
        if named is not None and not isinstance(named, Mapping):
            raise TypeError(f"{str(named)[:40]!r} is not an object")
        chain = chain_from_dict(named)
    except (KeyError, TypeError, ValueError) as exc:
        return CampaignChain(QUICKNET, marked, f"the drand chain named in campaign.created cannot be read ({exc}); "
                                               "its beacons are checked against quicknet's pinned key")
    if marked:
        return CampaignChain(chain, True)
    if is_quicknet(chain):
        return CampaignChain(QUICKNET)
    return CampaignChain(QUICKNET, False, (
        f"campaign.created names the drand chain {describe(chain)}, not quicknet ({QUICKNET.hash[:16]}…), and "
        "bears no test mark: a campaign draws from quicknet only, so its beacons are checked against quicknet's "
        "pinned key, not the key the log names"))
