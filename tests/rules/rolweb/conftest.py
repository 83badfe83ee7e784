"""Shared helpers for the rolweb tests: the catalogue check every emitted problem goes through."""

from __future__ import annotations

import random

import pytest

from rules.rolweb.settings import RolwebSettings, parse_settings
from tests.rules.scripted import ScriptedRandom, catalogue, renderer

#: A problem or note in Spanish or English: rolweb's messages, the shared ones rules/ raises for
#: every system (``rules.inventory``, typed values) and seed 001's combat rules offered by /init
#: and /attack (``rules.rolweb.offers``).
render = renderer("rolweb", "sheet", "formats", "rolweb_fight")
#: rolweb's own messages, and seed 001's combat rules', by language (what the tests compare the
#: emitted keys with).
CATALOGUES = {lang: catalogue(lang, "rolweb") for lang in ("es", "en")}
FIGHT = {lang: catalogue(lang, "rolweb_fight") for lang in ("es", "en")}


def assert_translatable(problems) -> None:
    for problem in problems:
        for lang in ("es", "en"):
            render(problem, lang)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20241130)


@pytest.fixture
def settings() -> RolwebSettings:
    return parse_settings({})


class FixedRandom(ScriptedRandom):
    """Returns the queued values from ``randint`` so a test can name the dice it needs."""

    def __init__(self, *values: int) -> None:
        super().__init__(values)
