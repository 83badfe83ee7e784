"""Pace view-models → Discord messages: the round of posts, reminders, the GM's digest,
absences.

Moments (posted, pending since, a deadline, the NPCization's return) are Discord timestamps
(``<t:…:R>``, ``<t:…:f>``): each reader sees them in their own zone and language.  Calendar
days (absences) are the campaign's (``zona_horaria``), through :mod:`bot.formatting`:
dd/mm/aaaa in Spanish (docs/architecture.md).  Names are text users typed:
nothing here pings anyone except a reminder's one deliberate mention.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import discord

from bot.formatting import format_date
from bot.i18n import t
from bot.services.table.pacing import (
    AbsenceView,
    DigestView,
    NpcView,
    ReminderDue,
    RoundEntry,
    RoundView,
)
from cogs.ui.render import COLOUR, fit_lines, moment, truncate
from cogs.ui.render_catch_up import owed_line

__all__ = [
    "absence_declared",
    "absences",
    "digest",
    "npc_returned",
    "reminder_dm",
    "reminder_scene",
    "status",
]


def when(at: datetime, style: str = "R") -> str:
    return moment(at, style)


def day(value: date, locale: str) -> str:
    """A calendar day of the campaign (absences): dd/mm/aaaa in Spanish, mm/dd/yyyy in English."""
    return format_date(value, locale)


def link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def _note(text: str | None) -> str:
    return f" — {truncate(text, 200)}" if text else ""


def status(view: RoundView, locale: str) -> dict[str, Any]:
    """The scene's round: who is pending (since when) and who has posted (when)."""
    lines = [
        t(
            "pace.status_since_gm" if view.gm_started else "pace.status_since_open",
            locale,
            when=when(view.started_at),
        )
    ]
    if view.deadline_hours:
        due = view.started_at + timedelta(hours=view.deadline_hours)
        lines.append(t("pace.status_deadline", locale, hours=view.deadline_hours, when=when(due)))
    else:
        lines.append(t("pace.status_no_deadline", locale))
    if not view.entries:
        lines.append(t("pace.status_nobody", locale))
    elif not view.pending:
        lines.append(t("pace.all_posted", locale))
    embed = discord.Embed(
        title=truncate(t("pace.status_title", locale, title=view.title), 256),
        description="\n".join(lines),
        colour=COLOUR[None],
    )
    pending = [_entry_line(e, view.started_at, locale) for e in view.entries if e.pending]
    posted = [_entry_line(e, view.started_at, locale) for e in view.entries if not e.pending]
    if pending:
        embed.add_field(
            name=t("pace.field_pending", locale, count=len(pending)),
            value=fit_lines(pending, locale, 1024),
            inline=False,
        )
    if posted:
        embed.add_field(
            name=t("pace.field_posted", locale, count=len(posted)),
            value=fit_lines(posted, locale, 1024),
            inline=False,
        )
    return {"embed": embed}


def _entry_line(entry: RoundEntry, since: datetime, locale: str) -> str:
    text = t(
        "pace.pending" if entry.pending else "pace.posted",
        locale,
        name=entry.name,
        player=f"<@{entry.player_id}>",
        when=when(entry.posted_at or since),
    )
    marks = []
    if entry.npcized:
        marks.append(t("pace.npcized", locale))
    if entry.absent_until is not None:
        marks.append(t("pace.absent", locale, until=day(entry.absent_until, locale)))
    return text + (f" · {' · '.join(marks)}" if marks else "")


def _only(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=user_id)], replied_user=False
    )


def reminder_scene(due: ReminderDue, locale: str) -> dict[str, Any]:
    """In the scene: pings the one member who must post, and nobody a name may mention."""
    content = t(
        "pace.reminder_scene_npc" if due.npcized else "pace.reminder_scene",
        locale,
        mention=f"<@{due.user_id}>",
        title=due.title,
        name=due.name,
        when=when(due.since),
        hours=due.hours,
    )
    return {"content": truncate(content, 2000), "allowed_mentions": _only(due.user_id)}


