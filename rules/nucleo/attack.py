"""Attacks between two Núcleo sheets (seed 002, «Ataque cuerpo a cuerpo», «Ataque a Distancia»).

:mod:`combat` resolves an attack from plain numbers; this module reads them off the two
sheets — the attacker's skill, advantages, weapon and state, the defender's Defensa, shield
cover and absorption — so the combat tracker needs one call per blow.  Applying the wounds
is left to ``SYSTEM.apply_damage(defender, report.attack.wounds, settings)``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.nucleo import combat
from rules.nucleo.data import catalogue
from rules.nucleo.equipment import damage_expression, find_weapon
from rules.nucleo.rolls import attack_bonus, effect_total, keep_for
from rules.nucleo.sheet import character, setting
from rules.systems.base import Problem, RulesError, Settings, Sheet

__all__ = ["AttackReport", "melee", "ranged"]


@dataclass(frozen=True, slots=True)
class AttackReport:
    """An attack between two sheets: the resolved attack, the weapon used and the notes."""

    attack: combat.Attack
    weapon: str
    notes: tuple[str, ...]


def _equipo(sheet: Sheet) -> Mapping[str, Any]:
    equipo = sheet.get("equipo")
    return equipo if isinstance(equipo, Mapping) else {}


def melee(
    attacker: Sheet,
    defender: Sheet,
    settings: Settings,
    rng: random.Random,
    *,
    circumstances: frozenset[str] = frozenset(),
    modifier: int = 0,
) -> AttackReport:
    """Físico + Armas cuerpo a cuerpo + 1o3d10 against the defender's Defensa.

    Damage: the main weapon (held two-handed if ``equipo.dos_manos``), the better of two light
    weapons with ``dos_armas``, 1d6 unarmed, 1d6+1 when the main weapon is a ranged one;
    + Golpe Duro; minus the defender's absorption.
    """
    a, d = character(attacker, settings), character(defender, settings)
    notes: list[str] = []
    _, _, bonus, unknown = attack_bonus(a, "cuerpo_a_cuerpo", circumstances, notes)
    keep = keep_for(a, circumstances, settings, unknown, notes)
    equipo = _equipo(attacker)
    main = find_weapon(str(equipo.get("arma_principal") or ""))
    if "dos_armas" in circumstances:
        first, second = [w for w in a.loadout.weapons if w.kind == "cuerpo_a_cuerpo"][:2]
        damage, label = combat.two_weapon_damage(first, second), f"{first.name} + {second.name}"
    elif main is not None and main.kind == "distancia":
        damage, label = combat.melee_damage(main), "Arma improvisada"
        notes.append("nucleo.note.arma_improvisada")
    else:
        damage = combat.melee_damage(main, bool(equipo.get("dos_manos")))
        label = main.name if main else "Sin armas"
    attack = combat.melee_attack(
        bonus + modifier,
        d.derived.defensa,
        damage,
        rng,
        keep=keep,
        damage_bonus=effect_total(a, "melee_damage"),
        absorption=d.loadout.absorption,
        fumble_mode=setting(settings, "pifia_con_menor"),
    )
    return AttackReport(attack, label, tuple(notes))


def ranged(
    attacker: Sheet,
    defender: Sheet,
    band: str,
    settings: Settings,
    rng: random.Random,
    *,
    circumstances: frozenset[str] = frozenset(),
    modifier: int = 0,
) -> AttackReport:
    """Destreza + Armas a distancia + 1o3d10 against the range band's difficulty.

    ``band`` is bocajarro / corta / media / larga; ranged modifiers (``corriendo``,
    ``tumbado``, ``cobertura_ligera`` …, ``entre_gente``) come as circumstances and the
    defender's shield adds its «Cobertura +2».  Damage: the main weapon (``municion:<variante>``
    for the Honda's lead shot) + Certero, minus absorption; extra dice per the campaign setting.
    """
    a, d = character(attacker, settings), character(defender, settings)
    weapon = find_weapon(str(_equipo(attacker).get("arma_principal") or ""))
    if weapon is None or weapon.ranges_m is None:
        raise RulesError(Problem("nucleo.problem.no_ranged_weapon", "equipo.arma_principal"))
    table = catalogue().combat
    if band not in table.range_difficulties:
        params = {"band": band, "choices": ", ".join(table.range_difficulties)}
        raise RulesError(Problem("nucleo.problem.range_band", "", params))
    notes: list[str] = []
    _, _, bonus, unknown = attack_bonus(a, "distancia", circumstances, notes)
    keep = keep_for(a, circumstances, settings, unknown, notes)
    modifiers = [c for c in circumstances if c in table.ranged_modifiers]
    difficulty = combat.ranged_difficulty(band, modifiers, cover=d.loadout.cover)
    variant = next((c.split(":", 1)[1] for c in circumstances if c.startswith("municion:")), None)
    attack = combat.ranged_attack(
        bonus + modifier,
        difficulty,
        damage_expression(weapon, variant=variant),
        rng,
        keep=keep,
        damage_bonus=effect_total(a, "ranged_damage"),
        absorption=d.loadout.absorption,
        extra_dice=bool(setting(settings, "dados_extra_distancia")),
        fumble_mode=setting(settings, "pifia_con_menor"),
    )
    return AttackReport(attack, weapon.name, tuple(notes))
