"""Character sheets, drafts and checks → embeds, always inside Discord's limits.

A sheet can be long (36 Núcleo skills, nine S&W spell levels): fields are packed into as
many embeds as needed (25 fields and 6,000 characters per message at most), grouped the
way the system groups them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import discord

from bot.formatting import format_number
from bot.grammar import gender_of
from bot.i18n import catalogue, t
from bot.services.play.checks import CheckView
from bot.services.shared.audience import Part, Shown
from bot.services.sheets.changes import Purse
from bot.services.sheets.characters import CharacterSummary, CharacterView, get_path
from bot.services.sheets.creation import DraftView
from bot.words import field_display, problem_text
from cogs.ui.render import COLOUR, fit_lines, percent, truncate
from rules.systems.base import DerivedValue, FieldSpec, OpposedResult, Problem

__all__ = [
    "money_changed",
    "character",
    "character_list",
    "draft",
    "sheet_groups",
    "check",
    "problems_text",
    "field_value",
]

MAX_FIELDS = 25
MAX_EMBED_CHARS = 5800  # under 6,000 with room for titles
MAX_EMBEDS = 10


def problems_text(problems: Iterable[Problem], locale: str) -> str:
    return "\n".join(f"• {problem_text(p.key, p.params, locale)}" for p in problems)


def field_value(value: Any, locale: str) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return t("common.none", locale)
    if isinstance(value, bool):
        return t("common.yes" if value else "common.no", locale)
    if isinstance(value, (int, float)):
        return format_number(value, locale)
    if isinstance(value, dict):
        return ", ".join(f"{k} {field_value(v, locale)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(
            field_value(v, locale) if not isinstance(v, dict) else str(v.get("nombre", v))
            for v in value
        )
    return str(value)


def _pack(
    title: str,
    groups: list[tuple[str, list[tuple[str, str]]]],
    colour: discord.Colour,
    *,
    budget: int = 6000,
    max_embeds: int = MAX_EMBEDS,
) -> list[discord.Embed]:
    """Lay ``(group, [(name, value)])`` out as fields over several embeds, within limits
    (``budget`` characters and ``max_embeds`` embeds: less when another embed shares the
    message)."""
    embeds: list[discord.Embed] = []
    current = discord.Embed(title=truncate(title, 256), colour=colour)
    size = len(current.title or "")
    for group, rows in groups:
        lines = [f"**{name}**: {value}" for name, value in rows]
        chunks: list[str] = []
        chunk = ""
        for line in lines:
            line = truncate(line, 1000)
            if len(chunk) + len(line) + 1 > 1024:
                chunks.append(chunk)
                chunk = ""
            chunk += line + "\n"
        if chunk:
            chunks.append(chunk)
        for index, text in enumerate(chunks):
            name = group if index == 0 else f"{group} ({index + 1})"
            if len(current.fields) >= MAX_FIELDS or size + len(name) + len(text) > MAX_EMBED_CHARS:
                embeds.append(current)
                current = discord.Embed(colour=colour)
                size = 0
            current.add_field(name=truncate(name, 256), value=text, inline=False)
            size += len(name) + len(text)
    embeds.append(current)
    total = 0
    kept: list[discord.Embed] = []
    for embed in embeds[:max_embeds]:
        length = len(embed)
        if total + length > budget:
            break
        kept.append(embed)
        total += length
    return kept


def has_path(sheet: Any, path: str) -> bool:
    """Whether the dotted ``path`` exists in ``sheet`` (its value may still be None)."""
    node = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def group_title(group: str, locale: str) -> str:
    """A sheet group's heading: translated when the catalogue knows it, else the game term."""
    key = f"sheet.group.{group.casefold()}"
    return t(key, locale) if catalogue().has(key) else group


def sheet_groups(
    system: str,
    sheet: Mapping[str, Any],
    fields: Iterable[FieldSpec],
    derived: Iterable[DerivedValue],
    locale: str,
) -> list[tuple[str, list[tuple[str, str]]]]:
    """The sheet's fields and derived values, grouped the way the system groups them.

    One layout for a saved character and for the wizard's last step, so the summary shown
    before «Guardar» is the sheet `/sheet show` will show after it."""
    groups: dict[str, list[tuple[str, str]]] = {}
    gender = gender_of(sheet)
    for spec in fields:
        # A system may describe fields of two sheet shapes (swc characters and monster stat
        # blocks): a field the sheet does not have at all is not shown, one set to nothing is.
        if spec.path == "name" or not has_path(sheet, spec.path):
            continue
        stored = get_path(sheet, spec.path)
        named = field_display(system, spec.path, stored, locale, gender)
        groups.setdefault(spec.group, []).append(
            (spec.label, named if named is not None else field_value(stored, locale))
        )
    for value in derived:
        named = field_display(system, value.key, value.value, locale, gender)  # Núcleo's state
        shown = named if named is not None else field_value(value.value, locale)
        if value.formula:
            shown = f"{shown} ({value.formula})"
        groups.setdefault(value.group, []).append((value.label, shown))
    return [(group_title(group, locale), rows) for group, rows in groups.items()]


