"""Tests of rules/rolweb/system.py: seed 001 through the common GameSystem interface, the way
the bot's cogs use it (they never branch on the system)."""

from __future__ import annotations

import copy
import random

import pytest

from rules import systems
from rules.rolweb.system import SYSTEM
from rules.systems.base import CheckRequest, GameSystem, Outcome, RulesError, apply_effects

from .conftest import FixedRandom, assert_translatable, render

NO_SETTINGS: dict = {}


def _pc(name="Ardelia", **attrs):
    sheet = SYSTEM.new_sheet(name, NO_SETTINGS)
    sheet["atributos"] |= attrs
    sheet["resistencia"]["actual"] = max(10, sheet["atributos"]["Fuerte"])
    return sheet


def _npc(**attrs):
    return _pc("Orco", **attrs) | {"pnj": True}


def test_registry_returns_the_rolweb_system():
    assert systems.get("rolweb") is SYSTEM
    assert isinstance(SYSTEM, GameSystem)
    assert SYSTEM.seed.startswith("001_")


def test_settings_offer_every_campaign_choice():
    keys = {spec.key for spec in SYSTEM.settings()}
    assert {
        "atributos",
        "creacion",
        "creacion_puntos",
        "creacion_minimo",
        "creacion_maximo",
        "creacion_serie",
        "naturales",
        "movimiento_a_combate",
        "defensa_gasta_accion",
        "carrera_casillas",
        "prueba_de_muerte",
        "resistencia_al_levantarse",
        "habilidades",
        "armas",
        "armaduras",
    } <= keys


def test_check_options_are_the_attributes_and_defensa():
    options = [o.key for o in SYSTEM.check_options(_pc(), NO_SETTINGS)]
    assert options[:8] == [
        f"atributo:{n}"
        for n in (
            "Ágil",
            "Astuto",
            "Atento",
            "Diestro",
            "Discreto",
            "Fuerte",
            "Persuasivo",
            "Tenaz",
        )
    ]
    assert "defensa" in options and "muerte" not in options


def test_attribute_check_is_d20_under_attribute_plus_modifier():
    # TIRADAS DE ACCIÓN
    result = SYSTEM.check(
        _pc(Ágil=13), CheckRequest("atributo:Ágil", modifier=-3), NO_SETTINGS, FixedRandom(10)
    )
    assert (result.total, result.target, result.outcome) == (10, 10, Outcome.SUCCESS)
    assert result.probability == (1, 2)
    assert result.expression == "1d20" and result.breakdown == "1d20 (10) ≤ 10"
    assert result.label == "Ágil"


def test_gm_difficulty_replaces_the_attribute():
    result = SYSTEM.check(
        _pc(Ágil=13), CheckRequest("atributo:Ágil", difficulty=8), NO_SETTINGS, FixedRandom(9)
    )
    assert result.target == 8 and result.outcome is Outcome.FAILURE


def test_two_chances_and_their_cancellation():
    # LUCHAR A CIEGAS: "Si ambos bandos se ven perjudicados, no se aplica ningún ajuste"
    worse = CheckRequest("atributo:Diestro", circumstances=frozenset({"dos_oportunidades_peor"}))
    result = SYSTEM.check(_pc(), worse, NO_SETTINGS, FixedRandom(3, 12))
    assert result.total == 12 and result.outcome is Outcome.FAILURE
    assert result.notes == ("rolweb.note.two_chances_worse",)
    both = CheckRequest(
        "atributo:Diestro",
        circumstances=frozenset({"dos_oportunidades_peor", "dos_oportunidades_mejor"}),
    )
    result = SYSTEM.check(_pc(), both, NO_SETTINGS, FixedRandom(3))
    assert result.extra["rolls"] == (3,) and result.notes == ("rolweb.note.blind_both_sides",)


def test_advantage_adds_two_and_enemy_advantage_subtracts_two():
    # VENTAJA: +2 to the test; players always roll, so an NPC's advantage is -2 to their defence
    up = SYSTEM.check(
        _pc(),
        CheckRequest("atributo:Diestro", circumstances=frozenset({"ventaja"})),
        NO_SETTINGS,
        FixedRandom(12),
    )
    assert up.target == 12 and up.outcome is Outcome.SUCCESS
    down = SYSTEM.check(
        _pc(),
        CheckRequest("defensa", circumstances=frozenset({"ventaja_enemigo"})),
        NO_SETTINGS,
        FixedRandom(9),
    )
    assert down.target == 8 and down.outcome is Outcome.FAILURE
    for note in up.notes + down.notes:
        render(note)


