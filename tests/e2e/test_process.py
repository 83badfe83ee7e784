"""The bot process itself: no token, migrations on start, clean shutdown on SIGTERM/SIGINT."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from standin.client import REPO, Sandbox

pytestmark = pytest.mark.e2e


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env.update(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'a.db'}",
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": "",
            **extra,
        }
    )
    return env


@pytest.mark.parametrize(
    ("locale", "needle"), [("es", "applications.commands"), ("en", "How to get one")]
)
def test_without_a_token_it_explains_and_offers_the_sandbox(tmp_path, locale, needle):
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        env=_env(tmp_path, ARBITRO_DEFAULT_LOCALE=locale),
        cwd=tmp_path,  # no .env here
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert needle in result.stderr
    assert "python -m bot sandbox" in result.stderr


def test_migrate_command_creates_the_schema_in_wal_mode(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        env=_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(tmp_path / "a.db") as db:
        tables = {row[0] for row in db.execute("select name from sqlite_master where type='table'")}
        mode = db.execute("pragma journal_mode").fetchone()[0]
    assert {"campaign", "roll_log", "character", "alembic_version"} <= tables
    assert mode == "wal"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signals_shut_the_bot_down_cleanly(tmp_path, signum):
    sb = Sandbox()
    try:
        sb.start_bot(
            "bot.__main__",
            env={"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"},
            log_path=tmp_path / "bot.log",
        )
        time.sleep(0.5)
        sb.proc.send_signal(signum)
        assert sb.proc.wait(20) == 0
        assert "shutting down" in sb.bot_log()
    finally:
        sb.close()
