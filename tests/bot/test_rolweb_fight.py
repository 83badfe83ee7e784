"""Seed 001's combat rules through the services, on SQLite and PostgreSQL: ``/init surprise``,
the free attacks and the four-flanker limit of ``/attack``, the campaign setting
``pnj_mueren_a_0`` (applied by ``/attack`` and ``/init damage``) and ``/check``'s difficulty
that replaces attribute + modifier.  Seeded dice, exact numbers."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import CombatRecord, RollLog
from bot.services.campaigns.service import SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.play.checks import CheckOrder
from bot.services.play.surprise import SurpriseOrder
from bot.services.shared.audience import Part, Reader, sight
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from rules.combat.attack import AttackOutcome
from rules.systems.base import RulesError
from tests.bot import test_attacks
from tests.bot.test_attacks import ANA, GM, HERE
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.rolweb.test_fight import ardelia as rolweb_pc

#: Ana plays Ardelia; the GM's hidden Orco is in the fight (tests/bot/test_attacks.py).
rolweb = test_attacks.rolweb


async def _pc(services, name, owner=ANA):
    sheet = rolweb_pc() | {"name": name}
    sheet["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    await services.characters.create(HERE, owner, sheet)
    await services.combat.join(HERE, GM, name)


async def _resistencia(services, name):
    return (await services.characters.show(HERE, GM, name)).sheet["resistencia"]["actual"]


# -- surprise ------------------------------------------------------------------------------


async def test_players_surprise_and_their_free_attack_lands_with_advantage(rolweb):
    """Ardelia's Discreto 10 against the best Atento: the orc's 10 and the Lobos' 13 (the GM's
    number for the sheetless group) → 10 + (10 − 13) = 7; d20 5 surprises.  Her free attack:
    [Diestro←Defensa] 13 + desprevenido 2 = 15, d20 15 hits; Espada 7 + 1D4 3 = 10."""
    await rolweb.combat.join(HERE, ANA, "Ardelia")
    await rolweb.combat.add(HERE, GM, "Lobos", initiative=8)
    with pytest.raises(NotReferee):
        await rolweb.surprise.surprise(HERE, ANA, SurpriseOrder("jugadores"))
    rolweb.surprise.rng = FixedRandom(5)
    view = await rolweb.surprise.surprise(HERE, GM, SurpriseOrder("jugadores", atento=13))
    assert (view.discreto, view.atento, view.target, view.roll) == (10, 13, 7, 5)
    assert view.surprised and view.attackers == ("Ardelia",)
    assert set(view.victims) == {"Orco", "Lobos"}
    assert ("Orco", "Hacha", "movimiento") in view.draws and ("Lobos", None, None) in view.draws
    # the hidden orc's Atento is part of the test: its values and target are sealed
    seen = sight(view.secrecy, Reader.everyone())
    assert seen is not None and Part.DIFFICULTY in seen.sealed and seen.shows(Part.TOTAL)
    with pytest.raises(DomainError) as again:
        await rolweb.surprise.surprise(HERE, GM, SurpriseOrder("jugadores", atento=13))
    assert again.value.key == "rolweb_fight.error.surprise_done"
    async with rolweb.sessions() as session:
        (row,) = (await session.exec(select(RollLog).where(RollLog.kind == "surprise"))).all()
    assert row.id == view.log_id and row.difficulty is None and row.detail["secret"]["target"] == 7

    rolweb.attacks.rng = FixedRandom(15, 7, 3)
    order = AttackOrder("Orco", circumstances="ataque_libre_sorpresa")
    hit = await rolweb.attacks.attack(HERE, ANA, order)
    assert hit.result.hit and (hit.result.target_number, hit.result.damage) == (15, 10)
    assert "rolweb_fight.note.free_sorpresa" in hit.notes
    assert await _resistencia(rolweb, "Orco") == 2
    with pytest.raises(DomainError) as twice:
        await rolweb.attacks.attack(HERE, ANA, order)
    assert twice.value.key == "rolweb_fight.error.free_attack_used"
    with pytest.raises(DomainError) as wrong:
        await rolweb.attacks.attack(
            HERE,
            GM,
            AttackOrder("Ardelia", character="Orco", circumstances="ataque_libre_sorpresa"),
        )
    assert wrong.value.key == "rolweb_fight.error.not_ambusher"


async def test_the_ambush_survives_other_fight_writes_and_ends_with_round_one(rolweb):
    await rolweb.combat.join(HERE, ANA, "Ardelia")
    rolweb.surprise.rng = FixedRandom(10)  # 10 + (10 − 10) = 10: surprised
    assert (await rolweb.surprise.surprise(HERE, GM, SurpriseOrder("jugadores"))).surprised
    await rolweb.combat.roll(HERE, GM)
    await rolweb.combat.next(HERE, GM)  # round 1 starts: the ambush is still there
    async with rolweb.sessions() as session:
        (record,) = (await session.exec(select(CombatRecord))).all()
    assert record.state["sorpresa"]["sorprendidos"] is True
    for _ in range(2):
        await rolweb.combat.next(HERE, GM)  # round 2
    rolweb.attacks.rng = FixedRandom(20)
    with pytest.raises(DomainError) as late:
        await rolweb.attacks.attack(
            HERE, ANA, AttackOrder("Orco", circumstances="ataque_libre_sorpresa")
        )
    assert late.value.key == "rolweb_fight.error.surprise_over"
    with pytest.raises(DomainError) as too_late:
        await rolweb.surprise.surprise(HERE, GM, SurpriseOrder("enemigos"))
    assert too_late.value.key in {
        "rolweb_fight.error.surprise_done",
        "rolweb_fight.error.surprise_late",
    }


async def test_ambushed_players_roll_the_mirror_test_and_a_failed_ambush_gives_nothing(rolweb):
    """The orc (Discreto 10) ambushes Ardelia (Atento 10): the players roll [Atento←Discreto]
    10; d20 9 foils it.  No free attack of surprise exists then."""
    await rolweb.combat.join(HERE, ANA, "Ardelia")
    rolweb.surprise.rng = FixedRandom(9)
    view = await rolweb.surprise.surprise(HERE, GM, SurpriseOrder("enemigos"))
    assert view.target == 10 and not view.surprised and view.attackers == ()
    rolweb.attacks.rng = FixedRandom(20)
    with pytest.raises(DomainError) as none:
        await rolweb.attacks.attack(
            HERE, ANA, AttackOrder("Orco", circumstances="ataque_libre_sorpresa")
        )
    assert none.value.key == "rolweb_fight.error.no_surprise"


async def test_two_surprises_at_once_roll_one(rolweb):
    """Compare-and-set on the fight: both race, one stores its ambush, the other is told."""
    await rolweb.combat.join(HERE, ANA, "Ardelia")
    rolweb.surprise.rng = FixedRandom(10, 10)
    results = await asyncio.gather(
        rolweb.surprise.surprise(HERE, GM, SurpriseOrder("jugadores")),
        rolweb.surprise.surprise(HERE, GM, SurpriseOrder("jugadores")),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], DomainError)
    assert errors[0].key == "rolweb_fight.error.surprise_done"
    async with rolweb.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.kind == "surprise"))).all()
    assert len(rows) == 1


async def test_surprise_needs_the_gm_number_for_a_sheetless_ambusher(rolweb):
    await rolweb.combat.join(HERE, ANA, "Ardelia")
    await rolweb.combat.add(HERE, GM, "Bandidos", initiative=9)
    with pytest.raises(DomainError) as error:
        await rolweb.surprise.surprise(HERE, GM, SurpriseOrder("enemigos"))
    assert error.value.key == "rolweb_fight.error.values_needed"
    assert error.value.params["names"] == "Bandidos"


# -- free attacks, flanking, line of sight ------------------------------------------------------


async def test_a_fifth_melee_attacker_is_refused_until_the_gm_forces_it(rolweb):
    """Four characters hit the orc in melee this round; a fifth cannot reach it; one of the
    four can; the GM's «forzar» lets the fifth in; a player may not force."""
    for name in ("Bea", "Cid", "Dora", "Eloy", "Fina"):
        await _pc(rolweb, name)
    rolweb.attacks.rng = FixedRandom(*[20] * 10)  # 20 misses (target 13): the orc stands
    for name in ("Bea", "Cid", "Dora", "Eloy"):
        view = await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco", character=name))
        assert view.result.outcome is AttackOutcome.MISS
    with pytest.raises(RulesError) as refused:
        await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco", character="Fina"))
    assert refused.value.problems[0].key == "rolweb_fight.problem.target_surrounded"
    assert refused.value.problems[0].params["names"] == "Eloy, Dora, Cid, Bea"
    await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco", character="Bea"))
    with pytest.raises(NotAllowed) as player:
        await rolweb.attacks.attack(
            HERE, ANA, AttackOrder("Orco", character="Fina", circumstances="forzar")
        )
    assert player.value.key == "rolweb_fight.error.override_gm_only"
    forced = await rolweb.attacks.attack(
        HERE, GM, AttackOrder("Orco", character="Fina", circumstances="forzar")
    )
    assert "rolweb_fight.note.reach_forced" in forced.notes


