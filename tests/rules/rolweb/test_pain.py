"""The pain threshold's choice and «en el suelo» (seed 001: UMBRAL DE DOLOR line 131 «el
jugador debe elegir uno de los siguientes efectos: El defensor cae al suelo y debe gastar una o
más acciones para levantarse. El atacante obtiene un ataque gratuito contra el defensor»;
VENTAJA line 216; LEVANTARSE lines 60 and 181)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rules.combat.actions import Allowance, Cost, Ledger, judge
from rules.combat.attack import AttackOutcome, AttackRequest, Fighter
from rules.rolweb import pain
from rules.rolweb.system import SYSTEM
from rules.systems.base import ActRequest, PainChoices, Prone, RulesError, capabilities

from .conftest import FixedRandom
from .test_fight import ardelia, orc

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"


def _tough():
    """The orc with a stat block's Resistencia 30 (two hits over its threshold leave it up)."""
    sheet = orc()
    sheet["resistencia"] = {"actual": 30, "maxima": 30}
    return sheet


def _hurt(sheet, amount=7):
    """Damage through the system as /attack writes it."""
    return SYSTEM.apply_damage(sheet, amount, {})


def test_the_system_offers_the_choice_and_the_ground():
    able = capabilities(SYSTEM)
    assert isinstance(SYSTEM, PainChoices) and isinstance(SYSTEM, Prone)
    assert able.pain_choices is SYSTEM and able.prone is SYSTEM


def test_a_hit_over_the_threshold_on_one_standing_owes_the_choice():
    """Orco: Fuerte 12, Umbral 6 — 7 damage owes a choice, numbered; 5 does not."""
    wound = _hurt(orc(), 7)
    assert wound.owed == 1 and "rolweb.note.pain_threshold" in wound.notes
    [owed] = SYSTEM.pain_owed(wound.sheet)
    assert (owed.ref, owed.attacker, owed.options) == (1, None, ("derribado", "ataque_gratuito"))
    assert _hurt(orc(), 5).owed is None and SYSTEM.pain_owed(_hurt(orc(), 5).sheet) == ()
    wound = _hurt(_tough(), 7)
    again = _hurt(wound.sheet, 6)  # a second hit: a second choice, the next number
    assert [o.ref for o in SYSTEM.pain_owed(again.sheet)] == [1, 2] and again.owed == 2


def test_one_fallen_owes_nothing():
    """A hit that kills (an NPC) or leaves dying (a character) has nobody standing to choose:
    no choice, and older ones are dropped with the ground (the dying lie anyway)."""
    owing = SYSTEM.set_prone(_hurt(ardelia(), 6).sheet, True)
    assert SYSTEM.pain_owed(owing)
    dying = _hurt(owing, 30)
    assert dying.state == "moribundo" and dying.owed is None
    assert SYSTEM.pain_owed(dying.sheet) == () and not SYSTEM.is_prone(dying.sheet)
    assert _hurt(orc(), 30).owed is None  # dead


def test_falling_prone_is_chosen_once():
    sheet = SYSTEM.name_attacker(_hurt(orc()).sheet, "Ardelia")
    chosen = SYSTEM.choose_pain(sheet, 1, "derribado", {})
    assert chosen.prone and not chosen.free_attack and not chosen.by_default
    assert chosen.attacker == "Ardelia" and SYSTEM.is_prone(chosen.sheet)
    assert SYSTEM.pain_owed(chosen.sheet) == ()
    with pytest.raises(RulesError) as twice:
        SYSTEM.choose_pain(chosen.sheet, 1, "ataque_gratuito", {})
    assert twice.value.problems[0].key == "pain.problem.not_owed"


def test_the_free_attack_leaves_it_standing():
    chosen = SYSTEM.choose_pain(_hurt(orc()).sheet, 1, "ataque_gratuito", {})
    assert chosen.free_attack and not chosen.prone and not SYSTEM.is_prone(chosen.sheet)


