"""``rules/`` is a pure library: it imports nothing from the bot, Discord, the database or
asyncio.  This walks the syntax tree of every module under ``rules/`` (imports inside
functions and ``TYPE_CHECKING`` blocks included, relative imports resolved, literal
``importlib.import_module`` names too), so the convention cannot erode silently.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
FORBIDDEN = ("bot", "cogs", "standin", "discord", "sqlalchemy", "sqlmodel", "asyncio")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Every module name ``source`` (the text of ``module``) imports."""
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                names.add(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.add(node.module or "")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def forbidden(names: set[str]) -> set[str]:
    return {name for name in names if name.split(".")[0] in FORBIDDEN}


def test_rules_imports_nothing_from_the_bot_discord_the_database_or_asyncio():
    modules = sorted(RULES.rglob("*.py"))
    assert len(modules) > 50  # the walk really covers the package
    found = {}
    for path in modules:
        names = imported_names(
            path.read_text(encoding="utf-8"),
            _module_name(path),
            is_package=path.name == "__init__.py",
        )
        if bad := forbidden(names):
            found[str(path.relative_to(ROOT))] = sorted(bad)
    assert found == {}


def test_registered_system_modules_live_in_rules():
    """The registry imports systems by name; those names obey the same contract."""
    from rules import systems

    for system_id in systems.ids():
        assert systems.module_of(system_id).split(".")[0] == "rules", system_id


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("import discord", "rules.x", {"discord"}),
        ("from sqlmodel import select", "rules.x", {"sqlmodel"}),
        ("def f():\n    import asyncio", "rules.x", {"asyncio"}),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app import A",
            "rules.x",
            {"bot.app"},
        ),
        ("import importlib\nimportlib.import_module('cogs.sheets')", "rules.x", {"cogs.sheets"}),
        ("from .. import dice", "rules.swc.x", set()),
        ("import os.path\nfrom rules.text import fold", "rules.x", set()),
    ],
)
def test_the_walk_finds_forbidden_imports_wherever_they_hide(source, module, expected):
    assert forbidden(imported_names(source, module)) == expected
