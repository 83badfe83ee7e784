"""The ``modifier`` option of ``/effect add``: what a GM types, as :class:`Modifier`s.

The syntax is a comma-separated list of ``<what><sign><amount>``::

    PER-2                 → every roll of Percepción and its skills −2 (Núcleo)
    Defensa+4, ataque+1   → AC/Defensa +4 and +1 to hit
    daño+1d6              → a rolled damage bonus
    Sigilo+10             → one /check option (a skill) +10
    salvación+4, tiradas-1

``<what>`` is read against the character's own sheet, so the words are the system's own:
the fixed words (:data:`ALIASES`), then an attribute of the sheet (its full name or an
unambiguous start of it, e.g. ``PER``, ``Fís``), then a ``/check`` option (``Sigilo``,
``habilidad:Sigilo``).  Anything else is refused with the list of what is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules import dice
from rules.combat import effects
from rules.combat.effects import Modifier
from rules.systems.base import GameSystem, Problem, RulesError
from rules.text import fold

__all__ = ["ALIASES", "MAX_MODIFIERS", "parse_modifiers"]

MAX_MODIFIERS = 6
MAX_VALUE = 100

#: Fixed words (accents and case ignored) → effect key.
ALIASES: dict[str, str] = {
    "defensa": effects.DEFENCE,
    "ca": effects.DEFENCE,
    "defence": effects.DEFENCE,
    "ac": effects.DEFENCE,
    "ataque": effects.TO_HIT,
    "impactar": effects.TO_HIT,
    "attack": effects.TO_HIT,
    "dano": effects.DAMAGE,
    "damage": effects.DAMAGE,
    "salvacion": effects.SAVES,
    "salvaciones": effects.SAVES,
    "save": effects.SAVES,
    "saves": effects.SAVES,
    "absorcion": effects.ABSORPTION,
    "absorption": effects.ABSORPTION,
    "tiradas": effects.CHECK,
    "todo": effects.CHECK,
    "checks": effects.CHECK,
}

_ITEM = re.compile(r"^\s*(?P<what>[^+\-]+?)\s*(?P<sign>[+\-])\s*(?P<amount>[0-9dD]+)\s*$")


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(f"effects.problem.{key}", "", params))


def _target(what: str, system: GameSystem, sheet: Mapping[str, Any], settings: Any) -> str:
    """The effect key ``what`` names on this sheet (see the module docstring)."""
    folded = fold(what)
    if folded in ALIASES:
        return ALIASES[folded]
    if folded.startswith(("check:", "attribute:")):
        return what.strip()
    options = tuple(system.check_options(sheet, settings))
    attributes = [o.key.split(":", 1)[1] for o in options if o.key.startswith("atributo:")]
    exact = [a for a in attributes if fold(a) == folded]
    starts = [a for a in attributes if len(folded) >= 2 and fold(a).startswith(folded)]
    if exact or len(starts) == 1:
        return f"attribute:{(exact or starts)[0]}"
    for option in options:
        tail = option.key.split(":", 1)[-1]
        if folded in (fold(option.key), fold(tail), fold(option.label)):
            return f"check:{option.key}"
    # the catalogue lists the words in the reader's language (was: the folded ids, «dano»)
    raise _refuse("unknown_target", what=what.strip())


def parse_modifiers(
    text: str, system: GameSystem, sheet: Mapping[str, Any], settings: Any
) -> tuple[Modifier, ...]:
    """``"PER-2, daño+1d6"`` → modifiers keyed for :mod:`rules.combat.effects`, or a
    translated refusal naming the part that could not be read."""
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts:
        raise _refuse("bad_modifier", text=text.strip(), example="PER-2, Defensa+4")
    if len(parts) > MAX_MODIFIERS:
        raise _refuse("too_many_modifiers", limit=MAX_MODIFIERS)
    found = []
    for part in parts:
        match = _ITEM.match(part)
        if match is None:
            raise _refuse("bad_modifier", text=part.strip(), example="PER-2, Defensa+4")
        key = _target(match["what"], system, sheet, settings)
        amount = match["amount"].lower()
        if "d" in amount:
            if key != effects.DAMAGE or match["sign"] == "-":
                raise _refuse("dice_only_damage", text=part.strip())
            try:
                dice.parse(amount)
            except dice.DiceError:
                raise _refuse("bad_dice", dice=amount) from None
            found.append(Modifier(key, 0, amount))
            continue
        value = int(amount)
        if not 1 <= value <= MAX_VALUE:
            raise _refuse("bad_amount", text=part.strip(), limit=MAX_VALUE)
        found.append(Modifier(key, value if match["sign"] == "+" else -value))
    return tuple(found)
