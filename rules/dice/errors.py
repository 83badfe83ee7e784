"""The one error the dice engine raises, so callers catch a single type.

A :class:`DiceError` never carries prose: it carries a stable ``code`` (the bot looks up
``dice.error.<code>`` in its es/en catalogue), the 1-based ``column`` where the problem was
found when there is one, and the ``params`` the message needs.  Pure library code must not
choose the user's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["DiceError", "ERROR_CODES"]

#: Every code :class:`DiceError` can carry; the catalogue test checks each has es and en text.
ERROR_CODES: frozenset[str] = frozenset(
    {
        "empty",
        "too_long",
        "unexpected_char",
        "unexpected_end",
        "number_too_long",
        "too_many_terms",
        "too_deep",
        "too_many_dice",
        "too_many_sides",
        "too_many_rolls",
        "zero_dice",
        "zero_sides",
        "always_matches",
        "duplicate_modifier",
        "modifier_order",
        "clamp_out_of_range",
        "keep_out_of_range",
        "bad_keep_one",
        "test_in_expression",
        "division_by_zero",
        "total_too_large",
        "unsupported_odds",
        "unsupported_odds_abort",
        "odds_too_complex",
    }
)


class DiceError(ValueError):
    """An expression the engine refuses, with a catalogue code instead of a message.

    :param code: one of :data:`ERROR_CODES`; the catalogue key is ``dice.error.<code>``.
    :param column: 1-based column in the written expression, or ``None``.
    :param params: values for the message placeholders (``{limit}``, ``{char}``...).
    """

    def __init__(
        self, code: str, column: int | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown dice error code {code!r}")
        self.code = code
        self.column = column
        self.params: Mapping[str, Any] = MappingProxyType(dict(params or {}))
        where = f" at column {column}" if column is not None else ""
        super().__init__(f"{code}{where} {dict(self.params)}")

    def __reduce__(self) -> tuple[type[DiceError], tuple[str, int | None, dict[str, Any]]]:
        # keep the error picklable despite the custom signature
        return (type(self), (self.code, self.column, dict(self.params)))
