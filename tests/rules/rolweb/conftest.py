"""Shared helpers for the rolweb tests: the catalogue check every emitted problem goes through."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from rules.rolweb.settings import RolwebSettings, parse_settings
from rules.systems.base import Problem

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"


def _catalogue(lang: str, namespace: str = "rolweb") -> dict[str, str]:
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
SHARED = {lang: _catalogue(lang, "sheet") | _catalogue(lang, "formats") for lang in ("es", "en")}
#: Seed 001's combat rules offered by /init and /attack (rules.rolweb.offers).
FIGHT = {lang: _catalogue(lang, "rolweb_fight") for lang in ("es", "en")}


def render(problem: Problem | str, lang: str = "es") -> str:
    """Format a problem (or note key) in ``lang``; fails when the key or a placeholder is missing."""
    key, params = (problem, {}) if isinstance(problem, str) else (problem.key, problem.params)
    return (CATALOGUES[lang] | SHARED[lang] | FIGHT[lang])[key].format(**params)


def assert_translatable(problems) -> None:
    for problem in problems:
        for lang in CATALOGUES:
            render(problem, lang)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20241130)


@pytest.fixture
def settings() -> RolwebSettings:
    return parse_settings({})


class FixedRandom(random.Random):
    """Returns the queued values from ``randint`` so a test can name the dice it needs."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:  # noqa: D102 - same contract as random
        value = self.values.pop(0)
        assert a <= value <= b, f"queued {value} outside {a}..{b}"
        return value
