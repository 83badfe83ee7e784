"""The combat aggregate and each system's policy (seeds 000, 001, 002)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import systems
from rules.combat import Combat, Combatant, Kind, Side
from rules.systems.base import CombatPolicy, RulesError
from tests.examples import ARDELIA


def pc(key: str, name: str, side: Side = Side.JUGADORES) -> Combatant:
    return Combatant(key=key, name=name, kind=Kind.CHARACTER, side=side, character_id=1)


def individual(*entries: tuple[str, int]) -> Combat:
    combat = Combat(CombatPolicy())
    for name, total in entries:
        combat, _ = combat.add_adhoc(name, total)
    return combat


def names(combat: Combat) -> list[str]:
    return [c.name for c in combat.combatants]


# -- policies ---------------------------------------------------------------------------


def test_swc_standard_and_a_roll_a_d6_per_side_every_round():
    swc = systems.get("swc")
    for sequence in ("estandar", "A"):
        policy = swc.combat_policy({"secuencia_combate": sequence})
        assert policy.by_side and policy.reroll_each_round and policy.side_die == 6
        assert policy.ties == "reroll_side"


def test_swc_b_and_c_are_individual_and_once_per_combat():
    swc = systems.get("swc")
    b = swc.combat_policy({"secuencia_combate": "B"})
    c = swc.combat_policy({"secuencia_combate": "C"})
    assert not b.by_side and not b.reroll_each_round and not b.lowest_first
    assert not c.by_side and c.lowest_first


def test_rolweb_may_wait_and_nucleo_earns_actions():
    assert systems.get("rolweb").combat_policy({}).can_wait
    nucleo = systems.get("nucleo").combat_policy({})
    assert nucleo.action_step == 10 and not nucleo.can_wait and nucleo.typed_prefix == (1,)


# -- the aggregate ----------------------------------------------------------------------


def test_higher_initiative_acts_first_and_rounds_wrap():
    combat = individual(("Trasgos", 5), ("Orco", 12), ("Lobo", 8))
    assert names(combat) == ["Orco", "Lobo", "Trasgos"]
    combat, change = combat.next_turn(random.Random(1))
    assert (change.round, change.new_round, change.current.name) == (1, True, "Orco")
    combat, change = combat.next_turn(random.Random(1))
    combat, change = combat.next_turn(random.Random(1))
    assert change.current.name == "Trasgos" and not change.new_round
    combat, change = combat.next_turn(random.Random(1))
    assert (change.round, change.new_round, change.current.name) == (2, True, "Orco")


def test_previous_goes_back_across_a_round_but_not_before_the_first_turn():
    combat = individual(("A", 3), ("B", 2))
    combat, _ = combat.next_turn(random.Random(1))
    with pytest.raises(RulesError, match="first_turn"):
        combat.previous()
    for _ in range(2):
        combat, _ = combat.next_turn(random.Random(1))
    assert (combat.round, combat.current.name) == (2, "A")
    back = combat.previous()
    assert (back.round, back.current.name) == (1, "B")


def test_adding_during_a_round_keeps_the_turn_on_who_was_acting():
    combat = individual(("A", 10), ("B", 5))
    combat, _ = combat.next_turn(random.Random(1))
    combat, _ = combat.next_turn(random.Random(1))
    assert combat.current.name == "B"
    combat, _ = combat.add_adhoc("C", 20)
    assert names(combat) == ["C", "A", "B"] and combat.current.name == "B"


def test_removing_the_one_acting_passes_the_turn_and_may_start_a_round():
    combat = individual(("A", 10), ("B", 5))
    combat, _ = combat.next_turn(random.Random(1))
    combat, _ = combat.next_turn(random.Random(1))
    combat, change = combat.remove(combat.current.key, random.Random(1))
    assert change is not None and change.new_round and change.current.name == "A"
    assert combat.round == 2


def test_removing_someone_before_the_current_keeps_the_current():
    combat = individual(("A", 10), ("B", 5), ("C", 1))
    combat, _ = combat.next_turn(random.Random(1))
    combat, _ = combat.next_turn(random.Random(1))
    combat, change = combat.remove(combat.find_by_name("A").key, random.Random(1))
    assert change is None and combat.current.name == "B"


def test_nobody_acts_until_everyone_has_initiative():
    combat = Combat(CombatPolicy()).add(pc("c1", "Ardelia"))
    with pytest.raises(RulesError, match="missing_initiative"):
        combat.next_turn(random.Random(1))
    with pytest.raises(RulesError, match="already_in"):
        combat.add(pc("c9", "ardelia"))


def test_an_ended_combat_refuses_every_change():
    combat = individual(("A", 1)).end()
    with pytest.raises(RulesError, match="ended"):
        combat.next_turn(random.Random(1))


def test_nucleo_fumbler_skips_round_one_and_goes_last():
    nucleo = systems.get("nucleo").combat_policy({})
    combat = Combat(nucleo)
    combat = combat.add(pc("c1", "Ardelia")).add(pc("c2", "Bruno"))
    combat = combat.record_roll("c1", 3, (0, 3, 9), "pifia", skips_first_round=True, goes_last=True)
    combat = combat.record_roll("c2", 12, (1, 12, 5), "12")
    combat, _ = combat.add_adhoc("Trasgos", 25)
    assert names(combat) == ["Trasgos", "Bruno", "Ardelia"]
    assert combat.find_by_name("Trasgos").actions == 2
    combat, change = combat.next_turn(random.Random(1))
    assert change.actions == 2
    combat, change = combat.next_turn(random.Random(1))
    assert change.current.name == "Bruno"
    combat, change = combat.next_turn(random.Random(1))
    assert (
        change.new_round and change.round == 2 and [c.name for c in change.skipped] == ["Ardelia"]
    )
    combat, _ = combat.next_turn(random.Random(1))
    combat, change = combat.next_turn(random.Random(1))
    assert change.current.name == "Ardelia" and change.skipped == ()


def test_nucleo_rolled_initiative_gives_actions_through_the_system():
    nucleo = systems.get("nucleo")
    seen = {nucleo.initiative(ARDELIA, {}, random.Random(seed)).actions for seed in range(300)}
    assert 1 in seen and 2 in seen


def test_swc_sides_reroll_each_round_and_never_tie():
    policy = systems.get("swc").combat_policy({"secuencia_combate": "estandar"})
    combat = Combat(policy).add(pc("c1", "Ardelia")).add(pc("c2", "Bruno"))
    combat = combat.record_roll("c1", 4, (4, 9), "d6").record_roll("c2", 2, (2, 15), "d6")
    combat, _ = combat.add_adhoc("Orcos", 12)
    rng = random.Random(7)
    rolls = set()
    for _ in range(30):
        combat, change = combat.next_turn(rng)
        if change.new_round:
            sides = dict(change.side_rolls)
            assert sides["jugadores"] != sides["enemigos"]
            rolls.add(tuple(sorted(sides.items())))
            first = combat.combatants[0]
            winner = max(sides, key=sides.get)
            assert first.side.value == winner
            players = [c.name for c in combat.combatants if c.side is Side.JUGADORES]
            assert players == ["Bruno", "Ardelia"]  # Destreza 15 before 9 inside the side
    assert len(rolls) > 1


def test_swc_c_lowest_segment_first():
    policy = systems.get("swc").combat_policy({"secuencia_combate": "C"})
    combat = Combat(policy)
    combat, _ = combat.add_adhoc("Lento", 9)
    combat, _ = combat.add_adhoc("Rápido", 2)
    assert names(combat) == ["Rápido", "Lento"]


def test_rolweb_wait_is_later_only_and_final():
    combat = Combat(systems.get("rolweb").combat_policy({}))
    for name, agil in (("Ana", 15), ("Bea", 12), ("Cid", 10)):
        combat, _ = combat.add_adhoc(name, agil)
    combat, change = combat.next_turn(random.Random(1))
    assert change.current.name == "Ana"
    ana, cid = combat.find_by_name("Ana"), combat.find_by_name("Cid")
    combat = combat.wait(ana.key, cid.key)
    assert names(combat) == ["Bea", "Cid", "Ana"] and combat.current.name == "Bea"
    with pytest.raises(RulesError, match="wait_already_chosen"):
        combat.wait(ana.key, cid.key)
    with pytest.raises(RulesError, match="wait_not_later"):
        combat.wait(cid.key, combat.find_by_name("Bea").key)
    combat, _ = combat.add_adhoc("Dan", 20)
    assert names(combat) == ["Dan", "Bea", "Cid", "Ana"]  # the wait holds after a re-sort


def test_rolweb_full_ties_roll_a_d20_again_and_others_keep_arrival_order():
    rolweb = Combat(systems.get("rolweb").combat_policy({}))
    rolweb = rolweb.add(pc("c1", "Ana")).add(pc("c2", "Bea"))
    rolweb = rolweb.record_roll("c1", 12, (12, 10, 7), "").record_roll("c2", 12, (12, 10, 7), "")
    split = rolweb.break_ties(random.Random(3))
    assert split.combatants[0].sort_key != split.combatants[1].sort_key
    assert all(len(c.sort_key) >= 4 for c in split.combatants)
    plain = individual(("A", 5), ("B", 5))
    assert plain.break_ties(random.Random(3)) == plain and names(plain) == ["A", "B"]


def test_waiting_is_refused_where_the_system_has_no_such_rule():
    combat = individual(("A", 3), ("B", 2))
    with pytest.raises(RulesError, match="no_waiting"):
        combat.wait(combat.combatants[0].key, combat.combatants[1].key)


def test_state_round_trips_and_the_loader_never_mutates_its_input():
    combat = Combat(systems.get("nucleo").combat_policy({})).add(pc("c1", "Ardelia"))
    combat = combat.record_roll("c1", 22, (1, 22, 9), "22", actions=2)
    combat, _ = combat.add_adhoc("3 trasgos", 8, count=3)
    combat, _ = combat.next_turn(random.Random(1))
    data = combat.to_dict()
    snapshot = repr(data)
    loaded = Combat.from_dict(data)
    assert repr(data) == snapshot
    assert loaded == combat and data["_v"] == 1


def test_a_newer_state_is_refused():
    with pytest.raises(RulesError, match="newer_state"):
        Combat.from_dict({"_v": 99})


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=-5, max_value=40), min_size=1, max_size=8),
    st.lists(st.sampled_from(["next", "prev", "add", "remove"]), max_size=40),
    st.integers(0, 10_000),
)
def test_any_sequence_of_changes_keeps_index_and_round_consistent(totals, moves, seed):
    rng = random.Random(seed)
    combat = individual(*((f"n{i}", total) for i, total in enumerate(totals)))
    turns = 0
    for move in moves:
        try:
            if move == "next":
                before = combat.round
                combat, change = combat.next_turn(rng)
                turns += 1
                assert change.current == combat.current
                assert combat.round in (before, before + 1) or before == 0
            elif move == "prev":
                combat = combat.previous()
            elif move == "add":
                combat, _ = combat.add_adhoc(f"x{rng.random()}", rng.randint(-5, 40))
            elif combat.combatants:
                combat, _ = combat.remove(rng.choice(combat.combatants).key, rng)
        except RulesError:
            pass
        assert combat.combatants == tuple(
            sorted(combat.combatants, key=lambda c: c.sort_key, reverse=True)
        ) or any(c.waited_after for c in combat.combatants)
        if combat.combatants:
            assert 0 <= combat.index < len(combat.combatants)
        assert Combat.from_dict(combat.to_dict()) == combat


# -- a turn that owes a test (seed 001 line 142: one death test per turn, on its own) -----


def test_a_turn_owing_its_test_does_not_pass_until_rolled_once():
    combat = individual(("Eira", 15), ("Orco", 3))
    eira = combat.find_by_name("Eira").key
    # she fell during the orc's turn: her next turn owes the test
    combat, change = combat.next_turn(random.Random(1), tests={eira})
    assert change.current.name == "Eira" and combat.pending_test == eira
    with pytest.raises(RulesError) as pending:
        combat.next_turn(random.Random(1), tests={eira})
    assert pending.value.problems[0].key == "combat.problem.test_pending"
    rolled = combat.test_rolled(eira)
    with pytest.raises(RulesError) as twice:  # five tests in one turn: one
        rolled.test_rolled(eira)
    assert twice.value.problems[0].key == "combat.problem.no_test_now"
    combat, change = rolled.next_turn(random.Random(1), tests={eira})
    assert change.current.name == "Orco" and combat.pending_test is None
    with pytest.raises(RulesError):  # not on the orc's turn
        combat.test_rolled(eira)
    # the GM may skip it explicitly; the stored state keeps the owed test
    combat, _ = combat.next_turn(random.Random(1), tests={eira})
    assert Combat.from_dict(combat.to_dict()).pending_test == eira
    combat, change = combat.next_turn(random.Random(1), tests={eira}, skip_test=True)
    assert change.current.name == "Orco"


def test_a_turn_that_began_without_a_test_owes_none():
    """Falling during one's own turn: the first test is on the next one («turno posterior»)."""
    combat = individual(("Eira", 15), ("Orco", 3))
    eira = combat.find_by_name("Eira").key
    combat, _ = combat.next_turn(random.Random(1))
    with pytest.raises(RulesError):
        combat.test_rolled(eira)
    combat, change = combat.next_turn(random.Random(1), tests={eira})  # not held back
    assert change.current.name == "Orco"
