"""Reading many campaigns' deadlines and settings at once gives what reading them one by one gives."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlmodel import Session

from bot.store.campaigns import CampaignRow
from bot.store.db import open_engine
from bot.store.schedule_tables import (
    CANCELLED, PENDING, REMINDED, CampaignSettingsRow, DeadlineRow, active_deadlines, active_deadlines_of, settings_for,
    settings_of,
)

UTC = timezone.utc


def test_many_campaigns_read_together_as_one_by_one(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "c.db")
    now = datetime(2026, 11, 23, 12, tzinfo=UTC)
    with Session(engine) as session:
        ids = []
        for k in range(520):
            row = CampaignRow(name=f"c{k}", ruleset="mare-nostrum", gm="gm")
            session.add(row)
            session.flush()
            assert row.id is not None
            ids.append(row.id)
            for j, state in enumerate((PENDING, CANCELLED, REMINDED)[: k % 4]):
                session.add(DeadlineRow(campaign_id=row.id, seat=f"n{j}", turn=1, due_at=now - timedelta(hours=j),
                                        state=state, created_at=now))
            if k % 5 == 0 and k != 10:
                session.add(CampaignSettingsRow(campaign_id=row.id, player_hours=k % 7 + 1))
            if k == 10:
                session.add(CampaignSettingsRow(campaign_id=row.id, timezone="Mars/Olympus"))  # read as the default
        session.commit()
    with Session(engine) as session:
        wanted = ids[:-5]  # more than one statement's worth of ids (500), and not every campaign
        together = active_deadlines_of(session, wanted)
        settings = settings_of(session, wanted)
        assert set(together) == set(settings) == set(wanted)
        for campaign_id in wanted:
            assert [d.id for d in together[campaign_id]] == [d.id for d in active_deadlines(session, campaign_id)]
            one = settings_for(session, campaign_id)
            assert settings[campaign_id].model_dump() == one.model_dump()
        assert settings[ids[10]].timezone == CampaignSettingsRow(campaign_id=0).timezone
        assert any(together[i] for i in wanted) and any(not together[i] for i in wanted)
