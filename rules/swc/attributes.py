"""The six attributes of Swords & Wizardry Completo: Tablas 1-5 of seed 000.

Each attribute is 3d6, rolled in the order the book lists them; its effects are looked
up in ``data/swc/attributes.json``.  Strength is the only one whose effect depends on the
class: the book gives the positive to-hit and damage bonuses to Guerreros alone, and says
explicitly that Paladines and Exploradores, fighters though they are, do not get them.
The referee may let other classes have up to +1, a campaign setting passed in here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.swc.combat import normalize_class
from rules.swc.data import DataError, load

__all__ = [
    "ATTRIBUTE_ORDER",
    "FIGHTER_CLASSES",
    "StrengthModifiers",
    "DexterityModifiers",
    "ConstitutionModifiers",
    "IntelligenceLimits",
    "WisdomEffects",
    "CharismaEffects",
    "strength_modifiers",
    "dexterity_modifiers",
    "constitution_modifiers",
    "intelligence_limits",
    "wisdom_effects",
    "charisma_effects",
    "missile_to_hit_bonus",
    "roll_3d6",
    "roll_3d6_dice",
    "roll_attributes",
    "roll_attributes_dice",
    "roll_starting_gold",
    "starting_gold",
]

#: Classes that get the positive Strength to-hit and damage values (Tabla 1's footnote).
FIGHTER_CLASSES: frozenset[str] = frozenset({"guerrero"})

ATTRIBUTE_ORDER: tuple[str, ...] = tuple(load("attributes")["orden"])


@dataclass(frozen=True, slots=True)
class StrengthModifiers:
    """Tabla 1 for one character: ``open_doors`` is "x in 6", ``carry_bonus`` in pounds."""

    to_hit: int
    damage: int
    open_doors: int
    carry_bonus: int


@dataclass(frozen=True, slots=True)
class DexterityModifiers:
    """Tabla 2: ``ac_improvement`` is in points of improvement (-1 = "Empeora 1 punto").

    In descending notation the AC goes *down* by it; in ascending it goes *up*.
    """

    missile_to_hit: int
    ac_improvement: int


@dataclass(frozen=True, slots=True)
class ConstitutionModifiers:
    """Tabla 3: hit points per Hit Die and survival % for raise dead and similar traumas."""

    hp_per_hit_die: int
    survival_pct: int


@dataclass(frozen=True, slots=True)
class IntelligenceLimits:
    """Tabla 4.  ``max_spells_per_level`` is None where the book says "Todos"."""

    extra_languages: int
    max_spell_level: int
    learn_spell_pct: int
    min_spells_per_level: int
    max_spells_per_level: int | None


@dataclass(frozen=True, slots=True)
class WisdomEffects:
    """The Sabiduría paragraph (no numbered table): XP bonus and the Clérigo's extra spell."""

    xp_bonus_pct: int
    extra_first_level_spell: bool


@dataclass(frozen=True, slots=True)
class CharismaEffects:
    """Tabla 5 (special followers) and the Carisma paragraph's XP bonus."""

    max_special_followers: int
    xp_bonus_pct: int


