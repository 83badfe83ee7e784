"""The dead are not healed back nor attacked (issue 11), on SQLite and PostgreSQL.

Núcleo, rolweb and S&W (each ``pg_cero`` setting): ``/init heal``, a healing spell on a
target, Medicus, Aura de curación's tick and ``/attack`` refuse a dead target with its state
and change nothing; the GM's ``force`` heals the dead; someone down but alive is healed.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from sqlalchemy import update
from sqlmodel import select

from bot.db.models import Character, RollLog
from bot.i18n import t
from bot.services.campaigns.service import SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.play.spells import CastOrder
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.sheets.changes import AddEffect, TickEffects
from bot.words import problem_text
from rules.combat.effects import Effect, TurnAction
from rules.systems.base import RulesError
from tests.bot import test_attacks
from tests.bot.test_attacks import ANA, BEA, GM, HERE
from tests.bot.test_fight_tracker import _learn
from tests.examples import ARDELIA
from tests.rules.nucleo.conftest import ScriptedRandom
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.swc.test_attack_swc import aldara

#: S&W: Ana plays Aldara, the GM's hidden Orco (6 pg) is in the fight (tests/bot/test_attacks.py).
swc = test_attacks.swc
#: rolweb: Ana plays Ardelia, the GM's hidden Orco (Resistencia 12) is in the fight.
rolweb = test_attacks.rolweb


def _nucleo_pc(name: str) -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def nucleo(services):
    """Núcleo: Ardelia (Ana, Curación learnt), Bram (Bea), the hidden NPC Capitán; Físico 6,
    24 PV: Malherido at 18 wounds, Inconsciente at 24, Muerto at 36."""
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=HERE.channel_id, kind="channel"
    )
    await services.characters.create(HERE, ANA, _nucleo_pc("Ardelia"))
    await services.characters.create(HERE, BEA, _nucleo_pc("Bram"))
    await services.characters.create(HERE, GM, _nucleo_pc("Capitán"), is_npc=True, hidden=True)
    await services.combat.start(HERE, GM)
    await services.combat.join(HERE, ANA)
    await services.combat.join(HERE, BEA)
    await services.combat.add(HERE, GM, "Capitán", initiative=5)
    await _learn(services, "Ardelia", {"Curación": 1})
    return services


async def _sheet(services, name: str) -> dict:
    return dict((await services.characters.show(HERE, GM, name)).sheet)


async def _kinds(services) -> list[str]:
    async with services.sessions() as session:
        return [row.kind for row in (await session.exec(select(RollLog))).all()]


def _refused(error: pytest.ExceptionInfo[DomainError], key: str, name: str, state: str) -> None:
    params = error.value.params
    assert error.value.key == key and (params["name"], params["state"]) == (name, state)
    assert params["system"] in ("swc", "rolweb", "nucleo")  # whose id the state is


# -- Núcleo ---------------------------------------------------------------------------------


async def test_nucleo_init_heal_refuses_the_dead_and_only_the_gm_can_force_it(nucleo):
    assert (await nucleo.combat.damage(HERE, GM, "Bram", 36)).label == "muerto"
    before = await _kinds(nucleo)
    with pytest.raises(DomainError) as refused:
        await nucleo.combat.heal(HERE, GM, "Bram", 10)
    _refused(refused, "dead.error.no_heal", "Bram", "muerto")
    text = problem_text(refused.value.key, refused.value.params, "es")
    assert text.startswith("No se puede curar a Bram: su estado es «muerto»")
    english = problem_text(refused.value.key, refused.value.params, "en")
    assert english.startswith("Bram cannot be healed: their state is “dead”")
    with pytest.raises(NotReferee) as not_gm:  # a player cannot raise the dead
        await nucleo.combat.heal(HERE, BEA, "Bram", 10, force=True)
    assert not_gm.value.key == "dead.error.force_gm_only"
    assert (await _sheet(nucleo, "Bram"))["heridas"] == 36 and await _unchanged(nucleo, before)
    raised = await nucleo.combat.heal(HERE, GM, "Bram", 10, force=True)
    assert (raised.label, raised.hit_points) == ("inconsciente", (-2, 24)) and raised.undo


async def _unchanged(services, before: list[str]) -> bool:
    """Nothing was logged since ``before``."""
    return await _kinds(services) == before


async def test_nucleo_the_unconscious_are_healed_back(nucleo):
    assert (await nucleo.combat.damage(HERE, GM, "Bram", 30)).label == "inconsciente"
    healed = await nucleo.combat.heal(HERE, GM, "Bram", 10)
    assert (healed.label, healed.hit_points) == ("malherido", (4, 24))


async def test_nucleo_a_healing_spell_on_the_dead_casts_nothing_and_spends_no_mana(nucleo):
    await nucleo.combat.damage(HERE, GM, "Bram", 40)
    before = (await _sheet(nucleo, "Ardelia")).get("mana_gastado", 0)
    logged = await _kinds(nucleo)
    nucleo.spells.rng = ScriptedRandom([9, 9, 9, 4, 3])
    with pytest.raises(DomainError) as refused:
        await nucleo.spells.cast(HERE, ANA, CastOrder(spell="Curación", target="Bram"))
    _refused(refused, "dead.error.no_heal", "Bram", "muerto")
    assert (await _sheet(nucleo, "Ardelia")).get("mana_gastado", 0) == before
    assert (await _sheet(nucleo, "Bram"))["heridas"] == 40 and await _unchanged(nucleo, logged)


async def test_nucleo_an_aura_does_not_heal_the_dead_at_its_tick(nucleo):
    aura = Effect("Aura de curación", 3, action=TurnAction("heal", "1d6"))
    await nucleo.writer.apply(HERE, GM, AddEffect(aura), name="Bram")
    await nucleo.combat.damage(HERE, GM, "Bram", 36)
    applied = await nucleo.writer.apply(HERE, GM, TickEffects(random.Random(1)), name="Bram")
    assert applied.value.rolls == () and applied.value.health is None
    sheet = await _sheet(nucleo, "Bram")
    assert sheet["heridas"] == 36  # the round is still counted: the aura runs out as usual


async def test_nucleo_attacking_a_dead_hidden_npc_is_refused_without_numbers(nucleo):
    await nucleo.combat.damage(HERE, GM, "Capitán", 36)
    logged = await _kinds(nucleo)
    with pytest.raises(DomainError) as refused:
        await nucleo.attacks.attack(HERE, ANA, AttackOrder("Capitán"))
    _refused(refused, "dead.error.no_attack", "Capitán", "muerto")
    for lang in ("es", "en"):
        text = t(refused.value.key, lang, **refused.value.params)
        assert "Capitán" in text and "muerto" in text
        assert not any(ch.isdigit() for ch in text)  # no PV, no Defensa
    assert await _unchanged(nucleo, logged)


# -- rolweb ---------------------------------------------------------------------------------


async def _set(services, name: str, **fields) -> None:
    """Test setup: put fields on a sheet straight in the database."""
    async with services.sessions() as session, session.begin():
        row = (await session.exec(select(Character).where(Character.name == name))).one()
        await session.exec(
            update(Character)
            .where(Character.id == row.id)
            .values(sheet={**row.sheet, **fields}, version=Character.version + 1)
        )


async def test_rolweb_medicus_and_init_heal_refuse_the_dead_but_stabilise_the_dying(rolweb):
    pc = test_attacks.rolweb_pc() | {"name": "Eira"}
    pc["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    pc["habilidades"] = {"Medicus": "principiante"}
    await rolweb.characters.create(HERE, BEA, pc)
    await rolweb.combat.join(HERE, ANA)
    resistencia = (await _sheet(rolweb, "Ardelia"))["resistencia"] | {"actual": 0}
    await _set(rolweb, "Ardelia", estado="muerto", resistencia=resistencia)
    logged = await _kinds(rolweb)
    with pytest.raises(DomainError) as refused:
        await rolweb.abilities.use(HERE, BEA, "Medicus", target="Ardelia")
    _refused(refused, "dead.error.no_heal", "Ardelia", "muerto")
    with pytest.raises(DomainError) as init_heal:
        await rolweb.combat.heal(HERE, GM, "Ardelia", 3)
    _refused(init_heal, "dead.error.no_heal", "Ardelia", "muerto")
    with pytest.raises(RulesError, match="already_dead"):  # seed 001: a new character instead
        await rolweb.combat.heal(HERE, GM, "Ardelia", 3, force=True)
    assert await _unchanged(rolweb, logged)
    await _set(rolweb, "Ardelia", estado="moribundo")  # dying, not dead: healed back
    view = await rolweb.abilities.use(HERE, BEA, "Medicus", target="Ardelia")
    assert view.healed and (await _sheet(rolweb, "Ardelia"))["estado"] == "activo"


async def test_rolweb_attacking_a_dead_npc_is_refused(rolweb):
    assert (await rolweb.combat.damage(HERE, GM, "Orco", 12)).state == "muerto"
    logged = await _kinds(rolweb)
    with pytest.raises(DomainError) as refused:
        await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    _refused(refused, "dead.error.no_attack", "Orco", "muerto")
    assert await _unchanged(rolweb, logged)


# -- S&W: "dead" depends on pg_cero ---------------------------------------------------------


async def _pg_cero(services, rule: str) -> None:
    await services.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("pg_cero", rule))
    )


@pytest.mark.parametrize(
    ("rule", "damage", "dead"),
    [
        ("incapacitado", 30, False),  # seed 000: incapacitated, never dead by hit points
        ("muere_a_menos_10", 19, False),  # −9: still alive
        ("muere_a_menos_10", 20, True),  # −10: dead
        ("muere_a_0", 9, False),  # 1 pg
        ("muere_a_0", 10, True),  # 0: dead
    ],
)
async def test_swc_heal_follows_pg_cero(swc, rule, damage, dead):
    await _pg_cero(swc, rule)
    await swc.combat.join(HERE, ANA)
    full = (await _sheet(swc, "Aldara"))["pg"]["max"]
    await swc.combat.damage(HERE, GM, "Aldara", damage + full - 10)  # Aldara at 10 − damage
    left = (await _sheet(swc, "Aldara"))["pg"]["actual"]
    assert left == 10 - damage
    if dead:
        with pytest.raises(DomainError) as refused:
            await swc.combat.heal(HERE, GM, "Aldara", 15)
        _refused(refused, "dead.error.no_heal", "Aldara", "muerto")
        assert (await _sheet(swc, "Aldara"))["pg"]["actual"] == left
        raised = await swc.combat.heal(HERE, GM, "Aldara", 15, force=True)
        assert raised.hit_points[0] == min(full, left + 15)
    else:
        healed = await swc.combat.heal(HERE, GM, "Aldara", 15)
        assert healed.hit_points[0] == min(full, left + 15)


async def test_swc_a_felled_monster_is_not_attacked_again(swc):
    swc.attacks.rng = FixedRandom(13, 7)
    assert (await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))).state == "abatido"
    with pytest.raises(DomainError) as refused:
        await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    _refused(refused, "dead.error.no_attack", "Orco", "abatido")
    assert len([k for k in await _kinds(swc) if k == "attack"]) == 1


async def test_swc_two_killing_blows_at_once_land_once(swc):
    """Both players roll against the living orc; the write that comes second sees it felled
    on the current version and is refused: one hit, one refusal, nothing lost or doubled."""
    await swc.characters.create(HERE, BEA, aldara(name="Brisa"))
    swc.attacks.rng = FixedRandom(13, 7, 13, 7)
    results = await asyncio.gather(
        swc.attacks.attack(HERE, ANA, AttackOrder("Orco")),
        swc.attacks.attack(HERE, BEA, AttackOrder("Orco")),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(landed) == 1 and len(refused) == 1, results
    assert refused[0].key == "dead.error.no_attack"
    assert (await _sheet(swc, "Orco"))["pg"]["actual"] == 6 - 8
    assert [k for k in await _kinds(swc) if k == "attack"] == ["attack"]
