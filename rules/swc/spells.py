"""What a campaign's S&W spells do (issue 23 §3).

Seed 000 ends before the spell lists: it gives slots per spell level (Tablas 8–19), never a
spell's effect, so a cast only spent a slot and «Curar heridas leves» healed nobody.  A
campaign now defines its spells: the setting ``conjuros`` (JSON, the same shape as
``data/swc/spells.json``) or, when empty, that file — the classic healing spells with the
classic game's amounts, a house default the GM can replace.  Each spell names the spell
lists it is on with its level there (``{"clerigo": 1, "druida": 2}``) and what it heals
(``curacion``: dice).  A spell the list does not define still spends its slot, and the caster
or the GM gives the amount it heals (``/spell cast … heal:N``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.swc.data import load
from rules.systems.base import Problem, RulesError, Settings, SpellInfo
from rules.text import fold

__all__ = ["MAX_SPELLS", "SpellEffectDef", "find_spell", "load_spells", "spell_infos"]

MAX_SPELLS = 200
_DICE = re.compile(r"^\s*(\d*d\d+|\d+)(\s*[+-]\s*(\d*d\d+|\d+))*\s*$", re.IGNORECASE)
_LISTS = ("clerigo", "druida", "mago")


@dataclass(frozen=True, slots=True)
class SpellEffectDef:
    """A spell the campaign defined: its lists and levels, what it heals, its text."""

    name: str
    lists: Mapping[str, int]
    healing: str | None
    text: str


def _bad(source: str, detail: str) -> RulesError:
    return RulesError(
        Problem("swc.problem.bad_spells", "conjuros", {"source": source, "detail": detail})
    )


def _spell(source: str, raw: Any) -> SpellEffectDef:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("nombre"), str):
        raise _bad(source, "cada conjuro necesita un «nombre»")
    name = raw["nombre"].strip()[:100]
    lists = raw.get("listas")
    if (
        not name
        or not isinstance(lists, Mapping)
        or not lists
        or any(
            k not in _LISTS or not isinstance(v, int) or not 1 <= v <= 9 for k, v in lists.items()
        )
    ):
        raise _bad(source, f"«{name}»: «listas» es {{lista: nivel}} (clerigo, druida, mago; 1–9)")
    healing = raw.get("curacion")
    if healing is not None and (not isinstance(healing, str) or not _DICE.match(healing)):
        raise _bad(source, f"«{name}»: «curacion» debe ser dados, como 1d6+1")
    text = raw.get("texto", "")
    return SpellEffectDef(
        name,
        {str(k): int(v) for k, v in lists.items()},
        healing.replace(" ", "").lower() if isinstance(healing, str) else None,
        str(text)[:500],
    )


def load_spells(settings: Settings) -> tuple[SpellEffectDef, ...]:
    """The campaign's spells: its ``conjuros`` setting if set, else ``data/swc/spells.json``."""
    text = str(settings.get("conjuros") or "").strip()
    if text:
        source = "conjuros"
        try:
            raw: Any = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(
                Problem(
                    "formats.json.invalid",
                    source,
                    {
                        "source": source,
                        "system": "swc",
                        "line": error.lineno,
                        "column": error.colno,
                    },
                )
            ) from None
    else:
        source, raw = "data/swc/spells.json", load("spells")
    items = raw.get("conjuros") if isinstance(raw, Mapping) else raw
    if not isinstance(items, list) or len(items) > MAX_SPELLS:
        raise _bad(source, f"se esperaba una lista «conjuros» (hasta {MAX_SPELLS})")
    spells = tuple(_spell(source, item) for item in items)
    if len({fold(s.name) for s in spells}) != len(spells):
        raise _bad(source, "nombres repetidos")
    return spells


def find_spell(name: str | None, settings: Settings) -> SpellEffectDef | None:
    """The campaign's spell called ``name`` (any case or accents), or None."""
    if not name:
        return None
    wanted = fold(name)
    return next((s for s in load_spells(settings) if fold(s.name) == wanted), None)


def spell_infos(settings: Settings) -> tuple[SpellInfo, ...]:
    """The defined spells as ``/spell list`` shows them (level: the lowest of its lists)."""
    return tuple(
        SpellInfo(
            key=s.name,
            name=s.name,
            level=min(s.lists.values()),
            cost=None,
            range="toque",
            description=s.text or (f"Cura {s.healing}." if s.healing else ""),
            lists=tuple(f"{k} {v}" for k, v in sorted(s.lists.items())),
        )
        for s in load_spells(settings)
    )
