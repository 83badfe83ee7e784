"""Rolling a new level's hit dice and listing what the level changed (seed 000: the class
tables' «Dados de Golpe» and «+N pg», Tabla 3 Constitución, multiclass «la media»)."""

from __future__ import annotations

import pytest

from rules import systems
from rules.swc.levelup import LevelChange, owed_hit_dice
from rules.systems.base import LevelHitDice, RulesError
from tests.rules.swc.test_attack_swc import Dice, aldara

SWC = systems.get("swc")


def mage():
    base = aldara()["atributos"]
    return aldara(
        clases=["mago"], armadura=None, atributos={**base, "Inteligencia": 13, "Constitución": 16}
    )


def test_a_single_class_level_rolls_its_die_plus_constitucion_and_lists_the_changes():
    """Mago 1 → 2 (2,600 XP + 5 % for Inteligencia 13): 1d4 (3) + Constitución 16 (+1) = 4;
    the save goes 15 → 14 and the first-level slots 1 → 2."""
    assert isinstance(SWC, LevelHitDice)
    before = mage()
    grant = SWC.grant_xp(before, 2600, {})
    assert "swc.note.roll_hit_die" in grant.notes and owed_hit_dice(before, grant.sheet, {}) == 1
    rolled = SWC.roll_hit_dice(before, grant.sheet, {}, Dice(3))
    assert rolled.gained == 4 and rolled.sheet["pg"] == {"max": 12, "actual": 12}
    assert [r.breakdown for r in rolled.rolls] == ["1d4 (3) = 3"]
    assert rolled.levels == {"mago": (1, 2)}
    assert rolled.changes == (
        LevelChange("Nivel (Mago)", "1", "2"),
        LevelChange("Salvación (Mago)", "15", "14"),
        LevelChange("Conjuros de nivel 1 (Mago, lista de Mago)", "1", "2"),
    )


def test_a_multiclass_die_is_the_average_and_comes_only_when_every_class_levels():
    elf = aldara(raza="elfo", clases=["guerrero", "mago"], armadura=None)
    half = SWC.grant_xp(elf, 4100, {})  # Guerrero 2, Mago still 1: no die yet
    with pytest.raises(RulesError) as error:
        SWC.roll_hit_dice(elf, half.sheet, {}, Dice())
    assert error.value.problems[0].key == "swc.problem.no_hit_die_owed"
    both = SWC.grant_xp(elf, 6000, {})
    rolled = SWC.roll_hit_dice(elf, both.sheet, {}, Dice(7, 2))
    # media de 1d8 (7) y 1d4 (2) = 4.5 → 5 (half up, as at creation); Constitución 12: +0
    assert rolled.gained == 5 and rolled.breakdown.startswith("media de 7, 2 = 5")


def test_the_fighters_hit_die_and_a_floor_of_one():
    low = aldara(atributos={**aldara()["atributos"], "Constitución": 3})
    grant = SWC.grant_xp(low, 2000, {})
    rolled = SWC.roll_hit_dice(low, grant.sheet, {}, Dice(1))
    assert rolled.gained == 1  # 1d8 (1) − 2 still gives 1
