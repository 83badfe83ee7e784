"""Issue 11 §3: Núcleo touch spells land through their melee attack, and Espejo de sombras'
50 % miss is rolled when its owner is attacked (SQLite, and PostgreSQL when
ARBITRO_TEST_POSTGRES_URL is set).  Seeded dice, exact numbers."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services.play.attacks import AttackOrder
from bot.services.play.spells import CastOrder
from bot.words import problem_text
from cogs.ui import render_attack, render_spells
from rules.combat import effects
from tests.bot.test_fight_tracker import ANA, GM, HERE, _learn, sheet_of
from tests.bot.test_fight_tracker import fight as fight  # noqa: F401 - the fixture
from tests.rules.nucleo.conftest import ScriptedRandom

# Ardelia attacks with Físico 6 and no Cuerpo a Cuerpo (lowest of 3d10): 10 (all three) thrown
# again (3, 3, 3) → 6 + 13 = 19 ≥ Bram's Defensa 17.  Then the cast: Inteligencia 9 + level 1 + the
# middle of 9, 9, 9 = 19 ≥ 14 (Toque eléctrico) or +4 for 8 extra mana ≥ 20 (Toque vampírico).
HIT = [10, 10, 10, 3, 3, 3]
MISS = [9, 9, 9]


@pytest.fixture
async def touch(fight):  # noqa: F811 - the imported fixture
    await _learn(
        fight, "Ardelia", {"Toque eléctrico": 1, "Toque vampírico": 1, "Espejo de Sombras": 1}
    )
    return fight


async def _rows(services, kind: str | None = None) -> list[RollLog]:
    async with services.sessions() as session:
        query = select(RollLog).order_by(RollLog.id)
        rows = (await session.exec(query)).all()
    return [r for r in rows if kind is None or r.kind == kind]


async def test_a_touch_spell_attacks_first_and_its_damage_lands_on_the_target(touch):
    before = len(await _rows(touch))
    touch.spells.rng = ScriptedRandom([*HIT, 9, 9, 9, 4, 3])
    view = await touch.spells.cast(HERE, ANA, CastOrder(spell="Toque eléctrico", target="Bram"))
    attack = view.touch
    assert attack is not None and attack.result.hit and attack.result.total == 19, (
        attack.result.attack
    )
    assert attack.result.damage == 7 and attack.result.weapon == "Toque eléctrico"
    assert str(view.result.check.outcome) == "success" and view.result.effect.total == 7
    assert (await sheet_of(touch, "Bram"))["heridas"] == 7  # 2d6 = 4 + 3, armour ignored
    assert (await sheet_of(touch, "Ardelia"))["mana_gastado"] == 1
    rows = await _rows(touch)
    assert len(rows) == before + 1  # one audit entry: the attack with the spell's damage
    (row,) = rows[before:]
    assert (row.kind, row.outcome, row.character_name, row.id) == (
        "attack",
        "hit",
        "Ardelia",
        view.log_id,
    )
    assert row.detail["undo"]["changes"] == [["heridas", 0, 7]]
    text = str([e.to_dict() for e in render_spells.cast(view, "es")["embeds"]])
    assert "Toque eléctrico" in text and "7" in text
    undone = await touch.undo.undo(HERE, GM, view.log_id)  # the GM takes the damage back
    assert undone.kind == "attack" and (await sheet_of(touch, "Bram"))["heridas"] == 0


async def test_a_missed_touch_casts_nothing_and_is_logged(touch):
    touch.spells.rng = ScriptedRandom(MISS)
    view = await touch.spells.cast(HERE, ANA, CastOrder(spell="Toque eléctrico", target="Bram"))
    assert view.touch is not None and not view.touch.result.hit and view.result.spent == 0
    assert (await sheet_of(touch, "Ardelia"))["mana_gastado"] == 0
    assert (await sheet_of(touch, "Bram"))["heridas"] == 0
    (row,) = await _rows(touch, "attack")
    assert row.outcome == "miss" and row.id == view.log_id
    message = render_spells.cast(view, "es")
    assert message["content"] == (
        "El toque no alcanza a Bram: Toque eléctrico no se lanza y no gasta maná."
    )


async def test_vampiric_touch_drains_to_the_caster_in_one_write(touch):
    await touch.combat.damage(HERE, GM, "Ardelia", 10)
    before = len(await _rows(touch))
    touch.spells.rng = ScriptedRandom([*HIT, 9, 9, 9, 5, 3])
    view = await touch.spells.cast(
        HERE, ANA, CastOrder(spell="Toque vampírico", target="Bram", extra_mana=8)
    )
    assert view.touch.result.damage == 8 and view.touch.result.change.to_attacker == 8
    assert view.own.health.amount == 8
    assert (await sheet_of(touch, "Bram"))["heridas"] == 8
    ardelia = await sheet_of(touch, "Ardelia")
    assert (ardelia["heridas"], ardelia["mana_gastado"]) == (2, 4 + 8)
    assert len(await _rows(touch)) == before + 1
    text = str([e.to_dict() for e in render_spells.cast(view, "es")["embeds"]])
    assert "Ardelia recibe 8 PV drenados" in text


async def test_a_touch_and_concurrent_damage_on_both_sheets_all_land(touch):
    """The touch's two writes recompute on the current versions after a clash: nothing the
    concurrent damage wrote is lost, on the target or on the caster."""
    await touch.combat.damage(HERE, GM, "Ardelia", 10)
    touch.spells.rng = ScriptedRandom([*HIT, 9, 9, 9, 5, 3] + [9, 9, 9, 5, 3] * 10)
    results = await asyncio.gather(
        touch.spells.cast(
            HERE, ANA, CastOrder(spell="Toque vampírico", target="Bram", extra_mana=8)
        ),
        *(touch.combat.damage(HERE, GM, "Bram", 1) for _ in range(3)),
        *(touch.combat.damage(HERE, GM, "Ardelia", 1) for _ in range(2)),
    )
    assert results[0].touch.result.damage == 8
    assert (await sheet_of(touch, "Bram"))["heridas"] == 8 + 3
    assert (await sheet_of(touch, "Ardelia"))["heridas"] == 10 - 8 + 2


async def test_espejo_de_sombras_makes_the_attack_on_its_caster_miss_by_the_bots_d100(touch):
    touch.spells.rng = ScriptedRandom([9, 9, 9])  # 9 + 1 + 9 = 19 ≥ 18
    cast = await touch.spells.cast(HERE, ANA, CastOrder(spell="Espejo de Sombras"))
    (mirror,) = effects.effects(await sheet_of(touch, "Ardelia"))
    assert (mirror.name, mirror.action.kind, mirror.action.percent) == (
        "Espejo de Sombras",
        "miss_chance",
        50,
    )
    assert cast.own.effect == mirror
    # Bram (same numbers as Ardelia, unarmed: 1d6) would hit Ardelia (19 ≥ 17) for 3, but
    # the d100 gives 37 ≤ 50
    touch.attacks.rng = ScriptedRandom([*HIT, 3, 37])
    view = await touch.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Bram"))
    assert not view.result.hit and "effects.note.miss_chance_missed" in view.notes
    assert (await sheet_of(touch, "Ardelia"))["heridas"] == 0
    text = str(render_attack.attack(view, "es")["embed"].to_dict())
    assert "Espejo de Sombras: " in text and "37" in text
    assert "engañan al atacante" in text
    # 51 > 50: the blow lands despite the images
    touch.attacks.rng = ScriptedRandom([*HIT, 3, 51])
    view = await touch.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Bram"))
    assert view.result.hit and "effects.note.miss_chance_hit" in view.notes
    assert (await sheet_of(touch, "Ardelia"))["heridas"] == view.result.damage > 0


async def test_a_touch_that_lands_but_whose_cast_fails_spends_the_mana_and_does_no_damage(touch):
    touch.spells.rng = ScriptedRandom([*HIT, 1, 1, 1])  # 10 + 1 = 11 < 14
    view = await touch.spells.cast(HERE, ANA, CastOrder(spell="Toque eléctrico", target="Bram"))
    assert view.touch.result.hit and view.touch.result.damage == 0
    assert "touch.note.cast_failed" in view.touch.notes
    assert (await sheet_of(touch, "Ardelia"))["mana_gastado"] == 1  # spent, as a failed cast
    assert (await sheet_of(touch, "Bram"))["heridas"] == 0
    text = str([e.to_dict() for e in render_spells.cast(view, "es")["embeds"]])
    assert "el hechizo falla" in text


async def test_touching_oneself_or_a_target_without_sheet_is_refused_clearly(touch):
    from bot.services.shared.errors import DomainError
    from bot.services.sheets.changes import TouchCast
    from rules.systems.base import SpellRequest

    def cast(fighter):
        return TouchCast(SpellRequest("Toque eléctrico"), touch.spells.rng, fighter)

    with pytest.raises(DomainError) as error:
        await touch.attacks.touch(HERE, ANA, AttackOrder("Ardelia"), cast)
    assert error.value.key == "touch.error.self"
    # neutral when the sheet has no gender (was: «a sí mismo» for everyone)
    text = problem_text(error.value.key, error.value.params, "es")
    assert (
        text
        == "Un conjuro de toque no se lanza sobre quien lo lanza: nombra a otro objetivo que no sea Ardelia."
    )
    feminine = dict(error.value.params, genero="femenino")
    assert "Ardelia no puede tocarse a sí misma" in problem_text(error.value.key, feminine, "es")
    await touch.combat.add(HERE, GM, "Lobos", initiative=2)
    with pytest.raises(DomainError) as error:
        await touch.attacks.touch(HERE, ANA, AttackOrder("Lobos"), cast)
    assert error.value.key == "touch.error.needs_sheets"
    assert (await sheet_of(touch, "Ardelia"))["mana_gastado"] == 0
