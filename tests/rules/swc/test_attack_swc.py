"""``/attack`` and health states in S&W (seed 000: Tablas 1, 2, 22-24, 29-32; line 56 «caer
incapacitado»; line 746 «enemigo abatido»).  Worked examples quoted by docs/combat.md."""

from __future__ import annotations

import random

import pytest

from rules import systems
from rules.combat.attack import (
    SECRET_FIELDS,
    AttackOutcome,
    AttackRequest,
    Fighter,
    TargetChange,
)
from rules.combat.effects import Effect, Modifier, add
from rules.combat.health import Act, Condition, require
from rules.systems.base import Attacks, HealthStates, RulesError

SWC = systems.get("swc")


class Dice(random.Random):
    """Returns the queued values from ``randint`` (every die of the dice engine)."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b, (value, a, b)
        return value


def aldara(**changes):
    """Guerrero 1, Fuerza 16 (Tabla 1: +1 to hit, +1 damage), Destreza 14 (Tabla 2: +1 missiles)."""
    sheet = SWC.new_sheet("Aldara", {})
    sheet.update(
        raza="humano",
        clases=["guerrero"],
        alineamiento="legal",
        atributos={
            "Fuerza": 16,
            "Destreza": 14,
            "Constitución": 12,
            "Inteligencia": 10,
            "Sabiduría": 9,
            "Carisma": 8,
        },
        pg={"max": 8, "actual": 8},
        equipo=["Espada larga", "Arco corto", "Flechas (20)"],
        armadura="Cota de malla",
    )
    sheet.update(changes)
    return sheet


def orc(**changes):
    sheet = {
        "name": "Orco",
        "system": "swc",
        "pnj": True,
        "dados_golpe": "1",
        "ca": 6,
        "ataques": "1 arma (1d8)",
        "pg": {"max": 6, "actual": 6},
        "movimiento": 9,
        "valor_px": 15,
        "salvacion": 17,
    }
    sheet.update(changes)
    return sheet


def test_the_system_offers_attacks_and_health_states():
    assert isinstance(SWC, Attacks) and isinstance(SWC, HealthStates)
    assert [(o.value, o.description) for o in SWC.weapons(aldara(), {})] == [
        ("Espada larga", "1d8"),
        ("Arco corto", "1d6"),
    ]
    assert [(o.value, o.description) for o in SWC.weapons(orc(), {})] == [("arma", "1d8")]


def test_worked_example_fighter_hits_an_orc():
    """Tabla 31, level 1 against AC 6: 13.  d20 13 + Fuerza 1 = 14 hits; Espada larga 1d8 7
    + Fuerza 1 = 8 damage; the orc (6 pg) drops to −2."""
    result = SWC.attack(
        AttackRequest(Fighter("Aldara", aldara()), Fighter("Orco", orc())), {}, Dice(13, 7)
    )
    assert result.outcome is AttackOutcome.HIT and result.weapon == "Espada larga"
    assert (result.total, result.target_number, result.defence) == (14, 13, 6)
    assert result.attack is not None and result.attack.breakdown == "1d20 (13) + 1 = 14"
    assert result.modifiers == (("Fuerza", 1),)
    assert [r.breakdown for r in result.damage_rolls] == ["1d8 (7) + 1 = 8"]
    assert result.change == TargetChange("damage", 8) and result.hit_points_left == -2
    change = SWC.apply_damage(orc(), result.change.amount, {})
    assert change.state == "abatido" and change.notes == ("swc.note.abatido",)
    assert SWC.combat_state(change.sheet, {}).condition is Condition.DEAD
    assert set(SECRET_FIELDS) <= set(type(result).__dataclass_fields__)


def test_a_miss_and_the_ascending_notation():
    """d20 11 + 1 = 12 < 13: a miss.  Ascending campaigns show [13] and need the same roll."""
    result = SWC.attack(
        AttackRequest(Fighter("Aldara", aldara()), Fighter("Orco", orc())),
        {"ca_ascendente": True},
        Dice(11),
    )
    assert result.outcome is AttackOutcome.MISS and result.change is None
    assert (result.target_number, result.defence) == (13, 13)


def test_missiles_add_destreza_and_fuerza_but_no_damage_bonus():
    """Tablas 1-2: Destreza +1 and (by default) Fuerza +1 to hit with missiles; Arco corto
    shoots Flechas 1d6, no Fuerza damage."""
    result = SWC.attack(
        AttackRequest(Fighter("Aldara", aldara()), Fighter("Orco", orc()), ranged=True),
        {},
        Dice(11, 4),
    )
    assert result.modifiers == (("Destreza", 1), ("Fuerza", 1)) and result.total == 13
    assert result.hit and result.damage == 4 and result.weapon == "Arco corto"


def test_monster_attacks_on_tabla_32_against_a_sheet():
    """A 1 HD orc needs 14 against Aldara's AC 4 (Cota de malla −4, Destreza 14 no AC change)."""
    result = SWC.attack(
        AttackRequest(Fighter("Orco", orc()), Fighter("Aldara", aldara())), {}, Dice(14, 5)
    )
    assert (result.target_number, result.defence, result.hit, result.damage) == (14, 4, True, 5)


