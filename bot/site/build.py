"""`legatus site`: a static site of every campaign, plain files that open from disk or any static host.

    out/index.html                 the campaigns
    out/assets/                    style, scripts, the bundled @noble libraries and their licences
    out/<campaign>/index.html      the page: verification, map, standings, turns, ledger, log
    out/<campaign>/campaign.log    the public log, as `legatus export` writes it
    out/<campaign>/log.js          the same text for the page's checks (a page opened from disk may not fetch)
    out/<campaign>/site-data.js    what the server read from the log: turns, ledger, which event bound each roll
    out/<campaign>/maps/turn-N.svg the map as each turn ended, loaded when the reader picks the turn
    out/<campaign>/charts/*.png    the history charts

Its only input is each campaign's public export (bot/site/record.py): nothing sealed or private can reach it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bot.render.charts import render_chart
from bot.render.map_svg import render_svg
from bot.site import pages
from bot.site.links import folder_of
from bot.site.record import CampaignRecord, build, ledger, standings

STATIC = Path(__file__).resolve().parent / "static"
MAP_WIDTH = 1200
CHART_WIDTH = 1000


def write_site(out: Path, campaigns: Iterable[tuple[str, str]], data_dir: Path) -> list[str]:
    """Write the site for ``campaigns`` ((name, exported log), ...) into ``out``, replacing what the site wrote
    there before; the folders of the campaigns written, in order. The site is built beside ``out`` and moved into
    place, so a reader (or the live server) never sees it half written."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".legatus-site-", dir=out.parent))
    work.chmod(0o755)  # mkdtemp makes it private; a static host serves it to anyone
    try:
        written = _write(work, campaigns, data_dir)
        if out.exists():
            old = out.with_name(out.name + ".old-" + work.name[-8:])
            os.replace(out, old)
            os.replace(work, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(work, out)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return written


def _write(root: Path, campaigns: Iterable[tuple[str, str]], data_dir: Path) -> list[str]:
    shutil.copytree(STATIC, root / "assets")
    summaries = []
    for name, log_text in campaigns:
        folder = folder_of(name)
        record = build(name, log_text, data_dir)
        facts = _facts(record, folder)
        _write_campaign(root / folder, record, facts, log_text)
        summaries.append(facts)
    (root / "index.html").write_text(pages.index_page(summaries), encoding="utf-8")
    return [s["slug"] for s in summaries]


def _facts(record: CampaignRecord, folder: str) -> dict[str, Any]:
    ruleset, state = record.ruleset, record.state
    summary = ruleset.summary(state)
    created = record.events[0].data
    final = record.turns[-1].picture if record.turns else None
    turns: list[dict[str, Any]] = []
    for t in record.turns:
        label = t.label if t is not record.turns[-1] else f"{t.label} (now)"
        turns.append({
            "number": t.number, "label": label, "first_seq": t.first_seq, "last_seq": t.last_seq, "head": t.head,
            "messages": t.messages, "map": f"maps/{len(turns)}-turn-{t.number}.svg" if t.picture is not None else "",
            "alt": _alt(t.picture, label),
        })
    charts = [{"kind": ch.kind, "title": ch.title, "file": f"charts/{re.sub(r'[^a-z0-9]+', '-', ch.kind.lower())}.png",
               "alt": _chart_alt(ch)} for ch in (final.charts if final is not None else ())]
    return {
        "slug": folder, "name": record.name, "game": ruleset.title,
        "turn_label": summary.turn_label, "phase": summary.phase, "over": summary.over,
        "randomness": str(created.get("randomness", ruleset.randomness)),
        "clock": str(created.get("clock", "")), "events": len(record.events),
        "last_seq": record.last_seq, "head": record.head, "turns": turns, "charts": charts,
        "standings": standings(final), "ledger": ledger(record),
    }


def _alt(picture: Any, label: str) -> str:
    """The map in words, for a screen reader: who holds how much, as the legend says."""
    if picture is None:
        return ""
    held = "; ".join(f"{s['power']}: {s['text']}" for s in standings(picture))
    return f"Map of {picture.title}, {label}. {held}"[:1000]


def _chart_alt(chart: Any) -> str:
    if not chart.steps:
        return f"{chart.title}: no data yet"
    last_x, last_label, values = chart.steps[-1]
    now = ", ".join(f"{power} {value}" for power, value in sorted(values.items()))
    return f"{chart.title}, {len(chart.steps)} steps; at {last_label or last_x}: {now}"[:1000]


def _write_campaign(folder: Path, record: CampaignRecord, facts: dict[str, Any], log_text: str) -> None:
    (folder / "maps").mkdir(parents=True)
    (folder / "charts").mkdir()
    (folder / "campaign.log").write_text(log_text, encoding="utf-8")
    # The log as a JS string: a page opened from disk (file://) may not fetch its neighbour, but may run it.
    (folder / "log.js").write_text("window.LEGATUS_LOG = " + _js(log_text) + ";\n", encoding="utf-8")
    for turn, shown in zip(record.turns, facts["turns"]):
        if turn.picture is not None:
            (folder / shown["map"]).write_text(render_svg(turn.picture, MAP_WIDTH), encoding="utf-8")
    final = record.turns[-1].picture if record.turns else None
    for chart in facts["charts"]:
        if final is not None:  # charts are listed only for a campaign with a closed turn (_facts)
            (folder / chart["file"]).write_bytes(render_chart(final, chart["kind"], CHART_WIDTH))
    data = {key: facts[key] for key in ("name", "game", "randomness", "clock", "last_seq", "head", "ledger")}
    data["turns"] = [{k: t[k] for k in ("number", "label", "first_seq", "last_seq", "head", "map", "alt")}
                     for t in facts["turns"]]
    data["verify_command"] = pages.VERIFY_COMMAND
    (folder / "site-data.js").write_text("window.LEGATUS_SITE = " + _js(data) + ";\n", encoding="utf-8")
    (folder / "index.html").write_text(pages.campaign_page(facts), encoding="utf-8")


def _js(value: Any) -> str:
    """JSON safe inside a script: no '</script>' nor a line separator can end or break it."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
