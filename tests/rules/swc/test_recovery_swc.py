"""Healing between fights in S&W (issue 23 §3): the class powers «una vez por día» (seed 000
line 538 Paladín, line 332 Monje) and the campaign's days of rest (the seed gives none)."""

from __future__ import annotations

import random

import pytest

from rules import systems
from rules.combat.attack import Fighter, TargetChange
from rules.swc.advancement import xp_for_level
from rules.systems.base import Abilities, Recovery, RulesError, capabilities

SWC = systems.get("swc")
MONKS = {"monjes_permitidos": True}


def character(clase: str, level: int, pg: int = 2, **changes):
    sheet = SWC.new_sheet("Aldric", {})
    sheet.update(
        raza="humano",
        clases=[clase],
        alineamiento="legal",
        atributos={
            "Fuerza": 13,
            "Destreza": 12,
            "Constitución": 13,
            "Inteligencia": 10,
            "Sabiduría": 13,
            "Carisma": 17,
        },
        pg={"max": 20, "actual": pg},
        xp=xp_for_level(clase, level),
    )
    sheet.update(changes)
    assert SWC.validate(sheet, MONKS) == []
    return sheet


class Dice(random.Random):
    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_lay_on_hands_heals_up_to_two_per_level_once_a_day():
    """Line 538: «Una vez por día, el Paladín puede "imponer las manos" para curar hasta 2
    puntos de golpe por nivel del Paladín»: on anyone; the player chooses how many."""
    assert isinstance(capabilities(SWC).abilities, Abilities)
    paladin = character("paladin", 3)
    borin = character("guerrero", 1)
    (power,) = SWC.known_abilities(paladin, {})
    assert (power.name, power.level) == ("Imposición de manos", "Paladín 3")
    used = SWC.use_ability(paladin, "imposición de manos", Fighter("Borin", borin), {}, Dice())
    assert used.change == TargetChange("heal", 6) and used.costs == ("imposicion_de_manos",)
    chosen = SWC.use_ability(paladin, "Imposición de manos", None, {}, Dice(), amount=4)
    assert chosen.change == TargetChange("heal", 4)
    with pytest.raises(RulesError) as error:
        SWC.use_ability(paladin, "Imposición de manos", None, {}, Dice(), amount=7)
    assert error.value.problems[0].key == "swc.problem.power_amount"
    spent = SWC.pay_ability(paladin, used, {})
    assert spent["usos_del_dia"] == ["imposicion_de_manos"]
    for call in (
        lambda: SWC.use_ability(spent, "Imposición de manos", None, {}, Dice()),
        lambda: SWC.pay_ability(spent, used, {}),  # a concurrent use: once a day is once
    ):
        with pytest.raises(RulesError) as error:
            call()
        assert error.value.problems[0].key == "swc.problem.power_used_today"
    rested = SWC.rest_days(spent, 1, {})
    assert "usos_del_dia" not in rested.sheet and "rest.restored.powers" in rested.restored
    SWC.use_ability(rested.sheet, "Imposición de manos", None, {}, Dice())


def test_the_monks_mastery_heals_himself_1d6_plus_1_from_level_7():
    """Line 332: «Maestría del Cuerpo (nivel 7): Una vez por día, el Monje se puede curar así
    mismo 1d6+1 puntos de golpe. Por cada nivel por encima del séptimo … un punto adicional»."""
    young = character("monje", 6)
    assert SWC.known_abilities(young, MONKS) == ()
    with pytest.raises(RulesError) as error:
        SWC.use_ability(young, "Maestría del cuerpo", None, MONKS, Dice(4))
    assert error.value.problems[0].key == "swc.problem.power_not_known"
    monk = character("monje", 8)
    used = SWC.use_ability(monk, "Maestría del cuerpo", None, MONKS, Dice(4))
    assert used.roll is not None and used.roll.breakdown == "1d6 (4) + 2 = 6"
    assert used.change == TargetChange("heal", 6)
    other = character("guerrero", 1)
    with pytest.raises(RulesError) as error:
        SWC.use_ability(monk, "Maestría del cuerpo", Fighter("Borin", other), MONKS, Dice(4))
    assert error.value.problems[0].key == "swc.problem.power_self_only"


def test_no_power_for_the_fallen_or_the_unknown():
    down = character("paladin", 2, pg=0)
    for name, key in (
        ("Imposición de manos", "swc.problem.power_cannot_act"),
        ("Volar", "swc.problem.unknown_power"),
    ):
        with pytest.raises(RulesError) as error:
            SWC.use_ability(down, name, None, {}, Dice())
        assert error.value.problems[0].key == key


def test_days_of_rest_heal_the_campaigns_rate_and_bring_back_the_spells():
    """Seed 000 gives no natural healing: ``curacion_por_dia`` (house default 1)."""
    assert isinstance(capabilities(SWC).recovery, Recovery)
    cleric = character("clerigo", 2, conjuros_gastados={"clerigo.clerigo.1": 1})
    rested = SWC.rest_days(cleric, 3, {})
    assert rested.healed == 3 and rested.sheet["pg"]["actual"] == 5
    assert "conjuros_gastados" not in rested.sheet and rested.restored == ("rest.restored.slots",)
    assert SWC.rest_days(cleric, 3, {"curacion_por_dia": 0}).healed == 0
    assert SWC.rest_days(cleric, 100, {"curacion_por_dia": 5}).sheet["pg"]["actual"] == 20
    dead = character("guerrero", 1, pg=-12)
    result = SWC.rest_days(dead, 2, {"pg_cero": "muere_a_menos_10"})
    assert result.healed == 0 and result.notes == ("rest.note.dead",)
    fallen = SWC.rest_days(character("guerrero", 1, pg=-3), 5, {})
    assert fallen.sheet["pg"]["actual"] == 2 and fallen.state == "normal"