def _check_score(value: int, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 3 <= value <= 18:
        raise ValueError(f"{name} must be an integer from 3 to 18, got {value!r}")


@cache
def _rows(section: str) -> tuple[dict[str, Any], ...]:
    """The rows of one attribute table, checked to cover 3-18 exactly once, in order."""
    rows = tuple(load("attributes")[section]["filas"])
    expected = 3
    for row in rows:
        low, high = row["valores"]
        if low != expected or high < low:
            raise DataError(f"attributes {section}: rows must cover 3-18 without gaps")
        expected = high + 1
    if expected != 19:
        raise DataError(f"attributes {section}: rows must end at 18")
    return rows


def _row(section: str, value: int, name: str) -> dict[str, Any]:
    _check_score(value, name)
    return next(r for r in _rows(section) if r["valores"][0] <= value <= r["valores"][1])


def strength_modifiers(
    fuerza: int, clase: str | None = None, *, non_fighter_cap: int = 0
) -> StrengthModifiers:
    """Tabla 1 for a character of ``clase``.

    Non-fighters keep the penalties but their positive to-hit and damage are capped at
    ``non_fighter_cap`` (0 by the book; the referee "podría permitir … hasta un +1").
    ``clase=None`` returns the row as printed, for display.
    """
    if not 0 <= non_fighter_cap <= 1:
        raise ValueError("the book allows non-fighters at most +1")
    row = _row("fuerza", fuerza, "Fuerza")
    to_hit, damage = row["impactar"], row["dano"]
    if clase is not None and normalize_class(clase) not in FIGHTER_CLASSES:
        to_hit, damage = min(to_hit, non_fighter_cap), min(damage, non_fighter_cap)
    return StrengthModifiers(to_hit, damage, row["forzar_puertas"], row["carga_libras"])


def dexterity_modifiers(destreza: int) -> DexterityModifiers:
    """Tabla 2."""
    row = _row("destreza", destreza, "Destreza")
    return DexterityModifiers(row["impactar_proyectiles"], row["mejora_ca"])


def missile_to_hit_bonus(
    fuerza: int,
    destreza: int,
    clase: str | None,
    *,
    strength_on_missiles: bool = True,
    non_fighter_cap: int = 0,
) -> int:
    """Destreza's missile bonus plus, by default, Fuerza's to-hit (Tablas 1-2 footnotes).

    The book leaves Strength on missiles to the referee but defaults to yes ("así también lo
    hace Swords & Wizardry por defecto"), and adds the two "salvo que el Árbitro diga lo
    contrario".
    """
    bonus = dexterity_modifiers(destreza).missile_to_hit
    if strength_on_missiles:
        bonus += strength_modifiers(fuerza, clase, non_fighter_cap=non_fighter_cap).to_hit
    return bonus


def constitution_modifiers(constitucion: int) -> ConstitutionModifiers:
    """Tabla 3."""
    row = _row("constitucion", constitucion, "Constitución")
    return ConstitutionModifiers(row["pg_por_dado"], row["supervivencia_pct"])


def intelligence_limits(inteligencia: int) -> IntelligenceLimits:
    """Tabla 4 (languages for everyone; the spell columns matter to Magos)."""
    row = _row("inteligencia", inteligencia, "Inteligencia")
    return IntelligenceLimits(
        row["idiomas_adicionales"],
        row["nivel_max_conjuros"],
        row["aprender_pct"],
        row["conjuros_min"],
        row["conjuros_max"],
    )


def wisdom_effects(
    sabiduria: int, clase: str | None = None, *, cleric_extra_spell: bool = True
) -> WisdomEffects:
    """Sabiduría 13+: +5% XP for anyone; 15+: a Clérigo's extra first-level spell.

    The extra spell is "muy recomendable" but the referee may refuse it, hence the flag.
    """
    _check_score(sabiduria, "Sabiduría")
    rules = load("attributes")["sabiduria"]
    xp = rules["px_bono_pct"] if sabiduria >= rules["px_bono_desde"] else 0
    extra = (
        cleric_extra_spell
        and clase is not None
        and normalize_class(clase) == "clerigo"
        and sabiduria >= rules["conjuro_extra_clerigo_desde"]
    )
    return WisdomEffects(xp, extra)


def charisma_effects(carisma: int) -> CharismaEffects:
    """Tabla 5 and Carisma 13+ (+5% XP)."""
    row = _row("carisma", carisma, "Carisma")
    rules = load("attributes")["carisma"]
    xp = rules["px_bono_pct"] if carisma >= rules["px_bono_desde"] else 0
    return CharismaEffects(row["seguidores_especiales"], xp)


def roll_3d6_dice(rng: random.Random) -> tuple[int, int, int]:
    """The three dice of a 3d6 roll, kept so the creation wizard can log them."""
    return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))


def roll_3d6(rng: random.Random) -> int:
    """3d6 with the injected generator."""
    return sum(roll_3d6_dice(rng))


def roll_attributes_dice(rng: random.Random) -> dict[str, tuple[int, int, int]]:
    """The dice of each attribute's 3d6, in the book's order (for the audit log)."""
    return {name: roll_3d6_dice(rng) for name in ATTRIBUTE_ORDER}


def roll_attributes(rng: random.Random) -> dict[str, int]:
    """3d6 for each attribute, in the book's order (Fuerza, Destreza ... Carisma)."""
    return {name: sum(dice) for name, dice in roll_attributes_dice(rng).items()}


def roll_starting_gold(rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Tesoro inicial, with its dice: (the 3d6, the gold in mo = their sum x 10)."""
    gold = load("attributes")["oro_inicial"]
    dice = tuple(rng.randint(1, gold["caras"]) for _ in range(gold["dados"]))
    return dice, sum(dice) * gold["multiplicador"]


def starting_gold(rng: random.Random) -> int:
    """Tesoro inicial: 3d6 x 10 mo."""
    return roll_starting_gold(rng)[1]
