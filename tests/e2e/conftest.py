"""Fixtures that start the stand-in and a real bot process, one per test module.

``discord_env`` runs Árbitro (``python -m bot`` through the launcher) with a fresh SQLite file.
Tests isolate from each other with ``sb.new_guild()``. When a test fails, the bot's log tail is added to the report.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from standin.client import REPO, Sandbox

pytestmark = pytest.mark.e2e


def _start(tmp: Path, module: str, extra_env: dict[str, str] | None = None) -> Sandbox:
    sb = Sandbox(
        timeout=float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")),
        deadline=float(os.environ.get("ARBITRO_E2E_DEADLINE", "3")),
    )
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'arbitro.db'}",
        "LOG_LEVEL": "INFO",
        "ARBITRO_DEFAULT_LOCALE": "es",
        **(extra_env or {}),
    }
    try:
        sb.start_bot(module, env=env, log_path=tmp / "bot.log")
    except Exception:
        sb.close()
        raise
    return sb


@pytest.fixture(scope="module")
def discord_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    """The stand-in with Árbitro (``bot.__main__``) connected, on a temporary SQLite file."""
    if not (REPO / "bot" / "__main__.py").exists():
        pytest.skip("bot/__main__.py does not exist yet")
    sb = _start(tmp_path_factory.mktemp("arbitro"), "bot.__main__")
    yield sb
    unknown = sb.unknown_requests
    sb.close()
    if unknown:
        # Not a failure (a test may probe on purpose), but nobody should miss it.
        seen = sorted({f"{r['method']} {r['path']}" for r in unknown})
        warnings.warn(f"the bot made requests the stand-in does not model: {seen}", stacklevel=1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when == "call":
        for name in ("discord_env",):
            sb = getattr(item, "funcargs", {}).get(name)
            if isinstance(sb, Sandbox):
                report.sections.append((f"bot log ({name}, tail)", sb.bot_log(80)))
