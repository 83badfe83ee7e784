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
# A message context menu: "| `Edit post` · `Editar publicación` (menú de mensaje) | …".
MENU_ROW = re.compile(
    r"^\| `(?P<en>[^`/][^`]*)` · `(?P<es>[^`]+)` \(menú de mensaje\) \|(?P<cells>.*)\|\s*$"
)
# From least to most: a GM may do at least what a player may, an administrator what a GM may.
AUDIENCE = {"no": 0, "propios": 1, "sí": 2}
# How the matrix names the Discord permissions the code may require (``default_permissions``).
PERMISSION_NAMES = {"manage_channels": "Gestionar canales", "manage_guild": "Gestionar servidor"}


@pytest.fixture
def tree(loaded_bot):
    return loaded_bot.tree


def matrix_rows(pattern: re.Pattern[str] = ROW) -> dict[str, dict[str, object]]:
    rows: dict[str, dict[str, object]] = {}
    for line in SECURITY.read_text(encoding="utf-8").splitlines():
        match = pattern.match(line)
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
    context_menus = {
        menu.name: menu
        for kind in (discord.AppCommandType.user, discord.AppCommandType.message)
        for menu in tree.get_commands(type=kind)
    }
    rows = matrix_rows()
    menu_rows = matrix_rows(MENU_ROW)
    assert sorted(context_menus) == sorted(menu_rows), "context menus and their matrix rows"
    for name, menu in context_menus.items():
        assert menu.type is discord.AppCommandType.message, f"{name}: only message menus so far"
        key = menu._locale_name.extras["key"] if menu._locale_name else None
        assert key and menu_rows[name]["es"] == catalogue().messages["es"][key], name
        player, gm, admin, permission, _notes = menu_rows[name]["cells"]  # type: ignore[misc]
        assert AUDIENCE[player] <= AUDIENCE[gm] <= AUDIENCE[admin], name
        assert permission == "—", name
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
