"""Reading witnesses (engine/witness.py): the time Discord gave a message, the export formats, edited messages."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from engine.witness import Binding, Witness, anchor_witness, check, read_witnesses, snowflake_time

UTC = dt.timezone.utc
HEAD = "a" * 64


def test_a_snowflake_says_when_discord_made_it() -> None:
    # Discord's own documented example: 175928847299117063 was made at 2016-04-30 11:18:25.796 UTC.
    assert snowflake_time(175928847299117063) == dt.datetime(2016, 4, 30, 11, 18, 25, 796000, tzinfo=UTC)


def test_json_lines_and_the_api_format_are_read() -> None:
    lines = "\n".join(json.dumps(m) for m in ({"id": "175928847299117063", "content": f"ok\nLog head after this post: 3:{HEAD}"},
                                               {"id": "175928847299117064", "content": "table talk"}))
    found, problems = read_witnesses(lines)
    assert found == [Witness(3, HEAD, snowflake_time(175928847299117063), "Discord message 175928847299117063")]
    assert problems == []
    api = json.dumps([{"id": 175928847299117063, "content": f"Log head after this post: `4:{HEAD}`",
                       "edited_timestamp": None, "author": {"bot": True}}])
    assert [w.seq for w in read_witnesses(api)[0]] == [4]


def test_an_edited_message_counts_from_its_edit() -> None:
    """Attacker: the operator, who holds the bot's token and edits an old message to show a newer head."""
    export = {"messages": [{"id": "175928847299117063", "timestamp": "2016-04-30T11:18:25.796+00:00",
                            "timestampEdited": "2016-05-02T08:00:00+00:00",
                            "content": f"Log head after this post: 9:{HEAD}", "author": {"isBot": True}}]}
    (witness,), _ = read_witnesses(json.dumps(export))
    assert witness.seen == dt.datetime(2016, 5, 2, 8, 0, tzinfo=UTC)


def test_an_export_whose_timestamp_contradicts_the_id_is_not_used() -> None:
    """Attacker: whoever hands out the export, moving a message's time back by hand."""
    export = {"messages": [{"id": "175928847299117063", "timestamp": "2016-04-29T11:18:25+00:00",
                            "content": f"Log head after this post: 9:{HEAD}"}]}
    found, problems = read_witnesses(json.dumps(export), "x.json")
    assert found == [] and problems == ["x.json: message 1: message 175928847299117063 says it was sent at "
                                        "2016-04-29T11:18:25Z, but its id says 2016-04-30T11:18:25Z: the export was "
                                        "changed by hand; skipped"]


@pytest.mark.parametrize(("text", "words"), [
    ("", "is empty"), ("{not json", "is not JSON"), ("42", "is JSON but not an export of messages"),
])
def test_what_is_not_an_export_is_refused_saying_what_would_be_right(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        read_witnesses(text, "w.json")


def test_an_anchor_with_a_time() -> None:
    made = anchor_witness(f"5:{HEAD}@2026-11-25T19:30:00Z", 5, HEAD)
    assert isinstance(made, Witness) and made.seen == dt.datetime(2026, 11, 25, 19, 30, tzinfo=UTC)
    assert anchor_witness(f"5:{HEAD}", 5, HEAD) is None
    assert "must be YYYY-MM-DDTHH:MM:SSZ" in str(anchor_witness(f"5:{HEAD}@2026-11-25T19:30:00", 5, HEAD))


def test_the_earliest_matching_witness_at_or_after_a_binding_decides() -> None:
    public = dt.datetime(2026, 11, 26, 19, 0, tzinfo=UTC)
    binding = Binding(4, 1, "omen", "lottery", "2026-11-26", public, public - dt.timedelta(minutes=10))
    early = Witness(5, "b" * 64, public - dt.timedelta(hours=1), "early")
    too_soon = Witness(3, "c" * 64, public - dt.timedelta(hours=2), "before the binding")
    late = Witness(6, "d" * 64, public + dt.timedelta(hours=1), "late")
    hashes = {3: "c" * 64, 4: "x" * 64, 5: "b" * 64, 6: "d" * 64}
    problems, unwitnessed, _ = check(hashes, 6, [late, too_soon, early], [binding])
    assert problems == [] and unwitnessed == []
    problems, unwitnessed, _ = check(hashes, 6, [late, too_soon], [binding])
    assert [p.purpose for p in problems] == ["omen"] and "first witnessed by late" in problems[0].detail
    problems, unwitnessed, _ = check(hashes, 6, [too_soon], [binding])
    assert problems == [] and unwitnessed == [binding]
    problems, _, _ = check({k: v for k, v in hashes.items() if k < 6}, 5, [Witness(6, "d" * 64, public, "cut")], [])
    assert "but the log ends at #5: the log was cut" in problems[0].detail
