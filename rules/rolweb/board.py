"""House rules for the board (seed 001, REGLAS ADICIONALES / REGLAS DE LA CASA).

MOVIMIENTO EN TABLERO: walking 2 squares, running 5, mounted +1 (paso), +2 (trote) or
+3 (galope) over walking.  ACCIÓN DE MOVIMIENTO says one movement action is 2 squares and
the combat action can become a second one, which would make a run 2 × 2 = 4: the campaign
setting ``carrera_casillas`` picks 5 (house rule, default) or 4.  Running uses both
actions of the turn.  DISTANCIA CON PROYECTILES: an average character shoots about half
the distance shown on the map; the GM adjusts for attributes, weapon, ability, height and
a direct or arcing shot.
"""

from __future__ import annotations

import enum

from rules.rolweb.settings import RolwebSettings
from rules.systems.base import Problem, RulesError

__all__ = ["WALK_SQUARES", "Pace", "Gait", "movement_squares", "projectile_distance"]

WALK_SQUARES = 2


class Pace(enum.StrEnum):
    """On foot."""

    WALK = "caminando"
    RUN = "corriendo"


class Gait(enum.IntEnum):
    """Mounted (caballo o montura similar): squares added to walking."""

    PASO = 1
    TROTE = 2
    GALOPE = 3


def movement_squares(pace: Pace | Gait, settings: RolwebSettings) -> int:
    """Squares covered: walking 2; running 5 (or 4 by setting); mounted 2 + 1/2/3."""
    if isinstance(pace, Gait):
        return WALK_SQUARES + int(pace)
    if pace is Pace.RUN:
        return settings.run_squares
    return WALK_SQUARES


def projectile_distance(map_distance: int, modifier: int = 0) -> int:
    """About half the distance shown on the map, plus the GM's ``modifier`` (never < 0)."""
    if map_distance < 0:
        raise RulesError(Problem("rolweb.problem.negative_amount", "", {"amount": map_distance}))
    return max(0, map_distance // 2 + modifier)
