"""What each combatant spent in the current round, as the fight's stored state keeps it
(issue 23 §1): read here for the panel; spent by :mod:`.turn_actions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.services.campaigns.service import TURN_ACTIONS
from rules.combat import Combat, Combatant
from rules.combat.actions import Allowance, Ledger, left
from rules.systems.base import GameSystem, capabilities

__all__ = ["LEDGER_KEY", "actions_left", "allowance_of", "ledger_of"]

#: where the ledgers live in the fight's state: ``{combatant key: Ledger.to_dict()}``
LEDGER_KEY = "acciones"


def ledger_of(state: Mapping[str, Any], key: str) -> Ledger:
    """The stored ledger of the combatant ``key`` (empty when it has none)."""
    raw = (state.get(LEDGER_KEY) or {}).get(key)
    return Ledger.from_dict(raw) if isinstance(raw, Mapping) else Ledger()


def allowance_of(
    system: GameSystem, settings: Mapping[str, Any], who: Combatant
) -> Allowance | None:
    economy = capabilities(system).action_economy
    return economy.action_allowance(who.actions, settings) if economy is not None else None


def actions_left(
    system: GameSystem, settings: Mapping[str, Any], state: Mapping[str, Any], combat: Combat
) -> tuple[tuple[str, int], ...]:
    """What the combatant whose turn it is has left (the panel's line); nothing during the
    set-up, without a counting system, or with ``acciones_por_turno`` = ``libre``."""
    current = combat.current
    if current is None or settings.get(TURN_ACTIONS, "rechazar") == "libre":
        return ()
    allowance = allowance_of(system, settings, current)
    if allowance is None:
        return ()
    ledger = ledger_of(state, current.key).for_round(combat.round)
    return tuple((str(kind), count) for kind, count in left(allowance, ledger))
