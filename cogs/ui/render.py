"""View-models → Discord messages, in the reader's language.  No game logic here.

Every function returns the keyword arguments for ``send_message``/``followup.send`` so a
cog body stays one service call and one render.  Embeds are kept under Discord's limits.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

import discord

from bot.db.types import as_utc
from bot.formatting import format_percent
from bot.i18n import t
from bot.services.campaigns.service import CampaignView, SettingView, setting_key
from bot.services.play.rolls import HistoryView, OddsView, RollView
from bot.services.shared.audience import Shown
from bot.services.shared.errors import InvalidSetting
from bot.words import problem_text, setting_description, setting_name, setting_value
from rules.dice.limits import MAX_ROLLS
from rules.systems.base import Problem

__all__ = [
    "roll",
    "history",
    "odds",
    "campaign",
    "campaign_rule",
    "percent",
    "truncate",
    "name_list",
    "setting_line",
    "settings_embeds",
]

COLOUR = {
    "success": discord.Colour.green(),
    "critical": discord.Colour.gold(),
    "failure": discord.Colour.dark_grey(),
    "fumble": discord.Colour.red(),
    None: discord.Colour.blurple(),
}


def truncate(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: past it, cut at the last line break or space
    (not mid-word, «habilidade…»), then «…».  Lists that may grow long are summarised with
    :func:`fit_lines` / :func:`name_list` instead; this is the last guard of Discord's limits."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    for mark in ("\n", " "):
        cut = head.rfind(mark)
        if cut >= limit * 2 // 3:
            return head[:cut].rstrip(" ,;·") + "…"
    return head + "…"


def turn_warnings(problems: tuple[Problem, ...], locale: str) -> str:
    """An act let through out of turn or beyond the turn's actions (``acciones_por_turno`` =
    ``advertir``): one warning line each, for everyone to read."""
    return "\n".join("⚠️ " + problem_text(p.key, p.params, locale) for p in problems)


def fit_lines(lines: list[str], locale: str, limit: int = 4000) -> str:
    """Whole lines joined up to ``limit`` characters, then «… y N más» for the rest.

    An embed description holds 4,000 characters; a list that would pass it (a campaign's
    hundred NPCs, a long log) is summarised at a line boundary and says how much it left
    out, instead of being cut mid-word or refused by Discord.
    """
    shown: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        rest = len(lines) - index - 1
        tail = len(t("common.and_more", locale, count=rest)) + 3 if rest else 0
        if used + len(line) + 1 + tail > limit:
            more = t("common.and_more", locale, count=len(lines) - index)
            return "\n".join(shown + [f"… {more}"])
        shown.append(line)
        used += len(line) + 1
    return "\n".join(shown)


def name_list(names: list[str] | tuple[str, ...], locale: str, budget: int = 1500) -> str:
    """Names joined by commas, summarised as «… and N more» past ``budget`` characters.

    A list of long names (20 copies of a 95-character NPC) would otherwise break Discord's
    2,000-character limit after the change it reports was already saved.
    """
    shown: list[str] = []
    used = 0
    for index, name in enumerate(names):
        after = len(names) - index - 1  # room is kept for the «and N more» that may follow
        tail = len(t("common.and_more", locale, count=after)) + 1 if after else 0
        if shown and used + len(name) + 2 + tail > budget:
            return ", ".join(shown) + " " + t("common.and_more", locale, count=len(names) - index)
        shown.append(name)
        used += len(name) + 2
    return ", ".join(shown)


def percent(probability: Fraction, locale: str) -> str:
    """``Fraction(1, 3)`` → ``"33,33 %"`` (es) or ``"33.33%"`` (en): :func:`format_percent`."""
    return format_percent(probability, locale)


def _who(view_user: str, character: str | None, locale: str) -> str:
    # a member who deleted their data (/privacy delete) left their rolls without a name
    view_user = view_user or t("privacy.anonymous", locale)
    if character:
        return t("roll.who_as_character", locale, user=view_user, character=character)
    return view_user


def roll(shown: Shown[RollView], locale: str) -> dict[str, Any]:
    """The public (or ephemeral) reply to ``/roll``, for its reader."""
    view = shown.value
    colour_key = "fumble" if view.fumble else view.outcome
    title = t(
        "roll.title",
        locale,
        who=_who(view.user_name, view.character_name, locale),
        expression=view.expression,
    )
    lines = [truncate(view.breakdown_markdown, 3500), t("roll.total", locale, total=view.total)]
    embed = discord.Embed(
        title=truncate(title, 256), description="\n".join(lines), colour=COLOUR[colour_key]
    )
    if view.reason:
        embed.add_field(
            name=t("roll.reason", locale), value=truncate(view.reason, 1024), inline=False
        )
    if view.outcome is not None:
        verdict = t(f"roll.outcome.{view.outcome}", locale)
        if view.difficulty is not None:
            key = "roll.against_target" if view.roll_under else "roll.against"
            verdict = t(key, locale, verdict=verdict, difficulty=view.difficulty)
        embed.add_field(name=t("roll.result", locale), value=verdict, inline=True)
    if view.fumble:
        embed.add_field(
            name=t("roll.fumble_title", locale), value=t("roll.fumble", locale), inline=True
        )
    if view.explosions:
        embed.add_field(
            name=t("roll.explosions_title", locale),
            value=t("roll.explosions", locale, count=view.explosions),
            inline=True,
        )
    footer = [t("roll.log_ref", locale, id=view.log_id)]
    if view.private:
        footer.append(t("roll.private_footer", locale))
    embed.set_footer(text=" · ".join(footer))
    return {"embed": embed}


def moment(when: datetime, style: str = "f") -> str:
    """An absolute moment as a Discord timestamp (``<t:…:f>``): each reader's client shows
    it in their own zone and language (players in Spain and Latin America share tables:
    issue 23 §6).  Only where Discord cannot render one (a file, an embed's title or
    footer) is a moment written out, in the campaign's zone (:mod:`bot.formatting`).
    Stored moments come back aware (``bot/db/types.py``); a naive one is taken as UTC."""
    aware = as_utc(when)
    return f"<t:{int(aware.timestamp())}:{style}>"


def history(view: HistoryView, locale: str) -> dict[str, Any]:
    if not view.entries:
        return {"content": t("history.empty", locale), "ephemeral": True}
    lines = []
    for entry in view.entries:
        who = _who(entry.user_name, entry.character_name, locale)
        parts = [
            f"`#{entry.log_id}`",
            f"**{entry.total}**" if entry.total is not None else "**?**",
            *([f"`{truncate(entry.expression, 60)}`"] if entry.expression else []),
            who,
        ]
        if entry.outcome:
            # roll.outcome names every outcome a log row holds (an attack's «hit» too)
            parts.append(t(f"roll.outcome.{entry.outcome}", locale))
        if entry.difficulty is not None:
            parts.append(t("history.target", locale, target=entry.difficulty))
        if entry.fumble and entry.outcome != "fumble":
            parts.append(t("roll.fumble_short", locale))
        if entry.reason:
            parts.append(f"— {truncate(entry.reason, 60)}")
        if entry.private:
            parts.append(t("history.private_mark", locale))
        if entry.imported:
            parts.append(t("history.imported_mark", locale))
        if entry.undone:
            parts.append(t("history.undone_mark", locale))
        elif entry.undoable and view.sees_private:  # the GM's view: how to undo it
            parts.append(t("history.undo_hint", locale, id=entry.log_id))
        parts.append(moment(entry.created_at))
        if entry.message_url:
            parts.append(t("history.jump", locale, url=entry.message_url))
        lines.append(" ".join(parts))
    description = fit_lines(lines, locale)
    embed = discord.Embed(
        title=t("history.title", locale), description=description, colour=COLOUR[None]
    )
    if not view.sees_private:
        embed.set_footer(text=t("history.player_footer", locale))
    return {"embed": embed, "ephemeral": True}


def odds(view: OddsView, locale: str) -> dict[str, Any]:
    key = {"at_least": "odds.line", "at_most": "flows.odds_at_most", "test": "flows.odds_test"}
    lines = [
        t(
            key[view.kind],
            locale,
            target=view.target,
            expression=view.expression,
            percent=percent(view.probability, locale),
            fraction=f"{view.probability.numerator}/{view.probability.denominator}",
        )
    ]
    if view.ignored_target is not None:
        lines.append(t("flows.odds_ignored_target", locale, target=view.ignored_target))
    if view.critical_probability is not None:
        lines.append(
            t(
                "odds.critical",
                locale,
                target=view.critical_target,
                percent=percent(view.critical_probability, locale),
            )
        )
    if float(view.abort) > 0:  # an astronomically small chance shows as nothing
        lines.append(t("odds.abort", locale, percent=percent(view.abort, locale), limit=MAX_ROLLS))
    embed = discord.Embed(
        title=t("odds.title", locale), description="\n".join(lines), colour=COLOUR[None]
    )
    return {"embed": embed}


def _short(text: str, locale: str, limit: int = 80) -> str:
    """A long text setting (a campaign's own weapon list) summarised, never cut mid-word."""
    if len(text) <= limit:
        return text
    return t(
        "settings.long_value", locale, start=text[: limit // 2].rsplit(" ", 1)[0], size=len(text)
    )


def setting_line(system: str, setting: SettingView, locale: str, *, described: bool = True) -> str:
    """One rule as a GM reads it: display name, current value, default, what it does
    (``described``: its description on a second line)."""
    current = _short(setting_value(system, setting.key, setting.value, locale), locale)
    default = _short(setting_value(system, setting.key, setting.default, locale), locale)
    key = "settings.line" if setting.value == setting.default else "settings.changed"
    line = t(
        key,
        locale,
        name=setting_name(system, setting.key, locale),
        value=current,
        default=default,
    )
    description = setting_description(system, setting.key, locale) if described else ""
    return f"{line}\n↳ {description}" if description else line


#: Discord's limit on the text of all the embeds of one message together.
MESSAGE_EMBED_TEXT = 6000
#: What one embed's description holds (Discord: 4,096; kept whole lines below it).
EMBED_DESCRIPTION = 4000


def campaign_rule(view: CampaignView, typed: str, locale: str) -> dict[str, Any]:
    """One rule of the campaign explained (``/campaign show setting:``): its value, default,
    what it does and the values it takes — what the rule list leaves out when it is too long
    for one message.  ``typed``: its key or its name in either language."""
    key = setting_key(view.system, typed)
    found = next((s for s in view.settings if s.key == key), None)
    if found is None:
        raise InvalidSetting("campaign.error.unknown_setting", key=typed[:100])
    lines = [setting_line(view.system, found, locale)]
    if found.choices:
        named = (setting_value(view.system, key, choice, locale) for choice in found.choices)
        lines.append(t("settings.choices", locale, choices=", ".join(named)))
    lines.append(t("settings.change_hint", locale, key=key))
    embed = discord.Embed(
        title=truncate(setting_name(view.system, key, locale), 256),
        description=truncate("\n".join(lines), EMBED_DESCRIPTION),
        colour=COLOUR[None],
    )
    return {"embed": embed, "ephemeral": True}


def settings_embeds(view: CampaignView, locale: str, budget: int = 5000) -> list[discord.Embed]:
    """Every rule of the campaign, each whole, in as many embeds as they need within
    ``budget`` characters (what the message has left of Discord's 6,000): with their
    descriptions while they fit, else one line each («name: value») and a note saying where
    each is explained.  Never a rule left out: a GM must see every rule the campaign has."""
    title = t("campaign.field.settings", locale)
    for described in (True, False):
        lines = [setting_line(view.system, s, locale, described=described) for s in view.settings]
        if not described:
            lines.append(t("settings.compact_note", locale))
        pages = _pages(lines, EMBED_DESCRIPTION)
        if sum(len(page) + len(title) for page in pages) <= budget or not described:
            break
    return [
        discord.Embed(title=title if i == 0 else None, description=page, colour=COLOUR[None])
        for i, page in enumerate(pages)
    ]


def _pages(lines: list[str], limit: int) -> list[str]:
    """Whole lines grouped into texts of at most ``limit`` characters."""
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        if pages[-1] and used + len(line) + 1 > limit:
            pages.append([])
            used = 0
        pages[-1].append(line[:limit])
        used += len(line) + 1
    return ["\n".join(page) for page in pages]


def campaign(
    view: CampaignView,
    locale: str,
    *,
    headline_key: str | None = None,
    description: str | None = None,
) -> dict[str, Any]:
    """The campaign and every rule; ``description`` (the creation's help) goes in the first
    embed *before* the rules' budget is measured, so the message stays within Discord's 6,000
    characters (added afterwards it overflowed once a setting was added: issue 23 §3)."""
    title = t(headline_key, locale, name=view.name) if headline_key else view.name
    embed = discord.Embed(title=truncate(title, 256), description=description, colour=COLOUR[None])
    embed.add_field(name=t("campaign.field.system", locale), value=view.system_name)
    embed.add_field(
        name=t("campaign.field.gm", locale),
        value=f"<@{view.gm_user_id}>" if view.gm_user_id else t("privacy.no_gm", locale),
    )
    embed.add_field(
        name=t("campaign.field.status", locale), value=t(f"campaign.status.{view.status}", locale)
    )
    embed.add_field(
        name=t("campaign.field.gm_role", locale),
        value=f"<@&{view.gm_role_id}>" if view.gm_role_id else t("common.none", locale),
    )
    embed.add_field(
        name=t("campaign.field.gm_channel", locale),
        value=f"<#{view.gm_channel_id}>" if view.gm_channel_id else t("common.none", locale),
    )
    embed.add_field(
        name=t("scene.field.off_topic", locale),
        value=f"<#{view.off_topic_channel_id}>"
        if view.off_topic_channel_id
        else t("common.none", locale),
    )
    embed.add_field(
        name=t("campaign.field.language", locale),
        value=t(f"common.language.{view.locale}", locale)
        if view.locale
        else t("campaign.language_auto", locale),
    )
    bindings = [
        t(f"campaign.binding.{kind}", locale, target=f"<#{target}>")
        for target, kind in view.bindings
    ]
    embed.add_field(
        name=t("campaign.field.bound", locale),
        value=truncate("\n".join(bindings) or t("common.none", locale), 1024),
        inline=False,
    )
    embed.set_footer(text=t("campaign.footer", locale, id=view.id, version=view.version))
    if not view.settings:
        return {"embeds": [embed]}
    budget = MESSAGE_EMBED_TEXT - len(embed) - 100  # a margin for the headline's content
    return {"embeds": [embed, *settings_embeds(view, locale, budget)]}
