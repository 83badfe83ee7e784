"""Registry of rule systems: ``rules.systems.get("nucleo")``.

This is the one place a system is registered: one line of :data:`_MODULES` maps its id to
the module that exposes ``SYSTEM``.  Everything else the bot shows about systems derives
from :func:`ids` (the choices of ``/campaign create``, the «unknown system» message, the
contract tests, the docs index check); the system's own files supply the rest by convention
(``bot/locales/<lang>/<id>.toml`` with ``[system] choice``, ``docs/systems/<id>.md``).
See docs/architecture.md, «Adding a rule system».

Systems are imported lazily by id so that ``import rules.systems`` stays cheap and the
system packages can import the shared dataclasses from :mod:`rules.systems.base` without
cycles.
"""

from __future__ import annotations

import importlib

from rules.systems.base import GameSystem

__all__ = [
    "GameSystem",
    "UnknownSystem",
    "all_systems",
    "get",
    "ids",
    "labelled",
    "module_of",
    "name_of",
]

# system id -> module that exposes ``SYSTEM`` (an object implementing GameSystem)
_MODULES: dict[str, str] = {
    "swc": "rules.swc.system",
    "rolweb": "rules.rolweb.system",
    "nucleo": "rules.nucleo.system",
}
_cache: dict[str, GameSystem] = {}


class UnknownSystem(KeyError):
    """Raised for a system id that is not registered."""


def ids() -> tuple[str, ...]:
    """The registered system ids, in a stable order."""
    return tuple(_MODULES)


def module_of(system_id: str) -> str:
    """The module registered for ``system_id`` (``"rules.nucleo.system"``)."""
    try:
        return _MODULES[system_id]
    except KeyError:
        raise UnknownSystem(system_id) from None


def get(system_id: str) -> GameSystem:
    """The system object for ``system_id`` (``"swc"``, ``"rolweb"``, ``"nucleo"``)."""
    try:
        return _cache[system_id]
    except KeyError:
        pass
    system: GameSystem = importlib.import_module(module_of(system_id)).SYSTEM
    _cache[system_id] = system
    return system


def all_systems() -> tuple[GameSystem, ...]:
    """Every registered system, in :func:`ids` order."""
    return tuple(get(system_id) for system_id in _MODULES)


def name_of(system_id: str) -> str:
    """The name a reader knows a system by («Núcleo»), or ``system_id`` as given when no
    system has it (an imported file may name one this bot lacks): messages never show a
    registered system's bare id."""
    return get(system_id).name if system_id in _MODULES else system_id


def labelled(system_id: str) -> str:
    """«Núcleo (nucleo)»: the name, and the id a file or an option spells it with."""
    return f"{get(system_id).name} ({system_id})" if system_id in _MODULES else system_id
