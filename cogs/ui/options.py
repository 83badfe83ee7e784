"""Option types shared by the command groups: a value that passes through, with suggestions.

A command declares what an option *is* and gets its autocomplete with it::

    async def show(self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None)

instead of ``character: str`` plus ``@app_commands.autocomplete(character=…)``.  Each alias is
``app_commands.Transform[str, <Transformer>]``: the option stays a string on Discord's side
(same name, type, length limits and Spanish localization), the value reaches the command
unchanged, and the transformer's ``autocomplete`` calls the suggestion function below.
The suggestion functions live here, not in one cog, so that extensions never import each other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands

from bot.i18n import t
from bot.services.campaigns.service import setting_key, setting_specs
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.errors import DomainError
from bot.words import field_display, setting_name, setting_value
from cogs.ui.context import actor_of, place_of, reply_locale
from cogs.ui.help_pages import docs_of, suggestions
from rules.systems.base import CheckOption as RollableOption
from rules.systems.base import FieldKind, StepOption
from rules.text import fold

if TYPE_CHECKING:
    from bot.app import Arbitro


async def character_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    names = await itx.client.services.characters.names(
        place_of(itx), actor_of(itx), current, npcs=False
    )
    return [app_commands.Choice(name=name, value=name) for name in names]


async def any_character_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    names = await itx.client.services.characters.names(place_of(itx), actor_of(itx), current)
    return [app_commands.Choice(name=name, value=name) for name in names]


async def catalogue_autocomplete(
    itx: discord.Interaction[Arbitro], current: str, kind: str
) -> list[app_commands.Choice[str]]:
    options = await itx.client.services.sheet_options.catalogue(place_of(itx), kind, current)
    return [app_commands.Choice(name=o.label[:100], value=o.value[:100]) for o in options]


async def item_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    return await catalogue_autocomplete(itx, current, "equipo")


async def field_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    specs = await itx.client.services.sheet_options.field_choices(place_of(itx), current)
    return [
        app_commands.Choice(name=f"{s.label} ({s.path})"[:100], value=s.path[:100]) for s in specs
    ]


async def value_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The allowed values of the field already chosen (races, classes, advantages, armour…)."""
    field = getattr(itx.namespace, "field", None)
    if not field:
        return []
    options = itx.client.services.sheet_options
    values = await options.value_choices(place_of(itx), field, current)
    path = await options.field_path(place_of(itx), field) or field  # a typed label too
    campaign = await itx.client.services.campaigns.find(place_of(itx))
    locale = await reply_locale(itx.client, itx)

    def shown(value: str) -> str:
        """«Clérigo» for ``clerigo``: the id stays the value sent back."""
        named = field_display(campaign.system, path, value, locale) if campaign else None
        return named or value

    return [app_commands.Choice(name=shown(value)[:100], value=value[:100]) for value in values]


async def option_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    character = getattr(itx.namespace, "character", None)
    options = await itx.client.services.checks.options(place_of(itx), actor_of(itx), character)
    return _check_choices(options, current)


async def npc_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    names = await itx.client.services.characters.names(
        place_of(itx), actor_of(itx), current, npcs=True
    )
    return [app_commands.Choice(name=name, value=name) for name in names]


async def combatant_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    names = await itx.client.services.combat.names(place_of(itx), current)
    return [app_commands.Choice(name=name, value=name) for name in names]


async def attack_target_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The fight's combatants first, then the campaign's characters the user can see."""
    names = await itx.client.services.attacks.targets(place_of(itx), actor_of(itx), current)
    return _named(names)


async def weapon_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The attacker's weapons (the ``character`` option, or the user's active one), with
    their damage."""
    character = getattr(itx.namespace, "character", None)
    options = await itx.client.services.attacks.weapons(place_of(itx), actor_of(itx), character)
    return _choices(options, current, described=True)


