"""The campaign site's HTML: the index of campaigns and each campaign's page, readable without any script.

The pages are plain HTML written once (the reading is there at first view, on a phone or a screen reader too);
two scripts add the map's turn slider and the verification in the reader's browser (bot/site/static/).
"""
from __future__ import annotations

from html import escape
from typing import Any

VERIFY_COMMAND = "legatus verify campaign.log --draws storico01-oggi.zip"


def _page(title: str, body: str, *, root: str, scripts: tuple[str, ...] = ()) -> str:
    tags = "".join(f'<script src="{escape(s)}" defer></script>' for s in scripts)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta name=\"color-scheme\" content=\"light dark\">\n"
        f"<title>{escape(title)}</title>\n<link rel=\"stylesheet\" href=\"{root}assets/site.css\">\n{tags}\n</head>\n"
        f"<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n{body}\n</body>\n</html>\n"
    )


def index_page(campaigns: list[dict[str, Any]]) -> str:
    rows = "".join(
        f"<li><a href=\"{escape(c['slug'])}/index.html\"><strong>{escape(c['name'])}</strong></a> "
        f"<span class=\"muted\">{escape(c['game'])}</span><br>{escape(c['turn_label'])}"
        f"{' (over)' if c['over'] else ', ' + escape(c['phase'])} <span class=\"muted\">· {c['events']} events · head "
        f"<code>{c['last_seq']}:{escape(c['head'][:12])}…</code></span></li>"
        for c in campaigns
    ) or "<li>No campaign yet.</li>"
    body = (f"<header><h1>Legatus campaigns</h1><p>Every campaign's map, results and dice, with the dice checked in "
            f"your own browser.</p></header>\n<main id=\"main\"><ul class=\"campaigns\">{rows}</ul></main>")
    return _page("Legatus campaigns", body, root="")


def campaign_page(c: dict[str, Any]) -> str:
    """``c``: the campaign's facts (bot/site/build.py ``_facts``)."""
    title = f"{c['name']}: {c['game']}"
    turns = c["turns"]
    last = len(turns) - 1
    options = "".join(f"<option value=\"{i}\"{' selected' if i == last else ''}>{escape(t['label'])}</option>"
                      for i, t in enumerate(turns))
    first_map = turns[last]["map"] if turns else ""
    map_section = (
        "<section id=\"map\" aria-labelledby=\"map-h\"><h2 id=\"map-h\">Map</h2>"
        f"<div class=\"turnpick\"><label for=\"turn-slider\">Turn</label>"
        f"<input type=\"range\" id=\"turn-slider\" min=\"0\" max=\"{last}\" value=\"{last}\" "
        f"aria-valuetext=\"{escape(turns[last]['label']) if turns else ''}\">"
        f"<select id=\"turn-select\" aria-label=\"Turn shown on the map\">{options}</select></div>"
        f"<figure><img id=\"map-img\" src=\"{escape(first_map)}\" width=\"1200\" height=\"800\" decoding=\"async\" "
        f"alt=\"{escape(turns[last]['alt']) if turns else ''}\">"
        f"<figcaption id=\"map-caption\">{escape(turns[last]['label']) if turns else ''}</figcaption></figure>"
        "</section>"
    ) if first_map else ""
    charts = "".join(
        f"<figure><img src=\"{escape(ch['file'])}\" loading=\"lazy\" width=\"1000\" height=\"500\" "
        f"alt=\"{escape(ch['alt'])}\"><figcaption>{escape(ch['title'])}</figcaption></figure>"
        for ch in c["charts"])
    standings = "".join(
        f"<tr><th scope=\"row\">{escape(s['power'])}</th><td>{escape(s['player'] or '')}</td>"
        f"<td class=\"num\">{'' if s['count'] is None else s['count']}</td><td>{escape(s['text'])}</td></tr>"
        for s in c["standings"])
    body = (
        "<header><p class=\"crumbs\"><a href=\"../index.html\">All campaigns</a></p>"
        f"<h1>{escape(c['name'])}</h1><p>{escape(c['game'])} · {escape(c['turn_label'])}"
        f"{' · the campaign is over' if c['over'] else ', ' + escape(c['phase'])}</p>"
        f"<p class=\"muted\">Randomness: {escape(c['randomness'])} · clock: {escape(c['clock'])} · "
        f"{c['last_seq']} events · chain head <code class=\"hash\">{c['last_seq']}:{escape(c['head'])}</code></p>"
        "<nav aria-label=\"Sections\"><ul><li><a href=\"#verify\">Verify</a></li><li><a href=\"#map\">Map</a></li>"
        "<li><a href=\"#standings\">Standings</a></li><li><a href=\"#turns\">Turns</a></li>"
        "<li><a href=\"#ledger\">Ledger</a></li><li><a href=\"#log\">Log</a></li></ul></nav></header>\n"
        "<main id=\"main\">\n"
        + _verify_section(c) + map_section
        + f"<section id=\"standings\" aria-labelledby=\"st-h\"><h2 id=\"st-h\">Standings</h2>"
          f"<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Power</th><th scope=\"col\">Player</th>"
          f"<th scope=\"col\">Count</th><th scope=\"col\">Note</th></tr></thead><tbody>{standings}</tbody></table></div>"
          f"{charts}</section>\n"
        + _turns_section(turns) + _ledger_section(c["ledger"]) + _log_section(c) + "</main>"
    )
    return _page(title, body, root="../", scripts=("../assets/vendor/noble.js", "../assets/verify.js",
                                                    "site-data.js", "log.js", "../assets/app.js"))


