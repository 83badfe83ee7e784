"""Checking a whole printed table in one test item, still naming every wrong cell.

A table test with one pytest item per cell spends more on pytest's per-item overhead than on
the checks (issue 10 §5); one item per table, class or row keeps the cost down. So that such an
item is as precise as the per-cell ones were, :class:`Cells` checks every cell (it never stops
at the first wrong one) and the failure lists each wrong cell with its expected and actual value.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Cells:
    """The wrong cells found so far; :meth:`assert_all_match` fails listing all of them."""

    def __init__(self) -> None:
        self.wrong: list[str] = []

    def check(self, where: str, got: object, expected: object) -> None:
        """Record ``where`` (e.g. "Tabla 29 clerigo nivel 3 CA 5") if ``got != expected``."""
        if got != expected:
            self.wrong.append(f"{where}: expected {expected!r}, got {got!r}")

    def fail(self, where: str, what: str) -> None:
        """Record a wrong cell whose check is not an equality (a property, a refusal)."""
        self.wrong.append(f"{where}: {what}")

    @contextmanager
    def case(self, where: str) -> Iterator[None]:
        """Run one case's own asserts; the first that fails is recorded under ``where`` (with
        pytest's explanation) and the caller's loop goes on to the next case."""
        try:
            yield
        except AssertionError as error:
            self.wrong.append(f"{where}: {error}")

    def assert_all_match(self) -> None:
        """Fail once, naming every wrong cell (the message is never truncated by pytest)."""
        assert self.wrong == [], f"{len(self.wrong)} wrong cell(s):\n" + "\n".join(self.wrong)
