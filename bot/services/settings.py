"""Campaign settings: parse what a GM typed against the system's :class:`SettingSpec`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.services.errors import InvalidSetting
from rules.systems.base import CharacterBuilder, FieldKind, GameSystem, RulesError, SettingSpec

__all__ = ["parse_setting", "resolved_settings", "check_settings", "MAX_TEXT", "MAX_FILE_TEXT"]

_TRUE = {"1", "true", "yes", "on", "si", "sí", "s", "y", "verdadero", "activado"}
_FALSE = {"0", "false", "no", "off", "n", "falso", "desactivado"}


MAX_TEXT = 500  # typed in the command
MAX_FILE_TEXT = 64 * 1024  # uploaded as a file (a campaign's own list of weapons, say)
CATALOGUE_KINDS = ("clase", "raza", "habilidad", "equipo", "hechizo")


def parse_setting(spec: SettingSpec, raw: str, *, limit: int = MAX_TEXT) -> Any:
    """Turn the text a GM typed (or uploaded) into the setting's value, or raise a translated error."""
    text = raw.strip()
    if spec.kind == FieldKind.BOOLEAN:
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise InvalidSetting("campaign.error.expected_boolean", key=spec.key, value=text)
    if spec.kind == FieldKind.INTEGER:
        try:
            value = int(text)
        except ValueError:
            raise InvalidSetting(
                "campaign.error.expected_integer", key=spec.key, value=text
            ) from None
        if (spec.minimum is not None and value < spec.minimum) or (
            spec.maximum is not None and value > spec.maximum
        ):
            raise InvalidSetting(
                "campaign.error.out_of_range",
                key=spec.key,
                value=value,
                minimum=spec.minimum if spec.minimum is not None else "-∞",
                maximum=spec.maximum if spec.maximum is not None else "∞",
            )
        return value
    if spec.kind == FieldKind.CHOICE:
        for choice in spec.choices:
            if choice.lower() == text.lower():
                return choice
        raise InvalidSetting(
            "campaign.error.expected_choice",
            key=spec.key,
            value=text,
            choices=", ".join(spec.choices),
        )
    if not text or len(text) > limit:
        raise InvalidSetting("campaign.error.expected_text", key=spec.key, limit=limit)
    return text


def check_settings(system: GameSystem, settings: dict[str, Any]) -> None:
    """Refuse settings the system cannot play with, before they are stored.

    A campaign's attribute list or its own weapon table is read by every later command; a
    value that breaks them must be refused now, with the system's own explanation, rather
    than break every sheet of the campaign afterwards.
    """
    sheet = system.new_sheet("Prueba", settings)
    system.fields(settings)
    if isinstance(system, CharacterBuilder):
        for kind in CATALOGUE_KINDS:
            system.catalogue(kind, settings)
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
