"""How an in-bot /verify answers: the verdict, the full anchor ``SEQ:HASH``, every mismatch and every note (GM
voids, GM-typed or imported draws, rolls not bound in advance), and the command that checks it again offline."""
from __future__ import annotations

from engine.verify import Verification

SHOWN = 20  # findings and notes listed in one message; the rest are counted


def verification_text(result: Verification, unread: int = 0) -> str:
    """``unread``: channels or threads of the campaign whose messages could not be read as witnesses."""
    head = (f"log head `{result.anchor}`, {result.events} events, {result.rolls} rolls, {result.draws_checked} draws"
            + (f", {result.beacons_checked} drand beacons checked offline" if result.beacons_checked else ""))
    # A campaign with no lottery draw (drand beacons, a commit-reveal seed) is not told about draws or their archive.
    lottery = result.draws_checked > 0 or not result.beacons_checked
    if result.ok and result.awaiting_reveal:
        lines = [f"✗ Not verified: {result.awaiting_words()} (the GM reveals it with /campaign reveal); no mismatch "
                 f"in the rest ({head})."]
    elif result.ok:
        lines = [f"✓ Every number matches the stored draws ({head})." if lottery else
                 f"✓ Every number matches its drand beacon, each checked against the chain's key ({head})."]
    else:
        lines = [f"✗ {len(result.findings)} mismatch(es) ({head}):"]
        lines += [f"• {f}" for f in result.findings[:SHOWN]]
    if result.notes:
        lines.append("On record (no mismatch, but weigh it):")
        lines += [f"• {n}" for n in result.notes[:SHOWN]]
    if unread:
        lines.append(f"{unread} channel(s) or thread(s) of the campaign could not be read for the bot's own messages: "
                     "the bindings posted there count as unwitnessed.")
    hidden = max(0, len(result.findings) - SHOWN) + max(0, len(result.notes) - SHOWN)
    if hidden:
        lines.append(f"… and {hidden} more: run the command below for all of them.")
    if lottery:
        lines.append(f"Check it yourself: `legatus verify campaign.log --draws storico01-oggi.txt --expect-head "
                     f"{result.anchor}` with the operator's archive (add `--witnesses` with an export of this channel "
                     "to hold it to the heads posted here, at Discord's times).")
    else:
        lines.append(f"Check it yourself: `legatus verify campaign.log --expect-head {result.anchor}` (the beacons and "
                     "the chain's key are in the log).")
    return "\n".join(lines)
