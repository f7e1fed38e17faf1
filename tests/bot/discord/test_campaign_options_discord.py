"""Discord's /campaign create takes a game's campaign options (optional rules, a scenario) as one text option."""
from __future__ import annotations

from pathlib import Path

from tests.bot.discord.test_discord_bot import Table, run, table


def test_campaign_create_with_options(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        gm_role = str(t.dev.roles["GM"].id)
        created = await t.slash("gm", "campaign", "create", name="vespers", gm_role=gm_role,
                                ruleset="mediterranean-empires", randomness="lottery", options="vespers, poison")
        assert "Campaign 'vespers' created" in created, created
        assert t.service.state("vespers")["options"] == ["vespers", "poison"]
        refused = await t.slash("gm", "campaign", "create", name="bad", gm_role=gm_role,
                                ruleset="mediterranean-empires", randomness="lottery", options="mutiny")
        assert "unknown option 'mutiny'" in refused, refused

    run(lambda: table(tmp_path, scenario))
