"""Creating Núcleo characters and NPC stat blocks one step at a time (``CharacterBuilder``).

A player character (seed 002, «Creando Personaje» and the modules): the five attributes in
one modal (37 points, 4–10); the race, asked early because it limits the rest (Mediano:
Físico ≤ 7; Artificial: Especialista only, no advantage, no armour) and, for the Elfo del
bosque, its free advantage; the pyramid; the skills in two modals, one text box per level
(«Nivel 6 (1)»: comma-separated names, spells too where magic is on), each level checked
exactly; the advantage, among those the attributes allow; then the main weapon, the armour
(Físico requirements) and the shield, each optional.  An NPC is a quick stat block: free
attributes, then one modal with skills («Esquivar 3, Sigilo 2»), fixed PV, weapon, armour
and shield (:mod:`rules.nucleo.npc`).

The next step is computed from the draft and the steps answered, never stored; how each is
asked lives in :mod:`rules.nucleo.questions`.  Nothing is rolled: Núcleo creation is by
points.  Every answer is checked here and every problem named; the draft given is never
mutated.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.nucleo import creation, equipment
from rules.nucleo import npc as npc_rules
from rules.nucleo.data import ATTRIBUTES, catalogue
from rules.nucleo.names import lookup, split_list
from rules.nucleo.questions import (
    BANDS,
    TWO_HANDS,
    allowed_advantages,
    armour_names,
    ask,
    expected,
    race_of,
    race_problems,
    special_armour_at_creation,
)
from rules.nucleo.sheet import setting
from rules.systems.base import (
    CreationOutcome,
    CreationStep,
    Problem,
    RulesError,
    Settings,
    Sheet,
)
from rules.text import NO_WORDS, YES_WORDS, fold_words

__all__ = ["apply_creation_step", "creation_step"]

# The shared yes/no words, plus «escudo» (naming the shield) and an empty answer (none).
_YES = YES_WORDS | {"escudo"}
_NO = NO_WORDS | {""}


# -- the plan ---------------------------------------------------------------------------


def _plan(draft: Sheet, settings: Settings, npc_block: bool) -> list[str]:
    """Every step that applies to this draft now, in order."""
    if npc_block:
        return ["pnj_atributos", "pnj_bloque"]
    keys = ["atributos"]
    race = race_of(draft, settings)
    if setting(settings, "razas"):
        keys.append("raza")
        if race is not None and race.free_advantage_choice:
            keys.append("ventaja_racial")
    if race is None or len(race.pyramids) > 1:
        keys.append("piramide")
    keys += [f"habilidades_{i}" for i in range(1, len(BANDS) + 1)]
    if setting(settings, "ventajas") and allowed_advantages(draft, settings):
        keys.append("ventaja")  # none for an Artificial, or when no requirement is met
    keys.append("arma")
    if race is None or race.can_wear_armour:
        keys.append("armadura")
    if not (draft.get("equipo") or {}).get("dos_manos"):
        keys.append("escudo")
    return keys


def creation_step(
    draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
) -> CreationStep | None:
    """The next question for this draft, or None when the character is complete."""
    for key in _plan(draft, settings, npc):
        if key not in done:
            return ask(key, draft, settings, done)
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
    """Check ``answer`` to ``step_key`` and return the new draft (``rng`` is unused: Núcleo
    creation rolls nothing)."""
    if step_key not in _plan(draft, settings, npc):
        raise RulesError(Problem("nucleo.problem.unknown_step", "", {"step": step_key}))
    updated = copy.deepcopy(dict(draft))
    updated.setdefault("equipo", {})
    notes: list[Problem] = []
    if step_key == "pnj_atributos":
        updated["pnj"] = True
        updated["piramide"] = None
        updated["atributos"] = _attributes(_form(answer, step_key), settings, npc=True)
    elif step_key == "pnj_bloque":
        _apply_npc_block(updated, _form(answer, step_key), settings)
    elif step_key == "atributos":
        updated["atributos"] = _attributes(_form(answer, step_key), settings, npc=False)
        updated["piramide"] = None  # chosen in its own step (or forced by the race)
    elif step_key == "raza":
        notes += _apply_race(updated, _single(answer, step_key), settings)
    elif step_key == "ventaja_racial":
        _apply_racial_choice(updated, _single(answer, step_key), settings)
    elif step_key == "piramide":
        _apply_pyramid(updated, _single(answer, step_key), settings)
    elif step_key.startswith("habilidades_"):
        band = BANDS[int(step_key.rpartition("_")[2]) - 1]
        _apply_skills(updated, band, _form(answer, step_key), settings)
    elif step_key == "ventaja":
        _apply_advantage(updated, _single(answer, step_key), settings)
    elif step_key == "arma":
        _apply_weapon(updated, _single(answer, step_key), settings)
    elif step_key == "armadura":
        _apply_armour(updated, _single(answer, step_key), settings)
    else:
        _apply_shield(updated, _single(answer, step_key))
    return CreationOutcome(draft=updated, notes=tuple(notes))


# -- reading answers --------------------------------------------------------------------


def _bad_answer(step_key: str) -> RulesError:
    return RulesError(Problem("nucleo.problem.bad_answer", "", {"step": step_key}))


def _form(answer: Any, step_key: str) -> Mapping[str, Any]:
    if not isinstance(answer, Mapping):
        raise _bad_answer(step_key)
    return answer


def _single(answer: Any, step_key: str) -> str:
    if isinstance(answer, str) or not isinstance(answer, Sequence) or len(answer) != 1:
        raise _bad_answer(step_key)
    return str(answer[0]).strip()


def _number(text: Any, label: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise RulesError(
            Problem("nucleo.problem.not_a_number", label, {"field": label, "value": text})
        ) from None


# -- attributes -------------------------------------------------------------------------


def _attributes(answer: Mapping[str, Any], settings: Settings, *, npc: bool) -> dict[str, int]:
    """The five attributes, each checked; the total (37) once all are numbers in range."""
    data = catalogue()
    low, high = (
        (npc_rules.ATTRIBUTE_MIN, npc_rules.ATTRIBUTE_MAX)
        if npc
        else (
            data.attribute_min,
            data.attribute_max,
        )
    )
    values: dict[str, int] = {}
    problems: list[Problem] = []
    for name in ATTRIBUTES:
        try:
            value = _number(answer.get(name, ""), name)
        except RulesError as error:
            problems += error.problems
            continue
        if not low <= value <= high:
            params = {"attribute": name, "value": value, "minimum": low, "maximum": high}
            problems.append(Problem("nucleo.problem.attribute_range", f"atributos.{name}", params))
        values[name] = value
    if not problems and not npc and setting(settings, "creacion_estricta"):
        total = sum(values.values())
        if total != data.attribute_points:
            params = {"total": total, "expected": data.attribute_points}
            problems.append(Problem("nucleo.problem.attribute_total", "atributos", params))
    if problems:
        raise RulesError(problems)
    return values


# -- race, pyramid, advantage -----------------------------------------------------------


def _apply_race(updated: dict[str, Any], value: str, settings: Settings) -> list[Problem]:
    data = catalogue()
    race = creation.find_race(lookup(value, data.races, dict(data.race_aliases)) or value)
    if race is None:
        raise RulesError(Problem("nucleo.problem.race_unknown", "raza", {"race": value}))
    problems = race_problems(race, updated.get("atributos") or {})
    if problems:
        raise RulesError(problems)
    updated["raza"] = race.name
    notes = []
    if len(race.pyramids) == 1:
        updated["piramide"] = race.pyramids[0]
        label = catalogue().pyramid_labels[race.pyramids[0]]
        notes.append(
            Problem("nucleo.note.pyramid_forced", "", {"race": race.name, "pyramid": label})
        )
    if race.free_advantages:
        params = {"race": race.name, "advantages": ", ".join(race.free_advantages)}
        notes.append(Problem("nucleo.note.free_advantage", "", params))
    return notes


def _apply_racial_choice(updated: dict[str, Any], value: str, settings: Settings) -> None:
    race = race_of(updated, settings)
    assert race is not None  # the step is only planned for a race with a choice
    choice = lookup(value, race.free_advantage_choice)
    if choice is None:
        params = {"race": race.name, "choices": " / ".join(race.free_advantage_choice)}
        raise RulesError(
            Problem("nucleo.problem.racial_advantage_choice", "ventaja_racial", params)
        )
    updated["ventaja_racial"] = choice


def _apply_pyramid(updated: dict[str, Any], value: str, settings: Settings) -> None:
    data = catalogue()
    pyramid = next((k for k in data.pyramids if fold_words(k) == fold_words(value)), None)
    if pyramid is None:
        raise RulesError(Problem("nucleo.problem.pyramid_unknown", "piramide", {"pyramid": value}))
    race = race_of(updated, settings)
    if race is not None and pyramid not in race.pyramids:
        params = {"pyramid": data.pyramid_labels[pyramid], "race": race.name}
        raise RulesError(Problem("nucleo.problem.pyramid_race", "piramide", params))
    updated["piramide"] = pyramid


def _taken(draft: Sheet, settings: Settings) -> set[str]:
    """Advantages the character already has for free (its race's)."""
    race = race_of(draft, settings)
    if race is None:
        return set()
    choice = [draft["ventaja_racial"]] if draft.get("ventaja_racial") else []
    return {*race.free_advantages, *choice}


def _apply_advantage(updated: dict[str, Any], value: str, settings: Settings) -> None:
    advantage = lookup(value, catalogue().advantages) or value
    problems = creation.validate_advantage(
        advantage, updated.get("atributos") or {}, race_of(updated, settings)
    )
    if not problems and advantage in _taken(updated, settings):
        race = race_of(updated, settings)
        params = {"advantage": advantage, "race": race.name if race else ""}
        problems.append(Problem("nucleo.problem.advantage_duplicate", "ventaja", params))
    if problems:
        raise RulesError(problems)
    updated["ventaja"] = advantage


# -- skills -----------------------------------------------------------------------------


def _apply_skills(
    updated: dict[str, Any], band: tuple[int, ...], answer: Mapping[str, Any], settings: Settings
) -> None:
    """One modal of the pyramid: each level's names, matched to the lists and counted exactly."""
    data = catalogue()
    magic = setting(settings, "magia")
    strict = setting(settings, "creacion_estricta")
    skills = {k: v for k, v in (updated.get("habilidades") or {}).items() if v not in band}
    spells = {k: v for k, v in (updated.get("hechizos") or {}).items() if v not in band}
    problems: list[Problem] = []
    for level in band:
        names = split_list(str(answer.get(f"nivel_{level}", "") or ""))
        for name in names:
            skill = lookup(name, data.skills, dict(data.skill_aliases))
            spell = lookup(name, data.spells) if magic and skill is None else None
            found = skill or spell
            if found is None:
                problems.append(
                    Problem("nucleo.problem.unknown_skill", f"nivel_{level}", {"skill": name})
                )
                continue
            before = skills.get(found, spells.get(found))
            if before is not None:
                params = {"skill": found, "level": level, "other": before}
                problems.append(Problem("nucleo.problem.skill_repeated", f"nivel_{level}", params))
                continue
            (skills if skill else spells)[found] = level
        wanted = expected(updated, level)
        if strict and len(names) != wanted:
            label = data.pyramid_labels[updated.get("piramide") or "versatil"]
            params = {"pyramid": label, "level": level, "count": len(names), "expected": wanted}
            problems.append(Problem("nucleo.problem.pyramid_count", f"nivel_{level}", params))
    if problems:
        raise RulesError(problems)
    updated["habilidades"] = skills
    updated["hechizos"] = spells


# -- equipment --------------------------------------------------------------------------


def _apply_weapon(updated: dict[str, Any], value: str, settings: Settings) -> None:
    name, two = (value[: -len(TWO_HANDS)], True) if value.endswith(TWO_HANDS) else (value, False)
    weapon = lookup(name, catalogue().weapons)
    if weapon is None:
        raise RulesError(
            Problem("nucleo.problem.item_unknown", "equipo.arma_principal", {"item": name})
        )
    problems = equipment.validate_equipment([weapon], updated.get("atributos") or {})
    if problems:
        raise RulesError(problems)
    grips = catalogue().weapons[weapon].damage
    updated["equipo"]["arma_principal"] = weapon
    updated["equipo"]["dos_manos"] = "una_mano" not in grips or (two and "dos_manos" in grips)


def _apply_armour(updated: dict[str, Any], value: str, settings: Settings) -> None:
    armour = lookup(value, catalogue().armour)
    if armour is None:
        raise RulesError(Problem("nucleo.problem.item_unknown", "equipo.armadura", {"item": value}))
    special = catalogue().armour[armour].special
    module = setting(settings, "armaduras_especiales")  # off: validate_equipment says so
    if special and module and not special_armour_at_creation(settings, npc=False):
        params = {"item": armour, "module": "armaduras_especiales_al_crear"}
        raise RulesError(
            Problem("nucleo.problem.special_armour_in_play", "equipo.armadura", params)
        )
    problems = equipment.validate_equipment(
        [armour],
        updated.get("atributos") or {},
        race_of(updated, settings),
        special_armour=setting(settings, "armaduras_especiales"),
    )
    if problems:
        raise RulesError(problems)
    updated["equipo"]["armadura"] = armour


def _apply_shield(updated: dict[str, Any], value: str) -> None:
    if fold_words(value) not in (_YES | _NO):
        raise RulesError(Problem("nucleo.problem.item_unknown", "equipo.escudo", {"item": value}))
    updated["equipo"]["escudo"] = fold_words(value) in _YES


# -- the NPC stat block -----------------------------------------------------------------


def _apply_npc_block(
    updated: dict[str, Any], answer: Mapping[str, Any], settings: Settings
) -> None:
    """Skills «Nombre N», fixed PV (empty: Físico × 4), weapon, armour and shield, all at once."""
    data = catalogue()
    skills, spells, problems = npc_rules.parse_skills(
        str(answer.get("habilidades", "") or ""), setting(settings, "magia")
    )
    pv_text = str(answer.get("pv", "") or "").strip()
    pv = None
    if pv_text:
        try:
            pv = _number(pv_text, "PV")
            if not 1 <= pv <= npc_rules.PV_MAX:
                raise RulesError(
                    Problem(
                        "nucleo.problem.npc_pv",
                        "pv_maximo",
                        {"value": pv, "maximum": npc_rules.PV_MAX},
                    )
                )
        except RulesError as error:
            problems += error.problems
    equipo = updated["equipo"]
    weapon_text = str(answer.get("arma", "") or "").strip()
    if weapon_text:
        weapon = lookup(weapon_text, data.weapons)
        if weapon is None:
            problems.append(
                Problem(
                    "nucleo.problem.item_unknown", "equipo.arma_principal", {"item": weapon_text}
                )
            )
        else:
            equipo["arma_principal"] = weapon
            equipo["dos_manos"] = "una_mano" not in data.weapons[weapon].damage
    armour_text = str(answer.get("armadura", "") or "").strip()
    if armour_text:
        armour = lookup(armour_text, armour_names(settings, npc=True))
        if armour is None:
            problems.append(
                Problem("nucleo.problem.item_unknown", "equipo.armadura", {"item": armour_text})
            )
        else:
            equipo["armadura"] = armour
    shield_text = fold_words(str(answer.get("escudo", "") or ""))
    if shield_text not in _YES | _NO:
        problems.append(
            Problem("nucleo.problem.item_unknown", "equipo.escudo", {"item": shield_text})
        )
    equipo["escudo"] = shield_text in _YES
    if problems:
        raise RulesError(problems)
    updated["habilidades"] = skills
    updated["hechizos"] = spells
    if pv is not None:
        updated["pv_maximo"] = pv
