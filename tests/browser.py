"""The real browser the chronicle's pages are tested in: Debian's Chromium, driven by Playwright.

Playwright's own browser downloads do not install on these machines, so the tests launch the
distribution's package (``apt-get install chromium``; ``.ci/run`` installs it when missing,
as it does PostgreSQL) through Playwright's protocol.  ``ARBITRO_TEST_CHROMIUM`` names another
executable.  Without one the browser tests are skipped, and the report's first and last
lines say so (tests/conftest.py), never silently.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["CHROMIUM", "LAUNCH_ARGS", "browser_missing", "browser_status"]

CHROMIUM = os.environ.get("ARBITRO_TEST_CHROMIUM") or "/usr/bin/chromium"
#: A quiet, sandbox-free headless browser that asks nobody for anything (no updates, sync or
#: background requests): every request it makes is the page's.
LAUNCH_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
ENABLE_HINT = "apt-get install chromium (.ci/run installs it), or ARBITRO_TEST_CHROMIUM=/path"


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when they can."""
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)) and not shutil.which(
        CHROMIUM
    ):
        return f"no Chromium at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (make .venv/.installed)"
    return None


def browser_status() -> str:
    """One line for the test report: whether the chronicle's pages ran in a real browser."""
    missing = browser_missing()
    if missing is None:
        return f"Browser tests: ON (Chromium {CHROMIUM} through Playwright)"
    return f"Browser tests: SKIPPED ({missing}). To run them: {ENABLE_HINT}"
