"""MUERTE DE UN PERSONAJE JUGADOR (seed 001): the new character takes «todos los puntos de
experiencia acumulados hasta el momento» of the dead one."""

from __future__ import annotations

from rules.rolweb.system import SYSTEM
from rules.systems.base import XpInheritance


def _sheet(state="muerto", total=130, npc=False):
    sheet = SYSTEM.new_sheet("Ardelia", {}) | {"pnj": npc, "estado": state}
    sheet["xp"] = {"total": total, "gastada": 90}
    return sheet


def test_only_a_dead_player_character_passes_its_whole_total():
    assert isinstance(SYSTEM, XpInheritance)
    assert SYSTEM.inherited_xp(_sheet(), {}) == 130  # spent or not: all it accumulated
    assert SYSTEM.inherited_xp(_sheet("moribundo"), {}) is None
    assert SYSTEM.inherited_xp(_sheet(npc=True), {}) is None


def test_the_new_draft_starts_with_it_and_the_attributes_step_keeps_it():
    draft = SYSTEM.inherit_xp(SYSTEM.new_sheet("Brenna", {}), 130, {})
    assert draft["xp"] == {"total": 130, "gastada": 0}
    assert SYSTEM.inherit_xp(SYSTEM.new_sheet("Brenna", {}), 20, {})["xp"]["total"] == 50
    answer = {"Ágil": "13", "Astuto": "8", "Atento": "10", "Diestro": "11"}
    after = SYSTEM.apply_creation_step(draft, "atributos_1", answer, {}, None).draft
    assert after["xp"]["total"] == 130
    plain = SYSTEM.apply_creation_step(SYSTEM.new_sheet("C", {}), "atributos_1", answer, {}, None)
    assert plain.draft["xp"]["total"] == 50
