"""Which drand relays the bot asks: the public ones by default, or LEGATUS_DRAND_RELAYS."""
from __future__ import annotations

import pytest

from bot.drand.relays import DEFAULT_RELAYS, ENV, RelayConfigError, parse_relays, relays_from_env


def test_the_public_relays_by_default() -> None:
    assert relays_from_env({}) == DEFAULT_RELAYS == (
        "https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com",
    )
    assert relays_from_env({ENV: "  "}) == DEFAULT_RELAYS


def test_a_list_from_the_environment() -> None:
    text = " https://drand.cloudflare.com/, http://127.0.0.1:8080  https://api.drand.sh,https://drand.cloudflare.com"
    assert relays_from_env({ENV: text}) == (
        "https://drand.cloudflare.com", "http://127.0.0.1:8080", "https://api.drand.sh",
    )
    assert parse_relays("https://relay.example/drand/") == ("https://relay.example/drand",)  # a path prefix is kept


@pytest.mark.parametrize("text, bad", [
    ("api.drand.sh", "'api.drand.sh'"),
    ("https://api.drand.sh,ftp://mirror.example", "'ftp://mirror.example'"),
    ("https://", "'https://'"),
    ("https://api.drand.sh/?chain=quicknet", "'https://api.drand.sh/?chain=quicknet'"),
])
def test_a_bad_entry_is_quoted_with_an_example(text: str, bad: str) -> None:
    with pytest.raises(RelayConfigError) as raised:
        relays_from_env({ENV: text})
    assert str(raised.value) == (f"LEGATUS_DRAND_RELAYS: {bad} is not a relay address; give http(s) base URLs "
                                 "separated by commas, e.g. https://api.drand.sh,https://drand.cloudflare.com")


def test_a_list_of_only_separators_names_the_setting() -> None:
    with pytest.raises(RelayConfigError, match="LEGATUS_DRAND_RELAYS lists no relay"):
        parse_relays(" , ,")
