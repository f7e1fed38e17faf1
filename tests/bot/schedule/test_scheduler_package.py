"""The scheduler package (bot/schedule/scheduler/): split into modules, and still running the jobs stored before."""
from __future__ import annotations

from pathlib import Path

from apscheduler.util import obj_to_ref, ref_to_obj

import bot.schedule.scheduler as S
from bot.schedule import beacon_pump

PACKAGE = Path(S.__file__).parent
# Every job function a job row can name (apscheduler stores "module:function").
JOBS = (S.act_on_deadline, S.remind, S.fetch_lotto, S.post_results, S.tell_gm, S.open_turn_thread, S.sweep)


def test_a_job_stored_before_the_split_still_finds_its_function() -> None:
    for job in JOBS:
        old = f"bot.schedule.scheduler:{job.__name__}"
        assert ref_to_obj(old) is job, old
        assert ref_to_obj(obj_to_ref(job)) is job  # and a job stored now names its own module
    assert obj_to_ref(S.fetch_lotto) == "bot.schedule.scheduler.message_jobs:fetch_lotto"
    assert ref_to_obj(obj_to_ref(beacon_pump.pump_beacons)) is beacon_pump.pump_beacons


def test_no_module_of_the_scheduler_is_over_600_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.glob("*.py")}
    assert set(sizes) == {"__init__.py", "app.py", "deadline_jobs.py", "message_jobs.py", "reconciliation.py",
                          "lifecycle.py"}
    assert max(sizes.values()) <= 600, sizes
