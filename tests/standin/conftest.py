"""The stand-in's own fixtures: ``tiny_env`` connects tests/standin/tiny_bot.py, a bare
discord.py bot, so these tests exercise the stand-in without Árbitro's database or cogs."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from standin.client import Sandbox

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def tiny_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    """The stand-in with tests/standin/tiny_bot.py connected."""
    tmp = tmp_path_factory.mktemp("tiny")
    sb = Sandbox(
        timeout=float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")),
        deadline=float(os.environ.get("ARBITRO_E2E_DEADLINE", "3")),
    )
    try:
        sb.start_bot("tests.standin.tiny_bot", env={"LOG_LEVEL": "INFO"}, log_path=tmp / "bot.log")
    except Exception:
        sb.close()
        raise
    yield sb
    sb.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    sb = getattr(item, "funcargs", {}).get("tiny_env")
    if report.failed and report.when == "call" and isinstance(sb, Sandbox):
        report.sections.append(("bot log (tiny_env, tail)", sb.bot_log(80)))
