"""Núcleo's :class:`~rules.systems.base.SpellBook`: the «Magia» module seen from ``/spell``.

A cast is the same roll ``/check hechizo:<name>`` makes (seed 002, «Módulo de reglas: Magia»:
Inteligencia + nivel + 1o3d10 against the spell's difficulty, mana spent whatever the
outcome, +1 per 2 mana burnt, critical at +10), so this module only translates a
:class:`SpellRequest` into that check's circumstances and reads the result back.  Mana comes
back with a night's rest: the seed never says how it returns (docs/rules-decisions.md).
"""

from __future__ import annotations

import random

from rules.nucleo import rolls, spell_effects
from rules.nucleo.data import Spell, catalogue
from rules.nucleo.sheet import character, setting
from rules.systems.base import (
    CastResult,
    CheckRequest,
    Outcome,
    Problem,
    RestResult,
    RulesError,
    Settings,
    Sheet,
    SpellEffect,
    SpellInfo,
    SpellList,
    SpellPool,
    SpellRequest,
    SpellState,
    apply_effects,
)
from rules.text import fold

__all__ = ["cast", "find", "rest", "spell_infos", "spell_list", "spell_state"]

MAGIC_OFF = "nucleo.note.magic_off"


def find(name: str) -> Spell | None:
    """The spell called ``name``, ignoring case and accents («curacion» is Curación)."""
    wanted = fold(name)
    return next((s for s in catalogue().spells.values() if fold(s.name) == wanted), None)


def spell_infos(settings: Settings) -> tuple[SpellInfo, ...]:
    """The 55 spells as the spells cog lists them (none without the «Magia» module)."""
    if not setting(settings, "magia"):
        return ()
    return tuple(
        SpellInfo(
            key=spell.name,
            name=spell.name,
            level=0 if spell.difficulty is None else (spell.difficulty - 10) // 2,
            cost=spell.mana_cost,
            range=spell.range,
            description=spell.text,
            difficulty=spell.difficulty,
            duration=spell.duration,
            critical=spell.critical,
            melee_attack=spell.melee_attack,
        )
        for spell in catalogue().spells.values()
    )


def spell_list(settings: Settings) -> SpellList:
    """The 55 spells, or a notice when the campaign plays without the «Magia» module."""
    if not setting(settings, "magia"):
        return SpellList((), MAGIC_OFF)
    return SpellList(spell_infos(settings))


def _pools(sheet: Sheet, settings: Settings) -> tuple[SpellPool, ...]:
    if not setting(settings, "magia"):
        return ()
    char = character(sheet, settings)
    return (SpellPool("mana", "Maná", char.mana_left, char.derived.mana),)


def spell_state(sheet: Sheet, settings: Settings) -> SpellState:
    """Mana left of Inteligencia × 3 (× 4 with Maná abundante) and the spells bought."""
    char = character(sheet, settings)
    known = {name: level for name, level in char.spells.items() if level > 0}
    return SpellState(_pools(sheet, settings), known)


def _save(spell: Spell, casting_total: int, level: int, settings: Settings) -> tuple[str, str]:
    """«Salv: INT 15» as (attribute, what to reach); Olvido's is 8/10/12 + the caster's level."""
    assert spell.save is not None
    mode = setting(settings, "salvacion")
    if mode == "enfrentada":
        return spell.save.attribute, str(casting_total)
    if spell.save.difficulty is not None:
        return spell.save.attribute, str(spell.save.difficulty)
    choices = "/".join(str(c) for c in spell.save.difficulty_choices)
    return spell.save.attribute, f"{choices} + {level}" if spell.save.plus_level else choices


def cast(sheet: Sheet, request: SpellRequest, settings: Settings, rng: random.Random) -> CastResult:
    """Roll the cast through :func:`rules.nucleo.rolls.check` and report what it spent and did."""
    if not setting(settings, "magia"):
        raise RulesError(Problem(MAGIC_OFF))
    if not request.spell:
        raise RulesError(Problem("spell.problem.name_needed"))
    spell = find(request.spell)
    if spell is None:
        raise RulesError(Problem("spell.problem.unknown_spell", "", {"spell": request.spell}))
    if request.mana is not None and not spell.healing_per_mana_max:
        raise RulesError(Problem("spell.problem.mana_not_variable", "", {"spell": spell.name}))
    if request.dispel is not None and not spell.dispel:
        raise RulesError(Problem("spell.problem.not_dispel", "", {"spell": spell.name}))
    if request.amount is not None:  # every Núcleo spell rolls its own (seed 002's list)
        raise RulesError(Problem("nucleo.problem.spell_amount", "", {"spell": spell.name}))
    circumstances = set()
    if request.extra_mana:
        circumstances.add(f"quemar:{request.extra_mana}")
    if request.mana is not None:
        circumstances.add(f"curacion:{request.mana}")
    if spell.dispel:
        dispelled = find(request.dispel or "")
        if dispelled is None:
            params = {"spell": request.dispel or "—"}
            raise RulesError(Problem("nucleo.problem.dispel_target", "", params))
        circumstances.add(f"disipar:{dispelled.name}")
    before = character(sheet, settings)
    check = rolls.check(
        sheet,
        CheckRequest(f"hechizo:{spell.name}", request.modifier, None, frozenset(circumstances)),
        settings,
        rng,
    )
    extra = check.extra
    new_sheet = apply_effects(sheet, check.effects)
    spent = int(extra.get("mana", 0))
    raw_effect = extra.get("effect")
    effect = SpellEffect(**raw_effect) if raw_effect else None
    level = before.spells.get(spell.name, 0)
    pool = SpellPool("mana", "Maná", before.mana_left - spent, before.derived.mana)
    critical = tuple(extra.get("critical_benefits", ()))
    succeeded = check.outcome in (Outcome.SUCCESS, Outcome.CRITICAL)
    timed = spell_effects.timed_effect(spell, level, critical) if succeeded else None
    return CastResult(
        label=spell.name,
        sheet=new_sheet,
        spent=spent,
        pool=pool,
        check=check,
        effect=effect,
        save=_save(spell, check.total, level, settings) if spell.save else None,
        critical_benefits=critical,
        notes=check.notes,
        timed_effect=timed,
        effect_target=spell.effect.target if spell.effect else "",
        needs_melee_attack=spell.melee_attack,
    )


def rest(sheet: Sheet, settings: Settings) -> RestResult:
    """A night's rest refills the mana (``mana_gastado`` back to 0)."""
    if not setting(settings, "magia"):
        raise RulesError(Problem(MAGIC_OFF))
    new_sheet = {**sheet, "mana_gastado": 0}
    return RestResult(new_sheet, _pools(sheet, settings), _pools(new_sheet, settings))
