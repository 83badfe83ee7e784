"""DiceError, and its es/en messages in bot/locales/<lang>/dice.toml.

Read with tomllib directly so the pure library's tests do not import the bot.
"""

from __future__ import annotations

import pickle
import string
import tomllib
from pathlib import Path

import pytest

from rules.dice import DiceError, distribution, parse, roll
from rules.dice.errors import ERROR_CODES
from tests.rules.helpers import Cells

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"

#: One input per code, so every message is formatted with the params the engine really sends.
TRIGGERS = {
    "empty": "  ",
    "too_long": "1" * 201,
    "unexpected_char": "1d6 $",
    "unexpected_end": "1d6 +",
    "number_too_long": "1234567",
    "too_many_terms": "1+" * 25 + "1",
    "too_deep": "(" * 11 + "1" + ")" * 11,
    "too_many_dice": "101d6",
    "too_many_sides": "1d1001",
    "too_many_rolls": "100d6+" * 5 + "1d6",
    "zero_dice": "0d6",
    "zero_sides": "1d0",
    "always_matches": "1d6r<7",
    "duplicate_modifier": "1d6r1r2",
    "modifier_order": "4d6kh3e6",
    "clamp_out_of_range": "1d6mi7",
    "keep_out_of_range": "4d6kh5",
    "bad_keep_one": "2o3d10",
    "test_in_expression": "1d20<=5+1",
    "division_by_zero": "1d6/0",
    "total_too_large": "999999*999999",
    "unsupported_odds": "8d6!",
    "unsupported_odds_abort": "1d6r1 + 2d6ro1",
    "odds_too_complex": "100d6kh50",
}


def _messages(lang: str) -> dict[str, str]:
    with (LOCALES / lang / "dice.toml").open("rb") as handle:
        return tomllib.load(handle)["error"]


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_code_has_a_message_and_nothing_else(lang):
    """A code may also have a ``_one`` form (bot.i18n: «un solo dado» for a count of 1)."""
    keys = set(_messages(lang))
    singular = {k for k in keys if k.endswith("_one") and k.removesuffix("_one") in ERROR_CODES}
    assert keys - singular == ERROR_CODES


def test_languages_use_the_same_placeholders():
    es, en = _messages("es"), _messages("en")
    for code in ERROR_CODES:
        assert _placeholders(es[code]) == _placeholders(en[code]), code


def _raise(code: str) -> DiceError:
    with pytest.raises(DiceError) as caught:
        _trigger(code)
    assert caught.value.code == code
    return caught.value


def _trigger(code: str) -> None:
    """Run the input that should raise ``code`` (odds codes come from the calculator)."""
    text = TRIGGERS[code]
    if code in ("unsupported_odds", "unsupported_odds_abort", "odds_too_complex"):
        distribution(text)
    else:
        parse(text)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_messages_format_with_the_params_sent(lang):
    """Every code's message formats with the params the engine really sends; a failure lists
    every code whose trigger, placeholders or formatted text is wrong."""
    cells = Cells()
    messages = _messages(lang)
    for code in sorted(ERROR_CODES):
        try:
            _trigger(code)
        except DiceError as error:
            caught = error
        else:
            cells.fail(f"{code} trigger {TRIGGERS[code][:40]!r}", "raised nothing")
            continue
        cells.check(f"{code} trigger {TRIGGERS[code][:40]!r} code", caught.code, code)
        params = dict(caught.params)
        if caught.column is not None:
            params["column"] = caught.column
        missing = _placeholders(messages[code]) - set(params)
        cells.check(f"{lang} {code} placeholders the engine does not send", missing, set())
        if not missing:
            text = messages[code].format(**params)
            cells.check(f"{lang} {code} formatted text has a '{{'", "{" in text, False)
    cells.assert_all_match()


def test_mid_roll_abort_sends_the_same_params(scripted):
    with pytest.raises(DiceError) as caught:
        roll("1d2!", scripted([2] * 501))
    assert set(caught.value.params) == set(_raise("too_many_rolls").params)


def test_unknown_codes_are_a_programming_error():
    with pytest.raises(ValueError):
        DiceError("no_such_code")


def test_errors_survive_pickling():
    error = DiceError("unexpected_char", 3, {"char": "$", "expected": ")"})
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.column, dict(again.params)) == (
        "unexpected_char",
        3,
        dict(error.params),
    )


def test_params_are_read_only():
    error = DiceError("too_long", None, {"length": 300, "limit": 200})
    with pytest.raises(TypeError):
        error.params["limit"] = 1  # type: ignore[index]