async def test_a_free_attack_for_leaving_melee_once_per_round_and_its_defence(rolweb):
    """The orc's free attack on Ardelia leaving melee asks her player's defence, which keeps
    the note; a second free attack of the same trigger in the round is refused."""
    await rolweb.combat.join(HERE, ANA, "Ardelia")
    rolweb.attacks.rng = FixedRandom()
    order = AttackOrder("Ardelia", character="Orco", circumstances="ataque_libre_salir")
    asked = await rolweb.attacks.attack(HERE, GM, order)
    assert asked.result.outcome is AttackOutcome.DEFENCE_REQUESTED
    assert "rolweb_fight.note.free_destrabarse" in asked.notes
    rolweb.attacks.rng = FixedRandom(12, 6, 4)  # [Defensa←Diestro] 8: 12 fails; 6 − 4 = 2
    view = await rolweb.attacks.defend(HERE, ANA, asked.log_id, 1)
    assert view.result.hit and view.result.damage == 2
    assert "rolweb_fight.note.free_destrabarse" in view.notes
    with pytest.raises(DomainError) as twice:
        await rolweb.attacks.attack(HERE, GM, order)
    assert twice.value.key == "rolweb_fight.error.free_attack_used"


async def test_rolweb_circumstances_are_offered_only_in_rolweb(rolweb):
    offered = await rolweb.attacks.circumstances(HERE)
    assert "ataque_libre_larga" in offered and "linea_bloqueada" in offered
    with pytest.raises(DomainError) as unknown:
        await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco", circumstances="a_caballo"))
    assert unknown.value.key == "rolweb_fight.problem.unknown_circumstance"


