"""``/attack`` against a real database (SQLite and PostgreSQL): seeded dice, exact numbers.

The worked examples are the rules tests' ones (docs/combat.md quotes them): here they go
through the service — permissions, the fight's combatants, the one versioned write with the
audit row, the hidden NPC's secrecy flag and concurrent attacks on the same NPC.
"""

from __future__ import annotations

import asyncio
import copy

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from rules.combat.attack import AttackOutcome
from rules.systems.base import RulesError
from tests.rules.nucleo.conftest import ARDELIA, ScriptedRandom
from tests.rules.nucleo.test_attack import _brute
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.rolweb.test_fight import ardelia as rolweb_pc
from tests.rules.rolweb.test_fight import orc as rolweb_orc
from tests.rules.swc.test_attack_swc import aldara, orc

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BEA = Actor(3, "Bea")


async def _campaign(services, system):
    await services.campaigns.create(
        HERE, GM, name="Prueba", system=system, target_id=CHANNEL, kind="channel"
    )


async def _logs(services):
    async with services.sessions() as session:
        return (await session.exec(select(RollLog).where(RollLog.kind == "attack"))).all()


@pytest.fixture
async def swc(services):
    """Ana plays Aldara; the GM's Orco is hidden and in the fight."""
    await _campaign(services, "swc")
    await services.characters.create(HERE, ANA, aldara())
    await services.characters.create(HERE, GM, orc(), is_npc=True, hidden=True)
    await services.combat.start(HERE, GM)
    await services.combat.add(HERE, GM, "Orco", initiative=5)
    return services


async def test_swc_hit_lands_on_the_hidden_npc_in_one_write(swc):
    """Tabla 31 against AC 6: 13.  d20 13 + Fuerza 1 = 14 hits; 1d8 7 + 1 = 8: the orc
    (6 pg) is down."""
    swc.attacks.rng = FixedRandom(13, 7)
    view = await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    result = view.result
    assert result.outcome is AttackOutcome.HIT and (result.total, result.damage) == (14, 8)
    assert view.secret and view.attacker == "Aldara" and view.target == "Orco"
    assert view.state == "abatido" and view.description
    sheet = (await swc.characters.show(HERE, GM, "Orco")).sheet
    assert sheet["pg"]["actual"] == -2
    (row,) = await _logs(swc)
    assert (row.id, row.character_name, row.total, row.outcome) == (
        view.log_id,
        "Aldara",
        14,
        "hit",
    )
    assert row.difficulty is None  # the hidden orc's target number stays in detail.secret
    secret = row.detail["secret"]
    assert {k: secret[k] for k in ("target_number", "defence", "hit_points_left")} == {
        "target_number": 13,
        "defence": 6,
        "hit_points_left": -2,
    }


async def test_swc_a_miss_is_logged_and_changes_nothing(swc):
    swc.attacks.rng = FixedRandom(11)
    view = await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert view.result.outcome is AttackOutcome.MISS and view.result.damage == 0
    assert (await swc.characters.show(HERE, GM, "Orco")).sheet["pg"]["actual"] == 6
    (row,) = await _logs(swc)
    assert row.outcome == "miss"


async def test_the_setting_or_a_reveal_shows_the_numbers(swc):
    await swc.npcs.set_visibility(HERE, GM, "Orco", False)
    swc.attacks.rng = FixedRandom(11)
    assert not (await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))).secret


async def test_players_attack_only_with_their_own_characters(swc):
    with pytest.raises(NotAllowed):
        await swc.attacks.attack(HERE, BEA, AttackOrder("Orco", character="Aldara"))
    with pytest.raises(NotAllowed):
        await swc.attacks.attack(HERE, ANA, AttackOrder("Aldara", character="Orco"))
    assert await _logs(swc) == []


async def test_the_gm_attacks_with_the_npc_and_a_dead_one_is_refused(swc):
    swc.attacks.rng = FixedRandom(13, 7)
    await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))  # the orc is down
    with pytest.raises(RulesError):
        await swc.attacks.attack(HERE, GM, AttackOrder("Aldara", character="Orco"))


async def test_a_hidden_npc_outside_the_fight_cannot_be_found_by_players(swc):
    await swc.characters.create(HERE, GM, orc(name="Espía"), is_npc=True, hidden=True)
    with pytest.raises(DomainError):
        await swc.attacks.attack(HERE, ANA, AttackOrder("Espía"))


