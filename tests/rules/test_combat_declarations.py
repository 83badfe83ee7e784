"""Rounds of declarations, pure (issue 25 §1): the round's declarations and their dice, and
the turns of one round as its resolution takes them (``Combat.turn_of_round``)."""

from __future__ import annotations

import random

from rules import systems
from rules.combat import Combat, Combatant, Kind, Side
from rules.combat.declarations import (
    Declaration,
    DeclarationRound,
    Mode,
    mode_of,
    round_of,
)
from rules.systems.base import CombatPolicy


def _declared(key: str, slot: int, seed: int, target: str = "Orco") -> Declaration:
    return Declaration(
        key, key.upper(), slot, "attack", {"target": target}, seed, by=7, target=target
    )


def test_a_change_keeps_the_dice_of_its_slot() -> None:
    round_ = DeclarationRound(1, owed=("a", "b"))
    round_ = round_.declaring(_declared("a", 0, 111))
    changed = round_.declaring(_declared("a", 0, 999, target="Lobo"))
    assert [(d.target, d.seed) for d in changed.of("a")] == [("Lobo", 111)]
    second = changed.declaring(_declared("a", 1, 222))
    assert [d.seed for d in second.of("a")] == [111, 222]
    assert second.owing(second.owed) == ("b",)
    assert second.declaring(_declared("b", 0, 5)).owing(second.owed) == ()


def test_the_round_round_trips_through_the_fight_state() -> None:
    round_ = DeclarationRound(3, "2026-12-09T10:00:00+00:00", owed=("a",), chain=(5, 6))
    round_ = round_.declaring(_declared("a", 0, 42))
    state = {"modo": "declarations", "declaraciones": round_.to_dict()}
    assert round_of(state) == round_ and mode_of(state) is Mode.DECLARATIONS
    assert mode_of({}) is Mode.TURNS and round_of({}) is None


def _fight() -> Combat:
    combat = Combat(CombatPolicy())
    for name, total in (("Ana", 15), ("Lobo", 10), ("Orco", 5)):
        combat, _ = combat.add_adhoc(name, total, hit_points=3 if name == "Lobo" else None)
    return combat


def test_the_turns_of_one_round_and_no_further() -> None:
    rng = random.Random(1)
    combat, seen = _fight(), []
    while (found := combat.turn_of_round(1, rng)) is not None:
        combat, turn = found
        seen.append(turn.current.name)
    assert seen == ["Ana", "Lobo", "Orco"] and combat.round == 1
    combat, turn = combat.turn_of_round(2, rng) or (combat, None)
    assert turn is not None and (turn.round, turn.current.name) == (2, "Ana")
    assert combat.turn_of_round(4, rng) is None  # not the next round


def test_a_combatant_down_before_its_turn_is_passed_over() -> None:
    rng = random.Random(1)
    combat = _fight()
    combat, turn = combat.turn_of_round(1, rng) or (combat, None)
    combat, fell = combat.wound_group(combat.find_by_name("Lobo").key, 5)
    assert fell.out and combat.spent() == {combat.find_by_name("Lobo").key}
    found = combat.turn_of_round(1, rng)  # the group that fell is passed over by itself
    assert found is not None and found[1].current.name == "Orco"


def test_swc_side_dice_are_rolled_when_the_round_resolves() -> None:
    policy = systems.get("swc").combat_policy({"secuencia_combate": "estandar"})
    combat = Combat(policy)
    for key, side in (("a", Side.JUGADORES), ("o", Side.ENEMIGOS)):
        person = Combatant(key=key, name=key, kind=Kind.CHARACTER, side=side, character_id=1)
        combat = combat.add(person).set_initiative(key, 10)
    rolls = set()
    for seed in range(6):
        first = combat.turn_of_round(1, random.Random(seed))
        assert first is not None and first[1].new_round and first[1].side_rolls
        rolls.add(first[1].side_rolls)
    assert len(rolls) > 1  # rolled at resolution, after the declarations
