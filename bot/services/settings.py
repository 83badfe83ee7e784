"""Campaign settings: parse what a GM typed against the system's :class:`SettingSpec`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.services.errors import InvalidSetting
from rules.systems.base import FieldKind, SettingSpec

__all__ = ["parse_setting", "resolved_settings"]

_TRUE = {"1", "true", "yes", "on", "si", "sí", "s", "y", "verdadero", "activado"}
_FALSE = {"0", "false", "no", "off", "n", "falso", "desactivado"}


def parse_setting(spec: SettingSpec, raw: str) -> Any:
    """Turn the text a GM typed into the setting's value, or raise a translated error."""
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
    if not text or len(text) > 500:
        raise InvalidSetting("campaign.error.expected_text", key=spec.key, limit=500)
    return text


def resolved_settings(
    specs: Iterable[SettingSpec], stored: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Defaults overlaid with what the campaign stored (unknown stored keys are kept too)."""
    values = {spec.key: spec.default for spec in specs}
    values.update(stored or {})
    return values