async def test_a_sheetless_group_is_unjudged_and_attacks_with_the_gms_numbers(swc):
    await swc.combat.add(HERE, GM, "3 trasgos", initiative=4)
    swc.attacks.rng = FixedRandom(15)
    view = await swc.attacks.attack(HERE, ANA, AttackOrder("3 trasgos"))
    assert view.result.outcome is AttackOutcome.UNJUDGED and view.result.total == 16
    assert view.target_sheetless
    swc.attacks.rng = FixedRandom(20, 4)
    hit = await swc.attacks.attack(
        HERE, GM, AttackOrder("Aldara", character="3 trasgos", bonus=1, damage="1d6")
    )
    assert hit.result.attack is not None and hit.result.total == 21
    with pytest.raises(NotReferee):
        await swc.attacks.attack(HERE, ANA, AttackOrder("Aldara", character="3 trasgos"))
    assert len(await _logs(swc)) == 2


async def test_two_players_hit_the_same_npc_at_once_and_no_damage_is_lost(swc):
    """Both writes are compare-and-set on the orc's sheet: 8 + 8 from 30 pg leaves 14."""
    await swc.characters.create(HERE, BEA, aldara(name="Brisa"))
    await swc.characters.update_sheet(
        HERE, GM, "Orco", lambda s, _sys, _set: s | {"pg": {"max": 30, "actual": 30}}
    )
    swc.attacks.rng = FixedRandom(13, 7, 13, 7)
    views = await asyncio.gather(
        swc.attacks.attack(HERE, ANA, AttackOrder("Orco")),
        swc.attacks.attack(HERE, BEA, AttackOrder("Orco")),
    )
    assert [v.result.damage for v in views] == [8, 8]
    assert (await swc.characters.show(HERE, GM, "Orco")).sheet["pg"]["actual"] == 14
    assert len(await _logs(swc)) == 2


@pytest.fixture
async def rolweb(services):
    await _campaign(services, "rolweb")
    pc = rolweb_pc()
    pc["atributos"] |= {"Astuto": 5, "Persuasivo": 8}  # the campaign's pool of 80
    npc = rolweb_orc()
    npc["atributos"] |= {"Astuto": 5}
    await services.characters.create(HERE, ANA, pc)
    await services.characters.create(HERE, GM, npc, is_npc=True, hidden=True)
    await services.combat.start(HERE, GM)
    await services.combat.add(HERE, GM, "Orco", initiative=5)
    return services


async def test_rolweb_character_hits_and_the_pain_threshold_is_announced(rolweb):
    """[Diestro←Defensa] 14 + (10 − 11) = 13: d20 9 hits; Espada 1d8 7 ≥ Umbral 6."""
    rolweb.attacks.rng = FixedRandom(9, 7)
    view = await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert view.result.hit and view.result.damage == 7
    assert (view.result.total, view.result.target_number) == (9, 13)  # docs/combat.md
    assert "rolweb.note.pain_threshold" in view.notes
    assert (await rolweb.characters.show(HERE, GM, "Orco")).sheet["resistencia"]["actual"] == 5


async def test_rolweb_npc_attack_rolls_the_defence_at_once(rolweb):
    """The orc attacks Ardelia: [Defensa←Diestro] 8; d20 12 fails; Hacha 6 − Ligera 4 = 2."""
    before = (await rolweb.characters.show(HERE, ANA)).sheet["resistencia"]["actual"]
    rolweb.attacks.rng = FixedRandom(12, 6, 4)
    order = AttackOrder("Ardelia", character="Orco", defence_now=True)
    view = await rolweb.attacks.attack(HERE, GM, order)
    assert view.result.hit and view.result.damage == 2
    assert (view.result.total, view.result.target_number) == (12, 8)  # docs/combat.md
    assert [r.breakdown for r in view.result.damage_rolls] == ["1d8 (6) = 6", "1d4 (4) = 4"]
    after = (await rolweb.characters.show(HERE, ANA)).sheet["resistencia"]["actual"]
    assert after == before - 2


async def test_nucleo_melee_hit_with_golpe_duro(services):
    """Físico 8 + Armas cuerpo a cuerpo 2 + 1o3d10 (7, 2, 9 → 7) = 17 against Defensa 17:
    hit; Espada larga 2d6 (3, 4) + Golpe Duro 1 = 8 of Ardelia's 24 PV."""
    await _campaign(services, "nucleo")
    await services.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("creacion_estricta", "no"))
    )  # the brute is the rules tests' sheet, built past the creation pyramid
    await services.characters.create(HERE, ANA, copy.deepcopy(ARDELIA))
    brute = _brute() | {"name": "Bruto"}
    await services.characters.create(HERE, GM, brute, is_npc=True)
    services.attacks.rng = ScriptedRandom([7, 2, 9, 3, 4])
    view = await services.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Bruto"))
    assert view.result.hit and (view.result.total, view.result.damage) == (17, 8)
    assert view.result.attack.breakdown == "1o3d10 (7, ~~2~~, ~~9~~) + 10 = 17"  # docs/combat.md
    assert not view.secret and view.hit_points == (16, 24)
    assert (await services.characters.show(HERE, ANA)).sheet["heridas"] == 8


