"""Levels, experience, hit dice, the single saving throw and spell slots (Tablas 7–19).

These are the functions a referee would look up in the class tables; they take the class id
and a level or XP total and know nothing about races or multiclassing (see
:mod:`rules.swc.races` and :mod:`rules.swc.multiclass` for those).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.swc.classes import advancement, get_class

__all__ = [
    "THREATS",
    "hit_dice",
    "level_for_xp",
    "save_bonus",
    "saving_throw",
    "spell_slots",
    "xp_bonus",
    "xp_for_level",
]

#: Threat types a save can be against (``amenaza:<tipo>``), as the class and race texts name them.
THREATS: tuple[str, ...] = (
    "veneno",
    "paralisis",
    "fuego",
    "conjuro",
    "varita",
    "dispositivo",
    "trampa",
    "magia",
)


def xp_for_level(clase: str, nivel: int) -> int:
    """XP needed to reach ``nivel`` as ``clase`` (21+ levels follow the class's printed rule)."""
    return advancement(clase, nivel).px


def level_for_xp(clase: str, xp: int) -> int:
    """The level a ``clase`` character with ``xp`` points has reached (no race limit applied)."""
    if xp < 0:
        raise ValueError(f"XP cannot be negative: {xp}")
    cls = get_class(clase)
    level = 1
    for row in cls.avance:
        if row.px <= xp:
            level = row.nivel
    if level == len(cls.avance):
        per_level = int(cls.mas_alla["px_por_nivel"])
        level += (xp - cls.avance[-1].px) // per_level
    return level


def saving_throw(clase: str, nivel: int) -> int:
    """The class's base saving throw at ``nivel`` (roll this or higher on a d20)."""
    return advancement(clase, nivel).salvacion


def hit_dice(clase: str, nivel: int) -> tuple[int, int]:
    """``(dice, fixed hit points)`` at ``nivel``: e.g. Guerrero 11 → ``(9, 4)`` ("9 + 4 pg")."""
    row = advancement(clase, nivel)
    return row.dados_golpe, row.pg_extra


def spell_slots(clase: str, nivel: int) -> dict[str, dict[int, int]]:
    """Spell list -> spell level -> slots, e.g. ``{"mago": {1: 3, 2: 1}}``; ``{}`` when none."""
    row = advancement(clase, nivel)
    return {name: dict(levels) for name, levels in row.conjuros.items()}


def save_bonus(clase: str, amenazas: Iterable[str]) -> int:
    """The class's save bonus against a threat described by ``amenazas`` (best one, not summed).

    A wand of fire is ``{"varita", "fuego"}``: a Druida (+2 fuego) gets +2 once, because each
    class text grants one bonus "against" a kind of danger, not one per keyword.
    """
    bonuses = get_class(clase).bonos_salvacion
    return max((bonuses.get(a, 0) for a in amenazas), default=0)


def xp_bonus(clase: str, atributos: Mapping[str, int]) -> int:
    """The XP bonus percentage of a single-class character (0, 5, 10 or 15).

    +5 % when *every* prime attribute of the class is 13+, +5 % for Carisma 13+, +5 % for
    Sabiduría 13+ ("Adquirir experiencia"); a Clérigo with Sabiduría 13+ gets both Sabiduría
    bonuses, as the Sabiduría paragraph says.  Multiclass characters get none (see
    :func:`rules.swc.multiclass.multiclass_xp_bonus`).
    """
    cls = get_class(clase)
    bonus = 0
    if all(atributos.get(a, 0) >= 13 for a in cls.atributos_primarios):
        bonus += 5
    if atributos.get("Carisma", 0) >= 13:
        bonus += 5
    if atributos.get("Sabiduría", 0) >= 13:
        bonus += 5
    return min(bonus, 15)
