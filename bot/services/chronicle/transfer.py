"""Moving a chronicle's rows between the event loop and the worker process in slices.

Pickling or unpickling thousands of rows is one C call that holds the GIL from start to end
(70 ms for 5,000 posts and their rolls on an idle machine, several times that on a loaded
one), and the process pool does it in one of the bot's threads.  So the rows cross as a list
of small pickles: the loop side packs or unpacks one slice at a time and lets other work run
in between; the worker side does it all at once (it has no loop to hold up).

The pickles only ever travel between the bot and its own worker process.
"""

from __future__ import annotations

import asyncio
import dataclasses
import pickle
from typing import Any, TypeVar

from bot.services.chronicle.build import Snapshot, build_parts
from bot.services.chronicle.check import ImportPlan, read_and_check

__all__ = ["ROWS", "build_packed", "pack", "read_and_check_packed", "unpack", "with_rows"]

ROWS = 200  # rows per slice
SNAPSHOT_ROWS = ("characters", "scenes", "posts", "rolls", "xp")
PLAN_ROWS = ("characters", "scenes", "posts", "rolls", "xp")
Packed = dict[str, list[bytes]]
T = TypeVar("T")


def with_rows(record: T, rows: dict[str, Any]) -> T:
    """A copy of the dataclass ``record`` with its row lists replaced by ``rows``."""
    return dataclasses.replace(record, **rows)  # type: ignore[type-var]  # a dataclass


def _slices(rows: list[Any]) -> list[bytes]:
    return [pickle.dumps(rows[start : start + ROWS]) for start in range(0, len(rows), ROWS)]


def _joined(slices: list[bytes]) -> list[Any]:
    return [row for piece in slices for row in pickle.loads(piece)]


async def pack(source: Any, names: tuple[str, ...]) -> Packed:
    """``source``'s row lists as slices, yielding to the loop after each one."""
    packed: Packed = {}
    for name in names:
        rows = getattr(source, name)
        packed[name] = []
        for start in range(0, len(rows), ROWS):
            packed[name].append(pickle.dumps(rows[start : start + ROWS]))
            await asyncio.sleep(0)
    return packed


async def unpack(packed: Packed) -> dict[str, Any]:
    """The row lists back, one slice at a time between other work on the loop."""
    rows: dict[str, Any] = {}
    for name, slices in packed.items():
        rows[name] = []
        for piece in slices:
            rows[name].extend(pickle.loads(piece))
            await asyncio.sleep(0)
    return rows


def build_packed(
    snapshot: Snapshot, packed: Packed, locale: str, limit: int | None = None
) -> list[bytes]:
    """The worker's export job: the snapshot (rows packed apart) as zips of at most
    ``limit`` bytes each (one when it fits)."""
    rows: dict[str, Any] = {name: _joined(slices) for name, slices in packed.items()}
    return build_parts(with_rows(snapshot, rows), locale, limit)


def read_and_check_packed(
    payload: bytes, importer_id: int, name: str | None
) -> tuple[ImportPlan, Packed]:
    """The worker's import job: the plan without its rows, and its rows packed apart."""
    plan = read_and_check(payload, importer_id, name)
    packed = {field: _slices(getattr(plan, field)) for field in PLAN_ROWS}
    return with_rows(plan, {field: [] for field in PLAN_ROWS}), packed
