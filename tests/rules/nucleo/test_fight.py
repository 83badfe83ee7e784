"""``/attack``, health states, spell effects and touch spells in Núcleo (seed 002:
«Ataque cuerpo a cuerpo» line 171, «Ataque a Distancia» line 185, «Estados de Salud» line
207, «Equipo» lines 244/255, «Magia» lines 320-399).  Worked examples quoted by docs/combat.md."""

from __future__ import annotations

import copy

import pytest

from rules import systems
from rules.combat import effects
from rules.combat.attack import AttackOutcome, AttackRequest, Fighter, TargetChange
from rules.combat.health import Act, Condition, require
from rules.nucleo.spell_effects import duration_rounds
from rules.systems.base import (
    Attacks,
    CheckRequest,
    HealthStates,
    RulesError,
    SpellRequest,
)

from .conftest import ARDELIA, render
from .test_attack import _brute, _sheet

NUCLEO = systems.get("nucleo")


def _caster(**spells):
    """Ardelia with spells in place of Sigilo 1 (spells count in the pyramid)."""
    sheet = copy.deepcopy(ARDELIA)
    del sheet["habilidades"]["Sigilo"]
    sheet["hechizos"] = spells
    assert NUCLEO.validate(sheet, {}) == []
    return sheet


def test_the_system_offers_attacks_and_health_states():
    assert isinstance(NUCLEO, Attacks) and isinstance(NUCLEO, HealthStates)
    weapons = [(o.value, o.description) for o in NUCLEO.weapons(_brute(), {})]
    assert weapons[0] == ("Espada larga", "2d6") and weapons[-1] == ("Sin armas", "1d6")


def test_worked_example_melee_hit(scripted):
    """Físico 8 + Armas cuerpo a cuerpo 2 + 1o3d10 (7, 2, 9 → 7) = 17 against Ardelia's
    Defensa 17: equal hits.  Espada larga 2d6 (3, 4) + Golpe Duro 1 = 8 wounds of her 24 PV."""
    request = AttackRequest(Fighter("Bruto", _brute()), Fighter("Ardelia", ARDELIA))
    result = NUCLEO.attack(request, {}, scripted([7, 2, 9, 3, 4]))
    assert result.outcome is AttackOutcome.HIT and result.weapon == "Espada larga"
    assert (result.total, result.target_number, result.defence) == (17, 17, 17)
    assert (
        result.attack is not None
        and result.attack.breakdown == "1o3d10 (7, ~~2~~, ~~9~~) + 10 = 17"
    )
    assert [r.breakdown for r in result.damage_rolls] == ["2d6! (3, 4) + 1 = 8"]
    assert result.change == TargetChange("damage", 8) and result.hit_points_left == 16
    wounded = NUCLEO.apply_damage(ARDELIA, 8, {}).sheet
    assert NUCLEO.combat_state(wounded, {}).condition is Condition.OK


def test_ten_over_adds_a_die_and_effects_change_both_sides(scripted):
    """Aura de poder (+1 to hit and damage) on the attacker; Anticipación (+2 Defensa) on
    the target: 8 + 2 + 1 + (10, 10, 2 → 10, thrown again 9, 9, 9 → 9) = 30 against 19:
    11 over adds 1d6."""
    attacker = effects.add(
        _brute(),
        effects.Effect(
            "Aura de Poder", 3, (effects.Modifier("to_hit", 1), effects.Modifier("damage", 1))
        ),
    )
    target = effects.add(
        copy.deepcopy(ARDELIA), effects.Effect("Anticipación", 2, (effects.Modifier("defence", 2),))
    )
    result = NUCLEO.attack(
        AttackRequest(Fighter("Bruto", attacker), Fighter("Ardelia", target)),
        {},
        scripted([10, 10, 2, 9, 9, 9, 3, 4, 5]),
    )
    assert result.target_number == 19 and result.total == 30
    assert ("Aura de Poder", 1) in result.modifiers
    assert result.extra["dados_extra"] == 1 and result.damage == 3 + 4 + 5 + 1 + 1


def test_ranged_band_cover_and_sheetless_target(scripted):
    """Corta 15 + Cobertura media 4 = 19; a sheetless target with Absorción 2 and 6 PV."""
    archer = _sheet(arma_principal="Arco corto")
    target = Fighter("Bandido", defence=12, armour="2", hit_points=6)
    request = AttackRequest(
        Fighter("Ardelia", archer), target, ranged=True, range_band="corta",
        circumstances=frozenset({"cobertura_media"}),
    )  # fmt: skip
    result = NUCLEO.attack(request, {}, scripted([9, 3, 10, 4]))
    # Destreza 7 + Armas a distancia 4 + 9 = 20 ≥ 19; Arco corto 1d6+3: 4 + 3 − Absorción 2 = 5
    assert result.target_number == 19 and result.hit
    assert (result.damage, result.hit_points_left) == (5, 1)
    unknown = NUCLEO.attack(
        AttackRequest(Fighter("Bruto", _brute()), Fighter("Sombra")), {}, scripted([5, 5, 5])
    )
    assert unknown.outcome is AttackOutcome.UNJUDGED and unknown.total == 15
    assert [render(n) for n in unknown.notes]


