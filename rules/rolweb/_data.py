"""Reading and checking rolweb's data files (``data/rolweb/*.json``) and campaign overrides.

Game data lives in JSON so a referee can read and replace it; the loaders in
``attributes``, ``equipment`` and ``abilities`` validate it here and report problems as
``rolweb.problem.bad_data`` so a broken campaign override is explained, not a traceback.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from rules.systems.base import Problem, RulesError

__all__ = ["DATA_DIR", "read_json", "parse_json_text", "bad_data", "check_dice"]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "rolweb"
# Sums of dice and constants, the only damage / protection notation the data uses.
_DICE = re.compile(r"^\s*(\d*d\d+|\d+)(\s*[+-]\s*(\d*d\d+|\d+))*\s*$", re.IGNORECASE)


def quoted(value: Any, limit: int = 80) -> str:
    """A value from a data file as a reader writes it: «texto», 12, or its JSON (never a
    Python repr such as ``['Distancia', 'Voladora']`` or ``None``), summarised past
    ``limit`` characters."""
    if isinstance(value, str):
        text = f"«{value}»"
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def bad_data(source: str, detail: str) -> RulesError:
    """The error for data that does not have the documented shape."""
    return RulesError(
        Problem("rolweb.problem.bad_data", source, {"source": source, "detail": detail})
    )


@cache
def read_json(name: str) -> Any:
    """The parsed content of ``data/rolweb/<name>``; cached because it never changes."""
    with (DATA_DIR / name).open(encoding="utf-8") as handle:
        return json.load(handle)


def parse_json_text(source: str, text: str) -> Any:
    """A campaign override given as JSON text in a setting."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # json's own message is English («Expecting ',' delimiter»): the reader gets the
        # place of the mistake in his language instead
        raise RulesError(
            Problem(
                "formats.json.invalid",
                source,
                {"source": source, "system": "rolweb", "line": error.lineno, "column": error.colno},
            )
        ) from None


def check_dice(source: str, expression: Any) -> str:
    """Return ``expression`` if it is a sum of dice and numbers (``1d8``, ``1d8+1d4``)."""
    if not isinstance(expression, str) or not _DICE.match(expression):
        raise bad_data(source, f"dados no válidos: {quoted(expression)}")
    return expression.replace(" ", "").lower()