@pytest.mark.parametrize(
    ("mode", "roll", "outcome", "damage"),
    [
        ("ninguno", 20, AttackOutcome.HIT, 8),  # 20 + 1 ≥ 13 anyway, damage 7 + 1
        ("impacta_falla", 1, AttackOutcome.MISS, 0),
        ("critico", 20, AttackOutcome.HIT, 16),
    ],
)
def test_natural_rolls_follow_the_campaign_setting(mode, roll, outcome, damage):
    result = SWC.attack(
        AttackRequest(Fighter("Aldara", aldara()), Fighter("Orco", orc(ca=-9))),
        {"naturales_ataque": mode},
        Dice(roll, 7),
    )
    if mode == "ninguno":  # against AC −9 a level-1 fighter needs 28: even a 20 misses
        assert result.outcome is AttackOutcome.MISS and result.target_number == 28
        return
    assert result.outcome is outcome and result.damage == damage
    assert result.critical is (mode == "critico")


def test_unknown_target_is_left_to_the_gm_and_sheetless_attackers_need_numbers():
    result = SWC.attack(
        AttackRequest(Fighter("Aldara", aldara()), Fighter("3 trasgos")), {}, Dice(9)
    )
    assert result.outcome is AttackOutcome.UNJUDGED and result.total == 10
    assert result.notes == ("swc.note.attack_unjudged",)
    gm = Fighter("Bandido", attack_bonus=2, damage="1d6")
    result = SWC.attack(AttackRequest(gm, Fighter("Orco", orc())), {}, Dice(11, 3))
    # ascending method: d20 11 + 2 = 13 ≥ [13] (AC 6)
    assert result.hit and result.target_number == 13 and result.damage == 3
    with pytest.raises(RulesError) as error:
        SWC.attack(AttackRequest(Fighter("Nadie"), Fighter("Orco", orc())), {}, Dice())
    assert error.value.problems[0].key == "swc.problem.attack_needs_bonus"
    with pytest.raises(RulesError):
        SWC.attack(
            AttackRequest(Fighter("Aldara", aldara()), Fighter("Orco", orc()), weapon="Hacha"),
            {},
            Dice(),
        )


def test_effects_on_the_attacker_are_named():
    blessed = add(aldara(), Effect("Bendición", 3, (Modifier("to_hit", 1),)))
    result = SWC.attack(
        AttackRequest(Fighter("Aldara", blessed), Fighter("Orco", orc())), {}, Dice(11, 2)
    )
    assert (
        result.modifiers == (("Fuerza", 1), ("Bendición", 1)) and result.total == 13 and result.hit
    )


@pytest.mark.parametrize(
    ("rule", "hp", "condition", "state"),
    [
        ("incapacitado", 0, Condition.UNCONSCIOUS, "incapacitado"),
        ("incapacitado", -12, Condition.UNCONSCIOUS, "incapacitado"),
        ("muere_a_menos_10", -9, Condition.UNCONSCIOUS, "incapacitado"),
        ("muere_a_menos_10", -10, Condition.DEAD, "muerto"),
        ("muere_a_0", 0, Condition.DEAD, "muerto"),
    ],
)
def test_zero_hit_points_follow_the_campaign_rule(rule, hp, condition, state):
    settings = {"pg_cero": rule}
    change = SWC.apply_damage(aldara(), 8 - hp, settings)
    assert change.state == state
    found = SWC.combat_state(change.sheet, settings)
    assert found.condition is condition and found.skip_turn
    with pytest.raises(RulesError) as error:
        require(found, Act.ATTACK, "Aldara")
    assert error.value.problems[0].key == "combat.problem.cannot_act"


def test_hidden_npcs_are_described_by_fraction():
    words = [
        SWC.combat_state(orc(pg={"max": 6, "actual": hp}), {}).description for hp in (6, 4, 3, 1, 0)
    ]
    assert words == ["ileso", "herido", "gravemente herido", "gravemente herido", "caído"]
    custom = {"descripcion_pg": "fresco|tocado|grave|fuera"}
    assert SWC.combat_state(orc(pg={"max": 6, "actual": 5}), custom).description == "tocado"
    healthy = SWC.combat_state(aldara(), {})
    assert healthy.condition is Condition.OK and healthy.hit_points == (8, 8)
    require(healthy, Act.CAST)


def test_side_initiative_draws_no_die_per_combatant():
    """Standard and A: «Cada bando tira un d6»; the combat rolls the sides, so a combatant's
    own initiative is just Destreza for the order inside its side (no unused d6 shown)."""
    for sequence in ("estandar", "A"):
        roll = SWC.initiative(aldara(), {"secuencia_combate": sequence}, Dice())
        assert (roll.total, roll.sort_key, roll.breakdown) == (14, (14,), "Destreza 14")
