"""Which guilds a shard serves, and reading the shard of `legatus run` from its options and environment."""
from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.cli.main import main
from bot.discord.bot import shard_options
from bot.store.shards import ALL, Shard, shard_from, shard_from_env, shard_of


def test_a_guild_belongs_to_the_shard_discord_py_computes() -> None:
    state = type("State", (), {"shard_count": 4})()
    for guild_id in (41771983423143937, 81384788765712384, 1_000 << 22, (1_003 << 22) + 12345):
        guild = discord.Guild.__new__(discord.Guild)
        guild.id, guild._state = guild_id, state  # type: ignore[assignment]
        assert shard_of(guild_id, 4) == guild.shard_id
        assert Shard(guild.shard_id, 4).owns(str(guild_id))
        assert not Shard((guild.shard_id + 1) % 4, 4).owns(guild_id)
    # A campaign made outside Discord (no guild) is shard 0's, as a DM is; an unsharded process owns everything.
    assert Shard(0, 2).owns(None) and not Shard(1, 2).owns(None) and ALL.owns(None) and ALL.owns(1 << 40)


def test_shard_settings_are_read_and_wrong_ones_quoted() -> None:
    assert shard_from(None, None) == ALL and shard_from("", " ") == ALL
    assert shard_from("1", "2") == Shard(1, 2) and shard_from(None, "4") == Shard(None, 4)
    assert shard_from_env({"LEGATUS_SHARD_ID": "0", "LEGATUS_SHARD_COUNT": "3"}) == Shard(0, 3)
    with pytest.raises(ValueError, match=r"shard count too.*LEGATUS_SHARD_COUNT"):
        shard_from("1", None)
    with pytest.raises(ValueError, match=r"numbered 0 to 1, not 2"):
        shard_from("2", "2")
    with pytest.raises(ValueError, match=r"LEGATUS_SHARD_ID must be a whole number, not 'one'"):
        shard_from("one", "2")
    with pytest.raises(ValueError, match=r"LEGATUS_SHARD_COUNT must be between 1 and"):
        shard_from("0", "0")


def test_discord_py_gets_the_shard_the_way_it_expects() -> None:
    assert shard_options(Shard(1, 2)) == {"shard_id": 1, "shard_count": 2}  # discord.Client: IDENTIFY shard [1, 2]
    assert shard_options(Shard(None, 3)) == {"shard_count": 3}  # discord.AutoShardedClient
    assert shard_options(ALL) == {}
    assert Shard(1, 2).name == "1-of-2" and ALL.name == "all" and Shard(None, 2).describe() == "all 2 shards"


def test_legatus_run_refuses_a_wrong_shard_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    assert main(["run", "--db", str(tmp_path / "x.db"), "--shard-id", "2", "--shard-count", "2"]) == 2
    assert "numbered 0 to 1, not 2" in capsys.readouterr().err
    monkeypatch.setenv("LEGATUS_SHARD_ID", "1")
    monkeypatch.delenv("LEGATUS_SHARD_COUNT", raising=False)
    assert main(["run", "--db", str(tmp_path / "x.db")]) == 2
    assert "needs the shard count too" in capsys.readouterr().err