def test_natural_rule_setting_reaches_the_check():
    settings = {"naturales": "criticos"}
    result = SYSTEM.check(
        _pc(), CheckRequest("atributo:Ágil", modifier=20), settings, FixedRandom(20)
    )
    assert result.outcome is Outcome.FUMBLE and result.probability == (19, 20)


@pytest.mark.parametrize(
    "request_",
    [
        CheckRequest("atributo:Magia"),
        CheckRequest("salvacion"),
        CheckRequest("atributo:Ágil", circumstances=frozenset({"token"})),
    ],
)
def test_unknown_options_and_circumstances_are_refused(request_):
    with pytest.raises(RulesError) as error:
        SYSTEM.check(_pc(), request_, NO_SETTINGS, random.Random(1))
    assert_translatable(error.value.problems)


def test_defensa_check_includes_shield_and_armour():
    # DEFENSA: based on Ágil, modified by shield (+1, ESCUDO) and armour
    sheet = _pc(Ágil=13) | {"escudo": "escudo", "armadura": "Ligera"}
    result = SYSTEM.check(sheet, CheckRequest("defensa"), NO_SETTINGS, FixedRandom(12))
    assert result.target == 12 and result.label == "Defensa"


def test_opposed_attack_is_diestro_modified_by_ten_minus_defence():
    # ACCIÓN DE COMBATE [Diestro←Defensa]; conversion 10 - B (docs/rules-decisions.md)
    attacker, target = _pc(Diestro=14), _npc(Ágil=12)
    result = SYSTEM.opposed(
        attacker,
        CheckRequest("atributo:Diestro"),
        target,
        CheckRequest("defensa"),
        NO_SETTINGS,
        FixedRandom(12),
    )
    assert result.a.target == 12 and result.winner == "a" and result.b is None
    assert result.a.label == "Diestro←Defensa"
    result = SYSTEM.opposed(
        attacker,
        CheckRequest("atributo:Diestro"),
        target,
        CheckRequest("defensa"),
        NO_SETTINGS,
        FixedRandom(13),
    )
    assert result.winner == "b"


def test_npc_attack_is_the_players_defence_test():
    # TIRADAS DE ACCIÓN: "Las tiradas siempre corren a cargo de los Jugadores"; DEFENSA [Defensa←Diestro]
    player, orc = _pc(Ágil=11), _npc(Diestro=13)
    result = SYSTEM.opposed(
        player,
        CheckRequest("defensa"),
        orc,
        CheckRequest("atributo:Diestro"),
        NO_SETTINGS,
        FixedRandom(8),
    )
    assert result.a.target == 8 and result.winner == "a"


def test_surprise_through_opposed():
    # SORPRESA [Discreto←Atento]
    result = SYSTEM.opposed(
        _pc(Discreto=12),
        CheckRequest("atributo:Discreto"),
        _npc(Atento=9),
        CheckRequest("atributo:Atento"),
        NO_SETTINGS,
        FixedRandom(13),
    )
    assert result.a.target == 13 and result.winner == "a"


def test_initiative_sort_key_is_agil_atento_d20():
    # ORDEN DE TURNO
    rolled = SYSTEM.initiative(_pc(Ágil=13, Atento=11), NO_SETTINGS, FixedRandom(4))
    assert rolled.sort_key == (13, 11, 4) and rolled.total == 13 and rolled.actions == 1


def test_apply_damage_reports_pain_threshold():
    # UMBRAL DE DOLOR: Fuerte 12 -> 6
    sheet = _pc(Fuerte=12)
    change = SYSTEM.apply_damage(sheet, 6, NO_SETTINGS)
    assert change.sheet["resistencia"]["actual"] == 6 and change.state == "activo"
    assert change.notes == ("rolweb.note.pain_threshold",)
    assert sheet["resistencia"]["actual"] == 12  # the input is not mutated
    assert SYSTEM.apply_damage(sheet, 5, NO_SETTINGS).notes == ()


