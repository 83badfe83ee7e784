"""Multiclass characters ("Personajes multiclase", seed 000): XP, levels, hit dice, saves.

* XP is split evenly between the classes, even one that can no longer advance, and a
  multiclass character gets no XP bonus.
* Each class's level is capped by the race's limit for it.
* A hit die (the average of one roll of each class's die) comes only when the XP would have
  raised *every* class a level, limits ignored: the elf Guerrero/Mago of the worked example
  has 4 dice at 10,000 XP per class, still 4 at 16,000 (Guerrero capped at 4) and 5 at 20,000.
  At most 9 dice; after that +1 hit point per such level.
* The saving throw is the best single class's option, each with its own bonus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.swc.advancement import level_for_xp, save_bonus, saving_throw
from rules.swc.classes import get_class
from rules.swc.races import level_limit

__all__ = [
    "MAX_MULTICLASS_HIT_DICE",
    "SaveOption",
    "best_saving_throw",
    "hit_die_expression",
    "class_levels",
    "multiclass_hit_dice",
    "multiclass_xp_bonus",
    "split_xp",
]

MAX_MULTICLASS_HIT_DICE = 9


@dataclass(frozen=True, slots=True)
class SaveOption:
    """A saving throw taken as a whole from one class: its base, its bonus, the number to roll."""

    clase: str
    base: int
    bono: int

    @property
    def objetivo(self) -> int:
        return self.base - self.bono


def split_xp(xp: int, clases: Sequence[str]) -> dict[str, int]:
    """Each class's share of ``xp`` (even split; a remainder below one point per class is lost)."""
    share = xp // len(clases)
    return dict.fromkeys(clases, share)


def multiclass_xp_bonus() -> int:
    """Multiclass characters never get the attribute XP bonus ("no reciben bonificación")."""
    return 0


def class_levels(
    raza: str,
    clases: Sequence[str],
    xp_por_clase: Mapping[str, int],
    atributos: Mapping[str, int],
    *,
    sin_limite: Iterable[str] = (),
    enano_guerrero_clerigo: bool = False,
) -> dict[str, int]:
    """Each class's level from its XP, capped by the race's limits.

    ``sin_limite`` names classes whose limit is lifted (the slower-advancement option).
    """
    multi = len(clases) > 1
    lifted = set(sin_limite)
    out: dict[str, int] = {}
    for clase in clases:
        level = level_for_xp(clase, xp_por_clase[clase])
        cap = level_limit(
            raza, clase, atributos, multiclase=multi, enano_guerrero_clerigo=enano_guerrero_clerigo
        )
        if cap is not None and clase not in lifted:
            level = min(level, cap)
        out[clase] = level
    return out


def multiclass_hit_dice(clases: Sequence[str], xp_por_clase: Mapping[str, int]) -> tuple[int, int]:
    """``(dice, fixed hit points)`` of a multiclass character; each die averages every class's die.

    The count is the level every class would have reached with its XP, race limits ignored,
    because the book grants the die "si alcanza los puntos de experiencia necesarios que le
    habrían permitido subir de nivel en todas ellas".
    """
    shared = min(level_for_xp(c, xp_por_clase[c]) for c in clases)
    dice = min(shared, MAX_MULTICLASS_HIT_DICE)
    return dice, shared - dice


def hit_die_expression(clases: Sequence[str]) -> str:
    """The dice a multiclass die is the average of, e.g. ``"1d8+1d4"`` (halved and rounded)."""
    return "+".join(f"1d{get_class(c).dado_golpe}" for c in clases)


def best_saving_throw(niveles: Mapping[str, int], amenazas: Iterable[str] = ()) -> SaveOption:
    """The best class option for this threat: never one class's base with another's bonus."""
    threats = tuple(amenazas)
    options = [
        SaveOption(clase, saving_throw(clase, nivel), save_bonus(clase, threats))
        for clase, nivel in niveles.items()
    ]
    return min(options, key=lambda o: (o.objetivo, o.base))
