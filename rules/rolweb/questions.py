"""The rolweb creation wizard's questions: the prompt, the options or fields, the summary.

Prompts are catalogue keys (``rolweb.step.*``); option labels and summary lines are game
terms and numbers, which stay in Spanish in every language.
"""

from __future__ import annotations

from typing import Any

from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import Level
from rules.rolweb.advancement import level_cost, upgrade_cost
from rules.rolweb.combat import defence
from rules.rolweb.damage import pain_threshold, toughness
from rules.rolweb.equipment import Shield, load_armour, load_weapons
from rules.rolweb.settings import CreationMethod, RolwebSettings
from rules.rolweb.steps import (
    NO_ARMOUR,
    PER_SELECT,
    ability_parts,
    array_left,
    attribute_parts,
    attributes_before,
    chosen_abilities,
    listed,
    step_index,
    weapon_parts,
)
from rules.systems.base import CreationStep, FormField, Problem, Sheet, StepKind, StepOption

__all__ = ["ask"]


def ask(
    key: str, draft: Sheet, settings: RolwebSettings, npc: bool, done: tuple[str, ...]
) -> CreationStep:
    summary = _summary(draft, settings, npc, done)
    prefix = key.rpartition("_")[0]
    index = step_index(key, prefix) or 0
    if prefix in ("atributos", "pnj_atributos"):
        return _ask_attributes(key, index, draft, settings, npc, summary)
    if prefix == "habilidades":
        return _ask_abilities(key, index, draft, settings, summary)
    if prefix == "nivel":
        return _ask_level(key, index, draft, settings, summary)
    if prefix == "armas":
        options = tuple(
            StepOption(w.name, w.name, " ".join([w.damage, *sorted(w.qualities)]))
            for w in weapon_parts(settings)[index - 1]
        )
        return CreationStep(
            key,
            StepKind.CHOOSE,
            Problem("rolweb.step.weapons"),
            options=options,
            max_choices=len(options),
            optional=True,
            summary=summary,
        )
    if key == "armadura":
        return _ask_armour(settings, summary)
    if key == "escudo":
        options = tuple(
            StepOption(s.value, s.value, f"Defensa +{s.defence}" if s.defence else "")
            for s in Shield
        )
        return CreationStep(
            key, StepKind.CHOOSE, Problem("rolweb.step.shield"), options=options, summary=summary
        )
    return _ask_npc_combat(draft, settings, summary)


def _ask_attributes(
    key: str,
    index: int,
    draft: Sheet,
    settings: RolwebSettings,
    npc: bool,
    summary: tuple[str, ...],
) -> CreationStep:
    parts = attribute_parts(settings)
    names = parts[index - 1]
    current = draft.get("atributos") or {}
    params: dict[str, Any] = {"part": index, "parts": len(parts)}
    method = CreationMethod.FREE if npc else settings.creation
    if method is CreationMethod.POOL:
        earlier = attributes_before(index, settings)
        params |= {
            "pool": settings.pool,
            "minimum": settings.minimum,
            "maximum": settings.maximum,
            "left": settings.pool - sum(sheets.attribute(draft, n) for n in earlier),
            "count": len(settings.attributes) - len(earlier),
        }
        hint, prompt = f"{settings.minimum}-{settings.maximum}", "rolweb.step.attributes_pool"
    elif method is CreationMethod.ARRAY:
        params["left"] = listed(array_left(draft, index, settings))
        hint, prompt = params["left"], "rolweb.step.attributes_array"
    else:
        hint = "1-20"
        prompt = "rolweb.step.npc_attributes" if npc else "rolweb.step.attributes_free"
    fields = tuple(
        FormField(
            key=name,
            label=name[:45],
            placeholder=hint[:100],
            default="" if method is CreationMethod.ARRAY else str(current.get(name, 10)),
            max_length=3,
        )
        for name in names
    )
    return CreationStep(
        key, StepKind.FORM, Problem(prompt, params=params), fields=fields, summary=summary
    )


def _ask_abilities(
    key: str, index: int, draft: Sheet, settings: RolwebSettings, summary: tuple[str, ...]
) -> CreationStep:
    available = sheets.xp(draft).available
    part = ability_parts(settings)[index - 1]
    affordable = available // level_cost(Level.PRINCIPIANTE)
    options = tuple(StepOption(a.name, a.name, a.description) for a in part)
    prompt = Problem(
        "rolweb.step.abilities",
        params={
            "available": available,
            "novice": level_cost(Level.PRINCIPIANTE),
            "adept": level_cost(Level.ADEPTO),
            "master": level_cost(Level.MAESTRO),
        },
    )
    return CreationStep(
        key,
        StepKind.CHOOSE,
        prompt,
        options=options,
        max_choices=max(1, min(len(options), affordable)),
        optional=True,
        summary=summary,
    )


