"""Sheet fields and campaign settings read typed values with the same parser and words."""

from __future__ import annotations

import pytest

from bot.services.campaigns.settings import parse_setting
from bot.services.shared.errors import InvalidSetting
from bot.services.sheets.characters import parse_field
from bot.words import problem_text
from rules.systems.base import FieldKind, FieldSpec, RulesError, SettingSpec
from rules.text import NO_WORDS, YES_WORDS, parse_yes_no


def test_sheet_fields_and_campaign_settings_accept_the_same_words():
    """The two parsers that used to disagree («on» worked in a setting, not in a field)."""
    field = FieldSpec("pnj", "PNJ", FieldKind.BOOLEAN)
    setting = SettingSpec("magia", FieldKind.BOOLEAN, True)
    for word in sorted(YES_WORDS | NO_WORDS) + ["Sí", "ACTIVADO"]:
        assert parse_field(field, word) == parse_setting(setting, word) == parse_yes_no(word)
    with pytest.raises(RulesError) as refused:
        parse_field(field, "quizá")
    assert refused.value.problems[0].key == "sheet.problem.expected_boolean"
    with pytest.raises(InvalidSetting) as invalid:
        parse_setting(setting, "quizá")
    assert invalid.value.key == "campaign.error.expected_boolean"


def test_out_of_range_names_open_bounds_in_settings_and_given_bounds_in_fields():
    with pytest.raises(InvalidSetting) as invalid:
        parse_setting(SettingSpec("puntos", FieldKind.INTEGER, 10, minimum=1), "0")
    assert invalid.value.params == {"key": "puntos", "value": 0, "minimum": 1, "maximum": "∞"}
    with pytest.raises(RulesError) as refused:
        parse_field(FieldSpec("atributos.Fuerza", "Fuerza", FieldKind.INTEGER, 3, 18), "19")
    problem = refused.value.problems[0]
    assert (problem.key, problem.path) == ("sheet.problem.out_of_range", "atributos.Fuerza")
    assert dict(problem.params) == {"field": "Fuerza", "value": 19, "minimum": 3, "maximum": 18}


def test_a_field_of_ids_takes_and_lists_display_names():
    """Was: «elige una de estas opciones: versatil, especialista» (the ids, no accent)."""
    pyramid = FieldSpec(
        "piramide", "Pirámide", FieldKind.CHOICE, choices=("versatil", "especialista")
    )
    assert parse_field(pyramid, "Versátil", "nucleo") == "versatil"
    assert parse_field(pyramid, "specialist", "nucleo") == "especialista"  # the English name
    assert parse_field(pyramid, "especialista", "nucleo") == "especialista"  # the id still
    with pytest.raises(RulesError) as refused:
        parse_field(pyramid, "rara", "nucleo")
    (problem,) = refused.value.problems
    spanish = problem_text(problem.key, problem.params, "es")
    assert (
        spanish
        == "«Pirámide» no admite «rara»: elige una de estas opciones: Versátil, Especialista."
    )
    assert "Versatile, Specialist" in problem_text(problem.key, problem.params, "en")
