"""Area map pictures (Mediterranean Empires', Mare Nostrum: Empires') kept as JSON beside their reference images: the picture a state gave (without
its drawing, which is read again from the map file, so that a change of the map's drawing shows in the images).

The late position is the last of the scripted seven-turn game (tests/games/mediterranean_empires_players.py), the
set-up the game's first state; Mare Nostrum: Empires' set-up is its first state at five empires, its late position
the end of its scripted game (tests/games/mare_nostrum_empires_players.py). ``write_pictures`` plays the games again (bench/regenerate_reference_images.py)."""
from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path
from typing import Any

from engine import canonical
from engine.rulesets import load_ruleset
from engine.ruleset import ChartSeries, Glyph, Picture, Space, Standing

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference"
DATA = HERE.parents[2] / "data"
PICTURES = {"me-setup.json": "the set-up", "me-late.json": "the end of the scripted game",
            "mne-setup.json": "Mare Nostrum: Empires' set-up at five empires",
            "mne-late.json": "the end of Mare Nostrum: Empires' scripted three-player game"}
# Whose map each picture is drawn over.
RULESETS = {"me-setup.json": "mediterranean-empires", "me-late.json": "mediterranean-empires",
            "mne-setup.json": "mare-nostrum-empires", "mne-late.json": "mare-nostrum-empires"}
MNE_PLAYERS = {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cid", "Egyptians": "dan", "Babylonians": "eve"}


def ruleset(ruleset_id: str = "mediterranean-empires") -> Any:
    return load_ruleset(ruleset_id, DATA)


def to_json(picture: Picture) -> dict[str, Any]:
    data = dataclasses.asdict(dataclasses.replace(picture, drawing=None))
    data.pop("drawing")
    return data


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def from_json(data: dict[str, Any], ruleset_id: str = "mediterranean-empires") -> Picture:
    """The stored picture, drawn over the map file's drawing as it is now."""
    spaces = tuple(Space(**{**_tuples_of(s), "glyphs": tuple(Glyph(**g) for g in s["glyphs"])}) for s in data["spaces"])
    standings = tuple(Standing(**s) for s in data["standings"])
    charts = tuple(ChartSeries(**{**c, "steps": _tuples(c["steps"])}) for c in data["charts"])
    rest = {k: _tuples(v) for k, v in data.items() if k not in ("spaces", "standings", "charts")}
    return Picture(**rest, spaces=spaces, standings=standings, charts=charts, drawing=ruleset(ruleset_id).rules.map.drawing)


def _tuples_of(space: dict[str, Any]) -> dict[str, Any]:
    return {k: _tuples(v) for k, v in space.items()}


def load(name: str) -> Picture:
    return from_json(json.loads((REFERENCE / name).read_text(encoding="utf-8")), RULESETS[name])


def write_pictures() -> list[Path]:
    from tests.games.mediterranean_empires_players import USERS, play_game, table

    game = ruleset()
    setup = game.picture(game.initial_state({"players": {seat: user for seat, user in USERS.items()}}))
    with tempfile.TemporaryDirectory() as tmp:
        with table(Path(tmp) / "me.db") as t:
            play_game(t)
            late = t.service.ruleset_of(None).picture(t.state)
            t.service.engine.dispose()
    empires = ruleset("mare-nostrum-empires")
    mne_setup = empires.picture(empires.initial_state({"players": MNE_PLAYERS}))
    mne_late = _mne_late()
    written = []
    for name, picture in (("me-setup.json", setup), ("me-late.json", late), ("mne-setup.json", mne_setup),
                          ("mne-late.json", mne_late)):
        path = REFERENCE / name
        path.write_text(canonical.dumps(to_json(picture), indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _mne_late() -> Picture:
    from tests.games.mare_nostrum_empires_players import play_game as play_mne, table as mne_table

    with tempfile.TemporaryDirectory() as tmp:
        with mne_table(Path(tmp) / "mne.db") as t:
            play_mne(t)
            game, state = t.service.folded(None)
            t.service.engine.dispose()
    return game.picture(state)  # type: ignore[no-any-return]
