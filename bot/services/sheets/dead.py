"""The dead stay dead: ordinary healing and attacks refuse a dead target (issue 11).

Each system's :class:`~rules.systems.base.HealthStates` says who is dead (Núcleo «Muerto»,
rolweb «muerto», S&W «muerto» by the campaign's ``pg_cero`` or a monster «abatido» at 0).
A heal on such a sheet would otherwise turn the corpse into an Inconsciente or a wounded
fighter again, and an attack would keep "wounding" it.  Both are checked on the version
being written (inside a change's ``compute``), so a target killed by a concurrent write is
refused too.  A character at 0 or below who is *not* dead (S&W «incapacitado», rolweb
«moribundo», Núcleo «inconsciente») is healed as usual: only death is refused.

The GM keeps an explicit override: ``/init heal force:true`` (the referee only) or setting
the hit points with ``/sheet set`` — a resurrection is a story decision, never a side effect
of a Medicus roll.  The refusal names the state in the system's own word and nothing else,
so it leaks no number about a hidden NPC (the tracker already shows its state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.grammar import gender_of
from bot.services.shared.errors import DomainError
from rules.combat.health import CombatState, Condition
from rules.systems.base import GameSystem, HealthChange, Settings, capabilities

__all__ = ["dead_state", "heal_living", "require_alive_target", "require_living_for_heal"]


def dead_state(
    system: GameSystem, sheet: Mapping[str, Any], settings: Settings
) -> CombatState | None:
    """The sheet's state when it is dead, else ``None`` (a system without health states:
    nobody is ever dead to the bot)."""
    health = capabilities(system).health
    if health is None:
        return None
    state = health.combat_state(sheet, settings)
    return state if state.condition is Condition.DEAD else None


def require_living_for_heal(
    system: GameSystem, sheet: Mapping[str, Any], settings: Settings
) -> None:
    """Refuse an ordinary heal on a dead sheet, naming its state (translated)."""
    state = dead_state(system, sheet, settings)
    if state is not None:
        raise DomainError(
            "dead.error.no_heal",
            name=str(sheet.get("name", "")),
            state=state.label,
            system=system.id,
            genero=gender_of(sheet),
        )


def heal_living(
    system: GameSystem,
    sheet: Mapping[str, Any],
    amount: int,
    settings: Settings,
    *,
    force: bool = False,
) -> HealthChange:
    """``system.heal`` for the living; ``force`` (the GM's explicit override) heals anyone."""
    if not force:
        require_living_for_heal(system, sheet, settings)
    return system.heal(sheet, amount, settings)


def require_alive_target(
    system: GameSystem, sheet: Mapping[str, Any], settings: Settings, name: str = ""
) -> None:
    """Refuse an attack on a target that is dead or out of the fight (``removed``)."""
    health = capabilities(system).health
    if health is None:
        return
    state = health.combat_state(sheet, settings)
    if state.removed:
        raise DomainError(
            "dead.error.no_attack",
            name=name or str(sheet.get("name", "")),
            state=state.label,
            system=system.id,
            genero=gender_of(sheet),
        )