async def circumstances_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The circumstances the campaign's system reads on an attack (rolweb: seed 001's free
    attacks, advantage, line of sight, the GM's ``forzar``), each with what it means; the
    list is comma-separated, so the last item typed is the one completed."""
    offered = await itx.client.services.attacks.circumstances(place_of(itx))
    if not offered:
        return []
    head, _, last = current.rpartition(",")
    chosen = {part.strip().casefold() for part in head.split(",") if part.strip()}
    prefix = f"{head}," if head else ""
    needle = last.strip().casefold()
    locale = await reply_locale(itx.client, itx)
    return [
        app_commands.Choice(
            name=f"{name} — {t(f'rolweb_fight.circumstance.{name}', locale)}"[:100],
            value=f"{prefix}{name}",
        )
        for name in offered
        # a choice's value is at most 100 characters (Discord): longer lists are typed
        if name not in chosen and needle in name and len(prefix) + len(name) <= 100
    ][:25]


async def effect_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The effects on the character chosen in ``target`` (``/effect``) or ``combatant``
    (``/init effect``)."""
    target = getattr(itx.namespace, "target", None) or getattr(itx.namespace, "combatant", None)
    names = await itx.client.services.effects.names(place_of(itx), actor_of(itx), target, current)
    return _named(names)


async def spell_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The caster's known spells first (★ with their level), then the rest of the list."""
    character = getattr(itx.namespace, "character", None)
    names = await itx.client.services.spells.names(place_of(itx), actor_of(itx), current, character)
    return _labelled(names)


async def list_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    character = getattr(itx.namespace, "character", None)
    lists = await itx.client.services.spells.lists(place_of(itx), actor_of(itx), current, character)
    return _labelled(lists)


async def purchase_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    character = getattr(itx.namespace, "character", None)
    options = await itx.client.services.xp.purchases(place_of(itx), actor_of(itx), character)
    return _choices(options, current)


async def ability_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The abilities the character knows (rolweb), with their level."""
    character = getattr(itx.namespace, "character", None)
    options = await itx.client.services.abilities.choices(place_of(itx), actor_of(itx), character)
    return _choices(options, current)


async def setting_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The rule settings of this campaign's system by their display names, with the value
    each has now in this campaign (not the default: a GM checks what he changed)."""
    campaign = await itx.client.services.campaigns.find(place_of(itx))
    if campaign is None:
        return []
    locale = await reply_locale(itx.client, itx)
    specs = setting_specs(campaign.system)
    values = resolved_settings(specs, campaign.settings)
    needle = fold(current)
    out = []
    for spec in specs:
        name = setting_name(campaign.system, spec.key, locale)
        if needle and needle not in fold(name) and needle not in spec.key:
            continue
        value = setting_value(campaign.system, spec.key, values[spec.key], locale)
        out.append(app_commands.Choice(name=f"{name}: {value}"[:100], value=spec.key))
    return out[:25]


