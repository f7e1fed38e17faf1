"""Runs of scheduler_drive.py as processes forked from one that has imported it already.

The crash test starts the drive some twenty times in a row, each killed (SIGKILL) somewhere or run to the end; a
fresh interpreter spent ~0.7 s of each on imports, most of the test's time. A process that imported the drive
once (and opened nothing: no database, no thread, no event loop) forks a child per run instead: the child is a
process of its own that dies by SIGKILL exactly as a fresh one would, its SQLite file handles released by the
system, nothing of it flushed or cleaned up.

    python tests/bot/schedule/drive_forks.py      # then one JSON line per run on stdin: {"db", "out", "kill"}

answers one line per run: the child's exit code as subprocess reports it (0, or -9 when killed), and its stderr.
"""
from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

DRIVE = Path(__file__).with_name("scheduler_drive.py")


def _serve() -> None:
    spec = importlib.util.spec_from_file_location("scheduler_drive", DRIVE)
    assert spec is not None and spec.loader is not None
    drive = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(drive)
    import asyncio

    for line in sys.stdin:
        request = json.loads(line)
        with tempfile.TemporaryFile() as errors:
            pid = os.fork()
            if pid == 0:
                os.dup2(errors.fileno(), 2)
                signal.alarm(60)  # a run that hangs dies (SIGALRM) instead of hanging the test
                code = 0
                try:
                    drive._kill = request["kill"] or ""  # what LEGATUS_KILL says to a fresh process
                    drive._counts.clear()
                    asyncio.run(drive.main(Path(request["db"]), Path(request["out"])))
                except BaseException:
                    traceback.print_exc()
                    code = 1
                finally:
                    sys.stderr.flush()
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace")[-3000:]
        print(json.dumps({"code": code, "stderr": said}), flush=True)


class Forks:
    """The forking process, started once; ``run`` is one run of the drive, as ``subprocess.run`` of it would be."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(Path(__file__))], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def run(self, db: Path, out: Path, kill: str | None) -> tuple[int, str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"db": str(db), "out": str(out), "kill": kill}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return int(answer["code"]), str(answer["stderr"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


if __name__ == "__main__":
    _serve()
