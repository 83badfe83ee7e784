"""Display names of internal ids: the one way an id («clerigo», «versatil», «naturales»)
becomes the words a reader sees («Clérigo», «Versátil», «1 y 20 naturales»).

Sheets, settings and problems store ids without accents so that they survive a phone's
keyboard and a JSON export; users must never read them.  The names live in
``data/names/<lang>.toml`` (one table per system and kind) so that the rules library, which
writes its own Spanish labels and formulas, and the bot, which renders in the reader's
language, use the same words.  ``tests/rules/test_names.py`` walks every id of every system
and fails on one without a name in both languages.

A value that is not an id of the kind (a nucleo race is already stored as «Alto Elfo», an
item as «Espada larga») is returned as it is: callers may pass any stored value.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from rules.text import fold

__all__ = [
    "FIELD_KINDS",
    "KINDS_BY_PARAM",
    "field_kind",
    "LOCALES",
    "display",
    "display_list",
    "has_name",
    "names",
]

#: Every language the bot speaks, listed once (``bot.i18n`` re-exports it): the catalogue
#: ``bot/locales/<lang>/``, the names ``data/names/<lang>.toml``, `/campaign settings`'s
#: language choice and the configuration check all read this tuple.  Spanish first: it is the
#: fallback.
LOCALES = ("es", "en")
_DIR = Path(__file__).resolve().parent.parent / "data" / "names"

#: Problem parameters that hold ids, and the kind of id they hold: the bot shows
#: ``Problem("swc.problem.alignment_not_allowed", params={"clase": "paladin", …})`` with
#: «Paladín».  Several classes joined by «/» (``clases``) are named one by one.
KINDS_BY_PARAM: Mapping[str, str] = {
    "clase": "clase",
    "clases": "clase",
    "listas": "lista",
    "actual": "clase",
    "nueva": "clase",
    "raza": "raza",
    "alineamiento": "alineamiento",
    "amenaza": "amenaza",
    "pyramid": "piramide",
    "genero": "genero",
    "state": "estado",
    "nivel_actual": "nivel",
    "nivel_nuevo": "nivel",
    "action": "accion",
    "module": "setting",  # a Núcleo module is the campaign setting that turns it on
    # lists of ids joined by «, » (named one by one)
    "amenazas": "amenaza",
    "categorias": "salvacion",
}

#: Sheet fields that store ids, per system: ``/sheet show`` names their values.  A key
#: ending in ``.*`` covers every field under it (each rolweb ability's level).
FIELD_KINDS: Mapping[str, Mapping[str, str]] = {
    "swc": {
        "clases": "clase",
        "clase_tras_limite": "clase",
        "raza": "raza",
        "alineamiento": "alineamiento",
    },
    "rolweb": {
        "estado": "estado",
        "escudo": "escudo",
        "armadura": "armadura",
        "habilidades.*": "nivel",
    },
    "nucleo": {"piramide": "piramide", "estado": "estado"},  # «estado»: a derived value
}


def field_kind(system: str, path: str) -> str | None:
    """The kind of id stored at sheet ``path`` («clases» → «clase»), or None for free values.
    Every system's sheet may carry a grammatical gender (``genero``)."""
    if path == "genero":
        return "genero"
    kinds = FIELD_KINDS.get(system, {})
    if path in kinds:
        return kinds[path]
    head = path.rsplit(".", 1)[0]
    return kinds.get(f"{head}.*")


@cache
def names(locale: str) -> Mapping[str, Any]:
    """The whole table of ``locale`` (``"es"`` or ``"en"``), loaded once."""
    with (_DIR / f"{locale}.toml").open("rb") as handle:
        return tomllib.load(handle)


def _table(locale: str, system: str | None, kind: str) -> Mapping[str, Any]:
    node: Any = names(locale if locale in LOCALES else "es")
    for part in (system or "comun", *kind.split(".")):
        if not isinstance(node, Mapping):
            return {}
        node = node.get(part, {})
    return node if isinstance(node, Mapping) else {}


def has_name(system: str | None, kind: str, value: str, locale: str) -> bool:
    """Whether ``value`` has a display name of its own (not the fallback) in ``locale``."""
    table = _table(locale, system, kind)
    return isinstance(table.get(str(value)), str)


def display(system: str | None, kind: str, value: object, locale: str = "es") -> str:
    """The display name of ``value`` (an id of ``kind`` in ``system``) in ``locale``.

    ``system`` None means the names every system shares (``comun``: common settings,
    grammatical gender).  Ids are matched exactly, then folded (``"Clerigo"`` finds
    ``clerigo``); a combination ``"guerrero/mago"`` is named part by part.  Anything else is
    returned unchanged, so a value already in words passes through.  An item of the sheet's
    own (``{"nombre": "Pelaje", "proteccion": "1d4", …}``: an NPC's natural armour) is named
    by its ``nombre`` (issue 23 §6: it was shown as the dictionary).
    """
    if isinstance(value, Mapping) and isinstance(name := value.get("nombre"), str):
        return name
    text = str(getattr(value, "value", value))
    table = _table(locale, system, kind)
    found = table.get(text)
    if not isinstance(found, str):
        found = table.get(fold(text).replace(" ", "_"))
    if isinstance(found, str):
        return found
    if "/" in text and table:
        return "/".join(display(system, kind, part, locale) for part in text.split("/"))
    if system is not None:  # names every system shares (common settings, gender)
        shared = _table(locale, None, kind).get(text)
        if isinstance(shared, str):
            return shared
    return text


def display_state(system: str | None, state: object, locale: str, gender: str | None) -> str:
    """A health state agreeing with the character's gender («moribunda» for Kára); the
    masculine form, which the tables hold as ``estado``, for ``masculino``, ``neutro`` or
    unset (a state's name, as the books print it)."""
    if gender == "femenino":
        named = display(system, "estado_femenino", state, locale)
        if named != str(getattr(state, "value", state)):
            return named
    return display(system, "estado", state, locale)


def display_list(system: str | None, kind: str, values: object, locale: str = "es") -> str:
    """Several ids named and joined with commas (a sheet's ``clases`` list)."""
    if isinstance(values, (list, tuple)):
        return ", ".join(display(system, kind, v, locale) for v in values)
    return display(system, kind, values, locale)