def test_an_unknown_option_is_refused():
    with pytest.raises(RulesError) as bad:
        SYSTEM.choose_pain(_hurt(orc()).sheet, 1, "huir", {})
    assert bad.value.problems[0].key == "pain.problem.bad_choice"


@pytest.mark.parametrize(
    ("setting", "prone"), [({}, True), ({"umbral_por_defecto": "ataque_gratuito"}, False)]
)
def test_the_default_is_the_campaigns(setting, prone):
    """Unchosen before the hurt one's turn: ``umbral_por_defecto`` (derribado by default)."""
    chosen = SYSTEM.choose_pain(_hurt(orc()).sheet, 1, None, setting)
    assert chosen.by_default and chosen.prone is prone and SYSTEM.is_prone(chosen.sheet) is prone


def test_a_bad_default_setting_is_refused():
    with pytest.raises(RulesError) as bad:
        SYSTEM.choose_pain(_hurt(orc()).sheet, 1, None, {"umbral_por_defecto": "nada"})
    assert bad.value.problems[0].key == "rolweb.problem.bad_setting"


def test_numbers_are_never_reused():
    """A stale button (choice 1, made) never matches the next hit's choice."""
    made = SYSTEM.choose_pain(_hurt(_tough()).sheet, 1, "ataque_gratuito", {}).sheet
    again = _hurt(made, 6)
    assert again.owed == 2
    with pytest.raises(RulesError):
        SYSTEM.choose_pain(again.sheet, 1, "derribado", {})


def test_melee_against_one_on_the_ground_has_advantage():
    """VENTAJA: +2 to the test and +1D4 damage, melee only; a prone attacker has none."""
    target = SYSTEM.set_prone(orc(), True)
    request = AttackRequest(Fighter("Ardelia", ardelia()), Fighter("Orco", target))
    result = SYSTEM.attack(request, {}, FixedRandom(15, 7, 3))
    assert ("Ventaja", 2) in result.modifiers and result.target_number == 15
    assert result.outcome is AttackOutcome.HIT and result.damage == 10
    assert "rolweb.note.target_prone" in result.notes
    standing = SYSTEM.attack(
        AttackRequest(Fighter("Ardelia", ardelia()), Fighter("Orco", orc())), {}, FixedRandom(15)
    )
    assert standing.outcome is AttackOutcome.MISS and standing.target_number == 13
    both_down = AttackRequest(
        Fighter("Ardelia", SYSTEM.set_prone(ardelia(), True)), Fighter("Orco", target)
    )
    assert SYSTEM.attack(both_down, {}, FixedRandom(15)).outcome is AttackOutcome.MISS


def test_a_player_on_the_ground_defends_at_minus_two():
    """Players roll their defence: against an NPC's melee blow while on the ground, −2."""
    request = AttackRequest(
        Fighter("Orco", orc()),
        Fighter("Ardelia", SYSTEM.set_prone(ardelia(), True), player=True),
        defender_rolls=True,
    )
    asked = SYSTEM.attack(request, {}, FixedRandom())
    standing = SYSTEM.attack(
        AttackRequest(Fighter("Orco", orc()), Fighter("Ardelia", ardelia()), defender_rolls=True),
        {},
        FixedRandom(),
    )
    assert asked.defence_request is not None and standing.defence_request is not None
    assert asked.defence_request.target == standing.defence_request.target - 2


def test_standing_up_costs_what_the_agil_test_says():
    """Ágil 12: 12 passes (one movement action), 13 fails (the whole turn: two)."""
    down = SYSTEM.set_prone(ardelia(), True)
    up = SYSTEM.stand_test(down, {}, FixedRandom(12))
    assert up.success and up.costs == (ActRequest("stand"),) and up.target == 12
    assert up.breakdown == "1d20 (12) ≤ 12"
    slow = SYSTEM.stand_test(down, {}, FixedRandom(13))
    assert not slow.success and slow.costs == (ActRequest("stand"), ActRequest("stand"))


