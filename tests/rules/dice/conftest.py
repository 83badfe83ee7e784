"""A scripted RNG for the dice tests: every die shows the next value of a given sequence."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest


class ScriptedRandom(random.Random):
    """A :class:`random.Random` whose ``randint`` returns the scripted faces in order.

    The engine draws every die with ``randint(1, sides)``; the script fails loudly when it
    runs out or when a face could not come from the die asked for.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.asked: list[int] = []

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise AssertionError(f"script exhausted after {len(self.asked)} dice")
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted {face} cannot come from randint({a}, {b})"
        self.asked.append(b)
        return face

    @property
    def finished(self) -> bool:
        return not self.faces


@pytest.fixture
def scripted() -> type[ScriptedRandom]:
    return ScriptedRandom
