"""Reading a ``/check`` request for Núcleo: which bonus, which kept die, which notes.

A request names an option (``"habilidad:Sigilo"``, ``"hechizo:Curación"``) and circumstances
(``"token"``, ``"quemar:4"``); this module gathers what the sheet implies (Malherido, unknown
skill, Estorbo, advantages, infravisión) and hands the numbers to :mod:`checks` and :mod:`magic`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from rules.combat import effects
from rules.nucleo import combat, creation, health, magic
from rules.nucleo.checks import Check, Keep, kept_die, opposed_winner, probability, roll_check
from rules.nucleo.data import ATTRIBUTES, catalogue
from rules.nucleo.sheet import Character, character, setting
from rules.systems.base import (
    CheckRequest,
    CheckResult,
    OpposedResult,
    Problem,
    RulesError,
    Settings,
    Sheet,
    SheetEffect,
)

__all__ = ["attack_bonus", "check", "effect_total", "keep_for", "opposed"]

_MELEE_SKILL = "Armas cuerpo a cuerpo"
_RANGED_SKILL = "Armas a distancia"
#: The spell Defensa mental: «+4 a salvación contra magia».
_DEFENSA_MENTAL = 4


def _param(circumstances: frozenset[str], prefix: str) -> str | None:
    """The value of a ``prefix:value`` circumstance (``quemar:4`` → ``"4"``)."""
    for item in circumstances:
        if item.startswith(prefix + ":"):
            return item.split(":", 1)[1]
    return None


def _int_param(circumstances: frozenset[str], prefix: str) -> int | None:
    value = _param(circumstances, prefix)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise RulesError(
            Problem("nucleo.problem.bad_circumstance", "", {"value": f"{prefix}:{value}"})
        ) from None


def effect_total(char: Character, effect: str) -> int:
    """The sum of one advantage effect (``melee_attack``, ``ranged_damage`` …) the character has."""
    known = catalogue().advantages
    return sum(known[a].effects.get(effect, 0) for a in char.advantages)


def keep_for(
    char: Character,
    circumstances: frozenset[str],
    settings: Settings,
    unknown_skill: bool,
    notes: list[str],
) -> Keep:
    """The kept die for this character now, appending the note of every circumstance applied.

    Raises for a character who cannot roll (Inconsciente, Muerto), a token the player does not
    hold, or split actions the campaign forbids.
    """
    if char.state in (health.INCONSCIENTE, health.MUERTO):
        raise RulesError(Problem("nucleo.problem.cannot_act", "heridas", {"state": char.state}))
    circ = circumstances
    malherido = char.state == health.MALHERIDO
    token = "token" in circ
    if token and not char.token:
        raise RulesError(Problem("nucleo.problem.token_unavailable", "token"))
    returned = "token_devuelto" in circ
    split = "dividir_acciones" in circ
    already_lowest = malherido or unknown_skill or returned
    if split and already_lowest and setting(settings, "dividir_con_menor") == "prohibido":
        raise RulesError(Problem("nucleo.problem.split_not_allowed", ""))
    for flag, note in (
        (malherido, "nucleo.note.malherido"),
        (unknown_skill, "nucleo.note.habilidad_desconocida"),
        (token, "nucleo.note.token"),
        (returned, "nucleo.note.token_devuelto"),
        (split, "nucleo.note.dividir_acciones"),
    ):
        if flag:
            notes.append(note)
    return kept_die(
        malherido=malherido,
        unknown_skill=unknown_skill,
        split_actions=split,
        token=token,
        token_returned=returned,
        token_mode=setting(settings, "token_contra_menor"),
    )


def check(
    sheet: Sheet, request: CheckRequest, settings: Settings, rng: random.Random
) -> CheckResult:
    """Roll one ``/check`` request (see docs/systems/nucleo.md for options and circumstances)."""
    char = character(sheet, settings)
    kind, _, name = request.option.partition(":")
    notes: list[str] = []
    extra: dict[str, Any] = {}
    circ = request.circumstances
    unknown_skill = False
    difficulty = request.difficulty
    fumble_mode = setting(settings, "pifia_con_menor")
    if kind == "atributo" and name in ATTRIBUTES:
        label, attribute, bonus = name, name, char.attributes[name]
    elif kind == "salvacion" and name in ATTRIBUTES:
        label, attribute, bonus = f"Salvación ({name})", name, char.attributes[name]
        if "defensa_mental" in circ:  # the spell: «+4 a salvación contra magia»
            bonus += _DEFENSA_MENTAL
            notes.append("nucleo.note.defensa_mental")
    elif kind == "habilidad" and creation.canonical_skill(name):
        label = creation.canonical_skill(name) or name
        attribute = catalogue().skills[label].attribute
        level = char.skills.get(label, char.skills.get(name, 0))
        unknown_skill = level <= 0
        bonus = char.attributes[attribute] + level
        if attribute == "Destreza" and "combate" not in circ and char.loadout.estorbo:
            bonus -= char.loadout.estorbo
            notes.append("nucleo.note.estorbo")
    elif kind == "iniciativa" and not name:
        label, attribute, bonus = "Iniciativa", "Percepción", char.derived.iniciativa
    elif kind == "ataque" and name in ("cuerpo_a_cuerpo", "distancia"):
        label, attribute, bonus, unknown_skill = attack_bonus(char, name, circ, notes)
    elif kind == "hechizo" and setting(settings, "magia") and magic.find_spell(name):
        return _cast(sheet, char, request, settings, rng, name)
    else:
        raise RulesError(Problem("nucleo.problem.unknown_option", "", {"option": request.option}))
    if attribute == "Percepción" and "oscuridad" in circ and char.race and char.race.infravision:
        bonus += catalogue().infravision_penalty
        notes.append("nucleo.note.infravision")
    keep = keep_for(char, request.circumstances, settings, unknown_skill, notes)
    mods = effects.option_modifiers(sheet, request.option, attribute)
    if kind == "ataque":
        mods += effects.modifiers_for(sheet, effects.TO_HIT)
    bonus += sum(v for _, v in mods)
    rolled = roll_check(bonus + request.modifier, rng, keep, difficulty, fumble_mode)
    _record_changes(sheet, char, circ, 0, extra)
    if kind == "iniciativa":
        extra["actions"] = combat.actions_for_initiative(rolled.total)
    result = _result(request.option, label, rolled, notes, extra, settings)
    return replace(result, modifiers=tuple(mods))


def attack_bonus(
    char: Character, name: str, circ: frozenset[str], notes: list[str]
) -> tuple[str, str, int, bool]:
    """Label, attribute, bonus and «unknown skill» for ``cuerpo_a_cuerpo`` or ``distancia``:
    Físico + Armas cuerpo a cuerpo (+ Berseker, position, two weapons) or Destreza + Armas a
    distancia (+ Puntería)."""
    if name == "cuerpo_a_cuerpo":
        level = char.skills.get(_MELEE_SKILL, 0)
        weapons = [w for w in char.loadout.weapons if w.kind == "cuerpo_a_cuerpo"]
        two = "dos_armas" in circ
        if two and not (
            len(weapons) >= 2 and all(w.light for w in weapons[:2]) and char.loadout.light_armour
        ):
            raise RulesError(Problem("nucleo.problem.two_weapons", "equipo"))
        bonus = char.attributes["Físico"] + level + effect_total(char, "melee_attack")
        bonus += combat.melee_target_bonus(
            from_behind="por_la_espalda" in circ,
            flanking="flanqueando" in circ,
            two_weapons=two,
        )
        return "Ataque cuerpo a cuerpo", "Físico", bonus, level <= 0
    level = char.skills.get(_RANGED_SKILL, 0)
    bonus = char.attributes["Destreza"] + level + effect_total(char, "ranged_attack")
    return "Ataque a distancia", "Destreza", bonus, level <= 0


def _cast(
    sheet: Sheet,
    char: Character,
    request: CheckRequest,
    settings: Settings,
    rng: random.Random,
    name: str,
) -> CheckResult:
    circ = request.circumstances
    notes: list[str] = []
    plan = magic.plan_cast(
        name,
        char.spells.get(name, 0),
        char.mana_left,
        extra_mana=_int_param(circ, "quemar") or 0,
        target_spell=_param(circ, "disipar"),
        healing_mana=_int_param(circ, "curacion"),
    )
    keep = keep_for(char, request.circumstances, settings, False, notes)
    modifier = request.modifier + effect_total(char, "spell_check") - char.loadout.estorbo
    if char.loadout.estorbo:
        notes.append("nucleo.note.estorbo")
    if plan.extra_mana:
        notes.append("nucleo.note.quemar_mana")
    result = magic.cast(
        plan,
        char.attributes["Inteligencia"],
        rng,
        keep=keep,
        modifier=modifier,
        fumble_mode=setting(settings, "pifia_con_menor"),
    )
    extra: dict[str, Any] = {"mana": result.mana_spent, "spell": plan.spell.name}
    if result.critical_benefits:
        extra["critical_benefits"] = result.critical_benefits
    effect = magic.roll_effect(result, rng)
    if effect is not None:
        extra["effect"] = {
            "kind": effect.kind,
            "expression": effect.expression,
            "total": effect.total,
            "breakdown": effect.breakdown,
            "ignores_armour": effect.ignores_armour,
        }
    _record_changes(sheet, char, circ, result.mana_spent, extra)
    return _result(request.option, plan.spell.name, result.check, notes, extra, settings)


def _record_changes(
    sheet: Sheet, char: Character, circ: frozenset[str], mana: int, extra: dict[str, Any]
) -> None:
    """What the roll changes on the sheet, as ``extra["effects"]`` (re-applied by the bot to
    the sheet's current version, see :class:`SheetEffect`):

    * ``token``: the token goes to the GM (``token`` false; ``extra["token_spent"]`` too) —
      refused if by then the character no longer holds it (two checks spending one token);
    * ``token_devuelto``: the GM hands it back («puede devolverlo en cualquier momento»);
    * a spell: its mana is added to ``mana_gastado`` («se gasta» whatever the outcome), on the
      mana the roll saw (a cast that raced another spends nothing and is refused).
    """
    effects: list[SheetEffect] = []
    if "token" in circ:
        extra["token_spent"] = True
        effects.append(
            SheetEffect.expect("token", True, Problem("nucleo.problem.token_unavailable", "token"))
        )
        effects.append(SheetEffect.set("token", False))
    elif "token_devuelto" in circ and not char.token:
        effects.append(SheetEffect.set("token", True))
    if mana:
        effects.append(
            SheetEffect.expect(
                "mana_gastado",
                sheet.get("mana_gastado"),
                Problem("sheet.problem.changed_meanwhile", "mana_gastado"),
            )
        )
        effects.append(SheetEffect.set("mana_gastado", char.mana_spent + mana))
    if effects:
        extra["effects"] = tuple(effects)


def _result(
    option: str,
    label: str,
    rolled: Check,
    notes: list[str],
    extra: dict[str, Any],
    settings: Settings,
) -> CheckResult:
    chance = None
    if rolled.difficulty is not None:
        mode = setting(settings, "pifia_con_menor")
        chance = probability(rolled.bonus, rolled.difficulty, rolled.keep, mode)
    return CheckResult(
        option=option,
        label=label,
        expression=rolled.expression,
        total=rolled.total,
        breakdown=rolled.breakdown,
        outcome=rolled.outcome,
        target=rolled.difficulty,
        notes=tuple(notes),
        probability=chance,
        extra={k: v for k, v in extra.items() if k != "effects"},
        effects=tuple(extra.get("effects", ())),
    )


def opposed(
    a: Sheet,
    a_request: CheckRequest,
    b: Sheet,
    b_request: CheckRequest,
    settings: Settings,
    rng: random.Random,
) -> OpposedResult:
    """«el que saque la tirada más alta» wins; a fumble loses to anything but a fumble."""
    first = check(
        a,
        CheckRequest(a_request.option, a_request.modifier, None, a_request.circumstances),
        settings,
        rng,
    )
    second = check(
        b,
        CheckRequest(b_request.option, b_request.modifier, None, b_request.circumstances),
        settings,
        rng,
    )
    fumble_a = first.outcome == "fumble"
    fumble_b = second.outcome == "fumble"
    if fumble_a != fumble_b:
        winner = "b" if fumble_a else "a"
    else:
        winner = opposed_winner(first.total, second.total)
    return OpposedResult(first, second, winner)
