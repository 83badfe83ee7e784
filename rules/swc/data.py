"""Loader for the swc game data in ``data/swc/`` (tables transcribed from seed 000).

Tables live in JSON so that the referee can read them next to the book and the tests can
check every row; this module only finds, parses and caches them.  Validation of each
table's *shape* belongs to the module that uses it (``classes``, ``races`` ...), because
only that module knows what a row must contain.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["DATA_DIR", "DataError", "load"]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "swc"


class DataError(ValueError):
    """A data file is missing or does not have the shape its loader expects."""


@cache
def load(name: str) -> dict[str, Any]:
    """Parse ``data/swc/<name>.json`` once (``name`` may contain ``/``, e.g. ``"classes/mago"``).

    The result is cached and shared: callers must treat it as read-only.
    """
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise DataError(f"missing swc data file: {path}")
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON in {path}: {exc}") from exc
    if not isinstance(value, dict):
        raise DataError(f"{path}: top level must be an object")
    return value
