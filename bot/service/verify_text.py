"""How an in-bot /verify answers: the verdict, the full anchor ``SEQ:HASH``, every mismatch, every draw the sources
have not confirmed, every note (GM voids, GM-typed or imported draws, rolls not bound in advance), and the command
that checks it again offline."""
from __future__ import annotations

from engine.verify import Verification

SHOWN = 20  # findings and notes listed in one message; the rest are counted


def verification_text(result: Verification, unread: int = 0) -> str:
    """``unread``: channels or threads of the campaign whose messages could not be read as witnesses."""
    head = (f"log head `{result.anchor}`, {result.events} events, {result.rolls} rolls, {result.draws_checked} draws"
            + (f", {result.beacons_checked} drand beacons checked offline" if result.beacons_checked else ""))
    # A campaign with no lottery draw (drand beacons, a commit-reveal seed) is not told about draws or their archive.
    lottery = result.draws_checked > 0 or not result.beacons_checked
    # A draw no public value was given for (typed by a GM, or from one source, with no two sources' word on it:
    # bot/service/verify_draws.py) is neither a mismatch nor a pass: it is said so, and how to check it.
    mismatches = [f for f in result.findings if not f.unchecked]
    unchecked = [f for f in result.findings if f.unchecked]
    if result.ok and result.awaiting_reveal:
        lines = [f"✗ Not verified: {result.awaiting_words()} (the GM reveals it with /campaign reveal); no mismatch "
                 f"in the rest ({head})."]
    elif result.ok:
        lines = [f"✓ Every number matches the stored draws ({head})." if lottery else
                 f"✓ Every number matches its drand beacon, each checked against the chain's key ({head})."]
    elif mismatches:
        lines = [f"✗ {len(mismatches)} mismatch(es) ({head}):"]
        lines += [f"• {f}" for f in mismatches[:SHOWN]]
    else:
        lines = [f"⚠ Not verified: {len(unchecked)} draw(s) not confirmed by the lottery's sources ({head}); the "
                 "rest matches."]
    if unchecked:
        days = ", ".join(f.purpose.removeprefix("draw of ") for f in unchecked[:SHOWN])
        lines.append(f"⚠ Not confirmed by the lottery's sources: {days}. Typed by a GM or given by one source, and no "
                     "two sources have given them since, so the bot cannot vouch for their numbers: check them with "
                     "the operator's archive, `legatus verify campaign.log --draws storico01-oggi.zip`.")
    if result.notes:
        lines.append("On record (no mismatch, but weigh it):")
        lines += [f"• {n}" for n in result.notes[:SHOWN]]
    if unread:
        lines.append(f"{unread} channel(s) or thread(s) of the campaign could not be read for the bot's own messages: "
                     "the bindings posted there count as unwitnessed.")
    hidden = max(0, len(mismatches) - SHOWN) + max(0, len(unchecked) - SHOWN) + max(0, len(result.notes) - SHOWN)
    if hidden:
        lines.append(f"… and {hidden} more: run the command below for all of them.")
    if lottery:
        lines.append(f"Check it yourself: `legatus verify campaign.log --draws storico01-oggi.zip --expect-head "
                     f"{result.anchor}` with the operator's archive (add `--witnesses` with an export of this channel "
                     "to hold it to the heads posted here, at Discord's times).")
    else:
        lines.append(f"Check it yourself: `legatus verify campaign.log --expect-head {result.anchor}` (the beacons and "
                     "the chain's key are in the log).")
    return "\n".join(lines)
