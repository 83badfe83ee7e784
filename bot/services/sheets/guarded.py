"""Health and resources that players change only through the rules (issue 23 §3).

With the campaign setting ``salud_por_comandos`` on (the default), a player may not set their
character's current hit points, wounds, spent mana or slots or the day's powers by hand —
``/sheet set`` refuses, and ``/sheet import replace:true`` must keep the stored values — so
those numbers change only through damage, healing, rest and spells (each audited), or by the
GM.  The system names the paths (:meth:`~rules.systems.base.Recovery.guarded_paths`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.services.campaigns.service import HEALTH_BY_COMMANDS
from rules.systems.base import GameSystem, Settings, capabilities

__all__ = ["changed_guarded", "guarded_paths", "is_guarded", "is_set", "keep_guarded"]

_MISSING = object()


def guarded_paths(system: GameSystem, settings: Settings, *, referee: bool) -> tuple[str, ...]:
    """The paths the actor may not set by hand (none for the GM or with the setting off)."""
    recovery = capabilities(system).recovery
    if referee or recovery is None or not settings.get(HEALTH_BY_COMMANDS, True):
        return ()
    return recovery.guarded_paths(settings)


def is_guarded(path: str, paths: tuple[str, ...]) -> bool:
    """Whether ``path`` is, contains or lies inside a guarded path."""
    return any(path == p or path.startswith(f"{p}.") or p.startswith(f"{path}.") for p in paths)


def _get(sheet: Mapping[str, Any], path: str) -> Any:
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return _MISSING
        node = node[part]
    return node


def is_set(sheet: Mapping[str, Any], path: str) -> bool:
    """Whether ``sheet`` holds a value at ``path``."""
    return _get(sheet, path) is not _MISSING


def changed_guarded(
    sheet: Mapping[str, Any], stored: Mapping[str, Any], paths: tuple[str, ...]
) -> tuple[str, ...]:
    """The guarded paths a document sets to something else than the stored sheet has (a
    path the document leaves out is not a change: it keeps the stored value)."""
    return tuple(
        p for p in paths if _get(sheet, p) is not _MISSING and _get(sheet, p) != _get(stored, p)
    )


def keep_guarded(
    sheet: Mapping[str, Any],
    stored: Mapping[str, Any],
    paths: tuple[str, ...],
    *,
    overwrite: bool = False,
) -> dict[str, Any]:
    """``sheet`` with every guarded path it leaves out taken from ``stored`` (``overwrite``:
    every guarded path, once the file's own were checked equal to an older version)."""
    result: dict[str, Any] = dict(sheet)
    for path in paths:
        value = _get(stored, path)
        if value is _MISSING or (not overwrite and _get(result, path) is not _MISSING):
            continue
        node = result
        parts = path.split(".")
        for part in parts[:-1]:
            child = node.get(part)
            child = dict(child) if isinstance(child, Mapping) else {}
            node[part] = child
            node = child
        node[parts[-1]] = value
    return result
