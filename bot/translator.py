"""Localized command, option and choice names for Discord clients, from the catalogue.

Canonical names are English and written in the code; Spanish clients see the names in
``bot/locales/es/commands.toml``.  Keys are derived from where the string sits, so a cog
never repeats them:

* command ``campaign create`` → ``commands.campaign.create.name`` / ``.description``
* its option ``name`` → ``commands.campaign.create.options.name.name`` / ``.description``
* a choice with value ``nucleo`` → ``commands.choices.nucleo``

An explicit ``locale_str(..., key="…")`` overrides the derived key.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import catalogue, normalize_locale

__all__ = ["CatalogueTranslator", "command_key"]


def command_key(qualified_name: str) -> str:
    return "commands." + qualified_name.replace(" ", ".")


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = normalize_locale(locale)
        if lang is None or lang == "en":
            return None  # English is the canonical text written in the code
        key = string.extras.get("key") or self._derive_key(string, context)
        if key is None:
            return None
        return catalogue().messages.get(lang, {}).get(key)

    @staticmethod
    def _derive_key(
        string: app_commands.locale_str, context: app_commands.TranslationContextTypes
    ) -> str | None:
        location, data = context.location, context.data
        match data:
            case app_commands.Command() | app_commands.ContextMenu() | app_commands.Group():
                if location in (Where.command_name, Where.group_name):
                    return command_key(data.qualified_name) + ".name"
                if location in (Where.command_description, Where.group_description):
                    return command_key(data.qualified_name) + ".description"
            case app_commands.Parameter():
                if location is Where.parameter_name:
                    return f"{command_key(data.command.qualified_name)}.options.{data.name}.name"
                if location is Where.parameter_description:
                    key = command_key(data.command.qualified_name)
                    return f"{key}.options.{data.name}.description"
            case app_commands.Choice():
                if location is Where.choice_name:
                    return f"commands.choices.{data.value}"
        return None
