"""A closed scene's fight stands still (issue 22 §5), through the services on both databases.

The slash commands are refused before they run (``cogs/ui/open_scene.py``, the e2e test
``tests/e2e/test_closed_scene.py``); the panel's buttons are not slash commands: a defence
asked before ``/scene close``, the next turn and a death test reach the attack and fight
services directly, and each refuses there, before anything is rolled or written.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.play.attacks import AttackOrder
from bot.services.play.surprise import SurpriseOrder
from bot.services.shared.errors import DomainError
from rules.combat.attack import AttackOutcome
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.rolweb.test_fight import ardelia as rolweb_pc
from tests.rules.rolweb.test_fight import orc as rolweb_orc

GUILD, CHANNEL, THREAD = 1000, 11, 5001
TABLE = Place(GUILD, CHANNEL, (CHANNEL,))
SCENE = Place(GUILD, THREAD, (THREAD, CHANNEL))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")


async def _attack_rows(services):
    async with services.sessions() as session:
        return (await session.exec(select(RollLog).where(RollLog.kind == "attack"))).all()


def _closed(error):
    return error.value.key == "scene.error.closed" and error.value.params["title"] == "El paso"


async def test_a_fight_in_a_closed_scene_rolls_nothing_until_it_reopens(services):
    await services.campaigns.create(
        TABLE, GM, name="Prueba", system="rolweb", target_id=CHANNEL, kind="channel"
    )
    pc = rolweb_pc()
    pc["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    npc = rolweb_orc()
    npc["atributos"] |= {"Astuto": 5}
    await services.characters.create(TABLE, ANA, pc)
    await services.characters.create(TABLE, GM, npc, is_npc=True)
    assert await services.scenes.scene_for(SCENE, title="El paso") is not None
    await services.combat.start(SCENE, GM)
    await services.combat.add(SCENE, GM, "Orco", initiative=5)
    services.attacks.rng = FixedRandom()
    asked = await services.attacks.attack(SCENE, GM, AttackOrder("Ardelia", character="Orco"))
    assert asked.result.outcome is AttackOutcome.DEFENCE_REQUESTED
    before = await services.combat.show(SCENE, GM)

    await services.scenes.close(SCENE, GM)
    refusals = {
        "defence button": services.attacks.defend(SCENE, ANA, asked.log_id, 1),
        "attack": services.attacks.attack(SCENE, GM, AttackOrder("Ardelia", character="Orco")),
        "join": services.combat.join(SCENE, ANA),
        "add": services.combat.add(SCENE, GM, "Lobos", initiative=3, count=2),
        "initiative": services.combat.roll(SCENE, GM),
        "next turn": services.combat.next(SCENE, GM),
        "death test button": services.combat.death_test_target(SCENE, ANA, 1),
        "ambush": services.surprise.surprise(SCENE, GM, SurpriseOrder("jugadores")),
    }
    for what, call in refusals.items():
        with pytest.raises(DomainError) as error:
            await call
        assert _closed(error), (what, error.value.key)
    after = await services.combat.show(SCENE, GM)
    assert (after.version, after.round, after.lines) == (
        before.version,
        before.round,
        before.lines,
    )
    assert sorted(row.outcome for row in await _attack_rows(services)) == ["defence_requested"]

    await services.scenes.reopen(SCENE, GM)
    services.attacks.rng = FixedRandom(12, 6, 4)
    view = await services.attacks.defend(SCENE, ANA, asked.log_id, 1)
    assert view.result.hit
    await services.combat.next(SCENE, GM)
