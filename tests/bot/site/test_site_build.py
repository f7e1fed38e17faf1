"""`legatus site`: the static site of a campaign, written from its public export alone."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlmodel import Session, select

from bot.cli.main import main
from bot.site.build import write_site
from bot.site.links import folder_of
from bot.store import sealed
from bot.store.campaigns import CampaignRow
from engine import secrets
from tests.bot.site.site_files import DATA, GOLDEN_HEAD, GOLDEN_LOG, GOLDEN_NAME, every_byte, site_data, site_log
from tests.bot.site.site_games import NAME as ME_NAME, mediterranean_empires_on_quicknet


@pytest.fixture(scope="module")
def golden_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("golden") / "site"
    assert write_site(out, [(GOLDEN_NAME, GOLDEN_LOG)], DATA) == [folder_of(GOLDEN_NAME)]
    return out


def test_the_golden_campaign_has_its_page_log_maps_and_ledger(golden_site: Path) -> None:
    folder = golden_site / folder_of(GOLDEN_NAME)
    assert folder.name == "mare-nostrum-golden-" + folder.name[-6:] and len(folder.name) == len("mare-nostrum-golden-") + 6
    assert (folder / "campaign.log").read_text(encoding="utf-8") == GOLDEN_LOG  # the export, byte for byte
    assert site_log(folder) == GOLDEN_LOG
    data = site_data(folder)
    assert f"{data['last_seq']}:{data['head']}" == GOLDEN_HEAD
    # The set-up, the 15 turns, each with the map as it ended (the last as it stands now), loaded on demand.
    assert [t["number"] for t in data["turns"]] == list(range(16))
    assert [t["map"] for t in data["turns"][:2]] == ["maps/0-turn-0.svg", "maps/1-turn-1.svg"]
    assert (data["turns"][1]["label"], data["turns"][1]["first_seq"], data["turns"][1]["last_seq"]) == \
        ("Turn 1 (290 BC)", 2, 23)
    assert data["turns"][-1]["label"] == "Turn 15 (150 BC) (now)" and data["turns"][-1]["last_seq"] == 396
    assert all((folder / t["map"]).read_text(encoding="utf-8").startswith("<svg") for t in data["turns"])
    assert all(t["alt"].startswith("Map of ") for t in data["turns"])
    assert sorted(p.name for p in (folder / "charts").iterdir()) == ["provinces.png", "stability.png"]
    rolls = [e for e in data["ledger"] if e["values"] is not None]
    assert len(rolls) == 71 and all(isinstance(e["bound_seq"], int) for e in rolls)
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "Verify in this browser" in page and "legatus verify campaign.log --draws storico01-oggi.zip" in page
    assert f"--expect-head {GOLDEN_HEAD}" in page
    index = (golden_site / "index.html").read_text(encoding="utf-8")
    assert f'href="{folder.name}/index.html"' in index and "Turn 15 (150 BC) (over)" in index
    assert (golden_site / "assets" / "vendor" / "LICENSE-noble-curves").is_file()


def test_a_site_written_again_replaces_the_old_one_whole(golden_site: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(out, [(GOLDEN_NAME, GOLDEN_LOG)], DATA)
    write_site(out, [("other", GOLDEN_LOG)], DATA)
    assert sorted(p.name for p in out.iterdir()) == ["assets", "index.html", "other"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no half-written folder left beside it


def test_the_site_of_a_campaign_with_sealed_content_holds_none_of_it(tmp_path: Path) -> None:
    """Operator's risk: the bot's stratagem pick keys and the markers drawn are sealed; the site must show their
    digests and nothing else, not a content nor a salt."""
    service = mediterranean_empires_on_quicknet(tmp_path / "me.db")
    with Session(service.engine) as session:
        row = session.exec(select(CampaignRow).where(CampaignRow.name == ME_NAME)).one()
        hidden = sealed.all_for(session, row.id)
    assert len(hidden) == 3  # the pick key, sealed at the game's first draw, and the marker each player drew
    assert main(["site", "--db", str(tmp_path / "me.db"), "--out", str(tmp_path / "site")]) == 0
    everything = every_byte(tmp_path / "site")
    for seq, secret in hidden.items():
        assert secret["salt"].encode() not in everything, seq
        for key, value in secret["content"].items():
            if key != "pick":  # the pick's label is public: it is the key of the secret.sealed event
                assert str(value).encode() not in everything, (seq, value)
        digest = secrets.digest(secret["content"], secret["salt"])
        assert digest.encode() in everything  # the public half is there
    folder = tmp_path / "site" / folder_of(ME_NAME)
    assert site_log(folder) == service.export(ME_NAME)


def test_the_command_refuses_a_file_or_a_foreign_folder_and_an_unknown_campaign(tmp_path: Path,
                                                                                capsys: pytest.CaptureFixture[str]) -> None:
    mediterranean_empires_on_quicknet(tmp_path / "me.db")
    db = str(tmp_path / "me.db")
    (tmp_path / "file.txt").write_text("x")
    assert main(["site", "--db", db, "--out", str(tmp_path / "file.txt")]) == 2
    assert capsys.readouterr().err == (f"legatus: --out {tmp_path / 'file.txt'}: it is a file, not a folder; give a "
                                       "folder for the site\n")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    assert main(["site", "--db", db, "--out", str(tmp_path / "mine")]) == 2
    assert "the folder holds other files and no site" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
    assert main(["site", "--db", db, "--campaign", "Nowhere", "--out", str(tmp_path / "s")]) == 2
    assert "Nowhere" in capsys.readouterr().err and not (tmp_path / "s").exists()
    assert main(["site", "--db", db, "--out", str(tmp_path / "s")]) == 0
    assert capsys.readouterr().out == f"Site of 1 campaign written to {tmp_path / 's'} (open {tmp_path / 's' / 'index.html'})\n"


def test_site_data_cannot_end_its_script(tmp_path: Path) -> None:
    """A player's order text is in the log: '</script>' in it must not end the page's script."""
    lines = GOLDEN_LOG.splitlines()
    event = json.loads(lines[3])
    assert event["kind"] == "order"
    from bot.site.build import _js

    text = _js({"text": "</script><script>alert(1)</script>\u2028"})
    assert "</script>" not in text and "\u2028" not in text
    assert json.loads(text) == {"text": "</script><script>alert(1)</script>\u2028"}
