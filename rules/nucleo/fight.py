"""``/attack`` in Núcleo (seed 002, «Ataque cuerpo a cuerpo», «Ataque a Distancia», «Equipo»).

Melee: Físico + Armas cuerpo a cuerpo + 1o3d10 against the target's Defensa (two light
weapons +3, «Por la espalda» +4, «Flanqueando» +2).  Ranged: Destreza + Armas a distancia +
1o3d10 against Bocajarro 10 / Corta 15 / Media 20 / Larga 25 plus running, prone, cover and
crowd (``range_band`` and circumstances) and the target's shield «Cobertura +2».  Equal or
more hits; every full 10 over adds 1d6 (melee; ranged by the campaign setting); damage dice
explode; a fumble (kept 1, previous die ≤ 5) always misses.  Damage: the weapon, 1d6
unarmed, 1d6+1 improvised (a ranged weapon in melee), + Golpe Duro / Certero, minus the
target's absorption.  The rolls come from :mod:`rules.nucleo.combat`; this module reads the
two :class:`~rules.combat.attack.Fighter` into its numbers, with active effects
(:mod:`rules.combat.effects`: Aura de poder, Anticipación, Baile de viento, Absorción,
Fuerza sobrehumana, Arma de fuego, Espejo de sombras) named in the result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.combat import effects
from rules.combat.attack import (
    AttackOutcome,
    AttackRequest,
    AttackResult,
    Fighter,
    RollLine,
    TargetChange,
)
from rules.combat.health import Act, CombatState, Condition
from rules.nucleo import combat
from rules.nucleo.checks import Keep, roll_check
from rules.nucleo.data import catalogue
from rules.nucleo.equipment import damage_expression, exploding, find_weapon, restriction
from rules.nucleo.rolls import attack_bonus, effect_total, keep_for
from rules.nucleo.sheet import character, setting
from rules.systems.base import Problem, RulesError, Settings, Sheet, StepOption

__all__ = ["attack", "combat_state", "weapons"]


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(key, "", params))


def _equipo(sheet: Sheet) -> Mapping[str, Any]:
    equipo = sheet.get("equipo")
    return equipo if isinstance(equipo, Mapping) else {}


def weapons(sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
    """The sheet's weapons (main weapon first) with their damage, then the unarmed blow."""
    char = character(sheet, settings)
    out = [
        StepOption(w.name, w.name, damage_expression(w) + restriction(w))
        for w in char.loadout.weapons
    ]
    out.append(StepOption("Sin armas", "Sin armas", catalogue().unarmed_damage))
    return tuple(out)


def _effect_mods(sheet: Sheet | None, *keys: str) -> list[tuple[str, int]]:
    return effects.modifiers_for(sheet, *keys) if sheet is not None else []


def _defence(target: Fighter, settings: Settings) -> tuple[int | None, int, int]:
    """(Defensa, absorption, shield cover) of the target, effects included."""
    if target.sheet is None:
        absorption = int(target.armour) if target.armour and target.armour.isdigit() else 0
        return target.defence, absorption, 0
    d = character(target.sheet, settings)
    defensa = d.derived.defensa + sum(v for _, v in _effect_mods(target.sheet, effects.DEFENCE))
    absorption = d.loadout.absorption + sum(
        v for _, v in _effect_mods(target.sheet, effects.ABSORPTION)
    )
    return defensa, absorption, d.loadout.cover


def _hit_points(target: Fighter, settings: Settings) -> int | None:
    if target.sheet is None:
        return target.hit_points
    d = character(target.sheet, settings)
    return d.derived.pv - d.wounds


