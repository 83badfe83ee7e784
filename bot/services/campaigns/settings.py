"""Campaign settings: parse what a GM typed against the system's :class:`SettingSpec`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.i18n import LOCALES
from bot.services.shared.errors import InvalidSetting
from rules.names import display
from rules.systems.base import FieldKind, GameSystem, RulesError, SettingSpec, capabilities
from rules.text import fold_words
from rules.values import BadValue, parse_value

__all__ = ["parse_setting", "resolved_settings", "check_settings", "MAX_TEXT", "MAX_FILE_TEXT"]


MAX_TEXT = 500  # typed in the command
MAX_FILE_TEXT = 64 * 1024  # uploaded as a file (a campaign's own list of weapons, say)
CATALOGUE_KINDS = ("clase", "raza", "habilidad", "equipo", "hechizo")


def _choice_by_name(spec: SettingSpec, raw: str, system: str | None) -> str:
    """A choice typed by its display name in either language («críticos (además crítico y
    pifia)», «critical…») stands for its id; anything else is left for the parser."""
    wanted = fold_words(raw)
    for choice in spec.choices:
        for locale in LOCALES:
            if fold_words(display(system, f"valor.{spec.key}", str(choice), locale)) == wanted:
                return str(choice)
    return raw


def parse_setting(
    spec: SettingSpec, raw: str, *, limit: int = MAX_TEXT, system: str | None = None
) -> Any:
    """Turn the text a GM typed (or uploaded) into the setting's value, or raise a translated
    error (:func:`rules.values.parse_value` reads it, the same way as a sheet field).  A
    choice may be typed as its id or its display name; the error lists display names."""
    if spec.kind is FieldKind.CHOICE:
        raw = _choice_by_name(spec, raw, system)
    try:
        return parse_value(
            spec.kind,
            raw,
            minimum=spec.minimum,
            maximum=spec.maximum,
            choices=spec.choices,
            limit=limit,
        )
    except BadValue as bad:
        params = dict(bad.params)
        if bad.reason == "out_of_range":
            params["minimum"] = "-∞" if spec.minimum is None else spec.minimum
            params["maximum"] = "∞" if spec.maximum is None else spec.maximum
        if system is not None:  # the reply names the setting and its choices (bot/words.py)
            params["system"] = system
            params["choice_ids"] = tuple(str(c) for c in spec.choices)
        raise InvalidSetting(f"campaign.error.{bad.reason}", key=spec.key, **params) from None


def check_settings(system: GameSystem, settings: dict[str, Any]) -> None:
    """Refuse settings the system cannot play with, before they are stored.

    A campaign's attribute list or its own weapon table is read by every later command; a
    value that breaks them must be refused now, with the system's own explanation, rather
    than break every sheet of the campaign afterwards.
    """
    sheet = system.new_sheet("Prueba", settings)
    system.fields(settings)
    builder = capabilities(system).builder
    if builder is not None:
        for kind in CATALOGUE_KINDS:
            builder.catalogue(kind, settings)
    problems = [
        problem
        for problem in system.validate(sheet, settings)
        if problem.path.split(".")[0] in settings and problem.path.split(".")[0] not in sheet
    ]
    if problems:
        raise RulesError(problems)


def resolved_settings(
    specs: Iterable[SettingSpec], stored: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Defaults overlaid with what the campaign stored (unknown stored keys are kept too)."""
    values = {spec.key: spec.default for spec in specs}
    values.update(stored or {})
    return values
