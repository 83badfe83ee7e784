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
from collections.abc import Mapping, Sequence
from typing import Any

from rules.rolweb import answers, questions, steps
from rules.rolweb import sheet as sheets
from rules.rolweb.settings import parse_settings
from rules.systems.base import CreationOutcome, CreationStep, Problem, RulesError, Settings, Sheet

__all__ = ["creation_step", "apply_creation_step"]


def creation_step(
    draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
) -> CreationStep | None:
    """The next question for this draft, or None when the character is complete."""
    parsed = parse_settings(settings)
    for key in steps.plan(draft, parsed, npc):
        if key not in done:
            return questions.ask(key, draft, parsed, npc, done)
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
    if step_key not in steps.plan(draft, parsed, npc):
        raise RulesError(Problem("rolweb.problem.unknown_step", "", {"step": step_key}))
    updated = sheets.copy_sheet(draft)
    updated["pnj"] = npc
    prefix = step_key.rpartition("_")[0]
    index = steps.step_index(step_key, prefix) or 0
    if prefix in ("atributos", "pnj_atributos"):
        answers.apply_attributes(updated, index, _form(answer, step_key), parsed, npc)
    elif prefix == "habilidades":
        answers.apply_abilities(updated, index, _values(answer, step_key), parsed)
    elif prefix == "nivel":
        answers.apply_level(updated, index, _single(answer, step_key, "nivel"), parsed)
    elif prefix == "armas":
        answers.apply_weapons(updated, index, _values(answer, step_key), parsed)
    elif step_key == "armadura":
        updated["armadura"] = answers.armour_choice(_single(answer, step_key, "armadura"), parsed)
    elif step_key == "escudo":
        answers.apply_shield(updated, _single(answer, step_key, "escudo"), parsed)
    else:
        answers.apply_npc_combat(updated, _form(answer, step_key), parsed)
    return CreationOutcome(draft=updated)


# -- the shape of an answer (select values or modal fields) ------------------------------


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