# -- NPCs at Resistencia 0 (pnj_mueren_a_0) -----------------------------------------------------


async def test_npcs_die_at_zero_by_default(rolweb):
    done = await rolweb.combat.damage(HERE, GM, "Orco", 12)
    assert done.state == "muerto"


async def test_the_setting_makes_npcs_dying_through_init_damage_and_attack(rolweb):
    """pnj_mueren_a_0: no → the orc at 0 is moribundo, like a character: /init damage 5 (12 →
    7), then Ardelia's hit: 13, d20 9; Espada 7 → 0."""
    await rolweb.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("pnj_mueren_a_0", "no"))
    )
    await rolweb.combat.damage(HERE, GM, "Orco", 5)
    rolweb.attacks.rng = FixedRandom(9, 7)
    view = await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert view.result.hit and view.state == "moribundo"
    assert (await rolweb.characters.show(HERE, GM, "Orco")).sheet["estado"] == "moribundo"
    with pytest.raises(DomainError):
        await rolweb.campaigns.update_settings(
            HERE, GM, SettingsChange(system_setting=("pnj_mueren_a_0", "quizás"))
        )


# -- /check: a difficulty replaces attribute + modifier (seed 001 line 15) ---------------------


async def test_check_difficulty_replaces_attribute_and_modifier(rolweb):
    """«El Director también podrá decir directamente la Dificultad de la tirada en base a la
    suma del atributo del pj y el modificador elegido»: difficulty 8 with modifier −3 is 8
    (Ágil 12 is not used); without it, Ágil 12 − 3 = 9."""
    rolweb.checks.rng = FixedRandom(8, 9)
    given = await rolweb.checks.check(
        HERE, ANA, CheckOrder("atributo:Ágil", modifier=-3, difficulty=8)
    )
    assert given.result.target == 8 and str(given.result.outcome) == "success"
    plain = await rolweb.checks.check(HERE, ANA, CheckOrder("atributo:Ágil", modifier=-3))
    assert plain.result.target == 9 and str(plain.result.outcome) == "success"
    async with rolweb.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.kind == "check"))).all()
    assert sorted(row.difficulty for row in rows) == [8, 9]