async def test_nucleo_range_and_cover_are_checked(services):
    await _campaign(services, "nucleo")
    await services.characters.create(HERE, ANA, copy.deepcopy(ARDELIA))
    with pytest.raises(DomainError):
        await services.attacks.attack(HERE, ANA, AttackOrder("Ardelia", cover="total"))
    with pytest.raises(DomainError):
        await services.attacks.attack(HERE, ANA, AttackOrder("Ardelia", range_band="lejos"))


async def test_rolweb_defence_request_is_answered_once_by_the_targets_player(rolweb):
    """Without ``defence_now`` nothing is rolled: a pending row; Bea may not press, Ana's
    press rolls d20 12 (> 8: hit), Hacha 6 − Ligera 4 = 2; a second press is refused."""
    before = (await rolweb.characters.show(HERE, ANA)).sheet["resistencia"]["actual"]
    rolweb.attacks.rng = FixedRandom()
    asked = await rolweb.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Orco"))
    assert asked.result.outcome is AttackOutcome.DEFENCE_REQUESTED
    assert (asked.defence_version, asked.defender_id) == (1, ANA.user_id)
    assert asked.secret  # the hidden orc's Diestro would show in the defence target
    with pytest.raises(NotAllowed):
        await rolweb.attacks.defend(HERE, BEA, asked.log_id, 1)
    with pytest.raises(DomainError) as stale:
        await rolweb.attacks.defend(HERE, ANA, asked.log_id, 2)
    assert stale.value.key == "attack.error.defence_stale"
    rolweb.attacks.rng = FixedRandom(12, 6, 4)
    view = await rolweb.attacks.defend(HERE, ANA, asked.log_id, 1)
    assert view.result.hit and view.result.damage == 2
    after = (await rolweb.characters.show(HERE, ANA)).sheet["resistencia"]["actual"]
    assert after == before - 2
    with pytest.raises(DomainError) as late:
        await rolweb.attacks.defend(HERE, GM, asked.log_id, 1)
    assert late.value.key == "attack.error.defence_stale"
    outcomes = sorted(row.outcome for row in await _logs(rolweb))
    assert outcomes == ["defence_answered", "hit"]


async def test_rolweb_two_presses_at_once_apply_the_defence_once(rolweb):
    before = (await rolweb.characters.show(HERE, ANA)).sheet["resistencia"]["actual"]
    asked = await rolweb.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Orco"))
    rolweb.attacks.rng = FixedRandom(12, 6, 4, 12, 6, 4)
    results = await asyncio.gather(
        rolweb.attacks.defend(HERE, ANA, asked.log_id, 1),
        rolweb.attacks.defend(HERE, GM, asked.log_id, 1),
        return_exceptions=True,
    )
    assert sum(isinstance(r, DomainError) for r in results) == 1
    after = (await rolweb.characters.show(HERE, ANA)).sheet["resistencia"]["actual"]
    assert after == before - 2


async def test_without_a_gm_channel_the_numbers_wait_for_the_gm_once(swc):
    swc.attacks.rng = FixedRandom(13, 7)
    await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert await swc.attacks.take_notes(HERE, ANA) == ()  # a player never gets them
    (note,) = await swc.attacks.take_notes(HERE, GM)
    assert (note.attacker, note.target, note.outcome, note.total) == ("Aldara", "Orco", "hit", 14)
    assert (note.target_number, note.defence, note.hit_points_left, note.damage) == (13, 6, -2, 8)
    assert await swc.attacks.take_notes(HERE, GM) == ()  # handed out once


async def test_with_a_gm_channel_no_note_is_kept(swc):
    await swc.campaigns.update_settings(HERE, GM, SettingsChange(gm_channel_id=99))
    swc.attacks.rng = FixedRandom(13, 7)
    view = await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert view.secret and view.gm_channel_id == 99
    assert await swc.attacks.take_notes(HERE, GM) == ()


