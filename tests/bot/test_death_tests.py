"""Rolweb's death test through the services, on SQLite and PostgreSQL (issue 23 §1; seed
001 line 142: «En cada turno posterior, el jugador debe hacer una tirada de muerte con 1D20 …
durante la iniciativa de su personaje»): exactly one a turn, on the dying character's turn,
from the turn after the fall; the tracker does not pass that turn until the test is rolled,
or the GM skips it explicitly."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services.play.checks import CheckOrder
from bot.services.shared.errors import ConcurrentChange, DomainError, NotReferee
from rules.systems.base import RulesError
from tests.bot import test_attacks
from tests.bot.test_attacks import ANA, GM, HERE
from tests.rules.rolweb.conftest import FixedRandom

#: Ana plays Ardelia; the GM's hidden Orco is in the fight.
rolweb = test_attacks.rolweb
DEATH = CheckOrder("muerte")


async def _ardelia_falls_on_the_orcs_turn(services) -> None:
    await services.combat.join(HERE, ANA, "Ardelia")
    await services.combat.move(HERE, GM, "Ardelia", 13)
    await services.combat.next(HERE, GM)  # round 1: Ardelia
    with pytest.raises(RulesError) as nothing_owed:  # healthy: no test at all
        await services.checks.check(HERE, ANA, DEATH)
    view = await services.combat.next(HERE, ANA)  # the orc
    assert view.current is not None and view.current.name == "Orco"
    dying = await services.combat.damage(HERE, GM, "Ardelia", 30)
    assert dying.label == "moribundo"
    assert nothing_owed.value.problems[0].key == "rolweb.problem.not_dying"


async def test_one_death_test_a_turn_and_the_turn_waits_for_it(rolweb):
    await _ardelia_falls_on_the_orcs_turn(rolweb)
    # the fall was on the orc's turn: no test now (not her turn)
    with pytest.raises(DomainError) as early:
        await rolweb.checks.check(HERE, ANA, DEATH)
    assert early.value.key == "combat.problem.no_test_now"
    view = await rolweb.combat.next(HERE, GM)  # round 2: her turn is the test
    assert view.current is not None and view.current.turn_test == "muerte"
    for who in (ANA, GM):  # neither her player nor the GM passes it untested
        with pytest.raises(RulesError) as waiting:
            await rolweb.combat.next(HERE, who)
        assert waiting.value.problems[0].key == "combat.problem.test_pending"
        assert waiting.value.problems[0].params["name"] == "Ardelia"
    rolweb.checks.rng = FixedRandom(10, 10, 10, 10, 10)  # 2-19: still dying
    first = await rolweb.checks.check(HERE, ANA, DEATH)
    assert first.result.option == "muerte" and first.log_id
    with pytest.raises(DomainError) as second:  # the play-test's five in one turn
        await rolweb.checks.check(HERE, ANA, DEATH)
    assert second.value.key == "combat.problem.no_test_now"
    view = await rolweb.combat.next(HERE, ANA)
    assert view.current is not None and view.current.name == "Orco"


async def test_the_gm_skips_it_explicitly_and_a_player_cannot(rolweb):
    await _ardelia_falls_on_the_orcs_turn(rolweb)
    await rolweb.combat.next(HERE, GM)  # round 2: Ardelia's test
    with pytest.raises(NotReferee):
        await rolweb.combat.next(HERE, ANA, skip_test=True)
    view = await rolweb.combat.next(HERE, GM, skip_test=True)
    assert view.current is not None and view.current.name == "Orco"


async def test_five_tests_pressed_together_roll_one(rolweb):
    await _ardelia_falls_on_the_orcs_turn(rolweb)
    await rolweb.combat.next(HERE, GM)
    rolweb.checks.rng = FixedRandom(*[10] * 5)
    results = await asyncio.gather(
        *(rolweb.checks.check(HERE, ANA, DEATH) for _ in range(5)), return_exceptions=True
    )
    rolled = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, (DomainError, ConcurrentChange))]
    assert len(rolled) == 1 and len(refused) == 4, results
    async with rolweb.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.kind == "check"))).all()
    assert [row.detail["option"] for row in rows] == ["muerte"]  # the refused left no row
