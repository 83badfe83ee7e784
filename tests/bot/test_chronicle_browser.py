"""The chronicle is a web page: its pages opened in a real browser (issue 22 §3).

The export of a campaign with stored avatars (a visible character's and a hidden NPC's) is
unzipped into a folder and a public page and a GM page are opened from it in Chromium (the
distribution's package, driven by Playwright: tests/browser.py) with every request that
leaves the folder refused: no request leaves the folder, every avatar decodes, the console
shows no error (a Content-Security-Policy refusal would be one), and a full-page screenshot
has the page's size.  Skipped, and said so in the report's last lines, where no browser is
installed.
"""

from __future__ import annotations

import asyncio
import io
import struct
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bot.services.sheets.profiles import ProfileChange
from tests.bot.test_chronicle import ANA, GM, HERE, THREAD, _long_posts, png, table  # noqa: F401
from tests.browser import CHROMIUM, LAUNCH_ARGS, browser_missing

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))

VIEWPORT = {"width": 900, "height": 700}
PAGES = ("scenes/001-la-posada-del-grifo.html", "gm/scenes/001-la-posada-del-grifo.html")


async def test_the_pages_open_offline_in_a_real_browser(table, tmp_path: Path):  # noqa: F811
    await table.profiles.update(HERE, ANA, "Ardelia", ProfileChange(avatar=png(64, 48, seed=7)))
    await table.profiles.update(HERE, GM, "Espía Oculta", ProfileChange(avatar=png(32, 32, seed=8)))
    await _long_posts(table, THREAD, count=3, size=300)
    chronicle = await table.chronicle.export(HERE, GM, "es", 10 * 2**20)
    folder = tmp_path / "cronica"
    with zipfile.ZipFile(io.BytesIO(chronicle.payload)) as archive:
        archive.extractall(folder)
    # Playwright's synchronous API runs its own loop: in a thread, beside the test's
    for seen in await asyncio.to_thread(_open, folder, PAGES, tmp_path):
        assert seen["outside"] == [], seen["outside"]  # nothing left the folder
        assert seen["errors"] == [], seen["errors"]  # no console error, no page error
        assert seen["images"] >= 4 and seen["broken"] == [], seen  # every avatar decodes
        assert seen["stored"] >= 1  # the stored avatars were files of the folder, loaded
        width, height = seen["screenshot"]
        assert (width, height) == (VIEWPORT["width"], seen["height"]), seen
        assert height > VIEWPORT["height"]  # the whole page, not the window


def _open(folder: Path, pages: tuple[str, ...], shots: Path) -> list[dict[str, Any]]:
    """Open each page of the unzipped ``folder`` with the network refused: what happened."""
    from playwright.sync_api import sync_playwright

    root = folder.resolve().as_uri() + "/"
    found = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(LAUNCH_ARGS))
        try:
            for page in pages:
                found.append(_visit(browser, root, page, shots / f"{page.replace('/', '-')}.png"))
        finally:
            browser.close()
    return found


def _visit(browser: Any, root: str, page: str, shot: Path) -> dict[str, Any]:
    outside: list[str] = []
    errors: list[str] = []
    context = browser.new_context(viewport=VIEWPORT)

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(root) or url.startswith("data:"):
            route.continue_()
        else:  # the network is blocked: anything else is recorded and refused
            outside.append(url)
            route.abort()

    context.route("**/*", guard)
    tab = context.new_page()
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on(
        "requestfailed",
        lambda request: (
            errors.append(f"failed: {request.url}") if request.url.startswith(root) else None
        ),
    )
    tab.goto(root + page, wait_until="load")
    images = tab.evaluate(
        """() => [...document.images].map(i => ({
            src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0}))"""
    )
    height = tab.evaluate("document.documentElement.scrollHeight")
    tab.screenshot(path=str(shot), full_page=True)
    context.close()
    return {
        "outside": outside,
        "errors": errors,
        "images": len(images),
        "broken": [i["src"][:60] for i in images if not i["ok"]],
        "stored": sum(1 for i in images if not i["src"].startswith("data:")),
        "height": height,
        "screenshot": _png_size(shot.read_bytes()),
    }


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height
