"""Seed 001's combat rules offered by ``/attack`` and ``/init surprise`` (rules.rolweb.offers):
ATAQUE GRATUITO (lines 36, 105-107), SORPRESA (lines 40, 201), FLANQUEAR (line 193), LÍNEA DE
VISIÓN (line 185), VENTAJA (line 207).  Seeded dice, exact numbers."""

from __future__ import annotations

import pytest

from rules.combat.attack import AttackOutcome, AttackRequest, Fighter
from rules.rolweb import offers
from rules.rolweb.actions import Action
from rules.rolweb.combat import AdvantageReason, FreeAttackTrigger
from rules.rolweb.system import SYSTEM
from rules.systems.base import RulesError

from .conftest import FixedRandom, assert_translatable
from .test_fight import ardelia, orc


def _attack(attacker, target, rng, *circumstances, weapon=None, engaged=()):
    request = AttackRequest(
        Fighter(attacker["name"], attacker),
        Fighter(target["name"], target),
        weapon=weapon,
        circumstances=frozenset(circumstances),
        engaged=engaged,
    )
    return SYSTEM.attack(request, {}, rng)


def _refused(key, *args, **kwargs):
    with pytest.raises(RulesError) as error:
        _attack(*args, **kwargs)
    assert error.value.problems[0].key == key
    assert_translatable(error.value.problems)


def _lancer():
    sheet = ardelia()
    sheet["armas"] = ["Lanza", "Arco"]
    return sheet


def test_circumstances_are_read_and_unknown_ones_refused():
    read = offers.situation(["flanqueo", "ataque_libre_salir", "forzar", "atributo:Fuerte"])
    assert read.free_attack is FreeAttackTrigger.DISENGAGE
    assert read.advantage == (AdvantageReason.FLANKING,) and read.override
    with pytest.raises(RulesError) as error:
        offers.situation(["a_caballo"])
    assert error.value.problems[0].key == "rolweb_fight.problem.unknown_circumstance"
    assert_translatable(error.value.problems)
    with pytest.raises(RulesError) as error:
        offers.situation(["ataque_libre_larga", "ataque_libre_salir"])
    assert error.value.problems[0].key == "rolweb_fight.problem.two_triggers"


def test_flanking_gives_advantage_to_the_test_and_the_damage():
    """[Diestro←Defensa] 13 + Ventaja 2 = 15: d20 15 hits; Espada 1d8 7 + 1D4 3 = 10."""
    result = _attack(ardelia(), orc(), FixedRandom(15, 7, 3), "flanqueo")
    assert result.outcome is AttackOutcome.HIT and result.target_number == 15
    assert ("Ventaja", 2) in result.modifiers and result.damage == 10
    assert "rolweb.note.advantage_damage" in result.notes


def test_long_weapon_free_attack_needs_a_long_weapon_and_no_long_opponent():
    """COMBATE CON ARMAS PREPARADAS: Lanza (Larga) against the orc's Hacha: allowed, noted."""
    result = _attack(_lancer(), orc(), FixedRandom(9, 5), "ataque_libre_larga", weapon="Lanza")
    assert result.hit and result.damage == 5
    assert result.notes[:2] == (
        "rolweb_fight.note.free_arma_larga",
        "rolweb_fight.note.free_attack",
    )
    assert_translatable(result.notes)
    _refused("rolweb_fight.problem.not_long", ardelia(), orc(), FixedRandom(), "ataque_libre_larga")
    pike_orc = orc() | {"armas": ["Alabarda"]}
    _refused(
        "rolweb_fight.problem.opponent_long",
        _lancer(),
        pike_orc,
        FixedRandom(),
        "ataque_libre_larga",
        weapon="Lanza",
    )
    shielded = _lancer() | {"escudo": "escudo"}
    _refused(
        "rolweb_fight.problem.shield_cancels_long",
        shielded,
        orc(),
        FixedRandom(),
        "ataque_libre_larga",
        weapon="Lanza",
    )
    buckler = _lancer() | {"escudo": "rodela"}  # ESCUDO: the rodela keeps both hands free
    assert _attack(buckler, orc(), FixedRandom(20), "ataque_libre_larga", weapon="Lanza").notes


def test_leaving_melee_free_attack_is_made_in_reach():
    result = _attack(ardelia(), orc(), FixedRandom(14), "ataque_libre_salir")
    assert result.outcome is AttackOutcome.MISS  # a miss keeps the note too
    assert "rolweb_fight.note.free_destrabarse" in result.notes
    _refused(
        "rolweb_fight.problem.free_attack_in_reach",
        _lancer(),
        orc(),
        FixedRandom(),
        "ataque_libre_salir",
        weapon="Arco",
    )


def test_surprise_free_attack_counts_the_victim_unaware():
    """VENTAJA: «Atacar a un enemigo que no sea consciente del ataque»: +2 and +1D4."""
    result = _attack(ardelia(), orc(), FixedRandom(15, 7, 2), "ataque_libre_sorpresa")
    assert result.hit and result.target_number == 15 and result.damage == 9


def test_line_of_sight_blocked_by_an_ally_stops_a_shot_unless_the_gm_forces_it():
    _refused(
        "rolweb_fight.problem.line_blocked",
        _lancer(),
        orc(),
        FixedRandom(),
        "linea_bloqueada",
        weapon="Arco",
    )
    _refused(
        "rolweb_fight.problem.line_only_ranged", _lancer(), orc(), FixedRandom(), "linea_bloqueada"
    )
    forced = _attack(
        _lancer(), orc(), FixedRandom(9, 4), "linea_bloqueada", "forzar", weapon="Arco"
    )
    assert forced.hit and "rolweb_fight.note.line_forced" in forced.notes


