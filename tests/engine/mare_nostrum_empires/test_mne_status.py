"""The status board's lines: counts with their noun in the singular for one, a row with nothing face up said so."""
from __future__ import annotations

import copy

from tests.engine.mare_nostrum_empires.mne_play import Play


def test_the_status_counts_one_trireme_and_says_when_the_row_shows_nothing() -> None:
    p = Play(rules_version=3)
    lines = p.rs.status(p.state).splitlines()
    assert lines[2] == "Romans (ann): 3 provinces, 3 legions, 1 trireme; 9 tokens; tiles Caesar; levels 5/7/5"
    assert lines[5] == "Row: Spartacus, Oracle of Delphi, Alexander, Mausoleum, Colossus of Rhodes (+0 face down)"
    waiting = copy.deepcopy(p.state)  # as a drand campaign's row stands until its shuffle's round is out
    waiting.row.face_up = [None] * 5  # gaps: what a drand campaign shows before its row is dealt
    assert p.rs.status(waiting).splitlines()[5] == "Row: no tile face up (+0 face down)"
