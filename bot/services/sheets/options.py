"""What ``/sheet`` suggests while a member types: catalogue entries, fields and their values.

Read-only and cheap: one cached campaign lookup and the system's own tables, no sheet read.
Autocomplete never changes anything, so it lives apart from the character use cases.
"""

from __future__ import annotations

from bot.grammar import sheet_fields
from bot.services.campaigns.context import CampaignContextService
from bot.services.shared.context import Place
from bot.services.shared.errors import DomainError
from bot.services.shared.labels import read_field
from rules.systems.base import FieldSpec, StepOption, capabilities
from rules.text import fold

__all__ = ["SheetOptionService"]


class SheetOptionService:
    """Suggestions for the options of ``/sheet`` (items, fields, values), best matches first."""

    def __init__(self, contexts: CampaignContextService) -> None:
        self.contexts = contexts

    async def catalogue(self, place: Place, kind: str, current: str) -> tuple[StepOption, ...]:
        """Names of ``kind`` (``"equipo"``, ``"raza"``…) the system knows, best matches first,
        at most 25; nothing where no campaign is played or the system has no builder."""
        context = await self.contexts.find(place)
        builder = capabilities(context.system).builder if context is not None else None
        if context is None or builder is None:
            return ()
        needle = current.casefold()
        options = [
            o
            for o in builder.catalogue(kind, context.settings)
            if needle in o.label.casefold() or needle in o.value.casefold()
        ]
        options.sort(key=lambda o: (not o.label.casefold().startswith(needle), o.label.casefold()))
        return tuple(options[:25])

    async def field_choices(self, place: Place, current: str) -> tuple[FieldSpec, ...]:
        """The fields ``/sheet set`` can change whose path or label contains ``current``."""
        context = await self.contexts.find(place)
        if context is None:
            return ()
        needle = current.casefold()
        return tuple(
            s
            for s in sheet_fields(context.system, context.settings)
            if needle in s.path.casefold() or needle in s.label.casefold()
        )[:25]

    async def field_path(self, place: Place, field: str) -> str | None:
        """The path of the field ``field`` names (its path, or its label typed whole), so the
        value suggestions of a typed label are named like those of a picked one."""
        context = await self.contexts.find(place)
        if context is None:
            return None
        try:
            spec = read_field(sheet_fields(context.system, context.settings), field)
        except DomainError:
            return None
        return spec.path if spec is not None else None

    async def value_choices(self, place: Place, field: str, current: str) -> tuple[str, ...]:
        """The allowed values of one field (races, classes, armour…) containing ``current``."""
        context = await self.contexts.find(place)
        if context is None:
            return ()
        try:  # the path a suggestion sent, or the label typed without picking one
            spec = read_field(sheet_fields(context.system, context.settings), field)
        except DomainError:
            return ()
        if spec is None:
            return ()
        needle = fold(current)  # «clér» finds «clerigo»
        return tuple(c for c in spec.choices if needle in fold(c))[:25]