def character(view: CharacterView, locale: str) -> dict[str, Any]:
    ordered = sheet_groups(view.system, view.sheet, view.fields, view.derived, locale)
    title = view.name
    if view.is_npc:
        title = t("sheet.npc_title", locale, name=view.name)
    embeds = _pack(title, ordered, COLOUR[None])
    embeds[0].description = t(
        "sheet.header",
        locale,
        system=view.system_name,
        owner=_owner(view.owner_user_id, locale),
        campaign=view.campaign_name,
    ) + ("\n" + t("sheet.hidden_mark", locale) if view.hidden else "")
    if view.problems:
        embeds[-1].add_field(
            name=t("sheet.problems_title", locale),
            value=truncate(problems_text(view.problems, locale), 1024),
            inline=False,
        )
    embeds[-1].set_footer(text=t("sheet.footer", locale, id=view.id, version=view.version))
    return {"embeds": embeds}


def _owner(user_id: int, locale: str) -> str:
    """A mention, or "the referees" for a character whose player deleted their data."""
    return f"<@{user_id}>" if user_id else t("privacy.referees", locale)


def character_list(
    rows: tuple[CharacterSummary, ...], locale: str, *, npcs: bool, deleted: bool
) -> dict[str, Any]:
    key = "sheet.list_deleted" if deleted else ("sheet.list_npcs" if npcs else "sheet.list_title")
    if not rows:
        # the list's name says what is empty (was a bare «No hay ninguno todavía.»)
        return {"content": t("sheet.list_empty", locale, title=t(key, locale)), "ephemeral": True}
    lines = []
    for row in rows:
        marks = []
        if row.active:
            marks.append(t("sheet.active_mark", locale))
        if row.hidden:
            marks.append(t("sheet.hidden_short", locale))
        owner = "" if row.is_npc else f" — {_owner(row.owner_user_id, locale)}"
        lines.append(f"• **{row.name}**{owner} {' '.join(marks)}".rstrip())
    description = fit_lines(lines, locale)
    return {
        "embed": discord.Embed(title=t(key, locale), description=description, colour=COLOUR[None]),
        "ephemeral": True,
    }


def draft(view: DraftView, locale: str) -> list[discord.Embed]:
    """The wizard's message body (the components are added by the cog).

    At the last step the whole sheet follows, as it will be saved: the prompt says
    «Revisa el resumen», so the summary must be there to review."""
    if view.step is None:
        title = t("wizard.ready_title", locale, name=view.name, genero=view.gender)
        if view.problems:
            description = (
                t("wizard.ready_problems", locale) + "\n" + problems_text(view.problems, locale)
            )
        else:
            description = t("wizard.ready", locale)
        colour = COLOUR["failure" if view.problems else "success"]
    else:
        title = t("wizard.title_npc" if view.is_npc else "wizard.title", locale, name=view.name)
        description = problem_text(view.step.prompt.key, view.step.prompt.params, locale)
        colour = COLOUR[None]
    embed = discord.Embed(
        title=truncate(title, 256), description=truncate(description, 4000), colour=colour
    )
    if view.step is not None and view.step.summary:
        embed.add_field(
            name=t("wizard.so_far", locale),
            value=truncate("\n".join(view.step.summary), 1024),
            inline=False,
        )
    if view.inherited is not None:
        name, xp, total = view.inherited
        key = "heritage.carried" if total == xp else "heritage.carried_less"
        embed.add_field(
            name=t("heritage.field", locale),
            value=truncate(t(key, locale, name=name, xp=xp, total=total), 1024),
            inline=False,
        )
    if view.notes:
        embed.add_field(
            name=t("wizard.notes", locale),
            value=truncate(problems_text(view.notes, locale), 1024),
            inline=False,
        )
    embed.set_footer(text=t("wizard.footer", locale, step=len(view.done) + 1))
    if view.step is not None:
        return [embed]
    title = t("sheet.npc_title", locale, name=view.name) if view.is_npc else view.name
    summary = _pack(
        t("flows.summary_title", locale, name=title),
        sheet_groups(view.system, view.sheet, view.fields, view.derived, locale),
        COLOUR[None],
        budget=6000 - len(embed),
        max_embeds=MAX_EMBEDS - 1,
    )
    summary[0].description = t("flows.summary_header", locale, system=view.system_name)
    return [embed, *summary]


def _opposed_lines(view: CheckView, opposed: OpposedResult, locale: str) -> str:
    """Who won an opposed check, and the opponent's roll with its dice: a visible opponent
    has nothing to hide (a hidden NPC's player view is :func:`_check_outcome_only`; the
    GM's copy shows them)."""
    winner = {"a": view.character_name, "b": view.opponent_name, "tie": t("check.tie", locale)}[
        opposed.winner
    ]
    lines = [t("check.opposed_winner", locale, winner=winner)]
    if opposed.b is not None:
        lines.append(
            t(
                "check.opposed_other",
                locale,
                name=view.opponent_name,
                total=opposed.b.total,
                label=opposed.b.label,
            )
        )
        lines.append(
            f"`{truncate(opposed.b.expression, 200)}` " + truncate(opposed.b.breakdown, 700)
        )
    return "\n".join(lines)


