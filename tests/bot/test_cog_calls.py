"""A cog calls ONE service method per command (docs/architecture.md, issue 21 §4).

This walks every cog's syntax tree: for each command (a function decorated with
``….command``), context menu (``ContextMenu(callback=self.x)``) and modal handler
(``modal_submissions(…).add(self.x)``) it counts the calls of service methods — through
``….services.<service>.<method>(…)``, an attribute or property of the cog that holds a service
(``self.combat = bot.services.combat``), or a local name bound to one — in its body and in the
cog's own methods it calls, followed through.  More than one means the cog is composing a use
case that belongs in a service.

:data:`STILL_MORE` lists the commands still calling more than one, each waiting for its
service method; it may only shrink: a command listed there that calls one now fails the test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COGS = sorted((ROOT / "cogs").glob("*.py"))

#: ``path:Class.method`` still calling more than one service method (to be merged).
STILL_MORE: frozenset[str] = frozenset(
    {
        "cogs/campaign.py:CampaignCog.import_",
        "cogs/post.py:PostCog.delete_post",
        "cogs/post.py:PostCog.on_post_modal",
        "cogs/post.py:PostCog.post",
        "cogs/scenes.py:SceneCog.form_submitted",
        "cogs/sheets.py:SheetCog.create",
    }
)


def _chain(node: ast.AST) -> list[str]:
    """``self.bot.services.combat.next`` → ``["self", "bot", "services", "combat", "next"]``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


def _service_of(value: ast.AST | None) -> str | None:
    """The service an expression names (``bot.services.combat`` → ``combat``)."""
    chain = _chain(value) if value is not None else []
    if "services" in chain and len(chain) == chain.index("services") + 2:
        return chain[-1]
    return None


def _is_command(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _chain(target)[-1:] == ["command"]:
            return True
    return False


class _Cog:
    """One cog class: its methods, which attributes hold services, its entry points."""

    def __init__(self, node: ast.ClassDef) -> None:
        self.methods = {
            f.name: f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        self.services: dict[str, str] = {}
        self.entries = {name for name, f in self.methods.items() if _is_command(f)}
        for function in self.methods.values():
            for sub in ast.walk(function):
                self._read(function, sub)

    def _read(self, function: ast.AST, node: ast.AST) -> None:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            service = _service_of(node.value)
            if service and isinstance(target, ast.Attribute) and _chain(target)[0] == "self":
                self.services[target.attr] = service
        if isinstance(node, ast.Return) and _service_of(node.value):
            name = getattr(function, "name", "")
            if any(_chain(d)[-1:] == ["property"] for d in getattr(function, "decorator_list", [])):
                self.services[name] = _service_of(node.value) or ""
        if isinstance(node, ast.keyword) and node.arg == "callback":
            self.entries.add(_chain(node.value)[-1])
        registers = isinstance(node, ast.Call) and _chain(node.func)[-1:] == ["add"]
        if registers and node.args and "modal_submissions" in ast.dump(node.func):
            self.entries.add(_chain(node.args[0])[-1])

    def calls(self, name: str, seen: set[str]) -> Iterator[str]:
        """The service methods ``name`` calls, through the cog's own methods."""
        function = self.methods[name]
        local = {
            target.id: service
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name) and (service := _service_of(node.value))
        }
        for node in ast.walk(function):
            if not isinstance(node, ast.Call):
                continue
            chain = _chain(node.func)
            if "services" in chain and len(chain) == chain.index("services") + 3:
                yield ".".join(chain[-2:])
            elif len(chain) == 3 and chain[0] == "self" and chain[1] in self.services:
                yield f"{self.services[chain[1]]}.{chain[2]}"
            elif len(chain) == 2 and chain[0] in local:
                yield f"{local[chain[0]]}.{chain[1]}"
            elif len(chain) == 2 and chain[0] == "self" and chain[1] in set(self.methods) - seen:
                seen.add(chain[1])
                yield from self.calls(chain[1], seen)


def service_calls(source: str, path: str) -> dict[str, list[str]]:
    """``{"path:Cog.command": [service methods called]}`` for every entry point of a cog."""
    found: dict[str, list[str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            cog = _Cog(node)
            for entry in sorted(cog.entries & set(cog.methods)):
                found[f"{path}:{node.name}.{entry}"] = list(cog.calls(entry, {entry}))
    return found


def _tree() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in COGS:
        found |= service_calls(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return found


def test_every_command_calls_one_service_method():
    found = _tree()
    assert len(found) > 80  # every command of every cog is walked
    more = {name: calls for name, calls in found.items() if len(calls) > 1}
    assert {name: calls for name, calls in more.items() if name not in STILL_MORE} == {}
    assert sorted(STILL_MORE - set(more)) == [], "one call now: remove from STILL_MORE"


def test_the_count_sees_every_way_a_cog_reaches_a_service():
    source = """
class Cog:
    def __init__(self, bot):
        self.rolls = bot.services.rolls
        self.menu = ContextMenu(name="x", callback=self.menu_cb)
        modal_submissions(bot).add(self.on_modal)

    @property
    def combat(self):
        return self.bot.services.combat

    @app_commands.command(name="a")
    async def a(self, itx):
        await self.rolls.roll()
        await self._helper()

    async def _helper(self):
        await self.combat.next()

    async def menu_cb(self, itx, message):
        service = self.bot.services.posting
        await service.find()
        await itx.client.services.posting.delete()

    async def on_modal(self, itx):
        await self.combat.show()
"""
    assert service_calls(source, "cogs/x.py") == {
        "cogs/x.py:Cog.a": ["rolls.roll", "combat.next"],
        "cogs/x.py:Cog.menu_cb": ["posting.find", "posting.delete"],
        "cogs/x.py:Cog.on_modal": ["combat.show"],
    }
