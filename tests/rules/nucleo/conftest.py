"""Shared helpers for the Núcleo tests (seed 002): a scripted RNG, Ardelia, and the check
that every emitted problem or note renders in both catalogues."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import pytest

from rules.systems.base import Problem
from tests.examples import ARDELIA, ARDELIA_PRINTED
from tests.rules.scripted import ScriptedRandom, catalogue, renderer

__all__ = ["ARDELIA", "ARDELIA_PRINTED", "ScriptedRandom", "keys", "render"]

#: A problem or note in Spanish or English: Núcleo's messages and the shared ones rules/ raises
#: for every system (``rules.inventory``: item name, quantity).
render = renderer("nucleo", "sheet")
#: Núcleo's own messages by language (what its tests compare the emitted keys with).
CATALOGUES = {lang: catalogue(lang, "nucleo") for lang in ("es", "en")}


def keys(problems: Iterable[Problem]) -> list[str]:
    """The problems' keys, after checking that each renders in Spanish and English."""
    problems = list(problems)
    for problem in problems:
        render(problem, "es")
        render(problem, "en")
    return [p.key for p in problems]


# The one Ardelia of every test layer (tests/examples.py), re-exported for these tests.


@pytest.fixture
def scripted() -> type[ScriptedRandom]:
    return ScriptedRandom


@pytest.fixture
def ardelia() -> dict[str, Any]:
    return copy.deepcopy(ARDELIA)
