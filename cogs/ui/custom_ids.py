"""The bot's one custom-id scheme: ``arb:1:<kind>[<action>][:<field>…][<suffix>]``.

A press of a persistent button or select, or a form submitted after a restart, brings back
nothing but its custom id (at most 100 characters), so the id carries all it needs: a kind,
an action where one kind has several, and a few fields (row ids, a version, a step's key).
Every id the bot puts on a message or a form is built by a :class:`CustomId` and read back
by the same object: the buttons keyed by integers (:class:`cogs.ui.keyed_button.KeyedButton`
builds one per class), the items keyed by text (help menus and pages, the wizard's select)
and the forms (the wizard's, ``/post``'s and its edit, ``/scene open``'s).  The layouts are
the ones already sitting in Discord, to the letter (``tests/bot/test_keyed_buttons.py`` and
``tests/bot/test_custom_ids.py`` parse one of each).

A form's submitted values are read here too (:func:`form_values`): the payload of a modal
answered without a View in memory (:mod:`cogs.ui.modal_submissions`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import discord

__all__ = [
    "INT",
    "PREFIX",
    "CustomId",
    "custom_id_of",
    "form_values",
    "selected_values",
]

PREFIX = "arb:1:"
INT = r"\d+"
MAX_LENGTH = 100  # Discord's limit


@dataclass(frozen=True)
class CustomId:
    """One kind of custom id: its fields (name → pattern, in order), its actions (each one
    glued to the kind, ``init-next``) and a constant tail (approval ids end in ``:0``)."""

    kind: str
    fields: tuple[tuple[str, str], ...] = ()
    actions: tuple[str, ...] = ("",)
    suffix: str = ""

    @classmethod
    def of(
        cls, kind: str, *, actions: tuple[str, ...] = ("",), suffix: str = "", **fields: str
    ) -> CustomId:
        return cls(kind, tuple(fields.items()), actions, suffix)

    @cached_property
    def template(self) -> str:
        """The regular expression of every id of this kind (``action`` and each field named)."""
        actions = "|".join(map(re.escape, self.actions))
        fields = "".join(rf":(?P<{name}>{pattern})" for name, pattern in self.fields)
        return (
            rf"{re.escape(PREFIX + self.kind)}(?P<action>{actions}){fields}{re.escape(self.suffix)}"
        )

    @cached_property
    def _compiled(self) -> re.Pattern[str]:
        return re.compile(self.template)

    def build(self, *values: object, action: str = "") -> str:
        """The id of ``values`` (one per field, in order); refuses what it could not read back."""
        parts = [f"{PREFIX}{self.kind}{action}", *(str(value) for value in values)]
        text = ":".join(parts) + self.suffix
        if len(values) != len(self.fields) or self.parse(text) is None:
            raise ValueError(f"not a {self.kind!r} custom id: {text!r}")
        return text

    def parse(self, custom_id: str) -> dict[str, str] | None:
        """The fields (and ``action``) of an id of this kind; None for any other id."""
        found = self._compiled.fullmatch(custom_id)
        return None if found is None else found.groupdict()


def _payload(itx: discord.Interaction[Any]) -> Mapping[str, Any]:
    """The interaction's raw data (discord.py types it as a union of TypedDicts, one per kind)."""
    return itx.data or {}


def custom_id_of(itx: discord.Interaction[Any]) -> str:
    """The custom id of the component pressed or the form submitted."""
    return str(_payload(itx).get("custom_id", ""))


def selected_values(itx: discord.Interaction[Any]) -> list[str]:
    """The options chosen in the select that was used (none: an empty list)."""
    values = _payload(itx).get("values")
    return [str(value) for value in values] if isinstance(values, list) else []


def form_values(itx: discord.Interaction[Any]) -> dict[str, str]:
    """custom_id → value of every text input of a submitted form (in rows or in labels)."""
    return _values(list(_payload(itx).get("components") or []))


def _values(components: list[Any]) -> dict[str, str]:
    found: dict[str, str] = {}
    for component in components:
        if not isinstance(component, Mapping):
            continue
        if "custom_id" in component and "value" in component:
            found[str(component["custom_id"])] = str(component["value"] or "")
        found.update(_values(list(component.get("components") or [])))
        if isinstance(component.get("component"), Mapping):
            found.update(_values([component["component"]]))
    return found