async def test_a_group_with_the_gms_numbers_is_judged_and_wounded_in_the_fight(swc):
    """3 trasgos, AC 6, 10 pg each: Aldara's 13 + 1 = 14 ≥ 13 hits for 1d8 7 + 1 = 8; then
    two concurrent hits of 8 — both land on the fight's state: the first fells the one in
    front (2 left), the second wounds the next (10 - 8 = 2)."""
    await swc.combat.add(HERE, GM, "3 trasgos", initiative=4, count=3, defence=6, hit_points=10)
    swc.attacks.rng = FixedRandom(13, 7)
    view = await swc.attacks.attack(HERE, ANA, AttackOrder("3 trasgos"))
    assert view.result.outcome is AttackOutcome.HIT and view.result.damage == 8
    assert view.secret and view.hit_points == (2, 10)
    await swc.characters.create(HERE, BEA, aldara(name="Brisa"))
    swc.attacks.rng = FixedRandom(13, 7, 13, 7)
    await asyncio.gather(
        swc.attacks.attack(HERE, ANA, AttackOrder("3 trasgos")),
        swc.attacks.attack(HERE, BEA, AttackOrder("3 trasgos")),
    )
    record = await swc.attacks.sides.fight(HERE)
    (group,) = [c for c in record.state["combatants"] if c["name"] == "3 trasgos"]
    assert (group["hit_points"], group["max_hit_points"], group["defence"]) == (2, 10, 6)
    assert (group["count"], group["fallen"]) == (2, 1)
    assert len(await _logs(swc)) == 3


async def test_numbers_for_a_character_with_a_sheet_are_refused(swc):
    with pytest.raises(DomainError) as error:
        await swc.combat.add(HERE, GM, "Aldara", initiative=3, defence=4)
    assert error.value.key == "attack.error.numbers_on_sheet"


async def test_bonus_and_damage_for_an_attacker_with_a_sheet_are_refused(swc):
    """Was: the GM's «/attack target:Aldara character:Orco damage:2d6» rolled the orc's own
    weapon, the typed damage silently dropped (the systems read it only without a sheet)."""
    for order in (
        AttackOrder("Aldara", character="Orco", damage="2d6"),
        AttackOrder("Aldara", character="Orco", bonus=2),
    ):
        with pytest.raises(DomainError) as error:
            await swc.attacks.attack(HERE, GM, order)
        assert error.value.key == "attack.error.attack_options_on_sheet"
    assert await _logs(swc) == []


async def test_swc_natural_20_doubles_the_damage_by_the_campaigns_setting(swc):
    """naturales_ataque: critico — d20 20 + 1 = 21, 1d8 7 + 1 = 8 doubled: 16 of 30 pg."""
    await swc.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("naturales_ataque", "critico"))
    )
    await swc.characters.update_sheet(
        HERE, GM, "Orco", lambda s, _sys, _set: s | {"pg": {"max": 30, "actual": 30}}
    )
    swc.attacks.rng = FixedRandom(20, 7)
    view = await swc.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert view.result.critical and (view.result.total, view.result.damage) == (21, 16)
    assert "swc.note.critical_double" in view.notes
    assert (await swc.characters.show(HERE, GM, "Orco")).sheet["pg"]["actual"] == 14


async def test_suggestions_put_the_fights_combatants_first_and_show_weapon_damage(swc):
    await swc.combat.add(HERE, GM, "3 trasgos", initiative=4)
    names = await swc.attacks.targets(HERE, ANA, "")
    assert names[:2] == ["Orco", "3 trasgos"] and "Aldara" in names
    assert "Orco" not in (await swc.characters.names(HERE, ANA, ""))  # hidden outside the fight
    weapons = await swc.attacks.weapons(HERE, ANA, None)
    assert [(w.value, w.description) for w in weapons] == [
        ("Espada larga", "1d8"),
        ("Arco corto", "1d6"),
    ]


async def test_a_players_history_and_export_keep_the_hidden_npcs_numbers_out(rolweb):
    """rolweb's attack line prints the target number (``1d20 (9) ≤ 13``): the log row shows
    the total only, the full line waits in ``detail.secret`` for the GM, and the player's
    data export leaves that out."""
    rolweb.attacks.rng = FixedRandom(9, 7)
    await rolweb.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    (row,) = await _logs(rolweb)
    assert "13" not in row.breakdown and row.difficulty is None
    assert row.detail["secret"]["breakdown"].startswith("Diestro←Defensa: 1d20 (9) ≤ 13")
    exported = await rolweb.privacy.export(GUILD, ANA.user_id)
    (mine,) = [r for r in exported["rolls"] if r["kind"] == "attack"]
    assert "secret" not in mine["detail"] and "≤ 13" not in str(exported["rolls"])
