"""Combat (``/init``): the fight aggregate and its typed participants; pure, no I/O."""

from rules.combat.aggregate import MAX_COMBATANTS, STATE_VERSION, Combat, TurnChange
from rules.combat.participants import Combatant, Kind, Side

__all__ = ["Combat", "Combatant", "Kind", "Side", "TurnChange", "STATE_VERSION", "MAX_COMBATANTS"]