def attack(request: AttackRequest, settings: Settings, rng: random.Random) -> AttackResult:
    """Resolve one attack (see the module docstring); ``weapon`` picks one of the sheet's."""
    a_sheet = request.attacker.sheet
    circ = request.circumstances
    notes: list[str] = []
    named: list[tuple[str, int]] = []
    keep = Keep.MIDDLE
    damage_bonus = 0
    kind = "distancia" if request.ranged else "cuerpo_a_cuerpo"
    if a_sheet is None:
        if request.attacker.attack_bonus is None or not request.attacker.damage:
            raise _refuse("nucleo.problem.attack_needs_stats", name=request.attacker.name)
        bonus = request.attacker.attack_bonus
        named.append(("Bono", bonus))
        damage, label = request.attacker.damage, request.weapon or request.attacker.name
    else:
        a = character(a_sheet, settings)
        label_, attribute, bonus, unknown = attack_bonus(a, kind, circ, notes)
        keep = keep_for(a, circ, settings, unknown, notes)
        named.append((label_, bonus))
        attribute_mods = _effect_mods(a_sheet, f"attribute:{attribute}", effects.TO_HIT)
        named += attribute_mods
        bonus += sum(v for _, v in attribute_mods)
        damage_bonus = effect_total(a, "ranged_damage" if request.ranged else "melee_damage")
        if "toque" in circ:  # a touch spell's attack: no weapon, and no note about one
            damage, label = "0", "Toque"
        else:
            damage, label = _weapon_damage(a_sheet, a, request, notes)
        mods = _effect_mods(a_sheet, effects.DAMAGE)
        damage_bonus += sum(v for _, v in mods)
        for name, extra in effects.damage_dice(a_sheet):
            damage += "+" + exploding(extra)
            named.append((f"{name} +{extra}", 0))
    if request.modifier:
        named.append(("Modificador", request.modifier))
        bonus += request.modifier
    defensa, absorption, cover = _defence(request.target, settings)
    table = catalogue().combat
    if request.ranged:
        band = request.range_band or ""
        if band not in table.range_difficulties:
            params = {"band": band, "choices": ", ".join(table.range_difficulties)}
            raise RulesError(Problem("nucleo.problem.range_band", "", params))
        modifiers = [c for c in circ if c in table.ranged_modifiers]
        baile = sum(v for _, v in _effect_mods(request.target.sheet, effects.DEFENCE))
        difficulty = combat.ranged_difficulty(band, modifiers, cover, baile)
        target_number: int | None = difficulty
        resolved = combat.ranged_attack(
            bonus, difficulty, damage, rng, keep=keep, damage_bonus=damage_bonus,
            absorption=absorption, extra_dice=bool(setting(settings, "dados_extra_distancia")),
            fumble_mode=setting(settings, "pifia_con_menor"),
        )  # fmt: skip
    elif defensa is None:
        check = roll_check(bonus, rng, keep, None, setting(settings, "pifia_con_menor"))
        line = RollLine("Ataque", check.expression, check.total, check.breakdown)
        notes.append("nucleo.note.attack_unjudged")
        return AttackResult(
            AttackOutcome.UNJUDGED, label, line, check.total, None, None,
            fumble=check.fumble, modifiers=tuple(named), notes=tuple(notes),
        )  # fmt: skip
    else:
        target_number = defensa
        resolved = combat.melee_attack(
            bonus, defensa, damage, rng, keep=keep, damage_bonus=damage_bonus,
            absorption=absorption, fumble_mode=setting(settings, "pifia_con_menor"),
        )  # fmt: skip
    check = resolved.check
    line = RollLine("Ataque", check.expression, check.total, check.breakdown)
    hp = _hit_points(request.target, settings)
    if check.fumble:
        notes.append("nucleo.note.attack_fumble")
    hit = resolved.hit
    if hit and request.target.sheet is not None:
        mirror = [
            e
            for e in effects.effects(request.target.sheet)
            if e.action and e.action.kind == "miss_chance"
        ]
        if mirror:
            missed = effects.roll_action(mirror[0], rng)
            notes.append(
                "effects.note.miss_chance_missed"
                if missed.missed
                else "effects.note.miss_chance_hit"
            )
            if missed.missed:
                return AttackResult(
                    AttackOutcome.MISS, label, line, check.total, target_number, defensa,
                    critical=check.critical, modifiers=tuple(named), notes=tuple(notes),
                    hit_points_left=hp,
                    damage_rolls=(RollLine(mirror[0].name, missed.expression, missed.total, missed.breakdown),),
                )  # fmt: skip
    if not hit:
        return AttackResult(
            AttackOutcome.MISS, label, line, check.total, target_number, defensa,
            fumble=check.fumble, modifiers=tuple(named), notes=tuple(notes), hit_points_left=hp,
        )  # fmt: skip
    if "toque" in circ:  # a touch spell's melee attack: the spell's cast brings the damage
        return AttackResult(
            AttackOutcome.HIT, label, line, check.total, target_number, defensa,
            critical=check.critical, modifiers=tuple(named),
            notes=(*notes, "nucleo.note.touch_hit"), hit_points_left=hp,
        )  # fmt: skip
    rolls = (
        RollLine(
            "Daño", resolved.damage_expression or "", resolved.damage, resolved.damage_breakdown
        ),
    )
    if absorption:
        notes.append("nucleo.note.absorption")
    return AttackResult(
        AttackOutcome.HIT, label, line, check.total, target_number, defensa,
        critical=check.critical, damage_rolls=rolls, damage=resolved.wounds,
        change=TargetChange("damage", resolved.wounds), modifiers=tuple(named),
        notes=tuple(notes), hit_points_left=None if hp is None else hp - resolved.wounds,
        extra={"dados_extra": resolved.extra_dice, "absorcion": absorption},
    )  # fmt: skip


