"""Shared helpers for the Núcleo tests (seed 002): a scripted RNG, Ardelia, and the check
that every emitted problem or note renders in both catalogues."""

from __future__ import annotations

import copy
import random
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from rules.systems.base import Problem
from tests.examples import ARDELIA, ARDELIA_PRINTED

__all__ = ["ARDELIA", "ARDELIA_PRINTED", "ScriptedRandom", "keys", "render"]

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"


def _catalogue(lang: str, namespace: str = "nucleo") -> dict[str, str]:
    with (LOCALES / lang / f"{namespace}.toml").open("rb") as handle:
        raw = tomllib.load(handle)
    return {
        f"{namespace}.{table}.{key}": text
        for table, entries in raw.items()
        if isinstance(entries, dict)
        for key, text in entries.items()
    }


CATALOGUES = {lang: _catalogue(lang) for lang in ("es", "en")}
#: The shared problems rules/ raises for every system (``rules.inventory``: item name, quantity).
SHARED = {lang: _catalogue(lang, "sheet") for lang in ("es", "en")}


def render(problem: Problem | str, lang: str = "es") -> str:
    """Format a problem (or note key) in ``lang``; fails when the key or a placeholder is missing."""
    key, params = (problem, {}) if isinstance(problem, str) else (problem.key, problem.params)
    return (CATALOGUES[lang] | SHARED[lang])[key].format(**params)


def keys(problems: Iterable[Problem]) -> list[str]:
    """The problems' keys, after checking that each renders in Spanish and English."""
    problems = list(problems)
    for problem in problems:
        render(problem, "es")
        render(problem, "en")
    return [p.key for p in problems]


class ScriptedRandom(random.Random):
    """``randint`` returns the scripted faces in order (the dice engine draws every die so)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise AssertionError("script exhausted")
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted {face} cannot come from randint({a}, {b})"
        return face


# The one Ardelia of every test layer (tests/examples.py), re-exported for these tests.


@pytest.fixture
def scripted() -> type[ScriptedRandom]:
    return ScriptedRandom


@pytest.fixture
def ardelia() -> dict[str, Any]:
    return copy.deepcopy(ARDELIA)
