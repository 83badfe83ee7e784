"""Registry of rule systems: ``rules.systems.get("nucleo")``.

Systems are imported lazily by id so that ``import rules.systems`` stays cheap and the
system packages can import the shared dataclasses from :mod:`rules.systems.base` without
cycles.
"""

from __future__ import annotations

import importlib

from rules.systems.base import GameSystem

__all__ = ["GameSystem", "get", "ids", "all_systems", "UnknownSystem"]

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


def get(system_id: str) -> GameSystem:
    """The system object for ``system_id`` (``"swc"``, ``"rolweb"``, ``"nucleo"``)."""
    try:
        return _cache[system_id]
    except KeyError:
        pass
    try:
        module_name = _MODULES[system_id]
    except KeyError:
        raise UnknownSystem(system_id) from None
    system = importlib.import_module(module_name).SYSTEM
    _cache[system_id] = system
    return system


def all_systems() -> tuple[GameSystem, ...]:
    return tuple(get(system_id) for system_id in _MODULES)
