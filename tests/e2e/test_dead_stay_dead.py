"""The dead stay dead, end to end (Núcleo): ``/attack`` on a dead hidden NPC is refused with
its state and no number, ``/init heal`` on a dead character is refused with its state, a
player's ``force`` is refused, and the GM's ``force`` brings it back (Inconsciente)."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import says
from tests.e2e.test_combat import ardelia_meets_a_trasgo, run

pytestmark = pytest.mark.e2e


def test_nucleo_the_dead_are_neither_attacked_nor_healed_but_the_gm_can_raise_them(discord_env):
    sb = discord_env
    g = ardelia_meets_a_trasgo(sb, "Muertos Núcleo")

    killed = run(sb, g, "init damage", {"combatant": "Trasgo", "amount": 60})
    assert "Estado: muerto" in killed.text, killed.text
    attack = run(sb, g, "attack", {"target": "Trasgo"}, user="ana")
    assert attack.ephemeral, attack.text
    assert "No se puede atacar a Trasgo: su estado es «muerto»" in attack.text, attack.text
    assert not any(ch.isdigit() for ch in attack.text), attack.text  # no PV, no Defensa

    run(sb, g, "init damage", {"combatant": "Ardelia", "amount": 36}).expect_ok()
    refused = run(sb, g, "init heal", {"combatant": "Ardelia", "amount": 10})
    assert refused.ephemeral, refused.text
    assert "No se puede curar a Ardelia: su estado es «muerto»" in refused.text, refused.text
    player = run(sb, g, "init heal", {"combatant": "Ardelia", "amount": 10}, user="ana")
    assert player.ephemeral and says(player, "rest.error.heal_gm_only"), player.text
    not_gm = run(
        sb, g, "init heal", {"combatant": "Ardelia", "amount": 10, "force": True}, user="ana"
    )
    assert not_gm.ephemeral and "Solo el máster puede forzar" in not_gm.text, not_gm.text
    raised = run(sb, g, "init heal", {"combatant": "Ardelia", "amount": 10, "force": True})
    assert "Estado: inconsciente (-2/24)" in raised.text, raised.text
