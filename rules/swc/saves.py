"""A character's saving throw against a described threat, single class or multiclass.

The single save (the book's default) takes each class's base minus that class's bonus for
the threat, keeps the best class option as a whole ("Se debe elegir una opción por completo o
la otra"), then adds the race bonus (Enano and Mediano +4 against magic), which belongs to
the character, not to a class.  With Tabla 28 (``salvaciones_alternativas``) the base comes
from engineer B's :mod:`rules.swc.saving_throws_alt`, which already drops the Mago, Clérigo
and Monje bonuses and adds the Paladín's +2 and the Druida's fire bonus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.swc.advancement import save_bonus, saving_throw
from rules.swc.races import race_save_bonus
from rules.swc.saving_throws_alt import SaveCategory, alt_saving_throw, drops_class_bonuses

__all__ = ["ALT_MAGIC", "CharacterSave", "character_save"]

#: Tabla 28 categories that are "magic" for the Enano's and Mediano's +4.
ALT_MAGIC: Mapping[str, tuple[str, ...]] = {
    SaveCategory.WANDS.value: ("varita",),
    SaveCategory.SPELLS.value: ("conjuro",),
}


@dataclass(frozen=True, slots=True)
class CharacterSave:
    """The number to reach on a d20 and where it comes from."""

    clase: str
    base: int
    bono_clase: int
    bono_raza: int

    @property
    def objetivo(self) -> int:
        return self.base - self.bono_clase - self.bono_raza


def character_save(
    raza: str,
    niveles: Mapping[str, int],
    amenazas: Iterable[str] = (),
    *,
    categoria: str | None = None,
    druid_fire_bonus: int = 2,
) -> CharacterSave:
    """The best save for a character with ``niveles`` (class -> level) against ``amenazas``.

    ``categoria`` selects a Tabla 28 row instead of the single save.
    """
    threats = set(amenazas)
    options = []
    for clase, nivel in niveles.items():
        if categoria is None:
            base, bonus = saving_throw(clase, nivel), save_bonus(clase, threats)
        else:
            threats |= set(ALT_MAGIC.get(categoria, ()))
            alt = alt_saving_throw(
                clase,
                nivel,
                categoria,
                contra_fuego="fuego" in threats,
                druid_fire_bonus=druid_fire_bonus,
            )
            own = (
                0 if drops_class_bonuses(clase) or clase == "druida" else save_bonus(clase, threats)
            )
            base, bonus = alt.base, alt.bonus + own
        options.append((base - bonus, base, clase, bonus))
    _, base, clase, bonus = min(options)
    return CharacterSave(clase, base, bonus, race_save_bonus(raza, threats))
