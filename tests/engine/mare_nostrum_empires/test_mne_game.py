"""Whole games of Mare Nostrum: Empires to a victory by scripted players, at 3, 4 and 5 players, through the
ruleset alone (the console and Discord games are in tests/games/); each replayed from its public log without any
sealed content, to the same state."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_play import PLAYERS, Play

from engine.events import Rejection

ROW_VALUES = [12345, 67890]  # the row's shuffle: Spartacus, Leonidas, Great Library, Colossus of Rhodes, Temple...


def user(p: Play, empire: str) -> str:
    return p.state.players[empire] or "gm"


def trade(p: Play, token: str, offers: dict[str, str], picks: list[tuple[str, str, str]], give: str | None = None) -> None:
    """One Commerce phase: the Trade master's token, every offer sealed, the picks (picker, token, from)."""
    p.post(user(p, p.state.board.leaders["commerce"]), f"token {token}")
    for empire, offer in offers.items():
        p.post(user(p, empire), f"offer {offer}")
    for picker, what, target in picks:
        p.post(user(p, picker), f"take {what} from {target}")
    if give:
        p.post(user(p, p.state.board.leaders["commerce"]), f"give {give}")


def turns(p: Play, plays: dict[str, str]) -> None:
    """A Purchase or Military phase: the leader names the empires of ``plays`` first, in its order, each playing
    its lines, then every other empire, which only ends its turn."""
    assert p.state.turns is not None
    leader = p.state.turns.leader
    for empire in [*plays, *(e for e in p.state.board.empires if e not in plays)]:
        p.post(user(p, leader), f"next {empire}")
        p.post(user(p, empire), (plays.get(empire, "") + "\ndone").strip())


def claims(p: Play) -> None:
    """Every tie named by its previous leader, who keeps the title."""
    for prompt in p.rs.prompts(p.state):
        title = prompt.choices[0].split()[-1]
        p.post(user(p, prompt.seat), f"name {prompt.seat} {title}")


# Each game is played by the rules of a campaign created before abilities were played (None: no rules_version, as
# the recorded logs) and by the newest: none of its moves meets an ability that would change it.
VERSIONS = pytest.mark.parametrize("version", [None, 2])


@VERSIONS
def test_three_players_the_romans_win_by_holding_the_three_titles(version: int | None) -> None:
    p = Play(3, rules_version=version)
    trade(p, "II 2", {"Romans": "wine, tax", "Greeks": "oil, tax", "Carthaginians": "wheat, tax"},
          [("Carthaginians", "wine", "Romans"), ("Romans", "oil", "Greeks"), ("Greeks", "wheat", "Carthaginians"),
           ("Carthaginians", "tax", "Greeks"), ("Greeks", "tax", "Romans"), ("Romans", "tax", "Carthaginians")])
    assert p.state.board.screens["Romans"].goods == {"gladiators": 1, "marble": 2, "wine": 1, "oil": 1}
    turns(p, {"Romans": "buy legion in Rome with taxes\nbuy influence in Gallia Cisalpina with gladiators, marble, "
                        "wine"})
    assert p.state.board.screens["Romans"].taxes == 1 and p.state.board.screens["Romans"].goods == {}
    turns(p, {})
    claims(p)
    assert p.state.board.leaders == {"commerce": "Carthaginians", "politics": "Romans", "military": "Romans"}
    assert p.state.round == 2 and p.state.phase == "commerce"
    assert p.state.board.screens["Romans"].taxes == 5  # 1 kept and 4 produced
    trade(p, "I 1", {"Romans": "tax", "Greeks": "tax", "Carthaginians": "tax"},
          [("Carthaginians", "tax", "Romans"), ("Romans", "tax", "Greeks"), ("Greeks", "tax", "Carthaginians")])
    turns(p, {"Romans": "buy caravan in Gallia Cisalpina with taxes"})
    turns(p, {})
    assert p.state.phase == "over" and p.state.winners == [("Romans", "hold the three titles")]
    assert "The game is over: the Romans hold the three titles." in p.said
    replayed = p.replay()
    assert p.rs.public_view(replayed) == p.rs.public_view(p.state)
    with pytest.raises(Rejection, match="the game is over"):
        p.post("bob", "next Greeks")


# The row's tiles the 4-player game buys and sees: the open shuffle of version 1, the hidden deck of version 2 (its
# order keyed by the deck key mne_play.py's bot seals): round 1's two, the three left face up, round 2's two.
ROWS = {None: (("Spartacus", "Leonidas"), ("Great Library", "Colossus of Rhodes", "Temple of Artemis"),
               ("Great Library", "Colossus of Rhodes")),
        2: (("Spartacus", "Oracle of Delphi"), ("Alexander", "Mausoleum", "Colossus of Rhodes"),
            ("Lighthouse of Alexandria", "Statue of Zeus"))}


