"""Ids → words in the reader's language, for everything the bot renders.

:func:`rules.names.display` is the one table of display names; this module applies it where
the bot meets ids: the parameters of a problem («La clase {clase} no admite…» gets
«Paladín»), a sheet field's stored value, and a campaign setting's name, value and
description.  Render modules call these instead of printing a stored value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import catalogue, t
from rules import systems
from rules.names import (
    KINDS_BY_PARAM,
    display,
    display_list,
    display_state,
    field_kind,
    has_name,
)

__all__ = [
    "Localized",
    "whole_list",
    "field_display",
    "named_params",
    "problem_text",
    "setting_description",
    "setting_name",
    "setting_value",
    "system_name",
    "system_of_key",
]


@dataclass(frozen=True, slots=True)
class Localized:
    """A message parameter written per language by the service that raised the error (a
    list of display names), so the reader gets the one in his: :func:`named_params` picks
    it, falling back to Spanish."""

    texts: Mapping[str, str]

    def text(self, locale: str) -> str:
        return self.texts.get(locale) or self.texts.get("es") or ""


def system_of_key(key: str) -> str | None:
    """The system whose namespace ``key`` is in (``<id>.problem.unknown_class`` → ``<id>``):
    a catalogue namespace named like a registered system is its own, and its problems carry
    its ids; a key of no system → None."""
    head = key.split(".", 1)[0]
    return head if head in systems.ids() else None


def named_params(key: str, params: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """``params`` with every id named: ``{"clase": "paladin"}`` → ``{"clase": "Paladín"}``.

    Which parameters hold ids is :data:`rules.names.KINDS_BY_PARAM`; a value that is not an
    id (what the user typed, «Bárbaro») comes back as it was.
    """
    system = system_of_key(key)
    out = dict(params)
    setting_system = params.get("system")
    if isinstance(setting_system, str) and "key" in params:
        # a campaign setting's error: its name and its choices, never their ids
        out["key"] = setting_name(setting_system, str(params["key"]), locale)
        ids = params.get("choice_ids")
        if isinstance(ids, tuple) and "choices" in params:
            out["choices"] = "; ".join(
                setting_value(setting_system, str(params["key"]), c, locale) for c in ids
            )
    source, source_system = params.get("source"), system or params.get("system")
    # a campaign's own list that fails to load is named as the setting the GM changed
    # («Armas propias», «Own weapons»), not by its id («armas»)
    if (
        isinstance(source, str)
        and isinstance(source_system, str)
        and has_name(source_system, "setting", source, locale)
    ):
        out["source"] = display(source_system, "setting", source, locale)
    choice_kind, ids = params.get("choice_kind"), params.get("choice_ids")
    if isinstance(choice_kind, str) and isinstance(ids, tuple):
        # a sheet field's choices (bot.services.sheets.characters.parse_field), by their names
        system_id = setting_system if isinstance(setting_system, str) else None
        out["choices"] = whole_list([display(system_id, choice_kind, c, locale) for c in ids])
    named_system = system_name(setting_system, locale) if isinstance(setting_system, str) else None
    if named_system is not None and "key" not in params:
        out["system"] = named_system  # «Núcleo (1o3d10)», never «nucleo»
    for name, value in params.items():
        if isinstance(value, Localized):
            out[name] = value.text(locale)
            continue
        kind = KINDS_BY_PARAM.get(name)
        if kind == "estado" and isinstance(value, str):
            # a health state: the problem says whose system (``combat.problem.cannot_act``
            # belongs to none) and the character's gender («Aldara está inconsciente»)
            own = system or (setting_system if isinstance(setting_system, str) else None)
            gender = params.get("genero")
            out[name] = display_state(
                own, value, locale, gender if isinstance(gender, str) else None
            )
        elif kind is not None and isinstance(value, str):
            own = system or (setting_system if isinstance(setting_system, str) else None)
            parts = value.split(", ")
            out[name] = ", ".join(display(own, kind, part, locale) for part in parts)
    return out


def system_name(system_id: str, locale: str) -> str | None:
    """A rule system's name as the campaign list shows it (``<id>.system.choice``), or None
    for a value that is no system's id (what a user typed in an imported file)."""
    key = f"{system_id}.system.choice"
    return t(key, locale) if catalogue().has(key) else None


def problem_text(key: str, params: Mapping[str, Any], locale: str) -> str:
    """A problem or error message with its ids named."""
    return t(key, locale, **named_params(key, params, locale))


def field_display(
    system: str, path: str, value: Any, locale: str, gender: str | None = None
) -> str | None:
    """The display form of a sheet field that stores ids (``clases`` → «Clérigo»), or None
    when the field holds free values (the caller formats those).  A health state agrees
    with the sheet's grammatical ``gender`` («Estado: moribunda»)."""
    kind = field_kind(system, path)
    if kind is None or value is None or value == "" or value == []:
        return None
    if kind == "estado" and isinstance(value, str):
        return display_state(system, value, locale, gender)
    return display_list(system, kind, value, locale)


def setting_name(system: str, key: str, locale: str) -> str:
    """«Monjes permitidos» for ``monjes_permitidos``."""
    return display(system, "setting", key, locale)


def setting_value(system: str, key: str, value: Any, locale: str) -> str:
    """A setting's value in words: sí/no, a named choice, or the value itself."""
    if isinstance(value, bool):
        return t("common.yes" if value else "common.no", locale)
    if value is None or value == "":
        return t("common.none", locale)
    return display(system, f"valor.{key}", value, locale)


def setting_description(system: str, key: str, locale: str) -> str:
    """What the setting does (``<system>.setting.<key>``, ``settings.<system>.<key>``, or
    ``settings.comun.<key>`` for the settings every campaign has); empty when the catalogue
    has no description (a test requires one for every setting)."""
    for candidate in (
        f"{system}.setting.{key}",
        f"settings.{system}.{key}",
        f"settings.comun.{key}",
    ):
        if catalogue().has(candidate, locale) or catalogue().has(candidate):
            return t(candidate, locale)
    return ""


def whole_list(items: list[str] | tuple[str, ...], budget: int = 900) -> str:
    """Items joined by commas, whole ones only: past ``budget`` characters the rest is
    counted, ``"a, b, c… (+12)"``, never cut mid-word (was: «…, habilidade.»).  The count
    needs no translation, so services can build it for a translated message."""
    shown: list[str] = []
    used = 0
    for index, item in enumerate(items):
        if shown and used + len(item) + 2 > budget:
            return ", ".join(shown) + f"… (+{len(items) - index})"
        shown.append(item)
        used += len(item) + 2
    return ", ".join(shown)
