"""A newcomer's first hour of Mediterranean Empires, from the command line with no network (issue 24): the campaign
says its real first step, /help lists only what this game takes (with examples), a shell command the game has no use
for says what to do instead, /status says who must do what and how to type it, a line that is no order says what is
asked now, and the game plays offline on the lottery (stored draws, historical clock)."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import bot.service.legatus as legatus_module
from bot.cli.main import main
from tests.conftest import LOTTO


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    db = str(tmp_path / "me.db")
    code, out = cli(capsys, "new", "--db", db, "--ruleset", "mediterranean-empires", "--randomness", "lottery",
                    "--player", "Player A=ann", "--player", "Player B=bob")
    assert code == 0, out
    assert out.rstrip().endswith("First: Player A (ann) to play: place your units and Kings (3.1: 'place a levy of "
                                 "France in Albi') or 'standard set-up'; for example: standard set-up.")
    assert "/turn open" not in out
    return db


def test_help_lists_only_what_this_game_takes_with_examples(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = cli(capsys, "post", "--db", game, "--as", "ann", "/help")
    for gone in ("/turn open", "/turn close", "/roll", "/gm lock", "/campaign reveal"):
        assert gone not in out, gone
    assert "/lotto confirm" in out  # this campaign's dice come from the lottery: a GM may confirm a draw
    assert "/activate <power> <area> [<units>] (e.g. /activate France Provence County)" in out
    assert "/place <units> <power> <area> (e.g. /place 2 levies France Albi)" in out
    assert "/status" in out and "/undo" in out


def test_a_shell_command_the_game_has_no_use_for_says_what_to_do_instead(
    game: str, capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = cli(capsys, "post", "--db", game, "--as", "gm", "/turn open 2023-01-03")
    assert code == 3
    assert ("/turn open is not part of Mediterranean Empires: a game of Mediterranean Empires has no turn to open: "
            "it starts by itself; Player A begins with the set-up (3.1): 'standard set-up', or a unit at a time "
            "('place a levy of France in Albi'); then Player B (3.2)") in out
    _, out = cli(capsys, "post", "--db", game, "--as", "gm", "/roll 1d6 omen")
    assert "/roll is not part of Mediterranean Empires: the dice come from the orders that need them" in out
    assert "does not know the event" not in out
    _, out = cli(capsys, "post", "--db", game, "--as", "gm", "/campaign reveal")
    assert "/campaign reveal is not part of Mediterranean Empires: this game keeps no seed to reveal" in out


def test_status_and_a_stray_line_say_what_is_asked_and_how_to_type_it(
    game: str, capsys: pytest.CaptureFixture[str],
) -> None:
    _, out = cli(capsys, "post", "--db", game, "--as", "bob", "/status")
    assert ("Now:\n    Player A (ann) to play: place your units and Kings (3.1: 'place a levy of France in Albi') or "
            "'standard set-up'; for example: standard set-up") in out
    assert "Player B has to place: Aragon: 4 field armies, 2 mercenaries, 6 levies, 4 raiders, 4 fleets, its King." in out
    _, out = cli(capsys, "post", "--db", game, "--as", "ann", "draw")
    assert ("'draw' is not a set-up order, and the game begins with the set-up (3.1-3.2); now you are asked: place "
            "your units and Kings") in out
    _, out = cli(capsys, "post", "--db", game, "--as", "bob", "hello there")
    assert ("'hello there' is not a set-up order, and the game begins with the set-up (3.1-3.2); Player A sets up "
            "now (Player A first, then Player B)") in out
    for user in ("ann", "bob"):
        assert cli(capsys, "post", "--db", game, "--as", user, "standard set-up")[0] == 0
    _, out = cli(capsys, "post", "--db", game, "--as", "bob", "/status")
    assert "Now:\n    Player A (ann) to play: draw a stratagem marker ('draw'); for example: draw" in out
    _, out = cli(capsys, "post", "--db", game, "--as", "ann", "hello there")
    assert "'hello there' is not an order; now you are asked: draw a stratagem marker ('draw')" in out
    _, out = cli(capsys, "post", "--db", game, "--as", "bob", "hello there")
    assert ("'hello there' is not an order; nothing is asked of you now (the stratagems phase, Player A to act)"
            in out)


def test_the_first_orders_of_both_players_play_offline_on_stored_draws(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: every roll of a lottery campaign of this game was refused "no future lottery draw is known", with
    draws imported: the game has no draw of its own for the shell to offer later ones after."""
    # Seal salts of the test's own: the pick key's salt decides Player A's marker, and a random one drew the Plague
    # once in CI (its die then took the draw of 2023-01-05, and Player B's pick the next).
    salts = itertools.count(1)
    monkeypatch.setattr(legatus_module.secrets_module, "token_hex", lambda n=16: f"{next(salts):0{2 * n}x}")
    assert cli(capsys, "lotto", "import", "--db", game, str(LOTTO / "draws-2023-01.txt"))[0] == 0
    code, out = cli(capsys, "post", "--db", game, "--as", "ann", "place 3 levies of France in Albi")
    assert code == 0 and "Player A places 3 levies of France in Albi." in out, out
    code, out = cli(capsys, "post", "--db", game, "--as", "ann", "place 4 field armies of France in Albi")
    assert code == 3 and ("at least one land unit of France goes in each of its listed areas (3.1-3.2): after 4 "
                          "field armies in Albi, 3 would be left for 5 areas still empty (County of Toulouse, "
                          "Montpellier, Provence County, Vienne and Auvergne)") in out, out
    code, out = cli(capsys, "post", "--db", game, "--as", "ann", "standard set-up")
    assert code == 3 and "the standard set-up places all of Player A's units, and some are placed already" in out
    code, out = cli(capsys, "post", "--db", game, "--as", "ann", "/undo 2")
    assert code == 0, out
    for user in ("ann", "bob"):
        code, out = cli(capsys, "post", "--db", game, "--as", user, "standard set-up")
        assert code == 0, out
    assert "The set-up is complete: game turn 1 begins." in out
    code, out = cli(capsys, "post", "--db", game, "--as", "ann", "draw")
    assert code == 0, out
    assert "Lottery draw of 2023-01-03 recorded." in out and "Player A draws a stratagem marker (sealed: " in out
    code, out = cli(capsys, "post", "--db", game, "--as", "bob", "draw")
    assert code == 0, out
    assert "Lottery draw of 2023-01-05 recorded." in out and "Player B draws a stratagem marker (sealed: " in out
    _, out = cli(capsys, "ledger", "--db", game)
    assert "lottery 2023-01-03 BA #1 -> 18" in out and "lottery 2023-01-05 BA #1 -> 71" in out


def test_mare_nostrum_still_begins_with_the_gm_opening_turn_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = cli(capsys, "new", "--db", str(tmp_path / "mn.db"), "--ruleset", "mare-nostrum", "--player", "Romans=a")
    assert code == 0
    assert out.rstrip().endswith("The campaign has not started: the GM opens turn 1 with /turn open <date>.")
    _, out = cli(capsys, "post", "--db", str(tmp_path / "mn.db"), "--as", "gm", "/help")
    assert "/turn open [YYYY-MM-DD]" in out and "/roll <dice> [label]" in out
