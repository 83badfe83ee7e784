"""A sheetless group's hit points per creature, through the services on real databases
(SQLite, and PostgreSQL when ARBITRO_TEST_POSTGRES_URL is set): ``/attack`` and ``/init
damage|heal`` wound the creature in front, one falls at 0, the last one's fall takes the
group out of the turn order; two blows at once both count (the fight's compare-and-set).

S&W, Aldara (Guerrero 1, Fuerza 16) against «Trasgo ×2», AC 6: Tabla 31 needs 13; a d20 of 13
+ 1 hits, Espada larga 1d8 (7) + 1 = 8 damage (tests/rules/swc/test_attack_swc.py)."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services.play.attacks import AttackOrder
from bot.services.play.combat_views import combat_for
from bot.services.shared.audience import Reader
from bot.services.shared.errors import NotReferee
from cogs.ui import render_attack, render_combat
from rules.systems.base import RulesError
from tests.bot.test_attacks import ANA, BEA, GM, HERE, _campaign
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.swc.test_attack_swc import aldara

HIT_FOR_8 = (13, 7)


@pytest.fixture
async def goblins(services):
    """Ana plays Aldara (initiative 10); the GM's «Trasgo ×2», AC 6, 12 hit points each
    (initiative 5), in a fight by turns being set up (no turn counts actions yet)."""
    await _campaign(services, "swc")
    await services.characters.create(HERE, ANA, aldara())
    await services.combat.start(HERE, GM, "turns")
    await services.combat.join(HERE, ANA)
    await services.combat.move(HERE, GM, "Aldara", 10)
    await services.combat.add(HERE, GM, "Trasgo", initiative=5, count=2, defence=6, hit_points=12)
    return services


async def _group(services) -> dict:
    record = await services.attacks.sides.fight(HERE)
    (group,) = [c for c in record.state["combatants"] if c["name"] == "Trasgo"]
    return group


async def _rows(services, kind: str) -> list[RollLog]:
    async with services.sessions() as session:
        return list((await session.exec(select(RollLog).where(RollLog.kind == kind))).all())


async def test_an_attack_wounds_the_one_in_front_and_the_next_blow_fells_it(goblins):
    goblins.attacks.rng = FixedRandom(*HIT_FOR_8)
    view = await goblins.attacks.attack(HERE, ANA, AttackOrder("Trasgo"))
    assert view.result.damage == 8 and view.secret
    assert view.group is not None and not view.group.fell and view.hit_points == (4, 12)
    assert (await _group(goblins))["count"] == 2
    goblins.attacks.rng = FixedRandom(*HIT_FOR_8)
    view = await goblins.attacks.attack(HERE, ANA, AttackOrder("Trasgo"))
    assert view.group is not None and view.group.fell and view.group.standing == 1
    assert view.hit_points == (12, 12)  # the next one stands unhurt: the 4 over are lost
    group = await _group(goblins)
    assert (group["count"], group["fallen"], group["hit_points"]) == (1, 1, 12)
    row = (await _rows(goblins, "attack"))[-1]
    assert row.detail["group"]["fell"] and row.detail["group"]["standing"] == 1
    assert row.detail["secret"]["hit_points_left"] == 12


async def test_the_public_reply_says_who_fell_without_numbers_and_the_gm_copy_has_them(goblins):
    goblins.attacks.rng = FixedRandom(13, 7, 13, 7)
    await goblins.attacks.attack(HERE, ANA, AttackOrder("Trasgo"))
    view = await goblins.attacks.attack(HERE, ANA, AttackOrder("Trasgo"))
    public = render_attack.attack(view, "es")["embed"].description
    assert "💀 Trasgo: cae 1 (queda 1 en pie)." in public and "12/12" not in public
    copy = render_attack.attack_gm_copy(view, "es", "#mesa")["embed"].description
    assert "El siguiente en pie: 12/12" in copy
    english = render_attack.attack(view, "en")["embed"].description
    assert "💀 Trasgo: 1 falls (1 still standing)." in english


async def test_two_attacks_at_once_fell_two_goblins_and_the_group_leaves_the_order(goblins):
    """8 hit points each: two concurrent blows of 8 — each falls on its own creature (the
    second recomputed on the fight as the first left it), and the group is out."""
    await goblins.combat.add(HERE, GM, "Lobo", initiative=3, count=2, defence=6, hit_points=8)
    await goblins.characters.create(HERE, BEA, aldara(name="Brisa"))
    goblins.attacks.rng = FixedRandom(*HIT_FOR_8, *HIT_FOR_8)
    first, second = await asyncio.gather(
        goblins.attacks.attack(HERE, ANA, AttackOrder("Lobo")),
        goblins.attacks.attack(HERE, BEA, AttackOrder("Lobo")),
    )
    assert first.group is not None and second.group is not None
    assert sorted([first.group.out, second.group.out]) == [False, True]
    record = await goblins.attacks.sides.fight(HERE)
    (wolves,) = [c for c in record.state["combatants"] if c["name"] == "Lobo"]
    assert (wolves["count"], wolves["fallen"]) == (0, 2)
    assert len(await _rows(goblins, "attack")) == 2
    goblins.attacks.rng = FixedRandom(*HIT_FOR_8)
    with pytest.raises(RulesError) as error:  # refused before any die is rolled
        await goblins.attacks.attack(HERE, ANA, AttackOrder("Lobo"))
    assert error.value.problems[0].key == "combat.problem.group_down"
    assert len(await _rows(goblins, "attack")) == 2
    await goblins.combat.next(HERE, GM)  # round 1: Aldara
    view = await goblins.combat.next(HERE, GM)
    assert view.current is not None and view.current.name == "Trasgo"
    view = await goblins.combat.next(HERE, GM)  # Trasgo → (Lobo passed over) → Aldara
    assert view.current is not None and view.current.name == "Aldara" and view.round == 2
    assert view.turn is not None and [c.name for c in view.turn.left] == ["Lobo"]
    panel = render_combat.panel(combat_for(view, Reader.everyone()), "es")
    assert "Lobo queda fuera del orden de turnos (fuera de combate)." in panel["content"]
    view = await goblins.combat.next(HERE, GM)
    view = await goblins.combat.next(HERE, GM)  # a second pass reports nothing
    assert view.turn is not None and view.turn.left == () and view.current.name == "Aldara"


async def test_init_damage_and_heal_follow_the_same_rule(goblins):
    hurt = await goblins.combat.damage(HERE, GM, "Trasgo", 5)
    assert (hurt.label, hurt.hit_points, hurt.secret) == ("herido", (7, 12), True)
    healed = await goblins.combat.heal(HERE, GM, "Trasgo", 10)
    assert healed.amount == 5 and healed.hit_points == (12, 12)  # up to its maximum
    fell = await goblins.combat.damage(HERE, GM, "Trasgo", 30)
    assert fell.group is not None and fell.group.fell and fell.hit_points == (12, 12)
    public = render_combat.health(fell, "es")["embed"].description
    assert "cae 1 (queda 1 en pie)" in public and "12/12" not in public
    assert render_combat.health_secret(fell, "es") == (
        "🔒 Trasgo (1 en pie): el que está delante, 12/12"
    )
    again = await goblins.combat.heal(HERE, GM, "Trasgo", 3, force=True)
    assert again.amount == 0 and (await _group(goblins))["fallen"] == 1  # never raised
    out = await goblins.combat.damage(HERE, GM, "Trasgo", 12)
    assert out.group is not None and out.group.out and out.label == "fuera_de_combate"
    with pytest.raises(RulesError) as error:
        await goblins.combat.heal(HERE, GM, "Trasgo", 5)
    assert error.value.problems[0].key == "combat.problem.group_down"
    with pytest.raises(NotReferee):  # a group is the GM's: players wound it with /attack
        await goblins.combat.damage(HERE, ANA, "Trasgo", 1)
    rows = await _rows(goblins, "damage") + await _rows(goblins, "heal")
    assert len(rows) == 5 and all(row.secrets.get("sealed") == ["detail"] for row in rows)


async def test_init_damage_and_an_attack_at_once_both_count(goblins):
    goblins.attacks.rng = FixedRandom(*HIT_FOR_8)
    await asyncio.gather(
        goblins.attacks.attack(HERE, ANA, AttackOrder("Trasgo")),
        goblins.combat.damage(HERE, GM, "Trasgo", 3),
    )
    group = await _group(goblins)
    assert (group["count"], group["hit_points"]) == (2, 1)  # 12 - 8 - 3


async def test_the_panel_shows_the_count_and_a_word_and_the_numbers_to_the_gm_alone(goblins):
    await goblins.combat.damage(HERE, GM, "Trasgo", 12)
    await goblins.combat.damage(HERE, GM, "Trasgo", 4)
    view = await goblins.combat.show(HERE, GM)
    shown = combat_for(view, Reader.everyone())
    (line,) = [line for line in shown.value.lines if line.name == "Trasgo"]
    assert line.hit_points is None and (line.count, line.fallen, line.state) == (1, 1, "herido")
    text = render_combat.line_text(line, shown.value, "es")
    assert text == "• Trasgo ×1 (enemigos) · herido · 1 baja"
    for reader in (Reader.everyone(), Reader.member(ANA.user_id)):
        assert render_combat.secret_numbers(combat_for(view, reader), "es") == ""
    secret = render_combat.secret_numbers(combat_for(view, Reader.gm(GM.user_id)), "es")
    assert secret == "🔒 Trasgo: herido (8/12)"
