"""Rolweb's pain threshold and «en el suelo» through the services, on SQLite and PostgreSQL
(issue 23 §1; seed 001 UMBRAL DE DOLOR line 131, LEVANTARSE lines 60 and 181, VENTAJA line
216): the hit asks for the choice, whoever may chooses it once (two presses choose once), its
consequence is applied, an unmade choice gets the campaign's default as the hurt one's turn
begins, getting up is paid from the turn's actions, and the fight's end gets everyone up."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services.campaigns.service import SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed
from tests.bot import test_attacks
from tests.bot.test_attacks import ANA, GM, HERE
from tests.rules.rolweb.conftest import FixedRandom

#: Ana plays Ardelia (Ágil 12, Fuerte 11: Umbral 6); the GM's hidden Orco (Fuerte 12: Umbral
#: 6, Ágil 11) is in the fight.
rolweb = test_attacks.rolweb
DOWN, FREE = 0, 1  # the options' places: «Caer al suelo», «Ataque gratuito»


async def _ardelias_turn(services) -> None:
    await services.combat.join(HERE, ANA, "Ardelia")
    await services.combat.move(HERE, GM, "Ardelia", 13)
    await services.combat.next(HERE, GM)  # round 1: Ardelia, then the orc


async def _orc_hurt(services):
    """Ardelia hits the orc for 7 (≥ its Umbral 6): [Diestro←Defensa] d20 9 ≤ 13, Espada 7."""
    services.attacks.rng = FixedRandom(9, 7)
    return await services.attacks.attack(HERE, ANA, AttackOrder("Orco"))


async def _sheet(services, name):
    return (await services.characters.show(HERE, GM, name)).sheet


async def test_the_hit_asks_the_gm_for_an_npc_and_the_choice_lands_once(rolweb):
    await _ardelias_turn(rolweb)
    view = await _orc_hurt(rolweb)
    ask = view.pain
    assert ask is not None and (ask.name, ask.attacker, ask.ref) == ("Orco", "Ardelia", 1)
    assert ask.chooser_id is None  # an NPC's choice is the GM's
    assert ask.secrecy.npc_id == ask.character_id  # a hidden NPC's: never in the channel
    with pytest.raises(NotAllowed) as theirs:
        await rolweb.pain.choose(HERE, ANA, ask.character_id, ask.ref, DOWN)
    assert theirs.value.key == "pain.error.not_yours"
    made = await rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, DOWN)
    assert made.prone and made.choice == "derribado" and not made.by_default
    sheet = await _sheet(rolweb, "Orco")
    assert sheet["en_el_suelo"] is True and "umbral_pendiente" not in sheet
    with pytest.raises(DomainError) as again:
        await rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, FREE)
    assert again.value.key == "pain.problem.not_owed"


async def test_two_presses_at_once_choose_once(rolweb):
    await _ardelias_turn(rolweb)
    ask = (await _orc_hurt(rolweb)).pain
    assert ask is not None
    results = await asyncio.gather(
        rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, DOWN),
        rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, FREE),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, (DomainError, ConcurrentChange))]
    assert len(made) == 1 and len(refused) == 1, results
    assert (await _sheet(rolweb, "Orco")).get("en_el_suelo", False) is made[0].prone
    async with rolweb.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.kind == "pain"))).all()
    assert [row.detail["choice"] for row in rows] == [made[0].choice]


async def test_a_players_character_chooses_the_free_attack_for_its_attacker(rolweb):
    """The orc's Hacha hits Ardelia for 6 (her Umbral 6): Ana chooses; the orc's free attack
    is a reaction its GM makes at once, once a round."""
    await _ardelias_turn(rolweb)
    await rolweb.combat.next(HERE, ANA)  # the orc's turn
    rolweb.attacks.rng = FixedRandom(20, 8, 2)  # her defence 20 fails; Hacha 8 − Ligera 2
    view = await rolweb.attacks.attack(
        HERE, GM, AttackOrder("Ardelia", character="Orco", defence_now=True)
    )
    assert view.result.damage == 6
    ask = view.pain
    assert ask is not None and ask.chooser_id == ANA.user_id and ask.attacker == "Orco"
    made = await rolweb.pain.choose(HERE, ANA, ask.character_id, ask.ref, FREE)
    assert made.free_attack and not made.prone and made.attacker == "Orco"
    free = AttackOrder(
        "Ardelia", character="Orco", defence_now=True, circumstances="ataque_libre_dolor"
    )
    rolweb.attacks.rng = FixedRandom(1)  # she parries it
    parried = await rolweb.attacks.attack(HERE, GM, free)
    assert "rolweb_fight.note.free_umbral_de_dolor" in parried.notes
    with pytest.raises(DomainError) as twice:  # one per trigger, attacker and round
        await rolweb.attacks.attack(HERE, GM, free)
    assert twice.value.key == "rolweb_fight.error.free_attack_used"


async def test_unchosen_when_its_turn_begins_the_default_applies(rolweb):
    await _ardelias_turn(rolweb)
    await _orc_hurt(rolweb)
    view = await rolweb.combat.next(HERE, ANA)  # the orc's turn begins: nobody chose
    assert view.current is not None and view.current.name == "Orco"
    assert [(d.choice, d.by_default) for d in view.pain_defaults] == [("derribado", True)]
    assert view.current.prone and not view.current.choice_owed
    assert (await _sheet(rolweb, "Orco"))["en_el_suelo"] is True


async def test_the_default_is_the_campaigns_setting(rolweb):
    await rolweb.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("umbral_por_defecto", "ataque_gratuito"))
    )
    await _ardelias_turn(rolweb)
    await _orc_hurt(rolweb)
    view = await rolweb.combat.next(HERE, ANA)
    assert [d.choice for d in view.pain_defaults] == ["ataque_gratuito"]
    assert not view.current.prone and "en_el_suelo" not in await _sheet(rolweb, "Orco")


async def test_melee_against_the_fallen_has_advantage(rolweb):
    await _ardelias_turn(rolweb)
    ask = (await _orc_hurt(rolweb)).pain
    await rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, DOWN)
    await rolweb.combat.next(HERE, ANA)  # the orc's turn
    view = await rolweb.combat.next(HERE, GM)  # round 2: Ardelia's
    assert view.current is not None and view.current.name == "Ardelia"
    assert any(line.prone for line in view.lines if line.name == "Orco")
    rolweb.attacks.rng = FixedRandom(15, 1, 1)  # 15 ≤ 13 + 2 (Ventaja) hits
    hit = await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert hit.result.hit and ("Ventaja", 2) in hit.result.modifiers


async def test_getting_up_is_paid_from_the_turn(rolweb):
    """On its turn the orc (Ágil 11) stands with a 5 for one movement action; with a 15 it
    needs the whole turn — after its attack it has not got it, and stays down."""
    await _ardelias_turn(rolweb)
    ask = (await _orc_hurt(rolweb)).pain
    await rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, DOWN)
    with pytest.raises(DomainError) as early:  # not its turn: it waits for it
        rolweb.pain.rng = FixedRandom(5)
        await rolweb.pain.stand(HERE, GM, "Orco")
    assert early.value.key == "actions.problem.not_your_turn"
    await rolweb.combat.next(HERE, ANA)  # the orc's turn
    rolweb.attacks.rng = FixedRandom(1)  # its axe: Ardelia parries with a 1
    await rolweb.attacks.attack(
        HERE, GM, AttackOrder("Ardelia", character="Orco", defence_now=True)
    )
    rolweb.pain.rng = FixedRandom(15)
    down = await rolweb.pain.stand(HERE, GM, "Orco")
    assert down.in_fight and not down.stood and down.success is False
    assert (await _sheet(rolweb, "Orco"))["en_el_suelo"] is True
    with pytest.raises(DomainError) as spent:  # the movement action is gone
        rolweb.pain.rng = FixedRandom(5)
        await rolweb.pain.stand(HERE, GM, "Orco")
    assert spent.value.key == "actions.problem.none_left"
    await rolweb.combat.next(HERE, GM)  # round 2: Ardelia
    view = await rolweb.combat.next(HERE, ANA)  # the orc again, still down
    assert view.current is not None and view.current.prone
    rolweb.pain.rng = FixedRandom(5)
    up = await rolweb.pain.stand(HERE, GM, "Orco")
    assert up.stood and up.success and up.breakdown == "1d20 (5) ≤ 11"
    assert dict(up.left) == {"principal": 1, "movimiento": 0}
    assert "en_el_suelo" not in await _sheet(rolweb, "Orco")


async def test_only_its_player_or_the_gm_gets_it_up(rolweb):
    await _ardelias_turn(rolweb)
    ask = (await _orc_hurt(rolweb)).pain
    await rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, DOWN)
    with pytest.raises(DomainError):  # Ana may not even name the hidden orc
        await rolweb.pain.stand(HERE, ANA, "Orco")
    with pytest.raises(DomainError) as standing:
        await rolweb.pain.stand(HERE, ANA, "Ardelia")
    assert standing.value.key == "pain.problem.not_prone"


async def test_the_end_of_the_fight_gets_everyone_up(rolweb):
    await _ardelias_turn(rolweb)
    await _orc_hurt(rolweb)  # owed, unchosen
    await rolweb.combat.end(HERE, GM)
    sheet = await _sheet(rolweb, "Orco")
    assert "en_el_suelo" not in sheet and "umbral_pendiente" not in sheet
    # outside a fight a fall is got up at once, nothing rolled
    await rolweb.characters.update_sheet(
        HERE, GM, "Orco", lambda s, _sys, _set: s | {"en_el_suelo": True}
    )
    up = await rolweb.pain.stand(HERE, GM, "Orco")
    assert up.stood and not up.in_fight and up.success is None


async def test_the_gms_damage_asks_for_the_choice_too(rolweb):
    """``/init damage`` (armour already off): 6 on Ardelia (Umbral 6) asks her player."""
    await _ardelias_turn(rolweb)
    view = await rolweb.combat.damage(HERE, GM, "Ardelia", 6)
    ask = view.pain
    assert ask is not None and ask.chooser_id == ANA.user_id and ask.attacker is None
    assert (await rolweb.combat.damage(HERE, GM, "Ardelia", 1)).pain is None  # under it


async def test_counting_nothing_still_rolls_agil_in_a_fight(rolweb):
    """``acciones_por_turno`` = ``libre``: nothing is counted, the test is still the seed's."""
    await rolweb.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("acciones_por_turno", "libre"))
    )
    await _ardelias_turn(rolweb)
    ask = (await _orc_hurt(rolweb)).pain
    await rolweb.pain.choose(HERE, GM, ask.character_id, ask.ref, DOWN)
    rolweb.pain.rng = FixedRandom(15)
    up = await rolweb.pain.stand(HERE, GM, "Orco")
    assert up.in_fight and up.success is False and up.stood  # the whole turn, uncounted
    assert up.breakdown == "1d20 (15) ≤ 11" and up.left == ()