async def setting_value_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The values of the setting already chosen, by their display names (sí/no for a
    switch, each named choice); a number or a text setting suggests nothing."""
    key = getattr(itx.namespace, "setting", None)
    campaign = await itx.client.services.campaigns.find(place_of(itx))
    if campaign is None or not key:
        return []
    locale = await reply_locale(itx.client, itx)
    try:  # the key a suggestion sent, or the name typed without picking it
        key = setting_key(campaign.system, key)
    except DomainError:
        return []
    spec = next((s for s in setting_specs(campaign.system) if s.key == key), None)
    if spec is None:
        return []
    if spec.kind is FieldKind.BOOLEAN:
        choices = [(t("common.yes", locale), "sí"), (t("common.no", locale), "no")]
    elif spec.kind is FieldKind.CHOICE:
        choices = [
            (setting_value(campaign.system, key, str(c), locale), str(c)) for c in spec.choices
        ]
    else:
        return []
    needle = fold(current)
    return [
        app_commands.Choice(name=name[:100], value=value[:100])
        for name, value in choices
        if needle in fold(name) or needle in fold(value)
    ][:25]


async def help_topic_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """/help's topics: the guides, every command group and every command, in the user's language."""
    locale = await reply_locale(itx.client, itx)
    return [
        app_commands.Choice(name=label, value=value)
        for label, value in suggestions(await docs_of(itx.client), current, locale)
    ]


async def request_who_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """``/request check who``: the last comma-separated piece completed with «todos» or a
    character name (mentions are typed with Discord's own @ picker)."""
    head, _, piece = current.rpartition(",")
    prefix = f"{head}, " if head else ""
    needle = piece.strip()
    names = await itx.client.services.characters.names(place_of(itx), actor_of(itx), needle)
    words = [w for w in ("todos", "all") if w.startswith(needle.casefold())]
    values = [prefix + w for w in words] + [prefix + name for name in names]
    return [app_commands.Choice(name=v, value=v) for v in values if len(v) <= 100][:25]


async def request_option_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """``/request check option``: what the characters in ``who`` can roll (like ``/check``)."""
    who = getattr(itx.namespace, "who", None)
    options = await itx.client.services.requests.options_for(
        place_of(itx), actor_of(itx), who if isinstance(who, str) else None
    )
    return _check_choices(options, current)


def _named(names: Iterable[str]) -> list[app_commands.Choice[str]]:
    """Names that are their own values, within Discord's 100-character limit."""
    return [app_commands.Choice(name=name[:100], value=name[:100]) for name in names]


def _labelled(pairs: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """``(label, value)`` pairs as choices, within Discord's 100-character limit."""
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in pairs]


def _choices(
    options: Iterable[StepOption], current: str, *, described: bool = False
) -> list[app_commands.Choice[str]]:
    """The options whose label contains what the user typed (ignoring case and accents), in
    their order,
    as at most 25 choices within Discord's 100-character limits; ``described`` adds each
    option's description to its label (a weapon's damage).  One helper, so that every
    suggestion list filters and truncates the same way."""
    needle = fold(current)
    return [
        app_commands.Choice(
            name=(f"{o.label} ({o.description})" if described else o.label)[:100],
            value=o.value[:100],
        )
        for o in options
        if needle in fold(o.label)
    ][:25]


def _check_choices(
    options: Iterable[RollableOption], current: str
) -> list[app_commands.Choice[str]]:
    """What a character can roll, matched on its label or its key (``habilidad:Sigilo``),
    those whose label starts with what was typed first, then alphabetically."""
    needle = fold(current)
    ranked = [o for o in options if needle in fold(o.label) or needle in fold(o.key)]
    ranked.sort(key=lambda o: (not fold(o.label).startswith(needle), fold(o.label)))
    return [app_commands.Choice(name=o.label[:100], value=o.key[:100]) for o in ranked[:25]]


# -- option types ------------------------------------------------------------------------

if TYPE_CHECKING:
    # a staticmethod, so that a subclass's ``suggest = staticmethod(f)`` is not bound to self
    # (staticmethod is generic only for the type checker, hence under TYPE_CHECKING)
    Suggest = staticmethod[
        [discord.Interaction[Arbitro], str], Awaitable[list[app_commands.Choice[str]]]
    ]


class Suggested(app_commands.Transformer):
    """A string option whose value passes through unchanged, suggested by ``suggest``.

    ``min_length``/``max_length`` are the limits Discord enforces (what
    ``app_commands.Range[str, min, max]`` declared before).
    """

    suggest: ClassVar[Suggest]

    def __init__(self, min_length: int | None = None, max_length: int | None = None) -> None:
        self._min, self._max = min_length, max_length

    @property
    def min_value(self) -> int | None:
        return self._min

    @property
    def max_value(self) -> int | None:
        return self._max

    async def transform(self, itx: discord.Interaction[Arbitro], value: str, /) -> str:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        return value

    async def autocomplete(  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        self, itx: discord.Interaction[Arbitro], value: str, /
    ) -> list[app_commands.Choice[str]]:
        return await type(self).suggest(itx, value)


class CharacterTransformer(Suggested):
    """A player character of this campaign (no NPCs): the ones the user may act for."""

    suggest = staticmethod(character_autocomplete)


class AnyCharacterTransformer(Suggested):
    """A character or an NPC the user can see."""

    suggest = staticmethod(any_character_autocomplete)


class NpcTransformer(Suggested):
    """One of the campaign's NPCs (the GM sees the hidden ones)."""

    suggest = staticmethod(npc_autocomplete)


class CombatantTransformer(Suggested):
    """Someone in this channel's fight."""

    suggest = staticmethod(combatant_autocomplete)


class AttackTargetTransformer(Suggested):
    """Who attacks or is attacked: the fight's combatants first, then the characters."""

    suggest = staticmethod(attack_target_autocomplete)


class CircumstancesTransformer(Suggested):
    """Comma-separated circumstances of an attack, suggested by the campaign's system."""

    suggest = staticmethod(circumstances_autocomplete)


class WeaponTransformer(Suggested):
    """A weapon of the attacker's sheet, with its damage."""

    suggest = staticmethod(weapon_autocomplete)


class EffectTransformer(Suggested):
    """An effect on the chosen character's sheet (any name is accepted when adding)."""

    suggest = staticmethod(effect_autocomplete)


class CheckOptionTransformer(Suggested):
    """What ``/check`` rolls, suggested from the sheet of the ``character`` option (or yours)."""

    suggest = staticmethod(option_autocomplete)


class SpellTransformer(Suggested):
    """A spell, the caster's known ones first."""

    suggest = staticmethod(spell_autocomplete)


class SpellListTransformer(Suggested):
    """A spell list the caster draws from (S&W Explorador: clerigo or mago)."""

    suggest = staticmethod(list_autocomplete)


class PurchaseTransformer(Suggested):
    """What ``/xp spend`` buys, with its cost (rolweb)."""

    suggest = staticmethod(purchase_autocomplete)


class AbilityTransformer(Suggested):
    """An ability on the character's sheet (rolweb), with its level."""

    suggest = staticmethod(ability_autocomplete)


class ItemTransformer(Suggested):
    """An item of the system's equipment catalogue (any text is accepted)."""

    suggest = staticmethod(item_autocomplete)


class FieldTransformer(Suggested):
    """A sheet field path (``atributos.fue``…), suggested with its label."""

    suggest = staticmethod(field_autocomplete)


class FieldValueTransformer(Suggested):
    """A value for the ``field`` option already chosen (races, classes, armour…)."""

    suggest = staticmethod(value_autocomplete)


class SettingTransformer(Suggested):
    """A rule setting of the campaign's system."""

    suggest = staticmethod(setting_autocomplete)


class RequestWhoTransformer(Suggested):
    """Who a GM roll request asks: mentions, character names, «todos»."""

    suggest = staticmethod(request_who_autocomplete)


class RequestOptionTransformer(Suggested):
    """What a GM roll request asks for, from the asked characters' sheets."""

    suggest = staticmethod(request_option_autocomplete)


class SettingValueTransformer(Suggested):
    """A value for the ``setting`` option already chosen (a switch, a named choice)."""

    suggest = staticmethod(setting_value_autocomplete)


Character = app_commands.Transform[str, CharacterTransformer]
AnyCharacter = app_commands.Transform[str, AnyCharacterTransformer]
NewCombatant = app_commands.Transform[str, AnyCharacterTransformer(1, 80)]  # an NPC, or any name
Npc = app_commands.Transform[str, NpcTransformer]
Combatant = app_commands.Transform[str, CombatantTransformer]
AttackTarget = app_commands.Transform[str, AttackTargetTransformer(1, 100)]
Weapon = app_commands.Transform[str, WeaponTransformer(1, 100)]
Circumstances = app_commands.Transform[str, CircumstancesTransformer(1, 200)]
CheckOption = app_commands.Transform[str, CheckOptionTransformer(1, 100)]
EffectName = app_commands.Transform[str, EffectTransformer(1, 60)]
Spell = app_commands.Transform[str, SpellTransformer(1, 100)]
SpellList = app_commands.Transform[str, SpellListTransformer(1, 40)]
Purchase = app_commands.Transform[str, PurchaseTransformer(1, 100)]
Ability = app_commands.Transform[str, AbilityTransformer(1, 100)]
Item = app_commands.Transform[str, ItemTransformer(1, 100)]
Field = app_commands.Transform[str, FieldTransformer]
FieldValue = app_commands.Transform[str, FieldValueTransformer(1, 500)]
Setting = app_commands.Transform[str, SettingTransformer]
RequestWho = app_commands.Transform[str, RequestWhoTransformer(1, 1000)]
RequestOption = app_commands.Transform[str, RequestOptionTransformer(1, 100)]
SettingValue = app_commands.Transform[str, SettingValueTransformer(1, 500)]


async def speaker_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """``/post as``: the user's characters; for a referee every NPC and the narrator too."""
    names = await itx.client.services.posting.speakers(place_of(itx), actor_of(itx), current)
    return _named(names)


class SpeakerTransformer(Suggested):
    """Who a post speaks as (``/post as``)."""

    suggest = staticmethod(speaker_autocomplete)


Speaker = app_commands.Transform[str, SpeakerTransformer(1, 100)]


class HelpTopicTransformer(Suggested):
    """A /help topic: a guide, a command group or a command (either language)."""

    suggest = staticmethod(help_topic_autocomplete)
