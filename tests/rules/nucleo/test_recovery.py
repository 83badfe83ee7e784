"""Healing between fights in Núcleo (issue 23 §3; seed 002 «Recuperar el aliento» lines
225-227, Recuperación line 305, Curación line 330)."""

from __future__ import annotations

import pytest

from rules.nucleo.system import SYSTEM
from rules.systems.base import CatchBreath, Recovery, RulesError, capabilities

from .conftest import ScriptedRandom, keys, render


def hurt(ardelia, wounds: int, **changes):
    ardelia.update(heridas=wounds, **changes)
    return ardelia


def sturdy(ardelia, wounds: int):
    """Físico 8 with Recuperación («Cura 2 PV adicional en cada curación, natural o mágica»)."""
    ardelia["atributos"] = {**ardelia["atributos"], "Físico": 8}
    return hurt(ardelia, wounds, ventaja="Recuperación")


def test_catching_breath_heals_1d6_once_after_each_fight(ardelia):
    """«Tras un combate … Ésto recupera 1d6 puntos de vida»; the seed sets no limit: once
    after each fight by default (``recuperar_aliento``)."""
    assert isinstance(capabilities(SYSTEM).catch_breath, CatchBreath)
    first = SYSTEM.catch_breath(hurt(ardelia, 10), 7, {}, ScriptedRandom([4]))
    assert first.healed == 4 and first.sheet["heridas"] == 6
    assert first.roll is not None and first.roll.breakdown == "1d6 (4) = 4"
    assert first.sheet["aliento_tras_combate"] == 7
    with pytest.raises(RulesError) as taken:
        SYSTEM.catch_breath(first.sheet, 7, {}, ScriptedRandom([4]))
    with pytest.raises(RulesError) as no_fight:
        SYSTEM.catch_breath(
            hurt(ardelia, 10, aliento_tras_combate=None), None, {}, ScriptedRandom([1])
        )
    assert keys(taken.value.problems + no_fight.value.problems) == [
        "nucleo.problem.breath_taken",
        "nucleo.problem.breath_no_fight",
    ]
    after_next = SYSTEM.catch_breath(first.sheet, 8, {}, ScriptedRandom([6]))
    assert after_next.sheet["heridas"] == 0 and after_next.healed == 6
    free = {"recuperar_aliento": "libre"}
    again = SYSTEM.catch_breath(after_next.sheet, None, free, ScriptedRandom([2]))
    assert again.healed == 0  # nothing left to heal, but the GM's free rule allows it


def test_recuperacion_adds_two_to_the_breath_and_to_each_day_of_rest(ardelia):
    """Line 305: «Cura 2 PV adicional en cada curación, natural o mágica»."""
    breath = SYSTEM.catch_breath(sturdy(ardelia, 12), 1, {}, ScriptedRandom([3]))
    assert breath.healed == 5 and "nucleo.note.recuperacion" in breath.notes
    for note in breath.notes:
        render(note, "es"), render(note, "en")
    rested = SYSTEM.rest_days(sturdy(ardelia, 12), 2, {})
    assert rested.healed == 6  # (1 + 2) a day, two days


def test_days_of_rest_heal_the_campaigns_rate_and_refill_the_mana(ardelia):
    """The seed gives no natural healing: ``curacion_por_dia`` PV a day (house default 1, 0
    turns it off); a night's rest refills the mana."""
    assert isinstance(capabilities(SYSTEM).recovery, Recovery)
    rested = SYSTEM.rest_days(hurt(ardelia, 5, mana_gastado=3), 3, {})
    assert rested.healed == 3 and rested.sheet["heridas"] == 2
    assert rested.sheet["mana_gastado"] == 0 and rested.restored == ("rest.restored.mana",)
    off = SYSTEM.rest_days(hurt(ardelia, 5), 3, {"curacion_por_dia": 0})
    assert off.healed == 0
    assert SYSTEM.rest_days(hurt(ardelia, 5), 30, {"curacion_por_dia": 4}).sheet["heridas"] == 0
    dead = SYSTEM.rest_days(hurt(ardelia, 200), 3, {})
    assert dead.healed == 0 and dead.notes == ("rest.note.dead",)
    with pytest.raises(RulesError):
        SYSTEM.catch_breath(hurt(ardelia, 200), 1, {}, ScriptedRandom([1]))


def test_a_state_change_is_noted(ardelia):
    """Healing from Malherido back to normal says so (the state is the seed's)."""
    result = SYSTEM.rest_days(hurt(ardelia, 18), 1, {"curacion_por_dia": 5})
    assert result.state == "normal" and "nucleo.note.estado_normal" in result.notes


def test_a_told_amount_is_refused_for_a_spell_that_rolls(ardelia):
    """Only S&W's undefined spells take the caster's amount; Núcleo's roll their own."""
    from rules.systems.base import SpellRequest

    ardelia["hechizos"] = {"Curación": 1}
    with pytest.raises(RulesError) as error:
        SYSTEM.cast(
            ardelia, SpellRequest(spell="Curación", mana=1, amount=5), {}, ScriptedRandom([5])
        )
    assert keys(error.value.problems) == ["nucleo.problem.spell_amount"]
