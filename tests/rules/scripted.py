"""What the system tests share: a random generator that returns the dice a test names, and
the check that a problem or note renders in both catalogues (its key and its placeholders)."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path

from rules.systems.base import Problem

__all__ = ["ScriptedRandom", "catalogue", "renderer"]

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "locales"


def catalogue(lang: str, namespace: str) -> dict[str, str]:
    """``bot/locales/<lang>/<namespace>.toml`` as ``{"<namespace>.<table>.<key>": text}``."""
    with (LOCALES / lang / f"{namespace}.toml").open("rb") as handle:
        raw = tomllib.load(handle)
    return {
        f"{namespace}.{table}.{key}": text
        for table, entries in raw.items()
        if isinstance(entries, dict)
        for key, text in entries.items()
    }


def renderer(*namespaces: str) -> Callable[..., str]:
    """``render(problem_or_key, lang="es")`` over these namespaces; fails (KeyError) when the
    key or a placeholder is missing."""
    texts = {
        lang: {k: v for namespace in namespaces for k, v in catalogue(lang, namespace).items()}
        for lang in ("es", "en")
    }

    def render(problem: Problem | str, lang: str = "es") -> str:
        key, params = (problem, {}) if isinstance(problem, str) else (problem.key, problem.params)
        return texts[lang][key].format(**params)

    return render


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
