"""Hole: "whoever reads the database knows every commit-reveal roll in advance". The seed is HMAC(server key,
nonce): the key (LEGATUS_SECRET_KEY or LEGATUS_SECRET_KEY_FILE) is never in the database, which holds only the
nonce; without the key no commit-reveal campaign is created, and the seed revealed at the end is the committed one."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlmodel import Session, select

from bot.service.legatus import Legatus
from bot.store import campaign_secret
from bot.store.campaign_secret import CampaignSecretRow
from engine import commit_reveal
from tests.conftest import PLAYERS


def test_no_commit_reveal_campaign_without_the_server_key(service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEGATUS_SECRET_KEY", raising=False)
    monkeypatch.delenv("LEGATUS_SECRET_KEY_FILE", raising=False)
    refused = service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness="commit-reveal")
    assert not refused.changed and "LEGATUS_SECRET_KEY" in refused.render()
    assert service.campaign_names() == []


def test_the_database_holds_no_seed_and_the_reveal_matches_the_commitment(
    service: Legatus, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    key_file = tmp_path / "legatus.key"
    key_file.write_text("a server key kept outside the database\n")
    monkeypatch.delenv("LEGATUS_SECRET_KEY", raising=False)
    monkeypatch.setenv("LEGATUS_SECRET_KEY_FILE", str(key_file))
    created = service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness="commit-reveal")
    assert created.changed, created.render()
    commitment = json.loads(service.export("c").splitlines()[0])["data"]["commitment"]
    with Session(service.engine) as session:
        row = session.exec(select(CampaignSecretRow)).one()
        stored = row.seed
        seed = campaign_secret.seed_of(session, row.campaign_id)
    assert seed is not None and seed not in stored and stored.startswith("hmac:")
    assert commit_reveal.commitment(commit_reveal.key(seed)) == commitment
    # The whole database file never holds the seed, nor the key.
    raw = (Path(str(service.engine.url.database))).read_bytes()
    assert seed.encode() not in raw and b"a server key" not in raw
    # Another key gives another seed: the commitment no longer matches, so a swapped key is caught at reveal.
    monkeypatch.setenv("LEGATUS_SECRET_KEY_FILE", str(tmp_path / "missing.key"))
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "another key")
    with Session(service.engine) as session:
        assert campaign_secret.seed_of(session, row.campaign_id) != seed
    monkeypatch.delenv("LEGATUS_SECRET_KEY")
    monkeypatch.setenv("LEGATUS_SECRET_KEY_FILE", str(key_file))
    revealed = service.post("gm", "/campaign reveal")
    assert revealed.changed, revealed.render()
    assert json.loads(service.export("c").splitlines()[-1])["data"]["seed"] == seed
