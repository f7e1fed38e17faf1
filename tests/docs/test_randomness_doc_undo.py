"""docs/randomness.md, section 6: the refusal the page shows is the fold's own, word for word (the page is the test's
input: edit one without the other and this fails)."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from bot.service import DATA_DIR
from engine.events import Rejection
from engine.log import replay
from engine.rulesets import load_ruleset
from tests.engine.test_takeback import ROLL_PUBLIC, campaign, stamp, undo
from tests.fixture_paths import REPO

DOC = (REPO / "docs" / "randomness.md").read_text(encoding="utf-8")


def test_the_pages_undo_refusal_is_what_the_fold_says() -> None:
    section = DOC.split("## 6. Undo and void", 1)[1].split("\n## ", 1)[0]
    [shown] = re.findall(r"\n\n((?:    .*\n)+)", section)
    page = " ".join(line.strip() for line in shown.splitlines())
    with pytest.raises(Rejection) as refused:
        replay(load_ruleset("mare-nostrum", DATA_DIR), undo(campaign(), stamp(ROLL_PUBLIC + dt.timedelta(minutes=5))))
    assert refused.value.reason == page
