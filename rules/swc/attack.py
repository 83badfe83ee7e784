"""``/attack`` in Swords & Wizardry Completo (seed 000, «Combate», Tablas 1, 2, 22-24, 29-32).

d20 + the attacker's to-hit bonuses against the number the attack table gives for the
target's AC: Tabla 29/30/31 by class and level (the best of a multiclass character's
classes), Tabla 32 by Hit Dice for a monster stat block.  The bonuses, each named in the
result: Fuerza to hit (Tabla 1, melee; with the campaign's ``fuerza_en_proyectiles`` also
missiles), Destreza on missiles (Tabla 2), the race's missile bonus (Medianos +1), a magic
weapon (``magico:+N``, to hit and damage), Apuñalar (``apunalar``: +4 and ×2…×4 damage,
Ladrón and Asesino), the target Guerrero's Parada (Tabla 12), active effects.

The seed ends before «Daño y Muerte», so natural 20 and 1 are a campaign setting
(``naturales_ataque``): ``ninguno`` (the tables decide everything, the seed's text),
``impacta_falla`` (20 always hits, 1 always misses) or ``critico`` (as ``impacta_falla``
and a 20 doubles the damage) — ``docs/rules-decisions.md``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from rules import dice
from rules.combat import effects
from rules.combat.attack import (
    AttackOutcome,
    AttackRequest,
    AttackResult,
    Fighter,
    RollLine,
    TargetChange,
)
from rules.swc.attributes import dexterity_modifiers, strength_modifiers
from rules.swc.classes import backstab, monk_progress, parry_penalty
from rules.swc.combat import (
    ascending_to_descending,
    descending_to_ascending,
    monster_to_hit_target,
    to_hit_target,
)
from rules.swc.equipment import Hands, Weapon, find_item, missile_damage
from rules.swc.monster import is_npc
from rules.swc.races import get_race
from rules.swc.sheet import character, setting
from rules.systems.base import Problem, RulesError, Settings, Sheet, StepOption

__all__ = ["NATURAL_MODES", "attack", "target_ac", "weapons"]

NATURAL_MODES: tuple[str, ...] = ("ninguno", "impacta_falla", "critico")
_ATTACK_LINE = re.compile(r"^\s*(?:(?P<n>\d+)\s+)?(?P<what>[^()]+?)\s*\((?P<damage>[^()]+)\)\s*$")
_MAGIC = re.compile(r"^magico:\+?(?P<n>-?\d+)$")
_UNARMED = "1d2"  # not in the seed's tables: a fist, our reading (docs/rules-decisions.md)


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(key, "", params))


def _sheet_weapons(sheet: Sheet) -> list[Weapon]:
    found: list[Weapon] = []
    for entry in sheet.get("equipo") or ():
        name = entry.get("nombre") if isinstance(entry, Mapping) else entry
        item = find_item(str(name or ""))
        if isinstance(item, Weapon) and item not in found and not _ammunition(item):
            found.append(item)
    return found


def _ammunition(item: Weapon) -> bool:
    return item.melee is None and item.missile is not None and item.missile.is_ammunition


def _monster_attacks(sheet: Sheet) -> list[tuple[str, str]]:
    """``"2 garras (1d4), 1 mordisco (1d6)"`` → ``[("garras", "1d4"), ("mordisco", "1d6")]``."""
    out = []
    for part in re.split(r"[,;]", str(sheet.get("ataques", ""))):
        match = _ATTACK_LINE.match(part)
        if match and re.search(r"\d*d\d|^\d+$", match["damage"].strip()):
            out.append((match["what"].strip(), match["damage"].strip()))
    return out


def weapons(sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
    """The weapons on the sheet (Tablas 23-24) or a monster's attack line, with damage."""
    if is_npc(sheet):
        return tuple(StepOption(name, name, dmg) for name, dmg in _monster_attacks(sheet))
    out = []
    for item in _sheet_weapons(sheet):
        parts = []
        if item.melee is not None:
            parts.append(item.melee.damage)
        if item.missile is not None:
            parts.append(missile_damage(item))
        out.append(StepOption(item.name, item.name, " / ".join(dict.fromkeys(parts))))
    return tuple(out)