def test_weapon_restrictions(scripted):
    """«Lanza pesada (solo a caballo)» line 255; «Ballesta … (con recarga)» line 244."""
    lancer = _sheet(arma_principal="Lanza pesada")
    with pytest.raises(RulesError) as error:
        NUCLEO.attack(AttackRequest(Fighter("L", lancer), Fighter("A", ARDELIA)), {}, scripted([]))
    assert error.value.problems[0].key == "nucleo.problem.mounted_only"
    mounted = AttackRequest(
        Fighter("L", lancer), Fighter("A", ARDELIA), circumstances=frozenset({"a_caballo"})
    )
    assert NUCLEO.attack(mounted, {}, scripted([1, 1, 1, 1])).outcome is AttackOutcome.MISS
    crossbow = _sheet(arma_principal="Ballesta")
    shot = AttackRequest(
        Fighter("B", crossbow), Fighter("A", ARDELIA), ranged=True, range_band="media"
    )
    assert "nucleo.note.reload" in NUCLEO.attack(shot, {}, scripted([2, 2, 2])).notes


def test_health_states_and_acting():
    """Ardelia Físico 6: Malherido at 18 wounds, Inconsciente at 24, Muerto at 36."""
    states = []
    for wounds in (0, 18, 24, 36):
        state = NUCLEO.combat_state(ARDELIA | {"heridas": wounds}, {})
        states.append((state.condition, state.skip_turn, state.description))
    assert states == [
        (Condition.OK, False, "normal"),
        (Condition.WOUNDED, False, "malherido"),
        (Condition.UNCONSCIOUS, True, "inconsciente"),
        (Condition.DEAD, True, "muerto"),
    ]
    with pytest.raises(RulesError):
        require(NUCLEO.combat_state(ARDELIA | {"heridas": 24}, {}), Act.CAST, "Ardelia")


def test_effects_in_checks_and_derived(scripted):
    """Niebla −2 to Percepción reaches Advertir/Notar (a Percepción skill) and names itself."""
    fogged = effects.add(
        copy.deepcopy(ARDELIA),
        effects.Effect("Niebla", 3, (effects.Modifier("attribute:Percepción", -2),)),
    )
    result = NUCLEO.check(fogged, CheckRequest("habilidad:Advertir/Notar"), {}, scripted([5, 5, 5]))
    assert result.modifiers == (("Niebla", -2),) and result.total == 8 + 5 - 2 + 5
    plain = NUCLEO.check(ARDELIA, CheckRequest("habilidad:Advertir/Notar"), {}, scripted([5, 5, 5]))
    assert plain.total == result.total + 2 and plain.modifiers == ()
    windy = effects.add(
        copy.deepcopy(ARDELIA),
        effects.Effect("Baile de viento", 1, (effects.Modifier("defence", 4),)),
    )
    derived = {v.key: v for v in NUCLEO.derived(windy, {})}
    assert derived["defensa"].value == 21 and "Baile de viento" in derived["defensa"].formula
    assert derived["efectos"].value == "Baile de viento (1 asalto)"


@pytest.mark.parametrize(
    ("duration", "level", "rounds"),
    [("1 turno/nivel", 3, 3), ("1 min/nivel", 2, 40), ("1 hora/nivel", 1, None), (None, 1, None)],
)
def test_durations_in_rounds(duration, level, rounds):
    """«Un turno dura 3 segundos»: a minute is 20 rounds; hours and days last until removed."""
    assert duration_rounds(duration, level) == rounds


def test_a_spell_with_a_duration_leaves_its_effect(scripted):
    """Baile de viento (Dif 18): Inteligencia 9 + 1 + (3, 8, 9 → 8) = 18 → +4 Defensa, 1 round."""
    caster = _caster(**{"Baile de viento": 1})
    cast = NUCLEO.cast(caster, SpellRequest("Baile de viento"), {}, scripted([3, 8, 9]))
    assert cast.effect_target == "lanzador" and cast.timed_effect is not None
    assert cast.timed_effect.rounds == 1
    assert cast.timed_effect.modifiers == (effects.Modifier("defence", 4),)
    # a critical (burn 8 mana: +4; 9 + 1 + 4 + 10 + 4 = 28 ≥ 18 + 10) adds +1 and 2 rounds
    critical = NUCLEO.cast(
        caster, SpellRequest("Baile de viento", extra_mana=8), {}, scripted([3, 10, 10, 4, 4, 4])
    )
    assert critical.critical_benefits == ("bono", "turnos")
    assert critical.timed_effect.rounds == 3 and critical.timed_effect.modifiers[0].value == 5
    failed = NUCLEO.cast(caster, SpellRequest("Baile de viento"), {}, scripted([2, 3, 9]))
    assert failed.timed_effect is None


