"""Every command, option and choice has a valid Spanish name and description."""

from __future__ import annotations

import re

import pytest

from bot.translator import CatalogueTranslator

NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def tree():
    """The real command tree, built by loading the real cogs (no connection needed)."""
    from bot.app import EXTENSIONS, Arbitro
    from bot.config import load_config
    from bot.db.engine import create_engine

    bot = Arbitro(load_config({}), create_engine("sqlite+aiosqlite:///:memory:"))
    await bot.tree.set_translator(CatalogueTranslator())
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    yield bot.tree
    # unloading stops the combat cog's reminder task (it cannot start without a login); left
    # alone, its error is logged at garbage collection, and 3.11's traceback then calls
    # ast.parse inside whatever ast.parse is running ("AST constructor recursion depth mismatch")
    for extension in reversed(EXTENSIONS):
        await bot.unload_extension(extension)
    await bot.engine.dispose()


async def test_every_command_and_option_has_a_spanish_translation(tree):
    payloads = [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree.get_commands()
    ]
    missing: list[str] = []

    def walk(payload, path):
        localized = payload.get("name_localizations", {})
        if "es-ES" not in localized:
            missing.append(path + ":name")
        else:
            assert (
                NAME.match(localized["es-ES"]) and localized["es-ES"] == localized["es-ES"].lower()
            )
            assert localized["es-419"] == localized["es-ES"]
        if "es-ES" not in payload.get("description_localizations", {}):
            missing.append(path + ":description")
        else:
            assert len(payload["description_localizations"]["es-ES"]) <= 100
        for choice in payload.get("choices", []):
            if "es-ES" not in choice.get("name_localizations", {}):
                missing.append(f"{path}:choice:{choice['value']}")
        for option in payload.get("options", []):
            walk(option, f"{path} {option['name']}")

    menus = [p for p in payloads if p.get("type", 1) != 1]
    for payload in payloads:
        if payload in menus:
            continue
        walk(payload, payload["name"])
    # context menus: names of 1-32 characters, any case and spaces; Discord shows no description
    for menu in menus:
        localized = menu.get("name_localizations") or {}
        if "es-ES" not in localized:
            missing.append(menu["name"] + ":name")
        else:
            assert 1 <= len(localized["es-ES"]) <= 32 and localized["es-419"] == localized["es-ES"]
    assert missing == []
    assert {m["name"]: m["name_localizations"]["es-ES"] for m in menus} == {
        "Edit post": "Editar publicación",
        "Delete post": "Borrar publicación",
    }
    names = {p["name"]: p["name_localizations"]["es-ES"] for p in payloads}
    assert names["roll"] == "tirar"
    assert names["campaign"] == "campaña"
