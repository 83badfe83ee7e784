"""Experience that buys something in Núcleo: a campaign's advancement table (house rule).

Seed 002 names PX only through the races («Recibe 1px más por partida») and gives them no
cost: PX piled up with no use (issue 23 §4).  This is the house rule a table would write,
with a documented default the GM changes with two settings:

* a skill (or a spell: «Los hechizos se compran como si fuesen habilidades») to level N costs
  ``px_habilidad`` × N (2 by default: a new skill at 1 costs 2, 3 → 4 costs 8);
* an attribute to N costs ``px_atributo`` × N (3 by default: Físico 6 → 7 costs 21).

Within the pyramid and the maxima: an attribute up to 10 (and the race's maximum: Mediano
Físico 7); a skill up to 10; and the skills and spells keep the pyramid's shape — at no level
more of them than at the level below (count(N) ≤ count(N − 1)), so the top grows only by
broadening the base, as the creation pyramids are built.  A player's purchase waits for the
GM's approval unless the campaign says otherwise (``mejoras_con_aprobacion``): the bot keeps it
as the sheet's ``mejora_pendiente``.

Every purchase is recorded in the sheet (``mejoras``: what, from, to, PX), so the creation
checks (37 attribute points, the exact pyramid) apply to the sheet as it was created
(:func:`created`), and the advanced sheet is checked by the rules here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.nucleo.creation import canonical_skill, find_race, pyramid_levels
from rules.nucleo.data import ATTRIBUTES, catalogue
from rules.nucleo.sheet import setting
from rules.systems.base import (
    AdvanceResult,
    Problem,
    RulesError,
    Settings,
    Sheet,
    StepOption,
)

__all__ = [
    "MAX_LEVEL",
    "Purchase",
    "created",
    "purchase",
    "purchases",
    "shape_problems",
]

#: The highest a skill or spell rises (the attributes' maximum, seed 002 «el máximo es 10»).
MAX_LEVEL = 10
_KINDS = {"atributo": "atributos", "habilidad": "habilidades", "hechizo": "hechizos"}


@dataclass(frozen=True, slots=True)
class Purchase:
    """One raise: ``kind`` (atributo, habilidad, hechizo), its name, from → to, its cost."""

    kind: str
    name: str
    before: int
    after: int
    cost: int

    @property
    def value(self) -> str:
        """What ``/xp spend`` takes: ``habilidad:Sigilo``."""
        return f"{self.kind}:{self.name}"

    def as_json(self) -> dict[str, Any]:
        return {
            "que": self.kind,
            "nombre": self.name,
            "de": self.before,
            "a": self.after,
            "px": self.cost,
        }


def _px(sheet: Sheet) -> int:
    value = sheet.get("px", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _level(sheet: Sheet, kind: str, name: str) -> int:
    value = (sheet.get(_KINDS[kind]) or {}).get(name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _cost(kind: str, level: int, settings: Settings) -> int:
    per = setting(settings, "px_atributo" if kind == "atributo" else "px_habilidad")
    return int(per) * level


def _candidates(sheet: Sheet, settings: Settings) -> list[tuple[str, str]]:
    data = catalogue()
    found = [("atributo", a) for a in ATTRIBUTES]
    found += [("habilidad", s) for s in data.skills]
    if setting(settings, "magia"):
        found += [("hechizo", s) for s in data.spells if data.spells[s].difficulty is not None]
    return found


def _raise(sheet: Sheet, kind: str, name: str, settings: Settings) -> Purchase:
    before = _level(sheet, kind, name)
    after = before + 1
    return Purchase(kind, name, before, after, _cost(kind, after, settings))


def shape_problems(skills: Mapping[str, int], spells: Mapping[str, int]) -> list[Problem]:
    """The pyramid's shape after creation: at no level more skills and spells than below."""
    counts = pyramid_levels(skills, spells)
    problems = []
    for level in sorted(counts):
        if level > 1 and counts[level] > counts.get(level - 1, 0):
            params = {"level": level, "count": counts[level], "below": counts.get(level - 1, 0)}
            problems.append(Problem("nucleo.problem.pyramid_shape", "habilidades", params))
    return problems