def reminder_dm(due: ReminderDue, locale: str) -> dict[str, Any]:
    content = t(
        "pace.reminder_dm",
        locale,
        title=due.title,
        link=link(due.guild_id, due.channel_id),
        name=due.name,
        when=when(due.since),
        hours=due.hours,
    )
    return {"content": truncate(content, 2000), "allowed_mentions": discord.AllowedMentions.none()}


def digest(view: DigestView, locale: str) -> dict[str, Any]:
    """The GM's digest: open scenes waiting, on whom (and since when), current absences."""
    lines: list[str] = []
    for scene in view.scenes:
        names = ", ".join(
            f"**{e.name}** (<@{e.responsible_id}>"
            + (f", {t('pace.npcized', locale)}" if e.npcized else "")
            + (
                f", {t('pace.absent', locale, until=day(e.absent_until, locale))}"
                if e.absent_until
                else ""
            )
            + ")"
            for e in scene.pending
        )
        lines.append(
            t(
                "pace.digest_scene",
                locale,
                title=scene.title,
                link=link(view.guild_id, scene.channel_id),
                when=when(scene.started_at),
            )
            + "\n  "
            + t("pace.digest_waiting", locale, names=names)
        )
    embed = discord.Embed(
        title=truncate(t("pace.digest_title", locale, campaign=view.campaign_name), 256),
        description=fit_lines(lines, locale, 4000) if lines else t("pace.digest_nothing", locale),
        colour=COLOUR[None],
    )
    if view.absences:
        embed.add_field(
            name=t("pace.digest_absences", locale),
            value=fit_lines(
                [
                    t(
                        "pace.digest_absence",
                        locale,
                        member=f"<@{a.user_id}>",
                        starts=day(a.starts_on, locale),
                        ends=day(a.ends_on, locale),
                        note=_note(a.note),
                    )
                    for a in view.absences
                ],
                locale,
                1024,
            ),
            inline=False,
        )
    _owed_field(embed, view, locale)
    return {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}


def _owed_field(embed: discord.Embed, view: DigestView, locale: str) -> None:
    """The digest's "who owes what": each debt with its member, what, where, since when."""
    if view.owed:
        lines = [owed_line(d, view.guild_id, locale, member=True) for d in view.owed]
        embed.add_field(
            name=t("pace.digest_owed", locale), value=fit_lines(lines, locale, 1024), inline=False
        )


def npc_returned(view: NpcView, locale: str) -> dict[str, Any]:
    content = t("pace.npc_returned", locale, name=view.name, player=f"<@{view.player_user_id}>")
    return {"content": truncate(content, 2000), "allowed_mentions": discord.AllowedMentions.none()}


def npcized(view: NpcView, locale: str) -> str:
    until = t("pace.npcized_until", locale, when=moment(view.until)) if view.until else ""
    return t(
        "pace.npcized_done",
        locale,
        name=view.name,
        player=f"<@{view.player_user_id}>",
        until=until,
        genero=view.genero,
    )


def absence_declared(view: AbsenceView, locale: str) -> str:
    return t(
        "pace.absence_declared",
        locale,
        id=view.id,
        starts=day(view.starts_on, locale),
        ends=day(view.ends_on, locale),
        note=_note(view.note),
    ) + (t("pace.absence_catch_up", locale) if view.catch_up else "")


def absences(views: tuple[AbsenceView, ...], everyone: bool, locale: str) -> dict[str, Any]:
    lines = [
        t(
            "pace.absence_line",
            locale,
            id=a.id,
            member=f"<@{a.user_id}>",
            starts=day(a.starts_on, locale),
            ends=day(a.ends_on, locale),
            note=_note(a.note),
        )
        for a in views
    ]
    embed = discord.Embed(
        title=t("pace.absences_title_all" if everyone else "pace.absences_title", locale),
        description=fit_lines(lines, locale, 4000) if lines else t("pace.absences_none", locale),
        colour=COLOUR[None],
    )
    return {"embed": embed}
