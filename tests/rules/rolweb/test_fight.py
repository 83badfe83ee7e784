"""``/attack`` and health states in rolweb (seed 001: line 9 «Las tiradas siempre corren a
cargo de los Jugadores», DEFENSA line 115, VENTAJA line 207, UMBRAL DE DOLOR line 129,
PERSONAJES MORIBUNDOS lines 138-142).  Worked examples quoted by docs/combat.md."""

from __future__ import annotations

import pytest

from rules.combat.attack import AttackOutcome, AttackRequest, Fighter, TargetChange
from rules.combat.health import Act, Condition, require
from rules.rolweb.system import SYSTEM
from rules.systems.base import (
    Attacks,
    CheckRequest,
    HealthStates,
    RulesError,
    apply_effects,
)

from .conftest import FixedRandom


def _pc(name="Ardelia", **attrs):
    sheet = SYSTEM.new_sheet(name, {})
    sheet["atributos"] |= attrs
    sheet["resistencia"]["actual"] = max(10, sheet["atributos"]["Fuerte"])
    return sheet


def ardelia():
    """Diestro 14, Ágil 12, Fuerte 11 (Umbral de dolor 6), Espada 1d8, armadura Ligera
    (1d4, Defensa −2): Defensa 10."""
    sheet = _pc(Diestro=14, Ágil=12, Fuerte=11)
    sheet["armas"] = ["Espada"]
    sheet["armadura"] = "Ligera"
    return sheet


def orc():
    """An NPC: Diestro 12, Ágil 11 (Defensa 11), Fuerte 12 (Resistencia 12, Umbral 6), Hacha 1d8."""
    sheet = _pc("Orco", Diestro=12, Ágil=11, Fuerte=12) | {"pnj": True}
    sheet["armas"] = ["Hacha"]
    return sheet


def test_the_system_offers_attacks_and_health_states():
    assert isinstance(SYSTEM, Attacks) and isinstance(SYSTEM, HealthStates)
    assert [(o.value, o.description) for o in SYSTEM.weapons(ardelia(), {})] == [("Espada", "1d8")]
    assert [o.value for o in SYSTEM.weapons(_pc(), {})] == ["Puños"]


def test_worked_example_character_hits_an_npc():
    """[Diestro←Defensa]: 14 + (10 − 11) = 13.  d20 9 ≤ 13 hits; Espada 1d8 7, no armour:
    7 damage ≥ Umbral de dolor 6 (half of Fuerte 12), announced when the wound is written
    (the orc still stands: tests/rules/rolweb/test_system.py)."""
    result = SYSTEM.attack(
        AttackRequest(Fighter("Ardelia", ardelia()), Fighter("Orco", orc())), {}, FixedRandom(9, 7)
    )
    assert result.outcome is AttackOutcome.HIT
    assert (result.total, result.target_number, result.defence) == (9, 13, 11)
    assert result.attack is not None and result.attack.breakdown == "1d20 (9) ≤ 13"
    assert result.damage == 7 and result.change == TargetChange("damage", 7)
    assert result.notes == () and result.hit_points_left == 5
    wound = SYSTEM.apply_damage(orc(), result.damage, {})
    assert wound.notes == ("rolweb.note.pain_threshold",)


def test_advantage_adds_two_to_the_test_and_1d4_to_the_damage():
    """VENTAJA: +2 (target 15) and +1D4; a roll of 14 hits only with it."""
    request = AttackRequest(
        Fighter("Ardelia", ardelia()), Fighter("Orco", orc()), advantage=("flanqueo", "en_el_suelo")
    )
    result = SYSTEM.attack(request, {}, FixedRandom(14, 3, 2))
    assert result.target_number == 15 and result.hit
    assert result.modifiers == (("Ventaja", 2),)
    assert result.damage == 5 and "rolweb.note.advantage_damage" in result.notes


def test_npc_attack_asks_the_player_to_defend_and_armour_is_subtracted():
    """The orc attacks Ardelia: her player rolls [Defensa←Diestro] = 10 + (10 − 12) = 8.
    d20 12 > 8 fails: Hacha 1d8 6 − Ligera 1d4 4 = 2 damage (below her Umbral 6)."""
    request = AttackRequest(
        Fighter("Orco", orc()), Fighter("Ardelia", ardelia()), defender_rolls=True
    )
    asked = SYSTEM.attack(request, {}, FixedRandom())  # nothing is rolled yet
    assert asked.outcome is AttackOutcome.DEFENCE_REQUESTED and asked.attack is None
    assert asked.defence_request is not None and asked.defence_request.target == 8
    result = SYSTEM.resolve_defence(asked.defence_request, {}, FixedRandom(12, 6, 4))
    assert result.outcome is AttackOutcome.HIT and result.damage == 2
    assert [r.breakdown for r in result.damage_rolls] == ["1d8 (6) = 6", "1d4 (4) = 4"]
    parried = SYSTEM.resolve_defence(asked.defence_request, {}, FixedRandom(8))
    assert parried.outcome is AttackOutcome.MISS and parried.notes == ("rolweb.note.defended",)


def test_armour_never_heals():
    """DEFENSA: weapon 1 − armour 4 → 0, never below 0."""
    result = SYSTEM.resolve_defence(
        SYSTEM.attack(
            AttackRequest(
                Fighter("Orco", orc()), Fighter("Ardelia", ardelia()), defender_rolls=True
            ),
            {},
            FixedRandom(),
        ).defence_request,
        {},
        FixedRandom(20, 1, 4),
    )
    assert result.hit and result.damage == 0


