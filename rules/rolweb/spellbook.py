"""rolweb's :class:`~rules.systems.base.SpellBook`: there is no magic to cast.

Seed 001 has no spell list, no mana and no slots: «Los poderes místicos, como la Imposición
de manos, y la habilidad Recuperación permiten curar la Resistencia» — mystical powers are
abilities the character has, rolled like any other test (``/check``).  Casting or resting
is refused with a problem that says where those powers live instead.
"""

from __future__ import annotations

import random

from rules.systems.base import (
    CastResult,
    Problem,
    RestResult,
    RulesError,
    Settings,
    Sheet,
    SpellList,
    SpellRequest,
    SpellState,
)

__all__ = ["NO_SPELLS", "cast", "rest", "spell_list", "spell_state"]

NO_SPELLS = "rolweb.note.no_spells"


def spell_list(settings: Settings) -> SpellList:
    return SpellList((), NO_SPELLS)


def spell_state(sheet: Sheet, settings: Settings) -> SpellState:
    return SpellState()


def cast(sheet: Sheet, request: SpellRequest, settings: Settings, rng: random.Random) -> CastResult:
    raise RulesError(Problem(NO_SPELLS))


def rest(sheet: Sheet, settings: Settings) -> RestResult:
    raise RulesError(Problem(NO_SPELLS))
