"""docs/security.md's permission matrix covers the whole app-command tree, exactly.

The test walks every command the real cogs register (as ``tests/bot/test_translator.py``
builds the tree): a command added later without a row, a row left for a command that is gone,
a Spanish name that no longer matches the catalogue, or a Discord permission that differs from
the code's ``default_permissions`` makes it fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import catalogue

SECURITY = Path(__file__).resolve().parents[2] / "docs" / "security.md"
ROW = re.compile(r"^\| `/(?P<en>[^`]+)` · `/(?P<es>[^`]+)` \|(?P<cells>.*)\|\s*$")
# From least to most: a GM may do at least what a player may, an administrator what a GM may.
AUDIENCE = {"no": 0, "propios": 1, "sí": 2}
# How the matrix names the Discord permissions the code may require (``default_permissions``).
PERMISSION_NAMES = {"manage_channels": "Gestionar canales", "manage_guild": "Gestionar servidor"}


@pytest.fixture
async def tree():
    from bot.app import EXTENSIONS, Arbitro
    from bot.config import load_config
    from bot.db.engine import create_engine

    bot = Arbitro(load_config({}), create_engine("sqlite+aiosqlite:///:memory:"))
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    yield bot.tree
    await bot.engine.dispose()


def matrix_rows() -> dict[str, dict[str, object]]:
    rows: dict[str, dict[str, object]] = {}
    for line in SECURITY.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match is None:
            continue
        cells = [cell.strip() for cell in match["cells"].split("|")]
        assert len(cells) == 5, f"a row needs player, GM, admin, permission, notes: {line}"
        assert match["en"] not in rows, f"two rows for /{match['en']}"
        rows[match["en"]] = {"es": match["es"], "cells": cells}
    return rows


def required_permission(command: app_commands.Command) -> str:
    node: app_commands.Command | app_commands.Group | None = command
    while node is not None:
        if node.default_permissions is not None:
            names = [
                PERMISSION_NAMES.get(name, name)
                for name, value in node.default_permissions
                if value
            ]
            return ", ".join(sorted(names))
        node = node.parent
    return "—"


def spanish_name(qualified: str) -> str:
    es = catalogue().messages["es"]
    parts = qualified.split()
    return " ".join(
        es[f"commands.{'.'.join(parts[: index + 1])}.name"] for index in range(len(parts))
    )


async def test_every_command_has_exactly_one_row_and_its_permission_matches_the_code(tree):
    commands = {
        command.qualified_name: command
        for command in tree.walk_commands()
        if isinstance(command, app_commands.Command)
    }
    context_menus = [
        menu.name
        for kind in (discord.AppCommandType.user, discord.AppCommandType.message)
        for menu in tree.get_commands(type=kind)
    ]
    rows = matrix_rows()
    assert context_menus == [], "context menus need rows in docs/security.md (and this test)"
    assert sorted(set(commands) - set(rows)) == [], "commands without a row in the matrix"
    assert sorted(set(rows) - set(commands)) == [], "rows for commands that do not exist"
    for name, command in commands.items():
        row = rows[name]
        player, gm, admin, permission, _notes = row["cells"]  # type: ignore[misc]
        assert row["es"] == spanish_name(name), name
        assert {player, gm, admin} <= AUDIENCE.keys(), (name, player, gm, admin)
        assert AUDIENCE[player] <= AUDIENCE[gm] <= AUDIENCE[admin], (name, player, gm, admin)
        assert permission == required_permission(command), name
        if permission != "—":
            assert player == "no", f"/{name}: Discord hides it from plain players"