def test_sheetless_fighters():
    gm = Fighter("Lobo", attack_bonus=13, damage="1d6")
    target = Fighter("Bandido", defence=10, armour="1d4", hit_points=10)
    result = SYSTEM.attack(AttackRequest(gm, target), {}, FixedRandom(13, 5, 1))
    assert (result.target_number, result.damage, result.hit_points_left) == (13, 4, 6)
    unknown = SYSTEM.attack(
        AttackRequest(Fighter("Ardelia", ardelia()), Fighter("Sombra")), {}, FixedRandom(5)
    )
    assert unknown.outcome is AttackOutcome.UNJUDGED and unknown.total == 5
    with pytest.raises(RulesError) as error:
        SYSTEM.attack(
            AttackRequest(gm, Fighter("Sombra", defence=10), defender_rolls=True), {}, FixedRandom()
        )
    assert error.value.problems[0].key == "rolweb.problem.defence_needs_sheet"


def test_a_sheetless_attackers_bonus_is_its_diestro_and_says_so():
    """Issue 23 §5: «/attack target:Yrsa character:Bandido bonus:2» took 2 as the Bandido's
    Diestro without a word, and Yrsa defended on 1d20 ≤ 21: a sure thing.  A bonus below an
    attribute's minimum is refused as the modifier it surely meant; one that can be a Diestro
    is used as one, and the reply says so."""
    bandit = Fighter("Bandido", attack_bonus=2, damage="1d6")
    yrsa = Fighter("Yrsa", ardelia())
    with pytest.raises(RulesError) as error:
        SYSTEM.attack(AttackRequest(bandit, yrsa, defender_rolls=True), {}, FixedRandom())
    (problem,) = error.value.problems
    assert (problem.key, problem.params["value"], problem.params["minimum"]) == (
        "rolweb.problem.sheetless_attribute_low",
        2,
        5,
    )
    bandit = Fighter("Bandido", attack_bonus=12, damage="1d6")
    asked = SYSTEM.attack(AttackRequest(bandit, yrsa, defender_rolls=True), {}, FixedRandom())
    assert "rolweb.note.sheetless_attribute" in asked.notes
    assert asked.target_number == 8  # [Defensa←Diestro]: 10 + (10 − 12)


def test_npc_dies_at_zero_and_a_character_is_dying_with_a_death_test_turn():
    dead = SYSTEM.apply_damage(orc(), 12, {}).sheet
    state = SYSTEM.combat_state(dead, {})
    assert state.condition is Condition.DEAD and state.skip_turn and state.removed
    dying = SYSTEM.apply_damage(ardelia(), 11, {}).sheet
    state = SYSTEM.combat_state(dying, {})
    assert state.condition is Condition.DYING and not state.skip_turn
    assert state.turn_test == "muerte" and state.label == "moribundo"
    with pytest.raises(RulesError):
        require(state, Act.CHECK, "Ardelia", "atributo:Ágil")
    require(state, Act.CHECK, "Ardelia", "muerte")  # the death test is its turn
    # the turn's test is the state transition: a 1 gets up with 1D4 (3) Resistencia
    test = SYSTEM.check(dying, CheckRequest(state.turn_test), {}, FixedRandom(1, 3))
    risen = SYSTEM.combat_state(apply_effects(dying, test.effects), {})
    assert risen.condition is Condition.WOUNDED and risen.hit_points == (3, 11)
    assert SYSTEM.combat_state(ardelia(), {}).description == "ileso"


def test_fighting_blind_gives_two_chances_to_the_attack_and_the_defence():
    """LUCHAR A CIEGAS (line 165): the play-test's rule worked for /check, not /attack.
    Target 13; a blinded attacker rolls 9 and 17 and keeps the worse (misses); a blinded
    target lets it keep the better of 17 and 9 (hits); both blinded: one die."""

    def attack(circumstance: str, *dice: int):  # type: ignore[no-untyped-def]
        request = AttackRequest(
            Fighter("Ardelia", ardelia()), Fighter("Orco", orc()),
            circumstances=frozenset(circumstance.split(",")) if circumstance else frozenset(),
        )  # fmt: skip
        return SYSTEM.attack(request, {}, FixedRandom(*dice))

    worse = attack("dos_oportunidades_peor", 9, 17)
    assert worse.outcome is AttackOutcome.MISS and worse.attack is not None
    assert worse.attack.breakdown.startswith("2d20") and "rolweb.note.blind_attacker" in worse.notes
    better = attack("dos_oportunidades_mejor", 17, 9, 7)
    assert better.outcome is AttackOutcome.HIT and "rolweb.note.blind_target" in better.notes
    both = attack("dos_oportunidades_peor,dos_oportunidades_mejor", 9, 7)
    assert both.outcome is AttackOutcome.HIT and "rolweb.note.blind_both_sides" in both.notes
    # the orc attacks blind: Ardelia defends with the better of two d20 (target 8: 12 and 5)
    asked = SYSTEM.attack(
        AttackRequest(
            Fighter("Orco", orc()), Fighter("Ardelia", ardelia()),
            circumstances=frozenset({"dos_oportunidades_peor"}), defender_rolls=True,
        ),
        {}, FixedRandom(),
    )  # fmt: skip
    assert asked.defence_request is not None and asked.defence_request.chances == "mejor"
    parried = SYSTEM.resolve_defence(asked.defence_request, {}, FixedRandom(12, 5))
    assert parried.outcome is AttackOutcome.MISS