def test_no_pain_threshold_for_one_the_hit_kills_or_leaves_dying():
    """The play-test printed «¡Umbral de dolor superado!» for a dead target: the choice
    (fall prone, or a free attack) is for one who still stands."""
    npc = dict(_pc(Fuerte=12), pnj=True)
    killed = SYSTEM.apply_damage(npc, 12, NO_SETTINGS)
    assert killed.state == "muerto" and killed.notes == ("rolweb.note.dead",)
    dying = SYSTEM.apply_damage(_pc(Fuerte=12), 12, NO_SETTINGS)
    assert dying.state == "moribundo" and dying.notes == ("rolweb.note.dying",)


def test_player_falls_dying_and_npc_dies():
    # PERSONAJES MORIBUNDOS
    assert SYSTEM.apply_damage(_pc(), 30, NO_SETTINGS).state == "moribundo"
    assert "rolweb.note.dying" in SYSTEM.apply_damage(_pc(), 30, NO_SETTINGS).notes
    change = SYSTEM.apply_damage(_npc(), 30, NO_SETTINGS)
    assert change.state == "muerto" and "rolweb.note.dead" in change.notes


def _dying():
    return SYSTEM.apply_damage(_pc(), 30, NO_SETTINGS).sheet


def test_death_test_is_offered_only_while_dying():
    assert "muerte" in [o.key for o in SYSTEM.check_options(_dying(), NO_SETTINGS)]
    with pytest.raises(RulesError) as error:
        SYSTEM.check(_pc(), CheckRequest("muerte"), NO_SETTINGS, random.Random(1))
    assert_translatable(error.value.problems)


def test_death_test_one_gets_up_with_resistencia():
    result = SYSTEM.check(_dying(), CheckRequest("muerte"), NO_SETTINGS, FixedRandom(1, 3))
    assert result.outcome is Outcome.SUCCESS and result.notes == ("rolweb.note.death_test_rises",)
    updated = apply_effects(_dying(), result.effects)
    assert updated["estado"] == "activo" and updated["resistencia"]["actual"] == 3
    assert SYSTEM.validate(updated, NO_SETTINGS) == []


def test_death_test_twenty_kills_and_others_continue():
    dead = SYSTEM.check(_dying(), CheckRequest("muerte"), NO_SETTINGS, FixedRandom(20))
    assert (
        apply_effects(_dying(), dead.effects)["estado"] == "muerto"
        and dead.outcome is Outcome.FAILURE
    )
    going = SYSTEM.check(_dying(), CheckRequest("muerte"), NO_SETTINGS, FixedRandom(15))
    assert apply_effects(_dying(), going.effects)["estado"] == "moribundo" and going.outcome is None


def test_family_death_rule_counts_failures_on_the_sheet():
    settings = {"prueba_de_muerte": "familia"}
    sheet = _dying()
    for roll in (15, 12):
        rolled = SYSTEM.check(sheet, CheckRequest("muerte"), settings, FixedRandom(roll))
        sheet = apply_effects(sheet, rolled.effects)
    assert sheet["fallos_muerte"] == 2
    assert (
        SYSTEM.check(sheet, CheckRequest("muerte"), settings, FixedRandom(11)).extra["estado"]
        == "muerto"
    )


def test_healing_stabilises_and_caps():
    # CURACIÓN DE HERIDAS
    change = SYSTEM.heal(_dying(), 2, NO_SETTINGS)
    assert change.state == "activo" and change.notes == ("rolweb.note.stabilised",)
    assert SYSTEM.heal(_pc(Fuerte=12), 5, NO_SETTINGS).sheet["resistencia"]["actual"] == 12