def test_labelled_effects_roll_their_turn_action(scripted):
    caster = _caster(**{"Espejo de Sombras": 1})
    cast = NUCLEO.cast(caster, SpellRequest("Espejo de Sombras"), {}, scripted([3, 8, 9]))
    mirror = cast.timed_effect
    assert mirror.modifiers == () and mirror.action == effects.TurnAction("miss_chance", "", 50)
    assert "50%" in mirror.text
    protected = effects.add(caster, mirror)
    request = AttackRequest(Fighter("Bruto", _brute()), Fighter("Ardelia", protected))
    # 8 + 2 + 9 = 19 ≥ 17 would hit (damage 3 + 4 rolled); the d100 (37 ≤ 50) makes it miss
    result = NUCLEO.attack(request, {}, scripted([9, 2, 9, 3, 4, 37]))
    assert (
        result.outcome is AttackOutcome.MISS and "effects.note.miss_chance_missed" in result.notes
    )


def test_touch_spells_need_a_melee_attack_and_vampiric_touch_drains(scripted):
    """Toque vampírico (line 370): «requiere ataque C/C»; «Drena 2d6 pv's al objetivo,
    otorgándoselos al lanzador», ignoring armour."""
    caster = _caster(**{"Toque vampírico": 1})
    touch = AttackRequest(
        Fighter("Ardelia", caster), Fighter("Bruto", _brute()), circumstances=frozenset({"toque"})
    )
    # Físico 6 + no melee skill (lowest die): 10, thrown again 3 → 19 ≥ the brute's Defensa
    attack = NUCLEO.attack(touch, {}, scripted([10, 10, 10, 3, 3, 3]))
    assert attack.hit and attack.change is None and "nucleo.note.touch_hit" in attack.notes
    cast = NUCLEO.cast(
        caster, SpellRequest("Toque vampírico", extra_mana=8), {}, scripted([3, 7, 9, 4, 5])
    )
    assert cast.needs_melee_attack and cast.effect.total == 9
    change = NUCLEO.spell_change(cast, Fighter("Bruto", _brute()), {})
    # «ignora armadura»: the Cota de mallas (Absorción 4) takes nothing off
    assert change == TargetChange("damage", 9, to_attacker=9)


def test_a_touch_does_not_talk_about_the_casters_ranged_weapon(scripted):
    """Issue 23 §6: a caster holding a rifle got «Arma a distancia en cuerpo a cuerpo: daño de
    arma improvisada» on the touch's attack, which uses no weapon."""
    caster = _caster(**{"Toque eléctrico": 1})
    caster["equipo"]["arma_principal"] = "Arco corto"
    touch = AttackRequest(
        Fighter("Ardelia", caster), Fighter("Bruto", _brute()), circumstances=frozenset({"toque"})
    )
    attack = NUCLEO.attack(touch, {}, scripted([10, 10, 10, 3, 3, 3]))
    assert attack.hit and "nucleo.note.arma_improvisada" not in attack.notes, attack.notes
    swing = AttackRequest(Fighter("Ardelia", caster), Fighter("Bruto", _brute()))
    assert (
        "nucleo.note.arma_improvisada"
        in NUCLEO.attack(swing, {}, scripted([10, 10, 10, 3, 3, 3, 1])).notes
    )


def test_critical_benefits_per_spell():
    """Line 399: Aura de curación's critical heals 2 + 1d6 each turn and lasts 2 rounds more;
    Niebla's only lasts longer; Fuerza sobrehumana gets +1."""
    from rules.nucleo.magic import find_spell
    from rules.nucleo.spell_effects import timed_effect

    aura = timed_effect(find_spell("Aura de Curación"), 2, ("dado", "turnos"))
    assert aura.rounds == 4 and aura.action == effects.TurnAction("heal", "2+1d6")
    fog = timed_effect(find_spell("Niebla"), 1, find_spell("Niebla").critical)
    assert fog.rounds == 3 and fog.modifiers == (effects.Modifier("attribute:Percepción", -2),)
    strength = timed_effect(find_spell("Fuerza sobrehumana"), 1, ("bono", "turnos"))
    assert strength.modifiers == (effects.Modifier("attribute:Físico", 5),)
    assert timed_effect(find_spell("Duplicación"), 1).rounds is None
    assert timed_effect(find_spell("Proyectil mágico"), 1) is None