def _verify_section(c: dict[str, Any]) -> str:
    return (
        "<section id=\"verify\" aria-labelledby=\"v-h\"><h2 id=\"v-h\">Verify in this browser</h2>"
        "<p>This page re-checks the campaign here, from the public log, without trusting the server that sent it: "
        "the hash chain, every drand beacon's signature against the pinned quicknet key, every die from its public "
        "value, every binding made before its draw or round.</p>"
        "<p id=\"verify-status\" class=\"status\" role=\"status\" aria-live=\"polite\">Checking… "
        "(this needs JavaScript; without it, use the command below)</p>"
        "<ol id=\"verify-checks\" class=\"checks\"></ol>"
        "<form id=\"anchor-form\" class=\"anchor\"><label for=\"anchor-input\">A head the bot posted on Discord "
        "(SEQ:HASH)</label> <input id=\"anchor-input\" name=\"anchor\" autocomplete=\"off\" spellcheck=\"false\" "
        "placeholder=\"SEQ:HASH\"> <button type=\"submit\">Check it</button>"
        "<output id=\"anchor-result\" for=\"anchor-input\"></output></form>"
        "<details><summary>What this page cannot check</summary><p>That the rules were applied (each order, each "
        "roll asked with the label and range the game's rules give it, each outcome read from its dice) needs the "
        "game's own engine. So does the comparison of recorded lottery draws with the official archive. Download "
        "the log and run:</p>"
        f"<pre><code>{escape(VERIFY_COMMAND)}</code></pre>"
        "<p>(with <code>--expect-head SEQ:HASH</code> for each head you saw posted on Discord).</p></details>"
        "</section>\n"
    )


def _turns_section(turns: list[dict[str, Any]]) -> str:
    items = []
    for i, t in enumerate(reversed(turns)):
        lines = "".join(f"<li><span class=\"seq\">#{seq}</span> {escape(m)}</li>"
                        for seq, m in t["messages"])
        items.append(f"<details{' open' if i == 0 else ''}><summary>{escape(t['label'])} "
                     f"<span class=\"muted\">events #{t['first_seq']}–#{t['last_seq']}, head "
                     f"<code>{t['last_seq']}:{escape(t['head'][:12])}…</code></span></summary>"
                     f"<ul class=\"messages\">{lines or '<li>Nothing announced.</li>'}</ul></details>")
    return (f"<section id=\"turns\" aria-labelledby=\"t-h\"><h2 id=\"t-h\">Turns, announcements and results</h2>"
            f"{''.join(items)}</section>\n")


def _ledger_section(entries: list[dict[str, Any]]) -> str:
    rows = []
    for e in entries:
        values = "pending" if e.get("values") is None else ", ".join(str(v) for v in e["values"])
        rows.append(
            f"<tr id=\"roll-{escape(str(e['id']))}\"><th scope=\"row\">{escape(str(e['id']))}</th>"
            f"<td class=\"num\">{'' if e.get('turn') is None else e['turn']}</td>"
            f"<td>{escape(str(e.get('purpose') or ''))}{' · ' + escape(str(e['seat'])) if e.get('seat') else ''}"
            f"<br><span class=\"muted\">{escape(str(e.get('meaning') or ''))}</span></td>"
            f"<td>{'#' + str(e['bound_seq']) if e.get('bound_seq') is not None else ''}</td>"
            f"<td>{escape(str(e.get('where') or ''))}</td><td class=\"num\">{escape(values)}</td>"
            f"<td>{escape(str(e.get('outcome') or ''))}</td>"
            f"<td class=\"rollcheck\" data-roll=\"{escape(str(e['id']))}\">…</td></tr>")
    return ("<section id=\"ledger\" aria-labelledby=\"l-h\"><h2 id=\"l-h\">Ledger: every roll</h2>"
            "<div class=\"scroll\"><table class=\"ledger\"><thead><tr><th scope=\"col\">Roll</th>"
            "<th scope=\"col\">Turn</th><th scope=\"col\">What it decides</th><th scope=\"col\">Bound by</th>"
            "<th scope=\"col\">Public value</th><th scope=\"col\">Values</th><th scope=\"col\">Outcome</th>"
            f"<th scope=\"col\">Checked here</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div></section>\n")


def _log_section(c: dict[str, Any]) -> str:
    return ("<section id=\"log\" aria-labelledby=\"g-h\"><h2 id=\"g-h\">The public log</h2>"
            f"<p><a href=\"campaign.log\" download>Download campaign.log</a> ({c['last_seq']} events, one JSON "
            "event per line, as <code>legatus export</code> writes it; sealed contents appear as their digests "
            "only). Check it yourself:</p>"
            f"<pre><code>{escape(VERIFY_COMMAND)} --expect-head {c['last_seq']}:{escape(c['head'])}</code></pre>"
            "</section>\n")
