"""Actions per turn through the services, on SQLite and PostgreSQL (issue 23 §1): an attack
out of turn is refused, a second one beyond the count too, the GM's ``forzar`` passes, the
``advertir`` setting lets it through with a warning, the panel shows what is left, and two
attacks at once by a one-action combatant spend one action (the second is refused)."""

from __future__ import annotations

import asyncio
import copy

import pytest

from bot.services.campaigns.service import SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.shared.errors import DomainError
from rules.systems.base import RulesError
from tests.bot import test_attacks
from tests.bot.test_attacks import ANA, GM, HERE
from tests.rules.nucleo.conftest import ARDELIA, ScriptedRandom
from tests.rules.nucleo.test_attack import _brute
from tests.rules.rolweb.conftest import FixedRandom

#: Ana plays Ardelia; the GM's hidden Orco (Resistencia 12) is in the fight.
rolweb = test_attacks.rolweb


async def _ardelias_turn(services) -> None:
    """Ardelia (Ágil 13) joins, the orc has initiative 5: round 1 begins with her turn."""
    await services.combat.join(HERE, ANA, "Ardelia")
    await services.combat.roll(HERE, ANA)
    view = await services.combat.next(HERE, GM)
    assert view.current is not None and view.current.name == "Ardelia"


async def test_one_combat_action_a_turn_and_none_out_of_turn(rolweb):
    await _ardelias_turn(rolweb)
    shown = await rolweb.combat.show(HERE, ANA)
    assert shown.actions_left == (("principal", 1), ("movimiento", 1))
    rolweb.attacks.rng = FixedRandom(*[20] * 10)  # misses: the orc stands
    await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    shown = await rolweb.combat.show(HERE, ANA)
    assert shown.actions_left == (("principal", 0), ("movimiento", 1))
    with pytest.raises(DomainError) as twice:
        await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert twice.value.key == "actions.problem.none_left"
    assert twice.value.params["name"] == "Ardelia"
    # a free attack is a reaction: allowed though the combat action is spent
    free = AttackOrder("Orco", circumstances="ataque_libre_salir")
    await rolweb.attacks.attack(HERE, ANA, free)
    # the orc attacks out of its turn: refused; the GM's «forzar» lets it through
    orc = AttackOrder("Ardelia", character="Orco", defence_now=True)
    with pytest.raises(DomainError) as out:
        await rolweb.attacks.attack(HERE, GM, orc)
    assert out.value.key == "actions.problem.not_your_turn"
    assert out.value.params == {"name": "Orco", "current": "Ardelia"}
    forced = AttackOrder("Ardelia", character="Orco", defence_now=True, circumstances="forzar")
    rolweb.attacks.rng = FixedRandom(1)  # her defence: 1 parries
    view = await rolweb.attacks.attack(HERE, GM, forced)
    assert view.turn_warnings == ()
    # its turn: its one combat action was spent by the forced attack
    await rolweb.combat.next(HERE, ANA)
    with pytest.raises(DomainError) as spent:
        await rolweb.attacks.attack(HERE, GM, orc)
    assert spent.value.key == "actions.problem.none_left"


async def test_the_warn_setting_lets_the_act_through_with_a_warning(rolweb):
    await rolweb.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("acciones_por_turno", "advertir"))
    )
    await _ardelias_turn(rolweb)
    rolweb.attacks.rng = FixedRandom(*[1] * 10)  # her defences: 1 parries
    orc = AttackOrder("Ardelia", character="Orco", defence_now=True)
    view = await rolweb.attacks.attack(HERE, GM, orc)
    assert [w.key for w in view.turn_warnings] == ["actions.problem.not_your_turn"]
    await rolweb.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("acciones_por_turno", "libre"))
    )
    again = await rolweb.attacks.attack(HERE, GM, orc)
    assert again.turn_warnings == ()
    assert (await rolweb.combat.show(HERE, ANA)).actions_left == ()


async def test_a_failed_act_gives_its_action_back(rolweb):
    await _ardelias_turn(rolweb)
    with pytest.raises(RulesError):  # no such weapon: refused after the action was counted
        await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco", weapon="Bazuca"))
    assert (await rolweb.combat.show(HERE, ANA)).actions_left[0] == ("principal", 1)


async def test_two_attacks_at_once_spend_one_action(rolweb):
    await _ardelias_turn(rolweb)
    rolweb.attacks.rng = FixedRandom(*[20] * 10)
    results = await asyncio.gather(
        rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco")),
        rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco")),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(refused) == 1 and refused[0].key == "actions.problem.none_left", results
    assert (await rolweb.combat.show(HERE, ANA)).actions_left[0] == ("principal", 0)


async def test_nucleo_two_actions_from_initiative_and_a_split_third(services):
    """The «2 acciones» killer of the play-test made 3 attacks: the third is refused unless
    every attack of the turn keeps the lowest die (seed 002, Dividir Acciones)."""
    await test_attacks._campaign(services, "nucleo")
    await services.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("creacion_estricta", "no"))
    )
    await services.characters.create(HERE, ANA, copy.deepcopy(ARDELIA))
    await services.characters.create(HERE, GM, _brute() | {"name": "Bruto"}, is_npc=True)
    await services.combat.start(HERE, GM)
    await services.combat.add(HERE, GM, "Bruto", initiative=25)  # 2 actions
    await services.combat.add(HERE, GM, "Ardelia", initiative=5)
    view = await services.combat.next(HERE, GM)
    assert view.current is not None and view.current.name == "Bruto"
    assert view.actions_left == (("principal", 2), ("movimiento", 2))
    services.attacks.rng = ScriptedRandom([1, 1, 1] * 6)  # every attack misses
    brute = AttackOrder("Ardelia", character="Bruto")
    await services.attacks.attack(HERE, GM, brute)
    await services.attacks.attack(HERE, GM, brute)
    with pytest.raises(DomainError) as third:
        await services.attacks.attack(HERE, GM, brute)
    assert third.value.key == "actions.problem.split_hint"
    ardelia = AttackOrder("Bruto")
    with pytest.raises(DomainError) as out:
        await services.attacks.attack(HERE, ANA, ardelia)
    assert out.value.key == "actions.problem.not_your_turn"
