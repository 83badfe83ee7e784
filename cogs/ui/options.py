"""Option suggestions (autocompletes) shared by the command groups.

They live here, not in one cog, so that extensions never import each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.campaigns import setting_specs
from bot.services.settings import resolved_settings
from cogs.ui.context import actor_of, place_of
from rules import systems
from rules.systems.base import CharacterBuilder

if TYPE_CHECKING:
    from bot.app import Arbitro


def _bot(itx: discord.Interaction) -> Arbitro:
    return itx.client  # type: ignore[return-value]


async def character_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    names = await _bot(itx).services.characters.names(
        place_of(itx), actor_of(itx), current, npcs=False
    )
    return [app_commands.Choice(name=name, value=name) for name in names]


async def any_character_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    names = await _bot(itx).services.characters.names(place_of(itx), actor_of(itx), current)
    return [app_commands.Choice(name=name, value=name) for name in names]


async def catalogue_autocomplete(
    itx: discord.Interaction, current: str, kind: str
) -> list[app_commands.Choice[str]]:
    campaign = await _bot(itx).services.campaigns.find(place_of(itx))
    if campaign is None:
        return []
    system = systems.get(campaign.system)
    if not isinstance(system, CharacterBuilder):
        return []
    settings = resolved_settings(setting_specs(campaign.system), campaign.settings)
    needle = current.casefold()
    options = [
        o
        for o in system.catalogue(kind, settings)
        if needle in o.label.casefold() or needle in o.value.casefold()
    ]
    options.sort(key=lambda o: (not o.label.casefold().startswith(needle), o.label.casefold()))
    return [app_commands.Choice(name=o.label[:100], value=o.value[:100]) for o in options[:25]]


async def item_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return await catalogue_autocomplete(itx, current, "equipo")


async def field_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    campaign = await _bot(itx).services.campaigns.find(place_of(itx))
    if campaign is None:
        return []
    system = systems.get(campaign.system)
    settings = resolved_settings(setting_specs(campaign.system), campaign.settings)
    needle = current.casefold()
    specs = [
        s
        for s in system.fields(settings)
        if needle in s.path.casefold() or needle in s.label.casefold()
    ]
    return [
        app_commands.Choice(name=f"{s.label} ({s.path})"[:100], value=s.path[:100])
        for s in specs[:25]
    ]


async def value_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The allowed values of the field already chosen (races, classes, advantages, armour…)."""
    campaign = await _bot(itx).services.campaigns.find(place_of(itx))
    field = getattr(itx.namespace, "field", None)
    if campaign is None or not field:
        return []
    system = systems.get(campaign.system)
    settings = resolved_settings(setting_specs(campaign.system), campaign.settings)
    spec = next((s for s in system.fields(settings) if s.path.casefold() == field.casefold()), None)
    if spec is None or not spec.choices:
        return []
    needle = current.casefold()
    return [
        app_commands.Choice(name=choice[:100], value=choice[:100])
        for choice in spec.choices
        if needle in choice.casefold()
    ][:25]


async def option_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot: Arbitro = itx.client  # type: ignore[assignment]
    character = getattr(itx.namespace, "character", None)
    options = await bot.services.checks.options(place_of(itx), actor_of(itx), character)
    needle = current.casefold()
    ranked = [o for o in options if needle in o.label.casefold() or needle in o.key.casefold()]
    ranked.sort(key=lambda o: (not o.label.casefold().startswith(needle), o.label.casefold()))
    return [app_commands.Choice(name=o.label[:100], value=o.key[:100]) for o in ranked[:25]]


async def npc_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot: Arbitro = itx.client  # type: ignore[assignment]
    names = await bot.services.characters.names(place_of(itx), actor_of(itx), current, npcs=True)
    return [app_commands.Choice(name=name, value=name) for name in names]


async def combatant_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    names = await _bot(itx).services.combat.names(place_of(itx), current)
    return [app_commands.Choice(name=name, value=name) for name in names]


async def spell_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caster's known spells first (★ with their level), then the rest of the list."""
    character = getattr(itx.namespace, "character", None)
    names = await _bot(itx).services.spells.names(place_of(itx), actor_of(itx), current, character)
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in names]


async def list_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    character = getattr(itx.namespace, "character", None)
    lists = await _bot(itx).services.spells.lists(place_of(itx), actor_of(itx), current, character)
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in lists]


async def purchase_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot: Arbitro = itx.client  # type: ignore[assignment]
    character = getattr(itx.namespace, "character", None)
    options = await bot.services.xp.purchases(place_of(itx), actor_of(itx), character)
    needle = current.casefold()
    return [
        app_commands.Choice(name=o.label[:100], value=o.value[:100])
        for o in options
        if needle in o.label.casefold()
    ][:25]
