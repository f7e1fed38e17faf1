"""engine/chance/pinned_chain.py: the chain a campaign's beacons are checked against is quicknet, pinned in the code,
whatever campaign.created names; another chain only with the test mark, which makes the campaign unverifiable."""
from __future__ import annotations

from typing import Any

import pytest

from engine.chance import drand
from engine.chance.pinned_chain import NOT_VERIFIABLE, TEST_MARK, campaign_chain, chain_to_dict, same_chain

QUICKNET = chain_to_dict(drand.QUICKNET)
OPERATORS = {"name": "operator's own", "hash": "ab" * 32, "public_key": "cd" * 48, "genesis": 1_700_000_000,
             "period": 3}


def test_a_log_naming_no_chain_or_quicknet_is_on_quicknet() -> None:
    for created in ({}, {"drand_chain": None}, {"drand_chain": QUICKNET},
                    {"drand_chain": {**QUICKNET, "public_key": QUICKNET["public_key"].upper()}}):
        pinned = campaign_chain(created)
        assert pinned.chain is drand.QUICKNET and not pinned.test and pinned.warning is None, created


@pytest.mark.parametrize("named", [
    OPERATORS,
    {**QUICKNET, "public_key": OPERATORS["public_key"]},  # quicknet's name and hash, the operator's key
    {**QUICKNET, "genesis": QUICKNET["genesis"] + 3_000_000},  # round numbers that were public long ago
    {**QUICKNET, "period": 30},
])
def test_a_log_naming_another_chain_without_the_mark_is_checked_against_quicknet(named: dict[str, Any]) -> None:
    """Operator with the database: campaign.created edited to name a chain whose key, or round times, they chose.
    The beacons are still checked against quicknet's key and times, and the campaign carries a finding."""
    pinned = campaign_chain({"drand_chain": named})
    assert pinned.chain is drand.QUICKNET and not pinned.test
    assert pinned.warning is not None and "not quicknet" in pinned.warning and "no test mark" in pinned.warning
    assert named["name"] in pinned.warning


def test_a_marked_test_chain_is_used_and_never_verifiable() -> None:
    pinned = campaign_chain({"drand_chain": OPERATORS, TEST_MARK: NOT_VERIFIABLE})
    assert pinned.test and same_chain(pinned.chain, drand.Chain(**OPERATORS))
    assert pinned.warning is not None and pinned.warning.startswith(NOT_VERIFIABLE)
    assert "operator's own" in pinned.warning and "abababab" in pinned.warning
    # The mark on quicknet itself (an edited log) still makes the campaign unverifiable: the mark is never a pass.
    assert campaign_chain({"drand_chain": QUICKNET, TEST_MARK: True}).test


@pytest.mark.parametrize("named", ["quicknet", ["x"], {"name": "x"}, {**QUICKNET, "genesis": "soon"}, 42])
def test_an_unreadable_chain_is_a_finding_never_a_crash(named: Any) -> None:
    """Nothing stored stops the bot or verify: a chain that cannot be read is quicknet, with a problem."""
    pinned = campaign_chain({"drand_chain": named})
    assert pinned.chain is drand.QUICKNET
    assert pinned.warning is not None and "cannot be read" in pinned.warning


def test_chains_are_the_same_by_what_decides_signatures_and_times_not_by_name() -> None:
    assert same_chain(drand.Chain(**{**QUICKNET, "name": "another label"}), drand.QUICKNET)
    assert not same_chain(drand.Chain(**{**QUICKNET, "public_key": OPERATORS["public_key"]}), drand.QUICKNET)
    assert not same_chain(drand.Chain(**QUICKNET, scheme="pedersen-bls-chained"), drand.QUICKNET)