@VERSIONS
def test_four_players_the_romans_win_with_a_fifth_hero_or_wonder(version: int | None) -> None:
    p = Play(4, rules_version=version)
    first, standing, second = ROWS[version]
    assert p.state.board.empires == tuple(PLAYERS[4])
    trade(p, "II 2", {"Romans": "marble, wine", "Greeks": "oil, timber", "Carthaginians": "wheat, purple",
                      "Egyptians": "papyrus, sheep"},
          [("Carthaginians", "marble", "Romans"), ("Romans", "oil", "Greeks"), ("Greeks", "papyrus", "Egyptians"),
           ("Egyptians", "wheat", "Carthaginians"), ("Carthaginians", "timber", "Greeks"),
           ("Greeks", "purple", "Carthaginians"), ("Carthaginians", "sheep", "Egyptians"),
           ("Egyptians", "wine", "Romans")], give="marble")
    assert p.said[-3] == "The Carthaginians give marble to the Romans: the exchange is even."
    assert p.state.board.screens["Romans"].goods == {"gladiators": 1, "marble": 2, "wine": 1, "oil": 1}
    assert p.state.row is not None and p.state.row.face_up[:2] == list(first)
    buys = f"buy {first[0]} with taxes\nbuy {first[1]} with gladiators, marble, wine, oil"
    turns(p, {"Romans": buys})
    assert p.state.board.screens["Romans"].tiles == ["Caesar", *first]
    # The two gaps are filled at the end of the phase, from the face-down tiles in order.
    assert p.state.row.face_up[2:] == list(standing)
    assert None not in p.state.row.face_up and p.state.row.public()["face_down"] == 7
    turns(p, {})
    claims(p)
    trade(p, "I 1", {"Romans": "marble", "Greeks": "timber", "Carthaginians": "purple", "Egyptians": "papyrus"},
          [("Carthaginians", "marble", "Romans"), ("Romans", "timber", "Greeks"),
           ("Greeks", "purple", "Carthaginians"), ("Carthaginians", "papyrus", "Egyptians")], give="marble")
    leader = p.state.turns.leader  # type: ignore[union-attr]
    p.post(user(p, leader), "next Romans")
    p.post("ann", f"buy {second[0]} with taxes\nbuy {second[1]} with gladiators, marble, wine, timber")
    assert p.state.phase == "over"
    assert p.state.winners == [("Romans", "hold 5 Heroes and Wonders")]
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


FIVE_VALUES = ROW_VALUES + [6, 5, 4, 1] + [3] * 100  # the battle in Peloponnesus: 6, 5, 4 against 1


@VERSIONS
def test_five_players_a_battle_a_conquest_and_the_three_titles(version: int | None) -> None:
    five_player_game(version)


def five_player_game(version: int | None = None) -> Play:
    """Also the game bench/mare_nostrum_empires.py times."""
    p = Play(5, FIVE_VALUES, rules_version=version)
    trade(p, "I 1", {"Romans": "wine", "Greeks": "timber", "Carthaginians": "wheat", "Egyptians": "papyrus",
                     "Babylonians": "purple"},
          [("Carthaginians", "wine", "Romans"), ("Romans", "timber", "Greeks"), ("Greeks", "papyrus", "Egyptians"),
           ("Egyptians", "purple", "Babylonians"), ("Babylonians", "wheat", "Carthaginians")])
    turns(p, {"Greeks": "buy legion in Peloponnesus with taxes",
              "Romans": "buy legion in Latium with taxes\nbuy trireme in Mare Tyrrhenum with gladiators, marble, wine"})
    p.post("ann", "next Romans")
    p.post("ann", "sail Mare Tyrrhenum to Mare Ionium\nmarch 3 Latium to Peloponnesus")
    assert "Battle in Peloponnesus: the Romans throw [6, 5, 4], the Greeks [1]; the Romans lose 0, the Greeks 1." \
        in p.said
    assert p.state.board.provinces["Peloponnesus"].conqueror == "Romans"
    with pytest.raises(Rejection, match="triremes move first"):
        p.post("ann", "sail Mare Ionium to Mare Aegaeum")
    p.post("ann", "occupy caravan, market in Peloponnesus\ndone")
    for empire in ("Greeks", "Carthaginians", "Egyptians", "Babylonians"):
        p.post("ann", f"next {empire}")
        p.post(user(p, empire), "done")
    claims(p)
    assert p.state.board.leaders == {"commerce": "Romans", "politics": "Greeks", "military": "Romans"}
    assert "Production: the Romans collect 2 marble, 1 gladiators, 2 wine, 2 oil, 4 taxes." in p.said
    # Round 2: the Romans, new Trade master, choose among all three tokens again.
    trade(p, "I 1", {"Romans": "oil", "Greeks": "timber", "Carthaginians": "wheat", "Egyptians": "papyrus",
                     "Babylonians": "purple"},
          [("Romans", "timber", "Greeks"), ("Greeks", "oil", "Romans"), ("Romans", "wheat", "Carthaginians"),
           ("Carthaginians", "papyrus", "Egyptians"), ("Egyptians", "purple", "Babylonians")], give="wheat")
    turns(p, {"Romans": "buy influence in Gallia Cisalpina with taxes"})
    turns(p, {})
    assert p.state.winners == [("Romans", "hold the three titles")]
    assert p.state.board.levels["politics"]["Romans"] == 8 and p.state.board.levels["commerce"]["Romans"] == 7
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)
    return p


def test_a_unit_moves_once_a_turn() -> None:
    p = Play(3)
    trade(p, "I 1", {"Romans": "tax", "Greeks": "tax", "Carthaginians": "tax"},
          [("Carthaginians", "tax", "Romans"), ("Romans", "tax", "Greeks"), ("Greeks", "tax", "Carthaginians")])
    turns(p, {})
    p.post("ann", "next Romans")
    p.post("ann", "sail Mare Tyrrhenum to Mare Ionium")
    with pytest.raises(Rejection, match="a trireme moves one sea a turn: the Romans triremes in Mare Ionium have "
                                        "moved already"):
        p.post("ann", "sail Mare Ionium to Mare Adriaticum")
    p.post("ann", "march 2 Latium to Campania")
    with pytest.raises(Rejection, match="a legion moves once a turn: 0 of the Romans legions in Campania may still "
                                        "move, not 1"):
        p.post("ann", "march Campania to Magna Graecia")
    p.post("ann", "march Etruria to Latium\ndone")
    assert p.state.board.provinces["Campania"].legions == {"Romans": 2}
    assert p.state.board.provinces["Latium"].legions == {"Romans": 1}
