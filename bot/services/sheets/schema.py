"""Versions of the stored sheet, and the conversions the bot applies when it reads one.

A stored sheet (``character.sheet``) records the schema it was written in
(``character.sheet_version``).  Reading converts older versions step by step in memory, so
every use case sees the current shape; the next write stores it with the current version.

* **1** (before migration 0008): the sheet's own ``name`` and ``system`` could disagree with
  the character's (a name typed with surrounding spaces, an import of another system), and a
  player's sheet could keep the NPC flag ``pnj`` from an imported file.
* **2**: ``sheet["name"]`` and ``sheet["system"]`` are the character's; player sheets never
  carry ``pnj``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.db.models import Character

__all__ = ["SHEET_SCHEMA_VERSION", "upgraded", "upgraded_sheet"]

SHEET_SCHEMA_VERSION = 2


def _v1_to_v2(sheet: dict[str, Any], character: Character) -> dict[str, Any]:
    out = {**sheet, "name": character.name, "system": character.system}
    if not character.is_npc:
        out.pop("pnj", None)
    return out


_STEPS: dict[int, Callable[[dict[str, Any], Character], dict[str, Any]]] = {1: _v1_to_v2}


def upgraded_sheet(character: Character) -> dict[str, Any]:
    """A copy of ``character``'s sheet in :data:`SHEET_SCHEMA_VERSION` (the row is untouched:
    converting must never write outside the versioned write path)."""
    version = character.sheet_version or 1
    sheet = dict(character.sheet)
    while version < SHEET_SCHEMA_VERSION:
        sheet = _STEPS[version](sheet, character)
        version += 1
    return sheet


def upgraded(character: Character) -> Character:
    """``character`` with its sheet converted, for a row already detached from its session
    (read for a command that does not write it)."""
    if (character.sheet_version or 1) < SHEET_SCHEMA_VERSION:
        character.sheet = upgraded_sheet(character)
        character.sheet_version = SHEET_SCHEMA_VERSION
    return character
