"""Núcleo's advancement table (issue 23 §4, a house rule: seed 002 gives PX no costs).

Costs ``px_habilidad`` × the new level for a skill or spell, ``px_atributo`` × the new value
for an attribute; within the maxima (10, the race's) and the pyramid's shape (no level with
more skills than the one below); every purchase recorded, so the creation rules still hold
for the sheet as created."""

from __future__ import annotations

import pytest

from rules.nucleo import advancement
from rules.nucleo.system import SYSTEM
from rules.systems.base import RulesError, capabilities
from tests.examples import ardelia


def _refused(sheet, what, settings=None) -> list[str]:
    with pytest.raises(RulesError) as error:
        SYSTEM.purchase(sheet, what, settings or {})
    return [p.key for p in error.value.problems]


def test_a_new_skill_widens_the_pyramid_and_the_creation_rules_still_hold():
    sheet = ardelia(px=10)
    result = SYSTEM.purchase(sheet, "habilidad:Nadar", {})
    assert (result.xp_before, result.xp_after) == (10, 8)  # a new skill at 1: 2 × 1
    assert result.sheet["habilidades"]["Nadar"] == 1
    assert result.sheet["mejoras"] == [
        {"que": "habilidad", "nombre": "Nadar", "de": 0, "a": 1, "px": 2}
    ]
    assert SYSTEM.validate(result.sheet, {}) == []  # 37 points and the exact pyramid, as created


def test_an_attribute_costs_its_new_value_times_three():
    result = SYSTEM.purchase(ardelia(px=30), "Físico", {})
    assert (result.sheet["atributos"]["Físico"], result.xp_after) == (7, 30 - 21)
    assert SYSTEM.validate(result.sheet, {}) == []
    cheaper = SYSTEM.purchase(ardelia(px=30), "atributo:Físico", {"px_atributo": 1})
    assert cheaper.xp_after == 30 - 7


def test_the_pyramid_keeps_its_shape():
    """Ardelia's exact pyramid lets her raise nothing but new skills at first: raising a 1
    would leave 6 skills at 2 over 5 at 1.  Two new skills at 1, and a 1 can become a 2."""
    sheet = ardelia(px=100)
    assert _refused(sheet, "habilidad:Sigilo") == ["nucleo.problem.pyramid_shape"]
    for skill in ("Nadar", "Rastrear"):
        sheet = SYSTEM.purchase(sheet, f"habilidad:{skill}", {}).sheet
    raised = SYSTEM.purchase(sheet, "habilidad:Sigilo", {})
    assert raised.sheet["habilidades"]["Sigilo"] == 2 and raised.xp_before - raised.xp_after == 4
    assert SYSTEM.validate(raised.sheet, {}) == []


def test_maxima_px_and_unknown_names_are_refused_with_the_reason():
    assert _refused(ardelia(px=0), "habilidad:Nadar") == ["nucleo.problem.advance_px"]
    top = ardelia(px=500)
    top["atributos"]["Inteligencia"] = 10
    top["atributos"]["Carisma"] = 6
    assert _refused(top, "Inteligencia") == ["nucleo.problem.advance_maximum"]
    assert _refused(ardelia(px=50), "habilidad:Volar") == ["nucleo.problem.advance_unknown"]


def test_purchases_lists_what_the_px_pay_for_within_the_pyramid():
    offered = {o.value: o.label for o in SYSTEM.purchases(ardelia(px=21), {})}
    assert offered["habilidad:Nadar"] == "Nadar 0 → 1 (2 PX)"
    assert offered["atributo:Físico"] == "Físico 6 → 7 (21 PX)"
    assert "atributo:Inteligencia" not in offered  # 10 × 3 = 30 > 21
    assert "habilidad:Sigilo" not in offered  # the pyramid
    assert SYSTEM.purchases(ardelia(px=0), {}) == ()


def test_a_purchase_can_wait_for_the_gms_approval():
    approval = capabilities(SYSTEM).purchase_approval
    assert approval is not None and approval.needs_approval({})
    assert not approval.needs_approval({"mejoras_con_aprobacion": False})
    waiting, shown = approval.ask_purchase(ardelia(px=10), "nadar", {})
    assert shown == "Nadar 0 → 1 (2 PX)" and approval.pending_purchase(waiting) == "habilidad:Nadar"
    assert waiting["px"] == 10 and "Nadar" not in waiting["habilidades"]  # nothing bought yet
    assert SYSTEM.validate(waiting, {}) == []
    bought = SYSTEM.purchase(waiting, approval.pending_purchase(waiting), {})
    assert approval.pending_purchase(bought.sheet) is None
    with pytest.raises(RulesError):
        approval.ask_purchase(ardelia(px=0), "nadar", {})  # refused at once, not at approval
    assert approval.pending_purchase(approval.drop_pending(waiting)) is None


def test_created_undoes_every_purchase():
    sheet = ardelia(px=100)
    for what in ("habilidad:Nadar", "habilidad:Rastrear", "habilidad:Sigilo", "Físico"):
        sheet = SYSTEM.purchase(sheet, what, {}).sheet
    before = advancement.created(sheet)
    assert before["habilidades"] == ardelia()["habilidades"]
    assert before["atributos"] == ardelia()["atributos"]