def test_a_fifth_attacker_cannot_reach_a_surrounded_target():
    """FLANQUEAR: at most four around one target; one of them keeps hitting; a bow needs no
    place; the GM's «forzar» lets a fifth in."""
    four = ("Bea", "Cid", "Dora", "Eloy")
    _refused(
        "rolweb_fight.problem.target_surrounded", ardelia(), orc(), FixedRandom(), engaged=four
    )
    assert (
        _attack(ardelia(), orc(), FixedRandom(20), engaged=four[:3]).outcome is AttackOutcome.MISS
    )
    mine = ("Bea", "Cid", "Dora", "Ardelia")
    assert _attack(ardelia(), orc(), FixedRandom(20), engaged=mine).outcome is AttackOutcome.MISS
    shot = _attack(_lancer(), orc(), FixedRandom(20), weapon="Arco", engaged=four)
    assert shot.outcome is AttackOutcome.MISS
    forced = _attack(ardelia(), orc(), FixedRandom(20), "forzar", engaged=four)
    assert forced.notes == ("rolweb_fight.note.reach_forced",)


def test_an_npc_free_attack_on_a_character_asks_for_the_defence_with_the_note():
    request = AttackRequest(
        Fighter("Orco", orc()),
        Fighter("Ardelia", ardelia()),
        circumstances=frozenset({"ataque_libre_salir", "flanqueo"}),
        defender_rolls=True,
    )
    asked = SYSTEM.attack(request, {}, FixedRandom())
    assert asked.outcome is AttackOutcome.DEFENCE_REQUESTED
    assert "rolweb_fight.note.free_destrabarse" in asked.notes
    assert asked.target_number == 6  # [Defensa 10 ← Diestro 12] 8, the orc's advantage −2
    assert asked.defence_request is not None
    assert asked.defence_request.advantage == ("flanqueo",)


def test_players_ambush_with_their_worst_discreto_against_the_best_atento():
    """SORPRESA: Discreto 9 (the lowest of 12 and 9) against Atento 13 (the highest):
    9 + (10 − 13) = 6; d20 5 surprises.  Each ambusher gets a free attack at the start of the
    turn; the surprised draw: the Hacha costs a movement action, a Daga is free."""
    result = offers.surprise(
        [offers.Ambusher("Ardelia", 12), offers.Ambusher("Bea", 9)],
        [
            offers.Watcher("Orco", 13, orc_weapon("Hacha")),
            offers.Watcher("Trasgo", 8, orc_weapon("Daga")),
            offers.Watcher("Lobos", None),
        ],
        FixedRandom(5),
    )
    assert (result.discreto, result.atento, result.test.target) == (9, 13, 6)
    assert result.surprised and not result.players_roll_defence
    assert {(a.attacker, a.target) for a in result.free_attacks} == {
        (a, v) for a in ("Ardelia", "Bea") for v in ("Orco", "Trasgo", "Lobos")
    }
    assert [(d.name, d.cost) for d in result.draws] == [
        ("Orco", Action.MOVEMENT),
        ("Trasgo", Action.FREE),
        ("Lobos", None),
    ]
    missed = offers.surprise(
        [offers.Ambusher("Bea", 9)], [offers.Watcher("Orco", 13)], FixedRandom(7)
    )
    assert not missed.surprised and missed.free_attacks == () and missed.draws == ()


def test_ambushed_players_roll_the_mirror_test():
    """Players always roll: an NPC ambush (Discreto 9) on Atento 13 is the players'
    [Atento←Discreto] 13 + (10 − 9) = 14; d20 15 fails it: surprised.  The chances match:
    the ambushers' target would be 6, and 6 + 14 = 20."""
    result = offers.surprise(
        [offers.Ambusher("Orco", 9)],
        [offers.Watcher("Ardelia", 13)],
        FixedRandom(15),
        players_roll_defence=True,
    )
    assert result.test.target == 14 and result.surprised
    foiled = offers.surprise(
        [offers.Ambusher("Orco", 9)],
        [offers.Watcher("Ardelia", 13)],
        FixedRandom(14),
        players_roll_defence=True,
    )
    assert not foiled.surprised


def test_surprise_needs_values_on_both_sides():
    with pytest.raises(RulesError) as error:
        offers.surprise(
            [offers.Ambusher("Orco", 9)], [offers.Watcher("Lobos", None)], FixedRandom()
        )
    assert error.value.problems[0].key == "rolweb.problem.empty_side"


def orc_weapon(name):
    from rules.rolweb.equipment import load_weapons
    from rules.rolweb.settings import parse_settings

    return next(w for w in load_weapons(parse_settings({})) if w.name == name)


def test_every_rolweb_fight_key_is_in_both_languages():
    import re
    from pathlib import Path

    from .conftest import FIGHT

    code = Path(__file__).resolve().parents[3]
    emitted = set()
    for path in [*(code / "rules" / "rolweb").glob("*.py"), *(code / "bot").rglob("*.py")]:
        emitted |= set(re.findall(r'"(rolweb_fight\.[a-z_]+\.[a-z_]+)"', path.read_text()))
    assert len(emitted) > 20
    for lang in ("es", "en"):
        assert emitted - set(FIGHT[lang]) == set(), lang
    assert set(FIGHT["es"]) == set(FIGHT["en"])
