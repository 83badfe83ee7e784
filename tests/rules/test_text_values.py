"""The shared text helpers and the one value parser of sheet fields and campaign settings."""

from __future__ import annotations

import pytest

from rules.systems.base import FieldKind
from rules.text import NO_WORDS, YES_WORDS, fold, fold_words, parse_yes_no
from rules.values import BadValue, parse_value


def test_fold_ignores_case_accents_and_outer_spaces_but_keeps_inner_spaces():
    assert fold("  Curación ") == "curacion"
    assert fold("ARDÉLIA") == fold("ardelia") == "ardelia"
    assert fold("Año") == "ano"
    # Character names are stored under fold(): an inner double space must stay as typed.
    assert fold("Ana  María") == "ana  maria"


def test_fold_words_also_collapses_inner_spaces():
    assert fold_words(" Navegación   Espacial ") == "navegacion espacial"


@pytest.mark.parametrize("word", ["sí", "SI", "s", "Yes", "y", "true", "1", "on", "Verdadero"])
def test_yes_words(word):
    assert parse_yes_no(word) is True


@pytest.mark.parametrize("word", ["no", "N", "false", "0", "off", "Falso", "desactivado"])
def test_no_words(word):
    assert parse_yes_no(word) is False


@pytest.mark.parametrize("word", ["", "quizá", "2", "sii"])
def test_other_words_are_neither(word):
    assert parse_yes_no(word) is None


def test_yes_and_no_words_are_folded_and_disjoint():
    assert not YES_WORDS & NO_WORDS
    assert all(fold(w) == w for w in YES_WORDS | NO_WORDS)


def test_parse_integer_within_bounds():
    assert parse_value(FieldKind.INTEGER, " 12 ", minimum=3, maximum=18) == 12
    with pytest.raises(BadValue) as bad:
        parse_value(FieldKind.INTEGER, "doce")
    assert (bad.value.reason, dict(bad.value.params)) == ("expected_integer", {"value": "doce"})
    with pytest.raises(BadValue) as bad:
        parse_value(FieldKind.INTEGER, "19", minimum=3, maximum=18)
    assert bad.value.reason == "out_of_range"
    assert dict(bad.value.params) == {"value": 19, "minimum": 3, "maximum": 18}


def test_parse_boolean_uses_the_shared_words():
    assert parse_value(FieldKind.BOOLEAN, "Sí") is True
    assert parse_value(FieldKind.BOOLEAN, "desactivado") is False
    with pytest.raises(BadValue) as bad:
        parse_value(FieldKind.BOOLEAN, "quizá")
    assert (bad.value.reason, dict(bad.value.params)) == ("expected_boolean", {"value": "quizá"})


def test_parse_choice_ignores_case_and_accents_and_returns_the_listed_spelling():
    choices = ("legal", "neutral", "caótico")
    assert parse_value(FieldKind.CHOICE, "CAOTICO", choices=choices) == "caótico"
    with pytest.raises(BadValue) as bad:
        parse_value(FieldKind.CHOICE, "malvado", choices=choices)
    assert bad.value.reason == "expected_choice"
    assert bad.value.params["choices"] == "legal, neutral, caótico"


def test_parse_text_bounds():
    assert parse_value(FieldKind.TEXT, "  Bastón  ") == "Bastón"
    for raw in ("   ", "x" * 11):
        with pytest.raises(BadValue) as bad:
            parse_value(FieldKind.TEXT, raw, limit=10)
        assert (bad.value.reason, dict(bad.value.params)) == ("expected_text", {"limit": 10})


def test_visible_escapes_what_a_reader_cannot_see():
    """Issue 23 §7: an error echoed U+200B, NUL and U+202E raw."""
    from rules.text import visible

    assert visible("\u200b") == "U+200B"
    assert visible("a\x00b") == "aU+0000b"
    assert visible("\u202eabc") == "U+202Eabc"
    assert visible("\u00a0") == "U+00A0"
    assert visible("ñ á 🙂 *") == "ñ á 🙂 *"  # letters, emoji, the plain space stay
