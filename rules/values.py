"""Reading a typed value against its kind: one parser for sheet fields and campaign settings.

``/sheet set`` and ``/campaign settings`` both turn text into an integer, a yes/no, one of
a list of choices or free text.  They used to do it with two parsers that accepted
different words for «yes» and compared choices differently; both now call
:func:`parse_value`, so a word that works in one command works in the other.  The callers
translate a :class:`BadValue` into their own catalogue keys (``sheet.problem.<reason>``,
``campaign.error.<reason>``) because the messages name a sheet field or a setting.

Accepted words (documented for users in the README):

* yes/no: :data:`rules.text.YES_WORDS` and :data:`rules.text.NO_WORDS`, ignoring case and
  accents (``sí``, ``si``, ``s``, ``yes``, ``y``, ``true``, ``1``, ``on``, ``verdadero``,
  ``activado`` / ``no``, ``n``, ``false``, ``0``, ``off``, ``falso``, ``desactivado``);
* a choice: its spelling ignoring case and accents (``caotico`` is ``caótico``);
* an integer: digits with an optional sign, within the bounds;
* text: not empty and at most ``limit`` characters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from rules.systems.base import FieldKind
from rules.text import fold, parse_yes_no

__all__ = ["BadValue", "MAX_STORED", "is_int", "out_of_store", "parse_value"]

#: The one range of every whole number the bot stores (docs/sheet-format.md, «Números»):
#: each number of a sheet (XP, money, hit points, damage taken, quantities…), each XP grant
#: and its ledger's before/after, each roll's total and difficulty.  It is PostgreSQL's
#: ``integer`` (the ledger's and the log's columns), so both databases take exactly the same
#: numbers: SQLite would store 2,147,483,648 where PostgreSQL refuses it («value out of int32
#: range»).  A field may narrow it (PX from 0); nothing widens it.  Dice totals keep to it too
#: (:data:`rules.dice.limits.MAX_TOTAL`).
MAX_STORED = 2_147_483_647


def is_int(value: object) -> TypeGuard[int]:
    """A whole number stored in a sheet: ``True`` and ``False`` are not numbers there."""
    return isinstance(value, int) and not isinstance(value, bool)


class BadValue(Exception):
    """Why a typed value was refused: ``reason`` is one of ``expected_integer``,
    ``out_of_range``, ``expected_boolean``, ``expected_choice``, ``expected_text``;
    ``params`` holds what the message needs (``value``, ``minimum``, ``maximum``,
    ``choices``, ``limit``)."""

    def __init__(self, reason: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params: Mapping[str, Any] = dict(params or {})


def out_of_store(value: int) -> bool:
    """Whether ``value`` lies outside :data:`MAX_STORED`'s range (either sign)."""
    return not -MAX_STORED <= value <= MAX_STORED


def parse_value(
    kind: FieldKind,
    raw: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    choices: Sequence[str] = (),
    limit: int = 500,
) -> Any:
    """``raw`` (as typed) read as ``kind``; raises :class:`BadValue` when it is not one.

    An integer is held to ``minimum``..``maximum`` and always to :data:`MAX_STORED`'s range
    (a bound left open is that one)."""
    text = raw.strip()
    if kind == FieldKind.INTEGER:
        minimum = -MAX_STORED if minimum is None else max(minimum, -MAX_STORED)
        maximum = MAX_STORED if maximum is None else min(maximum, MAX_STORED)
        if len(text) > 20 and text.lstrip("+-").isdigit():  # no stored number is that long
            raise BadValue(
                "out_of_range", {"value": text[:12] + "…", "minimum": minimum, "maximum": maximum}
            )
        try:
            number = int(text)
        except ValueError:
            raise BadValue("expected_integer", {"value": text}) from None
        if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
            raise BadValue(
                "out_of_range", {"value": number, "minimum": minimum, "maximum": maximum}
            )
        return number
    if kind == FieldKind.BOOLEAN:
        answer = parse_yes_no(text)
        if answer is None:
            raise BadValue("expected_boolean", {"value": text})
        return answer
    if kind == FieldKind.CHOICE:
        wanted = fold(text)
        for choice in choices:
            if fold(choice) == wanted:
                return choice
        raise BadValue("expected_choice", {"value": text, "choices": ", ".join(choices)})
    if not text or len(text) > limit:
        raise BadValue("expected_text", {"limit": limit})
    return text