def _ask_level(
    key: str, index: int, draft: Sheet, settings: RolwebSettings, summary: tuple[str, ...]
) -> CreationStep:
    ability = chosen_abilities(draft, settings)[index - 1]
    current = sheets.level(draft, ability.name)
    available = sheets.xp(draft).available
    options = []
    for target in Level:
        if target < current or target is Level.NONE:
            continue
        cost = _cost(current, target)
        if cost <= available:
            label = target.term + (f" (+{cost} PX)" if cost else "")
            options.append(StepOption(target.term, label, ability.levels[target].effect))
    prompt = Problem(
        "rolweb.step.ability_level", params={"name": ability.name, "available": available}
    )
    return CreationStep(key, StepKind.CHOOSE, prompt, options=tuple(options), summary=summary)


def _cost(current: Level, target: Level) -> int:
    """XP to reach ``target`` (staying at ``current`` is free)."""
    return 0 if target == current else upgrade_cost(current, target)


def _armour_options(settings: RolwebSettings) -> tuple[StepOption, ...]:
    return (
        StepOption(NO_ARMOUR, NO_ARMOUR),
        *(
            StepOption(a.name, a.name, f"{a.protection}, Defensa {a.defence}")
            for a in load_armour(settings)
        ),
    )


def _ask_armour(settings: RolwebSettings, summary: tuple[str, ...]) -> CreationStep:
    options = _armour_options(settings)
    prompt = Problem("rolweb.step.armour")
    if len(options) <= PER_SELECT:
        return CreationStep("armadura", StepKind.CHOOSE, prompt, options=options, summary=summary)
    names = " / ".join(o.value for o in options)
    field = FormField("armadura", "Armadura", placeholder=names[:100], default=NO_ARMOUR)
    return CreationStep("armadura", StepKind.FORM, prompt, fields=(field,), summary=summary)


def _ask_npc_combat(
    draft: Sheet, settings: RolwebSettings, summary: tuple[str, ...]
) -> CreationStep:
    fuerte = sheets.attribute(draft, "Fuerte")
    armour = " / ".join([NO_ARMOUR, *(a.name for a in load_armour(settings)), "Piel 1d4"])
    weapons = [w.name for w in load_weapons(settings) if not w.is_natural][:2]
    fields = (
        FormField(
            "resistencia",
            "Resistencia",
            placeholder=str(toughness(fuerte)),
            default=str(sheets.max_toughness(draft)),
            required=False,
            max_length=2,
        ),
        FormField("armadura", "Armadura", placeholder=armour[:100], required=False),
        FormField(
            "escudo",
            "Escudo",
            placeholder=" / ".join(Shield),
            default=Shield.NONE.value,
            required=False,
            max_length=10,
        ),
        FormField(
            "armas",
            "Armas",
            placeholder=", ".join([*weapons, "Garras 1d6"])[:100],
            required=False,
            max_length=300,
        ),
    )
    prompt = Problem("rolweb.step.npc_combat", params={"toughness": toughness(fuerte)})
    return CreationStep("pnj_combate", StepKind.FORM, prompt, fields=fields, summary=summary)


def _summary(
    draft: Sheet, settings: RolwebSettings, npc: bool, done: tuple[str, ...]
) -> tuple[str, ...]:
    """What is decided so far, in game terms (shown under each question)."""
    prefix = "pnj_atributos_" if npc else "atributos_"
    if not any(key.startswith(prefix) for key in done):
        return ()
    values = draft.get("atributos") or {}
    parts = attribute_parts(settings)
    answered = [n for i, part in enumerate(parts, 1) if f"{prefix}{i}" in done for n in part]
    lines = [" · ".join(f"{name} {values.get(name, '—')}" for name in answered)]
    if len(answered) == len(settings.attributes):
        worn_shield, worn = sheets.shield(draft), sheets.armour(draft, settings)
        lines.append(
            f"Resistencia {sheets.max_toughness(draft)} · "
            f"Umbral de dolor {pain_threshold(sheets.attribute(draft, 'Fuerte'))} · "
            f"Defensa {defence(sheets.attribute(draft, 'Ágil'), worn_shield, worn)}"
        )
    balance = sheets.xp(draft)
    if not npc and balance.total:
        lines.append(f"Experiencia disponible {balance.available}/{balance.total}")
    abilities = draft.get("habilidades") or {}
    if abilities:
        lines.append("Habilidades: " + ", ".join(f"{n} {t}" for n, t in abilities.items()))
    weapons = sheets.weapons(draft, settings)
    if weapons:
        lines.append("Armas: " + ", ".join(f"{w.name} {w.damage}" for w in weapons))
    if draft.get("armadura"):
        worn = sheets.armour(draft, settings)
        lines.append(f"Armadura: {worn.name} {worn.protection}" if worn else "")
    if sheets.shield(draft) is not Shield.NONE:
        lines.append(f"Escudo: {sheets.shield(draft).value}")
    return tuple(line for line in lines if line)