def _weapon_damage(
    sheet: Sheet, a: Any, request: AttackRequest, notes: list[str]
) -> tuple[str, str]:
    """Damage dice and label of the blow: seed 002 «Equipo» and «Combate» 5."""
    equipo = _equipo(sheet)
    circ = request.circumstances
    if request.weapon is not None and request.weapon.casefold() == "sin armas":
        return catalogue().unarmed_damage, "Sin armas"
    chosen = None
    if request.weapon is not None:
        chosen = next(
            (w for w in a.loadout.weapons if w.name.casefold() == request.weapon.casefold()), None
        )
        if chosen is None:
            raise _refuse("nucleo.problem.unknown_weapon", name=request.weapon)
    else:
        chosen = find_weapon(str(equipo.get("arma_principal") or ""))
    if chosen is not None and chosen.mounted_only and "a_caballo" not in circ:
        raise _refuse("nucleo.problem.mounted_only", name=chosen.name)
    if request.ranged:
        if chosen is None or chosen.ranges_m is None:
            raise _refuse("nucleo.problem.no_ranged_weapon")
        if chosen.reload:
            notes.append("nucleo.note.reload")
        variant = next((c.split(":", 1)[1] for c in circ if c.startswith("municion:")), None)
        return damage_expression(chosen, variant=variant), chosen.name
    if "dos_armas" in circ:
        first, second = [w for w in a.loadout.weapons if w.kind == "cuerpo_a_cuerpo"][:2]
        return combat.two_weapon_damage(first, second), f"{first.name} + {second.name}"
    if chosen is not None and chosen.kind == "distancia":
        notes.append("nucleo.note.arma_improvisada")
        return combat.melee_damage(chosen), "Arma improvisada"
    return combat.melee_damage(chosen, bool(equipo.get("dos_manos"))), (
        chosen.name if chosen else "Sin armas"
    )


_CONDITIONS = {
    "normal": Condition.OK,
    "malherido": Condition.WOUNDED,
    "inconsciente": Condition.UNCONSCIOUS,
    "muerto": Condition.DEAD,
}


def combat_state(sheet: Sheet, settings: Settings) -> CombatState:
    """«Estados de Salud» (seed 002): Normal and Malherido act (Malherido keeps the lowest
    die); Inconsciente and Muerto cannot act and lose their turn.  The state's id is what
    a player may read about a hidden NPC (named, in the reader's language and agreeing with
    the character, by :func:`rules.names.display_state`)."""
    char = character(sheet, settings)
    condition = _CONDITIONS[char.state]
    down = condition in (Condition.UNCONSCIOUS, Condition.DEAD)
    return CombatState(
        condition=condition,
        state=char.state,
        label=char.state,
        skip_turn=down,
        allowed=frozenset() if down else frozenset(Act),
        reason="combat.problem.cannot_act" if down else None,
        description=char.state,
        hit_points=(char.derived.pv - char.wounds, char.derived.pv),
    )
