"""The README's command tables name every command and option in Spanish *and* English.

A user reading the README must not have to guess that ``cantidad`` is ``amount:`` in an English
Discord.  The test walks the real command tree (every cog loaded; the names come from the same
payloads Discord gets, so from ``commands.toml``) and requires, for each command, a table row
under «Comandos / Commands» whose first cell holds ``/<Spanish path>`` and ``/<English path>``
and every option's Spanish and English name.  A command or option added later without its row
fails here, with the row it expects.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.ui.help_pages import CommandDoc, docs_of

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture
async def docs(loaded_bot):
    return await docs_of(loaded_bot)


def command_cells() -> list[str]:
    """The first cell of every table row in the README's «Comandos / Commands» section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Comandos / Commands\n", 1)[1].split("\n## ", 1)[0]
    return [
        line.split(" | ")[0]
        for line in section.splitlines()
        if line.startswith("| `/") or line.startswith("| /")
    ]


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w/]){re.escape(name)}(?![\w])")


def _command(path: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w/])/{re.escape(path)}(?![\w])")


def expected_cell(doc: CommandDoc) -> str:
    """How the row's first cell names a command (the test's message shows it)."""

    def usage(lang: str) -> str:
        words = [o.names[lang] if o.required else f"[{o.names[lang]}]" for o in doc.options]
        return " ".join([f"/{doc.names[lang]}", *words])

    return f"`{usage('es')}` (`{usage('en')}`)"


def missing(doc: CommandDoc, cells: list[str]) -> str | None:
    rows = [
        cell
        for cell in cells
        if _command(doc.names["es"]).search(cell) and _command(doc.names["en"]).search(cell)
    ]
    if not rows:
        return f"/{doc.path}: no row; expected a first cell like {expected_cell(doc)}"
    for option in doc.options:
        for lang in ("es", "en"):
            if not any(_word(option.names[lang]).search(cell) for cell in rows):
                return f"/{doc.path}: option {option.names[lang]!r} missing; expected {expected_cell(doc)}"
    return None


async def test_every_command_and_option_is_in_the_readme_in_both_languages(docs):
    cells = command_cells()
    assert len(cells) > 30
    problems = [p for doc in docs if not doc.context_menu and (p := missing(doc, cells))]
    assert problems == [], "\n".join(problems)


def test_the_check_fails_on_a_missing_english_name():
    from cogs.ui.help_pages import OptionDoc

    doc = CommandDoc(
        path="sheet money",
        names={"es": "ficha dinero", "en": "sheet money"},
        descriptions={},
        options=(
            OptionDoc("amount", {"es": "cantidad", "en": "amount"}, {}, True, "integer", (), False),
        ),
    )
    assert missing(doc, ["| `/ficha dinero cantidad` (`/sheet money amount`)"]) is None
    assert "option 'amount' missing" in missing(
        doc, ["| `/ficha dinero cantidad` (`/sheet money`)"]
    )
    assert "no row" in missing(doc, ["| `/ficha dinero cantidad`"])
    assert "no row" in missing(doc, ["| `/ficha dineros cantidad` (`/sheet moneyx amount`)"])