def target_ac(target: Fighter, settings: Settings) -> int | None:
    """The target's descending AC: a stat block's ``ca``, a character's Tabla 22 armour
    and Tabla 2 Destreza (Tabla 18 for an unarmoured Monje), or the GM's number (read in
    the campaign's notation); None when nobody gave one."""
    asc = bool(setting(settings, "ca_ascendente"))
    sheet = target.sheet
    if sheet is None:
        if target.defence is None:
            return None
        return ascending_to_descending(target.defence) if asc else target.defence
    if is_npc(sheet):
        return int(sheet.get("ca", 9))
    from rules.swc.equipment import armour_class

    ch = character(sheet, settings)
    des = ch.atributos["Destreza"]
    if ch.clases == ("monje",) and ch.armadura is None and not ch.escudo:
        return monk_progress(ch.niveles["monje"]).ca - dexterity_modifiers(des).ac_improvement
    return armour_class(ch.armadura, ch.escudo, des, False)


def _hit_points(target: Fighter) -> int | None:
    if target.sheet is not None:
        return int((target.sheet.get("pg") or {}).get("actual", 0))
    return target.hit_points


def _magic(circumstances: frozenset[str]) -> int:
    total = 0
    for item in circumstances:
        match = _MAGIC.match(item)
        if match:
            total += int(match["n"])
    return total


def _attacker_profile(
    request: AttackRequest, settings: Settings, ac: int | None
) -> tuple[str, str, list[tuple[str, int]], int | None, int, list[str]]:
    """(weapon label, damage dice, named to-hit bonuses, d20 target for ``ac``, damage
    bonus, notes) of the attacker."""
    attacker = request.attacker
    sheet = attacker.sheet
    bonuses: list[tuple[str, int]] = []
    notes: list[str] = []
    if sheet is None:
        if attacker.attack_bonus is None and attacker.hit_dice is None:
            raise _refuse("swc.problem.attack_needs_bonus", name=attacker.name)
        if not attacker.damage:
            raise _refuse("swc.problem.attack_needs_damage", name=attacker.name)
        if attacker.attack_bonus:
            bonuses.append(("Bono", attacker.attack_bonus))
        if attacker.hit_dice is not None:
            target = None if ac is None else monster_to_hit_target(attacker.hit_dice, ac, False)
        else:  # ascending method: d20 + bonus ≥ [CA]
            target = None if ac is None else descending_to_ascending(ac)
        return request.weapon or attacker.name, attacker.damage, bonuses, target, 0, notes
    if is_npc(sheet):
        attacks = _monster_attacks(sheet)
        chosen = attacks[0] if attacks and request.weapon is None else None
        for name, dmg in attacks:
            if request.weapon is not None and name.casefold() == request.weapon.casefold():
                chosen = (name, dmg)
        if chosen is None:
            raise _refuse("swc.problem.unknown_weapon", name=request.weapon or "")
        hd = str(sheet.get("dados_golpe", "1"))
        target = None if ac is None else monster_to_hit_target(hd, ac, False)
        return chosen[0], chosen[1], bonuses, target, 0, notes
    ch = character(sheet, settings)
    fighter = "guerrero" if "guerrero" in ch.clases else ch.clases[0]
    cap = int(setting(settings, "bono_fuerza_no_guerreros"))
    fue = strength_modifiers(ch.atributos["Fuerza"], fighter, non_fighter_cap=cap)
    carried = _sheet_weapons(sheet)
    item: Weapon | None = None
    if request.weapon is not None:
        item = next((w for w in carried if w.name.casefold() == request.weapon.casefold()), None)
        if item is None:
            raise _refuse("swc.problem.unknown_weapon", name=request.weapon)
    elif carried:
        usable = [w for w in carried if (w.missile is not None) == request.ranged]
        item = (usable or carried)[0]
    damage_bonus = 0
    if request.ranged:
        if item is None or item.missile is None:
            raise _refuse("swc.problem.not_a_missile_weapon", name=item.name if item else "")
        damage = missile_damage(item)
        bonuses.append(("Destreza", dexterity_modifiers(ch.atributos["Destreza"]).missile_to_hit))
        if setting(settings, "fuerza_en_proyectiles"):
            bonuses.append(("Fuerza", fue.to_hit))
        race = get_race(ch.raza)
        if race.bono_proyectiles:
            bonuses.append((race.nombre, race.bono_proyectiles))
        label = item.name
    else:
        if item is not None and item.melee is None:
            raise _refuse("swc.problem.not_a_melee_weapon", name=item.name)
        if item is None or item.melee is None:
            damage, label = _UNARMED, "Sin armas"
            if "monje" in ch.clases:
                damage = monk_progress(ch.niveles["monje"]).dano_desarmado
        else:
            two = "dos_manos" in request.circumstances or item.melee.hands is Hands.TWO
            damage = item.melee.damage_with(two and item.melee.hands is not Hands.ONE)
            label = item.name
        bonuses.append(("Fuerza", fue.to_hit))
        damage_bonus += fue.damage
        if "monje" in ch.clases and item is not None:
            damage_bonus += monk_progress(ch.niveles["monje"]).bono_dano_armas
    if "apunalar" in request.circumstances:
        stabs = [(s, c) for c in ch.clases if (s := backstab(c, ch.niveles[c])) is not None]
        if not stabs:
            raise _refuse("swc.problem.no_backstab")
        bonuses.append(("Apuñalar", stabs[0][0][0]))
        notes.append("swc.note.backstab")
    target = None
    if ac is not None:
        target = min(to_hit_target(c, ch.niveles[c], ac, False) for c in ch.clases)
    return label, damage, bonuses, target, damage_bonus, notes


