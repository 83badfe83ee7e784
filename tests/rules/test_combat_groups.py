"""A sheetless group's hit points, per creature (issue 23, «the first month»): damage wounds
the one in front, at 0 it falls and the next stands at full hit points, the last one's fall
takes the group out of the turn order; healing never raises the fallen."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat import Combat, Combatant
from rules.combat.groups import GroupState, group_state, heal_group, is_out, wound_group
from rules.systems.base import CombatPolicy, RulesError


def _goblins(count: int = 2, hit_points: int | None = 12) -> tuple[Combat, Combatant]:
    """Ana (typed 15) against «Trasgo ×2», 12 hit points each, initiative 5."""
    combat = Combat(CombatPolicy())
    combat, _ana = combat.add_adhoc("Ana", 15)
    combat, goblins = combat.add_adhoc("Trasgo", 5, count=count, hit_points=hit_points)
    return combat, goblins


def test_damage_wounds_the_one_in_front_and_the_group_keeps_its_count() -> None:
    _combat, goblins = _goblins()
    wounded, done = wound_group(goblins, 5)
    assert (wounded.count, wounded.hit_points, wounded.max_hit_points) == (2, 7, 12)
    assert not done.fell and done.hit_points == (7, 12) and done.standing == 2
    assert done.state is GroupState.WOUNDED and group_state(wounded) is GroupState.WOUNDED


def test_at_zero_one_falls_the_next_stands_unhurt_and_the_excess_is_lost() -> None:
    """7 left, a blow of 13: the one in front falls; the 6 over do not reach the next."""
    _combat, goblins = _goblins()
    goblins, _ = wound_group(goblins, 5)
    goblins, done = wound_group(goblins, 13)
    assert done.fell and not done.out and done.standing == 1 and done.fallen == 1
    assert (goblins.count, goblins.fallen, goblins.hit_points) == (1, 1, 12)
    assert done.hit_points == (12, 12) and done.state is GroupState.UNHURT


def test_exactly_zero_falls() -> None:
    _combat, goblins = _goblins(count=3)
    goblins, done = wound_group(goblins, 12)
    assert done.fell and goblins.count == 2


def test_the_last_ones_fall_takes_the_group_out_and_a_further_blow_is_refused() -> None:
    _combat, goblins = _goblins()
    goblins, first = wound_group(goblins, 20)
    goblins, last = wound_group(goblins, 20)
    assert first.fell and not first.out
    assert last.fell and last.out and last.hit_points is None and not last.alone
    assert is_out(goblins) and group_state(goblins) is GroupState.OUT
    assert (goblins.count, goblins.fallen) == (0, 2)
    with pytest.raises(RulesError) as error:
        wound_group(goblins, 1)
    assert error.value.problems[0].key == "combat.problem.group_down"


def test_a_group_of_one_falls_alone() -> None:
    _combat, ogre = _goblins(count=1, hit_points=30)
    _ogre, done = wound_group(ogre, 31)
    assert done.out and done.alone


def test_healing_heals_the_one_in_front_to_its_maximum_and_never_the_fallen() -> None:
    _combat, goblins = _goblins()
    goblins, _ = wound_group(goblins, 12)  # one falls
    goblins, _ = wound_group(goblins, 10)  # the next: 2 of 12
    goblins, done = heal_group(goblins, 50)
    assert done.healed and done.amount == 10 and done.hit_points == (12, 12)
    assert (goblins.count, goblins.fallen) == (1, 1)  # the fallen stays fallen
    goblins, _ = wound_group(goblins, 12)
    with pytest.raises(RulesError) as error:
        heal_group(goblins, 5)
    assert error.value.problems[0].key == "combat.problem.group_down"


def test_a_group_without_hit_points_is_neither_wounded_nor_healed() -> None:
    _combat, goblins = _goblins(hit_points=None)
    assert group_state(goblins) is None and not is_out(goblins)
    with pytest.raises(RulesError) as error:
        wound_group(goblins, 3)
    assert error.value.problems[0].key == "combat.problem.group_no_hit_points"


def test_a_group_stored_with_one_pool_spent_counts_as_out() -> None:
    """Before per-creature hit points a group's wounds went to one pool («-7/12»)."""
    stored = Combatant.from_dict(
        {"key": "a2", "name": "Trasgo", "kind": "adhoc", "side": "enemigos", "count": 2,
         "hit_points": -7, "max_hit_points": 12}
    )  # fmt: skip
    assert is_out(stored) and group_state(stored) is GroupState.OUT


def test_the_fallen_round_trip_through_the_stored_state() -> None:
    combat, goblins = _goblins()
    combat, _ = combat.wound_group(goblins.key, 12)
    again = Combat.from_dict(combat.to_dict()).find(goblins.key)
    assert (again.count, again.fallen, again.hit_points, again.max_hit_points) == (1, 1, 12, 12)
    assert "fallen" not in _goblins()[1].to_dict()  # nothing stored until one falls


def test_the_turn_order_passes_over_a_group_once_its_last_one_falls() -> None:
    """Ana, Trasgo, Ana, Trasgo… until both goblins fall: then Ana alone, and the group is
    reported once as it leaves the order."""
    rng = random.Random(1)
    combat, goblins = _goblins()
    combat, turn = combat.advance(rng)
    assert turn.current.name == "Ana"
    combat, _ = combat.wound_group(goblins.key, 12)  # Ana fells one
    combat, turn = combat.advance(rng)
    assert turn.current.name == "Trasgo" and combat.find(goblins.key).count == 1
    combat, turn = combat.advance(rng)
    assert (turn.round, turn.current.name) == (2, "Ana")
    combat, _ = combat.wound_group(goblins.key, 12)  # and the last one
    combat, turn = combat.advance(rng)
    assert (turn.round, turn.current.name) == (3, "Ana")
    assert [c.name for c in turn.left] == ["Trasgo"]
    combat, turn = combat.advance(rng)
    assert (turn.round, turn.current.name, turn.left) == (4, "Ana", ())
    back = combat.previous().previous()  # back two turns: never onto the fallen group
    assert back.round == 2 and back.current is not None and back.current.name == "Ana"


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(1, 5),
    hit_points=st.integers(1, 30),
    blows=st.lists(st.integers(1, 60), max_size=12),
)
def test_no_blow_fells_more_than_one_and_the_count_never_goes_below_zero(
    count: int, hit_points: int, blows: list[int]
) -> None:
    _combat, group = _goblins(count=count, hit_points=hit_points)
    for blow in blows:
        if is_out(group):
            break
        before = group.count
        group, done = wound_group(group, blow)
        assert group.count in (before, before - 1) and group.count >= 0
        assert group.count + group.fallen == count
        assert done.fell == (group.count == before - 1)
        assert is_out(group) or 0 < (group.hit_points or 0) <= hit_points
