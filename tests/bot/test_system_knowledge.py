"""The bot knows rule systems only through their capabilities (issue 21 §2).

System knowledge lives in ``rules/<id>/`` behind the optional protocols of
``rules/systems/base.py``; ``bot/`` and ``cogs/`` ask ``capabilities(system)`` what a system
can do.  This walks every module of ``bot/`` and ``cogs/`` and fails on:

* a registered system's id written as a string (``"rolweb"``: a comparison, a lookup);
* an import of a system's own package (``rules.rolweb.offers``);
* a capability asked another way: ``isinstance(x, Protocol)`` with a capability protocol,
  or ``getattr``/``hasattr`` of one of their members (``getattr(system, "use_ability")``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules import systems
from rules.systems.base import CAPABILITY_PROTOCOLS, Capabilities, capabilities
from tests.rules.test_import_contract import imported_names

ROOT = Path(__file__).resolve().parents[2]
BOT_SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])
PROTOCOL_NAMES = frozenset(p.__name__ for p in CAPABILITY_PROTOCOLS)
MEMBERS = frozenset(
    name for p in CAPABILITY_PROTOCOLS for name in vars(p) if not name.startswith("_")
)


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def id_strings(source: str, ids: tuple[str, ...]) -> list[int]:
    """Lines where a system id is written between quotes (the issue's grep)."""
    quoted = re.compile(r"[\"'](" + "|".join(map(re.escape, ids)) + r")[\"']")
    return [n for n, line in enumerate(source.splitlines(), 1) if quoted.search(line)]


def system_imports(source: str, module: str, ids: tuple[str, ...]) -> set[str]:
    """The system packages ``source`` imports (``rules.<id>`` and below)."""
    return {
        name
        for name in imported_names(source, module, is_package=module.endswith("__init__"))
        if name.split(".")[:2] in (["rules", i] for i in ids)
    }


def other_questions(source: str) -> list[str]:
    """Capability questions not asked through :func:`capabilities`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if node.func.id == "isinstance" and len(node.args) == 2:
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            names = {k.id if isinstance(k, ast.Name) else getattr(k, "attr", "") for k in kinds}
            found += [f"line {node.lineno}: isinstance {n}" for n in names & PROTOCOL_NAMES]
        elif node.func.id in ("getattr", "hasattr") and len(node.args) >= 2:
            attribute = node.args[1]
            if isinstance(attribute, ast.Constant) and attribute.value in MEMBERS:
                found.append(f"line {node.lineno}: {node.func.id} {attribute.value}")
    return found


def test_no_system_id_is_written_in_the_bot():
    assert len(BOT_SOURCES) > 100  # the walk covers both packages
    found = {
        str(path.relative_to(ROOT)): lines
        for path in BOT_SOURCES
        if (lines := id_strings(path.read_text(encoding="utf-8"), systems.ids()))
    }
    assert found == {}


def test_no_bot_module_imports_a_system_package():
    found = {
        str(path.relative_to(ROOT)): sorted(bad)
        for path in BOT_SOURCES
        if (bad := system_imports(path.read_text(encoding="utf-8"), _module(path), systems.ids()))
    }
    assert found == {}


def test_capabilities_are_asked_one_way():
    found = {
        str(path.relative_to(ROOT)): bad
        for path in BOT_SOURCES
        if (bad := other_questions(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_checks_see_what_they_forbid():
    """Each check fails on the very thing it forbids (a test that cannot fail proves nothing)."""
    ids = ("swc", "rolweb", "nucleo")
    source = (
        "from rules.rolweb import offers\n"
        "def f(system):\n"
        "    import rules.swc.shop\n"
        "    if system.id == 'rolweb':\n"
        "        return isinstance(system, PlayerDefence)\n"
        "    return getattr(system, 'use_ability', None), isinstance(system, (int, base.Attacks))\n"
    )
    assert id_strings(source, ids) == [4]
    assert system_imports(source, "bot.services.play.probe", ids) == {
        "rules.rolweb",
        "rules.swc.shop",
    }
    assert sorted(other_questions(source)) == [
        "line 5: isinstance PlayerDefence",
        "line 6: getattr use_ability",
        "line 6: isinstance Attacks",
    ]


def test_every_capability_has_its_field_and_the_systems_answer():
    """:class:`Capabilities` has one field per protocol, typed with it, in the same order; the
    shipped systems answer what the commands need (every one attacks and has health states,
    rolweb's players roll their defence)."""
    fields = Capabilities.__dataclass_fields__
    assert [f.type for f in fields.values()] == [
        f"{p.__name__} | None" for p in CAPABILITY_PROTOCOLS
    ]
    for system in systems.all_systems():
        able = capabilities(system)
        for name, protocol in zip(fields, CAPABILITY_PROTOCOLS, strict=True):
            value = getattr(able, name)
            assert value is None or isinstance(value, protocol), (system.id, name)
        assert able.attacks is not None and able.health is not None, system.id
    assert capabilities(systems.get("rolweb")).player_defence is not None
    assert capabilities(systems.get("swc")).player_defence is None
