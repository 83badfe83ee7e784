"""The one counting procedure of actions per turn (issue 23 §1, rules/combat/actions.py),
with each system's allowance: seed 001 ACCIONES EN COMBATE, seed 002 Combate 2 and
«Dividir Acciones», seed 000 SECUENCIA DEL COMBATE."""

from __future__ import annotations

import pytest

from rules import systems
from rules.combat.actions import Allowance, Cost, Ledger, Use, give_back, judge, left, may_act
from rules.systems.base import ActRequest, RulesError, capabilities

ATTACK = ActRequest("attack")


def economy(system_id: str):  # type: ignore[no-untyped-def]
    found = capabilities(systems.get(system_id)).action_economy
    assert found is not None
    return found


def spend_all(allowance: Allowance, uses: list[Use]) -> Ledger:
    ledger = Ledger()
    for use in uses:
        ledger = judge(allowance, ledger, use, 1).ledger
    return ledger


def refused(allowance: Allowance, ledger: Ledger, use: Use) -> str:
    with pytest.raises(RulesError) as caught:
        judge(allowance, ledger, use, 1)
    return caught.value.problems[0].key


def test_rolweb_one_combat_and_one_movement_action() -> None:
    rolweb = economy("rolweb")
    allowance = rolweb.action_allowance(1, {})
    attack = rolweb.action_cost(ATTACK, {})
    move = rolweb.action_cost(ActRequest("stand"), {})
    ledger = spend_all(allowance, [attack, move])
    assert left(allowance, ledger) == ((Cost.MAIN, 0), (Cost.MOVEMENT, 0))
    assert refused(allowance, ledger, attack) == "actions.problem.none_left"
    # line 78: movement never becomes a second attack by default
    after_one = spend_all(allowance, [attack])
    assert refused(allowance, after_one, attack) == "actions.problem.none_left"
    # ... and with movimiento_a_combate it does (line 66), once
    loose = rolweb.action_allowance(1, {"movimiento_a_combate": True})
    verdict = judge(loose, after_one, attack, 1)
    assert verdict.spent == "movimiento_como_principal"
    assert refused(loose, verdict.ledger, attack) == "actions.problem.none_left"
    # the combat action may become a second movement (lines 52, 78)
    moves = judge(allowance, spend_all(allowance, [move]), move, 1)
    assert moves.spent == "principal_como_movimiento"


def test_rolweb_reactions_free_attacks_and_defence_are_not_counted() -> None:
    rolweb = economy("rolweb")
    allowance = rolweb.action_allowance(1, {})
    spent = spend_all(allowance, [rolweb.action_cost(ATTACK, {})])
    free = rolweb.action_cost(ActRequest("attack", frozenset({"ataque_libre_salir"})), {})
    assert not free.counted and judge(allowance, spent, free, 1).ledger == spent
    defence = rolweb.action_cost(ActRequest("defence"), {})
    assert not defence.counted
    # defensa_gasta_accion: the first defence takes the unspent combat action, never refused
    costly = rolweb.action_cost(ActRequest("defence"), {"defensa_gasta_accion": True})
    fresh = judge(allowance, Ledger(), costly, 1)
    assert fresh.spent == "principal" and left(allowance, fresh.ledger)[0] == (Cost.MAIN, 0)
    assert judge(allowance, fresh.ledger, costly, 1).ledger == fresh.ledger
    for action in ("reactiva", "gratuita", "pasiva"):
        assert not rolweb.action_cost(ActRequest("ability", action=action), {}).counted


def test_rolweb_an_active_ability_grants_extra_attacks_but_no_active_ability() -> None:
    rolweb = economy("rolweb")
    allowance = rolweb.action_allowance(1, {})
    twin = rolweb.action_cost(ActRequest("ability", action="activa", grants=1), {})
    ledger = judge(allowance, Ledger(), twin, 1).ledger
    assert left(allowance, ledger) == ((Cost.MAIN, 0), (Cost.MOVEMENT, 1), ("extra", 1))
    attack = rolweb.action_cost(ATTACK, {})
    extra = judge(allowance, ledger, attack, 1)
    assert extra.spent == "extra"
    # «no pueden utilizarse para realizar acciones activas adicionales» (line 24)
    other = rolweb.action_cost(ActRequest("ability", action="activa"), {})
    assert refused(allowance, extra.ledger, other) == "actions.problem.none_left"


def test_nucleo_actions_come_from_initiative_and_splitting_gives_one_more() -> None:
    nucleo = economy("nucleo")
    two = nucleo.action_allowance(2, {})
    attack = nucleo.action_cost(ATTACK, {})
    ledger = spend_all(two, [attack, attack])
    assert refused(two, ledger, attack) == "actions.problem.split_hint"  # the killer's third
    one = nucleo.action_allowance(1, {})
    split = nucleo.action_cost(ActRequest("attack", frozenset({"dividir_acciones"})), {})
    assert refused(one, spend_all(one, [attack]), split) == "actions.problem.split_not_whole"
    both = spend_all(one, [split, split])  # «guardará dado menor en ambas acciones»
    assert both.main == 2
    assert refused(one, both, split) == "actions.problem.none_left"


def test_swc_one_action_a_round_in_the_sides_phase() -> None:
    swc = economy("swc")
    allowance = swc.action_allowance(1, {})
    assert allowance.by_side
    attack = swc.action_cost(ATTACK, {})
    assert refused(allowance, spend_all(allowance, [attack]), attack) == (
        "actions.problem.none_left"
    )
    kwargs = {"round_": 2, "acting": "c1", "acting_side": "jugadores"}
    assert may_act(allowance, key="c2", side="jugadores", **kwargs)  # type: ignore[arg-type]
    assert not may_act(allowance, key="c3", side="enemigos", **kwargs)  # type: ignore[arg-type]
    alternative_b = swc.action_allowance(1, {"secuencia_combate": "B"})
    assert not may_act(alternative_b, key="c2", side="jugadores", **kwargs)  # type: ignore[arg-type]


def test_a_ledger_of_another_round_is_empty_and_the_set_up_is_not_refereed() -> None:
    allowance = Allowance(main=1)
    spent = judge(allowance, Ledger(), Use(Cost.MAIN), 1).ledger
    assert judge(allowance, spent, Use(Cost.MAIN), 2).ledger.main == 1
    assert Ledger.from_dict(spent.to_dict()) == spent
    assert may_act(allowance, round_=0, acting=None, acting_side=None, key="c1", side="enemigos")
    assert not may_act(allowance, round_=1, acting="c2", acting_side="x", key="c1", side="x")


def test_giving_back_undoes_only_that_act() -> None:
    """An act refused after it was counted gives back its own action, not what the
    combatant spent meanwhile."""
    rolweb = economy("rolweb")
    allowance = rolweb.action_allowance(1, {})
    attack = judge(allowance, Ledger(), rolweb.action_cost(ATTACK, {}), 1)
    moved = judge(allowance, attack.ledger, rolweb.action_cost(ActRequest("stand"), {}), 1)
    back = give_back(moved.ledger, attack.spent)
    assert (back.main, back.movement) == (0, 1)
    twin = judge(allowance, Ledger(), Use(Cost.MAIN, grants=2), 1)
    assert give_back(twin.ledger, twin.spent, 2) == Ledger(round=1)