def test_grant_and_spend_xp():
    # MEJORA DE PERSONAJES
    granted = SYSTEM.grant_xp(_pc(), 30, NO_SETTINGS)
    assert (granted.xp_before, granted.xp_after) == (0, 30)
    bought = SYSTEM.buy_ability(granted.sheet, "Medicus", NO_SETTINGS)
    assert bought.sheet["habilidades"] == {"Medicus": "principiante"}
    assert bought.levels == {"Medicus": (0, 1)} and bought.xp_after == 20
    raised = SYSTEM.buy_ability(bought.sheet, "medicus", NO_SETTINGS)
    assert raised.sheet["habilidades"] == {"Medicus": "adepto"} and raised.xp_after == 0
    with pytest.raises(RulesError) as error:
        SYSTEM.buy_ability(raised.sheet, "Medicus", NO_SETTINGS)
    assert error.value.problems[0].key == "rolweb.problem.not_enough_xp"
    assert SYSTEM.validate(raised.sheet, NO_SETTINGS) == []


def test_buy_up_to_a_named_level_and_refuse_unknowns():
    sheet = SYSTEM.grant_xp(_pc(), 60, NO_SETTINGS).sheet
    master = SYSTEM.buy_ability(sheet, "Recuperación", NO_SETTINGS, target="maestro")
    assert master.xp_after == 0 and master.levels == {"Recuperación": (0, 3)}
    for ability, target in (("Volar", None), ("Medicus", "experto")):
        with pytest.raises(RulesError) as error:
            SYSTEM.buy_ability(sheet, ability, NO_SETTINGS, target=target)
        assert_translatable(error.value.problems)


def test_derived_values():
    sheet = _pc(Ágil=13, Fuerte=13) | {"escudo": "escudo", "armadura": "Media", "armas": ["Espada"]}
    derived = {d.key: d for d in SYSTEM.derived(sheet, NO_SETTINGS)}
    assert derived["resistencia"].value == 13
    assert derived["umbral_de_dolor"].value == 7
    assert (
        derived["defensa"].value == 11
        and derived["defensa"].formula == "Ágil 13 + escudo 1 − Media 3"
    )
    assert derived["armadura"].value == "1d6"
    assert derived["arma:Espada"].value == "1d8"


def test_roll_hit_subtracts_the_defenders_armour():
    attacker = _pc() | {"armas": ["Mandoble"]}
    defender = _pc() | {"armadura": "Pesada"}
    rng = random.Random(4)
    for _ in range(50):
        hit = SYSTEM.roll_hit(attacker, defender, NO_SETTINGS, rng, advantage=True)
        assert 2 <= hit.weapon <= 16 and 1 <= hit.armour <= 8
        assert hit.damage == max(0, hit.weapon - hit.armour)
    with pytest.raises(RulesError):
        SYSTEM.roll_hit(attacker, defender, NO_SETTINGS, rng, weapon="Arco")


def test_interface_never_mutates_its_inputs():
    sheet = _pc()
    before = copy.deepcopy(sheet)
    SYSTEM.apply_damage(sheet, 30, NO_SETTINGS)
    SYSTEM.grant_xp(sheet, 10, NO_SETTINGS)
    SYSTEM.heal(sheet, 1, NO_SETTINGS)
    assert sheet == before


def test_no_spells_and_fields_exist():
    assert SYSTEM.spells(NO_SETTINGS) == ()
    assert any(f.path == "atributos.Fuerte" for f in SYSTEM.fields(NO_SETTINGS))


def test_unarmed_hit_uses_the_natural_weapon():
    rng = random.Random(8)
    damages = {SYSTEM.roll_hit(_pc(), _pc(), NO_SETTINGS, rng).weapon for _ in range(200)}
    assert damages == {1, 2, 3, 4}  # Puños 1d4, the house default natural weapon


def test_abilities_that_are_not_a_mapping_are_a_problem():
    problems = SYSTEM.validate(_pc() | {"habilidades": ["Medicus"]}, NO_SETTINGS)
    assert [p.key for p in problems] == ["rolweb.problem.unknown_ability"]


def test_death_test_is_refused_on_a_sheet_that_changed_since_the_roll():
    """The roll's effects re-apply to the current sheet: healed in between, nothing is undone."""
    result = SYSTEM.check(_dying(), CheckRequest("muerte"), NO_SETTINGS, FixedRandom(15))
    healed = {**_dying(), "estado": "activo"}
    with pytest.raises(RulesError) as error:
        apply_effects(healed, result.effects)
    assert error.value.problems[0].key == "rolweb.problem.death_test_changed"
    assert_translatable(error.value.problems)
