"""Where a campaign's page lives: its folder in the site, and its address under LEGATUS_PUBLIC_URL.

The folder is a function of the name alone (the turn announcements link a page without reading the other
campaigns): the name itself when it is already lowercase letters, digits and dashes, else that spelling of it
followed by six hex digits of its SHA-256, so two names never share a folder.
"""
from __future__ import annotations

import hashlib
import os
import re

PUBLIC_URL = "LEGATUS_PUBLIC_URL"
RESERVED = {"assets", "index.html"}


def folder_of(name: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "campaign"
    if base == name and base not in RESERVED:
        return base
    return f"{base}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:6]}"


def page_url(name: str, base: str | None = None) -> str | None:
    """The campaign page's address, or None when no public address is set (``LEGATUS_PUBLIC_URL``)."""
    root = (base if base is not None else os.environ.get(PUBLIC_URL, "")).strip()
    if not root.startswith(("https://", "http://")):
        return None
    return f"{root.rstrip('/')}/{folder_of(name)}/"