def check(shown: Shown[CheckView], locale: str) -> dict[str, Any]:
    """The check as its reader may see it: where the record seals the numbers (a hidden NPC
    on either side, a hidden difficulty) only the outcome — no dice, totals, targets or
    chances that would reveal a stat — and where it seals the outcome, not even that."""
    view = shown.value
    if not shown.sight.shows(Part.TOTAL):
        return _check_outcome_only(view, locale, outcome=shown.sight.shows(Part.OUTCOME))
    result = view.result
    who = t("roll.who_as_character", locale, user=view.user_name, character=view.character_name)
    title = t("check.title", locale, who=who, label=result.label)
    lines = [
        f"`{truncate(result.expression, 200)}`",
        truncate(result.breakdown, 1500),
        t("roll.total", locale, total=result.total),
    ]
    if result.modifiers:  # the active effects the rules added, by name (Niebla −2)
        named = ", ".join(f"{name} {value:+d}" for name, value in result.modifiers)
        lines.append(t("effects.applied", locale, modifiers=named))
    outcome = str(result.outcome) if result.outcome else None
    colour = COLOUR.get(outcome, COLOUR[None])
    embed = discord.Embed(title=truncate(title, 256), description="\n".join(lines), colour=colour)
    if outcome:
        verdict = t(f"check.outcome.{outcome}", locale)
        if result.target is not None:
            verdict = t("check.against", locale, verdict=verdict, target=result.target)
        embed.add_field(name=t("roll.result", locale), value=verdict, inline=True)
    if result.probability is not None:
        numerator, denominator = result.probability
        embed.add_field(
            name=t("check.chance", locale),
            value=percent(Fraction(numerator, denominator), locale),
            inline=True,
        )
    if view.opposed is not None:
        embed.add_field(
            name=t("check.opposed", locale, name=view.opponent_name),
            value=_opposed_lines(view, view.opposed, locale),
            inline=False,
        )
    if view.reason:
        embed.add_field(name=t("roll.reason", locale), value=truncate(view.reason, 1024))
    if result.notes:
        embed.add_field(
            name=t("check.circumstances", locale),
            value=truncate(
                "\n".join(f"• {t(note, locale, genero=view.gender)}" for note in result.notes),
                1024,
            ),
            inline=False,
        )
    footer = [t("roll.log_ref", locale, id=view.log_id)]
    if view.private:
        footer.append(t("roll.private_footer", locale))
    embed.set_footer(text=" · ".join(footer))
    return {"embed": embed}


def _check_outcome_only(view: CheckView, locale: str, *, outcome: bool) -> dict[str, Any]:
    result = view.result
    who = t("roll.who_as_character", locale, user=view.user_name, character=view.character_name)
    title = t("check.title", locale, who=who, label=result.label)
    verdict = str(result.outcome) if result.outcome and outcome else None
    lines = []
    if verdict:
        lines.append(t(f"check.outcome.{verdict}", locale))
    if view.opposed is not None and outcome:
        winner = {"a": view.character_name, "b": view.opponent_name, "tie": t("check.tie", locale)}[
            view.opposed.winner
        ]
        lines.append(t("check.opposed", locale, name=view.opponent_name))  # the name he typed
        lines.append(t("check.opposed_winner", locale, winner=winner))
    if view.reason:
        lines.append(f"{t('roll.reason', locale)}: {truncate(view.reason, 300)}")
    lines.append(t("check.numbers_for_gm", locale))
    embed = discord.Embed(
        title=truncate(title, 256),
        description="\n".join(lines),
        colour=COLOUR.get(verdict, COLOUR[None]),
    )
    footer = [t("roll.log_ref", locale, id=view.log_id)]
    if view.private:
        footer.append(t("roll.private_footer", locale))
    embed.set_footer(text=" · ".join(footer))
    return {"embed": embed}


def money_changed(name: str, amount: int, purse: Purse, locale: str) -> str:
    """«Dinero de Íñigo: −1 mo; ahora tiene 4 mo 5 mp.» — the change with its sign and
    currency, then the whole balance (was: «Dinero de Íñigo: -1 mo.», read as the balance;
    «Dinero de Þórr: 50 .», without the currency)."""
    change = ("+" if amount >= 0 else "−") + format_number(abs(amount), locale)
    balance = " ".join(
        f"{format_number(count, locale)} {coin}".rstrip() for count, coin in purse.balance
    )
    return t(
        "formats.money.changed",
        locale,
        name=name,
        change=f"{change} {purse.currency}".rstrip(),
        balance=balance,
    )
