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


#: seed 002, «Ejemplo»: Ardelia «Ninfa Estelar», with the printed duplicate «Atletismo 1»
#: replaced by «Sigilo 1» so the Versátil pyramid has its six level-1 skills
#: (docs/rules-decisions.md).
ARDELIA: dict[str, Any] = {
    "name": "Ardelia",
    "system": "nucleo",
    "atributos": {"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8, "Carisma": 7},
    "piramide": "versatil",
    "habilidades": {
        "Pilotar": 6,
        "Advertir/Notar": 5,
        "Esquivar": 5,
        "Reflejos": 4,
        "Armas a distancia": 4,
        "Navegación Espacial": 4,
        "Conducir": 3,
        "Mecánica": 3,
        "Ingeniería": 3,
        "Buscar": 3,
        "Seducir": 2,
        "Informática": 2,
        "Amenazar": 2,
        "Medicina": 2,
        "Callejeo": 2,
        "Regatear": 1,
        "Labia": 1,
        "Leyes": 1,
        "Atletismo": 1,
        "Etiqueta": 1,
        "Sigilo": 1,
    },
    "hechizos": {},
    "ventaja": "Suerte",
    "raza": "Humano",
    "ventaja_racial": None,
    "heridas": 0,
    "mana_gastado": 0,
    "token": True,
    "px": 0,
    "equipo": {
        "arma_principal": None,
        "dos_manos": False,
        "arma_secundaria": None,
        "armadura": None,
        "escudo": False,
        "otros": [],
    },
}

#: Ardelia's printed values next to what the formulas give (seed 002, «Ejemplo»).
ARDELIA_PRINTED = {"pv": 24, "defensa": 17, "iniciativa": 13, "voluntad": 19}


@pytest.fixture
def scripted() -> type[ScriptedRandom]:
    return ScriptedRandom


@pytest.fixture
def ardelia() -> dict[str, Any]:
    return copy.deepcopy(ARDELIA)
