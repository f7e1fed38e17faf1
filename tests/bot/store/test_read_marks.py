"""The read marks (bot/store/read_marks.py): per place, the newest message taken; written with the posts they cover."""
from __future__ import annotations

from sqlmodel import Session

from bot.service.legatus import Legatus
from bot.service.post_reading import PostRequest
from bot.store.campaigns import find_campaign
from bot.store.db import open_engine
from bot.store.draws import import_archive
from bot.store.read_marks import Seen, mark_read, read_marks, save_read_marks
from tests.fixture_paths import LOTTO
from tests.bot.store.databases import db_url  # noqa: F401  (a fixture)

# Real snowflakes are above 2**53 and 2**31: stored as 64-bit integers, compared as numbers ("9" > "10" as text).
EARLY, LATE, LATER = 1_300_000_000_000_000_009, 1_300_000_000_000_000_010, 1_400_000_000_000_000_000
GM = "<@&1>"


def _campaign(service: Legatus, name: str = "camp", channel: str = "20") -> int:
    assert service.create_campaign(name, "mare-nostrum", GM, {"Romans": "<@2>"}, "historical", "10", channel, "1").ok
    with Session(service.engine) as session:
        row = find_campaign(session, name)
        assert row is not None and row.id is not None
        return row.id


def test_a_mark_moves_up_to_the_newest_message_and_never_back(db_url: str) -> None:  # noqa: F811
    service = Legatus(open_engine(db_url))
    first, second = _campaign(service, "one", "20"), _campaign(service, "two", "30")
    save_read_marks(service.engine, [Seen(first, "20", LATE), Seen(first, "20", EARLY), Seen(second, "30", EARLY)])
    with Session(service.engine) as session:
        assert read_marks(session, [first, second]) == {"20": LATE, "30": EARLY}
        mark_read(session, [Seen(first, "20", EARLY), Seen(second, "30", LATER)])
        session.commit()
        assert read_marks(session, [first]) == {"20": LATE}
        assert read_marks(session, [second]) == {"30": LATER}
        assert read_marks(session, []) == {}


def test_a_post_is_marked_read_in_its_own_transaction_applied_or_refused(service: Legatus) -> None:
    with Session(service.engine) as session:
        import_archive(session, (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "test")
        session.commit()
    campaign = _campaign(service)
    applied, refused = service.post_many([
        PostRequest(GM, "/turn open 2023-01-03", "camp", True, seen=Seen(campaign, "20", EARLY)),
        PostRequest("<@2>", "conquer the moon", "camp", False, seen=Seen(campaign, "21", LATE)),
    ])
    assert applied.changed and not refused.changed
    with Session(service.engine) as session:
        assert read_marks(session, [campaign]) == {"20": EARLY, "21": LATE}
    # Posts that come with no message (the console, `legatus post`) mark nothing.
    assert service.post(GM, "/status", "camp", is_gm=True).ok
    with Session(service.engine) as session:
        assert read_marks(session, [campaign]) == {"20": EARLY, "21": LATE}
