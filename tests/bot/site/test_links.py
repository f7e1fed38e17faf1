"""A campaign's folder in the site and its address in the turn announcements (LEGATUS_PUBLIC_URL)."""
from __future__ import annotations

import hashlib
from types import SimpleNamespace

import pytest

from bot.discord.output import turn_announcement
from bot.site.links import folder_of, page_url


def test_a_name_has_one_folder_and_two_names_never_share_one() -> None:
    assert folder_of("sea") == "sea"
    suffix = hashlib.sha256("Med A".encode()).hexdigest()[:6]
    assert folder_of("Med A") == f"med-a-{suffix}"
    assert folder_of("med-a") == "med-a" != folder_of("Med A")
    assert folder_of("assets") == "assets-" + hashlib.sha256(b"assets").hexdigest()[:6]  # the site's own folder
    assert folder_of("../../etc") == "etc-" + hashlib.sha256(b"../../etc").hexdigest()[:6]
    assert folder_of("Ῥώμη").startswith("campaign-")


def test_the_page_address_needs_a_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEGATUS_PUBLIC_URL", raising=False)
    assert page_url("sea") is None
    monkeypatch.setenv("LEGATUS_PUBLIC_URL", "https://example.org/legatus/")
    assert page_url("sea") == "https://example.org/legatus/sea/"
    assert page_url("sea", "javascript:alert(1)") is None  # only a web address is ever linked


def test_a_turn_announcement_links_its_page() -> None:
    summary = SimpleNamespace(turn_label="Turn 3 (270 BC)", headline=("Order of play: Romans, Gauls",))
    assert turn_announcement(summary) == "**Turn 3 (270 BC)**\n\nOrder of play: Romans, Gauls"
    assert turn_announcement(summary, "https://example.org/sea/") == (
        "**Turn 3 (270 BC)**\n\nOrder of play: Romans, Gauls\n\n"
        "The campaign's page, dice checked in your browser: https://example.org/sea/")
