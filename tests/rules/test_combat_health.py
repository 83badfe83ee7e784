"""The turn order meets health (issue 11 §2, §5): the dead and the out are passed over and
reported once, a healed character acts again in its old place, and S&W's "previous" across
a round boundary brings back that round's side dice (seed 000, DETERMINAR LA INICIATIVA)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat import Combat, Combatant, Kind, Side
from rules.combat.health import Act, CombatState, Condition, require
from rules.systems.base import CombatPolicy, RulesError


def individual(*entries: tuple[str, int]) -> Combat:
    combat = Combat(CombatPolicy())
    for name, total in entries:
        combat, _ = combat.add_adhoc(name, total)
    return combat


def key(combat: Combat, name: str) -> str:
    return combat.find_by_name(name).key


def test_the_dead_are_skipped_and_reported_once_and_the_healed_return_to_their_place():
    combat = individual(("A", 30), ("B", 20), ("C", 10))
    combat, change = combat.next_turn(random.Random(1))
    assert change.current.name == "A"
    out = {key(combat, "B")}
    combat, change = combat.next_turn(random.Random(1), out)
    assert change.current.name == "C" and [c.name for c in change.left] == ["B"]
    combat, change = combat.next_turn(random.Random(1), out)
    assert (change.round, change.current.name, change.left) == (2, "A", ())
    combat, change = combat.next_turn(random.Random(1), out)
    assert change.current.name == "C" and change.left == ()  # said once only
    # B is healed: it acts again right after A, its old place
    combat, change = combat.next_turn(random.Random(1))
    combat, change = combat.next_turn(random.Random(1))
    assert (change.round, change.current.name) == (3, "B")
    # and dropping again (during its own turn) is news again when its place is passed over
    combat, change = combat.next_turn(random.Random(1), out)
    assert change.current.name == "C" and change.left == ()
    combat, change = combat.next_turn(random.Random(1), out)
    combat, change = combat.next_turn(random.Random(1), out)
    assert change.current.name == "C" and [c.name for c in change.left] == ["B"]


def test_nobody_left_to_act_is_refused_and_the_report_survives_storage():
    combat = individual(("A", 3), ("B", 2))
    with pytest.raises(RulesError, match="nobody_acts"):
        combat.next_turn(random.Random(1), {key(combat, "A"), key(combat, "B")})
    combat, _ = combat.next_turn(random.Random(1), {key(combat, "A")})
    assert combat.reported_out == (key(combat, "A"),)
    assert Combat.from_dict(combat.to_dict()) == combat


def test_previous_skips_the_out_too():
    combat = individual(("A", 3), ("B", 2), ("C", 1))
    for _ in range(3):
        combat, _ = combat.next_turn(random.Random(1))
    assert combat.current.name == "C"
    assert combat.previous({key(combat, "B")}).current.name == "A"


def sides() -> Combat:
    policy = CombatPolicy(by_side=True, reroll_each_round=True, ties="reroll_side")
    combat = Combat(policy)
    for name, side, dex in (("Aldara", Side.JUGADORES, 14), ("Orco", Side.ENEMIGOS, 9)):
        person = Combatant(key=name, name=name, kind=Kind.ADHOC, side=side)
        combat = combat.add(person.with_initiative(0, (0, dex), f"Destreza {dex}"))
    return combat


def test_previous_across_a_round_restores_that_rounds_side_dice_and_next_replays_them():
    """Round 1: jugadores 5, enemigos 2; round 2: 1 and 6.  Going back from round 2's first
    turn shows round 1 with its own dice; "next" replays round 2 without rolling."""
    rng = random.Random(0)
    rolls = iter([5, 2, 1, 6])
    rng.randint = lambda a, b: next(rolls)  # type: ignore[method-assign]
    combat, first = sides().next_turn(rng)
    assert (
        first.side_rolls == (("jugadores", 5), ("enemigos", 2)) and first.current.name == "Aldara"
    )
    combat, _ = combat.next_turn(rng)
    combat, second = combat.next_turn(rng)
    assert (
        second.side_rolls == (("jugadores", 1), ("enemigos", 6)) and second.current.name == "Orco"
    )
    back = combat.previous()
    assert (back.round, back.current.name) == (1, "Orco")
    assert back.side_rolls == (("jugadores", 5), ("enemigos", 2))
    assert [c.name for c in back.combatants] == ["Aldara", "Orco"]
    again, replay = back.next_turn(rng)  # the dice iterator is exhausted: no roll may happen
    assert replay.side_rolls == (("jugadores", 1), ("enemigos", 6))
    assert (again.round, again.current.name) == (2, "Orco")
    assert Combat.from_dict(again.to_dict()) == again


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=6), st.integers(1, 20))
def test_a_turn_never_goes_to_someone_out(flags, steps):
    combat = individual(*[(f"P{i}", 10 - i) for i in range(len(flags))])
    out = {key(combat, f"P{i}") for i, gone in enumerate(flags) if gone}
    if len(out) == len(flags):
        return
    seen_left: list[str] = []
    for _ in range(steps):
        combat, change = combat.next_turn(random.Random(1), out)
        assert change.current.key not in out
        seen_left += [c.key for c in change.left]
    assert len(seen_left) == len(set(seen_left))


def test_require_names_the_state():
    state = CombatState(Condition.UNCONSCIOUS, "inconsciente", "inconsciente", skip_turn=True,
                        allowed=frozenset(), reason="combat.problem.cannot_act")  # fmt: skip
    with pytest.raises(RulesError) as error:
        require(state, Act.CHECK, "Ardelia")
    problem = error.value.problems[0]
    assert problem.key == "combat.problem.cannot_act"
    assert dict(problem.params) == {"name": "Ardelia", "state": "inconsciente", "act": "check"}
    with pytest.raises(RulesError) as error:  # whose state id, and the gender it agrees with
        require(state, Act.CHECK, "Ardelia", system="nucleo", gender="femenino")
    assert dict(error.value.problems[0].params) == {
        "name": "Ardelia", "state": "inconsciente", "act": "check",
        "system": "nucleo", "genero": "femenino",
    }  # fmt: skip
