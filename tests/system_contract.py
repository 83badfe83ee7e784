"""The contract every registered rule system keeps, as plain check functions.

``tests/rules/test_system_contract.py`` runs them over :func:`rules.systems.ids`, and
``tests/rules/test_fourth_system.py`` over a toy system written to a temporary directory,
so a new system is held to the same contract the day it is registered.  Each function
takes the system object and raises ``AssertionError`` naming what broke.

The creation wizard is driven generically: a ROLL step is answered with nothing, a CHOOSE
step with its first options, a FORM step with its defaults, unless the system's answer file
``tests/rules/contract/<id>.json`` (``{"character": {step: answer}, "npc": {...}}``) gives
the answer (a form whose defaults are empty needs one).  ``null`` skips an optional step.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.combat import effects
from rules.combat.attack import AttackRequest, AttackResult, Fighter
from rules.combat.health import CombatState
from rules.systems.base import (
    Advancement,
    AdvanceResult,
    Attacks,
    CharacterBuilder,
    CheckRequest,
    CheckResult,
    CombatPolicy,
    DerivedValue,
    FieldKind,
    GameSystem,
    HealthChange,
    HealthStates,
    InitiativeRoll,
    Outcome,
    RestResult,
    RulesError,
    SpellBook,
    SpellList,
    SpellState,
    StepKind,
)

ANSWERS = Path(__file__).resolve().parent / "rules" / "contract"
MAX_STEPS = 60
TIE_RULES = ("sort_key", "reroll_side", "reroll_d20")  # what rules.combat.aggregate knows


def default_settings(system: GameSystem) -> dict[str, Any]:
    """The settings a new campaign of this system starts with."""
    return {spec.key: spec.default for spec in system.settings()}


def answers_for(system_id: str, answers_dir: Path = ANSWERS) -> dict[str, dict[str, Any]]:
    path = answers_dir / f"{system_id}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def check_identity(system: GameSystem, system_id: str) -> None:
    assert isinstance(system, GameSystem)
    assert system.id == system_id
    assert system.name.strip() and system.name != system_id, "a display name, not the id"


def check_settings(system: GameSystem) -> None:
    specs = system.settings()
    keys = [spec.key for spec in specs]
    assert len(keys) == len(set(keys)), f"repeated setting keys: {keys}"
    for spec in specs:
        if spec.kind == FieldKind.BOOLEAN:
            assert isinstance(spec.default, bool), spec
        elif spec.kind == FieldKind.INTEGER:
            assert isinstance(spec.default, int) and not isinstance(spec.default, bool), spec
            assert spec.minimum is None or spec.default >= spec.minimum, spec
            assert spec.maximum is None or spec.default <= spec.maximum, spec
        elif spec.kind == FieldKind.CHOICE:
            assert spec.default in spec.choices, spec


def check_fields(system: GameSystem, settings: Mapping[str, Any]) -> None:
    fields = system.fields(settings)
    assert fields, "a sheet has editable fields"
    paths = [f.path for f in fields]
    assert len(paths) == len(set(paths)), "field paths are unique"
    for spec in fields:
        assert spec.label.strip(), spec
        if spec.kind == FieldKind.CHOICE:
            assert spec.choices, spec


def build(
    system: GameSystem,
    settings: Mapping[str, Any],
    given: Mapping[str, Any],
    *,
    npc: bool = False,
    name: str = "Prueba",
) -> dict[str, Any]:
    """A character (or NPC stat block) built through the wizard, checked step by step."""
    assert isinstance(system, CharacterBuilder), f"{system.id} has no creation wizard"
    draft: dict[str, Any] = system.new_sheet(name, settings)
    if npc:
        draft = {**draft, "pnj": True}
    done: tuple[str, ...] = ()
    for _ in range(MAX_STEPS):
        step = system.creation_step(draft, done, settings, npc=npc)
        if step is None:
            return draft
        # Every step fits Discord: ≤ 25 options, ≤ 5 inputs with labels of ≤ 45 characters.
        assert len(step.options) <= 25 and len(step.fields) <= 5, step.key
        assert all(len(f.label) <= 45 for f in step.fields), step.key
        assert all(o.label.strip() for o in step.options), step.key
        if step.key in given:
            answer = given[step.key]
        elif step.kind == StepKind.ROLL:
            answer = {}
        elif step.kind == StepKind.CHOOSE:
            answer = [o.value for o in step.options[: max(step.min_choices, 1)]]
        else:
            answer = {f.key: f.default for f in step.fields}
        if answer is None:
            assert step.optional, f"{step.key} is not optional"
        else:
            before = copy.deepcopy(draft)
            outcome = system.apply_creation_step(
                draft, step.key, answer, settings, random.Random(7), npc=npc
            )
            assert draft == before, f"{step.key} mutated the draft"
            draft = dict(outcome.draft)
        done = (*done, step.key)
    raise AssertionError(f"the wizard of {system.id} never ends")


def check_built(system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
    assert sheet["system"] == system.id and sheet["name"]
    assert system.validate(sheet, settings) == [], "the wizard's result is legal"


def check_derived(
    system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> None:
    derived = system.derived(sheet, settings)
    assert derived, "a sheet has derived values"
    assert all(isinstance(d, DerivedValue) for d in derived)
    keys = [d.key for d in derived]
    assert len(keys) == len(set(keys)), f"repeated derived keys: {keys}"
    assert all(d.label.strip() for d in derived)
    assert all(isinstance(d.value, int | float | str) for d in derived)  # weights: 58.3 lb
    assert derived == system.derived(copy.deepcopy(dict(sheet)), settings), "pure and stable"


def check_round_trip(
    system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> None:
    """What ``/sheet export`` writes (JSON) reads back as the same, equally legal sheet."""
    again = json.loads(json.dumps(sheet, ensure_ascii=False))
    assert again == sheet
    assert system.validate(again, settings) == system.validate(sheet, settings)
    assert system.derived(again, settings) == system.derived(sheet, settings)


def check_checks(system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
    options = system.check_options(sheet, settings)
    assert options, "a character can roll something"
    keys = [o.key for o in options]
    assert len(keys) == len(set(keys)), "check option keys are unique"
    for option in options:
        # Users read display names, never internal ids.
        assert option.label.strip() and option.label != option.key, option
        assert "_" not in option.label, option
    for option in options:
        request = CheckRequest(option=option.key)
        result = system.check(sheet, request, settings, random.Random(11))
        assert isinstance(result, CheckResult), option
        assert result.outcome is None or isinstance(result.outcome, Outcome)
        assert result.expression and result.breakdown, option
        again = system.check(sheet, request, settings, random.Random(11))
        assert (again.total, again.outcome) == (result.total, result.outcome), "same seed"
    try:
        system.check(sheet, CheckRequest(option="no_existe:nada"), settings, random.Random(1))
    except RulesError as error:
        assert error.problems and all(p.key for p in error.problems)
    else:
        raise AssertionError("an unknown check option is refused")


def check_combat(system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
    policy = system.combat_policy(settings)
    assert isinstance(policy, CombatPolicy)
    assert policy.ties in TIE_RULES, policy.ties
    assert policy.side_die >= 2
    roll = system.initiative(sheet, settings, random.Random(5))
    assert isinstance(roll, InitiativeRoll)
    assert roll.actions >= 1 and roll.sort_key and all(isinstance(k, int) for k in roll.sort_key)
    assert roll == system.initiative(sheet, settings, random.Random(5)), "same seed"
    hurt = system.apply_damage(sheet, 1, settings)
    assert isinstance(hurt, HealthChange) and hurt.state
    healed = system.heal(hurt.sheet, 1, settings)
    assert isinstance(healed, HealthChange) and healed.state


def check_spellbook(
    system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> None:
    """Magic goes through :class:`SpellBook`: a list or a notice saying where powers live."""
    assert isinstance(system, SpellBook), f"{system.id} does not implement SpellBook"
    listing = system.spell_list(settings)
    assert isinstance(listing, SpellList)
    assert listing.spells or listing.notice, "spells, or a notice explaining why none"
    try:
        state = system.spell_state(sheet, settings)
    except RulesError as error:  # a system without spells says so
        assert listing.notice and error.problems
        return
    assert isinstance(state, SpellState)
    try:
        rested = system.rest(sheet, settings)
    except RulesError as error:  # nothing to rest from: the notice explains it
        assert listing.notice and [p.key for p in error.problems] == [listing.notice]
        return
    assert isinstance(rested, RestResult)
    assert system.validate(rested.sheet, settings) == system.validate(sheet, settings)


def check_advancement(
    system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any], *, npc: bool = False
) -> None:
    """Experience adds up; an NPC stat block may refuse it (S&W monsters have none)."""
    before = copy.deepcopy(dict(sheet))
    try:
        result = system.grant_xp(sheet, 10, settings)
    except RulesError as error:
        assert npc and error.problems, "only an NPC may refuse experience"
        return
    assert isinstance(result, AdvanceResult)
    assert result.xp_after == result.xp_before + 10
    assert dict(sheet) == before, "granting experience never mutates the sheet given"
    assert system.validate(result.sheet, settings) == []
    if isinstance(system, Advancement):
        for option in system.purchases(result.sheet, settings):
            assert option.value and option.label.strip()


def check_belongings(
    system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> None:
    """``/sheet item`` and ``/sheet money`` through the builder, with the shared checks."""
    assert isinstance(system, CharacterBuilder)
    for quantity in (0,):
        try:
            system.adjust_inventory(sheet, "Cuerda", quantity, settings)
        except RulesError as error:
            assert [p.key for p in error.problems] == ["sheet.problem.zero_quantity"]
        else:
            raise AssertionError("a quantity of 0 is refused")
    gear = system.catalogue("equipo", settings)
    item = gear[0].value if gear else "Cuerda"
    added = system.adjust_inventory(sheet, item, 1, settings)
    assert system.validate(added, settings) == []
    removed = system.adjust_inventory(added, item, -1, settings)
    assert system.validate(removed, settings) == []
    richer = system.adjust_money(sheet, 5, None, settings)
    assert system.adjust_money(richer, -5, None, settings) == system.adjust_money(
        sheet, 0, None, settings
    )
    for kind in ("clase", "raza", "habilidad", "equipo", "hechizo"):
        for option in system.catalogue(kind, settings):
            assert option.value and option.label.strip(), (kind, option)


def check_fights(system: GameSystem, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
    """Attacks, health states and effects (issue 11): a sheet attacks itself, the change
    applies through ``apply_damage``, its state reads back, and an effect stored with the
    sheet keeps it valid and reaches the checks and ``/sheet show``."""
    assert isinstance(system, Attacks), f"{system.id} does not implement Attacks"
    assert isinstance(system, HealthStates), f"{system.id} does not implement HealthStates"
    state = system.combat_state(sheet, settings)
    assert isinstance(state, CombatState) and state.label.strip() and state.description.strip()
    assert not state.removed, "a new sheet is in the fight"
    for option in system.weapons(sheet, settings):
        assert option.value and option.label.strip()
    fighter = Fighter(str(sheet.get("name", "x")), sheet)
    for seed in range(12):
        result = system.attack(AttackRequest(fighter, fighter), settings, random.Random(seed))
        assert isinstance(result, AttackResult)
        again = system.attack(AttackRequest(fighter, fighter), settings, random.Random(seed))
        assert again == result, "same seed, same attack"
        if result.change is not None:
            assert result.change.kind == "damage" and result.change.amount >= 0
            hurt = system.apply_damage(sheet, result.change.amount, settings)
            assert isinstance(system.combat_state(hurt.sheet, settings), CombatState)
        if result.attack is not None:
            assert result.attack.breakdown
    blessed = effects.add(sheet, effects.Effect("Prueba", 2, (effects.Modifier("check", 1),)))
    assert system.validate(blessed, settings) == system.validate(sheet, settings)
    option = system.check_options(sheet, settings)[0]
    rolled = system.check(blessed, CheckRequest(option.key), settings, random.Random(3))
    assert rolled.modifiers == (("Prueba", 1),), rolled
    assert "efectos" in {v.key for v in system.derived(blessed, settings)}
    assert effects.effects(json.loads(json.dumps(blessed))) == effects.effects(blessed)


def run_core(system: GameSystem, system_id: str, answers: Mapping[str, Any]) -> None:
    """Every check above, in order: what a registered system must pass."""
    check_identity(system, system_id)
    check_settings(system)
    settings = default_settings(system)
    check_fields(system, settings)
    for kind in ("character", "npc"):
        sheet = build(system, settings, answers.get(kind, {}), npc=kind == "npc")
        check_built(system, sheet, settings)
        check_derived(system, sheet, settings)
        check_round_trip(system, sheet, settings)
        check_checks(system, sheet, settings)
        check_combat(system, sheet, settings)
        check_advancement(system, sheet, settings, npc=kind == "npc")
        check_spellbook(system, sheet, settings)
        check_belongings(system, sheet, settings)
        if isinstance(system, Attacks):  # the three seed systems must (test_system_contract)
            check_fights(system, sheet, settings)
