"""The alternative, five-category saving throws of Tabla 28 (seed 000): a campaign option.

Swords & Wizardry uses one saving throw number per class and level (engineer A's
advancement tables).  Tabla 28 reprints the original game's five categories; the book
says a referee who adopts it must drop the Magos' and Clérigos' class bonuses, give
Paladines +2 on every save and keep the Druidas' bonus against fire.  Those adjustments
are applied here, so callers only choose the option.

The printed header is swapped (see ``docs/rules-decisions.md``): the data file stores
each column under the group whose level bands it follows.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.swc.combat import normalize_class
from rules.swc.data import DataError, load

__all__ = [
    "SaveCategory",
    "AltSavingThrow",
    "AltSaveRoll",
    "save_group",
    "alt_saving_throw",
    "roll_alt_saving_throw",
    "drops_class_bonuses",
]


class SaveCategory(enum.StrEnum):
    """Tabla 28's rows."""

    POISON_DEATH = "veneno_muerte"
    WANDS = "varitas"
    PETRIFICATION = "petrificacion"
    BREATH = "aliento"
    SPELLS = "conjuros"


@dataclass(frozen=True, slots=True)
class AltSavingThrow:
    """The number to reach on a d20: ``base`` from Tabla 28 minus ``bonus`` (added to the roll)."""

    group: str
    category: SaveCategory
    base: int
    bonus: int

    @property
    def target(self) -> int:
        """The natural d20 roll that saves once the bonus is counted."""
        return self.base - self.bonus


@dataclass(frozen=True, slots=True)
class AltSaveRoll:
    """One rolled alternative save: success when ``roll + bonus >= base``."""

    save: AltSavingThrow
    roll: int
    success: bool


@cache
def _groups() -> dict[str, dict[str, Any]]:
    data = load("saving_throws_alt")
    keys = [c["clave"] for c in data["categorias"]]
    if keys != [c.value for c in SaveCategory]:
        raise DataError("saving_throws_alt: categories must be Tabla 28's five rows, in order")
    groups: dict[str, dict[str, Any]] = {}
    for group in data["grupos"]:
        levels = group["niveles"]
        if levels[0] != 1 or levels != sorted(set(levels)):
            raise DataError(
                f"saving_throws_alt {group['clave']}: level bands must start at 1 and rise"
            )
        for key in keys:
            values = group["valores"][key]
            if len(values) != len(levels) or values != sorted(values, reverse=True):
                raise DataError(
                    f"saving_throws_alt {group['clave']} {key}: one value per band, never worse"
                )
        for cls in group["clases"]:
            groups[cls] = group
    return groups


def save_group(clase: str) -> str:
    """``"paladin"`` -> ``"guerrero"``: the Tabla 28 column a class uses."""
    try:
        return str(_groups()[normalize_class(clase)]["clave"])
    except KeyError:
        raise ValueError(f"unknown class {clase!r}") from None


def drops_class_bonuses(clase: str) -> bool:
    """Whether the class loses its own save bonuses under Tabla 28 (Magos, Clérigos, Monjes)."""
    return normalize_class(clase) in load("saving_throws_alt")["ajustes"]["sin_bonos_de_clase"]


def alt_saving_throw(
    clase: str,
    nivel: int,
    categoria: SaveCategory | str,
    *,
    contra_fuego: bool = False,
    druid_fire_bonus: int = 2,
) -> AltSavingThrow:
    """Tabla 28 for ``clase`` at ``nivel`` against ``categoria``, with the book's adjustments.

    Paladines get +2 on everything; Druidas keep their bonus when the attack is fire
    (``contra_fuego``).  The class describes it as +2 and the Tabla 28 paragraph as "+1",
    so ``druid_fire_bonus`` is a campaign setting (default 2, the class's own rule).
    """
    if nivel < 1:
        raise ValueError(f"level must be 1 or more, got {nivel}")
    if druid_fire_bonus not in (1, 2):
        raise ValueError("the book gives the Druida +1 or +2 against fire")
    cls = normalize_class(clase)
    try:
        group = _groups()[cls]
    except KeyError:
        raise ValueError(f"unknown class {clase!r}") from None
    category = SaveCategory(categoria)
    band = max(i for i, low in enumerate(group["niveles"]) if low <= nivel)
    base = group["valores"][category.value][band]
    adjust = load("saving_throws_alt")["ajustes"]
    bonus = adjust["bono_todas"].get(cls, 0)
    if contra_fuego and cls in adjust["bono_fuego"]:
        bonus += druid_fire_bonus
    return AltSavingThrow(group["clave"], category, base, bonus)


def roll_alt_saving_throw(
    rng: random.Random,
    clase: str,
    nivel: int,
    categoria: SaveCategory | str,
    *,
    contra_fuego: bool = False,
    druid_fire_bonus: int = 2,
) -> AltSaveRoll:
    """Roll a d20 against :func:`alt_saving_throw` ("igual o superior" saves)."""
    save = alt_saving_throw(
        clase, nivel, categoria, contra_fuego=contra_fuego, druid_fire_bonus=druid_fire_bonus
    )
    roll = rng.randint(1, 20)
    return AltSaveRoll(save, roll, roll + save.bonus >= save.base)
