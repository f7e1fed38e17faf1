"""Fixtures of the lottery fetcher's tests: the fake lottery site on 127.0.0.1 and a fresh store."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from tests.bot.lottery.lotto_fakes import FakeSite, running_site
from tests.fresh_db import migrated_engine


@pytest.fixture
def site() -> Iterator[FakeSite]:
    yield from running_site()


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = migrated_engine(tmp_path / "lotto.db")
    yield engine
    engine.dispose()
