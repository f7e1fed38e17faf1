"""The board as a Picture: provinces in their influence holders' colours, units marked, the legend; drawn by the
shell's area-map renderer without any change to it."""
from __future__ import annotations

import io

from PIL import Image

from tests.engine.mare_nostrum_empires.mne_play import Play

from bot.render.map_png import render_png


def test_the_picture_colours_provinces_by_influence_and_marks_units() -> None:
    p = Play(3)
    picture = p.rs.picture(p.state)
    spaces = {s.name: s for s in picture.spaces}
    assert len(spaces) == 32 + 14  # the provinces in play and every sea
    assert "Aegyptus" not in spaces
    assert spaces["Latium"].fill == "Romans" and spaces["Latium"].marks == ("2 Rom leg.", "F")
    assert spaces["Latium"].note == "Rome: capital, caravan, temple" and spaces["Latium"].role == "capital"
    assert spaces["Troas"].fill is None and spaces["Troas"].note == "Troy"
    assert spaces["Mare Aegaeum"].marks == ("2 Gre tri.",)
    assert [s.text for s in picture.standings] == [
        "Romans (ann) · 3 provinces · Military leader", "Greeks (bob) · 3 provinces · Political leader",
        "Carthaginians (cat) · 3 provinces · Trade master"]
    assert dict(picture.colours)["Romans"] == "#b22222"
    assert ("Latium", "Etruria") in picture.links or ("Etruria", "Latium") in picture.links


def test_the_area_map_renderer_draws_it() -> None:
    p = Play(5)
    image = Image.open(io.BytesIO(render_png(p.rs.picture(p.state), width=800)))
    assert image.width == 800 and image.height > 300
