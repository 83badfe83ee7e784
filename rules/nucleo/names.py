"""Finding catalogue names in what players type: case- and accent-insensitive.

A player on a phone writes «esquivar» or «Navegacion espacial»; the sheet must still store
the list's spelling («Esquivar», «Navegación Espacial»), so every lookup goes through
:func:`rules.text.fold_words`.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.text import fold_words

__all__ = ["lookup", "split_list"]


def lookup(text: str, names: Iterable[str], aliases: dict[str, str] | None = None) -> str | None:
    """The catalogue spelling of ``text`` among ``names`` (or an alias's target), else None."""
    wanted = fold_words(text)
    for name in names:
        if fold_words(name) == wanted:
            return name
    for alias, target in (aliases or {}).items():
        if fold_words(alias) == wanted:
            return target
    return None


def split_list(text: str) -> list[str]:
    """A comma-, semicolon- or line-separated list, without empty entries."""
    for separator in (";", "\n"):
        text = text.replace(separator, ",")
    return [part.strip() for part in text.split(",") if part.strip()]