def _limits(sheet: Sheet, raised: Purchase, settings: Settings) -> list[Problem]:
    """Why ``raised`` cannot be bought: a maximum, the pyramid, the PX."""
    params: dict[str, Any] = {"name": raised.name, "level": raised.after}
    if raised.kind == "atributo":
        data = catalogue()
        race = find_race(sheet.get("raza")) if setting(settings, "razas") else None
        ceiling = data.attribute_max
        if race is not None and raised.name in race.attribute_max:
            ceiling = min(ceiling, race.attribute_max[raised.name])
        if raised.after > ceiling:
            return [
                Problem(
                    "nucleo.problem.advance_maximum", "atributos", {**params, "maximum": ceiling}
                )
            ]
    else:
        if raised.after > MAX_LEVEL:
            return [
                Problem(
                    "nucleo.problem.advance_maximum",
                    "habilidades",
                    {**params, "maximum": MAX_LEVEL},
                )
            ]
        skills = dict(sheet.get("habilidades") or {})
        spells = dict(sheet.get("hechizos") or {})
        (skills if raised.kind == "habilidad" else spells)[raised.name] = raised.after
        shape = shape_problems(skills, spells)
        if shape:
            return shape
    if raised.cost > _px(sheet):
        return [
            Problem(
                "nucleo.problem.advance_px", "px", {**params, "cost": raised.cost, "px": _px(sheet)}
            )
        ]
    return []


def purchases(sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
    """What this character could buy now, with its cost (the autocomplete of ``/xp spend``):
    every raise within the maxima and the pyramid that its PX pay for."""
    options = []
    for kind, name in _candidates(sheet, settings):
        raised = _raise(sheet, kind, name, settings)
        if not _limits(sheet, raised, settings):
            label = f"{name} {raised.before} → {raised.after} ({raised.cost} PX)"
            options.append(StepOption(raised.value, label[:100]))
    return tuple(options)


def read(what: str, settings: Settings) -> tuple[str, str]:
    """``habilidad:Sigilo``, or a bare name («sigilo», «Físico»), as (kind, name)."""
    kind, _, name = what.partition(":")
    if kind not in _KINDS or not name:
        kind, name = "", what
    data = catalogue()
    name = name.strip()
    folded = name.casefold()
    if kind in ("", "atributo"):
        found = next((a for a in ATTRIBUTES if a.casefold() == folded), None)
        if found is not None:
            return "atributo", found
    if kind in ("", "habilidad"):
        skill = canonical_skill(name) or next(
            (s for s in data.skills if s.casefold() == folded), None
        )
        if skill is not None:
            return "habilidad", skill
    if kind in ("", "hechizo") and setting(settings, "magia"):
        spell = next((s for s in data.spells if s.casefold() == folded), None)
        if spell is not None:
            return "hechizo", spell
    raise RulesError(Problem("nucleo.problem.advance_unknown", "", {"name": name}))


def purchase(sheet: Sheet, what: str, settings: Settings) -> AdvanceResult:
    """Buy the next level of ``what`` (refused with the reason: maximum, pyramid, PX)."""
    kind, name = read(what, settings)
    raised = _raise(sheet, kind, name, settings)
    problems = _limits(sheet, raised, settings)
    if problems:
        raise RulesError(problems)
    updated = {**sheet}
    table = _KINDS[kind]
    updated[table] = {**(sheet.get(table) or {}), name: raised.after}
    updated["px"] = _px(sheet) - raised.cost
    updated["mejoras"] = [*_history(sheet), raised.as_json()]
    return AdvanceResult(
        updated,
        _px(sheet),
        updated["px"],
        levels={name: (raised.before, raised.after)},
    )


def _history(sheet: Sheet) -> Sequence[Any]:
    recorded = sheet.get("mejoras")
    return recorded if isinstance(recorded, list) else []


def created(sheet: Sheet) -> dict[str, Any]:
    """The sheet as it was created: every recorded purchase undone (a skill bought new is
    gone), for the creation checks (37 points, the exact pyramid)."""
    history = _history(sheet)
    base = {**sheet, **{table: dict(sheet.get(table) or {}) for table in _KINDS.values()}}
    for entry in reversed(history):
        if not isinstance(entry, Mapping) or entry.get("que") not in _KINDS:
            continue
        table = base[_KINDS[str(entry["que"])]]
        name, before = str(entry.get("nombre", "")), entry.get("de", 0)
        if name not in table:
            continue
        if entry["que"] == "atributo" or (isinstance(before, int) and before > 0):
            table[name] = before
        else:  # bought new: it was not on the created sheet
            del table[name]
    return base
