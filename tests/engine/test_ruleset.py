"""The ruleset boundary's optional methods: a game has them or not, and the shell asks through their protocols."""
from __future__ import annotations

from pathlib import Path

from engine.mediterranean_empires import rules_version as me_versions
from engine.rulesets import load_ruleset
from engine.ruleset import (DigestedRules, KeepsGM, MarksLedger, OffersOptions, ReadsRulesFiles,
                            RefusesShellCommands, VersionsRules, rules_digest)
from tests.games.blind_auction import load as load_blind_auction
from tests.log_tools import Unmarked

DATA = Path(__file__).parents[2] / "data"


def test_each_game_declares_the_optional_methods_it_has_and_only_those() -> None:
    mare_nostrum = load_ruleset("mare-nostrum", DATA)
    empires = load_ruleset("mediterranean-empires", DATA)
    auction = load_blind_auction(DATA)
    assert [isinstance(g, MarksLedger) for g in (mare_nostrum, empires, auction)] == [True, True, False]
    assert [isinstance(g, RefusesShellCommands) for g in (mare_nostrum, empires, auction)] == [False, True, False]
    assert [isinstance(g, OffersOptions) for g in (mare_nostrum, empires, auction)] == [False, True, False]


def test_a_game_that_hides_a_method_is_read_without_it() -> None:
    # verify's reference run (tests/log_tools.py) wraps a game to hide ledger_mark: the check must see it missing.
    assert not isinstance(Unmarked(load_ruleset("mare-nostrum", DATA)), MarksLedger)


def test_the_rules_version_and_digest_a_new_campaign_records_are_asked_through_their_protocols() -> None:
    mare_nostrum = load_ruleset("mare-nostrum", DATA)
    empires = load_ruleset("mediterranean-empires", DATA)
    auction = load_blind_auction(DATA)
    assert [isinstance(g, VersionsRules) for g in (mare_nostrum, empires, auction)] == [False, True, False]
    assert isinstance(empires, VersionsRules) and empires.rules_version == me_versions.NEWEST
    # Mare Nostrum is read from rules files whose digest a campaign records; Mediterranean Empires keeps rules with no
    # digest, the test game none: both give "".
    assert isinstance(mare_nostrum, ReadsRulesFiles) and isinstance(empires, ReadsRulesFiles)
    assert isinstance(mare_nostrum.rules, DigestedRules) and not isinstance(empires.rules, DigestedRules)
    assert rules_digest(mare_nostrum) == mare_nostrum.rules.digest and len(rules_digest(mare_nostrum)) == 64
    assert rules_digest(empires) == rules_digest(auction) == ""


def test_every_game_s_state_keeps_the_gm_the_fold_asks_for_an_undo() -> None:
    mare_nostrum = load_ruleset("mare-nostrum", DATA)
    empires = load_ruleset("mediterranean-empires", DATA)
    states = [mare_nostrum.initial_state({"players": {}, "gm": "mallory"}),
              empires.initial_state({"players": {}, "gm": "mallory", "randomness": "drand"})]
    assert [s.gm if isinstance(s, KeepsGM) else None for s in states] == ["mallory", "mallory"]
    assert not isinstance(object(), KeepsGM)
