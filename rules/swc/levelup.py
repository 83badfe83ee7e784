"""Rolling the hit dice a new level brings, and what else the level changed (seed 000).

``grant_xp`` raises the level, adds the fixed hit points past the dice cap (the «+N pg» of
the class tables after level 9/10) and leaves the new dice to roll (``swc.note.roll_hit_die``).
:func:`roll_hit_dice` rolls them: one class's die plus Constitución's Tabla 3 modifier per
die (at least 1 per die); a multiclass character's die is «la media» of each class's die
(rounded half up, as at creation) plus the modifier once per die — the book's single-class
rule unless the character is multiclass.  It also lists what the levels changed: the save
(Tabla 27 per class), the attack bonus (Tablas 29-31) and the spell slots.
"""

from __future__ import annotations

import random
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from rules.dice import roll
from rules.names import display
from rules.swc.advancement import hit_dice, saving_throw, spell_slots
from rules.swc.attributes import constitution_modifiers
from rules.swc.classes import get_class
from rules.swc.combat import attack_bonus
from rules.swc.multiclass import multiclass_hit_dice
from rules.swc.sheet import Character, character
from rules.systems.base import LoggedRoll, Problem, RulesError, Settings, Sheet

__all__ = ["HitDiceRoll", "LevelChange", "owed_hit_dice", "roll_hit_dice"]


@dataclass(frozen=True, slots=True)
class LevelChange:
    """One line of «what changed»: ``what`` is a game term, ``before``/``after`` its values."""

    what: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class HitDiceRoll:
    """The new sheet (``pg.max`` and ``pg.actual`` raised by ``gained``), the rolls for the
    audit log, a one-line breakdown, the levels and what they changed."""

    sheet: dict[str, Any]
    gained: int
    rolls: tuple[LoggedRoll, ...]
    breakdown: str
    levels: dict[str, tuple[int, int]]
    changes: tuple[LevelChange, ...]


def _dice(ch: Character) -> int:
    if ch.multiclase:
        return multiclass_hit_dice(ch.clases, ch.xp_por_clase)[0]
    clase = ch.clases[0]
    return hit_dice(clase, ch.niveles[clase])[0]


def owed_hit_dice(before: Sheet, after: Sheet, settings: Settings) -> int:
    """How many hit dice the step from ``before`` to ``after`` (an XP grant) brought."""
    return max(0, _dice(character(after, settings)) - _dice(character(before, settings)))


def _changes(old: Character, new: Character) -> list[LevelChange]:
    out: list[LevelChange] = []
    for clase in new.clases:
        a, b = old.niveles[clase], new.niveles[clase]
        if a == b:
            continue
        name = get_class(clase).nombre
        out.append(LevelChange(f"Nivel ({name})", str(a), str(b)))
        save_a, save_b = saving_throw(clase, a), saving_throw(clase, b)
        if save_a != save_b:
            out.append(LevelChange(f"Salvación ({name})", str(save_a), str(save_b)))
        hit_a, hit_b = attack_bonus(clase, a), attack_bonus(clase, b)
        if hit_a != hit_b:
            out.append(LevelChange(f"Bono de ataque ({name})", f"{hit_a:+d}", f"{hit_b:+d}"))
        slots_a, slots_b = spell_slots(clase, a), spell_slots(clase, b)
        for spell_list in sorted(set(slots_a) | set(slots_b)):
            before_levels, after_levels = slots_a.get(spell_list, {}), slots_b.get(spell_list, {})
            for level in sorted(set(before_levels) | set(after_levels)):
                x, y = before_levels.get(level, 0), after_levels.get(level, 0)
                if x != y:
                    what = f"Conjuros de nivel {level} ({name}, lista de {display('swc', 'lista', spell_list)})"
                    out.append(LevelChange(what, str(x), str(y)))
    return out


def roll_hit_dice(
    before: Sheet, after: Sheet, settings: Settings, rng: random.Random
) -> HitDiceRoll:
    """Roll the dice owed between ``before`` and ``after`` and add them to ``after``'s hit
    points (RulesError ``swc.problem.no_hit_die_owed`` when there are none)."""
    old, new = character(before, settings), character(after, settings)
    owed = owed_hit_dice(before, after, settings)
    if owed == 0:
        raise RulesError(Problem("swc.problem.no_hit_die_owed", "pg"))
    per_die = constitution_modifiers(new.atributos["Constitución"]).hp_per_hit_die
    rolls: list[LoggedRoll] = []
    parts: list[str] = []
    gained = 0
    for _ in range(owed):
        faces = []
        for clase in new.clases:
            sides = get_class(clase).dado_golpe
            result = roll(f"1d{sides}", rng)
            faces.append(result.total)
            rolls.append(
                LoggedRoll(f"1d{sides}", str(result), result.total, f"Dado de golpe ({clase})")
            )
        base = (2 * sum(faces) + len(faces)) // (2 * len(faces))
        die = max(1, base + per_die)
        gained += die
        shown = faces[0] if len(faces) == 1 else f"media de {', '.join(map(str, faces))} = {base}"
        parts.append(f"{shown} {per_die:+d} = {die}" if per_die else f"{shown} = {die}")
    sheet = deepcopy(dict(after))
    pg = sheet.setdefault("pg", {"max": 0, "actual": 0})
    pg["max"] = int(pg.get("max", 0)) + gained
    pg["actual"] = int(pg.get("actual", 0)) + gained
    levels = {c: (old.niveles[c], new.niveles[c]) for c in new.clases}
    breakdown = "; ".join(parts) + f" (Constitución {per_die:+d} por dado)"
    return HitDiceRoll(sheet, gained, tuple(rolls), breakdown, levels, tuple(_changes(old, new)))
