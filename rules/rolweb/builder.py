"""Creating rolweb characters and NPC stat blocks one step at a time (``CharacterBuilder``).

A player character: the attributes by the campaign's creation method (``puntos``: a pool
with bounds; ``serie``: the standard array in any order; ``libre``: 1-20), four to a modal;
then the abilities bought with the starting XP (setting ``xp_inicial``, 50 by default as in
the Symbaroum family: seed 001 only prices them, MEJORA DE PERSONAJES) and their levels;
then weapons, armour and shield.  An NPC is a quick stat block: free attributes, then one
modal with Resistencia, armour, shield and weapons (monsters may carry their own).

Which step comes next is computed from the draft and the steps already answered, never
stored, so a step that cannot apply (no XP left for a higher level) is simply passed over.
Nothing is rolled: rolweb creation is by points.  Answers are validated here and every
problem is named; the draft given is never mutated.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import Ability, Level, load_abilities
from rules.rolweb.advancement import level_cost, spend_for
from rules.rolweb.combat import defence
from rules.rolweb.damage import pain_threshold, toughness
from rules.rolweb.equipment import Shield, Weapon, load_armour, load_weapons
from rules.rolweb.npc_text import parse_armour_text, parse_weapons_text
from rules.rolweb.settings import CreationMethod, RolwebSettings, parse_settings
from rules.systems.base import (
    CreationOutcome,
    CreationStep,
    FormField,
    Problem,
    RulesError,
    Settings,
    Sheet,
    StepKind,
    StepOption,
)

__all__ = ["PER_FORM", "PER_SELECT", "creation_step", "apply_creation_step"]

PER_FORM = 4  # eight attributes in two modals (Discord allows five inputs per modal)
PER_SELECT = 25  # Discord's limit of options in one select menu
NO_ARMOUR = "ninguna"


def _chunks(items: Sequence[Any], size: int) -> list[tuple[Any, ...]]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def _index(key: str, prefix: str) -> int | None:
    """``atributos_2`` → 2 for the prefix ``atributos``."""
    head, _, number = key.rpartition("_")
    return int(number) if head == prefix and number.isdigit() else None


def _attribute_parts(settings: RolwebSettings) -> list[tuple[str, ...]]:
    return _chunks(settings.attributes, PER_FORM)


def _ability_parts(settings: RolwebSettings) -> list[tuple[Ability, ...]]:
    return _chunks(load_abilities(settings), PER_SELECT)


def _weapon_parts(settings: RolwebSettings) -> list[tuple[Weapon, ...]]:
    carried = [w for w in load_weapons(settings) if not w.is_natural]
    return _chunks(carried, PER_SELECT)


def _chosen_abilities(draft: Sheet, settings: RolwebSettings) -> list[Ability]:
    return [a for a in load_abilities(settings) if sheets.level(draft, a.name) is not Level.NONE]


def _plan(draft: Sheet, settings: RolwebSettings, npc: bool) -> list[str]:
    """Every step that applies to this draft now, in order."""
    parts = range(1, len(_attribute_parts(settings)) + 1)
    if npc:
        return [*(f"pnj_atributos_{i}" for i in parts), "pnj_combate"]
    keys = [f"atributos_{i}" for i in parts]
    available = sheets.xp(draft).available
    if available >= level_cost(Level.PRINCIPIANTE):
        keys += [f"habilidades_{i}" for i in range(1, len(_ability_parts(settings)) + 1)]
    if available >= level_cost(Level.ADEPTO):
        chosen = _chosen_abilities(draft, settings)
        keys += [f"nivel_{i}" for i in range(1, len(chosen) + 1)]
    keys += [f"armas_{i}" for i in range(1, len(_weapon_parts(settings)) + 1)]
    return [*keys, "armadura", "escudo"]


def creation_step(
    draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
) -> CreationStep | None:
    """The next question for this draft, or None when the character is complete."""
    parsed = parse_settings(settings)
    for key in _plan(draft, parsed, npc):
        if key not in done:
            return _ask(key, draft, parsed, npc, done)
    return None


def apply_creation_step(
    draft: Sheet,
    step_key: str,
    answer: Any,
    settings: Settings,
    rng: random.Random,
    *,
    npc: bool = False,
) -> CreationOutcome:
    """Validate ``answer`` to ``step_key`` and return the new draft (``rng`` is unused:
    rolweb creation rolls nothing)."""
    parsed = parse_settings(settings)
    if step_key not in _plan(draft, parsed, npc):
        raise RulesError(Problem("rolweb.problem.unknown_step", "", {"step": step_key}))
    updated = sheets.copy_sheet(draft)
    updated["pnj"] = npc
    prefix = step_key.rpartition("_")[0]
    index = _index(step_key, prefix) or 0
    if prefix in ("atributos", "pnj_atributos"):
        _apply_attributes(updated, index, _form(answer, step_key), parsed, npc)
    elif prefix == "habilidades":
        _apply_abilities(updated, index, _values(answer, step_key), parsed)
    elif prefix == "nivel":
        _apply_level(updated, index, _single(answer, step_key, "nivel"), parsed)
    elif prefix == "armas":
        _apply_weapons(updated, index, _values(answer, step_key), parsed)
    elif step_key == "armadura":
        updated["armadura"] = _armour_choice(_single(answer, step_key, "armadura"), parsed)
    elif step_key == "escudo":
        _apply_shield(updated, _single(answer, step_key, "escudo"), parsed)
    else:
        _apply_npc_combat(updated, _form(answer, step_key), parsed)
    return CreationOutcome(draft=updated)


# -- answers ----------------------------------------------------------------------------


def _bad_answer(step_key: str) -> RulesError:
    return RulesError(Problem("rolweb.problem.bad_answer", "", {"step": step_key}))


def _form(answer: Any, step_key: str) -> Mapping[str, Any]:
    if not isinstance(answer, Mapping):
        raise _bad_answer(step_key)
    return answer


def _values(answer: Any, step_key: str) -> list[str]:
    if isinstance(answer, str) or not isinstance(answer, Sequence):
        raise _bad_answer(step_key)
    return list(dict.fromkeys(str(value) for value in answer))


def _single(answer: Any, step_key: str, field: str) -> str:
    """A one-value select, or the text field of the FORM used when options exceed 25."""
    if isinstance(answer, Mapping):
        return str(answer.get(field, "")).strip()
    values = _values(answer, step_key)
    if len(values) != 1:
        raise _bad_answer(step_key)
    return values[0].strip()


# -- questions --------------------------------------------------------------------------


def _ask(
    key: str, draft: Sheet, settings: RolwebSettings, npc: bool, done: tuple[str, ...]
) -> CreationStep:
    summary = _summary(draft, settings, npc, done)
    prefix = key.rpartition("_")[0]
    index = _index(key, prefix) or 0
    if prefix in ("atributos", "pnj_atributos"):
        return _ask_attributes(key, index, draft, settings, npc, summary)
    if prefix == "habilidades":
        return _ask_abilities(key, index, draft, settings, summary)
    if prefix == "nivel":
        return _ask_level(key, index, draft, settings, summary)
    if prefix == "armas":
        options = tuple(
            StepOption(w.name, w.name, " ".join([w.damage, *sorted(w.qualities)]))
            for w in _weapon_parts(settings)[index - 1]
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


def _earlier(index: int, settings: RolwebSettings) -> list[str]:
    return [name for part in _attribute_parts(settings)[: index - 1] for name in part]


def _array_left(draft: Sheet, index: int, settings: RolwebSettings) -> Counter[int]:
    used = Counter(sheets.attribute(draft, name) for name in _earlier(index, settings))
    return Counter(settings.array) - used


def _listed(values: Counter[int]) -> str:
    return ", ".join(map(str, sorted(values.elements(), reverse=True)))


def _ask_attributes(
    key: str,
    index: int,
    draft: Sheet,
    settings: RolwebSettings,
    npc: bool,
    summary: tuple[str, ...],
) -> CreationStep:
    parts = _attribute_parts(settings)
    names = parts[index - 1]
    current = draft.get("atributos") or {}
    params: dict[str, Any] = {"part": index, "parts": len(parts)}
    method = CreationMethod.FREE if npc else settings.creation
    if method is CreationMethod.POOL:
        earlier = _earlier(index, settings)
        params |= {
            "pool": settings.pool,
            "minimum": settings.minimum,
            "maximum": settings.maximum,
            "left": settings.pool - sum(sheets.attribute(draft, n) for n in earlier),
            "count": len(settings.attributes) - len(earlier),
        }
        hint, prompt = f"{settings.minimum}-{settings.maximum}", "rolweb.step.attributes_pool"
    elif method is CreationMethod.ARRAY:
        params["left"] = _listed(_array_left(draft, index, settings))
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
    part = _ability_parts(settings)[index - 1]
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
    ability = _chosen_abilities(draft, settings)[index - 1]
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
    return sum(level_cost(Level(n)) for n in range(current + 1, target + 1))


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
    parts = _attribute_parts(settings)
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


# -- applying answers (on the copy) -------------------------------------------------------


def _parse_attribute(name: str, raw: Any, problems: list[Problem]) -> int | None:
    text = str(raw if raw is not None else "").strip()
    if not text:
        problems.append(
            Problem("rolweb.problem.attribute_missing", f"atributos.{name}", {"name": name})
        )
        return None
    try:
        return int(text)
    except ValueError:
        problems.append(
            Problem(
                "rolweb.problem.not_a_number",
                f"atributos.{name}",
                {"field": name, "value": text[:20]},
            )
        )
        return None


def _apply_attributes(
    updated: dict[str, Any],
    index: int,
    answer: Mapping[str, Any],
    settings: RolwebSettings,
    npc: bool,
) -> None:
    parts = _attribute_parts(settings)
    method = CreationMethod.FREE if npc else settings.creation
    low, high = (settings.minimum, settings.maximum) if method is CreationMethod.POOL else (1, 20)
    left = _array_left(updated, index, settings)
    problems: list[Problem] = []
    values: dict[str, int] = {}
    for name in parts[index - 1]:
        value = _parse_attribute(name, answer.get(name), problems)
        if value is None:
            continue
        if method is CreationMethod.ARRAY and left[value] < 1:
            problems.append(
                Problem(
                    "rolweb.problem.array_value_unavailable",
                    f"atributos.{name}",
                    {"name": name, "value": value, "left": _listed(left)},
                )
            )
            continue
        if not low <= value <= high:
            problems.append(
                Problem(
                    "rolweb.problem.attribute_out_of_bounds",
                    f"atributos.{name}",
                    {"name": name, "value": value, "minimum": low, "maximum": high},
                )
            )
            continue
        left[value] -= 1
        values[name] = value
    if not problems and method is CreationMethod.POOL:
        problems += _pool_problems(updated, index, values, settings)
    if problems:
        raise RulesError(problems)
    updated["atributos"] = {**(updated.get("atributos") or {}), **values}
    updated["resistencia"] = {"actual": toughness(sheets.attribute(updated, "Fuerte"))}
    if index == 1 and not npc:
        updated["xp"] = {"total": settings.starting_xp, "gastada": 0}


def _pool_problems(
    draft: Sheet, index: int, values: Mapping[str, int], settings: RolwebSettings
) -> list[Problem]:
    """The pool must come out exact: name how many points the remaining attributes need."""
    earlier = _earlier(index, settings)
    spent = sum(sheets.attribute(draft, n) for n in earlier) + sum(values.values())
    left = settings.pool - spent
    count = len(settings.attributes) - len(earlier) - len(values)
    if count == 0 and left != 0:
        return [
            Problem(
                "rolweb.problem.pool_mismatch", "atributos", {"total": spent, "pool": settings.pool}
            )
        ]
    low, high = count * settings.minimum, count * settings.maximum
    if count and not low <= left <= high:
        return [
            Problem(
                "rolweb.problem.points_left",
                "atributos",
                {"left": left, "count": count, "low": low, "high": high},
            )
        ]
    return []


def _apply_abilities(
    updated: dict[str, Any], index: int, names: list[str], settings: RolwebSettings
) -> None:
    offered = {a.name: a for a in _ability_parts(settings)[index - 1]}
    unknown = [n for n in names if n not in offered]
    if unknown:
        raise RulesError(
            [Problem("rolweb.problem.unknown_ability", "habilidades", {"name": n}) for n in unknown]
        )
    balance = sheets.xp(updated)
    cost = level_cost(Level.PRINCIPIANTE) * len(names)
    if cost > balance.available:
        raise RulesError(
            Problem(
                "rolweb.problem.not_enough_xp",
                "xp",
                {"cost": cost, "available": balance.available},
            )
        )
    chosen = {name: Level.PRINCIPIANTE.term for name in names}
    updated["habilidades"] = {**(updated.get("habilidades") or {}), **chosen}
    updated["xp"] = {"total": balance.total, "gastada": balance.spent + cost}


def _apply_level(updated: dict[str, Any], index: int, term: str, settings: RolwebSettings) -> None:
    ability = _chosen_abilities(updated, settings)[index - 1]
    current = sheets.level(updated, ability.name)
    try:
        target = Level.from_term(term)
    except ValueError:
        raise RulesError(
            Problem(
                "rolweb.problem.unknown_level",
                f"habilidades.{ability.name}",
                {"name": ability.name, "level": term},
            )
        ) from None
    if target < current or target is Level.NONE:
        raise RulesError(
            Problem(
                "rolweb.problem.level_not_higher",
                f"habilidades.{ability.name}",
                {"current": current.term, "target": target.term},
            )
        )
    if target is current:
        return
    after = spend_for(sheets.xp(updated), current, target)
    updated["xp"] = {"total": after.total, "gastada": after.spent}
    updated["habilidades"] = {**updated["habilidades"], ability.name: target.term}


def _apply_weapons(
    updated: dict[str, Any], index: int, names: list[str], settings: RolwebSettings
) -> None:
    offered = {w.name for w in _weapon_parts(settings)[index - 1]}
    unknown = [n for n in names if n not in offered]
    if unknown:
        raise RulesError(
            [Problem("rolweb.problem.unknown_weapon", "armas", {"name": n}) for n in unknown]
        )
    updated["armas"] = [*(updated.get("armas") or []), *names]


def _armour_choice(text: str, settings: RolwebSettings) -> str | None:
    if not text or text.casefold() == NO_ARMOUR:
        return None
    known = {a.name.casefold(): a.name for a in load_armour(settings)}
    if text.casefold() not in known:
        raise RulesError(Problem("rolweb.problem.unknown_armour", "armadura", {"name": text}))
    return known[text.casefold()]


def _shield(text: str) -> Shield:
    try:
        return Shield(text.casefold() or Shield.NONE.value)
    except ValueError:
        raise RulesError(
            Problem("rolweb.problem.unknown_shield", "escudo", {"name": text})
        ) from None


def _shield_conflicts(worn: Shield, weapons: Sequence[Weapon]) -> list[Problem]:
    """ESCUDO: a shield forbids Pesada and ranged weapons (the rodela does not)."""
    if not worn.occupies_hand:
        return []
    return [
        Problem("rolweb.problem.shield_forbids_weapon", "armas", {"name": w.name})
        for w in weapons
        if w.is_heavy or w.is_ranged
    ]


def _apply_shield(updated: dict[str, Any], text: str, settings: RolwebSettings) -> None:
    worn = _shield(text)
    problems = _shield_conflicts(worn, sheets.weapons(updated, settings))
    if problems:
        raise RulesError(problems)
    updated["escudo"] = worn.value


def _apply_npc_combat(
    updated: dict[str, Any], answer: Mapping[str, Any], settings: RolwebSettings
) -> None:
    """The stat block's Resistencia (blank: from Fuerte), armour, shield and weapons."""
    problems: list[Problem] = []
    fixed = _npc_toughness(str(answer.get("resistencia") or "").strip(), problems)
    armour: Any = None
    try:
        armour = parse_armour_text(str(answer.get("armadura") or ""), settings)
    except RulesError as error:
        problems += error.problems
    worn = Shield.NONE
    try:
        worn = _shield(str(answer.get("escudo") or "").strip())
    except RulesError as error:
        problems += error.problems
    weapons: list[Any] = []
    try:
        weapons = parse_weapons_text(str(answer.get("armas") or ""), settings)
    except RulesError as error:
        problems += error.problems
    updated |= {"armadura": armour, "escudo": worn.value, "armas": weapons}
    if not problems:
        problems += _shield_conflicts(worn, sheets.weapons(updated, settings))
    if problems:
        raise RulesError(problems)
    derived = toughness(sheets.attribute(updated, "Fuerte"))
    if fixed is None or fixed == derived:
        updated["resistencia"] = {"actual": derived}
    else:
        updated["resistencia"] = {"actual": fixed, "maxima": fixed}


def _npc_toughness(text: str, problems: list[Problem]) -> int | None:
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        problems.append(
            Problem(
                "rolweb.problem.not_a_number",
                "resistencia.maxima",
                {"field": "Resistencia", "value": text[:20]},
            )
        )
        return None
    if not 1 <= value <= sheets.MAX_FIXED_TOUGHNESS:
        problems.append(
            Problem(
                "rolweb.problem.fixed_toughness_out_of_bounds",
                "resistencia.maxima",
                {"value": text, "maximum": sheets.MAX_FIXED_TOUGHNESS},
            )
        )
        return None
    return value
