"""Holds process locks in a process of its own until killed: the other process of the tests of process_locks.py.

    python tests/bot/store/lock_holder.py DATABASE NAME [NAME...]

Prints "held" once it holds every NAME (or "busy NAME" and exits 3 if another process holds one).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bot.store.db import open_engine  # noqa: E402
from bot.store.process_locks import process_locks  # noqa: E402


def main(db: str, names: list[str]) -> int:
    locks = process_locks(open_engine(db))
    for name in names:
        if not locks.try_acquire(name):
            print(f"busy {name}", flush=True)
            return 3
    print("held", flush=True)
    time.sleep(600)  # until the test kills it: the system, not this process, lets go of the locks
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