def _parry(target: Fighter) -> int:
    sheet = target.sheet
    if sheet is None or is_npc(sheet):
        return 0
    clases = sheet.get("clases") or ()
    if isinstance(clases, str):
        clases = clases.split("/")
    if "guerrero" not in [str(c).strip() for c in clases]:
        return 0
    return parry_penalty(int((sheet.get("atributos") or {}).get("Destreza", 10)))


def attack(request: AttackRequest, settings: Settings, rng: random.Random) -> AttackResult:
    """Roll d20 + bonuses against the attack table for the target's AC and, on a hit, the
    weapon's damage + Fuerza (melee) + magic, ×Apuñalar, ×2 on a critical natural 20."""
    ac = target_ac(request.target, settings)
    label, damage_dice, bonuses, target, damage_bonus, notes = _attacker_profile(
        request, settings, ac
    )
    magic = _magic(request.circumstances)
    if magic:
        bonuses.append(("Mágica", magic))
        damage_bonus += magic
    if "parada" in request.circumstances:
        parry = _parry(request.target)
        if parry:
            bonuses.append(("Parada", parry))
    if request.attacker.sheet is not None:
        bonuses += effects.modifiers_for(request.attacker.sheet, effects.TO_HIT)
        damage_bonus += sum(
            v for _, v in effects.modifiers_for(request.attacker.sheet, effects.DAMAGE)
        )
    if request.modifier:
        bonuses.append(("Modificador", request.modifier))
    named = [(n, v) for n, v in bonuses if v]
    total_bonus = sum(v for _, v in named)
    rolled = dice.roll("1d20" + (f"{total_bonus:+d}" if total_bonus else ""), rng)
    natural = rolled.total - total_bonus
    line = RollLine("Ataque", rolled.expression, rolled.total, str(rolled))
    mode = str(settings.get("naturales_ataque", "ninguno"))
    asc = bool(setting(settings, "ca_ascendente"))
    shown_ac = None if ac is None else (descending_to_ascending(ac) if asc else ac)
    critical = fumble = False
    if mode != "ninguno" and natural == 20:
        hit, critical = True, mode == "critico"
        notes.append("swc.note.natural_20")
    elif mode != "ninguno" and natural == 1:
        hit, fumble = False, True
        notes.append("swc.note.natural_1")
    elif target is None:
        notes.append("swc.note.attack_unjudged")
        return AttackResult(
            AttackOutcome.UNJUDGED, label, line, rolled.total, None, None,
            natural=natural, modifiers=tuple(named), notes=tuple(notes),
        )  # fmt: skip
    else:
        hit = rolled.total >= target
    hp = _hit_points(request.target)
    if not hit:
        return AttackResult(
            AttackOutcome.MISS, label, line, rolled.total, target, shown_ac,
            fumble=fumble, natural=natural, modifiers=tuple(named), notes=tuple(notes),
            hit_points_left=hp,
        )  # fmt: skip
    expression = damage_dice + (f"{damage_bonus:+d}" if damage_bonus else "")
    damage_roll = dice.roll(expression, rng)
    amount = max(1, damage_roll.total)  # a hit always wounds (our reading, rules-decisions)
    multiplier = 1
    if "apunalar" in request.circumstances and request.attacker.sheet is not None:
        ch = character(request.attacker.sheet, settings)
        stabs = [s for c in ch.clases if (s := backstab(c, ch.niveles[c])) is not None]
        multiplier = stabs[0][1]
    if critical:
        multiplier *= 2
        notes.append("swc.note.critical_double")
    amount *= multiplier
    rolls = (RollLine("Daño", damage_roll.expression, damage_roll.total, str(damage_roll)),)
    return AttackResult(
        AttackOutcome.HIT, label, line, rolled.total, target, shown_ac,
        critical=critical, natural=natural, damage_rolls=rolls, damage=amount,
        change=TargetChange("damage", amount), modifiers=tuple(named), notes=tuple(notes),
        hit_points_left=None if hp is None else hp - amount,
        extra={"multiplicador": multiplier},
    )  # fmt: skip
