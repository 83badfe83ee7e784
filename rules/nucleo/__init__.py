"""Núcleo (seed 002): attributes, skill pyramids, 1o3d10 checks, initiative-based actions,
wounds, equipment and the optional modules (razas, ventajas, magia, armaduras especiales).

The three shortcuts below work on plain values; the full rules are in the topic modules and
behind :data:`rules.nucleo.system.SYSTEM` (``rules.systems.get("nucleo")``).

    >>> derived({"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8,
    ...          "Carisma": 7}, {"Esquivar": 5, "Reflejos": 4})
    {'pv': 24, 'defensa': 17, 'iniciativa': 12, 'voluntad': 21, 'mana': 27}
"""

from __future__ import annotations

from rules.nucleo.combat import actions_for_initiative
from rules.nucleo.derived import derived
from rules.nucleo.health import health_state

__all__ = ["actions_for_initiative", "derived", "health_state"]