def test_the_whole_turn_is_the_movement_and_the_combat_action():
    """Priced by the one ledger: the second movement is the combat action turned into one;
    with the combat action spent there is no whole turn left."""
    allowance = SYSTEM.action_allowance(1, {})
    use = SYSTEM.action_cost(ActRequest("stand"), {})
    assert use.cost is Cost.MOVEMENT
    first = judge(allowance, Ledger(), use, 1)
    second = judge(allowance, first.ledger, use, 1)
    assert (first.spent, second.spent) == ("movimiento", "principal_como_movimiento")
    attacked = Ledger(round=1, main=1)
    after_move = judge(allowance, attacked, use, 1)
    with pytest.raises(RulesError):
        judge(allowance, after_move.ledger, use, 1)
    assert isinstance(allowance, Allowance)


def test_only_one_on_the_ground_and_alive_stands():
    with pytest.raises(RulesError) as standing:
        SYSTEM.stand_test(ardelia(), {}, FixedRandom(1))
    assert standing.value.problems[0].key == "pain.problem.not_prone"
    dying = SYSTEM.set_prone(_hurt(ardelia(), 30).sheet, True)
    with pytest.raises(RulesError) as fallen:
        SYSTEM.stand_test(dying, {}, FixedRandom(1))
    assert fallen.value.problems[0].key == "pain.problem.cannot_stand"


def test_the_panel_and_the_sheet_show_it():
    sheet = SYSTEM.set_prone(_hurt(orc()).sheet, True)
    state = SYSTEM.combat_state(sheet, {})
    assert state.prone and state.choice_owed
    plain = SYSTEM.combat_state(orc(), {})
    assert not plain.prone and not plain.choice_owed
    derived = {d.key: d.value for d in SYSTEM.derived(sheet, {})}
    assert derived[pain.PRONE_KEY] == "En el suelo" and derived[pain.OWED_KEY] == 1
    assert pain.PRONE_KEY not in {d.key for d in SYSTEM.derived(orc(), {})}


def test_the_fight_ending_gets_everyone_up():
    sheet = SYSTEM.set_prone(_hurt(orc()).sheet, True)
    after = SYSTEM.after_fight(sheet)
    assert not SYSTEM.is_prone(after) and SYSTEM.pain_owed(after) == ()


def test_the_free_attack_it_grants_is_a_reaction():
    """``ataque_libre_dolor``: a free attack (ATAQUE GRATUITO: a reaction, uncounted)."""
    use = SYSTEM.action_cost(ActRequest("attack", frozenset({"ataque_libre_dolor"})), {})
    assert use.cost is Cost.REACTION
    assert "ataque_libre_dolor" in SYSTEM.attack_circumstances()
    request = AttackRequest(
        Fighter("Ardelia", ardelia()),
        Fighter("Orco", orc()),
        circumstances=frozenset({"ataque_libre_dolor"}),
    )
    result = SYSTEM.attack(request, {}, FixedRandom(20))
    assert "rolweb_fight.note.free_umbral_de_dolor" in result.notes


def test_imports_accept_what_the_rules_wrote():
    assert {pain.PRONE_KEY, pain.OWED_KEY, pain.LAST_KEY} <= SYSTEM.extra_sheet_keys


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_key_is_in_the_catalogue(lang):
    with (LOCALES / lang / "pain.toml").open("rb") as handle:
        raw = tomllib.load(handle)
    for table, key in (
        ("problem", "not_owed"),
        ("problem", "bad_choice"),
        ("problem", "not_prone"),
        ("problem", "cannot_stand"),
        ("option", "derribado"),
        ("option", "ataque_gratuito"),
        ("chosen", "derribado"),
        ("chosen", "ataque_gratuito"),
    ):
        assert raw[table][key]
