"""Which campaign a command means, and what to say when none or several fit: one wording for the service and the
read-only reader (``bot/store/reader.py``), which must not import SQLAlchemy."""
from __future__ import annotations

from collections.abc import Sequence


class CampaignNotFound(LookupError):
    pass


def pick(name: str | None, names: Sequence[str]) -> str:
    """The campaign called ``name``, or the only one when no name is given; else CampaignNotFound saying why."""
    if name is not None:
        if name in names:
            return name
        raise CampaignNotFound(f"no campaign called '{name}'; campaigns here: {', '.join(names) or 'none'}")
    if len(names) == 1:
        return names[0]
    if not names:
        raise CampaignNotFound("this database holds no campaign yet: create one with `legatus new`")
    raise CampaignNotFound(f"this database holds several campaigns ({', '.join(names)}): name one with --campaign")
