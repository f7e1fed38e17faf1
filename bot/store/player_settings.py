"""Each player's own settings in a campaign (``/settings heads-up off``), kept in the database.

A setting is a row only once a player changed it: no row means the default (``DEFAULTS``).
"""
from __future__ import annotations

from sqlmodel import Field, Session, SQLModel, col, select

# The settings a player may change, each with its default and the values it takes.
HEADS_UP = "heads-up"
DEFAULTS: dict[str, str] = {HEADS_UP: "on"}
VALUES: dict[str, tuple[str, ...]] = {HEADS_UP: ("on", "off")}


class PlayerSettingRow(SQLModel, table=True):
    __tablename__ = "player_setting"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    player: str = Field(primary_key=True)  # the identity the campaign stores for the player ("<@123>", "alice")
    name: str = Field(primary_key=True)
    value: str


def setting(session: Session, campaign_id: int, player: str, name: str) -> str:
    row = session.get(PlayerSettingRow, (campaign_id, player, name))
    return row.value if row is not None else DEFAULTS[name]


def settings_of(session: Session, players: set[tuple[int, str]], name: str) -> dict[tuple[int, str], str]:
    """The setting ``name`` of each (campaign id, player), in one query."""
    campaigns = {campaign_id for campaign_id, _ in players}
    rows = session.exec(select(PlayerSettingRow).where(PlayerSettingRow.name == name,
                                                       col(PlayerSettingRow.campaign_id).in_(campaigns)))
    changed = {(row.campaign_id, row.player): row.value for row in rows}
    return {pair: changed.get(pair, DEFAULTS[name]) for pair in players}


def save_setting(session: Session, campaign_id: int, player: str, name: str, value: str) -> None:
    """In the caller's transaction (a post's, which holds the write lock): saved with it, or not at all."""
    session.merge(PlayerSettingRow(campaign_id=campaign_id, player=player, name=name, value=value))
