"""The Discord layer's layout is a contract, not a convention.

``cogs/`` holds one extension per command group and nothing else; helpers (context,
renderers, views, option types) live in ``cogs/ui/``, which ``load_extension`` never loads,
and no module imports an extension — so a command group can be unloaded, reloaded or
rewritten without dragging another one along.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from bot.app import EXTENSIONS

COGS = Path(__file__).resolve().parents[2] / "cogs"


def _module_name(path: Path) -> str:
    parts = path.relative_to(COGS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]+)", re.M)


def _imports(path: Path) -> set[str]:
    """Every module a file imports (``from cogs.ui import render`` counts as ``cogs.ui.render``).

    A regular expression, not :mod:`ast`: CPython 3.11.7's ``ast.parse`` can fail with
    "AST constructor recursion depth mismatch" once discord.py is loaded in the process.
    """
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    for line in _IMPORT.findall(text):
        found.update(part.split(" as ")[0].strip() for part in line.split(","))
    for module, names in _FROM.findall(text):
        found.add(module)
        for name in re.sub(r"#[^\n]*", "", names).strip("()").split(","):
            name = name.split(" as ")[0].strip()
            if name:
                found.add(f"{module}.{name}")
    return found


def test_cogs_holds_only_the_extensions():
    top_level = {_module_name(p) for p in COGS.glob("*.py") if p.name != "__init__.py"}
    assert top_level == set(EXTENSIONS)
    for name in EXTENSIONS:
        assert callable(getattr(importlib.import_module(name), "setup", None)), name


def test_helpers_are_not_extensions():
    helpers = [p for p in (COGS / "ui").rglob("*.py")]
    assert len(helpers) > 5  # the walk really finds the package
    for path in helpers:
        module = importlib.import_module(_module_name(path))
        assert not hasattr(module, "setup"), f"{module.__name__} looks like an extension"


def test_no_module_imports_an_extension():
    offenders = [
        f"{_module_name(path)} imports {imported}"
        for path in COGS.rglob("*.py")
        for imported in sorted(_imports(path) & set(EXTENSIONS))
    ]
    assert offenders == []


def test_the_import_walk_sees_every_form_of_import(tmp_path):
    source = tmp_path / "example.py"
    source.write_text(
        "import discord\n"
        "from cogs.ui import render\n"
        "from cogs import (\n    sheets,  # why\n    dice as d,\n)\n"
        "    from cogs.npc import thing\n",
        encoding="utf-8",
    )
    assert _imports(source) >= {
        "discord",
        "cogs.ui.render",
        "cogs.sheets",
        "cogs.dice",
        "cogs.npc",
        "cogs.npc.thing",
    }


async def test_every_suggested_option_is_an_option_type():
    """Autocompletes come from the option types in cogs.ui.options, never from a decorator."""
    from discord import app_commands

    from bot.app import Arbitro
    from bot.config import load_config
    from bot.db.engine import create_engine
    from cogs.ui.options import Suggested

    bot = Arbitro(load_config({}), create_engine("sqlite+aiosqlite:///:memory:"))
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        suggested: dict[str, str] = {}
        for command in bot.tree.walk_commands():
            if isinstance(command, app_commands.Group):
                continue
            for param in command._params.values():
                if param.autocomplete is None:
                    continue
                owner = getattr(param.autocomplete, "__self__", None)
                assert isinstance(owner, Suggested), f"/{command.qualified_name} {param.name}"
                assert await owner.transform(None, "Ardelia") == "Ardelia"  # type: ignore[arg-type]
                suggested[f"{command.qualified_name} {param.name}"] = type(owner).__name__
        assert suggested["check option"] == "CheckOptionTransformer"
        assert suggested["init move combatant"] == "CombatantTransformer"
        assert suggested["sheet use character"] == "CharacterTransformer"
        assert suggested["spell cast character"] == "AnyCharacterTransformer"
        assert suggested["campaign settings setting"] == "SettingTransformer"
        assert suggested["post as_"] == "SpeakerTransformer"
        assert len(suggested) >= 40
    finally:
        for extension in reversed(EXTENSIONS):
            await bot.unload_extension(extension)
        await bot.engine.dispose()
