"""Timed effects stored with the sheet (issue 11 §3; rules/combat/effects.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat import effects
from rules.combat.effects import Effect, Modifier, TurnAction
from rules.systems.base import RulesError

NIEBLA = Effect("Niebla", 2, (Modifier("attribute:Percepción", -2),), source="hechizo:Niebla")
AURA = Effect("Aura de Curación", 1, text="Cura 2 puntos", action=TurnAction("heal", "2"))


def test_effects_are_stored_under_one_versioned_key_and_never_mutate_the_sheet():
    sheet = {"name": "Ardelia"}
    with_fog = effects.add(sheet, NIEBLA)
    assert sheet == {"name": "Ardelia"}
    assert with_fog["efectos"]["_v"] == effects.EFFECTS_VERSION
    assert effects.effects(with_fog) == (NIEBLA,)
    # the same name again restarts it instead of stacking
    again = effects.add(with_fog, Effect("niebla", 5, NIEBLA.modifiers))
    assert [(e.name, e.rounds) for e in effects.effects(again)] == [("niebla", 5)]
    without, removed = effects.remove(again, "NIEBLA")
    assert removed.rounds == 5 and "efectos" not in without
    with pytest.raises(RulesError) as error:
        effects.remove(without, "Niebla")
    assert error.value.problems[0].key == "effects.problem.unknown_effect"


def test_ticking_counts_down_expires_once_and_keeps_lasting_effects():
    sheet = effects.add(effects.add(effects.add({}, NIEBLA), AURA), Effect("Maldición"))
    first = effects.tick(sheet)
    assert [e.name for e in first.expired] == ["Aura de Curación"]
    assert [e.name for e in first.actions] == ["Aura de Curación"]  # heals on its last turn too
    assert [(e.name, e.rounds) for e in effects.effects(first.sheet)] == [
        ("Niebla", 1),
        ("Maldición", None),
    ]
    second = effects.tick(first.sheet)
    assert [e.name for e in second.expired] == ["Niebla"]
    assert effects.tick(second.sheet).expired == ()


def test_an_effect_of_n_rounds_affects_n_of_its_owners_turns():
    """Issue 23 §2: the play-test's 1-round «Cegada», added to Vex before her turn, ended as
    her turn began and never affected her.  Rounds are counted as the owner's turn ends."""
    blind = Effect("Cegada", 1, (Modifier("check", -2),))
    # added before her turn in this round: on during her turn, gone as it ends
    sheet = effects.add({}, blind)
    during = effects.begin_turn(sheet)
    assert [e.name for e in effects.effects(during.sheet)] == ["Cegada"]
    assert effects.check_modifiers(during.sheet, "atributo:Ágil") == [("Cegada", -2)]
    assert [e.name for e in effects.end_turn(during.sheet).expired] == ["Cegada"]
    # added on her own turn (a spell she cast): that turn does not count, the next does
    mine = effects.add(effects.begin_turn({}).sheet, Effect("Fuerza", 1))
    after = effects.end_turn(mine)
    assert after.expired == () and [e.rounds for e in effects.effects(after.sheet)] == [1]
    nxt = effects.begin_turn(after.sheet)
    assert [e.name for e in effects.end_turn(nxt.sheet).expired] == ["Fuerza"]
    # added to one who already acted this round: it waits for her next turn (nothing ends
    # until a turn of hers has begun with it)
    acted = effects.end_turn(effects.add({}, Effect("Niebla", 2)))
    assert acted.expired == () and [e.rounds for e in effects.effects(acted.sheet)] == [2]


def test_a_fight_ends_the_effects_in_rounds_unless_kept():
    sheet = effects.add(effects.add({}, NIEBLA), Effect("Maldición"))
    ended = effects.end_of_fight(effects.begin_turn(sheet).sheet)
    assert [e.name for e in ended.expired] == ["Niebla"]
    assert [e.name for e in effects.effects(ended.sheet)] == ["Maldición"]
    kept = effects.end_of_fight(effects.begin_turn(sheet).sheet, keep=True)
    assert kept.expired == () and not any(e.started for e in effects.effects(kept.sheet))


def test_modifiers_by_key():
    sheet = effects.add(
        effects.add({}, NIEBLA),
        Effect(
            "Sombras", 3, (Modifier("check:habilidad:Sigilo", 10), Modifier("damage", 0, "1d6"))
        ),
    )
    assert effects.check_modifiers(sheet, "habilidad:Advertir/Notar", "Percepción") == [
        ("Niebla", -2)
    ]
    assert effects.check_modifiers(sheet, "habilidad:Sigilo", "Destreza") == [("Sombras", 10)]
    assert effects.option_modifiers(sheet, "atributo:Percepción") == [("Niebla", -2)]
    assert effects.damage_dice(sheet) == [("Sombras", "1d6")]


@pytest.mark.parametrize(
    ("effect", "problem"),
    [
        (Effect(" "), "bad_name"),
        (Effect("X", 0), "bad_rounds"),
        (Effect("X", 2, (Modifier("suerte", 1),)), "bad_key"),
        (Effect("X", 2, (Modifier("damage", 0, "1d"),)), "bad_dice"),
        (Effect("X", 2, action=TurnAction("volar")), "bad_action"),
    ],
)
def test_bad_effects_are_refused_with_a_translatable_problem(effect, problem):
    with pytest.raises(RulesError) as error:
        effects.add({}, effect)
    assert error.value.problems[0].key == f"effects.problem.{problem}"


def test_turn_actions_roll():
    heal = effects.roll_action(AURA, random.Random(1))
    assert (heal.kind, heal.amount) == ("heal", 2)
    mirror = Effect("Espejo de Sombras", 3, action=TurnAction("miss_chance", percent=50))
    rolls = [effects.roll_action(mirror, random.Random(seed)) for seed in range(40)]
    assert all(r.missed == (r.total <= 50) for r in rolls) and {r.missed for r in rolls} == {
        True,
        False,
    }
    with pytest.raises(RulesError):
        effects.roll_action(NIEBLA, random.Random(1))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 8), min_size=1, max_size=6))
def test_every_timed_effect_expires_after_exactly_its_rounds(durations):
    sheet: dict = {}
    for i, rounds in enumerate(durations):
        sheet = effects.add(sheet, Effect(f"E{i}", rounds))
    expired_at: dict[str, int] = {}
    for turn in range(1, 10):
        ticked = effects.tick(sheet)
        for effect in ticked.expired:
            expired_at[effect.name] = turn
        sheet = ticked.sheet
    assert expired_at == {f"E{i}": rounds for i, rounds in enumerate(durations)}
    assert effects.effects(sheet) == ()
