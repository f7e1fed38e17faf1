"""`legatus run` loads the bot, never the fake Discord (bot.devdiscord): that is for tests and `legatus dev-discord`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

# Runs the real entry point, then reports what it loaded: the console ends at ':quit' from stdin.
PROBE = """
import json, sys
from bot.cli import main
code = main(["run", "--db", sys.argv[1]])
print("LOADED", json.dumps({"code": code, "modules": sorted(m for m in sys.modules if m.startswith("bot."))}))
"""


def test_run_without_a_token_loads_no_fake_discord(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "run.db")], input=":quit\n", capture_output=True, text=True,
        cwd=REPO, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # The console's prompt has no newline: the report is what follows the marker.
    report = json.loads(done.stdout.rsplit("LOADED ", 1)[1])
    assert report["code"] == 0
    assert "bot.console.offline" in report["modules"] and "bot.schedule.scheduler" in report["modules"]  # it did run
    assert [m for m in report["modules"] if m.startswith("bot.devdiscord")] == []


def test_building_the_parser_loads_no_fake_discord() -> None:
    probe = "import sys; from bot.cli.main import build_parser; build_parser(); print([m for m in sys.modules if m.startswith('bot.devdiscord')])"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
